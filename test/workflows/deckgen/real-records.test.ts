/**
 * Issue 31: a deck's record read the way real generation APIs write it. The four classes of mistake, each
 * in Get Status and both Wait modes against the simulator over real HTTP (shapes of real services from
 * test/simulator/services.ts, or this project's profile with members a service writes without meaning them,
 * `statusExtras`), and the over-reach side of each: a transitional word still running, a finished deck with
 * a stray member completed, a finished deck with a preview beside its file handing over the file.
 * (real-services.test.ts runs every reader against every modelled service; this file names the classes.)
 */
import { readDeckFile, start, type ProfileChoices, type Simulator } from '../../simulator';
import { deckOperation, verdicts, waitFor } from '../readers';

const MINUTE = 60_000;

const simWith = async (choices: Partial<ProfileChoices>) => await start({ seed: 31, clock: { manual: true }, choices, limits: { maxConcurrentDecks: 1_000 } });

describe('1. the word is wherever the record puts it', () => {
	test.each([
		['slidespeak', 'task_status', 'FAILURE'],
		['kling', 'data.task_status', 'failed'],
	] as const)('%s: a failed deck is Failed at the first read by every reader, and statusNote says the word was read from %s', async (service, path, word) => {
		const sim = await simWith({ service });
		try {
			const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: MINUTE, outcome: 'failed' });
			sim.control.advance(2 * MINUTE);
			const { status, routed, polls } = await verdicts(sim, taskId);
			expect(status).toMatchObject({ state: 'failed', failureReason: 'The deck could not be generated. Start a new deck.' });
			expect(status.statusNote).toContain(`(The word was read from ${path}.)`);
			expect(routed).toEqual({ checkOnce: 'failed', waitUntilDone: 'failed' });
			expect(polls.waitUntilDone).toBe(1);
			const { failed } = await waitFor(sim, [taskId], 'checkOnce');
			expect(failed[0]).toMatchObject({ status: word, detail: 'The deck could not be generated. Start a new deck.' });
		} finally {
			await sim.close();
		}
	});

	test('kling: the envelope\'s "SUCCEED" is about the request: a running deck is Still Running, a finished one Completed with its file', async () => {
		const sim = await simWith({ service: 'kling' });
		try {
			const running = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 100 * MINUTE, outcome: 'succeeded' });
			const done = sim.control.seedDeck({ key: sim.keys.personal, durationMs: MINUTE, outcome: 'succeeded' });
			sim.control.advance(30 * MINUTE);
			expect((await verdicts(sim, running)).routed).toEqual({ checkOnce: 'still running', waitUntilDone: 'still running' });
			const finished = await verdicts(sim, done);
			expect(finished.routed).toEqual({ checkOnce: 'completed', waitUntilDone: 'completed' });
			expect(finished.status).toMatchObject({ state: 'succeeded', deckUrl: expect.stringMatching(/\.pptx(\?|$)/) });
		} finally {
			await sim.close();
		}
	});
});

describe('2. a deck that ended without a deck ends now', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await simWith({ service: 'apify' });
	});
	afterAll(async () => await sim.close());

	test.each([
		['timeout', 'TIMED-OUT'],
		['aborted', 'ABORTED'],
	] as const)('a deck that %s (%s) is Failed at the first read by every reader, with the service\'s reason', async (failureKind, word) => {
		const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: MINUTE, outcome: 'failed', failureKind });
		sim.control.advance(2 * MINUTE);
		const { status, routed, polls } = await verdicts(sim, taskId);
		expect(status).toMatchObject({ state: 'failed', failureReason: expect.any(String) });
		expect(routed).toEqual({ checkOnce: 'failed', waitUntilDone: 'failed' });
		expect(polls).toEqual({ checkOnce: 1, waitUntilDone: 1 });
		const { failed } = await waitFor(sim, [taskId], 'checkOnce');
		expect(failed[0].status).toBe(word);
	});

	test.each([
		['timeout', 'TIMING-OUT'],
		['aborted', 'ABORTING'],
	] as const)('over-reach: a deck still ending (%s, %s) is Still Running for every reader', async (failureKind, word) => {
		const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 20 * MINUTE, outcome: 'failed', failureKind, endingMs: 5 * MINUTE });
		sim.control.advance(17 * MINUTE);
		const { status, routed } = await verdicts(sim, taskId);
		expect(status).toMatchObject({ state: 'running', status: word });
		expect(routed).toEqual({ checkOnce: 'still running', waitUntilDone: 'still running' });
	});
});

