/**
 * A failing execution names every deck it bought, as n8n saves it. n8n keeps only the last
 * try's error, so each failing try must name the purchases of every try (kept in the node's
 * execution context), and a request sent but never answered must be named with its key.
 */
import type { INode } from 'n8n-workflow';

import type { WorkflowJson } from '../../harness';
import { start, type Simulator } from '../../simulator';
import { DECK_NODE, jsonOf, loadWorkflow, patchNode, runWith } from './fixture';

interface SavedError {
	message: string;
	description?: string;
	context: { purchasedTaskIds?: string[]; unansweredPurchases?: Array<{ item: number; idempotencyKey: string }> };
}

/** One item at a time (so a try stops at its first failing item), in-node retries without waiting. */
function oneAtATime(workflow: WorkflowJson, settings: Partial<INode> = {}): WorkflowJson {
	const deck = workflow.nodes.find((n) => n.name === DECK_NODE)!;
	const options = { ...(deck.parameters.options as Record<string, unknown>), maxRetryWaitSeconds: 0, concurrency: 1 };
	return patchNode(workflow, DECK_NODE, { ...settings, parameters: { options } as INode['parameters'] });
}

/** The node error as n8n saves it with the execution (a JSON round trip of the run data). */
function savedError(result: { runExecutionData: unknown }): SavedError {
	const data = result.runExecutionData as { resultData: { runData: Record<string, Array<{ error?: SavedError }>> } };
	const runs = data.resultData.runData[DECK_NODE];
	return runs[runs.length - 1].error!;
}

