/**
 * Issue 37, class 1: a link to the file is not the file. Real APIs put the file's future address in the record
 * from the first answer (Creatomate: the URL "is always present", the file "only available after the render
 * has succeeded"), so a link under a word that is no success word is believed only once the file is there and
 * is a deck: a ranged GET of its first bytes, under the download's rules. Every reader (Get Status, Download,
 * both Wait modes, the AI tools) against the simulator's Creatomate shape over real HTTP, in both directions:
 * a running deck whose link answers 404 is not Completed (nor the failing one), a finished deck is Completed at
 * the first read that sees it without an extra request, a running word whose file is already there still
 * follows the contract's warning (Completed), and what is not a deck (a sign-in page, an image, a storage
 * error) is never the deck, neither to the judgement nor when downloaded.
 */
import { readDeckFile, start, type ProfileChoices, type Simulator } from '../../simulator';
import { askTools, deckOperation, verdicts, waitFor } from '../readers';

const MINUTE = 60_000;

const simWith = async (choices: Partial<ProfileChoices>) =>
	await start({ seed: 37, clock: { manual: true }, deckFileBytes: 2048, choices: { service: 'creatomate', ...choices }, limits: { maxConcurrentDecks: 1_000 } });

/** The deck's file requests the nodes made: on the API's own file endpoint, or on the storage (the profile's `fileLinks`). */
const fileReads = (sim: Simulator, taskId: string) => [...sim.fileRequests, ...sim.storage.requests].filter((request) => request.path.includes(taskId));

/** The deck's PPTX link, as the profile gives it (the API's `deck.pptx`, or a presigned `deck-<taskId>-v1.pptx`). */
const PPTX_LINK = /deck[^/]*\.pptx(\?|$)/;

describe('a link before its file (the file host answers 404 until the deck is done)', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await simWith({ fileWhileRunning: 'missing' });
	});
	afterAll(async () => await sim.close());

	test('a running deck is not Completed by any reader, and says why; its future link is no deckUrl', async () => {
		const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 100 * MINUTE, outcome: 'succeeded' });
		sim.control.advance(50 * MINUTE);
		const { status, routed, items } = await verdicts(sim, taskId);
		expect(status).toMatchObject({ state: 'running', status: 'rendering' });
		expect(status.statusNote).toBe("The record links the deck's file (url), but the file is not there yet (the file host answered 404): still checking.");
		expect(status).not.toHaveProperty('deckUrl');
		expect(status.links).toEqual([expect.objectContaining({ path: 'url', kind: 'file' })]);
		expect(routed).toEqual({ checkOnce: 'still running', waitUntilDone: 'still running' });
		expect(items.waitUntilDone).not.toHaveProperty('deckUrl');
		for (const answer of Object.values(await askTools(sim, taskId))) {
			expect(answer).toMatchObject({ state: 'running', message: expect.stringMatching(/is still being generated/) });
		}
		const download = await deckOperation(sim, 'download', taskId);
		expect(download.success).toEqual([]);
		expect(download.error.error).toMatchObject({ message: expect.stringMatching(/is not finished \(status "rendering"; its file: the file host answered 404\); nothing to download yet$/) });
		// each check is a ranged GET of the first bytes, never a download
		expect(fileReads(sim, taskId).length).toBeGreaterThan(0);
		expect(fileReads(sim, taskId).every((request) => request.method === 'GET' && request.range === 'bytes=0-4095' && request.status === 404)).toBe(true);
	});

	test('Wait Until Done checks the file again only when the record changes or a minute has passed, not at every read', async () => {
		const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 100 * MINUTE, outcome: 'succeeded' });
		sim.control.advance(50 * MINUTE);
		const before = fileReads(sim, taskId).length;
		const { stillRunning } = await waitFor(sim, [taskId], 'waitUntilDone', 0.02);
		expect(stillRunning[0].polls as number).toBeGreaterThanOrEqual(10);
		expect(fileReads(sim, taskId).length - before).toBe(1);
	});

	test('the failing deck too: Failed at the first read after it ended, by every reader, with its reason', async () => {
		const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: MINUTE, outcome: 'failed' });
		sim.control.advance(2 * MINUTE);
		const { status, routed, polls, items } = await verdicts(sim, taskId);
		expect(status).toMatchObject({ state: 'failed', failureReason: 'The deck could not be generated. Start a new deck.' });
		expect(status).not.toHaveProperty('deckUrl');
		expect(routed).toEqual({ checkOnce: 'failed', waitUntilDone: 'failed' });
		expect(polls.waitUntilDone).toBe(1);
		expect(items.checkOnce).toMatchObject({ error: expect.stringMatching(/failed \(status "failed"\): The deck could not be generated/), failureReason: 'The deck could not be generated. Start a new deck.' });
		for (const answer of Object.values(await askTools(sim, taskId))) expect(answer.message).toMatch(/failed \(status "failed"\): The deck could not be generated/);
	});

	test('over-reach: a finished deck is Completed at the first read that sees it, its success word and file agreeing at no extra request', async () => {
		const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: MINUTE, outcome: 'succeeded' });
		sim.control.advance(2 * MINUTE);
		const { status, routed, polls } = await verdicts(sim, taskId);
		expect(status).toMatchObject({ state: 'succeeded', deckUrl: expect.stringMatching(PPTX_LINK) });
		expect(status).not.toHaveProperty('statusNote');
		expect(routed).toEqual({ checkOnce: 'completed', waitUntilDone: 'completed' });
		expect(polls).toEqual({ checkOnce: 1, waitUntilDone: 1 });
		expect(fileReads(sim, taskId)).toEqual([]);
		const download = await deckOperation(sim, 'download', taskId);
		expect(readDeckFile(Buffer.from(download.success[0].binary!.data.data, 'base64')).format).toBe('pptx');
	});
});

