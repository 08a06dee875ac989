import {
	NodeConnectionTypes,
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { CancelledError } from '../shared/client';
import { CREDENTIAL_TEST_METHOD, deckGenApiTest } from '../shared/n8n/credentialTest';
import { failureDescription, failureMessage } from '../shared/n8n/errors';
import { errorJson } from '../shared/n8n/item';
import { isToolCall } from '../shared/n8n/runner';
import { toolDescriptionProperty, WAIT_TOOL_DESCRIPTION, waitToolAnswer } from '../shared/n8n/tool';
import { isLoopback, serviceFor } from '../shared/n8n/service';
import {
	CONTRACT_POLL_INTERVAL_MS,
	DEFAULT_MAX_WAIT_MS,
	pollDecks,
	type DeckReport,
	type DeckSpec,
	type WaitOutcome,
} from '../shared/poller';
import type { ServiceFailure } from '../shared/problem';
import { valueAtPath } from '../shared/path';
import { deckLinks, chooseLink, putDeckLinks } from '../shared/links';
import { downloadFile, downloadOptions, readDownloadSettings } from '../shared/n8n/download';
import { deckPath } from '../shared/transport';
import { parseWordList, statusWords, type StatusWords } from '../shared/status';

type Mode = 'waitUntilDone' | 'checkOnce';

interface WaitOptions {
	binaryPropertyName?: string;
	downloadFile?: boolean;
	downloadLink?: string;
	maxDownloadMb?: number;
	failedWords?: string;
	maxWaitMinutes?: number;
	pollIntervalSeconds?: number;
	runningWords?: string;
	simplify?: boolean;
	succeededWords?: string;
}

const OUTPUT_OF: Record<WaitOutcome, number> = { completed: 0, failed: 1, still_running: 2 };

/** The node version whose Task ID is an expression (`taskId`) rather than a field path (`taskIdField`). */
export const TASK_ID_EXPRESSION_VERSION = 1.1;

/** A download option, offered only while Download File is on (a sibling in the same Options). */
function onlyWithDownloadFile(option: INodeProperties): INodeProperties {
	return { ...option, displayOptions: { show: { downloadFile: [true] } } };
}

export class DeckGenWait implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Deck Generator Wait',
		name: 'deckGenWait',
		icon: { light: 'file:deckgenwait.svg', dark: 'file:deckgenwait.dark.svg' },
		group: ['transform'],
		// 1.1: Task ID is an expression, as on the Deck Generator node; 1 (workflows saved by 0.1 and
		// 0.2) keeps Task ID Field, a field path.
		version: [1, TASK_ID_EXPRESSION_VERSION],
		defaultVersion: TASK_ID_EXPRESSION_VERSION,
		subtitle: '={{$parameter["mode"] === "checkOnce" ? "Check once" : "Wait until done"}}',
		description: 'Wait for slide decks to finish generating and route them by outcome',
		defaults: {
			name: 'Deck Generator Wait',
		},
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main, NodeConnectionTypes.Main, NodeConnectionTypes.Main],
		outputNames: ['Completed', 'Failed', 'Still Running'],
		credentials: [
			{
				name: 'deckGenApi',
				required: true,
				testedBy: 'deckGenApiTest',
			},
		],
		properties: [
			{
				displayName: 'Mode',
				name: 'mode',
				type: 'options',
				noDataExpression: true,
				options: [
					{
						name: 'Check Once',
						value: 'checkOnce',
						description:
							'Read each deck’s status once and route it; loop back through a Wait node for very long or very many decks',
					},
					{
						name: 'Wait Until Done',
						value: 'waitUntilDone',
						description: 'Poll every deck until it finishes or Max Wait passes',
					},
				],
				default: 'waitUntilDone',
			},
			{
				displayName: 'Task ID',
				name: 'taskId',
				type: 'string',
				default: '={{ $json.taskId }}',
				required: true,
				displayOptions: { show: { '@version': [{ _cnd: { gte: TASK_ID_EXPRESSION_VERSION } }], '@tool': [false] } },
				description:
					'The taskId returned by Deck Generator → Create. The default reads it from the input item, as Get Status and Download do; point the expression elsewhere when it is nested.',
			},
			{
				displayName: 'Task ID Field',
				name: 'taskIdField',
				type: 'string',
				default: 'taskId',
				required: true,
				placeholder: 'e.g. taskId or deck.taskId',
				displayOptions: { show: { '@version': [{ _cnd: { lt: TASK_ID_EXPRESSION_VERSION } }], '@tool': [false] } },
				description:
					'Name of the input field holding the deck’s task ID, as Deck Generator → Create returns it; dots reach into nested fields',
			},
			// As an AI tool the model passes the task id itself, and the node checks once (a tool call
			// cannot wait 10 to 35 minutes): shared/n8n/tool.ts.
			{
				displayName: 'Task ID',
				name: 'taskId',
				type: 'string',
				default: "={{ $fromAI('taskId', 'The taskId that Create returned', 'string') }}",
				required: true,
				displayOptions: { show: { '@tool': [true] } },
				description: 'The deck to check: the model fills it (the $fromAI key is the tool argument’s name). As a tool the node always checks once, whatever the Mode.',
			},
			toolDescriptionProperty(WAIT_TOOL_DESCRIPTION),
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					onlyWithDownloadFile(downloadOptions[0]),
					{
						displayName: 'Download File',
						name: 'downloadFile',
						type: 'boolean',
						default: false,
						description:
							'Whether to download each completed deck’s file into the item’s binary data, so Email and Slack nodes can attach it. On: Binary Property, Download Link Path and Max Download Size can be added.',
					},
					onlyWithDownloadFile(downloadOptions[1]),
					{
						displayName: 'Failed Status Words',
						name: 'failedWords',
						type: 'string',
						default: '',
						placeholder: 'e.g. failed, error',
						description:
							'Comma-separated status words that mean the deck failed, replacing the built-in list (failed, failure, error, errored, cancelled, canceled, expired, rejected)',
					},
					onlyWithDownloadFile(downloadOptions[2]),
					{
						displayName: 'Max Wait (Minutes)',
						name: 'maxWaitMinutes',
						type: 'number',
						typeOptions: { minValue: 0 },
						default: 60,
						displayOptions: { show: { '/mode': ['waitUntilDone'] } },
						description:
							'How long to keep polling, a hard bound (no retry or rate-limit pause goes past it); decks not finished by then go to the Still Running output with their last status, so a later run can resume them',
					},
					{
						displayName: 'Poll Interval (Seconds)',
						name: 'pollIntervalSeconds',
						type: 'number',
						// No numberPrecision: the editor shows 5, not 5.000, and a test may still set 0.01.
						typeOptions: { minValue: 0.001 },
						default: 5,
						displayOptions: { show: { '/mode': ['waitUntilDone'] } },
						description: 'Time between two status reads of one deck',
						hint: 'The service asks for 5 seconds. A lower value only applies when the credential’s Base URL is loopback (tests); otherwise 5 is used.',
					},
					{
						displayName: 'Running Status Words',
						name: 'runningWords',
						type: 'string',
						default: '',
						placeholder: 'e.g. queued, generating',
						description:
							'Comma-separated status words that mean the deck is still being generated, replacing the built-in list; any word on no list also keeps polling and is reported as it came',
					},
					{
						displayName: 'Simplify',
						name: 'simplify',
						type: 'boolean',
						default: false,
						description:
							'Whether to return only what the next step needs (taskId, status, state, outcome, deckUrl; the file when downloaded, whose name, type and size are in its binary metadata; the reason on Failed) instead of the input’s fields, the whole status answer and its links. Keeps the data n8n stores small in a Check Once loop.',
					},
					{
						displayName: 'Succeeded Status Words',
						name: 'succeededWords',
						type: 'string',
						default: '',
						placeholder: 'e.g. completed, ready',
						description:
							'Comma-separated status words that mean the deck is ready, replacing the built-in list (completed, complete, done, succeeded, success, ready, finished)',
					},
				],
			},
		],
	};

	methods = { credentialTest: { [CREDENTIAL_TEST_METHOD]: deckGenApiTest } };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const node = this.getNode();
		const service = await serviceFor(this);
		const loopback = isLoopback(service.baseUrl);
		// As an AI tool only output 0 reaches the model; `outcome` says what happened.
		const singleOutput = isToolCall(this);

		const outputs: INodeExecutionData[][] = [[], [], []];
		const placed: Array<{ output: number; item: INodeExecutionData } | undefined> = new Array(items.length);
		const waiting: Array<{ index: number; spec: DeckSpec }> = [];
		let clampedFrom: number | undefined;
		// Items almost always share their word lists: one map for all of them, not one per item.
		const wordMaps = new Map<string, StatusWords>();
		const wordsFor = (options: WaitOptions): StatusWords => {
			const key = [options.succeededWords, options.failedWords, options.runningWords].join('\u0000');
			let words = wordMaps.get(key);
			if (!words) {
				words = statusWords({
					succeeded: parseWordList(options.succeededWords),
					failed: parseWordList(options.failedWords),
					running: parseWordList(options.runningWords),
				});
				wordMaps.set(key, words);
			}
			return words;
		};

		// Every item is checked before any waiting starts: a bad item fails fast, not after an hour.
		for (let index = 0; index < items.length; index++) {
			const { taskId, error } = singleOutput ? toolTaskId(this, index) : readTaskId(this, index, items[index].json);
			if (error) {
				// As a tool a missing task id is an answer to the model, not a failed execution.
				if (!this.continueOnFail() && !singleOutput) throw error;
				// The package's error item (as runner.ts): n8n keeps this JSON as it is, and moves it to
				// the error output when On Error is "continue (using error output)".
				placed[index] = {
					output: OUTPUT_OF.failed,
					item: {
						json: errorJson(error.message, error.description, { outcome: 'failed', code: 'missing_task_id', field: error.field }),
						pairedItem: { item: index },
					},
				};
				continue;
			}

			const mode = singleOutput ? 'checkOnce' : (this.getNodeParameter('mode', index, 'waitUntilDone') as Mode);
			const options = this.getNodeParameter('options', index, {}) as WaitOptions;
			const interval = pollInterval(options.pollIntervalSeconds, loopback);
			if (interval.clampedFrom !== undefined && mode === 'waitUntilDone') clampedFrom = interval.clampedFrom;
			waiting.push({
				index,
				spec: {
					taskId,
					intervalMs: interval.ms,
					maxWaitMs: options.maxWaitMinutes !== undefined ? options.maxWaitMinutes * 60_000 : DEFAULT_MAX_WAIT_MS,
					once: mode === 'checkOnce',
					words: wordsFor(options),
				},
			});
		}

		if (waiting.some((entry) => !entry.spec.once) && this.getWorkflowSettings().saveExecutionProgress !== true) {
			this.addExecutionHints?.({ message: UNSAVED_PROGRESS_HINT, type: 'info', location: 'outputPane' });
		}
		if (clampedFrom !== undefined) {
			const message = `Poll Interval of ${clampedFrom} s is below the 5 s the service asks for; polling every 5 s (only a loopback Base URL is polled faster)`;
			this.logger.warn(`Deck Generator Wait: ${message}`);
			this.addExecutionHints?.({ message, type: 'warning', location: 'outputPane' });
		}

		let reports: DeckReport[];
		try {
			reports = await pollDecks(
				waiting.map((entry) => entry.spec),
				{
					fetchStatus: async (taskId, deadline) =>
						await service.call({ method: 'GET', path: deckPath(taskId, 'status') }, undefined, deadline),
					sleep: service.sleep,
					signal: service.signal,
					gate: service.gate,
				},
			);
		} catch (error) {
			if (error instanceof CancelledError) throw new NodeOperationError(node, 'The execution was cancelled');
			throw new NodeOperationError(node, error as Error);
		}

		const used = new Set<DeckReport>();
		waiting.forEach(({ index }, n) => {
			const report = reports[n];
			// Items naming the same deck share a report; each gets its own copy of the body.
			const body = used.has(report) && report.body ? structuredClone(report.body) : report.body;
			used.add(report);
			placed[index] = { output: OUTPUT_OF[report.outcome], item: itemFor(items[index], index, report, body, service.baseUrl) };
		});
		await downloadCompleted(this, service.baseUrl, placed);
		simplifyItems(this, placed);
		for (const entry of placed) {
			if (!entry) continue;
			if (singleOutput) entry.item.json = waitToolAnswer(node, entry.item.json, service.baseUrl);
			outputs[singleOutput ? 0 : entry.output].push(entry.item);
		}

		const requests = [...used].reduce((sum, report) => sum + report.requests, 0);
		this.logger.debug(
			`Deck Generator Wait: ${items.length} items, ${outputs[0].length} completed, ${outputs[1].length} failed, ${outputs[2].length} still running, ${requests} status requests`,
		);
		return outputs;
	}
}

