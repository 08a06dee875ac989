/**
 * Both readings of the contract's gaps that decide where an item goes, flipped one at a time on
 * the simulator (test/simulator/profile.ts): where a 402 names its cta (issue 8, point 2) and
 * how a replayed purchase is marked (point 3).
 */
import type { DemoKeyName } from '../../simulator';
import { start, type ProfileChoices, type Simulator } from '../../simulator';
import { brief, continueErrorOutput, jsonOf, loadWorkflow, runWith } from './fixture';

type Placement = ProfileChoices['paymentCta'];

/** The 402 reasons of the contract's code table (the org-level ones with the simulator's reason names). */
const REASONS: Array<{ reason: string; key: DemoKeyName; cta: string; grouped: 'Checkout' | 'Client Action'; split: string }> = [
	{ reason: 'api_free_tier_unavailable', key: 'neverPurchased', cta: 'top_up', grouped: 'Checkout', split: 'Top Up' },
	{ reason: 'monthly_credit_cap_reached', key: 'capped', cta: 'manage_decks', grouped: 'Client Action', split: 'Manage Decks' },
	{ reason: 'org_spend_disabled', key: 'orgSpendOff', cta: 'manage_decks', grouped: 'Client Action', split: 'Manage Decks' },
	{ reason: 'org_subscription_required', key: 'orgNeedsSubscription', cta: 'unlock_or_subscribe', grouped: 'Checkout', split: 'Unlock or Subscribe' },
	{ reason: 'org_key_cap_reached', key: 'orgKeyCapped', cta: 'manage_decks', grouped: 'Client Action', split: 'Manage Decks' },
];

describe.each<Placement>(['top-level', 'options-only', 'options-strings', 'none'])('402 with the cta %s', (paymentCta) => {
	let sim: Simulator;
	beforeAll(async () => {
		// The org-spend refusal stays a 402 here (profile B makes it a 403, which is an error, not a route).
		sim = await start({ seed: 41, clock: { manual: true }, choices: { paymentCta, orgSpendDisabledStatus: 402 } });
	});
	afterAll(async () => await sim.close());

	describe.each(REASONS)('$reason', ({ reason, key, cta, grouped, split }) => {
		// Only a 402 with no cta anywhere is the video paywall's form: top_up, inferred.
		const routed = paymentCta === 'none' ? { cta: 'top_up', grouped: 'Checkout', split: 'Top Up' } : { cta, grouped, split };

		test(`grouped: ${paymentCta === 'none' ? 'Checkout as top_up (inferred)' : `${grouped} as ${cta}`}`, async () => {
			const result = await runWith(sim, continueErrorOutput(loadWorkflow('create')), sim.keys[key], [brief()]);
			const [item] = jsonOf(result.output(routed.grouped));
			expect(item).toMatchObject({ code: 'insufficient_credits', reason, cta: routed.cta });
			expect(item.ctaInferred).toBe(paymentCta === 'none' ? true : undefined);
			if (reason === 'monthly_credit_cap_reached') {
				// Not "buy credits": the contract's own fix, whatever the cta said.
				expect(item.message).toMatch(/raise the key's cap.*another credential.*resetAt/);
				expect(item.message).not.toMatch(/buy credits/i);
				expect(item).toMatchObject({ monthlyCreditCap: 100, monthlyCreditsSpent: 100, resetAt: expect.any(String) });
			}
			if (reason === 'api_free_tier_unavailable') expect(item.message).toMatch(/buy credits once/i);
		});

		test(`split: on "${routed.split}"`, async () => {
			const result = await runWith(sim, continueErrorOutput(loadWorkflow('create-split')), sim.keys[key], [brief()]);
			const [item] = jsonOf(result.output(routed.split));
			expect(item).toMatchObject({ reason, cta: routed.cta });
		});
	});
});

describe.each(['Idempotency-Replayed', 'Idempotent-Replayed', 'X-Idempotency-Replayed', 'X-Idempotent-Replayed'])(
	'a replayed purchase marked by %s',
	(replayHeader) => {
		let sim: Simulator;
		beforeAll(async () => {
			sim = await start({ seed: 42, clock: { manual: true }, choices: { replayHeader } });
		});
		afterAll(async () => await sim.close());

		test('reaches Success with replayed: true, charged once', async () => {
			const { key, principalId } = sim.control.createAccount({ balance: 100, subscriber: true });
			const delivery = { delivery_id: `delivery-${replayHeader}` };
			const first = await runWith(sim, loadWorkflow('create'), key, [brief(delivery)]);
			const again = await runWith(sim, loadWorkflow('create'), key, [brief(delivery)]);
			const [bought] = jsonOf(first.output('Success'));
			const [replayed] = jsonOf(again.output('Success'));
			expect(bought).toMatchObject({ charge: 'charged', replayed: false });
			expect(replayed).toMatchObject({ taskId: bought.taskId, replayed: true });
			expect(sim.ledger.charges.filter((c) => c.principalId === principalId)).toHaveLength(1);
		});
	},
);
