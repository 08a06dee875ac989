// The real services' shapes (issues 31, 37, 39, test/simulator/services.ts): each shape serves what README.md's
// "Real services modelled" says (SERVICE_SHAPES: its words in their member, its links, its reasons, its progress),
// for every outcome of a deck, and keeps the contract's own rules (the status path, a `taskId` in every create
// answer, problem+json refusals, the deck files at their endpoints). A shape whose record names its file before
// the file exists (`fileBeforeReady`) has the file host answer 404 there until the deck succeeded, and forever
// for a failed deck.
import { request } from 'undici';

import {
	FAILURE_KINDS,
	FAILURE_REASONS,
	SERVICE_SHAPES,
	SERVICE_SHAPE_NAMES,
	readDeckFile,
	start,
	valueAt,
	type FailureKind,
	type ServiceShape,
	type Simulator,
} from '../simulator';
import { deckBody, expectProblem, get, post } from './helpers';

const MINUTE = 60_000;

/** What a link serves (with the key only on the API's own origin, as a client must). */
async function served(sim: Simulator, link: string): Promise<{ status: number; type: string; data: Buffer }> {
	const url = new URL(link, sim.url);
	const headers: Record<string, string> = url.origin === new URL(sim.url).origin ? { authorization: `Bearer ${sim.keys.personal}` } : {};
	const res = await request(url, { headers, maxRedirections: 0 } as never);
	const data = Buffer.from(await res.body.arrayBuffer());
	return { status: res.statusCode, type: String(res.headers['content-type'] ?? ''), data };
}

/** A deck file by its own bytes: a PPTX (a ZIP with a presentation inside) or a PDF; a DOCX brief, an image, a page are not. */
const isDeckFile = (data: Buffer) => readDeckFile(data).format !== 'other';
type Spec = (typeof SERVICE_SHAPES)[keyof typeof SERVICE_SHAPES];
/**
 * How an ended record says it ended: the word at its conclusion where the word only says that it ended (GitHub's
 * `conclusion`, Databricks' `status.termination_details.code`), at the path a kind's failed record has it
 * (Transloadit: `error`, not `ok`), else at `wordAt`.
 */
const endWord = (spec: Spec, body: unknown, kind?: FailureKind) => {
	const at = spec.conclusionAt ?? (kind && spec.failedWordAt?.[kind]) ?? spec.wordAt;
	return at ? valueAt(body, at) : undefined;
};
/** An ended record: its end word (`endWord`), and where the shape has a conclusion, the word at `wordAt` that says it ended. */
function expectEnded(spec: Spec, body: unknown, word: string, outcome: 'succeeded' | 'failed', kind?: FailureKind): void {
	if (!spec.wordAt) {
		// no word at all: the flags say it (Veo's `done: true`; Remotion's `fatalErrorEncountered: true`, `done: false`)
		expect(body).toMatchObject(spec.flags![outcome]);
		return;
	}
	expect(endWord(spec, body, kind)).toBe(word);
	if (spec.conclusionAt) expect(valueAt(body, spec.wordAt)).toBe(spec.endedWord);
}

/** A file host's "not there": the API's problem+json 404, or the storage's S3 NoSuchKey. */
function expectNotThereYet(sim: Simulator, link: string, answer: { status: number; type: string; data: Buffer }): void {
	expect(answer.status).toBe(404);
	if (new URL(link, sim.url).origin === new URL(sim.url).origin) expect(answer.type).toMatch(/application\/problem\+json/);
	else expect(answer.data.toString('utf8')).toMatch(/<Code>NoSuchKey<\/Code>/);
}
const linksAt = (body: unknown, paths: string[]) => paths.map((path) => valueAt(body, path)).filter((value): value is string => typeof value === 'string' && value !== '');

