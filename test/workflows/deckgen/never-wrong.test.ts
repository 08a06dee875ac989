/**
 * Issue 50, never wrong, as a property over every reader: the decoy fixture (test/fixtures/status-decoys.ts,
 * served whole by the simulator's `statusRecord` choice) and the simulator's real API shapes, read at every phase
 * of a deck's life (queued, running, past half-way, just ended, a read later) by Get Status, Download, Check
 * Once, Wait Until Done and the AI tools over loopback. Whatever a reader says at a read: Completed only once the deck
 * succeeded (its file there: the address answers 404 until then), Failed only once it failed. Deterministic: the
 * simulator's manual clock and fixed seeds; the shapes' reads are picked by a seeded generator, so the run is
 * bounded (a few seconds a decoy).
 */
import { SERVICE_SHAPE_NAMES } from '../../simulator/services';
import { start, type Simulator } from '../../simulator';
import { DECOYS, type Decoy } from '../../fixtures/status-decoys';
import { askTools, deckOperation, waitFor } from '../readers';

const MINUTE = 60_000;
const DURATION = 10 * MINUTE;
/** The reads of a deck's life: queued, running, past half-way, just ended, a read later. */
const READS_AT = [0, 3 * MINUTE, 7 * MINUTE, DURATION + MINUTE, DURATION + 2 * MINUTE];

type Verdict = 'completed' | 'failed' | 'other';

/** What the truth allows at a read: Completed only in the finished phase, Failed only in the failed phase. */
function expectAllowed(sim: Simulator, taskId: string, reader: string, verdict: Verdict, context: string): void {
	const phase = sim.control.deck(taskId)!.phase;
	const wrong = (verdict === 'completed' && phase !== 'succeeded') || (verdict === 'failed' && phase !== 'failed');
	expect({ context, reader, phase, verdict, wrong }).toEqual({ context, reader, phase, verdict, wrong: false });
}

const stateVerdict = (state: unknown): Verdict => (state === 'succeeded' ? 'completed' : state === 'failed' ? 'failed' : 'other');

/** Every reader at one read of one deck. */
async function readAll(sim: Simulator, taskId: string, context: string, wholeWait: boolean): Promise<void> {
	const status = await deckOperation(sim, 'get-status', taskId);
	expectAllowed(sim, taskId, 'Get Status', stateVerdict((status.item ?? status.error)?.state), context);
	const download = await deckOperation(sim, 'download', taskId);
	const refused = String(download.error?.error ?? download.error?.message ?? '');
	expectAllowed(sim, taskId, 'Download', download.success.length ? 'completed' : /\bfailed\b/.test(refused) ? 'failed' : 'other', context);
	const once = await waitFor(sim, [taskId], 'checkOnce');
	expectAllowed(sim, taskId, 'Check Once', once.completed.length ? 'completed' : once.failed.length ? 'failed' : 'other', context);
	if (wholeWait) {
		const wait = await waitFor(sim, [taskId], 'waitUntilDone', 0.002);
		expectAllowed(sim, taskId, 'Wait Until Done', wait.completed.length ? 'completed' : wait.failed.length ? 'failed' : 'other', context);
		for (const [tool, answer] of Object.entries(await askTools(sim, taskId))) {
			expectAllowed(sim, taskId, tool, answer.outcome === 'completed' || answer.state === 'succeeded' ? 'completed' : answer.outcome === 'failed' || answer.state === 'failed' ? 'failed' : 'other', context);
		}
	}
}

describe('the decoy fixture: no reader is wrong at any read of a deck’s life', () => {
	let sim: Simulator;
	const decoyOf = new Map<string, Decoy>();
	beforeAll(async () => {
		sim = await start({ seed: 50, clock: { manual: true }, deckFileBytes: 2048, limits: { maxConcurrentDecks: 1_000 }, choices: { statusRecord: (v) => decoyOf.get(v.taskId)!.record(v) } });
	});
	afterAll(async () => await sim.close());

	test('the fixture covers every class, in both directions, with and without the record’s own word', () => {
		for (const point of [1, 2, 3, 4, 5] as const) expect(DECOYS.some((decoy) => decoy.point === point)).toBe(true);
		expect(new Set(DECOYS.map((decoy) => decoy.tempts))).toEqual(new Set(['completed', 'failed']));
		expect(new Set(DECOYS.map((decoy) => decoy.ownWord))).toEqual(new Set([true, false]));
	});

	test.each(DECOYS.map((decoy) => [decoy.name, decoy] as const))('%s', async (_name, decoy) => {
		const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: DURATION, outcome: decoy.outcome });
		decoyOf.set(taskId, decoy);
		let at = 0;
		for (const [n, readAt] of READS_AT.entries()) {
			sim.control.advance(readAt - at);
			at = readAt;
			await readAll(sim, taskId, `${decoy.name}, read ${n + 1}`, n === 0 || n >= READS_AT.length - 2);
		}
		// and nothing is lost to caution: by the end Wait Until Done has the deck on the output of its outcome
		const end = await waitFor(sim, [taskId], 'waitUntilDone', 0.01);
		expect({ completed: end.completed.length, failed: end.failed.length }).toEqual(decoy.outcome === 'failed' ? { completed: 0, failed: 1 } : { completed: 1, failed: 0 });
	});
});

describe('the real API shapes: no reader is wrong at any read', () => {
	/** A seeded pick of two reads per shape (mulberry32), so every shape is read at some phase each run, the same each run. */
	function picks(seed: number): number[] {
		let t = seed >>> 0;
		const next = () => {
			t = (t + 0x6d2b79f5) >>> 0;
			let r = Math.imul(t ^ (t >>> 15), 1 | t);
			r ^= r + Math.imul(r ^ (r >>> 7), 61 | r);
			return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
		};
		return [Math.floor(next() * 3), 3 + Math.floor(next() * 2)];
	}

	test.each(SERVICE_SHAPE_NAMES.map((service, n) => [service, n] as const))('%s', async (service, n) => {
		const sim = await start({ seed: 50, clock: { manual: true }, deckFileBytes: 2048, limits: { maxConcurrentDecks: 1_000 }, choices: { service } });
		try {
			const decks = (['succeeded', 'failed'] as const).map((outcome) => sim.control.seedDeck({ key: sim.keys.personal, durationMs: DURATION, outcome }));
			let at = 0;
			for (const read of picks(50 + n)) {
				sim.control.advance(READS_AT[read] - at);
				at = READS_AT[read];
				for (const taskId of decks) await readAll(sim, taskId, `${service}, read ${read + 1}`, false);
			}
		} finally {
			await sim.close();
		}
	});
});
