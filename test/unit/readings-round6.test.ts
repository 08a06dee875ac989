/**
 * Issue 43, the judgement's side (the simulator's six real shapes run every reader: real-services.test.ts):
 * the word two envelopes down and its over-reach sides, the paths a person could paste when the record cannot be
 * read to the end, a failure read from flags that never shows an empty word, a Completed deck with no link that
 * says why, and the record read once (status/leaves.ts).
 */
import { DEFAULT_STATUS_WORDS, judgeStatus, recordSaid, settleFileCheck, statusWords, type StatusJudgement } from '../../nodes/shared/status';
import { indexRecord } from '../../nodes/shared/status/leaves';

const FILE = 'https://files.example/decks/t-1/deck.pptx';

/** Cloudflare's API envelope around named variants (Stream downloads). */
const cloudflare = (variant: Record<string, unknown>) => ({ success: true, errors: [], messages: [], result: { default: variant } });
/** A GraphQL answer (Shopify's bulk operation node). */
const graphql = (node: Record<string, unknown>) => ({
	data: { node: { id: 'gid://shopify/BulkOperation/1', url: null, errorCode: null, partialDataUrl: null, ...node } },
	extensions: { cost: { requestedQueryCost: 1, actualQueryCost: 1 } },
});

const judged = (body: Record<string, unknown>, there = true): StatusJudgement => {
	const judgement = judgeStatus(body);
	return judgement.fileToCheck ? settleFileCheck(judgement, there ? { there: true } : { there: false, why: 'the file host answered 404' }) : judgement;
};

describe('the word at any depth, shallowest first, under envelopes of any name', () => {
	test.each([
		['Cloudflare, running', cloudflare({ status: 'inprogress', url: FILE, percentComplete: 40 }), 'running', 'result.default.status'],
		['Cloudflare, ready', cloudflare({ status: 'ready', url: FILE, percentComplete: 100 }), 'succeeded', 'result.default.status'],
		['Cloudflare, error', { ...cloudflare({ status: 'error', url: FILE, percentComplete: 40 }), errors: [{ code: 10005, message: 'Download failed to process' }] }, 'failed', 'result.default.status'],
		['GraphQL, running', graphql({ status: 'RUNNING' }), 'running', 'data.node.status'],
		['GraphQL, completed', graphql({ status: 'COMPLETED', url: FILE }), 'succeeded', 'data.node.status'],
		['GraphQL, failed', graphql({ status: 'FAILED', errorCode: 'INTERNAL_SERVER_ERROR' }), 'failed', 'data.node.status'],
		['three envelopes down', { ok: true, payload: { job: { run: { state: 'processing' } } } }, 'running', 'payload.job.run.state'],
		['a list of one entry on the way', { response: { records: [{ detail: { status: 'queued' } }] } }, 'running', 'response.records[0].detail.status'],
	])('%s', (_case, body, state, wordAt) => {
		const judgement = judged(body);
		expect(judgement.state).toBe(state);
		expect(judgement.wordAt).toBe(wordAt);
	});

	test('the deck of a finished Cloudflare record is its link, and a failed one says why', () => {
		expect(judged(cloudflare({ status: 'ready', url: FILE, percentComplete: 100 }))).toMatchObject({ state: 'succeeded', deckUrl: FILE });
		const failed = judged({ ...cloudflare({ status: 'error', url: FILE }), errors: [{ code: 10005, message: 'Download failed to process' }] });
		expect(failed).toMatchObject({ state: 'failed', failureReason: 'Download failed to process' });
		expect(failed).not.toHaveProperty('deckUrl');
	});

	test("a failed GraphQL operation that links its partial data (a JSONL file, not the deck) is Failed, never Completed on that file", () => {
		const judgement = judged(graphql({ status: 'FAILED', errorCode: 'TIMEOUT', partialDataUrl: 'https://storage.example/partial.jsonl?sig=1' }));
		expect(judgement).toMatchObject({ state: 'failed', failureReason: 'TIMEOUT' });
		expect(judgement).not.toHaveProperty('deckUrl');
	});

	test('a shallower word wins: the deepest one is read only when nothing above gives one', () => {
		expect(judged({ status: 'processing', result: { default: { status: 'ready', url: FILE } } })).toMatchObject({ word: 'processing' });
		expect(judged({ data: { status: 'queued', job: { node: { status: 'completed' } } } })).toMatchObject({ word: 'queued' });
	});

	describe('over-reach: a part of the job is not the job', () => {
		test.each([
			["a sub-task's word (CloudConvert's tasks[])", { data: { id: 'job-1', tasks: [{ name: 'import', status: 'finished' }, { name: 'convert', status: 'processing' }] } }],
			["one sub-task in a list of one (tasks[0])", { data: { id: 'job-1', tasks: [{ name: 'convert', status: 'finished' }] } }],
			["an input file's word (Transloadit's uploads[])", { assembly_id: 'a1', uploads: [{ name: 'brief.docx', status: 'completed' }] }],
			["one export format's word (formats.pdf)", { payload: { formats: { pdf: { status: 'failed', error: 'PDF export failed' } } } }],
			['a word in the errors', { envelope: { errors: { first: { status: 'failed' } } } }],
			['a word in the bookkeeping', { body: { meta: { request: { status: 'ok_done' } } }, metadata: { inner: { state: 'succeeded' } } }],
		])('%s', (_case, body) => {
			const judgement = judgeStatus(body);
			expect(judgement.word).toBeUndefined();
			expect(judgement.state).not.toBe('succeeded');
		});

		test("with the job's own word, its parts are read as they always were", () => {
			const partial = judged({ status: 'partial', deckUrl: FILE, formats: { pptx: { status: 'ready' }, pdf: { status: 'failed', error: 'PDF export failed' } } });
			expect(partial).toMatchObject({ state: 'succeeded', word: 'partial', deckUrl: FILE });
			const cloudConvert = judgeStatus({ data: { id: 'job-1', status: 'processing', tasks: [{ name: 'import', status: 'finished' }] } });
			expect(cloudConvert).toMatchObject({ state: 'running', word: 'processing' });
		});

		test('a word of no list two envelopes down is not taken (it is suggested instead)', () => {
			const judgement = judgeStatus(cloudflare({ status: 'baking', url: FILE }));
			expect(judgement.word).toBeUndefined();
			expect(judgement.suggestions?.word).toEqual([{ path: 'result.default.status', value: 'baking' }]);
		});
	});
});