describe.each(SERVICE_SHAPE_NAMES)('service shape %s', (service) => {
	const spec = SERVICE_SHAPES[service as Exclude<ServiceShape, 'none'>];
	let sim: Simulator;
	const status = (taskId: string) => get(sim, `/v1/decks/${encodeURIComponent(taskId)}/status`);
	const seed = (outcome: 'succeeded' | 'failed' | 'partial', failureKind?: FailureKind, durationMs = MINUTE) =>
		sim.control.seedDeck({ key: sim.keys.personal, durationMs, outcome, ...(failureKind ? { failureKind } : {}) });

	beforeAll(async () => {
		sim = await start({ seed: 31, profile: 'reference', clock: { manual: true }, choices: { service }, limits: { maxConcurrentDecks: 100 } });
	});
	afterAll(() => sim.close());

	it('says which service it speaks', () => {
		expect(sim.profile.service).toBe(service);
		expect(sim.serviceShape).toBe(spec);
		expect(spec.doc).toMatch(/^https:\/\//);
	});

	it('create answers at once in the service shape, with a taskId the status path reads', async () => {
		const res = await post(sim, '/v1/decks', deckBody());
		expect(res.status).toBe(spec.create.status);
		const id = valueAt(res.json, spec.create.idAt);
		expect(id).toEqual(expect.any(String));
		// the contract's member, beside the service's own id (inside its envelope where it has one)
		const taskId = res.json.taskId ?? res.json.data?.taskId;
		// an id, or a resource name that ends in it (Google's `projects/…/batchPredictionJobs/{id}`)
		expect(String(id).split('/').pop()).toBe(taskId);
		expect((await status(taskId)).status).toBe(spec.runningStatus);
	});

	it('a running deck: the running word in its member (or a 202 with nothing to read), no deck file among its links', async () => {
		const taskId = seed('succeeded', undefined, 100 * MINUTE);
		let elapsed = 0;
		for (const at of [2 * MINUTE, 40 * MINUTE, 60 * MINUTE, 90 * MINUTE]) {
			sim.control.advance(at - elapsed);
			elapsed = at;
			const res = await status(taskId);
			expect(res.status).toBe(spec.runningStatus);
			if (spec.runningStatus === 202) {
				expect(res.text).toBe('');
				continue;
			}
			const phase = sim.control.deck(taskId)!.phase;
			// a shape with no word (Veo's operation, Remotion's render) never says done while the deck runs, nor fatal
			if (spec.wordAt) expect([...spec.words[phase === 'queued' ? 'queued' : 'running'], ...(spec.words.stages ?? [])]).toContain(valueAt(res.json, spec.wordAt));
			else expect({ done: res.json.done === true, flags: res.json }).toEqual({ done: false, flags: expect.objectContaining(spec.flags!.running) });
			// a shape whose conclusion says how it ended has none while the deck runs
			if (spec.conclusionAt) expect(valueAt(res.json, spec.conclusionAt) ?? null).toBeNull();
			for (const link of linksAt(res.json, [...spec.deckLinksAt, ...spec.runningLinksAt])) {
				if (!new URL(link, sim.url).host.startsWith('127.0.0.1')) continue;
				expect(isDeckFile((await served(sim, link)).data)).toBe(false);
			}
			// a record that names its future file: the link is there, the file is not (404 until the deck succeeded)
			if (spec.fileBeforeReady) {
				const [future] = linksAt(res.json, spec.deckLinksAt);
				expect(future).toEqual(expect.any(String));
				expect(spec.runningLinksAt).toEqual(expect.arrayContaining([spec.deckLinksAt[0]]));
				expectNotThereYet(sim, future, await served(sim, future));
			}
			if ((spec.progress.scale === 'fraction-while-running' || spec.progress.scale === 'fraction') && phase === 'running') {
				const progress = valueAt(res.json, spec.progress.at!) as number;
				expect(progress).toBeGreaterThan(0);
				expect(progress).toBeLessThan(1);
			}
		}
	});

	it('a finished deck: the success word, the deck files at their paths, the other links never the deck', async () => {
		const taskId = seed('succeeded');
		sim.control.advance(2 * MINUTE);
		const res = await status(taskId);
		expect(res.status).toBe(200);
		expectEnded(spec, res.json, spec.words.succeeded, 'succeeded');
		const files = linksAt(res.json, spec.deckLinksAt);
		expect(files.length).toBeGreaterThan(0);
		// the first is this deck's PPTX: a ZIP whose central directory names the presentation, which names the deck
		const pptx = readDeckFile((await served(sim, files[0])).data);
		expect(pptx).toMatchObject({ format: 'pptx', entries: expect.arrayContaining(['[Content_Types].xml', '_rels/.rels', 'ppt/presentation.xml']) });
		expect(pptx.format === 'pptx' && pptx.presentation).toContain(taskId);
		for (const file of files) expect(isDeckFile((await served(sim, file)).data)).toBe(true);
		for (const link of linksAt(res.json, spec.otherLinksAt)) {
			expect(files).not.toContain(link);
			if (new URL(link, sim.url).host.startsWith('127.0.0.1')) expect(isDeckFile((await served(sim, link)).data)).toBe(false);
		}
		if (spec.progress.scale === 'fraction-while-running') expect(valueAt(res.json, spec.progress.at!)).toBeUndefined();
		if (spec.progress.scale === 'fraction') expect(valueAt(res.json, spec.progress.at!)).toBe(1);
	});

	it('a partial deck (its pdf failed): the partial word, the pptx offered, no pdf', async () => {
		const taskId = seed('partial');
		sim.control.advance(2 * MINUTE);
		const res = await status(taskId);
		expectEnded(spec, res.json, spec.words.partial, 'succeeded');
		const files = linksAt(res.json, spec.deckLinksAt);
		expect(files.length).toBeGreaterThan(0);
		for (const file of files) expect(readDeckFile((await served(sim, file)).data).format).toBe('pptx');
		expect((await get(sim, `/v1/decks/${taskId}/files/deck.pdf`)).status).toBe(404);
	});

	it.each(FAILURE_KINDS)('a deck failed by %s: its word, its reason where the service gives one, no deck file', async (kind) => {
		const taskId = seed('failed', kind);
		sim.control.advance(2 * MINUTE);
		const res = await status(taskId);
		// (Intercom answers a failed job's poll with 504 and the job's own record: issue 50 B9)
		expect(res.status).toBe(spec.failedStatus?.[kind] ?? 200);
		expectEnded(spec, res.json, spec.words.failed[kind], 'failed', kind);
		const at = spec.reasonAt[kind];
		if (at) expect(valueAt(res.json, at)).toBe(FAILURE_REASONS[kind].message);
		// (a filtered result may keep an image where the file would be: never the deck; nor is any other link's file,
		// a data file the failed job wrote included: Shopify's partial rows, GitHub's log archive)
		for (const link of linksAt(res.json, [...spec.deckLinksAt, ...spec.otherLinksAt])) {
			if (new URL(link, sim.url).host.startsWith('127.0.0.1')) expect(isDeckFile((await served(sim, link)).data)).toBe(false);
		}
		// a record that named its future file keeps naming it: the file never comes
		if (spec.fileBeforeReady) {
			const [never] = linksAt(res.json, spec.deckLinksAt);
			expectNotThereYet(sim, never, await served(sim, never));
			sim.control.advance(60 * MINUTE);
			expectNotThereYet(sim, never, await served(sim, never));
		}
		// an envelope that says "success" about the request beside the failed deck
		// (MiniMax's base_resp carries the moderation code itself)
		if (spec.envelopeSuccess && !(service === 'minimax' && kind === 'moderated')) expect(res.json).toMatchObject(spec.envelopeSuccess);
		// a failed deck's files stay refused in every shape
		expect((await get(sim, `/v1/decks/${taskId}/files/deck.pptx`)).status).toBe(404);
	});

	it('says the transitional word (timing out, aborting) where the service has one, before the terminal word', async () => {
		for (const kind of ['timeout', 'aborted', 'cancelled'] as const) {
			const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 20 * MINUTE, outcome: 'failed', failureKind: kind, endingMs: 5 * MINUTE });
			sim.control.advance(17 * MINUTE);
			const ending = await status(taskId);
			expect(ending.status).toBe(spec.runningStatus);
			const endingWords = spec.words.ending?.[kind] ? [spec.words.ending[kind]] : [...spec.words.running, ...(spec.words.stages ?? [])];
			if (spec.runningStatus === 200 && spec.wordAt) expect(endingWords).toContain(valueAt(ending.json, spec.wordAt));
			sim.control.advance(4 * MINUTE);
			const ended = await status(taskId);
			expectEnded(spec, ended.json, spec.words.failed[kind], 'failed', kind);
		}
	});

	it('keeps the contract: an unknown or foreign taskId is a problem+json 404 on the status path', async () => {
		expectProblem(await status('tsk_nope'), 404, 'not_found');
		const foreign = sim.control.seedDeck({ key: sim.keys.other, durationMs: MINUTE });
		expectProblem(await status(foreign), 404, 'not_found');
	});
});

