/**
 * What is said of a deck bought here that the service does not show (404): within the grace, and after it
 * (./purchaseFacts.ts has the why). One place for the words, read by Get Status, Download and the Wait node.
 * Framework-free.
 */
import type { NotFoundAfterPurchase, PurchaseFacts } from './purchaseFacts';

/** A span in the words a person reads: `42 s`, `6 min`, `2 h 5 min`. */
export function spanInWords(ms: number): string {
	const seconds = Math.round(ms / 1000);
	if (seconds < 120) return `${seconds} s`;
	const minutes = Math.round(seconds / 60);
	if (minutes < 120) return `${minutes} min`;
	return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

const keyAndRequest = (purchase: PurchaseFacts) =>
	`Idempotency-Key ${purchase.idempotencyKey}${purchase.requestId ? `, request id ${purchase.requestId}` : ''}`;

/** When the deck was bought, in words: `5 min ago`, or, for a replay of a purchase of unknown time, said so. */
const boughtWhen = (found: NotFoundAfterPurchase) =>
	found.purchase.confirmedAt ? `${spanInWords(found.sinceMs)} ago` : `before this run; when is not known (the service replayed its purchase ${spanInWords(found.sinceMs)} ago)`;

/** Said of a deck within the grace: where a reader would say "not found". */
export function notVisibleYetNote(taskId: string, found: NotFoundAfterPurchase): string {
	const after = found.purchase.confirmedAt ? 'its purchase' : 'that replay';
	return (
		`Deck ${taskId} was bought ${boughtWhen(found)} (${keyAndRequest(found.purchase)}), and the service does not show it yet (404 not_found): ` +
		`a deck just bought can take a moment to become visible. Taken as still running; if it is still not shown ${spanInWords(found.graceMs)} after ${after}, it is reported as failed.`
	);
}

/** The failure of a deck still not shown after the grace: what happened, and what to do (never "buy again"). */
export function goneAfterPurchase(taskId: string, found: NotFoundAfterPurchase): { message: string; description: string } {
	const { purchase } = found;
	return {
		message: `Deck ${taskId} was bought ${boughtWhen(found)}, but the service does not show it (404 not_found)`,
		description:
			`${purchase.confirmedAt ? `The purchase was confirmed at ${purchase.confirmedAt}` : `The service replayed the purchase at ${purchase.replayedAt} (bought before this run; when is not known)`} (${keyAndRequest(purchase)}), so the deck was paid for; for ${spanInWords(found.graceMs)} after it the service has answered that no such deck exists for this credential. ` +
			`Do not buy it again. Check that this node uses the credential that bought it (a deck is visible only to its buyer; an organisation key sees only its organisation's decks). ` +
			`Sending the same purchase again (retrying the execution, or Deck Generator → Recover Purchase with the line n8n logged before it was sent) asks the service for it under its key without a second charge: an answer with this taskId means the service still holds it. ` +
			`Otherwise give the service's support the Idempotency-Key and request id above.`,
	};
}