describe('2. a word that never changes is said early: the item, the note, the log and the output pane', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await start({ seed: 31, clock: { manual: true } });
		sim.control.setStatusWords({ queued: 'mulling', running: 'mulling' });
	});
	afterAll(async () => await sim.close());

	const LISTS = /add "mulling" to Running Status Words.*Failed Status Words.*Succeeded Status Words/;

	test('Wait Until Done: Still Running with the word, how long it kept coming, the lists that settle it; a warning in the log at the first read (issue 43); one hint for every deck', async () => {
		const taskIds = [1, 2].map(() => sim.control.seedDeck({ key: sim.keys.personal, durationMs: 600 * MINUTE, outcome: 'succeeded' }));
		const wait = await waitFor(sim, taskIds, 'waitUntilDone', 0.01);
		expect(wait.stillRunning).toHaveLength(2);
		for (const item of wait.stillRunning) {
			expect(item).toMatchObject({ status: 'mulling', state: 'unknown', outcome: 'still_running' });
			expect(item.statusNote).toMatch(/^The service kept sending "mulling" \(\d+ reads over \d+ s\), a word on no Status Words list: taken as still working\./);
			expect(item.statusNote).toMatch(LISTS);
		}
		expect(wait.logs.filter((line) => /Deck Generator Wait: deck tsk_\w+: The service said "mulling", a word on no Status Words list/.test(line))).toHaveLength(2);
		// once per deck: not again at every read
		expect(wait.logs.filter((line) => line.includes('"mulling"'))).toHaveLength(2);
		// (beside the hint that the workflow does not save its progress)
		const hints = wait.hints.filter((hint) => hint.includes('"mulling"'));
		expect(hints).toEqual([expect.stringMatching(/^The service kept sending "mulling" for 2 decks, a word on no Status Words list/)]);
		expect(hints[0]).toMatch(/add "mulling" to Running Status Words if it means still working, to Failed Status Words if the deck ended without a deck/);
	});

	test('Check Once and Get Status say it at once; a word put on a list is no longer said', async () => {
		const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 600 * MINUTE, outcome: 'succeeded' });
		const once = await waitFor(sim, [taskId], 'checkOnce');
		expect(once.stillRunning[0].statusNote).toMatch(LISTS);
		expect(once.hints).toEqual([expect.stringMatching(/"mulling" for one deck/)]);
		const status = await deckOperation(sim, 'get-status', taskId);
		expect(status.item).toMatchObject({ state: 'unknown', statusNote: expect.stringMatching(LISTS) });
		expect(status.hints).toEqual([expect.stringMatching(/"mulling" for one deck/)]);

		const settled = await waitFor(sim, [taskId], 'checkOnce', 0.02, { runningWords: 'mulling' });
		expect(settled.stillRunning[0]).toMatchObject({ state: 'running' });
		expect(settled.stillRunning[0]).not.toHaveProperty('statusNote');
		expect(settled.hints).toEqual([]);
	});
});

