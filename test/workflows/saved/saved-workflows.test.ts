/**
 * Workflows saved by 0.1 and 0.2 keep working: they are node version 1 (Slide Count under
 * Additional Fields, Max Credits under Options, the Wait node's Task ID Field, three outputs on every
 * operation), and each runs to the same outputs, sending the same requests, as the same workflow
 * built today (version 1.1: those fields on the form, Task ID as an expression, Success only on Get
 * Status, so n8n's error output is its second).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { IDataObject, INode, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import type { RunResult, WorkflowJson } from '../../harness';
import { start, type Simulator } from '../../simulator';
import { brief, runWith } from '../deckgen/fixture';

const load = (name: string) => JSON.parse(readFileSync(join(__dirname, `${name}.workflow.json`), 'utf8')) as WorkflowJson;

function nodeOf(workflow: WorkflowJson, name: string): INode {
	const found = workflow.nodes.find((n) => n.name === name);
	if (!found) throw new Error(`no node ${name}`);
	return found;
}

/** The 0.1 workflow as the editor of this version builds it. */
function createAsToday(): WorkflowJson {
	const workflow = load('saved-0.1');
	const create = nodeOf(workflow, 'Create');
	const { slideCount, ...additionalFields } = create.parameters.additionalFields as INodeParameters;
	const { maxCredits, ...options } = create.parameters.options as INodeParameters;
	create.typeVersion = 1.1;
	create.parameters = { ...create.parameters, slideCount, maxCredits, additionalFields, options };
	const wait = nodeOf(workflow, 'Wait for Decks');
	wait.typeVersion = 1.1;
	const { taskIdField: _field, ...waitParameters } = wait.parameters;
	wait.parameters = { ...waitParameters, taskId: '={{ $json.taskId }}' };
	return workflow;
}

/** The 0.2 workflow as built today: Get Status has one output, so the error output is the second. */
function statusAsToday(): WorkflowJson {
	const workflow = load('saved-0.2');
	nodeOf(workflow, 'Get Status').typeVersion = 1.1;
	const wait = nodeOf(workflow, 'Wait for Decks');
	wait.typeVersion = 1.1;
	const { taskIdField: _field, ...waitParameters } = wait.parameters;
	wait.parameters = { ...waitParameters, taskId: '={{ $json.deck.taskId }}' };
	workflow.connections['Get Status'] = {
		main: [[{ node: 'Status Read', type: 'main', index: 0 }], [{ node: 'Status Error', type: 'main', index: 0 }]],
	};
	return workflow;
}

/** What reached each named end node: the fields a workflow reads, without ids that differ per run. */
function ends(result: RunResult, names: string[], pick: (json: IDataObject) => IDataObject) {
	return Object.fromEntries(
		names.map((name) => [name, result.runCount(name) ? result.output(name).map((item: INodeExecutionData) => pick(item.json)) : []]),
	);
}

