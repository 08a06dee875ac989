/**
 * Waiting for many decks at once, at close to the fewest status reads that can tell when they
 * are done.
 *
 * The node emits every item when the last deck is done, so a read only pays for itself when it
 * finds a deck finished (each deck must be read once after it finished: N reads) or when it is the
 * one read per interval that notices the end (ceil(T / interval) reads). Floor: N + ceil(T / interval).
 *
 * The schedule ("sentinel with earned probes"): the unfinished decks wait in one queue, least
 * recently read first (input order at the start). Once per interval a pass reads from the front:
 * - a deck found finished (or failed) is read exactly once and leaves;
 * - the first deck found still running is that interval's one read spent on noticing the end; it
 *   goes to the back of the queue and the pass normally stops there;
 * - every deck found finished earns PROBE_CREDIT of a read. While the pass holds a whole read of
 *   credit it may go on past a running deck (each one spends a read, at most a few a pass): late in
 *   a batch most decks are done, and these probes read them soon after they finish instead of in
 *   one sweep after the last one, which spreads the reads and keeps `elapsedSeconds` close.
 * - reads go out in rounds: every read of a round is sent at once and the pass waits for all of
 *   them, so a round costs the process one wake-up however wide it is (a status read through n8n's
 *   request helper opens a new connection, and a lone one costs about twice the CPU of one among
 *   many). A round is as wide as the queue's front is likely to be finished: 1 / (1 − h) reads,
 *   h the share of recent reads that found a deck finished, so a round finds one running deck
 *   on average, the one a pass spends anyway. While a pass finds only finished decks each round
 *   is twice as wide as the last (a long run late in a batch takes a few rounds); never wider
 *   than Max In Flight nor the bucket's last `X-RateLimit-Remaining`. Running reads past a
 *   pass's first are paid from the credit.
 * - a deck whose last answer came after the previous pass began is due a few ms into this one;
 *   until the pass has found a running deck (the batch may be done) it waits for it rather than
 *   leave the end unnoticed for another interval.
 * Cost: N + ceil(T / interval) + the probes and round overshoot, which the credit keeps near
 * PROBE_CREDIT × N; measured in `npm run bench` (README, "What waiting costs").
 *
 * Rules that hold whatever the schedule:
 * - no deck is read twice within one interval (from the answer of one read to the next send);
 * - Max Wait is a hard bound: at the deadline one final pass reads every deck not read within the
 *   last interval, then whatever is left is reported still running with its last status. Every
 *   read passes the deadline to the core, so no retry or rate-limit pause carries the node past it
 *   (only the request already on the wire may, by at most its timeout);
 * - a 429 pauses the credential (the core's CredentialGate); the pass waits the pause out;
 * - a read is one `callService` call, so 503/500/no-response are retried by the core's policy.
 *   When those retries run out the deck is not failed: a status read has no side effect and the
 *   deck keeps running on the service, so it stays queued until its deadline and is then reported
 *   still running with the last failure (a later run, or Check Once, can resume it);
 * - a non-retryable answer fails the deck with the service's detail/code/requestId (404: the deck
 *   does not exist for this credential). 401 and 403 are about the key, not the deck: they fail
 *   every deck still waiting at once instead of repeating the same refusal per deck;
 * - a read is judged from the whole record (status.ts judgeStatus): an unknown word, and a success
 *   word with nothing to hand over, count as running and are reported exactly as they came;
 * - `elapsedMs` is the time until the node saw the deck finished (the answer of its last read);
 * - the cancel signal ends every wait at once.
 *
 * Framework-free: no n8n, no HTTP library. Time, sleep and the reads are injected.
 */
import { CancelledError, throwIfCancelled, type CallResult, type CredentialGate, type Sleep } from './client';
import type { ServiceFailure } from './problem';
import { DEFAULT_STATUS_WORDS, judgeStatus, type DeckState, type StatusJudgement, type StatusWords } from './status';

