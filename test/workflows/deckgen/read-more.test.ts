/**
 * Issue 50, part B, in every reader (Get Status, Download, both Wait modes, the AI tools) over HTTP against the
 * simulator, for the readings no modelled service's own shape carries whole (the shapes that do, Coconut's dotted
 * words, Intercom's 504, Higgsfield's `nsfw`, run in real-services.test.ts): a failure under the answer's data
 * wrapper when the record has no word (B7), a numeric error flag beside its description (B11), a member named
 * after the deck's id with a wildcard path (B10, B12), a deck completed by its file whose word is on no list
 * (B13), and a signed link in a suggestion (B14). Each with its over-reach side: a running deck stays running.
 */
import { start, type ProfileChoices, type Simulator } from '../../simulator';
import { askTools, deckOperation, verdicts, waitFor } from '../readers';

const MINUTE = 60_000;

const simWith = async (choices: Partial<ProfileChoices>) => await start({ seed: 50, clock: { manual: true }, choices, limits: { maxConcurrentDecks: 1_000 } });

const seed = (sim: Simulator, outcome: 'succeeded' | 'failed', durationMs = MINUTE) => sim.control.seedDeck({ key: sim.keys.personal, durationMs, outcome, failureKind: 'moderated' });
const MODERATED = 'The brief was refused by content moderation.';

describe('B7: a failure with no word, under the answer’s data wrapper (HeyGen’s {code, data: {error}, message} without its word)', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await simWith({ service: 'heygen', omitStatusWord: true });
	});
	afterAll(async () => await sim.close());

	test('a failed deck is Failed with data.error’s reason at the first read by every reader', async () => {
		const taskId = seed(sim, 'failed');
		sim.control.advance(2 * MINUTE);
		const { status, routed, polls, items } = await verdicts(sim, taskId);
		expect(status).toMatchObject({ state: 'failed', failureReason: MODERATED });
		expect(status).not.toHaveProperty('statusWord');
		expect({ routed, polls }).toEqual({ routed: { checkOnce: 'failed', waitUntilDone: 'failed' }, polls: { checkOnce: 1, waitUntilDone: 1 } });
		expect(items.waitUntilDone).toMatchObject({ detail: MODERATED });
		for (const answer of Object.values(await askTools(sim, taskId))) expect(String(answer.message)).toContain(MODERATED);
		expect((await deckOperation(sim, 'download', taskId)).success).toEqual([]);
	});

	test('over-reach: a running deck (data.error null) is never Failed', async () => {
		const taskId = seed(sim, 'succeeded', 100 * MINUTE);
		sim.control.advance(40 * MINUTE);
		const { status, routed } = await verdicts(sim, taskId);
		expect(status.state).not.toBe('failed');
		expect(routed).toEqual({ checkOnce: 'still running', waitUntilDone: 'still running' });
		for (const answer of Object.values(await askTools(sim, taskId))) expect(String(answer.message)).not.toMatch(/failed/);
	});
});

describe('B11: a numeric error flag beside its description (error: 1, error_description)', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await simWith({
			statusExtras: (deck) => (deck.phase === 'failed' ? { error: 1, error_description: MODERATED } : { error: 0, error_description: '' }),
		});
	});
	afterAll(async () => await sim.close());

	test('the description is the reason in every reader, never "1"', async () => {
		const taskId = seed(sim, 'failed');
		sim.control.advance(2 * MINUTE);
		const { status, routed, items } = await verdicts(sim, taskId);
		expect(status).toMatchObject({ state: 'failed', failureReason: MODERATED });
		expect(routed).toEqual({ checkOnce: 'failed', waitUntilDone: 'failed' });
		expect(items.checkOnce).toMatchObject({ detail: MODERATED });
		for (const answer of Object.values(await askTools(sim, taskId))) expect(String(answer.message)).toContain(MODERATED);
	});

	test('over-reach: error: 0 beside an empty description fails nothing', async () => {
		const taskId = seed(sim, 'succeeded', 100 * MINUTE);
		sim.control.advance(40 * MINUTE);
		const { status, routed } = await verdicts(sim, taskId);
		expect(status.state).toBe('running');
		expect(routed).toEqual({ checkOnce: 'still running', waitUntilDone: 'still running' });
	});
});

