/**
 * The schedule: when each deck is read, so that waiting for many decks at once costs close to the fewest status
 * reads that can tell when they are done (the floor: poller.ts).
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
 * PROBE_CREDIT × N; measured in `npm run bench` (CONTRIBUTING.md, "What waiting costs: the benchmark").
 *
 * Rules that hold whatever the schedule:
 * - no deck is read twice within one interval (from the answer of one read to the next send);
 * - Max Wait is a hard bound: at the deadline one final pass reads every deck not read within the
 *   last interval, then whatever is left is reported still running with its last status. Every
 *   read passes the deadline to the core, so no retry or rate-limit pause carries the node past it
 *   (only the request already on the wire may, by at most its timeout);
 * - a 429 pauses the credential (the core's CredentialGate); the pass waits the pause out;
 * - a 401 or 403 (settle.ts) ends every queue's wait: what is left fails with it;
 * - the cancel signal ends every wait at once.
 *
 * What one answer makes of a deck: settle.ts.
 *
 * Framework-free.
 */
import { CancelledError, throwIfCancelled, type CallResult } from '../client';
import type { StatusJudgement } from '../status';
import { judge, settle } from './settle';
import { finish, type Deck, type Poller } from './state';

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

/** When a deck may be read again: one interval after its last answer (+Infinity while a read is out). */
function dueAt(deck: Deck, intervalMs: number): number {
	return deck.lastReadAt + intervalMs;
}