describe('a record the package cannot read names the paths that fix it, with their values', () => {
	test('no word: the members that could hold the word and the file, as they are pasted, at the first read', () => {
		const body = { ok: true, result: { main: { condition: 'baking', link: FILE, percent_done: 40 } }, meta: { region: 'eu' } };
		const judgement = judgeStatus(body);
		expect(judgement.state).toBe('unknown');
		// the deck's link is read already (it is checked as the file); a member of the bookkeeping is a part of the
		// job, never suggested as the deck's word (issue 50)
		expect(judgement.suggestions).toEqual({ word: [{ path: 'result.main.condition', value: 'baking' }], file: [] });
		expect(judgement.note).toContain("The service's answer carries no status word");
		expect(judgement.note).toContain('To read this record, set one of these in the options: Status Word Path `result.main.condition` is "baking".');
		// with nothing to hand over either, the links too
		const bare = judgeStatus({ result: { main: { condition: 'baking' } }, archive: 'https://cdn.example/jobs/1', self: 'https://api.example/jobs/1' });
		expect(bare.suggestions).toEqual({ word: [{ path: 'result.main.condition', value: 'baking' }], file: [{ path: 'archive', value: 'https://cdn.example/jobs/1' }] });
		// following one suggestion reads it: the word from the path, a list for the word
		const fixed = judgeStatus(body, { paths: { word: 'result.main.condition' }, words: statusWords({ succeeded: [], failed: [], running: ['baking'] }) });
		expect(fixed).toMatchObject({ state: 'running', word: 'baking' });
		expect(fixed.suggestions).toBeUndefined();
	});

	test('a word on no list: the lists that settle it, and other members only where they read as a state', () => {
		const judgement = judgeStatus({ status: 'mulling', languages: ['en'], job: { phase: 'rendering' } });
		expect(judgement.state).toBe('unknown');
		expect(judgement.suggestions?.word).toEqual([{ path: 'job.phase', value: 'rendering' }]);
		expect(judgement.note).toMatch(/add "mulling" to Running Status Words/);
		const alone = judgeStatus({ status: 'mulling', languages: ['en'] });
		expect(alone.suggestions).toBeUndefined();
		expect(alone.note).not.toContain('Status Word Path');
	});

	test('a finished word with no file: File Link Path, with the links the record has', () => {
		const judgement = judgeStatus({ status: 'completed', webpage: 'https://app.example/decks/1', thumbnail: 'https://cdn.example/1.png', export: { href: FILE } });
		expect(judgement.state).toBe('succeeded');
		expect(judgement.deckUrl).toBe(FILE);
		const bare = judgeStatus(
			{ status: 'completed', archive: 'https://cdn.example/jobs/1', self: 'https://api.example/jobs/1', webUrl: 'https://app.example/decks/1', thumbnail: 'https://cdn.example/1.png' },
			{ words: { ...DEFAULT_STATUS_WORDS, own: ['succeeded'] } },
		);
		expect(bare).toMatchObject({ state: 'succeeded' });
		expect(bare).not.toHaveProperty('deckUrl');
		expect(bare.note).toContain('It is completed, but the record links no file to hand over, so the item has no deckUrl.');
		// never a preview, the app's page or the API's own address
		expect(bare.note).toContain('To read this record, set one of these in the options: File Link Path `archive` is "https://cdn.example/jobs/1".');
	});

	test('a Completed deck whose record links nothing says so, and where to get it', () => {
		const judgement = judgeStatus({ status: 'done', id: 7 }, { words: { ...DEFAULT_STATUS_WORDS, own: ['succeeded'] } });
		expect(judgement).toMatchObject({ state: 'succeeded' });
		expect(judgement.note).toBe('It is completed, but the record links no file to hand over, so the item has no deckUrl. The record holds no link to set File Link Path to: get the deck from the service itself.');
	});

	test('over-reach: a record read to the end suggests nothing', () => {
		for (const body of [{ status: 'processing', progress: 10 }, { status: 'completed', deckUrl: FILE }, { status: 'failed', error: { message: 'No' } }]) {
			const judgement = judged(body);
			expect(judgement.suggestions).toBeUndefined();
			expect(judgement.note ?? '').not.toContain('set one of these');
		}
	});
});

