/**
 * The 404 grace for a deck just bought (../purchaseFacts.ts has the why): a 404 of a deck whose purchase is known
 * (`purchase`) within `notFoundGraceMs` after the purchase was confirmed is a deck not visible yet (a replica
 * behind), read again like a running deck; after it, the deck fails with its purchase named. An id nobody bought
 * here fails at its first 404.
 *
 * Framework-free.
 */
import type { ServiceFailure } from '../problem';
import { DEFAULT_NOT_FOUND_GRACE_MS, notFoundAfterPurchase } from '../purchaseFacts';
import type { Deck, DeckSpec } from './state';

/** The grace a spec asks for, the default where it says none. */
export function notFoundGraceOf(spec: DeckSpec): number {
	return Math.max(0, spec.notFoundGraceMs ?? DEFAULT_NOT_FOUND_GRACE_MS);
}

/**
 * What a failed read makes of the deck's 404 record (`report.notFound`): for a deck this workflow bought, a 404
 * within the grace is not visible yet (true: the deck counts as running and is read again); after it, the
 * purchase is named and the failure stands (false). Any other answer is the deck's news now: an earlier 404
 * within the grace no longer speaks for it.
 */
export function notVisibleYet(deck: Deck, failure: ServiceFailure, now: number): boolean {
	const report = deck.report;
	const purchase = deck.spec.purchase;
	if (failure.status !== 404 || !purchase) {
		delete report.notFound;
		return false;
	}
	report.notFound = notFoundAfterPurchase(purchase, deck.spec.notFoundGraceMs, now);
	if (!report.notFound.withinGrace) return false;
	report.state = 'running';
	delete report.failure;
	return true;
}