describe('a failing execution names every purchase', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await start({ seed: 31, clock: { manual: true }, limits: { maxConcurrentDecks: 1000 } });
	});
	afterAll(async () => await sim.close());
	afterEach(() => sim.control.setFaults([]));

	/** The translate example's items: one German translation of each deck, 5 credits expected. */
	const translateItems = (decks: string[]) => decks.map((taskId) => ({ taskId, languages: ['de'], expected_credits: 5 }));
	const chargesOf = (principalId: string) => sim.ledger.charges.filter((c) => c.principalId === principalId);

	test('Retry On Fail whose second try fails earlier in the list than the first: the decks only try 1 reached stay named', async () => {
		const { key, principalId } = sim.control.createAccount({ balance: 1000, subscriber: true });
		const decks = [0, 1, 2, 3].map(() => sim.control.seedDeck({ key, durationMs: 0 }));
		const path = (i: number) => `/v1/decks/${decks[i]}/translations`;
		sim.control.setFaults([
			// Try 1: items 0, 1, 2 buy; item 3 gets a 500 twice (retried once) and fails the try.
			// Try 2: item 0 replays; item 1 now gets the 500s, so the try never reaches item 2.
			{ path: path(1), kind: 'latency', latencyMs: 1, times: 1 },
			{ path: path(1), kind: 'status500', times: 2 },
			{ path: path(3), kind: 'status500', times: 2 },
		]);
		const workflow = oneAtATime(loadWorkflow('translate'), { retryOnFail: true, maxTries: 2, waitBetweenTries: 1 });

		const result = await runWith(sim, workflow, key, translateItems(decks));

		expect(result.status).toBe('error');
		const charges = chargesOf(principalId);
		expect(charges.map((c) => c.taskId).sort()).toEqual([decks[0], decks[1], decks[2]].sort());
		const error = savedError(result);
		expect(error.message).toMatch(/500/);
		// Try 2 only reached items 0 and 1; decks 1 and 2 were bought by try 1 and must still be named.
		expect([...(error.context.purchasedTaskIds ?? [])].sort()).toEqual([decks[0], decks[1], decks[2]].sort());
		for (const taskId of [decks[0], decks[1], decks[2]]) expect(error.description).toContain(taskId);
		expect(error.description).not.toContain(decks[3]);
	});

	test('a purchase whose answer is lost on every attempt is named with its key, as "may have been bought"', async () => {
		const { key, principalId } = sim.control.createAccount({ balance: 1000, subscriber: true });
		const decks = [0, 1].map(() => sim.control.seedDeck({ key, durationMs: 0 }));
		// Item 0 buys normally; every attempt of item 1 is committed and its answer dropped.
		sim.control.setFaults([{ path: `/v1/decks/${decks[1]}/translations`, kind: 'drop-after-commit', times: 6 }]);
		const workflow = oneAtATime(loadWorkflow('translate'));

		const result = await runWith(sim, workflow, key, translateItems(decks));

		expect(result.status).toBe('error');
		const charges = chargesOf(principalId);
		expect(charges).toHaveLength(2);
		const lost = charges.find((c) => c.taskId === decks[1])!;
		const error = savedError(result);
		expect(error.message).toMatch(/No response from the service after 6 attempts/);
		expect(error.context.purchasedTaskIds).toEqual([decks[0]]);
		expect(error.context.unansweredPurchases).toEqual([expect.objectContaining({ item: 1, idempotencyKey: lost.idempotencyKey })]);
		expect(error.description).toContain(
			`item 1 (Idempotency-Key ${lost.idempotencyKey})`,
		);
		expect(error.description).toContain('may have been bought; retrying the execution replays it without a second charge');

		// And so it is: the retry from the executions list replays it, with no second charge.
		const retry = await runWith(sim, workflow, key, [], { previousRun: result, mode: 'retry' });
		expect(retry.status).toBe('success');
		expect(jsonOf(retry.output('Success'))[1]).toMatchObject({ taskId: decks[1], charge: 'charged_or_replayed', replayed: false });
		expect(chargesOf(principalId)).toHaveLength(2);
	});

	test.each([
		['a 503', 'status503', 503],
		['a 429', 'status429', 429],
	] as const)('a purchase committed and then answered 500, its retry %s, is named as "may have been bought"', async (_name, last, lastStatus) => {
		const { key, principalId } = sim.control.createAccount({ balance: 1000, subscriber: true });
		const [taskId] = [0].map(() => sim.control.seedDeck({ key, durationMs: 0 }));
		// The service buys, then fails its answer; the retry of the same key meets a 503 or a 429.
		sim.control.setFaults([
			{
				path: `/v1/decks/${taskId}/translations`,
				kind: 'status500',
				afterCommit: true,
				times: 1,
				// Max Retry Wait is 0, so a wait the service asks for ends the item: the last answer is that one.
				followedBy: [{ kind: last }],
			},
		]);
		const workflow = oneAtATime(loadWorkflow('translate'));

		const result = await runWith(sim, workflow, key, translateItems([taskId]));

		expect(result.status).toBe('error');
		const [charge] = chargesOf(principalId);
		expect(charge).toBeDefined();
		const error = savedError(result);
		expect(error.context.unansweredPurchases).toEqual([expect.objectContaining({ item: 0, idempotencyKey: charge.idempotencyKey })]);
		expect(error.description).toContain('may have been bought; retrying the execution replays it without a second charge');
		const answers = sim.ledger.requests.filter((r) => r.idempotencyKey === charge.idempotencyKey).map((r) => r.status);
		expect(answers).toEqual([500, lastStatus]);

		// Retrying replays it: the deck reaches an output, charged once.
		sim.control.setFaults([]);
		const retry = await runWith(sim, workflow, key, [], { previousRun: result, mode: 'retry' });
		expect(jsonOf(retry.output('Success'))[0]).toMatchObject({ taskId, charge: 'charged_or_replayed', replayed: false });
		expect(chargesOf(principalId)).toHaveLength(1);
	});

	test('with continue-on-fail, the item whose answer was lost says so on the error output, with its key', async () => {
		const { key } = sim.control.createAccount({ balance: 1000, subscriber: true });
		const taskId = sim.control.seedDeck({ key, durationMs: 0 });
		sim.control.setFaults([{ path: `/v1/decks/${taskId}/translations`, kind: 'drop-after-commit', times: 6 }]);
		const workflow = oneAtATime(loadWorkflow('translate'), { onError: 'continueErrorOutput' });

		const result = await runWith(sim, workflow, key, translateItems([taskId]));

		const [item] = jsonOf(result.output('Errors'));
		const charged = sim.ledger.charges.find((c) => c.taskId === taskId)!;
		expect(item.error).toMatchObject({ idempotencyKey: charged.idempotencyKey, mayHaveBeenBought: true });
		expect(String(item.message)).toContain('may have been bought; retrying the execution replays it without a second charge');
	});
});