describe('a failed deck always says what failed, never an empty word', () => {
	test('a record of flags only (no word): failed with its reason, and where it was read', () => {
		const judgement = judgeStatus({ done: false, fatalErrorEncountered: true, errors: [{ message: 'The source file is corrupt' }] });
		expect(judgement).toMatchObject({ state: 'failed', failureReason: 'The source file is corrupt', failureAt: 'errors' });
		expect(recordSaid(judgement)).toBe('no status word; failure read from errors');
		const flagOnly = judgeStatus({ done: false, fatalErrorEncountered: true, errors: [] });
		expect(flagOnly).toMatchObject({ state: 'failed', failureAt: 'fatalErrorEncountered' });
		expect(recordSaid(flagOnly)).toBe('no status word; failure read from fatalErrorEncountered');
	});

	test('over-reach: a flag that says no failure, or says nothing of one, is none', () => {
		for (const body of [{ status: 'processing', fatalErrorEncountered: false }, { status: 'processing', nonFatalWarnings: true }, { status: 'processing', retryOnError: true }]) {
			expect(judgeStatus(body).state).toBe('running');
		}
	});

	test('with a word, the word', () => {
		expect(recordSaid(judgeStatus({ status: 'failed', error: 'No' }))).toBe('status "failed"');
	});
});

describe('the record read once', () => {
	test('every leaf with its path, what it is, and every link in document order', () => {
		const index = indexRecord({ status: 'ready', files: [{ url: FILE }, { url: '/v1/decks/t/files/deck.pdf' }], done: true, count: 2, note: 'A deck about the sales of the third quarter', empty: null }, 'https://api.example/v1/decks/t/status');
		expect(index.leaves.map((leaf) => [leaf.path, leaf.kind])).toEqual([
			['status', 'word'],
			['files[0].url', 'link'],
			['files[1].url', 'link'],
			['done', 'flag'],
			['count', 'number'],
			['note', 'text'],
			['empty', 'empty'],
		]);
		expect(index.links).toEqual([
			{ path: 'files[0].url', url: FILE },
			{ path: 'files[1].url', url: 'https://api.example/v1/decks/t/files/deck.pdf' },
		]);
		expect(index.places.map((place) => [place.path, place.envelope])).toEqual([
			['', true],
			['files[0]', false],
			['files[1]', false],
		]);
	});
});
