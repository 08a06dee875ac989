/**
 * What every room of the poller reads: what is asked of it (DeckSpec, PollerOptions) and what it reports
 * (DeckReport), a deck as it holds one while it waits (Deck), and its own state (Poller). `finish` is the one
 * place a deck leaves the wait with its outcome.
 *
 * Framework-free.
 */
import type { CallResult, CredentialGate, Sleep } from '../client';
import type { ServiceFailure } from '../problem';
import type { NotFoundAfterPurchase, PurchaseFacts } from '../purchaseFacts';
import type { DeckState, FileCheck, ReadingPaths, StatusJudgement, StatusWords } from '../status';
import type { LastFileCheck } from './fileChecks';

/** The contract's polling interval for `GET /v1/decks/{taskId}/status`. */
export const CONTRACT_POLL_INTERVAL_MS = 5_000;

export const DEFAULT_MAX_WAIT_MS = 60 * 60_000;

/** Reads in flight at once, at most: a sweep of thousands never opens thousands of connections. */
export const DEFAULT_MAX_IN_FLIGHT = 64;

export type WaitOutcome = 'completed' | 'failed' | 'still_running';

export interface DeckSpec {
	taskId: string;
	/** No deck is read twice within this time (between request starts). */
	intervalMs?: number;
	/** After this long one final pass, then still running; the first read always happens. */
	maxWaitMs?: number;
	words?: StatusWords;
	/** The paths the user set for the readings (status/judge.ts ReadingPaths). */
	paths?: ReadingPaths;
	/** One read and no waiting (Check Once). */
	once?: boolean;
	/**
	 * The deck's purchase, when the input item (or this process) knows it: a 404 within `notFoundGraceMs` after it
	 * was confirmed is a deck not visible yet (purchaseFacts.ts), not a deck that does not exist.
	 */
	purchase?: PurchaseFacts;
	notFoundGraceMs?: number;
	/**
	 * A failure word with no reason that an earlier check of this deck read (its item's `failureToConfirm`: Check
	 * Once loops are separate runs): a failure read now confirms it.
	 */
	failureToConfirm?: string;
}

export interface DeckReport {
	taskId: string;
	outcome: WaitOutcome;
	/** Ours, judged from the whole record (judgeStatus); 'unknown' until a status was read. */
	state: DeckState;
	/** The last read's judgement: where word and record disagree, and the record's failure reason. */
	judgement?: StatusJudgement;
	/** The service's status word, exactly as it came. */
	status?: string;
	/** A word on no list that the last reads all sent: how many reads, since when (for the note and the hint). */
	unknownWord?: { word: string; reads: number; firstAt: number };
	/** The latest status body. */
	body?: Record<string, unknown>;
	requestId?: string;
	/** Status reads answered (or given up on after the core's retries). */
	polls: number;
	/** HTTP requests sent, retries included. */
	requests: number;
	elapsedMs: number;
	/**
	 * Failed: why (a non-retryable answer). Still running: the last read's failure, if the last
	 * read failed after its retries.
	 */
	failure?: ServiceFailure;
	/**
	 * A deck whose purchase is known answered 404: within the grace (still running, not visible yet), or, on a
	 * failed deck, after it (the purchase is named in its error).
	 */
	notFound?: NotFoundAfterPurchase;
}

export interface PollerOptions {
	/**
	 * One status read of one deck, retries included (the core's `callService`); no retry or pause
	 * may end after `deadline` (same clock as `now`) when one is given.
	 */
	fetchStatus: (taskId: string, deadline?: number) => Promise<CallResult>;
	sleep: Sleep;
	now?: () => number;
	signal?: AbortSignal;
	/** The credential's gate: nothing is read while it is paused. */
	gate?: CredentialGate;
	/** The URL a deck's status is read from: root-relative links in it are resolved against it. */
	statusUrl?: (taskId: string) => string;
	/**
	 * Told while the wait goes on, not only at Max Wait, what a person must settle about how a deck is read:
	 * once per deck when the service has sent the same word on no list UNKNOWN_WORD_NOTICE_READS times in a
	 * row, and once per deck when a path the user set matches nothing in its record.
	 */
	onReadingNote?: (taskId: string, note: string) => void;
	/**
	 * Whether a deck's file is at its link and is a deck (a ranged GET), for a record that would be completed on
	 * its link alone. Without it such a record is never completed (the safe reading: a link is no deck).
	 */
	checkFile?: (url: string) => Promise<FileCheck>;
	maxInFlight?: number;
}

export interface Deck {
	spec: Required<Omit<DeckSpec, 'words' | 'paths' | 'purchase' | 'failureToConfirm'>> & { words: StatusWords; paths?: ReadingPaths; purchase?: PurchaseFacts };
	report: DeckReport;
	lastReadAt: number;
	done: boolean;
	/** The last check of its file that found it not there (fileChecks.ts). */
	lastFileCheck?: LastFileCheck;
	/** A path the user set matched nothing in its record, and it was said (onReadingNote). */
	pathMissNoted?: boolean;
	/** Its record could not be read to the end (no word, a word on no list, no file), and it was said (onReadingNote). */
	unreadNoted?: boolean;
	/** The last read said a failure word with no reason (judgeStatus `failureToConfirm`): the next one confirms it. */
	failureToConfirm?: string;
}

/**
 * The poller's state, what every step reads: the injected clock and reads, the limits, and the
 * one fact that ends every queue's wait at once.
 */
export interface Poller {
	fetchStatus: PollerOptions['fetchStatus'];
	sleep: Sleep;
	now: () => number;
	signal?: AbortSignal;
	gate?: CredentialGate;
	statusUrl?: PollerOptions['statusUrl'];
	onReadingNote?: PollerOptions['onReadingNote'];
	checkFile?: PollerOptions['checkFile'];
	maxInFlight: number;
	start: number;
	/** A 401 or 403: the answer every deck would get, so every deck still waiting fails with it. */
	credentialFailure?: ServiceFailure;
}

export function finish(poller: Poller, deck: Deck, outcome: WaitOutcome, failure?: ServiceFailure): void {
	deck.done = true;
	deck.report.outcome = outcome;
	deck.report.elapsedMs = poller.now() - poller.start;
	if (failure) deck.report.failure = failure;
}
