/**
 * The credential-wide 429 pause and stopping the execution, in a real workflow.
 */
import { start, type Simulator } from '../../simulator';
import { runWait, statusReads, warmUp } from './run';

const SPEED = 100;

describe('Deck Generator Wait: rate limits and cancelling', () => {
	let sim: Simulator;
	beforeEach(async () => {
		sim = await start({ seed: 13, clock: { speed: SPEED } });
		await warmUp(sim);
	});
	afterEach(async () => {
		await sim.close();
	});

	test('a 429 pauses polling of every deck of the credential for Retry-After; all decks still complete', async () => {
		// One 429 on a status read, advertising a 300 ms wait. (A 429 of the simulator's route bucket
		// also reports X-RateLimit-Reset as "until the bucket is full", a whole minute, which the
		// core's gate honours as well; the fault keeps the test in milliseconds.)
		sim.control.setLimits({ retryAfterMs: 300 });
		const ids = Array.from({ length: 10 }, () => sim.control.seedDeck({ key: sim.keys.personal, durationMs: 60_000, outcome: 'succeeded' }));
		// Armed once the decks are being read (one read a pass while all of them run): the next
		// status read gets the 429.
		const arm = setInterval(() => {
			if (statusReads(sim).length < 10) return;
			clearInterval(arm);
			sim.control.setFaults([{ kind: 'status429', method: 'GET', path: /\/status$/, times: 1 }]);
		}, 1);

		const { completed } = await runWait('rate-limit', sim, ids.map((taskId) => ({ taskId })));
		clearInterval(arm);

		expect(completed.map((item) => item.json.taskId)).toEqual(ids);
		const reads = statusReads(sim);
		const limited = reads.filter((r) => r.status === 429);
		expect(limited).toHaveLength(1);
		// Reads every 5 ms until the 429; after it, at most the reads already started (one per
		// deck), then none for at least the advertised wait.
		const after = reads.filter((r) => r.at >= limited[0].at);
		expect(reads.filter((r) => r.at < limited[0].at).length).toBeGreaterThanOrEqual(10);
		const gaps = after.slice(1).map((r, i) => ({ before: i + 1, ms: (r.at - after[i].at) / SPEED }));
		const pause = gaps.find((gap) => gap.ms >= 290);
		expect(pause).toBeDefined();
		expect(pause!.before).toBeLessThanOrEqual(ids.length);
		// After the pause, every deck not yet seen done is read again. "Seen done" counts any answered
		// read from the deck's end until the pause is over: on a loaded machine the 429 can come after
		// some decks were seen done, and reads already on the wire at the 429 may see a deck end.
		const resumedAt = after[pause!.before].at;
		const seenDoneBy = (id: string, until: number) => {
			const deckDoneAt = sim.control.deck(id)!.doneAt;
			return reads.some((r) => r.status === 200 && r.at >= deckDoneAt && r.at < until && r.path.includes(id));
		};
		const readAfterPause = (id: string) => reads.some((r) => r.at >= resumedAt && r.path.includes(id));
		expect(ids.filter((id) => !seenDoneBy(id, resumedAt) && !readAfterPause(id))).toEqual([]);
		// not vacuous: some deck was still running at the 429 and was read after the pause
		expect(ids.some((id) => !seenDoneBy(id, limited[0].at) && readAfterPause(id))).toBe(true);
	});

	test('stopping the execution ends the wait: no deck is read after the stop', async () => {
		const ids = Array.from({ length: 5 }, () => sim.control.seedDeck({ key: sim.keys.personal, durationMs: 30 * 60_000, outcome: 'succeeded' }));
		const controller = new AbortController();
		let stoppedAt = 0;
		let simStoppedAt = 0;
		setTimeout(() => {
			stoppedAt = Date.now();
			simStoppedAt = sim.control.now();
			controller.abort();
		}, 300);

		const { result, completed, stillRunning } = await runWait('wait-until-done', sim, ids.map((taskId) => ({ taskId })), {
			signal: controller.signal,
		});
		const endedAfterStop = Date.now() - stoppedAt;

		expect(result.status).toBe('canceled');
		expect(completed).toEqual([]);
		expect(stillRunning).toEqual([]);
		await new Promise((resolve) => setTimeout(resolve, 100));
		const reads = statusReads(sim);
		// One read a pass (every 10 ms) while the five decks run, then no new read: only reads
		// already on the wire at the stop (at most one per deck) may still arrive.
		expect(reads.length).toBeGreaterThanOrEqual(5);
		expect(reads.filter((r) => r.at > simStoppedAt).length).toBeLessThanOrEqual(ids.length);
		// n8n's own cancel bookkeeping takes most of this; the node reacts within a microtask.
		expect(endedAfterStop).toBeLessThan(500);
		await new Promise((resolve) => setTimeout(resolve, 100));
		expect(statusReads(sim)).toHaveLength(reads.length);
	});
});
