/**
 * Runs real n8n workflows in-process with n8n-core's `WorkflowExecute`, the engine an n8n
 * main instance runs executions with (cli WorkflowRunner.runMainProcess). See README.md.
 */
import { Container } from '@n8n/di';
import { ExecutionLifecycleHooks, ExternalSecretsProxy, WorkflowExecute } from 'n8n-core';
import type {
	ExecutionError,
	ExecutionStatus,
	ICredentialDataDecryptedObject,
	ICredentialType,
	IDataObject,
	IConnections,
	IExecuteData,
	INode,
	INodeExecutionData,
	INodeType,
	IPinData,
	IRun,
	IRunData,
	IRunExecutionData,
	IVersionedNodeType,
	IWorkflowBase,
	IWorkflowExecuteAdditionalData,
	IWorkflowSettings,
} from 'n8n-workflow';
import {
	ManualExecutionCancelledError,
	NodeConnectionTypes,
	TimeoutExecutionCancelledError,
	UnexpectedError,
	UserError,
	Workflow,
	WorkflowOperationError,
	createRunExecutionData,
	deepCopy,
	jsonStringify,
	migrateRunExecutionData,
} from 'n8n-workflow';
import type PCancelable from 'p-cancelable';

import { type CrashEvents, recoverCrashedExecution } from './crash';
import { HarnessCredentialsHelper } from './credentials-helper';
import { type BinaryDataMode, ensureEnvironment } from './environment';
import { type HarnessNodeTypes, buildRegistry } from './registry';

export { harnessEvents } from './nodes/events';
export { CUSTOM_PREFIX, PACKAGE_NAME } from './registry';

/** The JSON n8n exports for a workflow (extra fields such as meta, tags are ignored). */
export interface WorkflowJson {
	id?: string;
	name?: string;
	nodes: INode[];
	connections: IConnections;
	settings?: IWorkflowSettings;
	pinData?: IPinData;
	staticData?: IDataObject | null;
	active?: boolean;
	[key: string]: unknown;
}

export type HarnessMode = 'manual' | 'trigger' | 'webhook' | 'retry';

/** What a saved execution holds; a RunResult is one. */
export interface SavedExecution {
	executionId: string;
	status: ExecutionStatus;
	mode?: HarnessMode | string;
	runExecutionData: IRunExecutionData;
}

export interface RunOptions {
	/** Decrypted credential data by credential type, e.g. `{ deckGenApi: { apiKey, baseUrl } }`. */
	credentials?: Record<string, Record<string, unknown>>;
	/** Items handed to the start node (default: one empty item). */
	inputItems?: INodeExecutionData[];
	/** Execution id to run under (default: a new one, as n8n assigns for every new execution). */
	executionId?: string;
	/**
	 * A saved execution to continue from.
	 * - status 'error' / 'canceled' / 'crashed': n8n's "Retry execution" (ExecutionService.retry
	 *   + WorkflowRunner): a NEW execution (new id unless `executionId` is given, `retryOf` set)
	 *   in mode 'retry' that continues the saved run data: earlier nodes' data and the node
	 *   execution context are kept, the failed node (still on the saved execution stack) runs
	 *   again. The workflow passed to runWorkflow is the one used (n8n's "retry with currently
	 *   saved workflow").
	 * - status 'waiting' (a node called putExecutionToWait): n8n resuming a waiting execution
	 *   (WaitTracker): the SAME execution id and mode continue.
	 */
	previousRun?: SavedExecution;
	/** Aborting it stops the execution as n8n's "Stop execution" does (WorkflowExecute.cancel). */
	signal?: AbortSignal;
	/**
	 * n8n dies during the execution (SIGKILL, out of memory) and starts again (see crash.ts): when
	 * the node `atNodeStart` starts, or when `signal` aborts. The run stops taking new work at once
	 * (requests already sent have reached the service), and the result is the execution as n8n's
	 * crash recovery leaves it with the default settings: status 'crashed', the data it began with
	 * (no outputs, no node context, no error of the run) plus recovery's runs (an artificial item for
	 * every node that finished, a crashed run for the one that did not). Retry it with `previousRun`.
	 */
	crash?: { atNodeStart?: string; signal?: AbortSignal };
	/** Execution mode of a new execution (default 'manual'). 'retry' requires previousRun. */
	mode?: HarnessMode;
	/** Name of the node to start from (default: the workflow's trigger). */
	startNode?: string;
	/**
	 * Add `{ id, name }` references to `node.credentials` for credential types given in
	 * `credentials` that a node's type declares but the workflow JSON does not reference
	 * (default true). Set false to test a node without credentials configured.
	 */
	assignCredentials?: boolean;
	/** Extra node types for this run, by full type name. */
	nodeTypes?: Record<string, INodeType | IVersionedNodeType>;
	/** Credential types used only when credentials/ does not provide one of that name. */
	fallbackCredentialTypes?: ICredentialType[];
	/** Credential types that replace a loaded one of the same name. */
	credentialTypes?: ICredentialType[];
	/** 'default' keeps binary data in the items (base64), 'filesystem' uses n8n's file store. */
	binaryDataMode?: BinaryDataMode;
}

