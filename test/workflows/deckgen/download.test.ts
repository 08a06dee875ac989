/**
 * The finished deck as a file (issue 8, point 6): Get Status adds `links` and `deckUrl` wherever
 * the service put its links, Deck → Download fetches the file as n8n binary data, and the API key
 * goes only to the Base URL's own origin: never to presigned storage, never across a redirect.
 */
import { stateOf } from '../../../nodes/shared/status';
import { readDeckFile, start, type ResultLinks, type Simulator } from '../../simulator';
import { continueErrorOutput, jsonOf, loadWorkflow, runWith } from './fixture';

const MINUTE = 60_000;

/**
 * What the simulator serves for a deck file, by its own structure: a PPTX is a ZIP whose central directory names
 * the package's parts and whose presentation names the deck; a PDF starts with `%PDF-` and names the deck.
 */
function expectDeckFile(data: string, taskId: string, format: 'pptx' | 'pdf', size: number): void {
	const bytes = Buffer.from(data, 'base64');
	expect(bytes.length).toBe(size);
	const reading = readDeckFile(bytes);
	if (format === 'pptx') {
		expect(reading).toMatchObject({ format: 'pptx', entries: ['[Content_Types].xml', '_rels/.rels', 'ppt/presentation.xml'] });
		expect(reading.format === 'pptx' && reading.presentation).toContain(taskId);
	} else {
		expect(reading).toEqual({ format: 'pdf', version: '1.7' });
		expect(bytes.toString('latin1')).toContain(taskId);
	}
}

/** Requests the simulator's API got for deck files, with whether they were authenticated. */
function apiFileReads(sim: Simulator) {
	return sim.ledger.requests.filter((r) => /\/files\//.test(r.path));
}

async function doneDeck(sim: Simulator): Promise<string> {
	const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: MINUTE, outcome: 'succeeded' });
	sim.control.advance(2 * MINUTE);
	return taskId;
}

describe('Deck → Download and the links of a status (profile of this run)', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await start({ seed: 21, clock: { manual: true }, deckFileBytes: 3000 });
	});
	afterAll(async () => await sim.close());

	test('by task id: the file arrives as binary data with its name and type, and the status links come along', async () => {
		const taskId = await doneDeck(sim);
		const result = await runWith(sim, loadWorkflow('download'), sim.keys.personal, [{ taskId }]);
		expect(result.status).toBe('success');
		const [item] = result.output('Success');
		expect(item.json).toMatchObject({
			outcome: 'success',
			taskId,
			fileName: `deck-${taskId}-v1.pptx`,
			mimeType: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
			fileSize: 3000,
			deckUrl: expect.stringMatching(/\.pptx/),
		});
		expect(item.binary?.data).toMatchObject({ fileName: `deck-${taskId}-v1.pptx`, mimeType: item.json.mimeType });
		expectDeckFile(item.binary!.data.data, taskId, 'pptx', 3000);
		// Presigned storage links never carried the key; links on the API's origin did (authenticated reads).
		expect(sim.storage.requests.every((r) => !r.authorization)).toBe(true);
		for (const read of apiFileReads(sim)) expect(read.keyId).toEqual(expect.any(String));
	});

	test('Get Status adds every link with its path, and deckUrl', async () => {
		const taskId = await doneDeck(sim);
		const result = await runWith(sim, loadWorkflow('get-status'), sim.keys.personal, [{ taskId }]);
		const [status] = jsonOf(result.output('Success'));
		expect(status.deckUrl).toMatch(new RegExp(`${taskId}.*\\.pptx`));
		const links = status.links as Array<{ path: string; url: string }>;
		expect(links).toContainEqual({ path: expect.any(String), url: status.deckUrl, kind: 'deck' });
		for (const link of links) expect(link.url).toMatch(/^https?:\/\//);
	});

	test('a deck still running is a clear error, not an empty file', async () => {
		const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 60 * MINUTE });
		const result = await runWith(sim, continueErrorOutput(loadWorkflow('download')), sim.keys.personal, [{ taskId }]);
		const [error] = jsonOf(result.output('Errors'));
		expect(error.error).toMatchObject({ message: expect.stringMatching(/is not finished/) });
	});

	test('above Max Download Size the file is refused with a clear error', async () => {
		const taskId = await doneDeck(sim);
		sim.control.setDeckFileBytes(2 * 1024 * 1024);
		try {
			const result = await runWith(sim, continueErrorOutput(loadWorkflow('download')), sim.keys.personal, [{ taskId, maxMb: 1 }]);
			const [error] = jsonOf(result.output('Errors'));
			// The size is known up front only from a Content-Length (profile C sends files chunked).
			const size = sim.profile.fileLength === 'chunked' ? 'larger than that' : '2\\.0 MB';
			expect(error.error).toMatchObject({ message: expect.stringMatching(new RegExp(`is ${size}, above Max Download Size \\(1\\.0 MB\\)`)) });
			expect(error.message).toMatch(/Raise "Max Download Size \(MB\)"/);
		} finally {
			sim.control.setDeckFileBytes(3000);
		}
	});
});

