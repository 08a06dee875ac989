/**
 * Fifty decks of different durations and ends in one execution: each item must land on the
 * right output with its own pairedItem, input fields and task id.
 */
import { start, type Simulator } from '../../simulator';
import { readingsOf, runWait } from './run';

const MINUTE = 60_000;

type Expected = 'completed' | 'failed' | 'still_running';

describe('Deck Generator Wait: mixed batch', () => {
	let sim: Simulator;
	beforeAll(async () => {
		// 1,000× fast: a 25-minute deck is 1.5 s; Max Wait in the workflow is 1.5 s real.
		sim = await start({ seed: 14, clock: { speed: 1_000 } });
	});
	afterAll(async () => {
		await sim.close();
	});

	test('50 decks land on Completed, Failed and Still Running with the right pairedItem', async () => {
		const expected: Expected[] = [];
		const items = Array.from({ length: 50 }, (_, n) => {
			let taskId: string;
			if (n % 7 === 3) {
				taskId = sim.control.seedDeck({ key: sim.keys.other, durationMs: MINUTE, outcome: 'succeeded' });
				expected.push('failed'); // not this credential's deck: 404
			} else if (n % 5 === 0) {
				taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: (1 + (n % 9)) * MINUTE, outcome: 'failed' });
				expected.push('failed');
			} else if (n % 6 === 1) {
				taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 3 * 60 * MINUTE, outcome: 'succeeded' });
				expected.push('still_running');
			} else {
				taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: (n % 20) * MINUTE + 30_000, outcome: 'succeeded' });
				expected.push('completed');
			}
			return { n, taskId, label: `deck ${n}` };
		});

		const { result, completed, failed, stillRunning } = await runWait('mixed-batch', sim, items);

		expect(result.status).toBe('success');
		const outputs: Record<Expected, typeof completed> = { completed, failed, still_running: stillRunning };
		for (const [name, output] of Object.entries(outputs)) {
			const want = items.filter((_, n) => expected[n] === name).map((item) => item.n);
			expect(output.map((item) => item.json.n)).toEqual(want);
			for (const item of output) {
				const n = item.json.n as number;
				expect(item.pairedItem).toEqual({ item: n });
				expect(item.json).toMatchObject({ taskId: items[n].taskId, label: `deck ${n}`, outcome: name });
			}
		}
		expect(completed.length + failed.length + stillRunning.length).toBe(50);
		expect(failed.filter((item) => item.json.code === 'not_found')).toHaveLength(items.filter((_, n) => n % 7 === 3).length);
		for (const item of stillRunning) expect(item.json).toMatchObject({ state: readingsOf(sim).runningState, status: sim.profile.statusWords.running });
	});
});