describe('services under another profile', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await start({ seed: 32, profile: 'alternate', clock: { manual: true }, choices: { service: 'replicate' } });
	});
	afterAll(() => sim.close());

	it("the profile's other choices keep applying underneath: files presigned on the storage origin, no key sent there", async () => {
		const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: MINUTE });
		sim.control.advance(2 * MINUTE);
		const res = await get(sim, `/v1/decks/${taskId}/status`);
		const [pptx] = linksAt(res.json, SERVICE_SHAPES.replicate.deckLinksAt);
		expect(pptx.startsWith(sim.storage.url)).toBe(true);
		expect(readDeckFile((await served(sim, pptx)).data).format).toBe('pptx');
		expect(sim.storage.requests.every((r) => !r.authorization)).toBe(true);
	});
});

describe('the shape none (the profile itself) with the new outcomes', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await start({ seed: 33, profile: 'reference', clock: { manual: true } });
	});
	afterAll(() => sim.close());

	it('a partial deck says partial, offers the pptx, and names the failed format', async () => {
		const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: MINUTE, outcome: 'partial' });
		sim.control.advance(2 * MINUTE);
		const res = await get(sim, `/v1/decks/${taskId}/status`);
		expect(res.json).toMatchObject({ status: 'partial', deckUrl: expect.stringMatching(/deck\.pptx$/), formats: { pdf: { status: 'failed' } } });
		expect(sim.control.deck(taskId)).toMatchObject({ phase: 'succeeded', partial: true });
	});

	it('a failed deck gives the reason of its kind', async () => {
		const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: MINUTE, outcome: 'failed', failureKind: 'moderated' });
		sim.control.advance(2 * MINUTE);
		const res = await get(sim, `/v1/decks/${taskId}/status`);
		expect(res.json).toMatchObject({ status: 'failed', error: FAILURE_REASONS.moderated });
		expect(sim.control.deck(taskId)).toMatchObject({ phase: 'failed', failureKind: 'moderated' });
	});
});