export interface RunResult extends SavedExecution {
	executionId: string;
	/** For a retry: the id of the execution it retried. */
	retryOf?: string;
	mode: HarnessMode | string;
	status: ExecutionStatus;
	finished: boolean;
	/** The execution's error (`resultData.error`), as n8n saves it. */
	error?: ExecutionError;
	/** Live run data of the execution. */
	runData: IRunData;
	/** A JSON copy of the execution data, as n8n would save it; pass the result as `previousRun`. */
	runExecutionData: IRunExecutionData;
	/** Items of one output of one run (default: output 0 of the node's last run). */
	output(nodeName: string, outputIndex?: number, runIndex?: number): INodeExecutionData[];
	/** All outputs of a node's run (default: its last run); an output with no data is []. */
	outputs(nodeName: string, runIndex?: number): INodeExecutionData[][];
	/** The error of a node's run (default: its last run), or undefined. */
	nodeError(nodeName: string, runIndex?: number): unknown;
	/** Number of runs of a node (0 when it did not run). */
	runCount(nodeName: string): number;
	/** Node names in the order their execution finished (nodeExecuteAfter hook). */
	nodeExecutionOrder: string[];
	/** Every line n8n's logger and LoggerProxy emitted during this run. */
	logs: string[];
	startedAt: Date;
	stoppedAt?: Date;
	/** Package files found and loaded for this run (diagnostics). */
	loaded: { nodes: string[]; credentials: string[] };
}

let executionCounter = 0;

/** n8n ids are the executions table's auto-increment ids: numeric strings. */
function newExecutionId(): string {
	executionCounter += 1;
	return String(1000 + executionCounter);
}

const HARNESS_BASE_URL = 'http://localhost:5678/';

function createAdditionalData(options: {
	credentialsHelper: HarnessCredentialsHelper;
	executionId: string;
	restartExecutionId?: string;
	hooks: ExecutionLifecycleHooks;
	workflowId: string;
	workflowSettings: IWorkflowSettings;
	executionTimeoutTimestamp?: number;
}): IWorkflowExecuteAdditionalData {
	const additionalData = {
		credentialsHelper: options.credentialsHelper,
		executeWorkflow: async () => {
			throw new UnexpectedError('The test harness does not run sub-workflows');
		},
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		executionId: options.executionId,
		restartExecutionId: options.restartExecutionId,
		currentNodeExecutionIndex: 0,
		restApiUrl: `${HARNESS_BASE_URL}rest`,
		instanceBaseUrl: HARNESS_BASE_URL,
		formBaseUrl: `${HARNESS_BASE_URL}form`,
		formWaitingBaseUrl: `${HARNESS_BASE_URL}form-waiting`,
		formTestBaseUrl: `${HARNESS_BASE_URL}form-test`,
		webhookBaseUrl: `${HARNESS_BASE_URL}webhook`,
		webhookWaitingBaseUrl: `${HARNESS_BASE_URL}webhook-waiting`,
		webhookTestBaseUrl: `${HARNESS_BASE_URL}webhook-test`,
		mcpBaseUrl: `${HARNESS_BASE_URL}mcp`,
		mcpTestBaseUrl: `${HARNESS_BASE_URL}mcp-test`,
		variables: {},
		logAiEvent: () => {},
		startRunnerTask: async () => {
			throw new UnexpectedError('The test harness has no task runners (Code node)');
		},
		setExecutionStatus: () => {},
		sendDataToUI: () => {},
		userId: 'harness-user',
		workflowId: options.workflowId,
		workflowSettings: options.workflowSettings,
		executionTimeoutTimestamp: options.executionTimeoutTimestamp,
		hooks: options.hooks,
		externalSecretsProxy: Container.get(ExternalSecretsProxy),
	};
	return additionalData as unknown as IWorkflowExecuteAdditionalData;
}

