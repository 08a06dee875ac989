/**
 * Failure words read with no reason, remembered by this process until a later read confirms them (issue 50, point
 * 5: such a word may be a stage, a recording "stopped" while its file uploads). The Wait node keeps its own decks'
 * across its reads (poller/failureToConfirm.ts); a loop's item carries it (`failureToConfirm`); this memory serves
 * the readers that get neither, as a later call of an AI tool, or Get Status fed an item from elsewhere. Per
 * credential and deck, bounded in size and age, as purchaseFacts.ts keeps recent purchases. Another process (a
 * queue-mode worker) does not see it: there the deck stays running until a read of its own confirms it, never
 * failed on one read.
 */
import { ProcessMemory } from './processMemory';

const seen = new ProcessMemory<{ word: string; at: number }>();
/** Long past any poll interval: a word read this long ago is no confirmation of anything. */
const SEEN_FOR_MS = 60 * 60_000;
/**
 * A read confirms only this long after the first that said the word (the contract's poll interval): two readers
 * reading the deck back to back (a Get Status, then a Check Once) read one moment of it, not two.
 */
export const CONFIRM_AFTER_MS = 5_000;

/** The failure word with no reason a read of this deck in this process gave, at least CONFIRM_AFTER_MS and at most an hour ago. */
export function unconfirmedFailure(credential: string, taskId: string, now = Date.now()): string | undefined {
	const entry = seen.get(credential, taskId);
	if (!entry) return undefined;
	if (now - entry.at > SEEN_FOR_MS) {
		seen.delete(credential, taskId);
		return undefined;
	}
	return now - entry.at >= CONFIRM_AFTER_MS ? entry.word : undefined;
}

/**
 * What the latest read of a deck said of a failure with no reason (its judgement's `failureToConfirm`), or nothing:
 * kept since the first read that said it, or forgotten.
 */
export function noteUnconfirmedFailure(credential: string, taskId: string, word: string | undefined, now = Date.now()): void {
	if (word === undefined) {
		seen.delete(credential, taskId);
		return;
	}
	if (seen.has(credential, taskId)) return;
	seen.set(credential, taskId, { word, at: now });
}
