/**
 * Create's Simplify (issue 22): in a Check Once loop n8n stores Create's item in the execution until
 * the deck is done, so the option keeps only what the next step needs. Off (the default, and every
 * workflow saved before it existed) keeps the whole answer; refusals are never simplified.
 */
import type { INodeParameters } from 'n8n-workflow';

import { start, type Simulator } from '../../simulator';
import { brief, DECK_NODE, loadWorkflow, patchNode, runWith } from './fixture';

function create(simplify: boolean | undefined) {
	const wf = loadWorkflow('create');
	const options = { ...(wf.nodes.find((n) => n.name === DECK_NODE)!.parameters.options as INodeParameters) };
	if (simplify !== undefined) options.simplify = simplify;
	return patchNode(wf, DECK_NODE, { parameters: { options } });
}

describe('Deck Generator → Create: Simplify', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await start({ seed: 22, clock: { manual: true }, limits: { maxConcurrentDecks: 1000 } });
	});
	afterAll(async () => await sim.close());

	test('on: a bought deck keeps taskId and outcome, and nothing else', async () => {
		const { key, principalId } = sim.control.createAccount({ balance: 100, subscriber: true });
		const result = await runWith(sim, create(true), key, [brief({ title: 'One' }), brief({ title: 'Two' })]);
		expect(result.status).toBe('success');
		const items = result.output('Success');
		const charged = sim.ledger.charges.filter((c) => c.principalId === principalId).map((c) => c.taskId);
		expect(charged).toHaveLength(2);
		expect(items.map((i) => i.json.taskId).sort()).toEqual([...charged].sort());
		for (const item of items) {
			expect(item.json).toEqual({ taskId: item.json.taskId, outcome: 'success', charge: 'charged', replayed: false, purchase: expect.objectContaining({ taskId: item.json.taskId }) });
			// the purchase's facts, which Deck Generator Wait reads for a deck just bought (its 404 grace)
			expect(Object.keys(item.json.purchase as object).sort()).toEqual(['confirmedAt', 'idempotencyKey', 'requestId', 'taskId']);
		}
		expect(items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	});

	test('on: a replayed purchase says so', async () => {
		const { key } = sim.control.createAccount({ balance: 100, subscriber: true });
		const input = [brief({ title: 'Again', delivery_id: 'simplify-replay' })];
		const first = await runWith(sim, create(true), key, input);
		const second = await runWith(sim, create(true), key, input);
		const taskId = first.output('Success')[0].json.taskId;
		expect(second.output('Success').map((i) => i.json)).toEqual([
			{ taskId, outcome: 'success', charge: 'replayed', replayed: true, purchase: expect.objectContaining({ taskId, idempotencyKey: 'simplify-replay' }) },
		]);
	});

	test('off or unset: the whole answer, its key and request id, as before', async () => {
		for (const simplify of [undefined, false]) {
			const { key } = sim.control.createAccount({ balance: 100, subscriber: true });
			const [item] = (await runWith(sim, create(simplify), key, [brief()])).output('Success');
			expect(item.json).toMatchObject({ taskId: expect.any(String), outcome: 'success', idempotencyKey: expect.any(String), requestId: expect.any(String) });
		}
	});

	test('on: a refusal (Checkout) keeps everything a person needs to act on it', async () => {
		const [refused] = (await runWith(sim, create(true), sim.keys.broke, [brief()])).output('Checkout');
		expect(refused.json).toMatchObject({ outcome: 'checkout', code: 'insufficient_credits', cta: 'top_up', message: expect.any(String), requestId: expect.any(String) });
	});
});
