/**
 * What a person fills in, and what a webhook or form brings: numbers and booleans arrive as text
 * ("14", "28", "true"). The fields whose type the contract states go out as their type; anything
 * that is not one stops the item before a request is sent; the others go out exactly as given.
 * Also: Slide Count and Max Credits on the form (workflows saved before still work), buying at the
 * live price with Expected Credits 0 plus Max Credits, and Upload's Idempotency Key.
 */
import { canonicalJson, sha256Hex } from '../../../nodes/shared/idempotency';
import { connections, node, type WorkflowJson } from '../../harness';
import { start, type Simulator } from '../../simulator';
import { servedPath } from '../credential';
import { continueErrorOutput, DECK_NODE, jsonOf, runWith } from './fixture';

const OUTPUTS = ['Success', 'Checkout', 'Client Action', 'Errors'];

/** Start → Deck Generator (the given parameters) → one noOp per output. */
function deckWorkflow(parameters: Record<string, unknown>): WorkflowJson {
	return {
		nodes: [
			node('Start', 'n8n-nodes-base.manualTrigger'),
			node(DECK_NODE, 'n8n-nodes-deckgen.deckGen', parameters as never),
			...OUTPUTS.map((name) => node(name, 'n8n-nodes-base.noOp')),
		],
		connections: connections([['Start', DECK_NODE], ...OUTPUTS.map((name, index) => [DECK_NODE, name, index] as [string, string, number])]),
		settings: { executionOrder: 'v1' },
	};
}

/** Create with every typed field taken from a webhook item's body, as a person would wire it. */
const createFromWebhook = (extra: Record<string, unknown> = {}) =>
	deckWorkflow({
		resource: 'deck',
		operation: 'create',
		expectedCredits: '={{ $json.body.expected_credits }}',
		maxCredits: '={{ $json.body.max_credits }}',
		title: '={{ $json.body.title }}',
		slideCount: '={{ $json.body.slide_count }}',
		confirmSlideSurcharge: '={{ $json.body.confirm_slide_surcharge }}',
		additionalFields: { deckClass: '={{ $json.body.deck_class }}', notes: '={{ $json.body.notes }}' },
		options: { maxRetryWaitSeconds: 1 },
		...extra,
	});

/** An item as n8n's Webhook node emits it: every value of a form post is text. */
const webhookItem = (body: Record<string, string>) => ({
	headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-delivery-id': `dlv-${Math.random()}` },
	params: {},
	query: {},
	body: { title: 'Q3 review', ...body },
});

/** The sha256 of the body the node must have sent: the simulator's ledger keeps only that. */
const sentAs = (body: Record<string, unknown>) => sha256Hex(Buffer.from(canonicalJson(body)));

