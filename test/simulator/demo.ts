// The demo keys every simulator starts with. Secrets derive from the seed; look them up by name.
import type { Accounts } from './accounts';
import type { DemoKeyName, DemoKeys } from './types';

export const DEMO_KEY_DESCRIPTIONS: Record<DemoKeyName, string> = {
	personal: 'personal key: enrolled, has bought credits, subscriber, balance 1000 — the happy path',
	org: 'organisation key: spends the pooled wallet (5000, subscriber); decks belong to the organisation',
	freePlan: 'bought credits once, not a subscriber, balance 5 — 402 unlock_or_subscribe, upgrade_for_slides, subscribe_for_translation',
	narrow: 'personal account, scopes ["decks:read"] only — 403 insufficient_scope on spend and on /v1/credits',
	unrecognized: 'personal account, scopes ["decks.write","*"] — no token parses: 403 unrecognized_scope',
	notEnrolled: 'account not switched on yet — 403 not_enrolled on everything',
	neverPurchased: 'never bought credits (30 free preview credits) — reads work, first spend 402 api_free_tier_unavailable',
	capped: 'owner-set monthly cap 100 already spent — 402 monthly_credit_cap_reached',
	revoked: 'revoked key of the personal account — 401',
	orgSpendOff: 'organisation that switched off organisation-key spend — 402 org_spend_disabled',
	orgNeedsSubscription: 'organisation that requires a subscription and has none — 402 org_subscription_required',
	orgKeyCapped: 'key of the main organisation whose console per-key cap (50) is spent — 402 org_key_cap_reached',
	broke: 'subscriber with balance 0 — 402 top_up (and the video paywall)',
	other: 'another personal account (balance 1000, subscriber) — its decks are 404 to everyone else',
};

/** Creates the demo principals and keys, always in this order, so the same seed gives the same secrets. */
export function createDemoKeys(accounts: Accounts): DemoKeys {
	const personal = accounts.create({ balance: 1000, subscriber: true });
	const org = accounts.create({ type: 'organisation', balance: 5000, subscriber: true });
	const keys: DemoKeys = {
		personal: personal.key,
		org: org.key,
		freePlan: accounts.create({ balance: 5, subscriber: false }).key,
		narrow: accounts.create({ principalId: personal.principalId, scopes: ['decks:read'] }).key,
		unrecognized: accounts.create({ principalId: personal.principalId, scopes: ['decks.write', '*'] }).key,
		notEnrolled: accounts.create({ enrolled: false }).key,
		neverPurchased: accounts.create({ purchased: false, subscriber: false, balance: 30 }).key,
		capped: accounts.create({ monthlyCap: 100, monthlySpent: 100 }).key,
		revoked: accounts.create({ principalId: personal.principalId, revoked: true }).key,
		orgSpendOff: accounts.create({ type: 'organisation', balance: 5000, org: { spendEnabled: false } }).key,
		orgNeedsSubscription: accounts.create({ type: 'organisation', balance: 5000, subscriber: false, org: { requiresSubscription: true } }).key,
		orgKeyCapped: accounts.create({ principalId: org.principalId, org: { keyCap: 50, keySpent: 50 } }).key,
		broke: accounts.create({ balance: 0, subscriber: true }).key,
		other: accounts.create({ balance: 1000, subscriber: true }).key,
	};
	return keys;
}