/** Adds node.credentials references for given credential types a node's type declares. */
function assignNodeCredentials(
	nodes: INode[],
	nodeTypes: HarnessNodeTypes,
	credentialsHelper: HarnessCredentialsHelper,
	references: Map<string, { id: string; name: string }>,
) {
	for (const node of nodes) {
		let declared: string[] = [];
		try {
			const type = nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
			declared = (type.description.credentials ?? []).map((c) => c.name);
		} catch {
			continue; // unknown type: WorkflowExecute reports it
		}
		for (const credentialType of declared) {
			if (!credentialsHelper.hasCredential(credentialType)) continue;
			if (node.credentials?.[credentialType]) continue;
			node.credentials = { ...node.credentials, [credentialType]: references.get(credentialType)! };
		}
	}
}

function findStartNode(workflow: Workflow, nodeTypes: HarnessNodeTypes, name?: string): INode {
	if (name) {
		const node = workflow.getNode(name);
		if (!node) throw new UserError(`The workflow has no node named "${name}"`);
		return node;
	}
	for (const node of Object.values(workflow.nodes)) {
		if (node.disabled) continue;
		if (workflow.connectionsByDestinationNode[node.name]?.main?.some((c) => c?.length)) continue;
		let type: INodeType;
		try {
			type = nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
		} catch {
			continue;
		}
		const isTrigger =
			type.trigger !== undefined ||
			type.poll !== undefined ||
			type.webhook !== undefined ||
			type.description.group.includes('trigger');
		if (isTrigger) return node;
	}
	const fallback = workflow.getStartNode();
	if (!fallback) throw new UserError('No node to start the workflow from could be found');
	return fallback;
}

/** What saving an execution does to its data: a JSON round trip. */
function serialise(data: IRunExecutionData): IRunExecutionData {
	return JSON.parse(jsonStringify(data, { replaceCircularRefs: true })) as IRunExecutionData;
}

/**
 * The retry preparation of n8n's ExecutionService.retry: drop the execution's error and,
 * if the last run of the last executed node failed, that run, so it is replaced.
 */
function prepareRetry(data: IRunExecutionData, workflow: Workflow) {
	const { lastNodeExecuted } = data.resultData;
	if (lastNodeExecuted) {
		delete data.resultData.error;
		const runs = data.resultData.runData[lastNodeExecuted];
		if (runs?.length && runs[runs.length - 1].error !== undefined) runs.pop();
	}
	// "Retry with currently saved workflow": the stack uses the current workflow's nodes.
	for (const stackEntry of data.executionData?.nodeExecutionStack ?? []) {
		const node = workflow.getNode(stackEntry.node.name);
		if (node === null) {
			throw new WorkflowOperationError(
				`Could not find the node "${stackEntry.node.name}" in workflow. It probably got deleted or renamed. Without it the workflow can sadly not be retried.`,
			);
		}
		stackEntry.node = deepCopy(node);
	}
}

