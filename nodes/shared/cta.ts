/**
 * The contract's complete set of 402 `cta` values, switched on exhaustively. Each one is either
 * a checkout (someone pays) or a client action (someone does something else). An unknown cta is
 * a checkout with a generic link to the account, as the contract asks.
 */

export type CtaKind = 'checkout' | 'clientAction';

export const KNOWN_CTAS = [
	'unlock_or_subscribe',
	'top_up',
	'manage_decks',
	'upgrade_for_slides',
	'confirm_slide_surcharge',
	'subscribe_for_translation',
	'translation_top_up',
	'buy_revision',
	'insufficient_credits',
] as const;
export type KnownCta = (typeof KNOWN_CTAS)[number];

interface CtaEntry {
	kind: CtaKind;
	/** What a person should do, in one sentence for Slack or email. */
	action: string;
}

export const CTA_TABLE: Record<KnownCta, CtaEntry> = {
	unlock_or_subscribe: {
		kind: 'checkout',
		action: 'Unlock this deck as a one-off purchase, or subscribe.',
	},
	top_up: { kind: 'checkout', action: 'Buy credits to continue.' },
	manage_decks: {
		kind: 'clientAction',
		action: 'Nothing to buy: wait for running decks to finish or free one up, then try again.',
	},
	upgrade_for_slides: {
		kind: 'clientAction',
		action: 'The deck is above the free slide cap: upgrade, or ask for fewer slides.',
	},
	confirm_slide_surcharge: {
		kind: 'clientAction',
		action:
			'The slide count carries a surcharge: show the higher price to whoever pays and, once they accept, create again with Confirm Slide Surcharge on.',
	},
	subscribe_for_translation: {
		kind: 'checkout',
		action: 'Translation is for subscribers: subscribe to add languages.',
	},
	translation_top_up: {
		kind: 'checkout',
		action: 'The balance does not cover the extra languages: buy credits or ask for fewer languages.',
	},
	buy_revision: { kind: 'checkout', action: 'The included revision round is used: buy a revision.' },
	// The video paywall names itself by `code`, not `cta`; the contract says treat it as top_up.
	insufficient_credits: { kind: 'checkout', action: 'Buy credits to continue.' },
};

/** Outputs of "Split Outputs by CTA", in order; `insufficient_credits` folds into `top_up`. */
export const SPLIT_CTAS: KnownCta[] = KNOWN_CTAS.filter((cta) => cta !== 'insufficient_credits');

export function isKnownCta(value: string): value is KnownCta {
	return (KNOWN_CTAS as readonly string[]).includes(value);
}

export interface CtaRoute {
	/** The cta the item carries: the service's, or `top_up` where the contract says to infer it. */
	cta: string;
	kind: CtaKind;
	known: boolean;
	/** The cta came from the contract's rule for a 402 without one, not from the body. */
	inferred: boolean;
	action: string;
}

export const UNKNOWN_CTA_ACTION =
	'The service offered an option this version does not know: open the account page to see it.';

/**
 * What a person should do for a 402 `reason` whose fix is not what its cta says in general: a key
 * at its own monthly cap is not fixed by buying credits (contract, code table), whatever cta the
 * service attached, or none.
 */
export const REASON_ACTIONS: Record<string, string> = {
	monthly_credit_cap_reached:
		"This API key reached its monthly credit cap: raise the key's cap in the account settings, use another credential, or wait until the cap resets (resetAt).",
	api_free_tier_unavailable:
		'The API does not draw on the free preview tier: buy credits once to enable programmatic spend.',
};

/**
 * The cta a 402 is routed by. The contract: a 402 carries `options`, an ordered array, and only
 * sometimes a single `cta`; the shape of each option is not shown. So the top-level `cta` when
 * present, else the first option's, whatever an option is: an object with `cta`, or the cta itself
 * as plain text (`["confirm_slide_surcharge", "upgrade_for_slides"]`). A 402 with no cta anywhere
 * is the video paywall (undefined here).
 */
export function ctaOfPaymentRequired(body: unknown): string | undefined {
	if (!body || typeof body !== 'object') return undefined;
	const { cta, options } = body as { cta?: unknown; options?: unknown };
	if (typeof cta === 'string' && cta.trim() !== '') return cta.trim();
	if (!Array.isArray(options)) return undefined;
	for (const option of options) {
		const optionCta = typeof option === 'string' ? option : option && typeof option === 'object' ? (option as { cta?: unknown }).cta : undefined;
		if (typeof optionCta === 'string' && optionCta.trim() !== '') return optionCta.trim();
	}
	return undefined;
}

/**
 * Routes a 402 by its cta (see `ctaOfPaymentRequired`); a 402 without one is the paywall form,
 * treated as top_up. A `reason` with a fix of its own (REASON_ACTIONS) keeps the route of its cta
 * but says its own fix.
 */
export function routeCta(cta: string | undefined, reason?: string): CtaRoute {
	const route = routeByCta(cta);
	const ownAction = reason !== undefined && Object.prototype.hasOwnProperty.call(REASON_ACTIONS, reason) ? REASON_ACTIONS[reason] : undefined;
	return ownAction ? { ...route, action: ownAction } : route;
}

function routeByCta(cta: string | undefined): CtaRoute {
	if (cta === undefined || cta === '' || cta === 'insufficient_credits') {
		return { cta: 'top_up', kind: 'checkout', known: true, inferred: true, action: CTA_TABLE.top_up.action };
	}
	if (isKnownCta(cta)) {
		return { cta, kind: CTA_TABLE[cta].kind, known: true, inferred: false, action: CTA_TABLE[cta].action };
	}
	return { cta, kind: 'checkout', known: false, inferred: false, action: UNKNOWN_CTA_ACTION };
}