describe("over-reach: a running word whose file is already there (the contract's warning: a word may read as its opposite)", () => {
	test('is Completed by every reader at the first read, and the note says the file was there', async () => {
		const sim = await simWith({ fileWhileRunning: 'ready' });
		try {
			const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 100 * MINUTE, outcome: 'succeeded' });
			sim.control.advance(50 * MINUTE);
			const { status, routed, polls } = await verdicts(sim, taskId);
			expect(status).toMatchObject({ state: 'succeeded', status: 'rendering', deckUrl: expect.stringMatching(PPTX_LINK) });
			expect(status.statusNote).toBe(
				'The service said "rendering", but the record has the deck to hand over (url), and its file is there: reported as completed. To believe the word instead, add "rendering" to Running Status Words.',
			);
			expect(routed).toEqual({ checkOnce: 'completed', waitUntilDone: 'completed' });
			expect(polls.waitUntilDone).toBe(1);
			for (const answer of Object.values(await askTools(sim, taskId))) expect(answer).toMatchObject({ state: 'succeeded', deckUrl: status.deckUrl });
			// and the person who knows the word means still working says so: the list decides
			expect((await verdicts(sim, taskId, { runningWords: 'rendering, waiting, transcribing, planned' })).routed).toEqual({ checkOnce: 'still running', waitUntilDone: 'still running' });
		} finally {
			await sim.close();
		}
	});
});

describe('what is not a deck is never the deck', () => {
	test.each([
		['html', 'an HTML page'],
		['image', 'an image (PNG)'],
		['xml-error', 'an XML error (NoSuchKey)'],
	] as const)('served at the link of a running deck (%s): not Completed, and the note names what the link gave', async (fileContent, what) => {
		const sim = await simWith({ fileWhileRunning: 'ready', fileContent });
		try {
			const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 100 * MINUTE, outcome: 'succeeded' });
			sim.control.advance(50 * MINUTE);
			const { status, routed } = await verdicts(sim, taskId);
			expect(status).toMatchObject({ state: 'running', statusNote: `The record links the deck's file (url), but the file is not there yet (the link gives ${what}, not a deck): still checking.` });
			expect(routed).toEqual({ checkOnce: 'still running', waitUntilDone: 'still running' });
		} finally {
			await sim.close();
		}
	});

	test('served at the link of a finished deck: Download refuses it, and Download File hands nothing over as the deck', async () => {
		const sim = await simWith({ fileContent: 'html' });
		try {
			const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: MINUTE, outcome: 'succeeded' });
			sim.control.advance(2 * MINUTE);
			const download = await deckOperation(sim, 'download', taskId);
			expect(download.success).toEqual([]);
			expect(download.error.error).toMatchObject({ message: expect.stringMatching(/\.pptx is an HTML page, not the deck$/) });
			const wait = await waitFor(sim, [taskId], 'checkOnce', undefined, { downloadFile: true });
			expect(wait.completed).toEqual([expect.objectContaining({ taskId, downloadError: expect.objectContaining({ message: expect.stringMatching(/is an HTML page, not the deck$/) }) })]);
			expect(wait.completed[0]).not.toHaveProperty('deckUrl');
			expect(wait.binaries[0]).toBeUndefined();
		} finally {
			await sim.close();
		}
	});
});