export async function runWorkflow(workflowJson: WorkflowJson, opts: RunOptions = {}): Promise<RunResult> {
	const environment = await ensureEnvironment(opts.binaryDataMode ?? 'default');
	const registry = buildRegistry(opts);
	const credentialsHelper = new HarnessCredentialsHelper(registry.credentialTypes);
	const references = new Map<string, { id: string; name: string }>();
	for (const [type, data] of Object.entries(opts.credentials ?? {})) {
		references.set(type, await credentialsHelper.addCredential(type, data as ICredentialDataDecryptedObject));
	}

	const workflowData = deepCopy(workflowJson) as WorkflowJson;
	if (opts.assignCredentials !== false) {
		assignNodeCredentials(workflowData.nodes, registry.nodeTypes, credentialsHelper, references);
	}

	const previous = opts.previousRun;
	let mode: string;
	let executionId: string;
	let retryOf: string | undefined;
	let restartExecutionId: string | undefined;
	let runExecutionData: IRunExecutionData;

	if (previous) {
		runExecutionData = migrateRunExecutionData(
			JSON.parse(JSON.stringify(previous.runExecutionData)) as IRunExecutionData,
		);
		if (previous.status === 'waiting' || runExecutionData.waitTill) {
			// WaitTracker.startExecution -> WorkflowRunner.run(data, ..., { executionId }).
			mode = previous.mode ?? opts.mode ?? 'manual';
			executionId = previous.executionId;
			restartExecutionId = previous.executionId;
		} else {
			if (previous.status === 'success') {
				throw new UnexpectedError('The execution succeeded, so it cannot be retried.');
			}
			if (!runExecutionData.executionData) {
				throw new UnexpectedError('The execution was aborted before starting, so it cannot be retried.');
			}
			mode = 'retry';
			executionId = opts.executionId ?? newExecutionId();
			retryOf = previous.executionId;
		}
	} else {
		if (opts.mode === 'retry') throw new UserError("mode 'retry' needs previousRun");
		mode = opts.mode ?? 'manual';
		executionId = opts.executionId ?? newExecutionId();
		runExecutionData = createRunExecutionData(); // replaced below once the workflow exists
	}

	const settings: IWorkflowSettings = workflowData.settings ?? {};
	// As WorkflowRunner.resolvePinData: pinned data only applies to manual executions.
	const pinData = mode === 'manual' ? workflowData.pinData : undefined;
	const workflow = new Workflow({
		id: workflowData.id ?? 'harness-workflow',
		name: workflowData.name ?? 'Harness workflow',
		nodes: workflowData.nodes,
		connections: workflowData.connections,
		active: false,
		nodeTypes: registry.nodeTypes,
		staticData: workflowData.staticData ?? undefined,
		settings,
		pinData,
	});

	if (previous) {
		if (mode === 'retry') prepareRetry(runExecutionData, workflow);
	} else {
		const startNode = findStartNode(workflow, registry.nodeTypes, opts.startNode);
		const stackEntry: IExecuteData = {
			node: startNode,
			data: { [NodeConnectionTypes.Main]: [opts.inputItems ?? [{ json: {} }]] },
			source: null,
		};
		runExecutionData = createRunExecutionData({
			executionData: { nodeExecutionStack: [stackEntry] },
			resultData: { pinData },
		});
	}

	const workflowBase = { ...workflowData, id: workflow.id, name: workflow.name, active: false } as unknown as IWorkflowBase;
	const hooks = new ExecutionLifecycleHooks(mode as IRun['mode'], executionId, workflowBase, retryOf);
	const nodeExecutionOrder: string[] = [];
	hooks.addHandler('nodeExecuteAfter', (nodeName) => {
		nodeExecutionOrder.push(nodeName);
	});

	// A crash (opts.crash): what n8n wrote when the execution began, and its event log up to the crash.
	const savedAtStart = opts.crash ? serialise(runExecutionData) : undefined;
	const crashEvents: CrashEvents = { started: new Map(), finished: new Map() };
	let crashed = false;
	let running: PCancelable<IRun> | undefined;
	const crash = () => {
		if (crashed) return;
		crashed = true;
		running?.cancel();
	};
	if (opts.crash) {
		hooks.addHandler('nodeExecuteBefore', (nodeName) => {
			if (crashed) return;
			crashEvents.started.set(nodeName, Date.now());
			if (opts.crash?.atNodeStart === nodeName) crash();
		});
		hooks.addHandler('nodeExecuteAfter', (nodeName) => {
			if (!crashed) crashEvents.finished.set(nodeName, Date.now());
		});
	}

	// Execution timeout (settings.executionTimeout, seconds), as WorkflowRunner.runMainProcess.
	const workflowTimeout = settings.executionTimeout ?? -1;
	const executionTimeoutTimestamp = workflowTimeout > 0 ? Date.now() + workflowTimeout * 1000 : undefined;

	const additionalData = createAdditionalData({
		credentialsHelper,
		executionId,
		restartExecutionId,
		hooks,
		workflowId: workflow.id,
		workflowSettings: settings,
		executionTimeoutTimestamp,
	});

	const logs: string[] = [];
	const startedAt = new Date();
	let canceled = false;
	let fullRun: IRun;

	fullRun = await environment.logger.runLines.run(logs, async () => {
		let execution: PCancelable<IRun>;
		try {
			const workflowExecute = new WorkflowExecute(additionalData, mode as IRun['mode'], runExecutionData);
			execution = workflowExecute.processRunExecutionData(workflow);
			running = execution;
		} catch (error) {
			// e.g. WorkflowHasIssuesError: n8n records a failed execution (WorkflowRunner.failExecution).
			const e = error as Error;
			environment.logger.error(`Execution ${executionId} could not start: ${e.message}`, { error: e });
			return {
				data: createRunExecutionData({
					resultData: {
						error: { ...(e as unknown as ExecutionError), message: e.message, stack: e.stack },
						runData: {},
					},
				}),
				finished: false,
				mode: mode as IRun['mode'],
				startedAt,
				stoppedAt: new Date(),
				status: 'error',
				storedAt: 'db',
			} as IRun;
		}

		const cancel = (reason: Error) => {
			if (canceled) return;
			canceled = true;
			environment.logger.info(`Stopping execution ${executionId}: ${reason.message}`);
			execution.cancel();
		};
		const onAbort = () => cancel(new ManualExecutionCancelledError(executionId));
		let timeout: NodeJS.Timeout | undefined;
		if (opts.signal?.aborted) onAbort();
		else opts.signal?.addEventListener('abort', onAbort, { once: true });
		if (opts.crash?.signal?.aborted || crashed) {
			crashed = false;
			crash();
		} else opts.crash?.signal?.addEventListener('abort', crash, { once: true });
		if (executionTimeoutTimestamp !== undefined) {
			timeout = setTimeout(
				() => cancel(new TimeoutExecutionCancelledError(executionId)),
				executionTimeoutTimestamp - Date.now(),
			);
		}
		try {
			return await execution;
		} finally {
			opts.signal?.removeEventListener('abort', onAbort);
			opts.crash?.signal?.removeEventListener('abort', crash);
			if (timeout) clearTimeout(timeout);
		}
	});

	if (crashed) {
		// Everything the run did is gone; the restarted n8n holds only what crash recovery saved.
		const recovered = recoverCrashedExecution(savedAtStart!, workflowData.nodes, crashEvents);
		fullRun = { ...fullRun, data: recovered, status: 'crashed', finished: false };
	}

	const status: ExecutionStatus = crashed ? 'crashed' : canceled ? 'canceled' : fullRun.status;
	const finished = !crashed && !canceled && fullRun.finished === true;
	const runData = fullRun.data.resultData.runData;
	const savedData = serialise(fullRun.data);

	const runOf = (nodeName: string, runIndex?: number) => {
		const runs = runData[nodeName] ?? [];
		return runs[runIndex ?? runs.length - 1];
	};
	const result: RunResult = {
		executionId,
		retryOf,
		mode,
		status,
		finished,
		error: fullRun.data.resultData.error,
		runData,
		runExecutionData: savedData,
		output: (nodeName, outputIndex = 0, runIndex) =>
			runOf(nodeName, runIndex)?.data?.[NodeConnectionTypes.Main]?.[outputIndex] ?? [],
		outputs: (nodeName, runIndex) =>
			(runOf(nodeName, runIndex)?.data?.[NodeConnectionTypes.Main] ?? []).map((items) => items ?? []),
		nodeError: (nodeName, runIndex) => runOf(nodeName, runIndex)?.error,
		runCount: (nodeName) => runData[nodeName]?.length ?? 0,
		nodeExecutionOrder,
		logs,
		startedAt,
		stoppedAt: fullRun.stoppedAt,
		loaded: registry.loaded,
	};
	return result;
}

