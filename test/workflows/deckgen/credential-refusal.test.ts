/**
 * Issue 26, point 4: a credential that cannot be used is refused before anything is sent (a plain
 * http:// Base URL to another machine, an empty Base URL, one ending in /v1 or holding a ?). Under On
 * Error: Continue that refusal is every item's error, on the error output or as an error item, with its
 * pairedItem, as a 401 is; without Continue the execution fails as before; as an AI tool it is the
 * tool's answer. Both nodes, the Wait node in both modes. The key appears nowhere.
 */
import type { INode, INodeExecutionData } from 'n8n-workflow';

import { runWorkflow, type RunResult, type WorkflowJson } from '../../harness';
import { exampleTool, TOOL_NODE_TYPES, toolCallWorkflow } from '../tool/tool';
import { loadWorkflow as loadWaitWorkflow, WAIT_NODE } from '../wait/run';
import { brief, DECK_NODE, loadWorkflow, patchNode, recordPlainHttp } from './fixture';

const KEY = 'dg_live_refused_credential_0123456789abcdef';
const PLAIN = 'http://deckgen.invalid';

/** Every request that goes out at all reaches a listener (HTTP_PROXY), so "nothing was sent" is checked, not assumed. */
const seen = recordPlainHttp();

const run = async (workflow: WorkflowJson, items: INodeExecutionData[], baseUrl = PLAIN) => {
	const result = await runWorkflow(workflow, { credentials: { deckGenApi: { apiKey: KEY, baseUrl } }, inputItems: items, nodeTypes: TOOL_NODE_TYPES });
	expect(JSON.stringify(result.runExecutionData)).not.toContain(KEY);
	expect(result.logs.join('\n')).not.toContain(KEY);
	expect(seen).toEqual([]);
	return result;
};

const ITEMS: INodeExecutionData[] = [{ json: brief({ taskId: 'tsk_a' }) }, { json: brief({ taskId: 'tsk_b' }) }, { json: brief({ taskId: 'tsk_c' }) }];
const PLAIN_REFUSAL = /^The credential's Base URL "http:\/\/deckgen\.invalid" is plain http:\/\/ to another machine/;

/** The error output of a node set to continueErrorOutput: the one after its regular outputs. */
const errorOutput = (result: RunResult, node: string) => result.outputs(node).at(-1) ?? [];

describe('Deck Generator', () => {
	const create = (onError?: INode['onError']) => (onError ? patchNode(loadWorkflow('create'), DECK_NODE, { onError }) : loadWorkflow('create'));

	test('On Error → Continue (using error output): every item on the error output with the refusal and its pairedItem', async () => {
		const result = await run(create('continueErrorOutput'), ITEMS);
		expect(result.status).toBe('success');
		const errors = errorOutput(result, DECK_NODE);
		expect(errors.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		for (const item of errors) {
			expect(item.json.error).toMatchObject({ message: expect.stringMatching(PLAIN_REFUSAL), outcome: 'error', code: 'credential_not_usable' });
			expect(item.json.message).toMatch(/Base URL field.*Allow Plain HTTP field/);
		}
		expect(result.outputs(DECK_NODE).slice(0, -1).flat()).toEqual([]);
	});

	test('On Error → Continue (regular output): every item is an error item on the first output', async () => {
		const result = await run(create('continueRegularOutput'), ITEMS);
		expect(result.status).toBe('success');
		const [first, ...rest] = result.outputs(DECK_NODE);
		expect(first.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		for (const item of first) expect(item.json.error).toMatchObject({ message: expect.stringMatching(PLAIN_REFUSAL), code: 'credential_not_usable' });
		expect(rest.flat()).toEqual([]);
	});

	test('without Continue the execution fails, as before', async () => {
		const result = await run(create(), ITEMS);
		expect(result.status).toBe('error');
		expect((result.nodeError(DECK_NODE) as Error).message).toMatch(PLAIN_REFUSAL);
	});

	test.each([
		['an empty Base URL', '', /The Base URL is empty/],
		['a Base URL ending in /v1', 'https://deckgen.invalid/v1', /ends in \/v1/],
		['a Base URL holding a ?', 'https://deckgen.invalid/?tenant=1', /holds a \? or #/],
		['a Base URL that is no address', 'deckgen.invalid', /is not an address/],
	])('%s: the same, refused before anything is sent', async (_what, baseUrl, message) => {
		const result = await run(create('continueErrorOutput'), ITEMS.slice(0, 2), baseUrl);
		const errors = errorOutput(result, DECK_NODE);
		expect(errors.map((item) => [item.pairedItem, (item.json.error as { message: string }).message])).toEqual([
			[{ item: 0 }, expect.stringMatching(message)],
			[{ item: 1 }, expect.stringMatching(message)],
		]);
	});

	test('as an AI tool, the refusal is the answer on output 0', async () => {
		const node = exampleTool('Get Credits');
		const result = await run(toolCallWorkflow(node), [{ json: {} }]);
		const [answer, ...rest] = result.outputs(node.name);
		expect(answer.map((item) => item.json)).toEqual([expect.objectContaining({ outcome: 'error', code: 'credential_not_usable', message: expect.stringMatching(PLAIN_REFUSAL) })]);
		expect(rest.flat()).toEqual([]);
	});
});

describe.each(['check-once', 'wait-until-done'])('Deck Generator Wait (%s)', (name) => {
	const wait = (onError?: INode['onError']) => (onError ? patchNode(loadWaitWorkflow(name), WAIT_NODE, { onError }) : loadWaitWorkflow(name));

	test('On Error → Continue (using error output): every item on the error output with the refusal and its pairedItem', async () => {
		const result = await run(wait('continueErrorOutput'), ITEMS);
		expect(result.status).toBe('success');
		const errors = errorOutput(result, WAIT_NODE);
		expect(errors.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		for (const item of errors) {
			expect(item.json.error).toMatchObject({ message: expect.stringMatching(PLAIN_REFUSAL), code: 'credential_not_usable' });
			expect(item.json.message).toMatch(/Allow Plain HTTP field/);
		}
		expect(result.outputs(WAIT_NODE).slice(0, -1).flat()).toEqual([]);
	});

	test('On Error → Continue (regular output): every item is an error item on Failed', async () => {
		const result = await run(wait('continueRegularOutput'), ITEMS);
		expect(result.status).toBe('success');
		const [completed, failed, stillRunning] = result.outputs(WAIT_NODE);
		expect([completed, stillRunning].flat()).toEqual([]);
		expect(failed.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		for (const item of failed) expect(item.json.error).toMatchObject({ message: expect.stringMatching(PLAIN_REFUSAL), outcome: 'failed', code: 'credential_not_usable' });
	});

	test('without Continue the execution fails, as before', async () => {
		const result = await run(wait(), ITEMS);
		expect(result.status).toBe('error');
		expect((result.nodeError(WAIT_NODE) as Error).message).toMatch(PLAIN_REFUSAL);
	});
});

test('Deck Generator Wait as an AI tool: the refusal is the answer on output 0', async () => {
	const node = exampleTool('Check Deck');
	const result = await run(toolCallWorkflow(node), [{ json: { taskId: 'tsk_a' } }]);
	const [answer, ...rest] = result.outputs(node.name);
	expect(answer.map((item) => item.json)).toEqual([expect.objectContaining({ outcome: 'failed', code: 'credential_not_usable', message: expect.stringMatching(PLAIN_REFUSAL) })]);
	expect(rest.flat()).toEqual([]);
});
