/**
 * The Wait node as the editor shows it, byte for byte: its description (the panel) and the items of
 * representative runs (both modes, both versions, Simplify, Download File, a tool call, a missing
 * task id, a refused key), compared with a golden file written from the node before its layout
 * changed (issue 27). A change in the panel or in any item, field order included, fails here.
 *
 * Volatile values are named, not dropped: the simulator's address, task ids (in order of first
 * appearance), request ids, the time a deck took, the binary's bytes (by hash). Regenerate only
 * for an intended change: `GOLDEN=write npx jest --selectProjects reference test/unit/wait-node-golden.test.ts`.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INode, INodeExecutionData } from 'n8n-workflow';

import { DeckGenWait } from '../../nodes/DeckGenWait/DeckGenWait.node';
import { runWorkflow, type RunResult, type WorkflowJson } from '../harness';
import { start, type Simulator } from '../simulator';
import { callTool, exampleTool } from '../workflows/tool/tool';

const GOLDEN = join(__dirname, 'golden', 'deck-gen-wait.json');
const WAIT = 'Wait for Decks';
const MINUTE = 60_000;

function workflow(parameters: INode['parameters'], extra: Partial<INode> = {}): WorkflowJson {
	return {
		nodes: [
			{ id: 'trigger', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
			{
				id: 'wait',
				name: WAIT,
				type: 'n8n-nodes-deckgen.deckGenWait',
				typeVersion: 1.1,
				position: [200, 0],
				parameters,
				credentials: { deckGenApi: { id: '1', name: 'Deck Generator account' } },
				...extra,
			},
		],
		connections: { Start: { main: [[{ node: WAIT, type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	} as WorkflowJson;
}

/** Stable text for values that differ from run to run; everything else, and every key's order, as it came. */
function normaliser(sim: Simulator) {
	const ids = new Map<string, string>();
	const named = (text: string) =>
		text
			.split(sim.url)
			.join('<sim>')
			.replace(/req_[0-9a-f]{24}/g, '<requestId>')
			.replace(/tsk_[0-9a-f]{24}/g, (id) => {
				if (!ids.has(id)) ids.set(id, `<task ${ids.size}>`);
				return ids.get(id)!;
			});
	const walk = (value: unknown, key = ''): unknown => {
		if (typeof value === 'string') {
			if (/requestId/i.test(key)) return '<requestId>';
			// the wall-clock instant a Check Once loop's wait began (issue 45)
			if (key === 'waitingSince' || key === 'confirmedAt') return '<instant>';
			if (key === 'data' && value.length > 64) return `<bytes sha256 ${createHash('sha256').update(value).digest('hex').slice(0, 16)}>`;
			return named(value);
		}
		if (typeof value === 'number' && key === 'elapsedSeconds') return '<elapsed>';
		if (Array.isArray(value)) return value.map((entry) => walk(entry));
		if (value && typeof value === 'object') {
			return Object.fromEntries(Object.entries(value).map(([k, v]) => [named(k), walk(v, k)]));
		}
		return value;
	};
	return walk;
}

function runRecord(sim: Simulator, result: RunResult) {
	const walk = normaliser(sim);
	const run = result.runData[WAIT]?.[0];
	const outputs = result.runCount(WAIT) ? result.outputs(WAIT) : [];
	const error = result.nodeError(WAIT) as { message?: string; description?: string } | undefined;
	return walk({
		outputs: outputs.map((items: INodeExecutionData[]) => items.map(({ json, binary, pairedItem }) => ({ json, binary, pairedItem }))),
		hints: (run as { hints?: unknown } | undefined)?.hints ?? [],
		error: error ? { message: error.message, description: error.description } : null,
	});
}