describe('workflows saved by 0.1 and 0.2 run as before, and as the same workflow built today', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await start({ seed: 17, clock: { manual: true } });
	});
	afterAll(async () => await sim.close());

	test('0.1: Create with Slide Count under Additional Fields and Max Credits under Options, then Check Once by Task ID Field', async () => {
		// 12 slides: bought at the live price; 20 (above the free cap of 15): a surcharge to confirm, so the
		// saved Slide Count visibly reached the service.
		const input = [12, 20].map((slides) => brief({ slide_count: undefined, expected_credits: undefined, slides }));
		const runs: Array<{ result: RunResult; bodies: string[]; charged: number[] }> = [];
		for (const workflow of [load('saved-0.1'), createAsToday()]) {
			const { key, principalId } = sim.control.createAccount({ balance: 100, subscriber: true });
			const from = sim.ledger.requests.length;
			const result = await runWith(sim, workflow, key, input);
			expect(result.status).toBe('success');
			const posts = sim.ledger.requests.slice(from).filter((r) => r.method === 'POST' && r.path === '/v1/decks');
			runs.push({
				result,
				bodies: posts.map((r) => r.bodySha256 ?? ''),
				charged: sim.ledger.charges.filter((c) => c.principalId === principalId).map((c) => c.credits),
			});
		}
		const [saved, today] = runs;
		// Expected Credits 0 → price_drift (nothing charged) → re-sent once within Max Credits 25, with slide_count 12.
		expect(saved.bodies.length).toBeGreaterThanOrEqual(3);
		expect(saved.charged).toHaveLength(1);
		// The very same bytes went out: the saved values are read where 0.1 put them.
		expect(today.bodies).toEqual(saved.bodies);
		expect(today.charged).toEqual(saved.charged);

		const pick = (json: IDataObject) => ({
			outcome: json.outcome,
			cta: json.cta,
			state: json.state,
			hasTaskId: typeof json.taskId === 'string',
			repricedFrom: json.repricedFrom,
		});
		const names = ['Checkout', 'Client Action', 'Completed', 'Failed', 'Still Running'];
		expect(ends(saved.result, names, pick)).toEqual({
			Checkout: [],
			'Client Action': [{ outcome: 'client_action', cta: 'confirm_slide_surcharge', state: undefined, hasTaskId: false, repricedFrom: undefined }],
			Completed: [],
			Failed: [],
			// Check Once of a deck just bought: still running, with its task id and Create's fields.
			'Still Running': [{ outcome: 'still_running', cta: undefined, state: 'running', hasTaskId: true, repricedFrom: 0 }],
		});
		expect(ends(today.result, names, pick)).toEqual(ends(saved.result, names, pick));
		// Version 1 keeps its three outputs on Create.
		expect(saved.result.outputs('Create')).toHaveLength(3);
	});

	test('0.2: Get Status wired to the error output as the fourth output; Wait by the field path deck.taskId', async () => {
		const done = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 0, outcome: 'succeeded' });
		const input = [{ deck: { taskId: done } }, { deck: { taskId: 'tsk_000000000000000000000000' } }, { deck: {} }];
		const pick = (json: IDataObject) => ({
			outcome: json.outcome ?? (json.error as IDataObject | undefined)?.outcome,
			taskId: json.taskId,
			state: json.state,
			code: (json.error as IDataObject | undefined)?.code,
		});
		const names = ['Status Read', 'Status Checkout', 'Status Client Action', 'Status Error', 'Completed', 'Failed', 'Still Running'];
		const saved = await runWith(sim, load('saved-0.2'), sim.keys.personal, input);
		const today = await runWith(sim, statusAsToday(), sim.keys.personal, input);
		expect(saved.status).toBe('success');
		expect(ends(saved, names, pick)).toEqual({
			'Status Read': [{ outcome: 'success', taskId: done, state: 'succeeded', code: undefined }],
			'Status Checkout': [],
			'Status Client Action': [],
			'Status Error': [
				{ outcome: 'error', taskId: undefined, state: undefined, code: 'not_found' },
				{ outcome: 'error', taskId: undefined, state: undefined, code: undefined },
			],
			Completed: [{ outcome: 'completed', taskId: done, state: 'succeeded', code: undefined }],
			Failed: [
				{ outcome: 'failed', taskId: 'tsk_000000000000000000000000', state: 'unknown', code: undefined },
				{ outcome: 'failed', taskId: undefined, state: undefined, code: 'missing_task_id' },
			],
			'Still Running': [],
		});
		expect(ends(today, names, pick)).toEqual(ends(saved, names, pick));
		// The Wait node's item leads with what happened to which deck; the input's fields follow.
		expect(Object.keys(today.output('Completed')[0].json).slice(0, 4)).toEqual(['outcome', 'taskId', 'state', 'deckUrl']);
		expect(Object.keys(today.output('Completed')[0].json)).toContain('deck');
		// Saved: Success, Checkout, Client Action, then n8n's error output; today: Success, then the error output.
		expect(saved.outputs('Get Status')).toHaveLength(4);
		expect(today.outputs('Get Status')).toHaveLength(2);
	});
});