/**
 * Said when Wait Until Done runs in a workflow that does not save its progress: by default n8n
 * saves an execution only at its start, at a wait and at its end, so a restart while this node
 * waits loses every output before it.
 */
export const UNSAVED_PROGRESS_HINT =
	'This workflow does not save execution progress (unless your n8n does so by default: EXECUTIONS_DATA_SAVE_ON_PROGRESS). If n8n restarts or crashes while this node waits, the execution is marked crashed and the decks bought before it are not in it; Retry replays those purchases without charging again. To resume at this node instead, turn on "Save execution progress" in the workflow settings. For many or long decks, use Check Once with n8n\'s Wait node.';

/**
 * The interval between two reads of a deck. Below the contract's 5 s only on a loopback base URL
 * (tests, benchmarks): the real service is never polled faster than it asks.
 */
export function pollInterval(seconds: number | undefined, loopback: boolean): { ms: number; clampedFrom?: number } {
	const ms = (seconds ?? CONTRACT_POLL_INTERVAL_MS / 1000) * 1000;
	if (ms < CONTRACT_POLL_INTERVAL_MS && !loopback) return { ms: CONTRACT_POLL_INTERVAL_MS, clampedFrom: ms / 1000 };
	return { ms };
}

/**
 * The item's task id: version 1.1 reads the Task ID parameter (an expression, `{{ $json.taskId }}`
 * by default, as Get Status and Download take it); version 1 the field path in Task ID Field.
 */