/**
 * Issue 43: the data files a record links beside or instead of its output are real files of their own format,
 * served with a 200 as their hosts serve them, so a client that fetches one finds it is not a deck.
 */
describe('data files linked by a record (issue 43)', () => {
	const MINUTE_ = MINUTE;
	async function recordOf(service: ServiceShape, outcome: 'succeeded' | 'failed', failureKind?: FailureKind) {
		const sim = await start({ seed: 43, profile: 'reference', clock: { manual: true }, choices: { service } });
		const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: MINUTE_, outcome, ...(failureKind ? { failureKind } : {}) });
		sim.control.advance(2 * MINUTE_);
		return { sim, taskId, body: (await get(sim, `/v1/decks/${taskId}/status`)).json };
	}

	it("Shopify: a FAILED operation's partialDataUrl serves its rows as JSONL (one JSON object a line), never a deck", async () => {
		const { sim, body } = await recordOf('shopify', 'failed', 'error');
		try {
			expect(body.data.node).toMatchObject({ status: 'FAILED', errorCode: 'INTERNAL_SERVER_ERROR', url: null, partialDataUrl: expect.stringMatching(/partial-data\.jsonl/) });
			const file = await served(sim, body.data.node.partialDataUrl);
			expect({ status: file.status, type: file.type, deck: isDeckFile(file.data) }).toEqual({ status: 200, type: 'application/jsonl', deck: false });
			const rows = file.data.toString('utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
			expect(rows.length).toBeGreaterThan(0);
			for (const row of rows) expect(row).toMatchObject({ id: expect.stringMatching(/^gid:\/\/shopify\//) });
		} finally {
			await sim.close();
		}
	});

	it('Shopify: a moderated (ACCESS_DENIED) or cancelled operation links no partial data', async () => {
		for (const [kind, expected] of [['moderated', { status: 'FAILED', errorCode: 'ACCESS_DENIED' }], ['cancelled', { status: 'CANCELED', errorCode: null }]] as const) {
			const { sim, body } = await recordOf('shopify', 'failed', kind);
			await sim.close();
			expect(body.data.node).toMatchObject({ ...expected, partialDataUrl: null, url: null });
		}
	});

	it('GitHub Actions: logs_url answers 404 while the run works, then an archive of log files (a ZIP with no presentation), whatever the conclusion', async () => {
		const sim = await start({ seed: 43, profile: 'reference', clock: { manual: true }, choices: { service: 'github' } });
		try {
			const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 10 * MINUTE_, outcome: 'failed', failureKind: 'error' });
			sim.control.advance(5 * MINUTE_);
			const running = (await get(sim, `/v1/decks/${taskId}/status`)).json;
			expect(running).toMatchObject({ status: 'in_progress', conclusion: null });
			expectNotThereYet(sim, running.logs_url, await served(sim, running.logs_url));
			sim.control.advance(10 * MINUTE_);
			const ended = (await get(sim, `/v1/decks/${taskId}/status`)).json;
			expect(ended).toMatchObject({ status: 'completed', conclusion: 'failure', artifacts: [], logs_url: running.logs_url });
			const logs = await served(sim, ended.logs_url);
			expect({ status: logs.status, type: logs.type }).toEqual({ status: 200, type: 'application/zip' });
			expect(readDeckFile(logs.data)).toEqual({ format: 'other', entries: ['build-deck/1_Set up job.txt', 'build-deck/2_Generate deck.txt'] });
		} finally {
			await sim.close();
		}
	});

	it("Amazon Transcribe: a completed job's subtitle files (VTT, SRT) beside its output are text files, never a deck", async () => {
		const { sim, body } = await recordOf('transcribe', 'succeeded');
		try {
			const [vtt, srt] = body.TranscriptionJob.Subtitles.SubtitleFileUris as string[];
			const files = [await served(sim, vtt), await served(sim, srt)];
			expect(files.map((file) => ({ status: file.status, type: file.type, deck: isDeckFile(file.data) }))).toEqual([
				{ status: 200, type: 'text/vtt', deck: false },
				{ status: 200, type: 'application/x-subrip', deck: false },
			]);
			expect(files[0].data.toString('utf8')).toMatch(/^WEBVTT\n/);
		} finally {
			await sim.close();
		}
	});

	it("Remotion: a running render's errors list a chunk's error that will be retried (not fatal); a failed one adds the fatal error", async () => {
		const sim = await start({ seed: 43, profile: 'reference', clock: { manual: true }, choices: { service: 'remotion' } });
		try {
			const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 10 * MINUTE_, outcome: 'failed', failureKind: 'timeout' });
			sim.control.advance(7 * MINUTE_);
			const running = (await get(sim, `/v1/decks/${taskId}/status`)).json;
			expect(running).toMatchObject({ done: false, fatalErrorEncountered: false, outputFile: null, errors: [{ isFatal: false, willRetry: true }] });
			expect(running.overallProgress).toBeGreaterThan(0.5);
			expect(running.overallProgress).toBeLessThan(1);
			sim.control.advance(10 * MINUTE_);
			const failed = (await get(sim, `/v1/decks/${taskId}/status`)).json;
			expect(failed).toMatchObject({ done: false, fatalErrorEncountered: true, outputFile: null, errors: [{ isFatal: false }, { isFatal: true, willRetry: false, message: FAILURE_REASONS.timeout.message }] });
		} finally {
			await sim.close();
		}
	});
});

