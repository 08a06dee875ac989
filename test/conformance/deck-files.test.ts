// Deck files as real hosts serve them (issue 37): the finished deck's PPTX is a real ZIP (local headers, central
// directory, end record; entries stored, so the names read without zlib) and its PDF a PDF; one Range is
// answered 206 with Content-Range as S3 answers it, on the API's file endpoint and on the storage stand-in alike,
// and every file request is on record (`sim.fileRequests`, `sim.storage.requests`) with its Range and status;
// `fileContent` serves a sign-in page, an image or an S3 error document with a 200 where the deck would be; a link
// given before its file exists answers 404 until the deck succeeded, and forever for a failed deck.
import { request } from 'undici';

import { crc32, readDeckFile, start, valueAt, zipEntries, zipEntryData, type FileContent, type Simulator } from '../simulator';
import { expectProblem, get, post, type Res } from './helpers';

const MINUTE = 60_000;
const SIZE = 4096;

/** A GET of a link with a Range (or none): the key only on the API's own origin, as a client must send it. */
async function fetchFile(sim: Simulator, link: string, range?: string): Promise<Res & { data: Buffer }> {
	const url = new URL(link, sim.url);
	const headers: Record<string, string> = { ...(range ? { range } : {}), ...(url.origin === new URL(sim.url).origin ? { authorization: `Bearer ${sim.keys.personal}` } : {}) };
	const res = await request(url, { headers, maxRedirections: 0 } as never);
	const data = Buffer.from(await res.body.arrayBuffer());
	const flat: Record<string, string> = {};
	for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) flat[k] = Array.isArray(v) ? v.join(', ') : v;
	const text = data.toString('utf8');
	return { status: res.statusCode, headers: flat, text, json: /json/.test(flat['content-type'] ?? '') ? JSON.parse(text) : undefined, data };
}

function finishedDeck(sim: Simulator): string {
	const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: MINUTE, outcome: 'succeeded' });
	sim.control.advance(2 * MINUTE);
	return taskId;
}

