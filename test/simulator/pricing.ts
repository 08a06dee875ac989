// Live prices and quotes. The table is mutable (control.setPrice / driftPrice) so tests can move the live price
// between a quote and the call that relies on it.
import { problem } from './problem';
import type { Reply } from './reply';
import type { PriceTable } from './types';

export const DEFAULT_PRICES: PriceTable = {
	create: 10,
	slideSurcharge: 2,
	language: 5,
	revision: 8,
	includedRevisions: 1,
	translationPerLanguage: 5,
	video: 20,
};

/** Slides when the body names none. */
export const DEFAULT_SLIDE_COUNT = 10;

export interface CreateQuote {
	/** What the call costs as sent (surcharge only counted when confirmed). */
	credits: number;
	base: number;
	/** The surcharge the slides above the cap would add. */
	surcharge: number;
	languages: number;
	overCap: boolean;
	/** The price with the surcharge, whether confirmed or not: the number the 402 confirm_slide_surcharge quotes. */
	surchargedCredits: number;
}

export function quoteCreate(prices: PriceTable, slideCount: number, freeSlideCap: number, confirm: boolean, additionalLanguages: number): CreateQuote {
	const over = Math.max(0, slideCount - freeSlideCap);
	const surcharge = over * prices.slideSurcharge;
	const languages = additionalLanguages * prices.language;
	const base = prices.create;
	return {
		credits: base + languages + (confirm ? surcharge : 0),
		base,
		surcharge,
		languages,
		overCap: over > 0,
		surchargedCredits: base + languages + surcharge,
	};
}

export function quoteRevision(prices: PriceTable, revisionsSoFar: number): number {
	return revisionsSoFar < prices.includedRevisions ? 0 : prices.revision;
}

export function quoteTranslation(prices: PriceTable, languages: number): number {
	return languages * prices.translationPerLanguage;
}

/** 409 price_drift: nothing written, nothing charged; recovery is a new request with the live number. */
export function priceDrift(expectedCredits: number, credits: number): Reply {
	return problem(409, 'price_drift', {
		detail: `The live price is ${credits} credits, not the ${expectedCredits} sent in expected_credits. Nothing was charged. Send a new request with the live price once the payer accepts it.`,
		retryable: false,
		reason: 'price_drift',
		extra: { conflictKind: 'price_drift', expectedCredits, credits },
	});
}

/** Moves the four base prices (create, revision, translationPerLanguage, video) by delta, never below 0; or only the item named. */
export function drift(prices: PriceTable, delta: number, item?: keyof PriceTable): void {
	const items: Array<keyof PriceTable> = item ? [item] : ['create', 'revision', 'translationPerLanguage', 'video'];
	for (const k of items) prices[k] = Math.max(0, prices[k] + delta);
}