describe.each<[string, { fileLinks: 'api' | 'storage' | 'redirect' }]>([
	['a link on the Base URL’s origin', { fileLinks: 'api' }],
	['a presigned link on another origin', { fileLinks: 'storage' }],
	['a Base URL link that redirects to another origin', { fileLinks: 'redirect' }],
])('where the key goes: %s', (_name, choices) => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await start({ seed: 22, clock: { manual: true }, choices });
	});
	afterAll(async () => await sim.close());

	test('the key reaches the API origin only; storage never sees an Authorization header', async () => {
		const taskId = await doneDeck(sim);
		const result = await runWith(sim, loadWorkflow('download'), sim.keys.personal, [{ taskId }]);
		expect(result.status).toBe('success');
		expectDeckFile(result.output('Success')[0].binary!.data.data, taskId, 'pptx', 4096);

		// A finished word on no list (profile D's "processed") does not agree with the file: the file is checked
		// first (a ranged GET, 206), under the same rule as the download itself.
		const fetches = stateOf(sim.profile.statusWords.succeeded) === 'succeeded' ? 1 : 2;
		const api = apiFileReads(sim);
		const storage = sim.storage.requests;
		if (choices.fileLinks === 'api') {
			expect(api).toHaveLength(fetches);
			expect(api.at(-1)).toMatchObject({ status: 200, keyId: expect.any(String) });
			if (fetches === 2) expect(api[0]).toMatchObject({ status: 206, keyId: expect.any(String) });
			expect(storage).toHaveLength(0);
		} else {
			// A redirect starts on the API (with the key, which it needs), then leaves it without the key.
			expect(api).toHaveLength(choices.fileLinks === 'redirect' ? fetches : 0);
			if (choices.fileLinks === 'redirect') expect(api.every((read) => read.status === 302 && read.keyId !== undefined)).toBe(true);
			expect(storage).toHaveLength(fetches);
			expect(storage.at(-1)).toMatchObject({ authorization: false, status: 200 });
			expect(storage.every((read) => !read.authorization)).toBe(true);
		}
	});

	test('a direct URL is fetched under the same rule', async () => {
		const taskId = await doneDeck(sim);
		const status = await runWith(sim, loadWorkflow('get-status'), sim.keys.personal, [{ taskId }]);
		const url = status.output('Success')[0].json.deckUrl as string;
		const before = sim.storage.requests.length;
		const result = await runWith(sim, loadWorkflow('download'), sim.keys.personal, [{ url, property: 'deck' }]);
		const [item] = result.output('Success');
		expectDeckFile(item.binary!.deck.data, taskId, 'pptx', 4096);
		expect(sim.storage.requests.slice(before).every((r) => !r.authorization)).toBe(true);
	});
});

describe.each<ResultLinks>(['deckUrl', 'files', 'export', 'result'])('status links under "%s"', (resultLinks) => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await start({ seed: 25, clock: { manual: true }, choices: { resultLinks } });
	});
	afterAll(async () => await sim.close());

	test('deckUrl is the pptx wherever it sits; Download Link picks another by its path', async () => {
		const taskId = await doneDeck(sim);
		const status = jsonOf((await runWith(sim, loadWorkflow('get-status'), sim.keys.personal, [{ taskId }])).output('Success'))[0];
		expect(status.deckUrl).toMatch(/deck\.pptx|\.pptx\?/);
		const pdf = (status.links as Array<{ path: string; url: string }>).find((link) => /pdf/.test(link.url));
		if (!pdf) {
			expect(['deckUrl', 'export']).toContain(resultLinks);
			return;
		}
		const result = await runWith(sim, loadWorkflow('download'), sim.keys.personal, [{ taskId, link: pdf.path }]);
		const [item] = result.output('Success');
		expect(item.json).toMatchObject({ fileName: `deck-${taskId}-v1.pdf`, mimeType: 'application/pdf' });
		expectDeckFile(item.binary!.data.data, taskId, 'pdf', 4096);
	});
});
