/**
 * Issue 39, the last mile: a record inside a JSON string (kie.ai's `resultJson`), the word under a member no list
 * names (Transloadit's `ok`), and a path a user can set for each reading (Status Word Path, File Link Path,
 * Failure Reason Path) that is believed over the built-in search and says so when it matches nothing. Every
 * reader (Get Status, Download, both Wait modes, the AI tools) against the simulator's real shapes over HTTP,
 * each with its over-reach side: prose that happens to hold a state word is not the state, a JSON string that
 * does not parse is only text, and the built-in reading stands where no path is set.
 */
import { readDeckFile, start, type ProfileChoices, type Simulator } from '../../simulator';
import { askTools, deckOperation, verdicts, waitFor } from '../readers';

const MINUTE = 60_000;

const simWith = async (choices: Partial<ProfileChoices>) => await start({ seed: 39, clock: { manual: true }, deckFileBytes: 2048, choices, limits: { maxConcurrentDecks: 1_000 } });

describe('a record inside a JSON string (kie.ai: `data.resultJson` holds the file links)', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await simWith({ service: 'kieai' });
	});
	afterAll(async () => await sim.close());

	test('a finished deck is Completed at the first read by every reader, deckUrl the pptx inside the string; Download fetches it', async () => {
		const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: MINUTE, outcome: 'succeeded' });
		sim.control.advance(2 * MINUTE);
		const { status, routed, polls } = await verdicts(sim, taskId);
		expect(status).toMatchObject({ state: 'succeeded', deckUrl: expect.stringMatching(/\.pptx(\?|$)/) });
		// the service's members pass through as sent: the string stays a string; our links reach into it
		expect(typeof status.resultJson).toBe('string');
		expect(status.links).toEqual(expect.arrayContaining([expect.objectContaining({ path: 'resultJson.resultUrls[0]', kind: 'deck' })]));
		expect(routed).toEqual({ checkOnce: 'completed', waitUntilDone: 'completed' });
		expect(polls.waitUntilDone).toBe(1);
		for (const answer of Object.values(await askTools(sim, taskId))) expect(answer).toMatchObject({ state: 'succeeded', deckUrl: status.deckUrl });
		const download = await deckOperation(sim, 'download', taskId);
		expect(readDeckFile(Buffer.from(download.success[0].binary!.data.data, 'base64')).format).toBe('pptx');
	});

	test('over-reach: a running deck whose request (another JSON string) links its input document is not Completed, and that link is no deckUrl', async () => {
		const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 100 * MINUTE, outcome: 'succeeded' });
		sim.control.advance(50 * MINUTE);
		const { status, routed } = await verdicts(sim, taskId);
		expect(status).toMatchObject({ state: 'running', statusWord: 'generating', serviceState: 'generating' });
		expect(status).not.toHaveProperty('deckUrl');
		expect(status.links).toEqual(expect.arrayContaining([expect.objectContaining({ path: 'param.input.document_url', kind: 'file' })]));
		expect(routed).toEqual({ checkOnce: 'still running', waitUntilDone: 'still running' });
	});

	test('a failed deck says why (failMsg) in every reader', async () => {
		const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: MINUTE, outcome: 'failed', failureKind: 'moderated' });
		sim.control.advance(2 * MINUTE);
		const { status, routed, items } = await verdicts(sim, taskId);
		expect(status).toMatchObject({ state: 'failed', failureReason: 'The brief was refused by content moderation.' });
		expect(routed).toEqual({ checkOnce: 'failed', waitUntilDone: 'failed' });
		expect(items.checkOnce).toMatchObject({ error: `Deck ${taskId} failed (status "fail"): The brief was refused by content moderation.`, detail: 'The brief was refused by content moderation.' });
		for (const answer of Object.values(await askTools(sim, taskId))) expect(answer.message).toMatch(/failed \(status "fail"\): The brief was refused by content moderation/);
	});
});