/** The contract's polling interval for `GET /v1/decks/{taskId}/status`. */
export const CONTRACT_POLL_INTERVAL_MS = 5_000;

export const DEFAULT_MAX_WAIT_MS = 60 * 60_000;

/** Reads in flight at once, at most: a sweep of thousands never opens thousands of connections. */
export const DEFAULT_MAX_IN_FLIGHT = 64;

/** Credit a pass earns per deck found finished, to spend on reading past a running deck. */
export const PROBE_CREDIT = 0.15;

/** Weight of the latest read in the hit rate (share of reads finding a deck finished): about the last 20 reads. */
const HIT_RATE_WEIGHT = 0.05;

/** How many reads a round sends at once: enough that one of them finds a running deck, on average. */
function roundWidth(hitRate: number): number {
	return Math.max(1, Math.floor(1 / (1 - Math.min(hitRate, 0.99))));
}

/**
 * Running decks a pass may read beyond the first: at least 2, more for long queues, so credit is
 * spent over many intervals rather than in one burst.
 */
function extraRunningPerPass(queued: number): number {
	return Math.max(2, Math.ceil(queued / 500));
}

export type WaitOutcome = 'completed' | 'failed' | 'still_running';

export interface DeckSpec {
	taskId: string;
	/** No deck is read twice within this time (between request starts). */
	intervalMs?: number;
	/** After this long one final pass, then still running; the first read always happens. */
	maxWaitMs?: number;
	words?: StatusWords;
	/** One read and no waiting (Check Once). */
	once?: boolean;
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
	maxInFlight?: number;
}

/** What a queue's passes carry from one to the next. */
interface Credit {
	/** Reads earned (PROBE_CREDIT per deck found finished) for reading past a running deck. */
	value: number;
	/** Share of recent reads that found a deck finished (moving average). */
	hitRate: number;
}

interface Deck {
	spec: Required<Omit<DeckSpec, 'words'>> & { words: StatusWords };
	report: DeckReport;
	lastReadAt: number;
	done: boolean;
}

/** When a deck may be read again: one interval after its last answer (+Infinity while a read is out). */
function dueAt(deck: Deck, intervalMs: number): number {
	return deck.lastReadAt + intervalMs;
}

/** Statuses that refuse the credential itself: the answer would be the same for every deck. */
const CREDENTIAL_STATUSES = new Set([401, 403]);

/** A FIFO of decks with O(1) take and put (an array with a moving head). */
class DeckQueue {
	private items: Deck[] = [];
	private head = 0;

	get size(): number {
		return this.items.length - this.head;
	}

	peek(): Deck | undefined {
		return this.items[this.head];
	}

	take(): Deck | undefined {
		const deck = this.items[this.head++];
		// Drop the consumed prefix now and then, so a long wait does not keep every deck twice.
		if (this.head > 1_024 && this.head * 2 > this.items.length) {
			this.items = this.items.slice(this.head);
			this.head = 0;
		}
		return deck;
	}

	put(deck: Deck): void {
		this.items.push(deck);
	}
}

/**
 * Waits for every deck and returns one report per spec, in the order given. Specs that are
 * identical (same task id and settings) share one deck and one report: it is read once.
 */
