/**
 * Download File on the Wait node (issue 8, point 6): a Completed item carries the deck's file as
 * binary data for Email and Slack nodes, in both modes, wherever the service put the link and
 * whichever origin it points to; a failed download never loses the finished deck.
 */
import { stateOf } from '../../../nodes/shared/status';
import { readDeckFile, start, type Simulator } from '../../simulator';
import { runWait } from './run';

const MINUTE = 60_000;

describe('Deck Generator Wait: Download File', () => {
	let sim: Simulator;
	beforeEach(async () => {
		sim = await start({ seed: 15, clock: { speed: 1_000 }, deckFileBytes: 2048 });
	});
	afterEach(async () => {
		await sim.close();
	});

	test('each completed deck arrives with its file under the binary property; the key never left the API origin', async () => {
		const a = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 2 * MINUTE, outcome: 'succeeded' });
		const failed = sim.control.seedDeck({ key: sim.keys.personal, durationMs: MINUTE, outcome: 'failed' });
		const { completed, failed: failedItems } = await runWait('download', sim, [{ taskId: a }, { taskId: failed }]);

		expect(completed).toHaveLength(1);
		const [item] = completed;
		expect(item.json).toMatchObject({ taskId: a, deckUrl: expect.stringContaining(a), fileName: `deck-${a}-v1.pptx`, fileSize: 2048 });
		const bytes = Buffer.from(item.binary!.data.data, 'base64');
		expect(bytes.length).toBe(2048);
		// the deck's PPTX by its own structure: a ZIP whose central directory names the presentation, naming the deck
		const pptx = readDeckFile(bytes);
		expect(pptx).toMatchObject({ format: 'pptx', entries: expect.arrayContaining(['ppt/presentation.xml']) });
		expect(pptx.format === 'pptx' && pptx.presentation).toContain(a);
		expect(item.binary!.data).toMatchObject({ fileName: `deck-${a}-v1.pptx`, mimeType: 'application/vnd.openxmlformats-officedocument.presentationml.presentation' });
		// A failed deck has nothing to download.
		expect(failedItems[0].binary).toBeUndefined();
		expect(sim.storage.requests.every((r) => !r.authorization)).toBe(true);
	});

	test('links given as paths on the service are resolved on the Base URL, and the file comes down with the key', async () => {
		await sim.close();
		sim = await start({ seed: 16, clock: { speed: 1_000 }, deckFileBytes: 1536, choices: { fileLinks: 'api-relative', resultLinks: 'files', statusLinks: 'none' } });
		const a = sim.control.seedDeck({ key: sim.keys.personal, durationMs: MINUTE, outcome: 'succeeded' });
		const { completed } = await runWait('download', sim, [{ taskId: a }]);
		expect(completed).toHaveLength(1);
		expect(completed[0].json).toMatchObject({ taskId: a, deckUrl: `${sim.url}/v1/decks/${a}/files/deck.pptx`, fileSize: 1536 });
		expect(completed[0].json.links).toContainEqual({ path: 'files.pdf', url: `${sim.url}/v1/decks/${a}/files/deck.pdf`, kind: 'file' });
		expect(readDeckFile(Buffer.from(completed[0].binary!.data.data, 'base64')).format).toBe('pptx');
	});

	test('a download that fails keeps the item on Completed with downloadError; a link that gives something else than the deck is not the deck', async () => {
		await sim.close();
		// a sign-in page served at the deck's file address (a misconfigured CDN), with the service's success word
		sim = await start({ seed: 17, clock: { speed: 1_000 }, deckFileBytes: 2048, choices: { fileContent: 'html' } });
		const a = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 0, outcome: 'succeeded' });
		const { completed, stillRunning } = await runWait('download-check-once', sim, [{ taskId: a }]);
		if (stateOf(sim.profile.statusWords.succeeded) !== 'succeeded') {
			// a finished word on no list (profile D) is believed only once its file is there and is a deck: it is not
			expect(stillRunning[0].json).toMatchObject({ taskId: a, statusNote: expect.stringContaining('(the link gives an HTML page, not a deck): still checking') });
			return;
		}
		expect(completed).toHaveLength(1);
		expect(completed[0].json).toMatchObject({ taskId: a, downloadError: { message: expect.stringMatching(/is an HTML page, not the deck$/) } });
		expect(completed[0].json).not.toHaveProperty('deckUrl');
		expect(completed[0].binary).toBeUndefined();
	});

	test('the size cap applies', async () => {
		sim.control.setDeckFileBytes(3 * 1024 * 1024);
		const a = sim.control.seedDeck({ key: sim.keys.personal, durationMs: MINUTE, outcome: 'succeeded' });
		const { completed } = await runWait('download', sim, [{ taskId: a, maxMb: 1, property: 'deck' }]);
		expect(completed[0].json).toMatchObject({ downloadError: { message: expect.stringMatching(/above Max Download Size/) } });
	});

	test('Check Once downloads too', async () => {
		const a = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 0, outcome: 'succeeded' });
		const running = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 60 * MINUTE });
		const { completed, stillRunning } = await runWait('download-check-once', sim, [{ taskId: a, property: 'deck' }, { taskId: running }]);
		expect(Buffer.from(completed[0].binary!.deck.data, 'base64').length).toBe(2048);
		expect(stillRunning[0].binary).toBeUndefined();
	});
});
