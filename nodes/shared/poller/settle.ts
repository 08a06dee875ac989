/**
 * What one status answer makes of a deck (a read is one `callService` call, retries included):
 * - it is judged from the whole record (status/judge.ts judgeStatus): an unknown word, and a success word with
 *   nothing to hand over, count as running and are reported exactly as they came. A record that would be
 *   completed on its link alone is completed only once its file is there (fileChecks.ts); a failure word with no
 *   reason waits for the next read to confirm it (failureToConfirm.ts); what is said of the reading while the
 *   wait goes on: notes.ts;
 * - 503/500/no-response are retried by the core's policy. When those retries run out the deck is not failed: a
 *   status read has no side effect and the deck keeps running on the service, so it stays queued until its
 *   deadline and is then reported still running with the last failure (a later run, or Check Once, can resume it);
 * - a non-retryable answer fails the deck with the service's detail/code/requestId (404: the deck does not exist
 *   for this credential, except a deck just bought, within its grace: notFoundGrace.ts). 401 and 403 are about the
 *   key, not the deck: they fail every deck still waiting at once instead of repeating the same refusal per deck;
 * - `elapsedMs` is the time until the node saw the deck finished (the answer of its last read).
 *
 * Framework-free.
 */
import type { CallResult } from '../client';
import { judgeStatus, type StatusJudgement } from '../status';
import { failureToConfirmOf, rememberFailureToConfirm } from './failureToConfirm';
import { withFileChecked } from './fileChecks';
import { notVisibleYet } from './notFoundGrace';
import { noteReading } from './notes';
import { finish, type Deck, type Poller } from './state';

/** Statuses that refuse the credential itself: the answer would be the same for every deck. */
const CREDENTIAL_STATUSES = new Set([401, 403]);

/**
 * The judgement of a status answer (undefined for a failed read), with its file checked where only the file
 * can say (`fileToCheck`): again at once when the record moved since the last check found nothing, else after
 * FILE_RECHECK_MS (a record with no word: at every read); in between the last finding stands.
 */
export async function judge(poller: Poller, deck: Deck, result: CallResult): Promise<StatusJudgement | undefined> {
	const { outcome } = result;
	if (result.attempts === 0 || outcome.route !== 'success') return undefined;
	const unknownWord = deck.report.unknownWord;
	const earlier = unknownWord && { word: unknownWord.word, reads: unknownWord.reads, seconds: Math.round((poller.now() - unknownWord.firstAt) / 1000) };
	const judgement = judgeStatus(outcome.body, {
		words: deck.spec.words,
		paths: deck.spec.paths,
		resolveAgainst: poller.statusUrl?.(deck.spec.taskId),
		httpStatus: outcome.status,
		earlier,
		...failureToConfirmOf(deck),
	});
	rememberFailureToConfirm(deck, judgement);
	return await withFileChecked(judgement, deck, poller.checkFile, poller.now);
}

/** Records one read, with its judgement; true when the deck is finished (completed or failed) and leaves. */
export function settle(poller: Poller, deck: Deck, result: CallResult, judgement: StatusJudgement | undefined): boolean {
	const report = deck.report;
	if (result.attempts === 0) return false; // not sent: the deadline came first
	report.polls++;
	report.requests += result.attempts;
	const { outcome } = result;
	if (outcome.route === 'success') {
		// judged whenever it answered (`judge`)
		if (!judgement) return false;
		report.body = outcome.body;
		report.judgement = judgement;
		report.status = report.judgement.word;
		report.state = report.judgement.state;
		noteReading(poller, deck);
		report.requestId = outcome.requestId;
		delete report.failure;
		delete report.notFound;
		if (report.state === 'succeeded') finish(poller, deck, 'completed');
		else if (report.state === 'failed') finish(poller, deck, 'failed');
		return deck.done;
	}
	const failure = outcome.failure;
	if (failure.requestId) report.requestId = failure.requestId;
	// a deck this workflow bought: not visible yet within the grace, then gone, with its purchase named
	if (notVisibleYet(deck, failure, poller.now())) return false;
	report.failure = failure;
	if (failure.retryable) return false;
	if (CREDENTIAL_STATUSES.has(failure.status)) poller.credentialFailure ??= failure;
	finish(poller, deck, 'failed', failure);
	return true;
}