export async function pollDecks(specs: DeckSpec[], options: PollerOptions): Promise<DeckReport[]> {
	const now = options.now ?? Date.now;
	const { sleep, signal, gate } = options;
	const maxInFlight = Math.max(1, options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT);
	const start = now();

	const byKey = new Map<string, Deck>();
	// Decks on the same schedule (interval, Max Wait, mode) share one queue: usually all of them.
	const queues = new Map<string, { intervalMs: number; deadline: number; once: boolean; queue: DeckQueue }>();
	// Word lists are usually one object shared by every deck: number them instead of keying on them.
	const wordIds = new Map<string, number>();
	const wordsIdOf = (words: StatusWords) => {
		const text = `${words.succeeded.join(',')}|${words.failed.join(',')}|${words.running.join(',')}|${words.own?.join(',') ?? ''}`;
		let id = wordIds.get(text);
		if (id === undefined) wordIds.set(text, (id = wordIds.size));
		return id;
	};
	const decks: Deck[] = specs.map((input) => {
		const spec = {
			taskId: input.taskId,
			// Below 1 ms a running deck would be read back to back: a busy loop by another name.
			intervalMs: Math.max(1, input.intervalMs ?? CONTRACT_POLL_INTERVAL_MS),
			maxWaitMs: Math.max(0, input.maxWaitMs ?? DEFAULT_MAX_WAIT_MS),
			words: input.words ?? DEFAULT_STATUS_WORDS,
			once: input.once ?? false,
		};
		const schedule = `${spec.intervalMs}\u0000${spec.once ? 0 : spec.maxWaitMs}\u0000${spec.once}`;
		const key = `${spec.taskId}\u0000${schedule}\u0000${wordsIdOf(spec.words)}`;
		const existing = byKey.get(key);
		if (existing) return existing;
		const deck: Deck = {
			spec,
			report: { taskId: spec.taskId, outcome: 'still_running', state: 'unknown', polls: 0, requests: 0, elapsedMs: 0 },
			lastReadAt: Number.NEGATIVE_INFINITY,
			done: false,
		};
		byKey.set(key, deck);
		let group = queues.get(schedule);
		if (!group) {
			group = { intervalMs: spec.intervalMs, deadline: start + spec.maxWaitMs, once: spec.once, queue: new DeckQueue() };
			queues.set(schedule, group);
		}
		group.queue.put(deck);
		return deck;
	});

	let credentialFailure: ServiceFailure | undefined;

	const finish = (deck: Deck, outcome: WaitOutcome, failure?: ServiceFailure) => {
		deck.done = true;
		deck.report.outcome = outcome;
		deck.report.elapsedMs = now() - start;
		if (failure) deck.report.failure = failure;
	};

	/** Records one read; true when the deck is finished (completed or failed) and leaves. */
	const settle = (deck: Deck, result: CallResult): boolean => {
		const report = deck.report;
		if (result.attempts === 0) return false; // not sent: the deadline came first
		report.polls++;
		report.requests += result.attempts;
		const { outcome } = result;
		if (outcome.route === 'success') {
			report.body = outcome.body;
			report.judgement = judgeStatus(outcome.body, deck.spec.words, options.statusUrl?.(deck.spec.taskId));
			report.status = report.judgement.word;
			report.state = report.judgement.state;
			report.requestId = outcome.requestId;
			delete report.failure;
			if (report.state === 'succeeded') finish(deck, 'completed');
			else if (report.state === 'failed') finish(deck, 'failed');
			return deck.done;
		}
		const failure = outcome.failure;
		report.failure = failure;
		if (failure.requestId) report.requestId = failure.requestId;
		if (failure.retryable) return false;
		if (CREDENTIAL_STATUSES.has(failure.status)) credentialFailure ??= failure;
		finish(deck, 'failed', failure);
		return true;
	};

	/**
	 * One pass over a queue. `final`: read every deck not read within the interval, as wide as
	 * allowed, with no credit rule (Check Once, and the last pass at Max Wait).
	 */
	const pass = async (
		group: { intervalMs: number; deadline: number; once: boolean; queue: DeckQueue },
		credit: Credit,
		final: boolean,
	): Promise<void> => {
		const { queue, intervalMs } = group;
		const deadline = group.once ? undefined : group.deadline;
		const readAgain: Deck[] = [];
		let finished = 0;
		let running = 0;
		let failure: { error: unknown } | undefined;
		let rounds = 0;
		const cap = extraRunningPerPass(queue.size);

		const read = (deck: Deck): Promise<void> => {
			// Counted from the answer, not the send: the server sees a request arrive no earlier than
			// it was sent, so the next read of this deck reaches it a whole interval later at least.
			deck.lastReadAt = Number.POSITIVE_INFINITY;
			return options.fetchStatus(deck.spec.taskId, deadline).then(
				(result) => {
					deck.lastReadAt = now();
					const finishedNow = settle(deck, result);
					if (result.attempts > 0) credit.hitRate += HIT_RATE_WEIGHT * ((finishedNow ? 1 : 0) - credit.hitRate);
					if (finishedNow) {
						finished++;
						credit.value += PROBE_CREDIT;
						return;
					}
					// A running read beyond the pass's first is a probe: it spends credit.
					if (running++ > 0 && !final) credit.value -= 1;
					readAgain.push(deck);
				},
				(error: unknown) => {
					deck.lastReadAt = now();
					// A cancelled read ends the wait through the signal; anything else is a bug to surface.
					if (!(error instanceof CancelledError)) failure ??= { error };
					readAgain.push(deck);
				},
			);
		};

		for (;;) {
			if (failure || credentialFailure || signal?.aborted) break;
			const next = queue.peek();
			if (!next) break;
			const dueIn = dueAt(next, intervalMs) - now();
			if (dueIn > 0) {
				// Read late in the last pass (its answer came after that pass began). While nothing
				// running has been found the batch may be done, so the pass waits the few ms for it
				// instead of leaving the end unnoticed for another interval.
				if (final || running > 0 || (deadline !== undefined && now() + dueIn > deadline)) break;
				await sleep(dueIn, signal);
				continue;
			}
			if (!final && running > 0 && (credit.value < 1 || running > cap)) break;
			const pause = gate?.remainingPause() ?? 0;
			if (pause > 0) {
				if (deadline !== undefined && now() + pause > deadline) break;
				await sleep(pause, signal);
				continue;
			}
			// While a pass finds only finished decks each round is twice as wide as the last: a long
			// run of them (late in a batch) is read in a few rounds.
			const width = final ? maxInFlight : Math.min(maxInFlight, roundWidth(credit.hitRate) * (running === 0 ? 2 ** rounds : 1));
			rounds++;
			const allowed = Math.max(1, Math.min(width, gate?.lastRemaining() ?? width));
			const round: Array<Promise<void>> = [];
			for (let deck = queue.peek(); deck && round.length < allowed && dueAt(deck, intervalMs) <= now(); deck = queue.peek()) {
				round.push(read(queue.take()!));
			}
			await Promise.all(round);
		}
		for (const deck of readAgain) queue.put(deck);
		if (failure) throw failure.error;
	};

	/** Runs one queue until it is empty or its deadline passed. */
	const runQueue = async (group: { intervalMs: number; deadline: number; once: boolean; queue: DeckQueue }) => {
		const { queue, intervalMs, deadline } = group;
		const credit: Credit = { value: 0, hitRate: 0 };
		if (group.once) {
			await pass(group, credit, true);
		} else {
			for (let passStart = now(); queue.size > 0 && !credentialFailure; ) {
				throwIfCancelled(signal);
				// The front deck is the least recently read: the pass starts once it is due.
				const due = Math.max(passStart, dueAt(queue.peek()!, intervalMs));
				if (due > deadline) break;
				if (due > now()) await sleep(due - now(), signal);
				passStart = now();
				await pass(group, credit, false);
				passStart += intervalMs;
				if (passStart > deadline && queue.size > 0) {
					// Max Wait: one last look at what is left, then report it.
					if (deadline > now()) await sleep(deadline - now(), signal);
					break;
				}
			}
			if (queue.size > 0 && !credentialFailure) {
				throwIfCancelled(signal);
				await pass(group, credit, true);
			}
		}
		throwIfCancelled(signal);
		for (let deck = queue.take(); deck; deck = queue.take()) {
			if (credentialFailure) finish(deck, 'failed', credentialFailure);
			else finish(deck, 'still_running', deck.report.failure);
		}
	};

	await Promise.all([...queues.values()].map(runQueue));
	throwIfCancelled(signal);
	return decks.map((deck) => deck.report);
}