describe('3. a preview is not the deck', () => {
	test('replicate: previews in `output` while the deck is processing do not make it Completed for any reader', async () => {
		const sim = await simWith({ service: 'replicate' });
		try {
			const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 100 * MINUTE, outcome: 'succeeded' });
			sim.control.advance(85 * MINUTE);
			const { status, routed } = await verdicts(sim, taskId);
			expect((status.output as string[]).some((url) => /preview-\d+\.png/.test(url))).toBe(true);
			expect(status.state).toBe('running');
			expect(routed).toEqual({ checkOnce: 'still running', waitUntilDone: 'still running' });
		} finally {
			await sim.close();
		}
	});

	describe('a record with previews in `output` and a thumbnail (this profile, statusExtras)', () => {
		let sim: Simulator;
		beforeAll(async () => {
			sim = await simWith({
				statusExtras: (deck) =>
					deck.phase === 'running' || deck.phase === 'succeeded' ? { output: [deck.preview(1), deck.preview(2)], thumbnail_url: deck.preview(0) } : undefined,
			});
		});
		afterAll(async () => await sim.close());

		test('while the deck runs: no reader takes a preview for the deck', async () => {
			const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 100 * MINUTE, outcome: 'succeeded' });
			sim.control.advance(50 * MINUTE);
			const { status, routed } = await verdicts(sim, taskId);
			expect(['running', 'unknown']).toContain(status.state);
			// (profile B's record links the app's page: deckUrl may name it, never a preview)
			expect(String(status.deckUrl ?? '')).not.toMatch(/preview|\.png/);
			expect(routed).toEqual({ checkOnce: 'still running', waitUntilDone: 'still running' });
			expect((await deckOperation(sim, 'download', taskId)).success).toEqual([]);
		});

		test('over-reach: a finished deck with previews beside its file is Completed, deckUrl the file, and Download fetches the deck, not an image', async () => {
			const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: MINUTE, outcome: 'succeeded' });
			sim.control.advance(2 * MINUTE);
			const { status, routed, polls } = await verdicts(sim, taskId);
			expect(status).toMatchObject({ state: 'succeeded', deckUrl: expect.stringMatching(/\/files\/deck\.pptx$|deck-.*\.pptx/) });
			expect(routed).toEqual({ checkOnce: 'completed', waitUntilDone: 'completed' });
			expect(polls.waitUntilDone).toBe(1);
			const download = await deckOperation(sim, 'download', taskId);
			const bytes = Buffer.from(download.success[0].binary!.data.data, 'base64');
			expect(readDeckFile(bytes)).toMatchObject({ format: 'pptx', presentation: expect.stringContaining(taskId) });
			expect(download.item.fileName).toMatch(/\.pptx$/);
		});
	});
});

describe('4. no single member overrules the rest', () => {
	test.each<[string, Record<string, unknown>]>([
		['a progress that stopped at 99', { progress: 99 }],
		['a progress that stopped at 0.99 (a fraction)', { progress: 0.99 }],
		['an empty error object', { error: { code: 0, message: '' } }],
		['an error written as None', { error: 'None', error_code: 0 }],
		['a warning', { warnings: ['A font was substituted.'] }],
	])('a finished deck with %s is Completed by every reader at the first read', async (_, extras) => {
		const sim = await simWith({ statusExtras: (deck) => (deck.phase === 'succeeded' ? extras : undefined) });
		try {
			const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: MINUTE, outcome: 'succeeded' });
			sim.control.advance(2 * MINUTE);
			const { status, routed, polls } = await verdicts(sim, taskId);
			expect(status).toMatchObject({ state: 'succeeded', deckUrl: expect.any(String) });
			expect(routed).toEqual({ checkOnce: 'completed', waitUntilDone: 'completed' });
			expect(polls.waitUntilDone).toBe(1);
		} finally {
			await sim.close();
		}
	});

	test('runway: a finished deck whose fraction of progress stayed at 0.99 is Completed', async () => {
		const sim = await simWith({ service: 'runway', statusExtras: (deck) => (deck.phase === 'succeeded' ? { progress: 0.99 } : undefined) });
		try {
			const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: MINUTE, outcome: 'succeeded' });
			sim.control.advance(2 * MINUTE);
			const { status, routed } = await verdicts(sim, taskId);
			expect(status).toMatchObject({ state: 'succeeded', statusNote: expect.stringContaining('progress: 0.99') });
			expect(routed).toEqual({ checkOnce: 'completed', waitUntilDone: 'completed' });
		} finally {
			await sim.close();
		}
	});

	test('over-reach: a failure member with content still fails a deck with nothing to hand over, and a success word alone is still not believed', async () => {
		const sim = await simWith({});
		try {
			sim.control.setStatusWords({ failed: 'completed', running: 'done', queued: 'done' });
			const failed = sim.control.seedDeck({ key: sim.keys.personal, durationMs: MINUTE, outcome: 'failed' });
			const running = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 600 * MINUTE, outcome: 'succeeded' });
			sim.control.advance(2 * MINUTE);
			expect((await verdicts(sim, failed)).routed).toEqual({ checkOnce: 'failed', waitUntilDone: 'failed' });
			expect((await verdicts(sim, running)).routed).toEqual({ checkOnce: 'still running', waitUntilDone: 'still running' });
		} finally {
			await sim.close();
		}
	});
});
