/**
 * 200 Create items under a seeded fault plan: answers lost after the purchase, 500s, 503s and
 * 429s. Every item must end on a defined output and the ledger must show exactly one charge per
 * item. The counts are printed so a run can be compared with the next. One item at a time, so
 * the seeded plan hits the same requests on every run (with concurrency the arrival order, and
 * so which request draws which fault, would depend on timing).
 */
import type { INode } from 'n8n-workflow';

import { start, type Simulator } from '../../simulator';
import { brief, DECK_NODE, jsonOf, loadWorkflow, patchNode, runWith } from './fixture';

const ITEMS = 200;

describe('fault plan: 200 Create items', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await start({
			seed: 2026,
			clock: { manual: true },
			// Short hints, so the test waits milliseconds where the service would ask for seconds.
			limits: { maxConcurrentDecks: 10_000, retryAfterMs: 5 },
			faults: [
				{ method: 'POST', path: '/v1/decks', kind: 'drop-after-commit', probability: 0.08 },
				{ method: 'POST', path: '/v1/decks', kind: 'drop-before-commit', probability: 0.04 },
				{ method: 'POST', path: '/v1/decks', kind: 'status500', probability: 0.02 },
				{ method: 'POST', path: '/v1/decks', kind: 'status503', probability: 0.06 },
				{ method: 'POST', path: '/v1/decks', kind: 'status503', probability: 0.02, shape: 'plain' },
				{ method: 'POST', path: '/v1/decks', kind: 'status429', probability: 0.06 },
			],
		});
	});
	afterAll(async () => await sim.close());

	// The edge's plain 429 (a whole-second Retry-After) is left to the client and conformance
	// tests: here Max Retry Wait is 50 ms so that backoff stays in milliseconds.
	jest.setTimeout(60_000);

	test('every item lands on a defined output and is charged exactly once', async () => {
		const { key, principalId } = sim.control.createAccount({ balance: 100_000, subscriber: true });
		const base = loadWorkflow('create');
		const deck = base.nodes.find((n) => n.name === DECK_NODE)!;
		const workflow = patchNode(base, DECK_NODE, {
			// What a careful user sets for a batch: n8n retries the node if an item still fails.
			retryOnFail: true,
			maxTries: 3,
			waitBetweenTries: 1,
			parameters: {
				options: { ...(deck.parameters.options as Record<string, unknown>), maxRetryWaitSeconds: 0.05, concurrency: 1 },
			} as INode['parameters'],
		});
		const inputs = Array.from({ length: ITEMS }, (_, i) => brief({ title: `Deck ${i}` }));

		const result = await runWith(sim, workflow, key, inputs);

		const outputs = result.outputs(DECK_NODE);
		const success = jsonOf(outputs[0] ?? []);
		const landedCount = outputs.reduce((sum, items) => sum + (items?.length ?? 0), 0);
		const charges = sim.ledger.charges.filter((c) => c.principalId === principalId);
		const faults = sim.control.faultsInjected();
		const requests = sim.ledger.requests.filter((r) => r.path === '/v1/decks').length;

		// Printed by the reference project only: profile B runs this suite again against the same seeded plan,
		// which draws the same faults for the same requests, so its block would repeat this one word for word.
		const block = [
			`fault test: ${ITEMS} items, ${requests} POST /v1/decks requests, node runs ${result.runCount(DECK_NODE)}`,
			`faults injected: ${Object.entries(faults)
				.map(([kind, count]) => `${kind}=${count}`)
				.join(' ')}`,
			`landed: success=${outputs[0]?.length ?? 0} checkout=${outputs[1]?.length ?? 0} clientAction=${outputs[2]?.length ?? 0}`,
			...(result.status === 'error' ? [`node error: ${(result.nodeError(DECK_NODE) as Error)?.message}`] : []),
			`charges: ${charges.length} (distinct keys ${new Set(charges.map((c) => c.idempotencyKey)).size}, distinct decks ${new Set(charges.map((c) => c.taskId)).size})`,
		].join('\n');
		if (process.env.DECKGEN_SIM_PROFILE !== 'alternate') console.log(block);

		expect(result.status).toBe('success');
		expect(landedCount).toBe(ITEMS);
		expect(success).toHaveLength(ITEMS);
		expect(outputs[0].map((item) => item.pairedItem)).toEqual(inputs.map((_, item) => ({ item })));
		// Exactly one charge per item, and each item's taskId is the deck it was charged for.
		expect(charges).toHaveLength(ITEMS);
		const chargedTask = new Map(charges.map((c) => [c.idempotencyKey, c.taskId]));
		expect(chargedTask.size).toBe(ITEMS);
		for (const item of success) expect(chargedTask.get(String(item.idempotencyKey))).toBe(item.taskId);
		// The plan really hit: lost answers after a purchase, 5xx and rate limits all happened.
		expect(faults['drop-after-commit']).toBeGreaterThan(0);
		expect(faults.status500).toBeGreaterThan(0);
		expect(faults.status503).toBeGreaterThan(0);
		expect(faults.status429).toBeGreaterThan(0);
		// every deck was bought by this run: an answer lost after the service committed makes the retry a replay of
		// this run's own purchase, which is never "replayed" (nothing charged now) but charged once (issue 42)
		expect(success.filter((item) => item.charge === 'charged_or_replayed').length).toBeGreaterThan(0);
		expect(success.filter((item) => item.replayed !== false)).toEqual([]);
		expect(success.every((item) => item.charge === 'charged' || item.charge === 'charged_or_replayed')).toBe(true);
	});
});