describe('Typed fields from expressions, and the Create form', () => {
	let sim: Simulator;
	beforeAll(async () => {
		// These tests pin the exact bodies the form produces, so the service must accept a body without
		// audience or slide_count: every other choice of the profile under test still applies.
		sim = await start({
			seed: 8,
			clock: { manual: true },
			limits: { maxConcurrentDecks: 1000 },
			choices: { requiredCreateFields: 'title-or-core-message' },
		});
		sim.control.setPrice({ create: 28 });
	});
	afterAll(async () => await sim.close());

	const deckPosts = (from: number) => sim.ledger.requests.slice(from).filter((r) => r.method === 'POST');

	test('a webhook brief carrying "14", "28" and "true" is sent as 14, 28 and true; open fields go as given', async () => {
		const { key, principalId } = sim.control.createAccount({ balance: 500, subscriber: true });
		const before = sim.ledger.requests.length;
		const result = await runWith(sim, createFromWebhook(), key, [
			webhookItem({ slide_count: '14', expected_credits: '28', confirm_slide_surcharge: 'true', deck_class: '28', notes: '14' }),
		]);
		expect(result.status).toBe('success');
		const [item] = jsonOf(result.output('Success'));
		expect(item).toMatchObject({ outcome: 'success', taskId: expect.any(String) });
		const [posted] = deckPosts(before);
		expect(posted).toMatchObject({ path: '/v1/decks', status: sim.profile.createStatus });
		// deck_class and notes: the contract leaves their type open, so the text stays text.
		expect(posted.bodySha256).toBe(
			sentAs({ expected_credits: 28, title: 'Q3 review', slide_count: 14, confirm_slide_surcharge: true, deck_class: '28', notes: '14' }),
		);
		expect(sim.ledger.charges.filter((c) => c.principalId === principalId).map((c) => c.credits)).toEqual([28]);
	});

	test('"false" leaves Confirm Slide Surcharge out, as an unticked box does', async () => {
		const { key } = sim.control.createAccount({ balance: 500, subscriber: true });
		const before = sim.ledger.requests.length;
		const result = await runWith(sim, createFromWebhook(), key, [
			webhookItem({ slide_count: '12', expected_credits: '28', confirm_slide_surcharge: 'false' }),
		]);
		expect(jsonOf(result.output('Success'))).toHaveLength(1);
		expect(deckPosts(before)[0].bodySha256).toBe(sentAs({ expected_credits: 28, title: 'Q3 review', slide_count: 12 }));
	});

	const invalid: Array<[string, Record<string, string>, RegExp]> = [
		['Slide Count "14.5"', { slide_count: '14.5' }, /^Slide Count must be a whole number of 0 or more, got "14\.5"$/],
		['Slide Count "abc"', { slide_count: 'abc' }, /^Slide Count must be a whole number of 0 or more, got "abc"$/],
		['Slide Count "-3"', { slide_count: '-3' }, /^Slide Count must be a whole number of 0 or more, got "-3"$/],
		['Expected Credits "abc"', { expected_credits: 'abc' }, /^Expected Credits must be a whole number of 0 or more, got "abc"$/],
		['Expected Credits "28.5"', { expected_credits: '28.5' }, /^Expected Credits must be a whole number/],
		['Expected Credits empty', { expected_credits: '' }, /^Expected Credits must be a whole number of 0 or more, got nothing$/],
		['Max Credits "lots"', { expected_credits: '28', max_credits: 'lots' }, /^Max Credits must be a whole number of 0 or more, got "lots"$/],
		['Confirm Slide Surcharge "yes"', { expected_credits: '28', confirm_slide_surcharge: 'yes' }, /^Confirm Slide Surcharge must be true or false, got "yes"$/],
	];
	test.each(invalid)('%s is refused by the node, naming the field; nothing reaches the service', async (_name, body, message) => {
		const { key } = sim.control.createAccount({ balance: 500, subscriber: true });
		const before = sim.ledger.requests.length;
		const result = await runWith(sim, continueErrorOutput(createFromWebhook()), key, [
			webhookItem({ expected_credits: '28', ...body }),
		]);
		const [error] = jsonOf(result.output('Errors'));
		expect((error.error as { message: string }).message).toMatch(message);
		expect(error.message).toMatch(/^Set ".+" to .+ Nothing was sent\.$/);
		expect(sim.ledger.requests.length - before).toBe(0);
	});

	test('a number below zero from an expression that returns a number is refused the same way', async () => {
		const { key } = sim.control.createAccount({ balance: 500 });
		const before = sim.ledger.requests.length;
		const workflow = continueErrorOutput(createFromWebhook({ slideCount: '={{ -3 }}', expectedCredits: 28 }));
		const result = await runWith(sim, workflow, key, [webhookItem({})]);
		const [error] = jsonOf(result.output('Errors'));
		expect((error.error as { message: string }).message).toBe('Slide Count must be a whole number of 0 or more, got -3');
		expect(sim.ledger.requests.length - before).toBe(0);
	});

	describe('Slide Count on the form; workflows saved with it under Additional Fields still work', () => {
		const formOnly = (slideCount: unknown, saved?: unknown) =>
			deckWorkflow({
				resource: 'deck',
				operation: 'create',
				expectedCredits: 28,
				title: 'Q3 review',
				...(slideCount === undefined ? {} : { slideCount }),
				...(saved === undefined ? {} : { additionalFields: { slideCount: saved } }),
			});
		const cases: Array<[string, unknown, unknown, number | undefined]> = [
			['on the form only', 12, undefined, 12],
			['saved under Additional Fields only (before it moved)', undefined, 13, 13],
			['in both places: the form wins', 14, 11, 14],
			['in neither: not sent', undefined, undefined, undefined],
		];
		test.each(cases)('%s', async (_name, onForm, saved, sent) => {
			const { key } = sim.control.createAccount({ balance: 500, subscriber: true });
			const before = sim.ledger.requests.length;
			const result = await runWith(sim, formOnly(onForm, saved), key, [{}]);
			expect(jsonOf(result.output('Success'))).toHaveLength(1);
			const body: Record<string, unknown> = { expected_credits: 28, title: 'Q3 review' };
			if (sent !== undefined) body.slide_count = sent;
			expect(deckPosts(before)[0].bodySha256).toBe(sentAs(body));
		});
	});

	describe('Expected Credits 0 plus Max Credits X buys at whatever the live price is, up to X', () => {
		test('the first answer is a free price_drift; the node re-sends once at the live price and is charged once', async () => {
			const { key, principalId } = sim.control.createAccount({ balance: 500, subscriber: true });
			const before = sim.ledger.requests.length;
			const result = await runWith(sim, createFromWebhook(), key, [webhookItem({ expected_credits: '0', max_credits: '30' })]);
			const [item] = jsonOf(result.output('Success'));
			expect(item).toMatchObject({ outcome: 'success', repricedFrom: 0, taskId: expect.any(String) });
			const posts = deckPosts(before);
			expect(posts.map((p) => p.status)).toEqual([409, sim.profile.createStatus]);
			expect(posts[1].bodySha256).toBe(sentAs({ expected_credits: 28, title: 'Q3 review' }));
			// the price is not the purchase (issue 49): the refused body wrote nothing, and the re-sent one goes under its key
			expect(posts[0].idempotencyKey).toBe(posts[1].idempotencyKey);
			expect(sim.ledger.charges.filter((c) => c.principalId === principalId).map((c) => c.credits)).toEqual([28]);
			expect(sim.control.balanceOf(key)).toBe(472);
		});

		test('a live price above X is not bought: Client Action with both prices, nothing charged', async () => {
			const { key, principalId } = sim.control.createAccount({ balance: 500, subscriber: true });
			const result = await runWith(sim, createFromWebhook(), key, [webhookItem({ expected_credits: '0', max_credits: '27' })]);
			expect(jsonOf(result.output('Client Action'))[0]).toMatchObject({ outcome: 'price_drift', credits: 28, expectedCredits: 0 });
			expect(sim.ledger.charges.filter((c) => c.principalId === principalId)).toEqual([]);
		});

		test('Max Credits saved under Options by an earlier version still re-sends; the form wins over it', async () => {
			const { key, principalId } = sim.control.createAccount({ balance: 500, subscriber: true });
			const saved = deckWorkflow({ resource: 'deck', operation: 'create', expectedCredits: 0, title: 'Q3 review', options: { maxCredits: 30 } });
			expect(jsonOf((await runWith(sim, saved, key, [{}])).output('Success'))[0]).toMatchObject({ repricedFrom: 0 });
			// another deck (the same one would be that purchase again, replayed whatever Max Credits says)
			const both = deckWorkflow({ resource: 'deck', operation: 'create', expectedCredits: 0, title: 'Q3 review, again', maxCredits: 20, options: { maxCredits: 30 } });
			expect(jsonOf((await runWith(sim, both, key, [{}])).output('Client Action'))[0]).toMatchObject({ outcome: 'price_drift' });
			expect(sim.ledger.charges.filter((c) => c.principalId === principalId).map((c) => c.credits)).toEqual([28]);
		});
	});

	describe('Every spending operation takes Expected Credits as text', () => {
		test('Revise, Translate and Custom Request send "0", "5" and "28" as numbers', async () => {
			const { key, principalId } = sim.control.createAccount({ balance: 500, subscriber: true });
			const taskId = sim.control.seedDeck({ key, durationMs: 0 });
			const revise = deckWorkflow({
				resource: 'deck',
				operation: 'revise',
				taskId,
				instructions: 'Shorter',
				expectedCredits: '={{ $json.body.price }}',
			});
			expect(jsonOf((await runWith(sim, revise, key, [webhookItem({ price: '0' })])).output('Success'))).toHaveLength(1);
			const translate = deckWorkflow({
				resource: 'deck',
				operation: 'translate',
				taskId,
				languages: 'de',
				expectedCredits: '={{ $json.body.price }}',
				maxCredits: '={{ $json.body.max }}',
			});
			sim.control.advance(60 * 60_000);
			expect(jsonOf((await runWith(sim, translate, key, [webhookItem({ price: '5', max: '6' })])).output('Success'))).toHaveLength(1);
			const custom = deckWorkflow({
				resource: 'custom',
				operation: 'request',
				method: 'POST',
				path: '/v1/decks',
				body: '={{ JSON.stringify({ title: "Custom", expected_credits: $json.body.price }) }}',
			});
			expect(jsonOf((await runWith(sim, custom, key, [webhookItem({ price: '28' })])).output('Success'))).toHaveLength(1);
			expect(sim.ledger.charges.filter((c) => c.principalId === principalId).map((c) => c.credits)).toEqual([5, 28]);
		});

		test.each([
			['revise', { instructions: 'Shorter' }, 'Expected Credits'],
			['translate', { languages: 'de' }, 'Expected Credits'],
			['generateVideo', {}, 'Expected Credits'],
		])('%s refuses "8.5" locally', async (operation, fields, label) => {
			const { key } = sim.control.createAccount({ balance: 500, subscriber: true });
			const before = sim.ledger.requests.length;
			const workflow = continueErrorOutput(
				deckWorkflow({ resource: 'deck', operation, taskId: 'tsk_x', expectedCredits: '={{ $json.body.price }}', ...fields }),
			);
			const [error] = jsonOf((await runWith(sim, workflow, key, [webhookItem({ price: '8.5' })])).output('Errors'));
			expect((error.error as { message: string }).message).toBe(`${label} must be a whole number of 0 or more, got "8.5"`);
			expect(sim.ledger.requests.length - before).toBe(0);
		});

		test('Custom Request refuses a body whose expected_credits is not a whole number', async () => {
			const before = sim.ledger.requests.length;
			const custom = continueErrorOutput(
				deckWorkflow({ resource: 'custom', operation: 'request', method: 'POST', path: '/v1/decks', body: '{"title": "x", "expected_credits": "abc"}' }),
			);
			const [error] = jsonOf((await runWith(sim, custom, sim.keys.personal, [{}])).output('Errors'));
			expect((error.error as { message: string }).message).toBe('Body → expected_credits must be a whole number of 0 or more, got "abc"');
			expect(sim.ledger.requests.length - before).toBe(0);
		});
	});
});

