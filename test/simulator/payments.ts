// Every 402 the service can give, and the checks that decide on one before a charge.
// A 402 is always insufficient_credits, retryable false, with an ordered `options` array and (except the video
// paywall, which identifies itself by code alone) a single `cta` from the contract's nine.
import type { KeyRecord, Principal } from './accounts';
import { iso, startOfNextMonth } from './clock';
import { problem } from './problem';
import type { Reply } from './reply';

export type Cta =
	| 'unlock_or_subscribe'
	| 'top_up'
	| 'manage_decks'
	| 'upgrade_for_slides'
	| 'confirm_slide_surcharge'
	| 'subscribe_for_translation'
	| 'translation_top_up'
	| 'buy_revision'
	| 'insufficient_credits';

export interface PaymentOption {
	/** Absent only on the video paywall's options: it names no cta anywhere. */
	cta?: Cta;
	kind: 'checkout' | 'client_action';
	label: string;
	url?: string;
	/** Credits the option buys (checkout) or costs (unlock, confirm). */
	credits?: number;
	/** Money the option costs, in `currency`. */
	amount?: number;
	currency?: string;
}

const APP = 'https://app.deckgen.example';
const PACKS: Array<[number, number]> = [[100, 10], [500, 45], [1000, 80]];
const SUBSCRIPTION_EUR = 19;

function packs(cta: Cta): PaymentOption[] {
	return PACKS.map(([credits, amount]) => ({
		cta,
		kind: 'checkout' as const,
		label: `Buy ${credits} credits`,
		url: `${APP}/checkout/credits?pack=${credits}`,
		credits,
		amount,
		currency: 'EUR',
	}));
}

function subscribe(cta: Cta, label = 'Subscribe'): PaymentOption {
	return { cta, kind: 'checkout', label, url: `${APP}/checkout/subscription`, amount: SUBSCRIPTION_EUR, currency: 'EUR' };
}

export function paymentRequired(reason: string, cta: Cta | undefined, detail: string, options: PaymentOption[], extra: Record<string, unknown> = {}): Reply {
	return problem(402, 'insufficient_credits', {
		detail,
		retryable: false,
		reason,
		extra: { ...(cta ? { cta } : {}), options, ...extra },
	});
}

export type SpendOperation = 'create' | 'revision' | 'translation' | 'video';

/**
 * Refusals that depend on the account alone, whatever the price: free tier, organisation switches.
 * Organisation-key spend switched off answers 402 (reason org_spend_disabled), not 403: it is an org-level refusal of spend.
 */
export function accountRefusal(principal: Principal): Reply | undefined {
	if (!principal.purchased) {
		return paymentRequired(
			'api_free_tier_unavailable',
			'top_up',
			'The API does not draw on the free preview tier. Buy credits once to enable programmatic spend.',
			packs('top_up'),
		);
	}
	if (principal.type === 'organisation' && !principal.spendEnabled) {
		return paymentRequired(
			'org_spend_disabled',
			'manage_decks',
			'An organisation admin switched off spending with organisation keys. Nothing to buy: ask an admin to switch it on, or use another credential.',
			[{ cta: 'manage_decks', kind: 'client_action', label: 'Ask an organisation admin to allow organisation-key spend', url: `${APP}/org/settings/api` }],
		);
	}
	if (principal.type === 'organisation' && principal.requiresSubscription && !principal.subscriber) {
		return paymentRequired(
			'org_subscription_required',
			'unlock_or_subscribe',
			'This organisation requires a subscription before its keys can spend.',
			[subscribe('unlock_or_subscribe', 'Subscribe the organisation')],
		);
	}
	return undefined;
}

/** The key's own monthly cap, then the organisation console's per-key cap. */
export function capRefusal(key: KeyRecord, credits: number, now: number): Reply | undefined {
	const resetAt = iso(startOfNextMonth(now));
	if (key.monthlyCap !== undefined && key.monthlySpent + credits > key.monthlyCap) {
		return paymentRequired(
			'monthly_credit_cap_reached',
			'manage_decks',
			`This key reached its monthly cap of ${key.monthlyCap} credits. Raise the cap, use another credential, or wait for resetAt.`,
			[{ cta: 'manage_decks', kind: 'client_action', label: 'Raise the key\'s monthly cap', url: `${APP}/settings/api` }],
			{ monthlyCreditCap: key.monthlyCap, monthlyCreditsSpent: key.monthlySpent, resetAt, credits },
		);
	}
	if (key.orgKeyCap !== undefined && key.orgKeySpent + credits > key.orgKeyCap) {
		return paymentRequired(
			'org_key_cap_reached',
			'manage_decks',
			`The organisation console caps this key at ${key.orgKeyCap} credits a month. Ask an admin to raise it, use another credential, or wait for resetAt.`,
			[{ cta: 'manage_decks', kind: 'client_action', label: 'Ask an organisation admin to raise this key\'s cap', url: `${APP}/org/settings/api` }],
			{ monthlyCreditCap: key.orgKeyCap, monthlyCreditsSpent: key.orgKeySpent, resetAt, credits },
		);
	}
	return undefined;
}

