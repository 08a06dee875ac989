// Every 402 (contract "402 option kinds", the 402 rows of the code table, the slide cap, translation,
// revisions, the video paywall, monthly caps and organisation switches).
import { start, type Simulator } from '../simulator';
import { CTAS, deckBody, expect402, get, post, withoutRequestId, type Res } from './helpers';

let sim: Simulator;

beforeAll(async () => {
	sim = await start({ seed: 31, clock: { manual: true }, unshipped: [] });
});
afterAll(() => sim.close());

/** Which of the nine the 402s of this file showed: the paywall counts as `insufficient_credits` (its code). */
const seen = new Set<string>();

function pay(res: Res, reason: string, cta: string | undefined): any {
	const body = expect402(res, reason, cta);
	seen.add(body.cta ?? body.code);
	return body;
}

/** A completed deck owned by key, made without a charge. */
function readyDeck(key: string): string {
	return sim.control.seedDeck({ key, durationMs: 0 });
}

describe('balance short (C-402-unlock_or_subscribe, C-402-top_up, S-5)', () => {
	it('a non-subscriber: cta unlock_or_subscribe; options unlock this deck, then subscribe (both checkout)', async () => {
		const body = pay(await post(sim, '/v1/decks', deckBody(), { key: sim.keys.freePlan }), 'insufficient_balance', 'unlock_or_subscribe');
		expect(body.options.map((o: { cta: string; kind: string }) => [o.cta, o.kind])).toEqual([
			['unlock_or_subscribe', 'checkout'],
			['unlock_or_subscribe', 'checkout'],
		]);
		expect(body.options[0]).toMatchObject({ credits: 10, url: expect.stringMatching(/^https:\/\//) });
		expect(body).toMatchObject({ credits: 10, balance: 5 });
	});

	it('a subscriber: cta top_up; options carry the amounts in order', async () => {
		const body = pay(await post(sim, '/v1/decks', deckBody(), { key: sim.keys.broke }), 'insufficient_balance', 'top_up');
		expect(body.options.map((o: { credits: number }) => o.credits)).toEqual([100, 500, 1000]);
		for (const o of body.options) expect(o).toMatchObject({ cta: 'top_up', kind: 'checkout', amount: expect.any(Number), currency: 'EUR', url: expect.any(String) });
	});

	it('repeating a 402 changes nothing: same answer, nothing charged, balance untouched (C-402-always)', async () => {
		const charges = sim.ledger.charges.length;
		const a = await post(sim, '/v1/decks', deckBody(), { key: sim.keys.broke });
		const b = await post(sim, '/v1/decks', deckBody(), { key: sim.keys.broke });
		expect(withoutRequestId(b.json)).toEqual(withoutRequestId(a.json));
		expect(a.json.requestId).not.toBe(b.json.requestId);
		expect(sim.ledger.charges.length).toBe(charges);
		expect(sim.control.balanceOf(sim.keys.broke)).toBe(0);
	});

	it('after buying credits, the same key succeeds (the refusal wrote nothing)', async () => {
		const { key } = sim.control.createAccount({ balance: 0 });
		const idem = 'after-top-up';
		pay(await post(sim, '/v1/decks', deckBody(), { key, idem }), 'insufficient_balance', 'top_up');
		sim.control.setBalance(key, 50);
		const res = await post(sim, '/v1/decks', deckBody(), { key, idem });
		expect(res.status).toBe(202);
		expect(sim.control.balanceOf(key)).toBe(40);
	});
});

describe('too many decks in progress (C-402-manage_decks)', () => {
	it('the sixth deck in progress answers 402 manage_decks (client action); when one finishes, it works', async () => {
		const { key } = sim.control.createAccount({ balance: 1000 });
		for (let i = 0; i < 5; i++) expect((await post(sim, '/v1/decks', deckBody(), { key })).status).toBe(202);
		const body = pay(await post(sim, '/v1/decks', deckBody(), { key }), 'too_many_decks_in_progress', 'manage_decks');
		expect(body).toMatchObject({ decksInProgress: 5, maxConcurrentDecks: 5 });
		expect(body.options[0]).toMatchObject({ cta: 'manage_decks', kind: 'client_action' });
		expect(sim.control.balanceOf(key)).toBe(950);
		sim.control.advance(36 * 60_000);
		expect((await post(sim, '/v1/decks', deckBody(), { key })).status).toBe(202);
	});
});

describe('free slide cap (C-402-upgrade_for_slides, C-402-confirm_slide_surcharge, L-free-slide-cap, R-body-2, R-body-3)', () => {
	it('a non-subscriber above the cap: upgrade_for_slides, with an upgrade and a "send fewer" option', async () => {
		const { key } = sim.control.createAccount({ subscriber: false, balance: 500 });
		const body = pay(await post(sim, '/v1/decks', deckBody({ slide_count: 16 }), { key }), 'slide_cap', 'upgrade_for_slides');
		expect(body).toMatchObject({ slideCount: 16, freeSlideCap: 15 });
		expect(body.options.map((o: { kind: string }) => o.kind)).toEqual(['checkout', 'client_action']);
		// Confirming does not buy a non-subscriber past the cap (decision: the surcharge is for subscribers).
		pay(await post(sim, '/v1/decks', deckBody({ slide_count: 16, confirm_slide_surcharge: true, expected_credits: 12 }), { key }), 'slide_cap', 'upgrade_for_slides');
		expect((await post(sim, '/v1/decks', deckBody({ slide_count: 15 }), { key })).status).toBe(202);
	});

	it('a subscriber above the cap without confirmation: confirm_slide_surcharge quoting the surcharged price', async () => {
		const body = pay(await post(sim, '/v1/decks', deckBody({ slide_count: 20 })), 'slide_surcharge_unconfirmed', 'confirm_slide_surcharge');
		expect(body).toMatchObject({ credits: 20, surchargeCredits: 10, slideCount: 20, freeSlideCap: 15 });
		expect(body.options[0]).toMatchObject({ cta: 'confirm_slide_surcharge', kind: 'client_action', credits: 20 });
	});

	it('re-sent with confirm_slide_surcharge: true and the quoted price, it is created and charged that price', async () => {
		const res = await post(sim, '/v1/decks', deckBody({ slide_count: 20, confirm_slide_surcharge: true, expected_credits: 20 }));
		expect(res.status).toBe(202);
		expect(res.json.creditsCharged).toBe(20);
	});

	it('confirmed but with the old price: 409 price_drift with the surcharged number', async () => {
		const res = await post(sim, '/v1/decks', deckBody({ slide_count: 20, confirm_slide_surcharge: true, expected_credits: 10 }));
		expect(res.status).toBe(409);
		expect(res.json).toMatchObject({ code: 'price_drift', credits: 20, expectedCredits: 10 });
	});

	it('the cap follows limits.freeSlideCap', async () => {
		sim.control.setLimits({ freeSlideCap: 5 });
		try {
			pay(await post(sim, '/v1/decks', deckBody({ slide_count: 6 })), 'slide_surcharge_unconfirmed', 'confirm_slide_surcharge');
		} finally {
			sim.control.setLimits({ freeSlideCap: 15 });
		}
	});
});

describe('translation (C-402-subscribe_for_translation, C-402-translation_top_up, S-6)', () => {
	it('a non-subscriber asking for additional languages at creation: subscribe_for_translation', async () => {
		const { key } = sim.control.createAccount({ subscriber: false, balance: 500 });
		const body = pay(await post(sim, '/v1/decks', deckBody({ additional_languages: ['de'], expected_credits: 15 }), { key }), 'translation_requires_subscription', 'subscribe_for_translation');
		expect(body.options[0]).toMatchObject({ cta: 'subscribe_for_translation', kind: 'checkout' });
	});

	it('a non-subscriber translating a deck: subscribe_for_translation, whatever the balance', async () => {
		const { key } = sim.control.createAccount({ subscriber: false, balance: 500 });
		const deck = readyDeck(key);
		pay(await post(sim, `/v1/decks/${deck}/translations`, { languages: ['de'], expected_credits: 5 }, { key }), 'translation_requires_subscription', 'subscribe_for_translation');
	});

	it('a subscriber who cannot cover the copies at creation: translation_top_up (checkout, and "fewer languages")', async () => {
		const { key } = sim.control.createAccount({ balance: 12 });
		const body = pay(await post(sim, '/v1/decks', deckBody({ additional_languages: ['de', 'fr'], expected_credits: 20 }), { key }), 'insufficient_balance', 'translation_top_up');
		expect(body.options[0]).toMatchObject({ cta: 'translation_top_up', kind: 'checkout' });
		expect(body.options.at(-1)).toMatchObject({ cta: 'translation_top_up', kind: 'client_action' });
		expect(body).toMatchObject({ credits: 20, balance: 12 });
	});

	it('a subscriber who cannot cover a translation: translation_top_up; with credits it is 202 at 5 per language', async () => {
		const { key } = sim.control.createAccount({ balance: 9 });
		const deck = readyDeck(key);
		pay(await post(sim, `/v1/decks/${deck}/translations`, { languages: ['de', 'fr'], expected_credits: 10 }, { key }), 'insufficient_balance', 'translation_top_up');
		sim.control.setBalance(key, 10);
		const res = await post(sim, `/v1/decks/${deck}/translations`, { languages: ['de', 'fr'], expected_credits: 10 }, { key });
		expect(res.status).toBe(202);
		expect(res.json).toMatchObject({ taskId: deck, creditsCharged: 10, languages: ['de', 'fr'] });
	});
});

describe('revisions (C-402-buy_revision, S-6)', () => {
	it('the first revision is included; the next costs 8; short of it, buy_revision', async () => {
		const { key } = sim.control.createAccount({ balance: 5 });
		const deck = readyDeck(key);
		const first = await post(sim, `/v1/decks/${deck}/revisions`, { instructions: 'Fewer words', expected_credits: 0 }, { key });
		expect(first.json).toMatchObject({ taskId: deck, version: 2, creditsCharged: 0 });
		sim.control.advance(36 * 60_000);
		const body = pay(await post(sim, `/v1/decks/${deck}/revisions`, { instructions: 'More charts', expected_credits: 8 }, { key }), 'insufficient_balance', 'buy_revision');
		expect(body.options[0]).toMatchObject({ cta: 'buy_revision', kind: 'checkout', credits: 8 });
		expect(body).toMatchObject({ credits: 8, balance: 5 });
	});
});

describe('the video paywall (C-402-insufficient_credits)', () => {
	it('identifies itself by code alone: insufficient_credits with options and no cta', async () => {
		const deck = readyDeck(sim.keys.broke);
		const body = pay(await post(sim, `/v1/decks/${deck}/video`, { expected_credits: 20 }, { key: sim.keys.broke }), 'video_paywall', undefined);
		expect(body.options[0]).toMatchObject({ kind: 'checkout', credits: 100 });
		expect(body).toMatchObject({ credits: 20, balance: 0 });
	});

	it('with credits the video is 202 at 20 credits', async () => {
		const deck = readyDeck(sim.keys.personal);
		const res = await post(sim, `/v1/decks/${deck}/video`, { expected_credits: 20 });
		expect(res.status).toBe(202);
		expect(res.json.creditsCharged).toBe(20);
	});
});

describe('account-level refusals (S-8, C-402-api_free_tier_unavailable, C-402-monthly_credit_cap_reached, C-402-org, R-key-4, L-monthly-cap)', () => {
	it('a never-purchased account: api_free_tier_unavailable even with free preview credits; reads work', async () => {
		const body = pay(await post(sim, '/v1/decks', deckBody(), { key: sim.keys.neverPurchased }), 'api_free_tier_unavailable', 'top_up');
		expect(body.options[0]).toMatchObject({ kind: 'checkout' });
		expect((await get(sim, '/v1/credits', { key: sim.keys.neverPurchased })).json.credits).toBe(30);
	});

	it('buying credits fixes it', async () => {
		const { key } = sim.control.createAccount({ purchased: false });
		pay(await post(sim, '/v1/decks', deckBody(), { key }), 'api_free_tier_unavailable', 'top_up');
		sim.control.updateAccount(key, { purchased: true });
		expect((await post(sim, '/v1/decks', deckBody(), { key })).status).toBe(202);
	});

	it('a key at its monthly cap: monthly_credit_cap_reached with monthlyCreditCap, monthlyCreditsSpent, resetAt', async () => {
		const body = pay(await post(sim, '/v1/decks', deckBody(), { key: sim.keys.capped }), 'monthly_credit_cap_reached', 'manage_decks');
		const now = new Date(sim.control.now());
		const nextMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString();
		expect(body).toMatchObject({ monthlyCreditCap: 100, monthlyCreditsSpent: 100, resetAt: nextMonth });
	});

	it('an organisation that switched off organisation-key spend: 402 org_spend_disabled (decision: 402, not 403)', async () => {
		const body = pay(await post(sim, '/v1/decks', deckBody(), { key: sim.keys.orgSpendOff }), 'org_spend_disabled', 'manage_decks');
		expect(body.options[0]).toMatchObject({ kind: 'client_action' });
		expect((await get(sim, '/v1/credits', { key: sim.keys.orgSpendOff })).status).toBe(200);
	});

	it('an organisation that requires a subscription: 402 org_subscription_required', async () => {
		const body = pay(await post(sim, '/v1/decks', deckBody(), { key: sim.keys.orgNeedsSubscription }), 'org_subscription_required', 'unlock_or_subscribe');
		expect(body.options[0]).toMatchObject({ kind: 'checkout' });
	});

	it('a key over its per-key cap from the organisation console: 402 org_key_cap_reached', async () => {
		const body = pay(await post(sim, '/v1/decks', deckBody(), { key: sim.keys.orgKeyCapped }), 'org_key_cap_reached', 'manage_decks');
		expect(body).toMatchObject({ monthlyCreditCap: 50, monthlyCreditsSpent: 50 });
		// The pooled wallet is fine: another key of the same organisation spends.
		expect((await post(sim, '/v1/decks', deckBody(), { key: sim.keys.org })).status).toBe(202);
	});

	it('organisation refusals cover every spending operation, not only creation', async () => {
		sim.control.updateAccount(sim.keys.org, { spendEnabled: false });
		try {
			const deck = readyDeck(sim.keys.org);
			pay(await post(sim, `/v1/decks/${deck}/revisions`, { instructions: 'x', expected_credits: 0 }, { key: sim.keys.org }), 'org_spend_disabled', 'manage_decks');
			pay(await post(sim, `/v1/decks/${deck}/video`, { expected_credits: 20 }, { key: sim.keys.org }), 'org_spend_disabled', 'manage_decks');
		} finally {
			sim.control.updateAccount(sim.keys.org, { spendEnabled: true });
		}
	});

	// Last in this block: it moves the clock into the next month, which resets every monthly counter.
	it('a call that would cross the cap is refused; after resetAt the key spends again', async () => {
		const { key } = sim.control.createAccount({ monthlyCap: 25, monthlySpent: 20 });
		const body = pay(await post(sim, '/v1/decks', deckBody(), { key }), 'monthly_credit_cap_reached', 'manage_decks');
		sim.control.advance(Date.parse(body.resetAt) - sim.control.now());
		expect((await post(sim, '/v1/decks', deckBody(), { key })).status).toBe(202);
		expect((await get(sim, '/v1/credits', { key })).json).toMatchObject({ monthlyCreditCap: 25, monthlyCreditsSpent: 10 });
	});
});

describe('the cta set is closed (C-402-complete-set)', () => {
	it('all nine ctas were given above, and nothing outside them', () => {
		expect([...seen].sort()).toEqual([...CTAS].sort());
	});
});
