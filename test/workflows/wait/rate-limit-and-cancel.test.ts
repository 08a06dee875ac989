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

	test('a 429 from the route bucket pauses polling of every deck for Retry-After; all decks still complete', async () => {
		// 30 reads of burst, then one every 5 ms: ten decks read every 5 ms run it dry at once.
		sim.control.setLimits({ routePerMinute: 30, retryAfterMs: 5 });
		const ids = Array.from({ length: 10 }, () => sim.control.seedDeck({ key: sim.keys.personal, durationMs: 90_000, outcome: 'succeeded' }));

		const { completed } = await runWait('rate-limit', sim, ids.map((taskId) => ({ taskId })));

		expect(completed.map((item) => item.json.taskId)).toEqual(ids);
		const reads = statusReads(sim);
		const first429 = reads.findIndex((r) => r.status === 429);
		expect(first429).toBeGreaterThanOrEqual(0);
		// Retry-After is 1 s (the header's whole seconds): once the 429 is seen, no deck is read
		// until it has passed. Reads already on the wire may still land in the first few ms.
		const limitedAt = reads[first429].at;
		const inPause = reads.filter((r) => r.at > limitedAt + 30 * SPEED && r.at < limitedAt + 900 * SPEED);
		expect(inPause).toEqual([]);
		// Less than one 429 per deck in all: a pause, not a retry storm.
		expect(reads.filter((r) => r.status === 429).length).toBeLessThan(ids.length);
	});

	test('stopping the execution ends the wait within one poll interval', async () => {
		const ids = Array.from({ length: 5 }, () => sim.control.seedDeck({ key: sim.keys.personal, durationMs: 30 * 60_000, outcome: 'succeeded' }));
		const controller = new AbortController();
		let stoppedAt = 0;
		setTimeout(() => {
			stoppedAt = Date.now();
			controller.abort();
		}, 300);

		const { result, completed, stillRunning } = await runWait('wait-until-done', sim, ids.map((taskId) => ({ taskId })), {
			signal: controller.signal,
		});
		const endedAfterStop = Date.now() - stoppedAt;

		expect(result.status).toBe('canceled');
		expect(completed).toEqual([]);
		expect(stillRunning).toEqual([]);
		// The poll interval is 10 ms; the engine needs a few more to wind down.
		expect(stoppedAt).toBeGreaterThan(0);
		expect(endedAfterStop).toBeLessThan(50);
		const readsAtStop = statusReads(sim).length;
		expect(readsAtStop).toBeGreaterThan(0);
		await new Promise((resolve) => setTimeout(resolve, 100));
		expect(statusReads(sim).length).toBe(readsAtStop);
	});
});
