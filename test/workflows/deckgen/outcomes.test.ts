/**
 * Every outcome of a spending call, through the Create workflow: each 402 cta on its output,
 * price drift under and over Max Credits, and every real failure as a clear n8n error.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { start, type Simulator } from '../../simulator';
import { brief, continueErrorOutput, DECK_NODE, jsonOf, loadWorkflow, runWith, withListFields } from './fixture';

const OUTPUTS = ['Success', 'Checkout', 'Client Action', 'Errors'] as const;

function where(result: Awaited<ReturnType<typeof runWith>>) {
	const byOutput: Record<string, Array<Record<string, unknown>>> = {};
	for (const name of OUTPUTS) byOutput[name] = result.runCount(name) ? jsonOf(result.output(name)) : [];
	return byOutput;
}

describe('Deck Generator outcomes (Create workflow against the simulator)', () => {
	let sim: Simulator;
	const create = continueErrorOutput(loadWorkflow('create'));
	beforeAll(async () => {
		sim = await start({ seed: 11, clock: { manual: true } });
	});
	afterAll(async () => await sim.close());

	const checkoutCases: Array<[string, () => string, Record<string, unknown>, string]> = [
		['unlock_or_subscribe', () => sim.keys.freePlan, {}, 'unlock_or_subscribe'],
		['top_up', () => sim.keys.broke, {}, 'top_up'],
		['subscribe_for_translation', () => sim.keys.freePlan, { additional_languages: ['de'], expected_credits: 15 }, 'subscribe_for_translation'],
		['translation_top_up', () => sim.keys.broke, { additional_languages: ['de', 'fr'], expected_credits: 20 }, 'translation_top_up'],
	];
	test.each(checkoutCases)('402 %s goes to Checkout with its ordered options and a readable message', async (_name, key, fields, cta) => {
		const charges = sim.ledger.charges.length;
		const result = await runWith(sim, 'additional_languages' in fields ? withListFields(create, ['additionalLanguages']) : create, key(), [brief(fields)]);
		const { Checkout } = where(result);
		expect(Checkout).toHaveLength(1);
		expect(Checkout[0]).toMatchObject({ outcome: 'checkout', code: 'insufficient_credits', cta });
		expect(Array.isArray(Checkout[0].options) && Checkout[0].options.length).toBeGreaterThan(0);
		expect(String(Checkout[0].message)).not.toContain('\n');
		expect(Checkout[0].requestId).toEqual(expect.any(String));
		expect(Checkout[0].request).toMatchObject({ title: 'Q3 review' });
		expect(result.output(DECK_NODE, 1)[0].pairedItem).toEqual({ item: 0 });
		expect(sim.ledger.charges.length).toBe(charges);
	});

	test('402 upgrade_for_slides and confirm_slide_surcharge go to Client Action; confirming buys at the higher price', async () => {
		const { key } = sim.control.createAccount({ balance: 200, subscriber: true });
		const result = await runWith(sim, create, key, [brief({ slide_count: 20 })]);
		const [surcharge] = where(result)['Client Action'];
		expect(surcharge).toMatchObject({ outcome: 'client_action', cta: 'confirm_slide_surcharge', credits: 20 });
		expect(surcharge.message).toMatch(/Confirm Slide Surcharge/);

		const free = await runWith(sim, create, sim.keys.freePlan, [brief({ slide_count: 20 })]);
		expect(where(free)['Client Action'][0]).toMatchObject({ cta: 'upgrade_for_slides' });

		// After a person approved the price, the workflow creates again with the flag and the new price.
		const confirmed = await runWith(sim, create, key, [
			brief({ slide_count: 20, confirm_slide_surcharge: true, expected_credits: surcharge.credits }),
		]);
		expect(where(confirmed).Success[0]).toMatchObject({ outcome: 'success', taskId: expect.any(String) });
		expect(sim.control.balanceOf(key)).toBe(180);
	});

	test('402 manage_decks (too many decks in progress) goes to Client Action', async () => {
		sim.control.setLimits({ maxConcurrentDecks: 1 });
		try {
			const { key } = sim.control.createAccount({ balance: 200, subscriber: true });
			const result = await runWith(sim, create, key, [brief(), brief({ title: 'Second' })]);
			const { Success } = where(result);
			expect(Success).toHaveLength(1);
			expect(where(result)['Client Action'][0]).toMatchObject({ cta: 'manage_decks', outcome: 'client_action' });
		} finally {
			sim.control.setLimits({ maxConcurrentDecks: 5 });
		}
	});

	test('402 buy_revision after the included round goes to Checkout', async () => {
		const { key } = sim.control.createAccount({ balance: 5, subscriber: true });
		const taskId = sim.control.seedDeck({ key, durationMs: 0 });
		const revise = loadWorkflow('revise');
		await runWith(sim, revise, key, [{ taskId, instructions: 'first', expected_credits: 0 }]);
		sim.control.advance(60 * 60_000);
		const result = await runWith(sim, revise, key, [{ taskId, instructions: 'second', expected_credits: 8 }]);
		expect(jsonOf(result.output('Checkout'))[0]).toMatchObject({ cta: 'buy_revision', outcome: 'checkout' });
	});

	test('the video paywall (code only, no cta) is treated as top_up', async () => {
		sim.control.setUnshipped([]);
		try {
			const taskId = sim.control.seedDeck({ key: sim.keys.broke, durationMs: 0 });
			const result = await runWith(sim, loadWorkflow('generate-video'), sim.keys.broke, [{ taskId, expected_credits: 20 }]);
			expect(jsonOf(result.output('Checkout'))[0]).toMatchObject({ cta: 'top_up', ctaInferred: true, outcome: 'checkout' });
		} finally {
			sim.control.setUnshipped(['video']);
		}
	});

	test('with Split Outputs by CTA each cta has its own output', async () => {
		const split = continueErrorOutput(loadWorkflow('create-split'));
		const { key } = sim.control.createAccount({ balance: 200, subscriber: true });
		const result = await runWith(sim, split, sim.keys.freePlan, [brief(), brief({ slide_count: 20 })]);
		expect(jsonOf(result.output('Unlock or Subscribe'))).toHaveLength(1);
		expect(jsonOf(result.output('Upgrade for Slides'))).toHaveLength(1);
		expect(result.output(DECK_NODE, 4)[0].pairedItem).toEqual({ item: 1 });
		const surcharge = await runWith(sim, split, key, [brief({ slide_count: 20 })]);
		expect(jsonOf(surcharge.output('Confirm Slide Surcharge'))).toHaveLength(1);
		sim.control.driftPrice(50, 'create');
		try {
			const drift = await runWith(sim, split, key, [brief()]);
			expect(jsonOf(drift.output('Other Client Action'))[0]).toMatchObject({ outcome: 'price_drift' });
		} finally {
			sim.control.driftPrice(-50, 'create');
		}
	});

	describe('price drift', () => {
		afterEach(() => sim.control.setPrice({ create: 10 }));

		test('within Max Credits: re-sent once with the live price, bought once', async () => {
			const { key, principalId } = sim.control.createAccount({ balance: 200, subscriber: true });
			sim.control.driftPrice(3, 'create');
			const result = await runWith(sim, create, key, [brief({ max_credits: 15 })]);
			const [item] = where(result).Success;
			expect(item).toMatchObject({ outcome: 'success', repricedFrom: 10 });
			const charges = sim.ledger.charges.filter((c) => c.principalId === principalId);
			expect(charges.map((c) => c.credits)).toEqual([13]);
		});

		test('above Max Credits: Client Action with both prices, nothing charged', async () => {
			const { key, principalId } = sim.control.createAccount({ balance: 200, subscriber: true });
			sim.control.driftPrice(10, 'create');
			const result = await runWith(sim, create, key, [brief({ max_credits: 15 })]);
			const [item] = where(result)['Client Action'];
			expect(item).toMatchObject({ outcome: 'price_drift', credits: 20, expectedCredits: 10 });
			expect(item.message).toMatch(/Price now 20 credits \(expected 10\)/);
			expect(sim.ledger.charges.filter((c) => c.principalId === principalId)).toHaveLength(0);
		});

		test('without Max Credits: never re-sent', async () => {
			sim.control.driftPrice(1, 'create');
			const before = sim.ledger.requests.length;
			const result = await runWith(sim, create, sim.keys.personal, [brief()]);
			expect(where(result)['Client Action'][0]).toMatchObject({ outcome: 'price_drift', credits: 11 });
			expect(sim.ledger.requests.length - before).toBe(1);
		});
	});

	describe('real failures are n8n errors that say what fixes them', () => {
		const errorCases: Array<[string, () => string, Record<string, unknown>, RegExp, RegExp]> = [
			['401 wrong or revoked key', () => sim.keys.revoked, {}, /401 unauthorized/, /wrong or revoked/],
			['403 insufficient_scope', () => sim.keys.narrow, {}, /403 forbidden\/insufficient_scope/, /decks:spend.*new key.*signing in again does not help/],
			['403 unrecognized_scope', () => sim.keys.unrecognized, {}, /403 forbidden\/unrecognized_scope/, /<resource>:<action>/],
			['403 not_enrolled', () => sim.keys.notEnrolled, {}, /403 forbidden\/not_enrolled/, /not switched on.*No retry helps/],
			['422 validation (field list, in the form\'s labels)', () => sim.keys.personal, { output_language: 'not a language tag' }, /Output Language/, /Fix these fields: Output Language/],
			['413 body too large', () => sim.keys.personal, { core_message: 'x'.repeat(70 * 1024) }, /413 payload_too_large/, /Material → Upload/],
		];
		test.each(errorCases)('%s', async (_name, key, fields, message, remedy) => {
			const result = await runWith(sim, create, key(), [brief(fields)]);
			const [item] = where(result).Errors;
			const error = item.error as Record<string, unknown>;
			expect(error.message).toMatch(message);
			expect(item.message).toMatch(remedy);
			expect(error).toMatchObject({ outcome: 'error', code: expect.any(String), requestId: expect.any(String) });
			expect(String(error.message)).not.toMatch(/Authorization failed - please check your credentials|Forbidden - perhaps/);
		});

		test('without continue-on-fail the node fails with a NodeApiError carrying the service detail', async () => {
			const result = await runWith(sim, loadWorkflow('create'), sim.keys.narrow, [brief()]);
			expect(result.status).toBe('error');
			const error = result.nodeError(DECK_NODE) as { name: string; message: string; description: string; context: Record<string, unknown> };
			expect(error.name).toBe('NodeApiError');
			expect(error.message).toMatch(/insufficient_scope/);
			expect(error.description).toMatch(/decks:spend/);
			expect(error.context).toMatchObject({ code: 'forbidden', reason: 'insufficient_scope', requestId: expect.any(String) });
		});

		test('decks bought before another item failed are named in the error, not lost', async () => {
			const { key } = sim.control.createAccount({ balance: 200, subscriber: true });
			const workflow = loadWorkflow('create');
			const result = await runWith(sim, workflow, key, [brief(), brief({ slide_count: 'twenty' })], {});
			expect(result.status).toBe('error');
			const error = result.nodeError(DECK_NODE) as { description: string; context: { purchasedTaskIds?: string[] } };
			const bought = sim.ledger.charges.filter((c) => c.keyId && c.credits === 10).map((c) => c.taskId);
			expect(error.context.purchasedTaskIds).toHaveLength(1);
			expect(bought).toContain(error.context.purchasedTaskIds![0]);
			expect(error.description).toContain(error.context.purchasedTaskIds![0]);
		});
	});

	test('one run, several items, each on its own output with its pairedItem', async () => {
		const { key } = sim.control.createAccount({ balance: 200, subscriber: true });
		const result = await runWith(sim, create, key, [brief(), brief({ slide_count: 20 }), brief({ slide_count: 'x' })]);
		const [success, checkout, clientAction, errors] = result.outputs(DECK_NODE);
		expect(success.map((i) => i.pairedItem)).toEqual([{ item: 0 }]);
		expect(checkout).toEqual([]);
		expect(clientAction.map((i) => i.pairedItem)).toEqual([{ item: 1 }]);
		expect(errors.map((i) => i.pairedItem)).toEqual([{ item: 2 }]);
	});
});

describe('an unknown cta', () => {
	let server: Server;
	let url: string;
	beforeAll(async () => {
		// The simulator only speaks the contract's nine ctas; a future one is served by hand here.
		server = createServer((_req, res) => {
			res.writeHead(402, { 'Content-Type': 'application/problem+json', 'X-Request-Id': 'req_future' });
			res.end(
				JSON.stringify({
					type: 'https://errors.deckgen.example/insufficient_credits',
					code: 'insufficient_credits',
					title: 'Payment required',
					detail: 'A new kind of offer.',
					retryable: false,
					requestId: 'req_future',
					cta: 'gift_card',
					options: [{ cta: 'gift_card', kind: 'checkout', label: 'Redeem a gift card' }],
				}),
			);
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	});
	afterAll(async () => await new Promise((resolve) => server.close(resolve)));

	test('goes to Checkout with a generic link to the account (and to Unknown CTA when split)', async () => {
		const { runWorkflow } = await import('../../harness');
		const credentials = { deckGenApi: { apiKey: 'dg_future_key_abcdef', baseUrl: url, accountUrl: 'https://app.example/account' } };
		const result = await runWorkflow(loadWorkflow('create'), { credentials, inputItems: [{ json: brief() }] });
		expect(jsonOf(result.output('Checkout'))[0]).toMatchObject({
			outcome: 'checkout',
			cta: 'gift_card',
			accountUrl: 'https://app.example/account',
		});
		const split = await runWorkflow(loadWorkflow('create-split'), { credentials, inputItems: [{ json: brief() }] });
		expect(jsonOf(split.output('Unknown CTA'))[0]).toMatchObject({ cta: 'gift_card' });
	});
});

describe('as an AI tool', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await start({ seed: 13, clock: { manual: true } });
	});
	afterAll(async () => await sim.close());

	test('every outcome goes to output 0, where the model reads it, with the outcome in words', async () => {
		const { deckGenTool } = await import('../tool/tool');
		// n8n runs a node used as a tool under the type name `<type>Tool`.
		const workflow = loadWorkflow('create');
		const deck = workflow.nodes.find((n) => n.name === DECK_NODE)!;
		deck.type = 'n8n-nodes-deckgen.deckGenTool';
		// connected to no review: allowed to buy on its own, or it would buy nothing (issue 38)
		deck.parameters = { ...deck.parameters, buyWithoutReview: true, creditLimitPerExecution: 100 };
		const result = await runWith(sim, workflow, sim.keys.broke, [brief()], {
			nodeTypes: { 'n8n-nodes-deckgen.deckGenTool': deckGenTool },
		});
		const [first, checkout, clientAction] = result.outputs(DECK_NODE);
		expect(checkout ?? []).toEqual([]);
		expect(clientAction ?? []).toEqual([]);
		expect(first[0].json).toMatchObject({ outcome: 'checkout', cta: 'top_up' });
		expect(String(first[0].json.message)).toMatch(/Buy credits/);
	});
});