function readTaskId(
	ctx: IExecuteFunctions,
	index: number,
	json: IDataObject,
): { taskId: string; error?: undefined } | { taskId?: undefined; error: NodeOperationError & { field: string } } {
	if (ctx.getNode().typeVersion >= TASK_ID_EXPRESSION_VERSION) {
		const taskId = taskIdOfValue(ctx.getNodeParameter('taskId', index, '') as unknown);
		if (taskId !== undefined) return { taskId };
		const error = new NodeOperationError(ctx.getNode(), `Item ${index} has no task ID`, {
			itemIndex: index,
			description:
				'Set Task ID to the deck’s taskId, e.g. {{ $json.taskId }} as Deck Generator → Create returns it, or {{ $json.deck.taskId }} when it is nested.',
		});
		return { error: Object.assign(error, { field: 'Task ID' }) };
	}
	const field = ctx.getNodeParameter('taskIdField', index, 'taskId') as string;
	const taskId = taskIdOf(json, field);
	if (taskId !== undefined) return { taskId };
	const error = new NodeOperationError(ctx.getNode(), `Item ${index} has no task ID in the field "${field}"`, {
		itemIndex: index,
		description: `Set Task ID Field to the field that holds the deck's taskId (Deck Generator → Create returns it as "taskId"); dots reach into nested fields, e.g. deck.taskId.`,
	});
	return { error: Object.assign(error, { field }) };
}

