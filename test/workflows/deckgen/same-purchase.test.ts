/**
 * "The same purchase" when n8n has lost the execution's context (issue 15): the default key comes
 * from what any retry, redelivery or re-run supplies again (workflow, node, item position, brief,
 * trigger data, Purchase Reference), never from the execution id or the run index.
 */
import type { INode } from 'n8n-workflow';

import { connections, node, type WorkflowJson } from '../../harness';
import { start, type Simulator } from '../../simulator';
import { brief, createFromBrief, jsonOf, runWith } from './fixture';

const CREATE = 'Create';

/** Trigger → Create, as a user builds it: the brief from the trigger item, no Idempotency Key. */
function createWorkflow(options: Record<string, unknown> = {}, id = 'wfSamePurchase'): WorkflowJson {
	return {
		id,
		nodes: [
			node('Start', 'n8n-nodes-base.manualTrigger'),
			{
				...node(CREATE, 'n8n-nodes-deckgen.deckGen', createFromBrief({ options: { maxRetryWaitSeconds: 0, ...options } })),
				id: 'c0ffee00-0000-4000-8000-00000000c4ea',
			} as INode,
			node('Done', 'n8n-nodes-base.noOp'),
		],
		connections: connections([
			['Start', CREATE],
			[CREATE, 'Done'],
		]),
	} as WorkflowJson;
}

describe('the same purchase across executions (no Idempotency Key set)', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await start({ seed: 15, clock: { manual: true }, limits: { maxConcurrentDecks: 1000 } });
	});
	afterAll(async () => await sim.close());

	const account = () => sim.control.createAccount({ balance: 1000 });
	const chargesOf = (principalId: string) => sim.ledger.charges.filter((c) => c.principalId === principalId);
	const briefs = (n: number, extra: Record<string, unknown> = {}) =>
		Array.from({ length: n }, (_, i) => brief({ title: `Deck ${i}`, requestedBy: `person${i}@example.com`, ...extra }));

	test('a new execution with the same trigger data (a crashed execution retried, an editor re-run) replays every deck', async () => {
		const { key, principalId } = account();
		const workflow = createWorkflow();
		const first = await runWith(sim, workflow, key, briefs(3));
		const bought = jsonOf(first.output(CREATE)).map((item) => item.taskId);
		expect(bought).toHaveLength(3);

		// Another execution id, an empty node context: what n8n has after a crash or a page reload.
		const again = await runWith(sim, workflow, key, briefs(3));

		expect(again.executionId).not.toBe(first.executionId);
		const replayed = jsonOf(again.output(CREATE));
		expect(replayed.map((item) => item.taskId)).toEqual(bought);
		expect(replayed.every((item) => item.replayed === true)).toBe(true);
		expect(chargesOf(principalId)).toHaveLength(3);
	});

	test('identical briefs at different positions of one execution are different decks', async () => {
		const { key, principalId } = account();
		const same = brief({ title: 'Same deck' });
		const result = await runWith(sim, createWorkflow(), key, [same, same, same]);
		expect(new Set(jsonOf(result.output(CREATE)).map((item) => item.taskId)).size).toBe(3);
		expect(chargesOf(principalId)).toHaveLength(3);
	});

	test('new trigger data is a new purchase, even for the same brief', async () => {
		const { key, principalId } = account();
		const workflow = createWorkflow();
		await runWith(sim, workflow, key, [brief({ submittedAt: '2026-11-23T09:00:00Z' })]);
		const next = await runWith(sim, workflow, key, [brief({ submittedAt: '2026-11-24T09:00:00Z' })]);
		expect(jsonOf(next.output(CREATE))[0]).toMatchObject({ charge: 'charged', replayed: false });
		expect(chargesOf(principalId)).toHaveLength(2);
	});

	test('a changed brief is always a new purchase', async () => {
		const { key, principalId } = account();
		const workflow = createWorkflow();
		await runWith(sim, workflow, key, [brief({ title: 'Q3 review' })]);
		await runWith(sim, workflow, key, [brief({ title: 'Q3 review (v2)' })]);
		expect(chargesOf(principalId)).toHaveLength(2);
	});

	test('another workflow with the same brief and trigger data buys its own deck', async () => {
		const { key, principalId } = account();
		await runWith(sim, createWorkflow({}, 'wfOne'), key, [brief()]);
		await runWith(sim, createWorkflow({}, 'wfTwo'), key, [brief()]);
		expect(chargesOf(principalId)).toHaveLength(2);
	});

	test('Purchase Reference buys the same brief again on purpose; the same reference replays', async () => {
		const { key, principalId } = account();
		const workflow = createWorkflow({ purchaseReference: '={{ $json.ref }}' });
		const monday = await runWith(sim, workflow, key, [brief({ ref: '2026-11-23' })]);
		const mondayAgain = await runWith(sim, workflow, key, [brief({ ref: '2026-11-23' })]);
		expect(jsonOf(mondayAgain.output(CREATE))[0]).toMatchObject({ taskId: jsonOf(monday.output(CREATE))[0].taskId, replayed: true });
		expect(chargesOf(principalId)).toHaveLength(1);

		// The same trigger item, a reference that changes with every execution: a deck each time.
		const everyRun = createWorkflow({ purchaseReference: '={{ $execution.id }}' }, 'wfEveryRun');
		await runWith(sim, everyRun, key, [brief({ title: 'Every run' })]);
		await runWith(sim, everyRun, key, [brief({ title: 'Every run' })]);
		expect(chargesOf(principalId)).toHaveLength(3);
	});

	test('each purchase is logged when it is made, with where it was made and its key, never the API key', async () => {
		const { key, principalId } = account();
		const workflow = createWorkflow();
		const result = await runWith(sim, workflow, key, briefs(2));
		const [charge] = chargesOf(principalId);
		const line = result.logs.find((l) => l.includes('purchase made') && l.includes(charge.taskId));
		expect(line).toBeDefined();
		expect(line).toContain(charge.idempotencyKey);
		expect(line).toContain('wfSamePurchase');
		expect(line).toContain(result.executionId);
		expect(line).not.toContain(key);

		const again = await runWith(sim, workflow, key, briefs(2));
		expect(again.logs.filter((l) => l.includes('purchase replayed (bought before this run, nothing charged now)'))).toHaveLength(2);
	});
});
