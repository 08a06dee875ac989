/**
 * Waiting for many decks at once on one schedule.
 *
 * Every deck has a next-due time in one min-heap; one loop sleeps (through the injected Sleep)
 * until the earliest due time, fires every read that is due, with a bound on reads in flight,
 * and goes back to sleep. So a thousand decks cost one timer, not a thousand, and nothing spins.
 *
 * - First reads are spread uniformly over one interval, so a batch does not poll in one burst.
 * - Each deck is read every `intervalMs` between request starts (the contract asks for 5 s).
 * - A 429 anywhere pauses the credential (the core's CredentialGate): the loop waits the pause
 *   out and then shifts the whole schedule by it, so polling resumes at the same rate instead of
 *   releasing everything that came due during the pause in one burst.
 * - A read is one `callService` call, so 503/500/no-response are retried by the core's policy.
 *   When those retries run out the deck is not failed: a status read has no side effect and the
 *   deck keeps running on the service, so it stays on the schedule until its deadline and is
 *   then reported still running with the last failure. Failing it would tell the user a deck they
 *   paid for is lost, and a later run (or Check Once) can resume it.
 * - A non-retryable answer fails the deck with the service's detail/code/requestId (404: the
 *   deck does not exist for this credential). 401 and 403 are about the key, not the deck: they
 *   fail every deck still waiting at once instead of repeating the same refusal per deck.
 * - An unknown status word keeps polling and is reported exactly as it came.
 * - The cancel signal is checked between waits and ends every wait at once.
 *
 * Framework-free: no n8n, no HTTP library. Time, sleep, randomness and the reads are injected.
 */
import { CancelledError, throwIfCancelled, type CallResult, type CredentialGate, type Sleep } from './client';
import type { ServiceFailure } from './problem';
import { DEFAULT_STATUS_WORDS, stateOf, statusWordOf, type DeckState, type StatusWords } from './status';

/** The contract's polling interval for `GET /v1/decks/{taskId}/status`. */
export const CONTRACT_POLL_INTERVAL_MS = 5_000;

export const DEFAULT_MAX_WAIT_MS = 60 * 60_000;

/**
 * Reads in flight at once. 1,000 decks every 5 s is 200 reads/s; at 250 ms per answer that is
 * 50 in flight, so 64 keeps the schedule without letting a backlog (say after a pause) open
 * hundreds of connections.
 */
export const DEFAULT_MAX_IN_FLIGHT = 64;

export type WaitOutcome = 'completed' | 'failed' | 'still_running';

export interface DeckSpec {
	taskId: string;
	/** Time between two reads of this deck (between request starts). */
	intervalMs?: number;
	/** After this long no further read is started; the first read always happens. */
	maxWaitMs?: number;
	words?: StatusWords;
	/** One read and no waiting (Check Once). */
	once?: boolean;
}

export interface DeckReport {
	taskId: string;
	outcome: WaitOutcome;
	/** Ours, from the status map; 'unknown' until a status word was read. */
	state: DeckState;
	/** The service's status word, exactly as it came. */
	status?: string;
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
}

export interface PollerOptions {
	/** One status read of one deck, retries included (the core's `callService`). */
	fetchStatus: (taskId: string) => Promise<CallResult>;
	sleep: Sleep;
	now?: () => number;
	random?: () => number;
	signal?: AbortSignal;
	/** The credential's gate: the loop fires nothing while it is paused. */
	gate?: CredentialGate;
	maxInFlight?: number;
}

interface Deck {
	spec: Required<Omit<DeckSpec, 'words'>> & { words: StatusWords };
	report: DeckReport;
	due: number;
	deadline: number;
	/** Insertion order, so decks due at the same instant are read in a stable order. */
	seq: number;
	read: boolean;
}

/** Statuses that refuse the credential itself: the answer would be the same for every deck. */
const CREDENTIAL_STATUSES = new Set([401, 403]);

