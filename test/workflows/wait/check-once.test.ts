/**
 * Check Once: one status read per item, routed to the same three outputs, for users who loop
 * with n8n's own Wait node. The simulator's clock is manual, so nothing moves while the node runs.
 */
import { start, type Simulator } from '../../simulator';
import { readingsOf, runWait, statusReads } from './run';

describe('Deck Generator Wait: Check Once', () => {
	let sim: Simulator;
	beforeEach(async () => {
		sim = await start({ seed: 12, clock: { manual: true } });
	});
	afterEach(async () => {
		await sim.close();
	});

	test('each item is read once and routed: done → Completed, failed and 404 → Failed, running → Still Running', async () => {
		const done = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 0, outcome: 'succeeded' });
		const failedDeck = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 0, outcome: 'failed' });
		const running = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 20 * 60_000, outcome: 'succeeded' });
		const theirs = sim.control.seedDeck({ key: sim.keys.other, durationMs: 0, outcome: 'succeeded' });

		const { completed, failed, stillRunning } = await runWait('check-once', sim, [
			{ taskId: running, row: 0 },
			{ taskId: done, row: 1 },
			{ taskId: theirs, row: 2 },
			{ taskId: failedDeck, row: 3 },
		]);

		expect(completed.map((item) => [item.pairedItem, item.json.taskId, item.json.row])).toEqual([[{ item: 1 }, done, 1]]);
		expect(failed.map((item) => [item.pairedItem, item.json.taskId, item.json.code])).toEqual([
			[{ item: 2 }, theirs, 'not_found'],
			[{ item: 3 }, failedDeck, readingsOf(sim).failedCode],
		]);
		expect(stillRunning.map((item) => [item.pairedItem, item.json.taskId])).toEqual([[{ item: 0 }, running]]);
		expect(stillRunning[0].json).toMatchObject({ outcome: 'still_running', state: readingsOf(sim).queuedState, status: sim.profile.statusWords.queued, polls: 1 });
		// One read per deck, whatever its state.
		const reads = statusReads(sim);
		expect(reads).toHaveLength(4);
		expect(new Set(reads.map((r) => r.path)).size).toBe(4);
	});

	test('looping: the Still Running item of one run resumes in the next and completes', async () => {
		const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 10 * 60_000, outcome: 'succeeded' });

		const first = await runWait('check-once', sim, [{ taskId }]);
		sim.control.advance(10 * 60_000);
		const second = await runWait('check-once', sim, first.stillRunning.map((item) => item.json));

		expect(first.stillRunning).toHaveLength(1);
		expect(second.completed).toHaveLength(1);
		expect(second.completed[0].json).toMatchObject({ taskId, status: sim.profile.statusWords.succeeded, outcome: 'completed' });
	});
});
