/**
 * An example workflow of test/workflows/examples run in-process (n8n-core, test/harness) against the
 * simulator, as far as the harness has the nodes: what a person's run of it buys, from the simulator's
 * ledger. The example's own Deck Generator nodes, expressions, connections, Webhook, IF and Edit Fields
 * (Set) nodes run as they are; the rest, which would leave the machine, is replaced by a node of the same
 * name:
 *
 * - the trigger the run starts from, when the harness has no stand-in of its type (a Schedule, a Form,
 *   a Chat), by a Manual Trigger handing on the run's items (what that trigger would emit);
 * - a node that waits for a person (`sendAndWait`: Slack, email approval) by a No Operation whose
 *   outputs lead nowhere: the run stops where a person decides, as a real execution waits there;
 * - every other node (Slack, Send Email, HTTP Request, Data Table, n8n's Wait, …) by a No Operation that
 *   passes its items on: a test reads what reached it (`reached`), e.g. how many decks were posted.
 *
 * Deck Generator Wait polls every few ms (honoured on a loopback Base URL); run the simulator with a fast
 * clock. The e2e (test/e2e/fixtures/examples.ts) runs the same files in a real n8n with every node.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { IDataObject, INode, INodeExecutionData } from 'n8n-workflow';

import { runWorkflow, type RunResult, type WorkflowJson } from '../harness';
import type { Simulator } from '../simulator';
import { credentialFor } from './credential';
import { assertNoKeyLeak } from './deckgen/fixture';

export const EXAMPLES_DIR = join(__dirname, 'examples');

/** The node types the harness runs as n8n does (test/harness/nodes and this package). */
const RUNS_AS_IS = new Set(['n8n-nodes-base.manualTrigger', 'n8n-nodes-base.noOp', 'n8n-nodes-base.webhook', 'n8n-nodes-base.if', 'n8n-nodes-base.set']);
const isDeckGenerator = (node: INode) => node.type.startsWith('n8n-nodes-deckgen.');
const waitsForAPerson = (node: INode) => node.parameters?.operation === 'sendAndWait';

export function loadExample(file: string): WorkflowJson {
	return JSON.parse(readFileSync(join(EXAMPLES_DIR, file), 'utf8')) as WorkflowJson;
}

export const byName = <W extends { nodes: Array<{ name: string }> }>(wf: W, name: string): W['nodes'][number] => {
	const found = wf.nodes.find((n) => n.name === name);
	if (!found) throw new Error(`the workflow has no node ${name}`);
	return found;
};

/** A copy of a workflow with one change made (a person's edit, or a test's). */
export function edited<W>(wf: W, change: (copy: W) => void): W {
	const copy = JSON.parse(JSON.stringify(wf)) as W;
	change(copy);
	return copy;
}

/** The example as the harness runs it from `start` (see above). */
export function runnableExample(wf: WorkflowJson, start: string): WorkflowJson {
	const deadEnds = new Set<string>();
	const nodes = wf.nodes
		.filter((node) => node.type !== 'n8n-nodes-base.stickyNote')
		.map((node): INode => {
			if (isDeckGenerator(node)) {
				if (node.type !== 'n8n-nodes-deckgen.deckGenWait') return node;
				return { ...node, parameters: { ...node.parameters, options: { ...(node.parameters.options as object), pollIntervalSeconds: 0.005 } } };
			}
			if (RUNS_AS_IS.has(node.type)) return node;
			const standIn = { id: node.id, name: node.name, typeVersion: 1, position: node.position, parameters: {} };
			if (node.name === start) return { ...standIn, type: 'n8n-nodes-base.manualTrigger' };
			if (waitsForAPerson(node)) deadEnds.add(node.name);
			return { ...standIn, type: 'n8n-nodes-base.noOp' };
		});
	const connections = Object.fromEntries(Object.entries(wf.connections ?? {}).filter(([from]) => !deadEnds.has(from)));
	return { ...wf, nodes, connections } as WorkflowJson;
}

export interface ExampleRun {
	result: RunResult;
	/** The items of a node's output (its last run), as JSON; [] if it did not run. */
	items(node: string, output?: number): IDataObject[];
	/** How many items reached a node (a stand-in: how many messages or files it would have sent). */
	reached(node: string): number;
}

/**
 * One run of `wf` from its trigger `start`, the trigger emitting `inputItems`, with `key`'s credential on
 * every Deck Generator node. The key leaks nowhere in what n8n saves or logs.
 */
export async function runExample(
	sim: Simulator,
	wf: WorkflowJson,
	{ start, inputItems, key = sim.keys.personal }: { start: string; inputItems: INodeExecutionData[]; key?: string },
): Promise<ExampleRun> {
	const result = await runWorkflow(runnableExample(wf, start), {
		credentials: { deckGenApi: credentialFor(sim, key, { accountUrl: 'https://app.deckgen.example/account' }) },
		inputItems,
		startNode: start,
		mode: byName(wf, start).type === 'n8n-nodes-base.webhook' ? 'webhook' : 'manual',
	});
	assertNoKeyLeak(sim, result, [key]);
	const ran = (node: string) => result.runCount(node) > 0;
	return {
		result,
		items: (node, output = 0) => (ran(node) ? (result.output(node, output) ?? []).map((item) => item.json) : []),
		reached: (node) => (ran(node) ? (result.output(node, 0) ?? []).length : 0),
	};
}

/** The item n8n's Webhook node makes of a request (headers lower-cased, as Node's http server gives them). */
export function webhookItem(request: { path: string; headers?: Record<string, string>; body?: unknown; query?: Record<string, string> }): INodeExecutionData {
	const headers = Object.fromEntries(Object.entries(request.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]));
	return {
		json: {
			headers: { host: 'localhost:5678', 'user-agent': 'curl/8.5.0', accept: '*/*', ...headers },
			params: {},
			query: request.query ?? {},
			body: (request.body ?? {}) as IDataObject,
			webhookUrl: `http://localhost:5678/webhook/${request.path}`,
			executionMode: 'production',
		},
	};
}
