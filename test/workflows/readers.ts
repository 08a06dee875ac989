/**
 * Every reader of a deck's status, run on real workflows against the simulator over loopback: Get Status and
 * Download (the main node, its error output on), the Wait node in each mode, and the two AI tools. The suites
 * that prove a reading holds everywhere (real-records, file-witness, any-record) ask each of them the same way.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runWorkflow } from '../harness';
import type { Simulator } from '../simulator';
import { credentialFor } from './credential';
import { continueErrorOutput, jsonOf, loadWorkflow, runWith } from './deckgen/fixture';
import { callTool, exampleTool } from './tool/tool';
import { loadWorkflow as loadWaitWorkflow, WAIT_NODE } from './wait/run';

export type Mode = 'checkOnce' | 'waitUntilDone';

/** The Wait node on decks, in one mode, polling every 50 ms for at most `maxWaitMinutes`; its items, hints and log. */
export async function waitFor(sim: Simulator, taskIds: string[], mode: Mode, maxWaitMinutes = 0.02, options: IDataObject = {}) {
	const workflow = loadWaitWorkflow(mode === 'checkOnce' ? 'check-once' : 'wait-until-done');
	const node = workflow.nodes.find((n) => n.name === WAIT_NODE)!;
	node.parameters = { ...node.parameters, mode, options: { pollIntervalSeconds: 0.05, maxWaitMinutes, ...options } as INodeParameters };
	const result = await runWorkflow(workflow, { credentials: { deckGenApi: credentialFor(sim, sim.keys.personal) }, inputItems: taskIds.map((taskId) => ({ json: { taskId } })) });
	const outputs = result.outputs(WAIT_NODE);
	const [completed = [], failed = [], stillRunning = []] = outputs.map(jsonOf);
	const run = result.runData[WAIT_NODE].at(-1) as { hints?: Array<{ message: string }> };
	return { completed, failed, stillRunning, binaries: (outputs[0] ?? []).map((item) => item.binary), hints: (run.hints ?? []).map((hint) => hint.message), logs: result.logs };
}

/** Get Status (or Download) of one deck: its item, or its error item, and the hints of the node's run. */
export async function deckOperation(sim: Simulator, operation: 'get-status' | 'download', taskId: string, options: IDataObject = {}) {
	const workflow = continueErrorOutput(loadWorkflow(operation));
	const node = workflow.nodes.find((n) => n.name === 'Deck Generator')!;
	node.parameters = { ...node.parameters, options: { ...(node.parameters.options as IDataObject), ...options } as INodeParameters };
	const result = await runWith(sim, workflow, sim.keys.personal, [{ taskId }]);
	const run = result.runData['Deck Generator'].at(-1) as { hints?: Array<{ message: string }> };
	return { success: result.output('Success'), item: jsonOf(result.output('Success'))[0], error: jsonOf(result.output('Errors'))[0], hints: (run.hints ?? []).map((hint) => hint.message) };
}

/** Every reader's verdict on one deck: Get Status's state, and which output each Wait mode put it on. */
export async function verdicts(sim: Simulator, taskId: string, options: IDataObject = {}) {
	const status = (await deckOperation(sim, 'get-status', taskId, options)).item;
	const routed: Record<Mode, string> = { checkOnce: '', waitUntilDone: '' };
	const polls: Record<Mode, number> = { checkOnce: 0, waitUntilDone: 0 };
	const items: Partial<Record<Mode, Record<string, unknown>>> = {};
	for (const mode of ['checkOnce', 'waitUntilDone'] as const) {
		const wait = await waitFor(sim, [taskId], mode, undefined, options);
		const [output, item] = wait.completed.length ? ['completed', wait.completed[0]] : wait.failed.length ? ['failed', wait.failed[0]] : ['still running', wait.stillRunning[0]];
		routed[mode] = output as string;
		polls[mode] = item.polls as number;
		items[mode] = item;
	}
	return { status, routed, polls, items };
}

/** What both AI tools (Get Deck Status, Check Deck of the MCP example) answer a model about one deck. */
export async function askTools(sim: Simulator, taskId: string, options: IDataObject = {}) {
	const answers: Record<string, Record<string, unknown>> = {};
	for (const tool of ['Get Deck Status', 'Check Deck']) {
		const node = exampleTool(tool);
		if (Object.keys(options).length) node.parameters = { ...node.parameters, options: { ...(node.parameters.options as IDataObject), ...options } as INodeParameters };
		answers[tool] = (await callTool(sim, node, { taskId })).answer[0];
	}
	return answers;
}

/**
 * Every request a client made for the file at `link` (the API's file endpoint or the storage stand-in, whichever
 * origin the link is on): what a test counts to see how often a reader checks a deck's file (issue 43).
 */
export function fileRequestsFor(sim: Simulator, link: string) {
	const url = new URL(link, sim.url);
	const requests = url.origin === new URL(sim.storage.url).origin ? sim.storage.requests : sim.fileRequests;
	return requests.filter((request) => request.path === url.pathname);
}
