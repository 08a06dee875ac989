/**
 * A bare failure word's confirmation (issue 50): a failure word read with no reason may be a stage (a recording
 * "stopped" while its file uploads), so judgeStatus does not fail the deck on it but hands the word back
 * (`failureToConfirm`); the deck's next read confirms it. The poller keeps it per deck across its reads; a Check
 * Once loop's item carries it into the next run (DeckSpec `failureToConfirm`); readers with neither have this
 * process's memory (../unconfirmedFailures.ts).
 *
 * Framework-free.
 */
import type { StatusJudgement } from '../status';

/** Who remembers a word to confirm: a deck, or the spec it was made from. */
interface Remembers {
	failureToConfirm?: string;
}

/** The word an earlier read left to confirm, as judgeStatus (and a new deck) takes it: nothing when there is none. */
export function failureToConfirmOf(from: Remembers): { failureToConfirm?: string } {
	return from.failureToConfirm !== undefined ? { failureToConfirm: from.failureToConfirm } : {};
}

/** A failure word with no reason is confirmed by the next read; any other reading forgets it. */
export function rememberFailureToConfirm(deck: Remembers, judgement: StatusJudgement): void {
	if (judgement.failureToConfirm !== undefined) deck.failureToConfirm = judgement.failureToConfirm;
	else delete deck.failureToConfirm;
}
