/**
 * Issue 49.7: what a person sees when the key reaches the monthly credit cap the README tells every user to
 * set: the webhook example's request is refused by the service (402 monthly_credit_cap_reached), nothing
 * charged, and the refusal comes out on Client Action with the contract's fix in `message`, which the
 * example posts to #finance.
 */
import { start, type Simulator } from '../../simulator';
import { loadExample, runExample, webhookItem } from '../run-example';

describe('a key at its monthly credit cap (issue 49.7)', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await start({ seed: 497, clock: { manual: true } });
	});
	afterAll(async () => await sim.close());

	test('the webhook example: refused on Client Action with the cap and its fix, #finance told, nothing charged', async () => {
		const before = sim.ledger.charges.length;
		const request = webhookItem({
			path: 'deck-request',
			headers: { 'content-type': 'application/json', 'x-webhook-token': 'secret', 'x-delivery-id': 'cap-1' },
			body: { title: 'Launch plan', coreMessage: 'Why it wins', audience: 'Sales', slideCount: 8, requesterEmail: 'you@example.com' },
		});
		const run = await runExample(sim, loadExample('webhook-to-slack.json'), { start: 'Deck request', inputItems: [request], key: sim.keys.capped });
		expect(sim.ledger.charges.length).toBe(before);
		const [refused] = run.items('Create Deck', 2);
		expect(refused).toMatchObject({
			reason: 'monthly_credit_cap_reached',
			charge: 'none',
			monthlyCreditCap: 100,
			resetAt: expect.any(String),
			message: expect.stringMatching(/^This API key reached its monthly credit cap: raise the key's cap/),
		});
		expect([run.reached('Slack #finance: decision needed'), run.reached('Wait for Deck')]).toEqual([1, 0]);
	});
});