/** Every line logged in this module registry (test file) so far, in and outside runs. */
export async function allLogs(): Promise<string[]> {
	return [...(await ensureEnvironment()).logger.lines];
}

/** Full type names the harness can run (package nodes that exist, stand-ins, probes). */
export async function loadedNodeTypeNames(options: Pick<RunOptions, 'nodeTypes'> = {}): Promise<string[]> {
	await ensureEnvironment();
	return buildRegistry(options).nodeTypes.knownTypeNames();
}

/** Makes a minimal node for workflow JSON written in tests. */
export function node(
	name: string,
	type: string,
	parameters: INode['parameters'] = {},
	extra: Partial<INode> = {},
): INode {
	return {
		id: extra.id ?? `${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-id`,
		name,
		type,
		typeVersion: 1,
		position: [0, 0],
		parameters,
		...extra,
	};
}

/** Connects `from`'s outputs (index = output) to nodes' first input: connect(['A'], ['B','C']). */
export function connections(links: Array<[from: string, to: string, outputIndex?: number]>): IConnections {
	const result: IConnections = {};
	for (const [from, to, outputIndex = 0] of links) {
		result[from] ??= { main: [] };
		const main = result[from].main;
		while (main.length <= outputIndex) main.push([]);
		main[outputIndex]!.push({ node: to, type: NodeConnectionTypes.Main, index: 0 });
	}
	return result;
}

export { testCredentials } from './credential-test';
