/**
 * The notes' policy: what the poller tells while the wait goes on (`onReadingNote`), not only at Max Wait, about
 * how a deck is read, and when. Each is said at the first read that shows it, once per deck (issue 43: a miss must
 * cost one paste, not an hour). What a note says is the judgement's (status/judge.ts); this room decides whether
 * it is said now.
 *
 * Framework-free.
 */
import { pathMissNote } from '../status';
import type { Deck, DeckReport, Poller } from './state';

/** After a read that answered: counts a word on no list that keeps coming, then says what must be said of it. */
export function noteReading(poller: Poller, deck: Deck): void {
	noteUnknownWord(deck.report, poller.now());
	// the note names a path that missed too: said once, whichever comes first
	if (!noteUnread(poller, deck)) notePathMisses(poller, deck);
}

/** A path the user set that matches nothing in a deck's record is said at its first such read, once per deck. */
function notePathMisses(poller: Poller, deck: Deck): void {
	const misses = deck.report.judgement?.pathMisses;
	if (!misses?.length || deck.pathMissNoted) return;
	deck.pathMissNoted = true;
	poller.onReadingNote?.(deck.report.taskId, misses.map((miss) => pathMissNote(miss.option, miss.path, miss.members)).join(' '));
}

/** Counts the reads that sent the same word on no list in a row (the note and the hint say how long it kept coming). */
function noteUnknownWord(report: DeckReport, now: number): void {
	const { word, wordState } = report.judgement ?? {};
	if (word === undefined || wordState !== 'unknown' || report.state !== 'unknown') {
		delete report.unknownWord;
		return;
	}
	if (report.unknownWord?.word === word) report.unknownWord.reads++;
	else report.unknownWord = { word, reads: 1, firstAt: now };
}

/**
 * A record the package could not read to the end (no word, a word on no list, a finished word with no file: the
 * note then names the paths of this record that settle it) is said at its first such read, once per deck, not at
 * Max Wait.
 */
function noteUnread(poller: Poller, deck: Deck): boolean {
	const judgement = deck.report.judgement;
	if (deck.unreadNoted || !judgement?.note || (judgement.state !== 'unknown' && !judgement.suggestions)) return false;
	deck.unreadNoted = true;
	if (judgement.pathMisses?.length) deck.pathMissNoted = true;
	poller.onReadingNote?.(deck.report.taskId, judgement.note);
	return true;
}