describe('the deck files themselves (reference profile: on the API origin)', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await start({ seed: 370, profile: 'reference', clock: { manual: true }, deckFileBytes: SIZE });
	});
	afterAll(() => sim.close());

	it('the PPTX is a real ZIP: stored entries named by its central directory, their CRCs right, the presentation naming the deck, deckFileBytes long', async () => {
		const taskId = finishedDeck(sim);
		const file = await fetchFile(sim, `/v1/decks/${taskId}/files/deck.pptx`);
		expect(file.status).toBe(200);
		expect(file.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.presentationml.presentation');
		expect(file.data.length).toBe(SIZE);
		const listing = zipEntries(file.data)!;
		expect(listing.map((entry) => entry.name)).toEqual(['[Content_Types].xml', '_rels/.rels', 'ppt/presentation.xml']);
		for (const entry of listing) {
			// method 0 (stored) in the local header, the CRC the central directory states
			expect(file.data.readUInt16LE(entry.offset + 8)).toBe(0);
			expect(crc32(zipEntryData(file.data, entry)!)).toBe(entry.crc);
		}
		expect(zipEntryData(file.data, listing[0])!.toString()).toContain('presentationml.presentation.main+xml');
		expect(zipEntryData(file.data, listing[1])!.toString()).toContain('Target="ppt/presentation.xml"');
		const reading = readDeckFile(file.data);
		expect(reading.format === 'pptx' && reading.presentation).toMatch(new RegExp(`^<p:presentation [^>]*><!-- deck ${taskId} v1 -->`));
		// deterministic per deck, version and format
		expect((await fetchFile(sim, `/v1/decks/${taskId}/files/deck.pptx`)).data.equals(file.data)).toBe(true);
		const other = finishedDeck(sim);
		expect((await fetchFile(sim, `/v1/decks/${other}/files/deck.pptx`)).data.equals(file.data)).toBe(false);
	});

	it('a revised deck serves the new version; the PDF starts with %PDF-1.7, ends with %%EOF and names the deck', async () => {
		const taskId = finishedDeck(sim);
		const v1 = (await fetchFile(sim, `/v1/decks/${taskId}/files/deck.pptx`)).data;
		expect((await post(sim, `/v1/decks/${taskId}/revisions`, { instructions: 'Shorter', expected_credits: 0 })).status).toBe(202);
		sim.control.advance(60 * MINUTE);
		const v2 = readDeckFile((await fetchFile(sim, `/v1/decks/${taskId}/files/deck.pptx`)).data);
		expect(v2.format === 'pptx' && v2.presentation).toContain(`deck ${taskId} v2`);
		expect(readDeckFile(v1).format === 'pptx' && (readDeckFile(v1) as { presentation: string }).presentation).toContain(`deck ${taskId} v1`);
		const pdf = await fetchFile(sim, `/v1/decks/${taskId}/files/deck.pdf`);
		expect(pdf.headers['content-type']).toBe('application/pdf');
		expect(pdf.data.length).toBe(SIZE);
		expect(pdf.data.subarray(0, 8).toString('latin1')).toBe('%PDF-1.7');
		expect(pdf.data.toString('latin1').endsWith('%%EOF\n')).toBe(true);
		expect(pdf.data.toString('latin1')).toContain(`deck ${taskId} version 2`);
	});

	it('Range: one range is 206 with Content-Range (an end past the file cut to it, an open end, the last n bytes); no Range is 200 with Accept-Ranges', async () => {
		const taskId = finishedDeck(sim);
		const path = `/v1/decks/${taskId}/files/deck.pptx`;
		const whole = await fetchFile(sim, path);
		expect(whole.status).toBe(200);
		expect(whole.headers['accept-ranges']).toBe('bytes');
		for (const [range, start, end] of [
			['bytes=0-99', 0, 99],
			['bytes=4000-', 4000, SIZE - 1],
			['bytes=-10', SIZE - 10, SIZE - 1],
			['bytes=4090-9999', 4090, SIZE - 1],
		] as const) {
			const part = await fetchFile(sim, path, range);
			expect({ range, status: part.status, contentRange: part.headers['content-range'] }).toEqual({ range, status: 206, contentRange: `bytes ${start}-${end}/${SIZE}` });
			expect(part.headers['content-length']).toBe(String(end - start + 1));
			expect(part.data.equals(whole.data.subarray(start, end + 1))).toBe(true);
		}
		// the first bytes are enough to see a ZIP's local header (a client's probe)
		expect((await fetchFile(sim, path, 'bytes=0-3')).data.toString('latin1')).toBe('PK\u0003\u0004');
		// several ranges at once, or a malformed one: the whole file, as S3 answers
		expect((await fetchFile(sim, path, 'bytes=0-1,5-6')).status).toBe(200);
		expect((await fetchFile(sim, path, 'lines=1-2')).status).toBe(200);
	});

	it('Range past the end: 416 problem+json with Content-Range: bytes */size', async () => {
		const taskId = finishedDeck(sim);
		const res = await fetchFile(sim, `/v1/decks/${taskId}/files/deck.pptx`, `bytes=${SIZE}-`);
		expectProblem(res, 416, 'range_not_satisfiable', { retryable: false });
		expect(res.headers['content-range']).toBe(`bytes */${SIZE}`);
	});

	it('every API file request is on sim.fileRequests with its method, Range and status, the ledger beside it', async () => {
		const taskId = finishedDeck(sim);
		const before = sim.fileRequests.length;
		await fetchFile(sim, `/v1/decks/${taskId}/files/deck.pptx`, 'bytes=0-1023');
		await fetchFile(sim, `/v1/decks/${taskId}/files/deck.pdf`);
		await fetchFile(sim, `/v1/decks/tsk_nothing_here/files/deck.pptx`);
		expect(sim.fileRequests.slice(before)).toEqual([
			expect.objectContaining({ method: 'GET', path: `/v1/decks/${taskId}/files/deck.pptx`, range: 'bytes=0-1023', status: 206, authorization: true }),
			expect.objectContaining({ method: 'GET', path: `/v1/decks/${taskId}/files/deck.pdf`, status: 200, authorization: true }),
			expect.objectContaining({ method: 'GET', path: '/v1/decks/tsk_nothing_here/files/deck.pptx', status: 404 }),
		]);
		expect(sim.fileRequests[before + 1]).not.toHaveProperty('range');
		// status reads are not file requests
		await get(sim, `/v1/decks/${taskId}/status`);
		expect(sim.fileRequests).toHaveLength(before + 3);
	});
});