function taskIdOfValue(value: unknown): string | undefined {
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** As a tool: the task id the model passed (the tool's Task ID parameter), else the item's `taskId`. */
function toolTaskId(ctx: IExecuteFunctions, index: number): ReturnType<typeof readTaskId> {
	const taskId = taskIdOfValue(ctx.getNodeParameter('taskId', index, '') as unknown) ?? taskIdOf(ctx.getInputData()[index].json, 'taskId');
	if (taskId !== undefined) return { taskId };
	const error = new NodeOperationError(ctx.getNode(), `Item ${index} has no task ID`, {
		itemIndex: index,
		description: 'Call the tool again with taskId set to the taskId that Create returned.',
	});
	return { error: Object.assign(error, { field: 'taskId' }) };
}

/** The task id at `field`: a top-level key first (it may contain dots), else a dotted path. */
function taskIdOf(json: IDataObject, field: string): string | undefined {
	const name = field.trim();
	let value: unknown = json[name];
	if (value === undefined && name.includes('.')) {
		value = valueAtPath(json, name);
	}
	return taskIdOfValue(value);
}

function itemFor(
	input: INodeExecutionData,
	index: number,
	report: DeckReport,
	body: Record<string, unknown> | undefined,
	baseUrl: string,
): INodeExecutionData {
	// Links given as paths are on the service: resolved against the status URL, as Get Status does.
	const found = body ? deckLinks(body, `${baseUrl}${deckPath(report.taskId, 'status')}`) : undefined;
	const ours: IDataObject = {
		outcome: report.outcome,
		taskId: report.taskId,
		state: report.state,
		...(found?.deckUrl ? { deckUrl: found.deckUrl } : {}),
		status: report.status ?? null,
		elapsedSeconds: Math.round(report.elapsedMs / 100) / 10,
		polls: report.polls,
		...(found ? { links: found.links as unknown as IDataObject[] } : {}),
		statusBody: (body as IDataObject | undefined) ?? null,
	};
	// The node's own fields lead the item (what happened, to which deck), the input's follow; ours win.
	const json: IDataObject = { ...ours, ...input.json, ...ours };
	// The input item's own `links` / `deckUrl` stay as inputLinks / inputDeckUrl, the service's as serviceLinks / serviceDeckUrl.
	if (found && body) {
		putDeckLinks(json, found, input.json, 'input');
		putDeckLinks(json, found, body, 'service');
	}
	if (report.requestId) json.requestId = report.requestId;
	if (report.outcome === 'failed') Object.assign(json, report.failure ? serviceFailureFields(report.taskId, report.failure) : deckFailureFields(report));
	else if (report.failure) json.lastError = serviceFailureFields(report.taskId, report.failure);
	return { json, binary: input.binary, pairedItem: { item: index } };
}

/**
 * Download File: each Completed item's file into its binary data, a few at a time. A download
 * that fails leaves the item on Completed (the deck is done and paid for) with `downloadError`,
 * so the task id and links still reach the next node.
 */
async function downloadCompleted(
	ctx: IExecuteFunctions,
	baseUrl: string,
	placed: Array<{ output: number; item: INodeExecutionData } | undefined>,
): Promise<void> {
	const jobs = placed
		.map((entry, index) => ({ entry, index }))
		.filter(({ entry, index }) => entry?.output === OUTPUT_OF.completed && (ctx.getNodeParameter('options', index, {}) as WaitOptions).downloadFile === true);
	let next = 0;
	const worker = async () => {
		while (next < jobs.length) {
			const { entry, index } = jobs[next++];
			const item = entry!.item;
			const settings = readDownloadSettings(ctx.getNodeParameter('options', index, {}) as WaitOptions);
			const json = item.json as IDataObject & { links?: Array<{ path: string; url: string }>; deckUrl?: string };
			const url = chooseLink({ links: json.links ?? [], deckUrl: json.deckUrl }, settings.downloadLink);
			try {
				if (!url) {
					const paths = (json.links ?? []).map((link) => link.path).join(', ') || 'none';
					throw new NodeOperationError(ctx.getNode(), `Deck ${String(json.taskId)} has no link ${settings.downloadLink ? `at "${settings.downloadLink}"` : 'to download'} (links: ${paths})`);
				}
				const file = await downloadFile(ctx, baseUrl, url, settings.maxBytes, index);
				item.binary = { ...item.binary, [settings.binaryPropertyName]: file.binary };
				Object.assign(json, { fileName: file.fileName, mimeType: file.mimeType, fileSize: file.fileSize });
			} catch (error) {
				if (error instanceof CancelledError) throw new NodeOperationError(ctx.getNode(), 'The execution was cancelled');
				const nodeError = error as NodeOperationError;
				json.downloadError = { message: nodeError.message, ...(nodeError.description ? { description: nodeError.description } : {}) };
				ctx.logger.warn(`Deck Generator Wait: download failed for deck ${String(json.taskId)}: ${nodeError.message}`);
			}
		}
	};
	await Promise.all(Array.from({ length: Math.min(4, jobs.length) }, worker));
}

/** What a simplified item keeps, in this order: the deck, its link, the file, and why it failed or was not read. */
const SIMPLE_FIELDS = [
	'taskId', 'status', 'state', 'outcome', 'deckUrl',
	'fileName', 'mimeType', 'fileSize', 'downloadError',
	'error', 'detail', 'code', 'httpCode', 'reason', 'description', 'requestId', 'lastError',
] as const;

/** Repeated by the binary's own metadata when the file is attached. */
const FILE_METADATA_FIELDS = new Set<string>(['fileName', 'mimeType', 'fileSize']);

/**
 * Simplify: each item keeps SIMPLE_FIELDS only (after the download, which may read `links`). A
 * Completed item's requestId goes too: only a failure needs it for support.
 */
function simplifyItems(ctx: IExecuteFunctions, placed: Array<{ output: number; item: INodeExecutionData } | undefined>): void {
	placed.forEach((entry, index) => {
		// an item that never had a task id is the package's error item ({error, message}): left whole
		if (!entry || entry.item.json.taskId === undefined || (ctx.getNodeParameter('options', index, {}) as WaitOptions).simplify !== true) return;
		const full = entry.item.json;
		const keep = entry.output === OUTPUT_OF.failed || full.lastError !== undefined;
		const json: IDataObject = {};
		const fileAttached = Object.keys(entry.item.binary ?? {}).length > 0;
		for (const field of SIMPLE_FIELDS) {
			if (full[field] === undefined || (field === 'requestId' && !keep)) continue;
			// the attached file's metadata already says them, in every saved execution too
			if (fileAttached && FILE_METADATA_FIELDS.has(field)) continue;
			json[field] = full[field];
		}
		entry.item.json = json;
	});
}

/** The service refused the read (404, 401, 403, ...): its own words, code and request id. */
function serviceFailureFields(taskId: string, failure: ServiceFailure): IDataObject {
	const fields: IDataObject = {
		error: `Deck ${taskId}: ${failureMessage(failure)}`,
		detail: failure.detail,
		code: failure.code,
		httpCode: failure.status,
	};
	if (failure.reason) fields.reason = failure.reason;
	const description = failureDescription(failure);
	if (description) fields.description = description;
	if (failure.requestId) fields.requestId = failure.requestId;
	return fields;
}

/** The deck itself ended failed: say so with whatever the status body explains. */
function deckFailureFields(report: DeckReport): IDataObject {
	const body = report.body ?? {};
	const nested = body.error && typeof body.error === 'object' ? (body.error as IDataObject) : {};
	const explained = [nested.message, body.detail, body.message, typeof body.error === 'string' ? body.error : undefined].find(
		(value): value is string => typeof value === 'string' && value !== '',
	);
	return {
		error: `Deck ${report.taskId} failed (status "${report.status ?? ''}")${explained ? `: ${explained}` : ''}`,
		detail: explained ?? `The service reported the status "${report.status ?? ''}"`,
		code: typeof nested.code === 'string' ? nested.code : 'deck_failed',
	};
}
