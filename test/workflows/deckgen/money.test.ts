/**
 * Issue 42: every sentence and flag about money says what the service did to the user's credits, as far as the
 * node can know it, in every path: answered at once, the answer lost and then replayed (this run's own charge),
 * a replay of an earlier execution's purchase, a refusal, a price re-sent within Max Credits, n8n's Retry On
 * Fail after an unanswered try, and Recover Purchase. The simulator's ledger says what was really charged.
 */
import type { INode } from 'n8n-workflow';

import { PURCHASE_MARKER } from '../../../nodes/shared/purchaseRecord';
import { connections, node, type RunResult, type WorkflowJson } from '../../harness';
import { start, type Simulator } from '../../simulator';
import { brief, continueErrorOutput, DECK_NODE, jsonOf, loadWorkflow, patchNode, runWith } from './fixture';

/** The Create workflow with the node's own retries fast (Max Retry Wait in ms, not seconds). */
const createWorkflow = (id: string): WorkflowJson => {
	const base = loadWorkflow('create');
	const deck = base.nodes.find((n) => n.name === DECK_NODE)!;
	return {
		...patchNode(base, DECK_NODE, { parameters: { options: { ...(deck.parameters.options as Record<string, unknown>), maxRetryWaitSeconds: 0.01 } } as INode['parameters'] }),
		id,
	};
};

function recoverWorkflow(): WorkflowJson {
	return continueErrorOutput({
		nodes: [
			node('Start', 'n8n-nodes-base.manualTrigger'),
			{ ...node(DECK_NODE, 'n8n-nodes-deckgen.deckGen', { resource: 'deck', operation: 'recover', loggedPurchase: '={{ $json.line }}', options: { maxRetryWaitSeconds: 0.01 } } as never), typeVersion: 1.1 },
			node('Success', 'n8n-nodes-base.noOp'),
		],
		connections: connections([['Start', DECK_NODE], [DECK_NODE, 'Success', 0]]),
		settings: { executionOrder: 'v1' },
	});
}

const successOf = (result: RunResult) => jsonOf(result.output(DECK_NODE, 0));
const logLine = (result: RunResult, words: string) => result.logs.find((line) => line.includes(`Deck Generator: ${words}`));