describe('B10, B12: a record under a member named after the deck’s id (statuses.<id>)', () => {
	let sim: Simulator;
	const word = (phase: string) => (phase === 'succeeded' ? 'COMPLETED' : phase === 'failed' ? 'FAILED' : 'BAKING');
	beforeAll(async () => {
		sim = await simWith({
			omitStatusWord: true,
			statusExtras: (deck) => ({ statuses: { [deck.taskId]: { status: word(deck.phase), videos: deck.phase === 'succeeded' ? [{ url: deck.pdf() }] : [] } } }),
		});
	});
	afterAll(async () => await sim.close());

	test('the first read suggests statuses.*.status; that one path reads every deck in every reader', async () => {
		const running = seed(sim, 'succeeded', 100 * MINUTE);
		sim.control.advance(40 * MINUTE);
		const first = await deckOperation(sim, 'get-status', running);
		expect(first.item.statusNote).toContain('Status Word Path `statuses.*.status` is "BAKING"');
		expect(first.hints.join(' ')).toContain('`statuses.*.status`');

		const options = { statusWordPath: 'statuses.*.status', runningWords: 'baking' };
		const failed = seed(sim, 'failed');
		sim.control.advance(2 * MINUTE);
		const failedVerdict = await verdicts(sim, failed, options);
		expect({ state: failedVerdict.status.state, word: failedVerdict.status.statusWord, routed: failedVerdict.routed }).toEqual({ state: 'failed', word: 'FAILED', routed: { checkOnce: 'failed', waitUntilDone: 'failed' } });
		const stillRunning = await verdicts(sim, running, options);
		expect({ state: stillRunning.status.state, routed: stillRunning.routed }).toEqual({ state: 'running', routed: { checkOnce: 'still running', waitUntilDone: 'still running' } });
		for (const answer of Object.values(await askTools(sim, running, options))) expect(answer.state ?? answer.outcome).toMatch(/running/);
	});

	test('a finished deck’s link under statuses.<id>.videos[0].url is a file of the record, not an API address; the deck Completed', async () => {
		const taskId = seed(sim, 'succeeded');
		sim.control.advance(2 * MINUTE);
		const { status, routed } = await verdicts(sim, taskId, { statusWordPath: 'statuses.*.status' });
		expect(status.state).toBe('succeeded');
		expect(routed).toEqual({ checkOnce: 'completed', waitUntilDone: 'completed' });
		const links = status.links as Array<{ path: string; kind: string }>;
		// (the pdf here, beside the pptx the record gives as deckUrl)
		expect(links.find((link) => link.path === `statuses.${taskId}.videos[0].url`)?.kind).toBe('file');
	});
});

describe('B13: a deck completed by its file, whose record has a word on no list two envelopes down', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await simWith({ omitStatusWord: true, statusExtras: (deck) => ({ result: { default: { status: deck.phase === 'succeeded' ? 'wrapped_up' : 'baking' } } }) });
	});
	afterAll(async () => await sim.close());

	test('every reader completes it and says the word and its path, never "no status word"', async () => {
		const taskId = seed(sim, 'succeeded');
		sim.control.advance(2 * MINUTE);
		const { status, routed, items } = await verdicts(sim, taskId);
		expect(status.state).toBe('succeeded');
		expect(routed).toEqual({ checkOnce: 'completed', waitUntilDone: 'completed' });
		for (const item of [status, items.checkOnce, items.waitUntilDone]) {
			expect(String(item?.statusNote)).toContain('"wrapped_up" at result.default.status');
			expect(String(item?.statusNote)).not.toContain('no status word');
		}
	});

	test('over-reach: a running deck with its word on no list stays running, and its note says that word too', async () => {
		const taskId = seed(sim, 'succeeded', 100 * MINUTE);
		sim.control.advance(40 * MINUTE);
		const { status, routed } = await verdicts(sim, taskId);
		expect(['running', 'unknown']).toContain(status.state);
		expect(routed).toEqual({ checkOnce: 'still running', waitUntilDone: 'still running' });
		expect(String(status.statusNote)).toContain('"baking" at result.default.status');
	});
});

describe('B14: a signed link in a suggestion', () => {
	let sim: Simulator;
	const SIGNED = 'https://archive.deckgen.example/jobs/1/archive?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAEXAMPLE&X-Amz-Signature=0123456789abcdef';
	beforeAll(async () => {
		sim = await simWith({ omitStatusWord: true, statusExtras: () => ({ archive: SIGNED }) });
	});
	afterAll(async () => await sim.close());

	test('statusNote, the output pane and the log show it without its query', async () => {
		const taskId = seed(sim, 'succeeded', 100 * MINUTE);
		sim.control.advance(40 * MINUTE);
		const status = await deckOperation(sim, 'get-status', taskId);
		expect(status.item.statusNote).toContain('File Link Path `archive` is "https://archive.deckgen.example/jobs/1/archive"');
		const wait = await waitFor(sim, [taskId], 'waitUntilDone');
		const said = [String(status.item.statusNote), ...status.hints, String(wait.stillRunning[0].statusNote), ...wait.hints, JSON.stringify(wait.logs)];
		for (const text of said) expect(text).not.toMatch(/X-Amz-Signature|X-Amz-Credential/);
	});
});