/** Balance short: which 402 depends on the operation and on being a subscriber. */
export function balanceRefusal(principal: Principal, operation: SpendOperation, credits: number, withLanguages: boolean): Reply | undefined {
	if (principal.balance >= credits) return undefined;
	const money = { credits, balance: principal.balance };
	const short = `costs ${credits} credits; the wallet holds ${principal.balance}.`;
	if (operation === 'video') {
		// The paywall: no cta anywhere on purpose; clients recognise it by code and treat it as top_up.
		const options = packs('top_up').map(({ cta: _cta, ...option }) => option);
		return paymentRequired('video_paywall', undefined, `The video ${short}`, options, money);
	}
	if (operation === 'revision') {
		return paymentRequired(
			'insufficient_balance',
			'buy_revision',
			`This revision is beyond the included round and ${short}`,
			[{ cta: 'buy_revision', kind: 'checkout', label: `Buy a revision (${credits} credits)`, url: `${APP}/checkout/revision`, credits, amount: credits / 10, currency: 'EUR' }, ...packs('top_up')],
			money,
		);
	}
	if (operation === 'translation' || withLanguages) {
		return paymentRequired(
			'insufficient_balance',
			'translation_top_up',
			`The copies in additional languages make this call cost ${credits} credits; the wallet holds ${principal.balance}. Buy credits or ask for fewer languages.`,
			[...packs('translation_top_up'), { cta: 'translation_top_up', kind: 'client_action', label: 'Request fewer languages' }],
			money,
		);
	}
	if (!principal.subscriber) {
		return paymentRequired(
			'insufficient_balance',
			'unlock_or_subscribe',
			`This deck ${short} Unlock it once, or subscribe.`,
			[
				{ cta: 'unlock_or_subscribe', kind: 'checkout', label: `Unlock this deck (${credits} credits)`, url: `${APP}/checkout/unlock`, credits, amount: credits / 10, currency: 'EUR' },
				subscribe('unlock_or_subscribe'),
			],
			money,
		);
	}
	return paymentRequired('insufficient_balance', 'top_up', `This deck ${short}`, packs('top_up'), money);
}

export function tooManyDecks(inProgress: number, max: number): Reply {
	return paymentRequired(
		'too_many_decks_in_progress',
		'manage_decks',
		`${inProgress} decks are still being generated; at most ${max} may be in progress at once. Nothing to buy: retry when one finishes.`,
		[{ cta: 'manage_decks', kind: 'client_action', label: 'Wait for a deck in progress to finish, then retry' }],
		{ decksInProgress: inProgress, maxConcurrentDecks: max },
	);
}

export function upgradeForSlides(slideCount: number, freeSlideCap: number): Reply {
	return paymentRequired(
		'slide_cap',
		'upgrade_for_slides',
		`${slideCount} slides exceed the free slide cap of ${freeSlideCap}. Upgrade, or send at most ${freeSlideCap} slides.`,
		[
			subscribe('upgrade_for_slides', 'Upgrade to exceed the free slide cap'),
			{ cta: 'upgrade_for_slides', kind: 'client_action', label: `Send at most ${freeSlideCap} slides` },
		],
		{ slideCount, freeSlideCap },
	);
}

export function confirmSlideSurcharge(slideCount: number, freeSlideCap: number, credits: number, surcharge: number): Reply {
	return paymentRequired(
		'slide_surcharge_unconfirmed',
		'confirm_slide_surcharge',
		`${slideCount} slides exceed the free slide cap of ${freeSlideCap}; the deck costs ${credits} credits with the surcharge. Show that price to whoever pays, then re-send with confirm_slide_surcharge: true and expected_credits: ${credits}.`,
		[
			{ cta: 'confirm_slide_surcharge', kind: 'client_action', label: `Confirm ${credits} credits for ${slideCount} slides`, credits },
			{ cta: 'upgrade_for_slides', kind: 'client_action', label: `Send at most ${freeSlideCap} slides` },
		],
		{ credits, surchargeCredits: surcharge, slideCount, freeSlideCap },
	);
}

export function subscribeForTranslation(): Reply {
	return paymentRequired(
		'translation_requires_subscription',
		'subscribe_for_translation',
		'Translation into additional languages is for subscribers at launch.',
		[subscribe('subscribe_for_translation')],
	);
}