/**
 * Waits for every deck and returns one report per spec, in the order given. Specs that are
 * identical (same task id and settings) share one deck and one report: it is read once.
 */
export async function pollDecks(specs: DeckSpec[], options: PollerOptions): Promise<DeckReport[]> {
	const now = options.now ?? Date.now;
	const random = options.random ?? Math.random;
	const { sleep, signal, gate } = options;
	const maxInFlight = Math.max(1, options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT);
	const start = now();

	const byKey = new Map<string, Deck>();
	// Word lists are usually one object shared by every deck: number them instead of keying on them.
	const wordIds = new Map<string, number>();
	const wordsIdOf = (words: StatusWords) => {
		const text = `${words.succeeded.join(',')}|${words.failed.join(',')}|${words.running.join(',')}`;
		let id = wordIds.get(text);
		if (id === undefined) wordIds.set(text, (id = wordIds.size));
		return id;
	};
	const decks: Deck[] = specs.map((input, index) => {
		const spec = {
			taskId: input.taskId,
			// Below 1 ms a running deck would be read back to back: a busy loop by another name.
			intervalMs: Math.max(1, input.intervalMs ?? CONTRACT_POLL_INTERVAL_MS),
			maxWaitMs: Math.max(0, input.maxWaitMs ?? DEFAULT_MAX_WAIT_MS),
			words: input.words ?? DEFAULT_STATUS_WORDS,
			once: input.once ?? false,
		};
		const key = `${spec.taskId}\u0000${spec.intervalMs}\u0000${spec.maxWaitMs}\u0000${spec.once}\u0000${wordsIdOf(spec.words)}`;
		const existing = byKey.get(key);
		if (existing) return existing;
		const deck: Deck = {
			spec,
			report: { taskId: spec.taskId, outcome: 'still_running', state: 'unknown', polls: 0, requests: 0, elapsedMs: 0 },
			due: spec.once ? start : start + random() * spec.intervalMs,
			deadline: start + spec.maxWaitMs,
			seq: index,
			read: false,
		};
		byKey.set(key, deck);
		return deck;
	});

	const queue = new DueHeap();
	for (const deck of byKey.values()) queue.push(deck);

	let inFlight = 0;
	let fatal: { error: unknown } | undefined;
	let credentialFailure: ServiceFailure | undefined;
	// What the loop is waiting for, so a finished read only wakes it when that changes something.
	let waitingUntil: number | 'completion' | undefined;
	let wake: (() => void) | undefined;
	const nudge = () => {
		const resolve = wake;
		wake = undefined;
		waitingUntil = undefined;
		resolve?.();
	};
	const nudged = () => new Promise<void>((resolve) => (wake = resolve));

	const finish = (deck: Deck, outcome: WaitOutcome, failure?: ServiceFailure) => {
		deck.report.outcome = outcome;
		deck.report.elapsedMs = now() - start;
		if (failure) deck.report.failure = failure;
	};

	/** Back on the schedule, or still running when the next read would start after the deadline. */
	const reschedule = (deck: Deck, due: number) => {
		if (deck.spec.once || due > deck.deadline) return finish(deck, 'still_running', deck.report.failure);
		deck.due = due;
		queue.push(deck);
		if (waitingUntil === 'completion' || (typeof waitingUntil === 'number' && due < waitingUntil)) nudge();
	};

	const settle = (deck: Deck, result: CallResult, firedAt: number) => {
		const report = deck.report;
		report.polls++;
		report.requests += result.attempts;
		deck.read = true;
		const { outcome } = result;
		if (outcome.route === 'success') {
			report.body = outcome.body;
			report.status = statusWordOf(outcome.body);
			report.state = stateOf(report.status, deck.spec.words);
			report.requestId = outcome.requestId;
			delete report.failure;
			if (report.state === 'succeeded') return finish(deck, 'completed');
			if (report.state === 'failed') return finish(deck, 'failed');
		} else {
			const failure = outcome.failure;
			report.failure = failure;
			if (failure.requestId) report.requestId = failure.requestId;
			if (!failure.retryable) {
				if (CREDENTIAL_STATUSES.has(failure.status)) credentialFailure ??= failure;
				return finish(deck, 'failed', failure);
			}
		}
		const completedAt = now();
		// After a retry the last request is recent, so the interval counts from the answer.
		const due = result.attempts > 1 ? completedAt + deck.spec.intervalMs : Math.max(firedAt + deck.spec.intervalMs, completedAt);
		reschedule(deck, due);
	};

	const fire = (deck: Deck) => {
		inFlight++;
		const firedAt = now();
		void (async () => {
			try {
				settle(deck, await options.fetchStatus(deck.spec.taskId), firedAt);
			} catch (error) {
				// A cancelled read ends the wait through the signal; anything else is a bug to surface.
				if (!(error instanceof CancelledError)) fatal ??= { error };
			} finally {
				inFlight--;
				if (waitingUntil === 'completion' || fatal || credentialFailure) nudge();
			}
		})();
	};

	const onAbort = () => nudge();
	signal?.addEventListener('abort', onAbort, { once: true });
	try {
		for (;;) {
			if (fatal) throw fatal.error;
			throwIfCancelled(signal);

			if (credentialFailure) {
				for (let deck = queue.pop(); deck; deck = queue.pop()) finish(deck, 'failed', credentialFailure);
			}
			if (queue.size === 0 && inFlight === 0) break;

			const pause = gate?.remainingPause() ?? 0;
			if (pause > 0) {
				const pausedAt = now();
				await sleep(pause, signal);
				// Slide the whole schedule by the pause: same spacing afterwards, no burst.
				queue.shift(now() - pausedAt);
				continue;
			}

			const t = now();
			const next = queue.peek();
			if (next && inFlight < maxInFlight) {
				if (next.read && next.due > next.deadline) {
					queue.pop();
					finish(next, 'still_running', next.report.failure);
				} else if (next.due <= t) {
					fire(queue.pop()!);
				} else {
					waitingUntil = next.due;
					const woken = nudged();
					await Promise.race([sleep(next.due - t, signal), woken]);
					waitingUntil = undefined;
				}
				continue;
			}
			// Nothing is due before a read finishes: wait for one, no timer needed.
			waitingUntil = 'completion';
			await nudged();
			waitingUntil = undefined;
		}
	} finally {
		signal?.removeEventListener('abort', onAbort);
	}
	return decks.map((deck) => deck.report);
}