describe('the storage stand-in answers ranges as S3 does (profile B: presigned files on another origin)', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await start({ seed: 371, profile: 'alternate', clock: { manual: true }, deckFileBytes: SIZE });
	});
	afterAll(() => sim.close());

	it('206 with Content-Range, 416 InvalidRange, 200 without a Range; each request on storage.requests with its Range and status', async () => {
		const taskId = finishedDeck(sim);
		const link = (await get(sim, `/v1/decks/${taskId}/status`)).json.files.pptx as string;
		const before = sim.storage.requests.length;
		const whole = await fetchFile(sim, link);
		expect(whole.status).toBe(200);
		expect(whole.headers['accept-ranges']).toBe('bytes');
		expect(readDeckFile(whole.data).format).toBe('pptx');
		const part = await fetchFile(sim, link, 'bytes=0-511');
		expect(part.status).toBe(206);
		expect(part.headers['content-range']).toBe(`bytes 0-511/${SIZE}`);
		expect(part.data.equals(whole.data.subarray(0, 512))).toBe(true);
		const past = await fetchFile(sim, link, `bytes=${SIZE + 10}-`);
		expect(past.status).toBe(416);
		expect(past.text).toMatch(/<Code>InvalidRange<\/Code>/);
		expect(past.headers['content-range']).toBe(`bytes */${SIZE}`);
		expect(sim.storage.requests.slice(before)).toEqual([
			expect.objectContaining({ method: 'GET', status: 200, authorization: false }),
			expect.objectContaining({ method: 'GET', range: 'bytes=0-511', status: 206, authorization: false }),
			expect.objectContaining({ method: 'GET', range: `bytes=${SIZE + 10}-`, status: 416 }),
		]);
	});

	it('a file sent chunked still answers a Range with a 206 of known length', async () => {
		const chunked = await start({ seed: 372, profile: 'alternate', clock: { manual: true }, deckFileBytes: SIZE, choices: { fileLength: 'chunked' } });
		try {
			const taskId = finishedDeck(chunked);
			const link = (await get(chunked, `/v1/decks/${taskId}/status`)).json.files.pptx as string;
			expect((await fetchFile(chunked, link)).headers['content-length']).toBeUndefined();
			const part = await fetchFile(chunked, link, 'bytes=0-99');
			expect({ status: part.status, length: part.headers['content-length'], bytes: part.data.length }).toEqual({ status: 206, length: '100', bytes: 100 });
		} finally {
			await chunked.close();
		}
	});
});

describe('fileContent: what a misconfigured host serves at the deck file address, with a 200', () => {
	const expected: Record<Exclude<FileContent, 'deck'>, { type: RegExp; body: (data: Buffer) => boolean }> = {
		html: { type: /^text\/html/, body: (data) => /^<!DOCTYPE html>[\s\S]*<form[^>]*action="\/login"/.test(data.toString()) },
		image: { type: /^image\/png$/, body: (data) => data.subarray(0, 8).toString('hex') === '89504e470d0a1a0a' },
		'xml-error': { type: /^application\/xml$/, body: (data) => /<Error><Code>NoSuchKey<\/Code>/.test(data.toString()) },
	};
	describe.each(Object.keys(expected) as Array<Exclude<FileContent, 'deck'>>)('%s', (fileContent) => {
		it.each(['api', 'storage', 'redirect'] as const)('at the %s address: 200, its own type, never a deck by its bytes', async (fileLinks) => {
			const sim = await start({ seed: 373, profile: 'reference', clock: { manual: true }, choices: { fileContent, fileLinks } });
			try {
				const taskId = finishedDeck(sim);
				const status = (await get(sim, `/v1/decks/${taskId}/status`)).json;
				let file = await fetchFile(sim, status.deckUrl);
				if (fileLinks === 'redirect') {
					expect(file.status).toBe(302);
					file = await fetchFile(sim, file.headers.location);
				}
				expect(file.status).toBe(200);
				expect(file.headers['content-type']).toMatch(expected[fileContent].type);
				expect(expected[fileContent].body(file.data)).toBe(true);
				expect(readDeckFile(file.data).format).toBe('other');
			} finally {
				await sim.close();
			}
		});
	});

	it('`deck` (the default) serves the deck', async () => {
		const sim = await start({ seed: 374, profile: 'reference', clock: { manual: true } });
		try {
			expect(sim.profile.fileContent).toBe('deck');
			const taskId = finishedDeck(sim);
			expect(readDeckFile((await fetchFile(sim, `/v1/decks/${taskId}/files/deck.pptx`)).data).format).toBe('pptx');
		} finally {
			await sim.close();
		}
	});
});