describe('Deck Generator Wait: the panel and the items, byte for byte', () => {
	let sim: Simulator;
	const record: Record<string, unknown> = {};

	beforeEach(async () => {
		sim = await start({ seed: 27, clock: { manual: true }, deckFileBytes: 1280 });
	});
	afterEach(async () => {
		await sim.close();
	});

	async function run(wf: WorkflowJson, items: Array<Record<string, unknown>>, key = sim.keys.personal) {
		return await runWorkflow(wf, {
			credentials: { deckGenApi: { apiKey: key, baseUrl: sim.url } },
			inputItems: items.map((json) => ({ json: json as never })),
		});
	}

	function decks() {
		const seed = (durationMs: number, outcome: 'succeeded' | 'failed', key = sim.keys.personal) =>
			sim.control.seedDeck({ key, durationMs, outcome });
		return {
			done: seed(0, 'succeeded'),
			failed: seed(0, 'failed'),
			running: seed(20 * MINUTE, 'succeeded'),
			theirs: seed(0, 'succeeded', sim.keys.other),
		};
	}

	test('the description', () => {
		const node = new DeckGenWait();
		record.description = JSON.parse(JSON.stringify(node.description));
		record.methods = Object.keys(node.methods.credentialTest);
	});

	test('Wait Until Done (1.1): every outcome, a repeated deck, input links, a missing task id with continue-on-fail', async () => {
		const d = decks();
		const result = await run(workflow({ mode: 'waitUntilDone', options: { maxWaitMinutes: 0 } }, { onError: 'continueRegularOutput' }), [
			{ taskId: d.done, links: [{ path: 'mine', url: 'https://example.com/mine' }], deckUrl: 'https://example.com/mine', who: 'ana' },
			{ taskId: d.failed, who: 'bo' },
			{ taskId: d.running },
			{ taskId: d.theirs },
			{ who: 'no task id' },
			{ taskId: d.done, who: 'again' },
		]);
		record.waitUntilDone = runRecord(sim, result);
	});

	test('Check Once (1): a nested Task ID Field, own status words, Simplify', async () => {
		const d = decks();
		const wf = workflow(
			{ mode: 'checkOnce', taskIdField: 'deck.taskId', options: { simplify: true, succeededWords: 'completed, ready, succeeded', runningWords: 'queued, generating, processing' } },
			{ typeVersion: 1, onError: 'continueErrorOutput' },
		);
		const result = await run(wf, [{ deck: { taskId: d.done } }, { deck: { taskId: d.failed } }, { deck: { taskId: d.running } }, { 'deck.taskId': d.theirs }, { deck: {} }]);
		record.checkOnceV1Simplify = runRecord(sim, result);
	});

	test('Check Once with Download File, full and simplified, and a link that is not there', async () => {
		const d = decks();
		const download = (options: Record<string, unknown>) => workflow({ mode: 'checkOnce', taskId: '={{ $json.id }}', options: { downloadFile: true, ...options } });
		record.downloadFull = runRecord(sim, await run(download({ binaryPropertyName: 'deck' }), [{ id: d.done }, { id: d.failed }]));
		record.downloadSimplified = runRecord(sim, await run(download({ simplify: true }), [{ id: d.done }, { id: d.running }]));
		record.downloadMissingLink = runRecord(sim, await run(download({ downloadLink: 'no.such.path', simplify: true }), [{ id: d.done }]));
	});

	test('a missing task id without continue-on-fail stops the node', async () => {
		record.missingTaskId = runRecord(sim, await run(workflow({ mode: 'waitUntilDone', options: {} }), [{ nothing: true }]));
	});

	test('a refused key fails every deck at once', async () => {
		const d = decks();
		record.revokedKey = runRecord(sim, await run(workflow({ mode: 'waitUntilDone', options: {} }), [{ taskId: d.done }, { taskId: d.running }], sim.keys.revoked));
	});

	test('as an AI tool: one check, every answer on output 0', async () => {
		const d = decks();
		const walk = normaliser(sim);
		const calls: unknown[] = [];
		for (const args of [{ taskId: d.done }, { taskId: d.running }, { taskId: d.failed }, {}]) {
			const { answer, elsewhere } = await callTool(sim, exampleTool('Check Deck'), args);
			calls.push(walk({ answer, elsewhere }));
		}
		record.tool = calls;
	});

	test('matches the golden file (tests above run in order and fill the record)', () => {
		const text = `${JSON.stringify(record, null, '\t')}\n`;
		if (process.env.GOLDEN === 'write') writeFileSync(GOLDEN, text);
		// one diff of the whole file says what changed
		expect(text).toBe(readFileSync(GOLDEN, 'utf8'));
	});
});