/** A binary min-heap of decks by due time (then insertion order). */
class DueHeap {
	private readonly items: Deck[] = [];

	get size(): number {
		return this.items.length;
	}

	peek(): Deck | undefined {
		return this.items[0];
	}

	push(deck: Deck): void {
		const items = this.items;
		items.push(deck);
		let i = items.length - 1;
		while (i > 0) {
			const parent = (i - 1) >> 1;
			if (!before(items[i], items[parent])) break;
			[items[i], items[parent]] = [items[parent], items[i]];
			i = parent;
		}
	}

	pop(): Deck | undefined {
		const items = this.items;
		const top = items[0];
		const last = items.pop();
		if (items.length === 0 || last === undefined) return top;
		items[0] = last;
		let i = 0;
		for (;;) {
			const left = 2 * i + 1;
			const right = left + 1;
			let smallest = i;
			if (left < items.length && before(items[left], items[smallest])) smallest = left;
			if (right < items.length && before(items[right], items[smallest])) smallest = right;
			if (smallest === i) return top;
			[items[i], items[smallest]] = [items[smallest], items[i]];
			i = smallest;
		}
	}

	/** Adding the same amount to every key keeps the heap ordered. */
	shift(ms: number): void {
		if (ms > 0) for (const deck of this.items) deck.due += ms;
	}
}

function before(a: Deck, b: Deck): boolean {
	return a.due < b.due || (a.due === b.due && a.seq < b.seq);
}