describe("Upload's Idempotency Key", () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await start({ seed: 9, clock: { manual: true } });
	});
	afterAll(async () => await sim.close());

	const PDF = Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
	const upload = deckWorkflow({
		resource: 'material',
		operation: 'upload',
		binaryPropertyName: 'data',
		options: { idempotencyKey: "={{ $json.headers['x-delivery-id'] }}" },
	});
	const delivery = (id: string) => ({
		json: { headers: { 'x-delivery-id': id } },
		binary: { data: { data: PDF.toString('base64'), mimeType: 'application/pdf', fileName: 'brief.pdf' } },
	});

	test('a redelivered upload with the same key is replayed by the service: one material', async () => {
		const { key } = sim.control.createAccount({ balance: 0 });
		const before = sim.ledger.requests.length;
		const first = jsonOf((await runWith(sim, upload, key, [delivery('dlv-upload-1')])).output('Success'))[0];
		// a new execution, as a redelivered webhook starts one
		const again = jsonOf((await runWith(sim, upload, key, [delivery('dlv-upload-1')])).output('Success'))[0];
		expect(first).toMatchObject({ idempotencyKey: 'dlv-upload-1', materialId: expect.any(String) });
		expect(again).toMatchObject({ idempotencyKey: 'dlv-upload-1', materialId: first.materialId, replayed: true });
		const posts = sim.ledger.requests.slice(before).filter((r) => r.path === servedPath(sim, 'materials'));
		const uploadStatus = sim.profile.materialResponse === 'plain' ? 200 : 201;
		expect(posts.map((p) => [p.idempotencyKey, p.status, p.replayed ?? false])).toEqual([
			['dlv-upload-1', uploadStatus, false],
			['dlv-upload-1', uploadStatus, true],
		]);
		// another delivery is another material
		const other = jsonOf((await runWith(sim, upload, key, [delivery('dlv-upload-2')])).output('Success'))[0];
		expect(other.materialId).not.toBe(first.materialId);
	});
});