describe('Issue 42: what a purchase says it cost is what the service charged', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await start({ seed: 42, clock: { manual: true }, limits: { maxConcurrentDecks: 1000, retryAfterMs: 5 } });
	});
	afterAll(async () => await sim.close());
	afterEach(() => sim.control.setFaults([]));

	const account = () => sim.control.createAccount({ balance: 1000, subscriber: true });
	const chargesOf = (principalId: string) => sim.ledger.charges.filter((charge) => charge.principalId === principalId);

	test('answered at once: charged now, at the price sent; the item names its purchase for the readers after it', async () => {
		const { key, principalId } = account();
		const before = Date.now();
		const result = await runWith(sim, createWorkflow('wf-money-1'), key, [brief()]);
		const [item] = successOf(result);
		expect(item).toMatchObject({ charge: 'charged', replayed: false, message: 'Bought: the service charged this deck (10 credits).' });
		const [charge] = chargesOf(principalId);
		expect(item.purchase).toEqual({ taskId: charge.taskId, idempotencyKey: charge.idempotencyKey, requestId: item.requestId, confirmedAt: expect.any(String) });
		const confirmedAt = Date.parse((item.purchase as { confirmedAt: string }).confirmedAt);
		expect(confirmedAt).toBeGreaterThanOrEqual(before - 1);
		expect(confirmedAt).toBeLessThanOrEqual(Date.now());
		expect(logLine(result, `purchase made, taskId ${charge.taskId}`)).toBeDefined();
	});

	test.each([
		['dropped after the service committed (no answer)', 'drop-after-commit' as const, /this run's first attempt got no answer \(no answer: /],
		['a 503 after the service committed', 'status503' as const, /this run's first attempt got no answer \(HTTP 503\)/],
		['a 500 after the service committed', 'status500' as const, /this run's first attempt got no answer \(HTTP 500\)/],
	])('the first answer lost (%s), the retry replayed: charged once by this run, never "nothing was charged"', async (_case, kind, lost) => {
		const { key, principalId } = account();
		sim.control.setFaults([{ method: 'POST', path: '/v1/decks', kind, ...(kind === 'drop-after-commit' ? {} : { afterCommit: true }), times: 1 }]);
		const result = await runWith(sim, createWorkflow('wf-money-2'), key, [brief({ title: `Lost answer ${kind}` })]);
		const [item] = successOf(result);
		const charges = chargesOf(principalId);
		expect(charges).toHaveLength(1);
		expect(item).toMatchObject({ taskId: charges[0].taskId, charge: 'charged_or_replayed', replayed: false });
		expect(item.message).toMatch(/^Charged once \(10 credits\): /);
		expect(item.message).toMatch(lost);
		expect(item.message).toContain('Either way it was charged once, not twice.');
		expect(item.message).not.toMatch(/nothing was charged/i);
		expect(logLine(result, 'purchase confirmed by a replay after an unanswered attempt')).toContain(charges[0].taskId);
	});

	test('the same purchase in a later execution: bought before this run, nothing charged now', async () => {
		const { key, principalId } = account();
		const workflow = createWorkflow('wf-money-3');
		const first = successOf(await runWith(sim, workflow, key, [brief({ title: 'Bought once' })]))[0];
		const again = await runWith(sim, workflow, key, [brief({ title: 'Bought once' })]);
		const [item] = successOf(again);
		expect(item).toMatchObject({ taskId: first.taskId, charge: 'replayed', replayed: true });
		// the first purchase's time, which this process knows (issue 49): a replay is not a purchase made now
		const boughtAt = (first.purchase as { confirmedAt: string }).confirmedAt;
		expect(item.purchase).toEqual({ taskId: first.taskId, idempotencyKey: first.idempotencyKey, requestId: item.requestId, confirmedAt: boughtAt });
		expect(item.message).toBe(`This deck was bought before this run (at ${boughtAt}), with the same Idempotency-Key: the service replayed that purchase and charged nothing now.`);
		expect(chargesOf(principalId)).toHaveLength(1);
		expect(logLine(again, 'purchase replayed (bought before this run, nothing charged now)')).toContain(String(first.taskId));
	});

	test('an earlier execution bought it and this run lost its first answer: the node cannot tell who paid, and says so', async () => {
		const { key, principalId } = account();
		const workflow = createWorkflow('wf-money-4');
		await runWith(sim, workflow, key, [brief({ title: 'Who paid' })]);
		sim.control.setFaults([{ method: 'POST', path: '/v1/decks', kind: 'drop-after-commit', times: 1 }]);
		const [item] = successOf(await runWith(sim, workflow, key, [brief({ title: 'Who paid' })]));
		expect(item).toMatchObject({ charge: 'charged_or_replayed', replayed: false });
		expect(item.message).toContain('if an earlier run sent the same purchase, that run did');
		expect(chargesOf(principalId)).toHaveLength(1);
	});

	test("n8n's Retry On Fail after a try whose answer was lost: the replay is this execution's own charge", async () => {
		const { key, principalId } = account();
		// the first try's request is committed and its answer dropped, then every retry of the node meets a 503 until
		// its retries run out; n8n runs the node again, and that try's request is answered with a replay
		sim.control.setFaults([
			{ method: 'POST', path: '/v1/decks', kind: 'drop-after-commit', times: 1, followedBy: Array.from({ length: 5 }, () => ({ kind: 'status503' as const })) },
		]);
		const workflow = patchNode(createWorkflow('wf-money-5'), DECK_NODE, { retryOnFail: true, maxTries: 2, waitBetweenTries: 1 });
		const result = await runWith(sim, workflow, key, [brief({ title: 'Retried by n8n' })]);
		const [item] = successOf(result);
		expect(chargesOf(principalId)).toHaveLength(1);
		expect(item).toMatchObject({ charge: 'charged_or_replayed', replayed: false });
		expect(item.message).not.toMatch(/nothing was charged/i);
	});

	test('a refusal charges nothing, and says so: 402 on Checkout or Client Action, price drift above Max Credits', async () => {
		const { key, principalId } = sim.control.createAccount({ balance: 0, subscriber: true });
		const workflow = createWorkflow('wf-money-6');
		const broke = await runWith(sim, workflow, key, [brief({ title: 'No credits' })]);
		const refused = [...(broke.output(DECK_NODE, 1) ?? []), ...(broke.output(DECK_NODE, 2) ?? [])].map((i) => i.json);
		expect(refused).toHaveLength(1);
		expect(refused[0]).toMatchObject({ charge: 'none' });
		expect(String(refused[0].message)).toContain('Nothing was charged.');

		const drift = await runWith(sim, workflow, key, [brief({ title: 'Wrong price', expected_credits: 3 })]);
		const [clientAction] = jsonOf(drift.output(DECK_NODE, 2));
		expect(clientAction).toMatchObject({ outcome: 'price_drift', charge: 'none' });
		expect(String(clientAction.message)).toContain('Nothing was charged.');
		expect(chargesOf(principalId)).toHaveLength(0);
	});

	test('a price re-sent within Max Credits: charged once, at the live price, and the refused first request said to be free', async () => {
		const { key, principalId } = account();
		const [item] = successOf(await runWith(sim, createWorkflow('wf-money-7'), key, [brief({ title: 'Live price', expected_credits: 0, max_credits: 15 })]));
		expect(item).toMatchObject({ charge: 'charged', replayed: false, repricedFrom: 0 });
		expect(item.message).toBe(
			'Bought: the service charged this deck (10 credits) at the live price: the request at 0 credits was refused (price_drift, nothing charged) and sent again within Max Credits.',
		);
		expect(chargesOf(principalId).map((charge) => charge.credits)).toEqual([10]);
	});

	test('a price re-sent within Max Credits is one purchase: a retry replays it, and after the live price moved is refused, never a second deck', async () => {
		const { key, principalId } = account();
		const workflow = createWorkflow('wf-money-reprice');
		const input = [brief({ title: 'Whatever it costs', expected_credits: 0, max_credits: 15 })];
		const [first] = successOf(await runWith(sim, workflow, key, input));
		expect(first).toMatchObject({ charge: 'charged', repricedFrom: 0 });
		// the same trigger data again (a retry, an editor re-run): the same drift, the same re-sent purchase, replayed
		const [again] = successOf(await runWith(sim, workflow, key, input));
		expect(again).toMatchObject({ taskId: first.taskId, charge: 'replayed', repricedFrom: 0, idempotencyKey: first.idempotencyKey });
		// the live price moves; a retry meets the new one: never a second deck. A service that looks the key up first
		// holds it with the body at 10, which this process knows: sent at 10, replayed. One that checks the price
		// first refuses 10 as no longer live and the live price under the key: refused, the deck named as not lost.
		sim.control.driftPrice(2, 'create');
		try {
			const moved = await runWith(sim, continueErrorOutput(workflow), key, input);
			if (sim.profile.priceCheck === 'after-key') {
				const [replayed] = successOf(moved);
				expect(replayed).toMatchObject({ taskId: first.taskId, charge: 'replayed', idempotencyKey: first.idempotencyKey });
			} else {
				const [error] = jsonOf(moved.output('Errors'));
				expect(error.error).toMatchObject({ message: 'This purchase was already made, when the live price was another: nothing was bought now', idempotencyKey: first.idempotencyKey });
				expect(String(error.message)).toContain('Recover Purchase with the line n8n logged');
			}
			expect(chargesOf(principalId)).toHaveLength(1);
		} finally {
			sim.control.driftPrice(-2, 'create');
		}
	});

	test('with an Idempotency Key of the workflow (a delivery id), a redelivery at an unknown price replays too', async () => {
		const { key, principalId } = account();
		const input = [brief({ title: 'Delivered twice', expected_credits: 0, max_credits: 15, delivery_id: `delivery-${Date.now()}` })];
		const [first] = successOf(await runWith(sim, createWorkflow('wf-money-delivery'), key, input));
		const [again] = successOf(await runWith(sim, createWorkflow('wf-money-delivery'), key, input));
		expect(again).toMatchObject({ taskId: first.taskId, charge: 'replayed' });
		expect(chargesOf(principalId)).toHaveLength(1);
	});

	test('every spending operation says it: a revision of a deck, bought and then replayed', async () => {
		const { key, principalId } = account();
		const [deck] = successOf(await runWith(sim, createWorkflow('wf-money-8'), key, [brief({ title: 'To revise' })]));
		sim.control.advance(40 * 60_000);
		const revise = { ...loadWorkflow('revise'), id: 'wf-money-8r' };
		const input = [{ taskId: deck.taskId, instructions: 'Shorter', expected_credits: 0 }];
		const [bought] = successOf(await runWith(sim, revise, key, input));
		expect(bought).toMatchObject({ charge: 'charged', replayed: false, message: 'Bought: the service charged this revision (0 credits).' });
		const again = await runWith(sim, revise, key, input);
		if (sim.profile.priceCheck === 'after-key') {
			const [replayed] = successOf(again);
			expect(replayed).toMatchObject({ charge: 'replayed', replayed: true });
			expect(replayed.message).toContain('This revision was bought before this run');
		} else {
			// the included revision is bought; the next one costs 8, and a service that checks the price first refuses 0
			const [refused] = jsonOf(again.output(DECK_NODE, 2));
			expect(refused).toMatchObject({ outcome: 'price_drift', charge: 'none' });
		}
		expect(chargesOf(principalId)).toHaveLength(1);
	});

	describe('Recover Purchase', () => {
		const loggedLine = (result: RunResult) => result.logs.find((line) => line.includes(PURCHASE_MARKER))!.replace(/^info: /, '');

		test('a purchase the service had: replayed, charged when first sent and not now', async () => {
			const { key, principalId } = account();
			const made = await runWith(sim, createWorkflow('wf-money-9'), key, [brief({ title: 'Recovered' })]);
			const [item] = successOf(await runWith(sim, recoverWorkflow(), key, [{ line: loggedLine(made) }]));
			expect(item).toMatchObject({ charge: 'replayed', replayed: true });
			expect(item.message).toMatch(/^The service replayed the purchase of execution \S+ of workflow wf-money-9, .*It was charged when first sent; nothing was charged now\.$/);
			expect(chargesOf(principalId)).toHaveLength(1);
		});

		test('a recovery whose first answer is lost: charged once, by the first send or by that lost attempt', async () => {
			const { key, principalId } = account();
			const made = await runWith(sim, createWorkflow('wf-money-10'), key, [brief({ title: 'Recovered, answer lost' })]);
			sim.control.setFaults([{ method: 'POST', path: '/v1/decks', kind: 'drop-after-commit', times: 1 }]);
			const [item] = successOf(await runWith(sim, recoverWorkflow(), key, [{ line: loggedLine(made) }]));
			expect(item).toMatchObject({ charge: 'charged_or_replayed', replayed: false });
			expect(item.message).toContain('charged once');
			expect(chargesOf(principalId)).toHaveLength(1);
		});
	});
});
