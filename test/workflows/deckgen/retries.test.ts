/**
 * Never buy twice: n8n's Retry On Fail, a retry of the failed execution from the executions list
 * (new execution id, saved data), and a redelivered webhook all end with one charge per deck.
 */
import type { INode } from 'n8n-workflow';

import type { WorkflowJson } from '../../harness';
import { start, type Simulator } from '../../simulator';
import { brief, DECK_NODE, jsonOf, loadWorkflow, patchNode, runWith } from './fixture';

/** In-node retries without waiting, so a test reaches n8n's own retry mechanisms quickly. */
function fastRetries(workflow: WorkflowJson): WorkflowJson {
	const deck = workflow.nodes.find((n) => n.name === DECK_NODE)!;
	const options = { ...(deck.parameters.options as Record<string, unknown>), maxRetryWaitSeconds: 0 };
	return patchNode(workflow, DECK_NODE, { parameters: { options } as INode['parameters'] });
}

describe('idempotency keys persist per execution (no second purchase)', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await start({ seed: 23, clock: { manual: true }, limits: { maxConcurrentDecks: 1000 } });
	});
	afterAll(async () => await sim.close());
	afterEach(() => sim.control.setFaults([]));

	const chargesOf = (principalId: string) => sim.ledger.charges.filter((c) => c.principalId === principalId);

	test('Retry On Fail re-sends the same key after the answer to a purchase was lost', async () => {
		const { key, principalId } = sim.control.createAccount({ balance: 100, subscriber: true });
		// Every in-node attempt of this run loses its answer; the first one did buy the deck.
		sim.control.setFaults([{ method: 'POST', path: '/v1/decks', kind: 'drop-after-commit', times: 6 }]);
		const workflow = patchNode(fastRetries(loadWorkflow('create')), DECK_NODE, {
			retryOnFail: true,
			maxTries: 2,
			waitBetweenTries: 1,
		});
		const result = await runWith(sim, workflow, key, [brief()]);
		expect(result.status).toBe('success');
		const [item] = jsonOf(result.output(DECK_NODE));
		// the replay answers the first try's own purchase (its answer lost): charged once, and the item says so
		expect(item).toMatchObject({ outcome: 'success', charge: 'charged_or_replayed', replayed: false });
		expect(item.message).toMatch(/^Charged once \(10 credits\): an earlier try of this node \(in this execution, or in the one it retries\) got no answer/);
		expect(chargesOf(principalId)).toHaveLength(1);
		expect(chargesOf(principalId)[0].taskId).toBe(item.taskId);
		expect(sim.ledger.chargesFor(String(item.idempotencyKey))).toHaveLength(1);
		const posts = sim.ledger.requests.filter((r) => r.idempotencyKey === item.idempotencyKey);
		expect(posts.length).toBe(7);
	});

	test('retrying the failed execution (new execution id) replays the decks already bought', async () => {
		const { key, principalId } = sim.control.createAccount({ balance: 100, subscriber: true });
		const workflow = loadWorkflow('create');
		const first = await runWith(sim, workflow, key, [brief({ title: 'Bought' }), brief({ slide_count: 'twenty' })]);
		expect(first.status).toBe('error');
		expect(chargesOf(principalId)).toHaveLength(1);

		// The user fixes the field and retries the execution from the executions list.
		const fixed = patchNode(workflow, DECK_NODE, {
			parameters: {
				additionalFields: {
					slideCount: "={{ $json.slide_count === 'twenty' ? 12 : $json.slide_count }}",
				},
			} as INode['parameters'],
		});
		const retry = await runWith(sim, fixed, key, [], { previousRun: first, mode: 'retry' });
		expect(retry.status).toBe('success');
		expect(retry.executionId).not.toBe(first.executionId);
		const items = jsonOf(retry.output(DECK_NODE));
		expect(items[0]).toMatchObject({ outcome: 'success', charge: 'replayed', replayed: true });
		expect(items[1]).toMatchObject({ outcome: 'success', charge: 'charged', replayed: false });
		expect(chargesOf(principalId)).toHaveLength(2);
		expect(new Set(chargesOf(principalId).map((c) => c.idempotencyKey)).size).toBe(2);
	});

	test('a purchase whose answer never arrived is replayed when the execution is retried', async () => {
		const { key, principalId } = sim.control.createAccount({ balance: 100, subscriber: true });
		sim.control.setFaults([{ method: 'POST', path: '/v1/decks', kind: 'drop-after-commit', times: 6 }]);
		const workflow = fastRetries(loadWorkflow('create'));
		const first = await runWith(sim, workflow, key, [brief()]);
		expect(first.status).toBe('error');
		expect((first.nodeError(DECK_NODE) as Error).message).toMatch(/No response from the service after 6 attempts/);
		expect(chargesOf(principalId)).toHaveLength(1);

		const retry = await runWith(sim, workflow, key, [], { previousRun: first, mode: 'retry' });
		const [item] = jsonOf(retry.output(DECK_NODE));
		// the failed execution's request was committed and never answered: the replay is that purchase, charged once
		expect(item).toMatchObject({ outcome: 'success', charge: 'charged_or_replayed', replayed: false, taskId: chargesOf(principalId)[0].taskId });
		expect(chargesOf(principalId)).toHaveLength(1);
	});

	test('a later node failing and the execution retried does not buy again', async () => {
		const { key, principalId } = sim.control.createAccount({ balance: 100, subscriber: true });
		const workflow = loadWorkflow('create-then-fail');
		const first = await runWith(sim, workflow, key, [brief()]);
		expect(first.status).toBe('error');
		expect(first.nodeError('Later Step')).toBeDefined();
		const repaired = patchNode(workflow, 'Later Step', { parameters: { shouldThrow: false } });
		const retry = await runWith(sim, repaired, key, [], { previousRun: first, mode: 'retry' });
		expect(retry.status).toBe('success');
		expect(jsonOf(retry.output('Later Step'))[0].taskId).toBe(chargesOf(principalId)[0].taskId);
		expect(chargesOf(principalId)).toHaveLength(1);
	});

	test('a changed body is a new purchase with a new key', async () => {
		const { key, principalId } = sim.control.createAccount({ balance: 100, subscriber: true });
		const workflow = loadWorkflow('create');
		const first = await runWith(sim, workflow, key, [brief(), brief({ slide_count: 'twenty' })]);
		const changed = patchNode(workflow, DECK_NODE, {
			parameters: { title: '={{ $json.title + " (v2)" }}', additionalFields: { slideCount: 10 } } as INode['parameters'],
		});
		const retry = await runWith(sim, changed, key, [], { previousRun: first, mode: 'retry' });
		const items = jsonOf(retry.output(DECK_NODE));
		expect(items.every((i) => i.charge === 'charged' && i.replayed === false)).toBe(true);
		expect(chargesOf(principalId)).toHaveLength(3);
		expect(new Set(chargesOf(principalId).map((c) => c.idempotencyKey)).size).toBe(3);
	});

	test('the Idempotency Key override makes a redelivered webhook (a new execution) replay, not rebuy', async () => {
		const { key, principalId } = sim.control.createAccount({ balance: 100, subscriber: true });
		const workflow = loadWorkflow('create');
		const delivery = brief({ delivery_id: 'delivery-7f3a' });
		const first = await runWith(sim, workflow, key, [delivery]);
		const again = await runWith(sim, workflow, key, [delivery]);
		const [a] = jsonOf(first.output(DECK_NODE));
		const [b] = jsonOf(again.output(DECK_NODE));
		expect(a.idempotencyKey).toBe('delivery-7f3a');
		expect(b).toMatchObject({ taskId: a.taskId, replayed: true, idempotencyKey: 'delivery-7f3a' });
		expect(chargesOf(principalId)).toHaveLength(1);
	});
});