/** A FIFO of decks with O(1) take and put (an array with a moving head). */
export class DeckQueue {
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

/** Decks on one schedule, and what their passes carry from one to the next. */
export interface Queue {
	intervalMs: number;
	deadline: number;
	once: boolean;
	decks: DeckQueue;
	/** Reads earned (PROBE_CREDIT per deck found finished) for reading past a running deck. */
	credit: number;
	/** Share of recent reads that found a deck finished (moving average). */
	hitRate: number;
}

/** What one pass over a queue has seen so far. */
interface Pass {
	/** Read every deck not read within the interval, as wide as allowed, with no credit rule. */
	final: boolean;
	/** Max Wait, for the reads (Check Once has none). */
	deadline?: number;
	/** Decks found still running in this pass. */
	running: number;
	rounds: number;
	/** Running decks this pass may read beyond its first. */
	cap: number;
	readAgain: Deck[];
	failure?: { error: unknown };
}

/** What a pass does next. */
type Step = { stop: true; wait?: undefined; width?: undefined } | { wait: number; stop?: undefined; width?: undefined } | { width: number; stop?: undefined; wait?: undefined };

const STOP: Step = { stop: true };

/**
 * Runs one queue until it is empty or its deadline passed: Check Once is one final pass; Wait
 * Until Done a pass each interval, then at Max Wait one final pass. Whatever is left is reported.
 */
export async function runQueue(poller: Poller, queue: Queue): Promise<void> {
	if (queue.once) {
		await pass(poller, queue, true);
	} else {
		await passEachInterval(poller, queue);
		if (queue.decks.size > 0 && !poller.credentialFailure) {
			throwIfCancelled(poller.signal);
			await pass(poller, queue, true);
		}
	}
	throwIfCancelled(poller.signal);
	for (let deck = queue.decks.take(); deck; deck = queue.decks.take()) {
		if (poller.credentialFailure) finish(poller, deck, 'failed', poller.credentialFailure);
		else finish(poller, deck, 'still_running', deck.report.failure);
	}
}

/** A pass once the front deck (the least recently read) is due, at most one per interval, until Max Wait. */
async function passEachInterval(poller: Poller, queue: Queue): Promise<void> {
	const { now, sleep, signal } = poller;
	const { decks, intervalMs, deadline } = queue;
	for (let passStart = now(); decks.size > 0 && !poller.credentialFailure; ) {
		throwIfCancelled(signal);
		const due = Math.max(passStart, dueAt(decks.peek()!, intervalMs));
		if (due > deadline) break;
		if (due > now()) await sleep(due - now(), signal);
		passStart = now();
		await pass(poller, queue, false);
		passStart += intervalMs;
		if (passStart > deadline && decks.size > 0) {
			// Max Wait: one last look at what is left, then report it.
			if (deadline > now()) await sleep(deadline - now(), signal);
			break;
		}
	}
}

/**
 * One pass over a queue: rounds of reads from its front until the next step says stop. `final`:
 * read every deck not read within the interval, as wide as allowed, with no credit rule (Check
 * Once, and the last pass at Max Wait).
 */
async function pass(poller: Poller, queue: Queue, final: boolean): Promise<void> {
	const state: Pass = {
		final,
		deadline: queue.once ? undefined : queue.deadline,
		running: 0,
		rounds: 0,
		cap: extraRunningPerPass(queue.decks.size),
		readAgain: [],
	};
	for (;;) {
		const step = nextStep(poller, queue, state);
		if (step.stop) break;
		if (step.wait !== undefined) {
			await poller.sleep(step.wait, poller.signal);
			continue;
		}
		const round: Array<Promise<void>> = [];
		for (let deck = queue.decks.peek(); deck && round.length < step.width && dueAt(deck, queue.intervalMs) <= poller.now(); deck = queue.decks.peek()) {
			round.push(read(poller, queue, state, queue.decks.take()!));
		}
		await Promise.all(round);
	}
	for (const deck of state.readAgain) queue.decks.put(deck);
	if (state.failure) throw state.failure.error;
}

/** What the pass does next: which deck is due, whether the credit allows reading on, the pace, then a round's width. */
function nextStep(poller: Poller, queue: Queue, state: Pass): Step {
	if (state.failure || poller.credentialFailure || poller.signal?.aborted) return STOP;
	return due(poller, queue, state) ?? spent(queue, state) ?? pace(poller, state) ?? { width: roundSize(poller, queue, state) };
}

/** Which deck is due: the front one, now; or it was read late in the last pass and the pass waits for it, or stops. */
function due(poller: Poller, queue: Queue, state: Pass): Step | undefined {
	const next = queue.decks.peek();
	if (!next) return STOP;
	const dueIn = dueAt(next, queue.intervalMs) - poller.now();
	if (dueIn <= 0) return undefined;
	// Read late in the last pass (its answer came after that pass began). While nothing running has
	// been found the batch may be done, so the pass waits the few ms for it instead of leaving the
	// end unnoticed for another interval.
	if (state.final || state.running > 0 || pastDeadline(poller, state, dueIn)) return STOP;
	return { wait: dueIn };
}

/** Past the pass's first running deck, reading on is paid from the credit, a few decks a pass at most. */
function spent(queue: Queue, state: Pass): Step | undefined {
	return !state.final && state.running > 0 && (queue.credit < 1 || state.running > state.cap) ? STOP : undefined;
}

/** The pace: nothing is read while the credential is paused (a 429), and no wait goes past Max Wait. */
function pace(poller: Poller, state: Pass): Step | undefined {
	const pause = poller.gate?.remainingPause() ?? 0;
	if (pause <= 0) return undefined;
	return pastDeadline(poller, state, pause) ? STOP : { wait: pause };
}

/**
 * How many reads go out at once: as many as the hit rate says will find one running deck; while a
 * pass finds only finished decks each round is twice as wide as the last (a long run of them, late
 * in a batch, is read in a few rounds); never wider than Max In Flight nor the bucket's last remaining.
 */
function roundSize(poller: Poller, queue: Queue, state: Pass): number {
	const width = state.final
		? poller.maxInFlight
		: Math.min(poller.maxInFlight, roundWidth(queue.hitRate) * (state.running === 0 ? 2 ** state.rounds : 1));
	state.rounds++;
	return Math.max(1, Math.min(width, poller.gate?.lastRemaining() ?? width));
}

function pastDeadline(poller: Poller, state: Pass, waitMs: number): boolean {
	return state.deadline !== undefined && poller.now() + waitMs > state.deadline;
}

/**
 * One status read: settle the deck with its answer, then count what it found (the hit rate, the
 * credit, a running deck to read again next pass).
 */
async function read(poller: Poller, queue: Queue, state: Pass, deck: Deck): Promise<void> {
	// Counted from the answer, not the send: the server sees a request arrive no earlier than it was
	// sent, so the next read of this deck reaches it a whole interval later at least.
	deck.lastReadAt = Number.POSITIVE_INFINITY;
	let result: CallResult;
	let judgement: StatusJudgement | undefined;
	try {
		result = await poller.fetchStatus(deck.spec.taskId, state.deadline);
		judgement = await judge(poller, deck, result);
	} catch (error) {
		deck.lastReadAt = poller.now();
		// A cancelled read ends the wait through the signal; anything else is a bug to surface.
		if (!(error instanceof CancelledError)) state.failure ??= { error };
		state.readAgain.push(deck);
		return;
	}
	deck.lastReadAt = poller.now();
	const finishedNow = settle(poller, deck, result, judgement);
	if (result.attempts > 0) queue.hitRate += HIT_RATE_WEIGHT * ((finishedNow ? 1 : 0) - queue.hitRate);
	if (finishedNow) {
		queue.credit += PROBE_CREDIT;
		return;
	}
	// A running read beyond the pass's first is a probe: it spends credit.
	if (state.running++ > 0 && !state.final) queue.credit -= 1;
	state.readAgain.push(deck);
}