describe('the word under a member no list names (Transloadit: `ok`)', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await simWith({ service: 'transloadit' });
	});
	afterAll(async () => await sim.close());

	test('a cancelled job with no error member is Failed at the first read by every reader, the note saying where the word was', async () => {
		const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: MINUTE, outcome: 'failed', failureKind: 'cancelled' });
		sim.control.advance(2 * MINUTE);
		const { status, routed, polls } = await verdicts(sim, taskId);
		expect(status).toMatchObject({ state: 'failed', statusWord: 'ASSEMBLY_CANCELED', failureReason: 'The Assembly was canceled.' });
		expect(status.statusNote).toBe('(The word was read from ok.)');
		expect(routed).toEqual({ checkOnce: 'failed', waitUntilDone: 'failed' });
		expect(polls.waitUntilDone).toBe(1);
	});

	test('a running job is running, never a word on no list, and its message (prose) is not the state', async () => {
		const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 100 * MINUTE, outcome: 'succeeded' });
		sim.control.advance(50 * MINUTE);
		const { status, routed } = await verdicts(sim, taskId);
		expect(status).toMatchObject({ state: 'running', statusNote: '(The word was read from ok.)' });
		expect(routed).toEqual({ checkOnce: 'still running', waitUntilDone: 'still running' });
		// the user's own list now reaches that word too: "a Failed Status Words list that changes nothing" no more
		const listed = await verdicts(sim, taskId, { failedWords: 'ASSEMBLY_EXECUTING' });
		expect(listed.routed).toEqual({ checkOnce: 'failed', waitUntilDone: 'failed' });
	});

	test('a finished job is Completed with its export as deckUrl (never a thumbnail or the upload)', async () => {
		const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: MINUTE, outcome: 'succeeded' });
		sim.control.advance(2 * MINUTE);
		const { status, routed } = await verdicts(sim, taskId);
		expect(status).toMatchObject({ state: 'succeeded', deckUrl: expect.stringMatching(/\.pptx(\?|$)/), previewUrl: expect.stringMatching(/\.png(\?|$)/) });
		expect(routed).toEqual({ checkOnce: 'completed', waitUntilDone: 'completed' });
	});
});

describe('a path for each reading, set in the panel (Status Word Path, File Link Path, Failure Reason Path)', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await simWith({ service: 'kieai' });
	});
	afterAll(async () => await sim.close());

	const paths = { statusWordPath: 'data.state', downloadLink: 'data.resultJson.resultUrls[1]', failureReasonPath: 'data.failCode' };

	test('a set path is believed over the built-in search: File Link Path through a JSON string picks the pdf for deckUrl and every download', async () => {
		const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: MINUTE, outcome: 'succeeded' });
		sim.control.advance(2 * MINUTE);
		const { status, routed } = await verdicts(sim, taskId, paths);
		expect(status).toMatchObject({ state: 'succeeded', deckUrl: expect.stringMatching(/\.pdf(\?|$)/) });
		expect(routed).toEqual({ checkOnce: 'completed', waitUntilDone: 'completed' });
		for (const answer of Object.values(await askTools(sim, taskId, paths))) expect(answer.deckUrl).toBe(status.deckUrl);
		const download = await deckOperation(sim, 'download', taskId, paths);
		expect(readDeckFile(Buffer.from(download.success[0].binary!.data.data, 'base64')).format).toBe('pdf');
		const wait = await waitFor(sim, [taskId], 'checkOnce', undefined, { ...paths, downloadFile: true });
		expect(readDeckFile(Buffer.from(wait.binaries[0]!.data.data, 'base64')).format).toBe('pdf');
	});

	test('Failure Reason Path: the text there is the failed item\'s reason', async () => {
		const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: MINUTE, outcome: 'failed' });
		sim.control.advance(2 * MINUTE);
		const { status, items } = await verdicts(sim, taskId, paths);
		expect(status).toMatchObject({ state: 'failed', failureReason: '501' });
		expect(items.waitUntilDone).toMatchObject({ detail: '501', failureReason: '501' });
	});

	test('a path that matches nothing says so, naming the members the record has: in statusNote, the output pane and (waiting) the log', async () => {
		const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: MINUTE, outcome: 'succeeded' });
		sim.control.advance(2 * MINUTE);
		const missed = { statusWordPath: 'data.stat' };
		const status = await deckOperation(sim, 'get-status', taskId, missed);
		expect(status.item.statusNote).toContain('Status Word Path "data.stat" matches nothing in this record; its members: code, msg, taskId, model, state, param, resultJson,');
		expect(status.hints).toEqual(expect.arrayContaining([expect.stringMatching(/^Status Word Path "data\.stat" matched nothing in the status of one deck\. The record has: code, msg, taskId, model, state/)]));
		const wait = await waitFor(sim, [taskId], 'waitUntilDone', 0.01, missed);
		expect(wait.hints).toEqual(expect.arrayContaining([expect.stringMatching(/^Status Word Path "data\.stat" matched nothing/)]));
		expect(wait.logs.some((line) => line.includes(`deck ${taskId}: Status Word Path "data.stat" matches nothing`))).toBe(true);
	});

	test('over-reach: with no path set the built-in reading stands (the same record, the pptx)', async () => {
		const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: MINUTE, outcome: 'succeeded' });
		sim.control.advance(2 * MINUTE);
		expect((await deckOperation(sim, 'get-status', taskId)).item).toMatchObject({ state: 'succeeded', deckUrl: expect.stringMatching(/\.pptx(\?|$)/) });
	});
});