/**
 * Issue 43, point 2: a record with no word (choice `omitStatusWord`) whose file link answers 404 for a while and
 * then the file appears, with the record not moving at all (`holdDeck` with `setFileReady`), so a test counts the
 * file requests a client makes before and after the file appears (`sim.fileRequests`, `sim.storage.requests`).
 */
describe('a record with no word whose file appears later (omitStatusWord, holdDeck, setFileReady)', () => {
	it.each(['api', 'storage'] as const)('Cloudflare without its word: the url answers 404, then the file, while the record stays the same (%s files)', async (fileLinks) => {
		const sim = await start({ seed: 44, profile: 'reference', clock: { manual: true }, choices: { service: 'cloudflare', omitStatusWord: true, fileLinks } });
		try {
			const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 100 * MINUTE, outcome: 'succeeded' });
			sim.control.advance(40 * MINUTE);
			sim.control.holdDeck(taskId, true);
			const before = (await get(sim, `/v1/decks/${taskId}/status`)).json;
			// the word is gone, the rest as served: the variant's url and progress, the envelope
			expect(before).toEqual({ result: { default: { url: expect.any(String), percentComplete: 40 } }, success: true, errors: [], messages: [] });
			const link = before.result.default.url as string;
			expectNotThereYet(sim, link, await served(sim, link));
			sim.control.setFileReady(taskId, true);
			expect((await get(sim, `/v1/decks/${taskId}/status`)).json).toEqual(before);
			const file = await served(sim, link);
			expect({ status: file.status, format: readDeckFile(file.data).format }).toEqual({ status: 200, format: 'pptx' });
			// every request for the file is on record, the 404 and the 200
			const requests = fileLinks === 'api' ? sim.fileRequests : sim.storage.requests;
			expect(requests.map((r) => r.status)).toEqual([404, 200]);
			sim.control.setFileReady(taskId, false);
			expectNotThereYet(sim, link, await served(sim, link));
		} finally {
			await sim.close();
		}
	});

	it('the profile itself without its word (`none`), and a failed deck whose file never appears, setFileReady or not', async () => {
		const sim = await start({ seed: 45, profile: 'reference', clock: { manual: true }, choices: { omitStatusWord: true, linksWhileRunning: true } });
		try {
			const running = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 100 * MINUTE, outcome: 'succeeded' });
			const failed = sim.control.seedDeck({ key: sim.keys.personal, durationMs: MINUTE, outcome: 'failed' });
			sim.control.advance(40 * MINUTE);
			const record = (await get(sim, `/v1/decks/${running}/status`)).json;
			expect(record).not.toHaveProperty('status');
			expect(record).toMatchObject({ taskId: running, progress: 40, deckUrl: expect.stringMatching(/deck\.pptx$/) });
			sim.control.setFileReady(failed, true);
			const failedRecord = (await get(sim, `/v1/decks/${failed}/status`)).json;
			expect(failedRecord).not.toHaveProperty('status');
			expect(failedRecord).toMatchObject({ error: FAILURE_REASONS.error });
			expect((await get(sim, `/v1/decks/${failed}/files/deck.pptx`)).status).toBe(404);
		} finally {
			await sim.close();
		}
	});

	it('a shape whose word is nested or has a conclusion loses every word member it names (Shopify, GitHub, Transloadit)', async () => {
		for (const [service, gone] of [['shopify', ['data.node.status']], ['github', ['status', 'conclusion']], ['transloadit', ['ok', 'error']]] as const) {
			const sim = await start({ seed: 46, profile: 'reference', clock: { manual: true }, choices: { service, omitStatusWord: true } });
			const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: MINUTE, outcome: 'failed', failureKind: 'error' });
			sim.control.advance(2 * MINUTE);
			const body = (await get(sim, `/v1/decks/${taskId}/status`)).json;
			await sim.close();
			for (const path of gone) expect({ service, path, value: valueAt(body, path) }).toEqual({ service, path, value: undefined });
		}
	});
});