describe('a link given before its file: 404 until the deck succeeded, forever for a failed deck', () => {
	it.each(['api', 'storage'] as const)('Creatomate (`url` always present) with %s files', async (fileLinks) => {
		const sim = await start({ seed: 375, profile: 'reference', clock: { manual: true }, choices: { service: 'creatomate', fileLinks }, limits: { maxConcurrentDecks: 10 } });
		try {
			const spec = sim.serviceShape!;
			expect(spec.fileBeforeReady).toBe(true);
			const ok = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 10 * MINUTE, outcome: 'succeeded' });
			const failed = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 10 * MINUTE, outcome: 'failed' });
			sim.control.advance(5 * MINUTE);
			const link = (taskId: string) => get(sim, `/v1/decks/${taskId}/status`).then((res) => String(valueAt(res.json, spec.deckLinksAt[0])));
			const early = await link(ok);
			const notYet = await fetchFile(sim, early);
			expect(notYet.status).toBe(404);
			if (fileLinks === 'api') expectProblem(notYet, 404, 'not_found');
			else expect(notYet.text).toMatch(/<Code>NoSuchKey<\/Code>/);
			// a probe of the first bytes meets the same 404
			expect((await fetchFile(sim, early, 'bytes=0-1023')).status).toBe(404);

			sim.control.advance(6 * MINUTE);
			expect(await link(ok)).toBe(early);
			const done = await fetchFile(sim, early);
			expect(done.status).toBe(200);
			expect(readDeckFile(done.data).format).toBe('pptx');

			const never = await link(failed);
			for (const wait of [0, 60 * MINUTE]) {
				sim.control.advance(wait);
				expect((await fetchFile(sim, never)).status).toBe(404);
			}
			const requests = fileLinks === 'api' ? sim.fileRequests : sim.storage.requests;
			expect(requests.map((r) => r.status)).toEqual([404, 404, 200, 404, 404]);
		} finally {
			await sim.close();
		}
	});

	it('the same for any record that links its files early (linksWhileRunning), on the storage origin too', async () => {
		const sim = await start({ seed: 376, profile: 'alternate', clock: { manual: true }, choices: { linksWhileRunning: true } });
		try {
			const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 10 * MINUTE, outcome: 'succeeded' });
			sim.control.advance(5 * MINUTE);
			const early = (await get(sim, `/v1/decks/${taskId}/status`)).json.files.pptx as string;
			expect((await fetchFile(sim, early)).status).toBe(404);
			sim.control.advance(6 * MINUTE);
			expect((await fetchFile(sim, early)).status).toBe(200);
		} finally {
			await sim.close();
		}
	});

	it('fileWhileRunning `ready`: a service whose word lags its file serves the deck while the record still says running; a failed deck still never', async () => {
		for (const fileLinks of ['api', 'storage'] as const) {
			const sim = await start({ seed: 377, profile: 'reference', clock: { manual: true }, choices: { service: 'creatomate', fileLinks, fileWhileRunning: 'ready' } });
			try {
				const ok = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 10 * MINUTE, outcome: 'succeeded' });
				const failed = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 10 * MINUTE, outcome: 'failed' });
				sim.control.advance(5 * MINUTE);
				const running = (await get(sim, `/v1/decks/${ok}/status`)).json;
				expect(running.status).toBe('rendering');
				expect(readDeckFile((await fetchFile(sim, running.url)).data).format).toBe('pptx');
				sim.control.advance(6 * MINUTE);
				const ended = (await get(sim, `/v1/decks/${failed}/status`)).json;
				expect(ended.status).toBe('failed');
				expect((await fetchFile(sim, ended.url)).status).toBe(404);
			} finally {
				await sim.close();
			}
		}
	});
});

describe('valueAt (the spec table’s paths) reads through a member holding JSON text', () => {
	it('reads into a JSON object or array encoded in a string, and never fails on text that does not parse', () => {
		const body = { data: { resultJson: '{"resultUrls":["https://files.example/deck.pptx"]}', param: 'not json', empty: '', list: '[{"url":"u"}]' } };
		expect(valueAt(body, 'data.resultJson.resultUrls[0]')).toBe('https://files.example/deck.pptx');
		expect(valueAt(body, 'data.list[0].url')).toBe('u');
		expect(valueAt(body, 'data.param.input')).toBeUndefined();
		expect(valueAt(body, 'data.empty.resultUrls')).toBeUndefined();
		expect(valueAt({ a: '{broken' }, 'a.b')).toBeUndefined();
		expect(valueAt(body, 'data.resultJson')).toBe(body.data.resultJson);
	});
});
