/**
 * The credential-wide 429 pause and stopping the execution, in a real workflow.
 */
import { start, type Simulator } from '../../simulator';
import { afterStatusReads, runWait, statusReads, warmUp } from './run';

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
		const DECK_MS = 30 * 60_000;
		const ids = Array.from({ length: 10 }, () => sim.control.seedDeck({ key: sim.keys.personal, durationMs: DECK_MS, outcome: 'succeeded' }));
		// The decks only end when the test says so, so no load can make one end before the 429: the
		// fault is armed once the decks are being read (the next status read gets the 429), and the
		// clock jumps past their end once the pause has begun (no read for 100 ms after the 429), so
		// every deck is seen done only after the pause.
		const cancelArm = afterStatusReads(sim, 10, () => sim.control.setFaults([{ kind: 'status429', method: 'GET', path: /\/status$/, times: 1 }]));
		let jump: { at: number; ms: number } | undefined;
		const jumper = setInterval(() => {
			const reads = statusReads(sim);
			if (!reads.some((r) => r.status === 429) || sim.control.now() - reads[reads.length - 1].at < 100 * SPEED) return;
			clearInterval(jumper);
			jump = { at: sim.control.now(), ms: DECK_MS };
			sim.control.advance(DECK_MS);
		}, 1);

		const { completed } = await runWait('rate-limit', sim, ids.map((taskId) => ({ taskId })));
		cancelArm();
		clearInterval(jumper);

		expect(completed.map((item) => item.json.taskId)).toEqual(ids);
		expect(jump).toBeDefined();
		// real ms since the first read, the clock's jump taken out
		const reads = statusReads(sim).map((r) => ({ ...r, realMs: (r.at >= jump!.at ? r.at - jump!.ms : r.at) / SPEED }));
		const limited = reads.filter((r) => r.status === 429);
		expect(limited).toHaveLength(1);
		expect(reads.filter((r) => r.at < limited[0].at).length).toBeGreaterThanOrEqual(10);
		// Reads every 5 ms until the 429; after it, at most the reads already started (one per
		// deck), then none for at least the advertised wait.
		const after = reads.filter((r) => r.at >= limited[0].at);
		const gaps = after.slice(1).map((r, i) => ({ before: i + 1, ms: r.realMs - after[i].realMs }));
		const pause = gaps.find((gap) => gap.ms >= 290);
		expect(pause).toBeDefined();
		expect(pause!.before).toBeLessThanOrEqual(ids.length);
		// Every deck is read again after the pause (none had ended before it), once: each is done then.
		const resumedAt = after[pause!.before].at;
		const readsAfterPause = ids.map((id) => reads.filter((r) => r.at >= resumedAt && r.path.includes(id)).length);
		expect(readsAfterPause).toEqual(ids.map(() => 1));
	});

	test('stopping the execution ends the wait: no deck is read after the stop', async () => {
		const ids = Array.from({ length: 5 }, () => sim.control.seedDeck({ key: sim.keys.personal, durationMs: 30 * 60_000, outcome: 'succeeded' }));
		const controller = new AbortController();
		let stoppedAt = 0;
		let simStoppedAt = 0;
		// Stopped once the decks have been read five times, however slow the machine.
		const cancelStop = afterStatusReads(sim, 5, () => {
			stoppedAt = Date.now();
			simStoppedAt = sim.control.now();
			controller.abort();
		});

		const { result, completed, stillRunning } = await runWait('wait-until-done', sim, ids.map((taskId) => ({ taskId })), {
			signal: controller.signal,
		});
		const endedAfterStop = Date.now() - stoppedAt;
		cancelStop();

		expect(result.status).toBe('canceled');
		expect(completed).toEqual([]);
		expect(stillRunning).toEqual([]);
		await new Promise((resolve) => setTimeout(resolve, 100));
		const reads = statusReads(sim);
		// One read a pass (every 10 ms) while the five decks run, then no new read: only reads
		// already on the wire at the stop (at most one per deck) may still arrive.
		expect(reads.length).toBeGreaterThanOrEqual(5);
		expect(reads.filter((r) => r.at > simStoppedAt).length).toBeLessThanOrEqual(ids.length);
		// n8n's own cancel bookkeeping takes most of this; the node reacts within a microtask. (A node
		// that ignored the stop would run until the decks end, 18 s from now.)
		expect(stoppedAt).toBeGreaterThan(0);
		expect(endedAfterStop).toBeLessThan(2_000);
		await new Promise((resolve) => setTimeout(resolve, 100));
		expect(statusReads(sim)).toHaveLength(reads.length);
	});
});
