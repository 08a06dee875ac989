/**
 * Waiting for many decks at once, at close to the fewest status reads that can tell when they
 * are done.
 *
 * The node emits every item when the last deck is done, so a read only pays for itself when it
 * finds a deck finished (each deck must be read once after it finished: N reads) or when it is the
 * one read per interval that notices the end (ceil(T / interval) reads). Floor: N + ceil(T / interval).
 *
 * Here the decks are planned into queues; each part of the wait has its own room in ./poller/:
 * - schedule.ts: the queue, its passes and rounds, the probe credit, Max Wait, 429 pauses, cancelling;
 * - settle.ts: what one status answer makes of a deck (judged from the whole record; retried, failed, finished);
 * - notFoundGrace.ts: the 404 grace for a deck just bought;
 * - fileChecks.ts: the file-check memory (a link is no deck until its file is there; when to check again);
 * - failureToConfirm.ts: a failure word with no reason, confirmed by the next read;
 * - notes.ts: the notes' policy (what is said while the wait goes on, and when);
 * - state.ts: what is asked and reported (DeckSpec, DeckReport), a deck as it waits, and the poller's state.
 *
 * Framework-free: no n8n, no HTTP library. Time, sleep and the reads are injected.
 */
import { throwIfCancelled } from './client';
import { failureToConfirmOf } from './poller/failureToConfirm';
import { notFoundGraceOf } from './poller/notFoundGrace';
import { DeckQueue, runQueue, type Queue } from './poller/schedule';
import { CONTRACT_POLL_INTERVAL_MS, DEFAULT_MAX_IN_FLIGHT, DEFAULT_MAX_WAIT_MS, type Deck, type DeckReport, type DeckSpec, type Poller, type PollerOptions } from './poller/state';
import { DEFAULT_STATUS_WORDS, type ReadingPaths, type StatusWords } from './status';

export { CONTRACT_POLL_INTERVAL_MS, DEFAULT_MAX_IN_FLIGHT, DEFAULT_MAX_WAIT_MS, type DeckReport, type DeckSpec, type PollerOptions, type WaitOutcome } from './poller/state';

/**
 * Waits for every deck and returns one report per spec, in the order given. Specs that are
 * identical (same task id and settings) share one deck and one report: it is read once.
 */
export async function pollDecks(specs: DeckSpec[], options: PollerOptions): Promise<DeckReport[]> {
	const now = options.now ?? Date.now;
	const poller: Poller = {
		fetchStatus: options.fetchStatus,
		sleep: options.sleep,
		now,
		signal: options.signal,
		gate: options.gate,
		statusUrl: options.statusUrl,
		onReadingNote: options.onReadingNote,
		checkFile: options.checkFile,
		maxInFlight: Math.max(1, options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT),
		start: now(),
	};
	const { decks, queues } = plan(specs, poller.start);
	await Promise.all(queues.map(async (queue) => await runQueue(poller, queue)));
	throwIfCancelled(poller.signal);
	return decks.map((deck) => deck.report);
}

/**
 * One deck per distinct spec (identical specs share it), and one queue per schedule (interval, Max
 * Wait, mode): usually every deck is in one queue, in input order.
 */
function plan(specs: DeckSpec[], start: number): { decks: Deck[]; queues: Queue[] } {
	const byKey = new Map<string, Deck>();
	const queues = new Map<string, Queue>();
	// Word lists are usually one object shared by every deck: number them instead of keying on them.
	const wordIds = new Map<string, number>();
	const wordsIdOf = (words: StatusWords, paths: ReadingPaths | undefined) => {
		const text = `${words.succeeded.join(',')}|${words.failed.join(',')}|${words.running.join(',')}|${words.own?.join(',') ?? ''}|${paths?.word ?? ''}|${paths?.file ?? ''}|${paths?.reason ?? ''}`;
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
			...(input.paths ? { paths: input.paths } : {}),
			once: input.once ?? false,
			...(input.purchase ? { purchase: input.purchase } : {}),
			notFoundGraceMs: notFoundGraceOf(input),
		};
		const schedule = `${spec.intervalMs}\u0000${spec.once ? 0 : spec.maxWaitMs}\u0000${spec.once}`;
		const key = `${spec.taskId}\u0000${schedule}\u0000${wordsIdOf(spec.words, spec.paths)}\u0000${spec.purchase?.confirmedAt ?? spec.purchase?.replayedAt ?? ''}\u0000${spec.notFoundGraceMs}\u0000${input.failureToConfirm ?? ''}`;
		const existing = byKey.get(key);
		if (existing) return existing;
		const deck: Deck = {
			spec,
			report: { taskId: spec.taskId, outcome: 'still_running', state: 'unknown', polls: 0, requests: 0, elapsedMs: 0 },
			lastReadAt: Number.NEGATIVE_INFINITY,
			done: false,
			...failureToConfirmOf(input),
		};
		byKey.set(key, deck);
		let queue = queues.get(schedule);
		if (!queue) {
			queue = { intervalMs: spec.intervalMs, deadline: start + spec.maxWaitMs, once: spec.once, decks: new DeckQueue(), credit: 0, hitRate: 0 };
			queues.set(schedule, queue);
		}
		queue.decks.put(deck);
		return deck;
	});
	return { decks, queues: [...queues.values()] };
}
