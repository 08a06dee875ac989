/**
 * Create's "Brief From: Input Item" (issue 22): the brief is one object on the input item (a
 * webhook's body), read with no expression. It sends the members the API knows (either spelling),
 * never the price or the surcharge confirmation from the item, never other members; anything that
 * would buy a different deck than asked for stops the item before a request is sent.
 */
import { Expression } from 'n8n-workflow';

import { canonicalJson, sha256Hex } from '../../../nodes/shared/idempotency';
import { connections, node, type WorkflowJson } from '../../harness';
import { start, type Simulator } from '../../simulator';
import { continueErrorOutput, DECK_NODE, jsonOf, runWith } from './fixture';

const OUTPUTS = ['Success', 'Checkout', 'Client Action', 'Errors'];

/** Webhook-shaped item → Create (Brief From: Input Item) → Success / Errors. */
function createFromInput(parameters: Record<string, unknown> = {}): WorkflowJson {
	return continueErrorOutput({
		nodes: [
			node('Start', 'n8n-nodes-base.manualTrigger'),
			{
				...node(DECK_NODE, 'n8n-nodes-deckgen.deckGen', {
					resource: 'deck',
					operation: 'create',
					briefFrom: 'input',
					briefField: 'body',
					expectedCredits: 10,
					options: { maxRetryWaitSeconds: 1 },
					...parameters,
				} as never),
				typeVersion: 1.1,
			},
			...OUTPUTS.map((name) => node(name, 'n8n-nodes-base.noOp')),
		],
		connections: connections([['Start', DECK_NODE], ...OUTPUTS.map((name, index) => [DECK_NODE, name, index] as [string, string, number])]),
		settings: { executionOrder: 'v1' },
	});
}

const webhookItem = (body: unknown) => ({ headers: { 'x-delivery-id': `dlv-${Math.random()}` }, params: {}, query: {}, body });
const sentAs = (body: Record<string, unknown>) => sha256Hex(Buffer.from(canonicalJson(body)));

describe('Create: Brief From Input Item', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await start({ seed: 22, clock: { manual: true }, limits: { maxConcurrentDecks: 1000 }, choices: { requiredCreateFields: 'title-or-core-message' } });
		sim.control.setPrice({ create: 10 });
	});
	afterAll(async () => await sim.close());

	const deckPosts = (from: number) => sim.ledger.requests.slice(from).filter((r) => r.method === 'POST' && r.path === '/v1/decks');

	test('sends the body’s brief under the API’s names, typed; not the price, the surcharge or other members; no expression runs', async () => {
		const { key, principalId } = sim.control.createAccount({ balance: 500, subscriber: true });
		const before = sim.ledger.requests.length;
		const rendered: string[] = [];
		const proto = Expression.prototype as unknown as { renderExpression: (this: unknown, expression: string, data: unknown) => unknown };
		const render = proto.renderExpression;
		proto.renderExpression = function (expression, data) {
			if (!String(expression).includes('$nodeVersion')) rendered.push(String(expression));
			return render.call(this, expression, data);
		};
		let result;
		try {
			result = await runWith(sim, createFromInput(), key, [
				webhookItem({
					title: ' Q3 review ',
					coreMessage: 'We grew',
					audience: 'The board',
					slideCount: '12',
					deckClass: 'board',
					outputLanguage: 'de',
					expected_credits: 9999,
					confirm_slide_surcharge: true,
					deliveryId: 'd-1',
					requestedBy: 'ana@example.com',
				}),
			]);
		} finally {
			proto.renderExpression = render;
		}
		expect(result.outputs(DECK_NODE).map(jsonOf).flat().map((j) => j.error ?? j.outcome)).toEqual(['success']);
		expect(jsonOf(result.output('Success'))).toEqual([expect.objectContaining({ outcome: 'success', taskId: expect.any(String) })]);
		expect(deckPosts(before).map((post) => post.bodySha256)).toEqual([
			sentAs({
				expected_credits: 10,
				title: 'Q3 review',
				core_message: 'We grew',
				audience: 'The board',
				slide_count: 12,
				deck_class: 'board',
				output_language: 'de',
			}),
		]);
		expect(sim.ledger.charges.filter((c) => c.principalId === principalId).map((c) => c.credits)).toEqual([10]);
		expect(rendered).toEqual([]);
	});

	test('an empty Input Field With Brief reads the item itself', async () => {
		const { key } = sim.control.createAccount({ balance: 500, subscriber: true });
		const before = sim.ledger.requests.length;
		const result = await runWith(sim, createFromInput({ briefField: '' }), key, [{ title: 'Hiring plan', core_message: 'Two teams' }]);
		expect(jsonOf(result.output('Success'))).toHaveLength(1);
		expect(deckPosts(before).map((post) => post.bodySha256)).toEqual([sentAs({ expected_credits: 10, title: 'Hiring plan', core_message: 'Two teams' })]);
	});

	const refused: Array<[string, unknown, RegExp, RegExp]> = [
		['no body on the item', undefined, /^The input item has no brief object at \$json\.body \(got nothing\); nothing was sent$/, /Input Field With Brief/],
		['a body with none of the brief’s fields', { name: 'Q3', text: 'x' }, /^The object at \$json\.body has none of the brief's fields \(it has name, text\); nothing was sent$/, /Brief From/],
		['both spellings, different values', { title: 'Q3', core_message: 'a', coreMessage: 'b' }, /gives core_message and coreMessage with different values/, /core_message is the API's name, coreMessage the form's/],
		['a slide count that is not a whole number', { title: 'Q3', slideCount: '12.5' }, /^\$json\.body\.slideCount must be a whole number of 0 or more, got "12\.5"; nothing was sent$/, /number of slides/],
		['a list set but empty', { title: 'Q3', materialIds: [] }, /^\$json\.body\.materialIds must be a list without empty entries, got \[\]; nothing was sent$/, /without part of its materialIds/],
		['a list with an empty entry', { title: 'Q3', additional_languages: ['fr', ''] }, /^\$json\.body\.additional_languages must be a list without empty entries/, /Leave the member out/],
		['a title that is an object', { title: { text: 'Q3' } }, /^\$json\.body\.title must be text/, /as a string/],
	];
	test.each(refused)('%s stops the item, naming where and the fix; nothing reaches the service', async (_name, body, message, description) => {
		const { key } = sim.control.createAccount({ balance: 500, subscriber: true });
		const before = sim.ledger.requests.length;
		const result = await runWith(sim, createFromInput(), key, [webhookItem(body)]);
		const [error] = jsonOf(result.output('Errors'));
		expect((error.error as { message: string }).message).toMatch(message);
		expect(JSON.stringify(error)).toMatch(description);
		expect(deckPosts(before)).toEqual([]);
	});

	test('a 422 names the member as the item gave it, under the brief’s path', async () => {
		const strict = await start({ seed: 23, clock: { manual: true }, choices: { requiredCreateFields: ['title', 'core_message'] } });
		try {
			const { key } = strict.control.createAccount({ balance: 500, subscriber: true });
			const result = await runWith(strict, createFromInput(), key, [webhookItem({ title: 'Q3 review' })]);
			const [error] = jsonOf(result.output('Errors'));
			expect(JSON.stringify(error)).toContain('$json.body.core_message');
		} finally {
			await strict.close();
		}
	});
});
