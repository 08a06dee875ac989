/**
 * Issue 50, never wrong: a deck is Completed only when it is done and Failed only when it failed. Each class the
 * issue reproduced (a part of the job speaking for the job, a flag that says the opposite, a long record, outputs
 * that are not the deck, a failure word that is a stage), judged on one read (judgeStatus, settleFileCheck), with
 * its over-reach side: what must still read as it did. The readers' side (every reader, every read of a deck's
 * life, the decoy fixture and the simulator's real shapes) is test/workflows/deckgen/never-wrong.test.ts.
 */
import { judgeStatus, settleFileCheck, type StatusJudgement } from '../../nodes/shared/status';
import { CONFIRM_AFTER_MS, noteUnconfirmedFailure, unconfirmedFailure } from '../../nodes/shared/unconfirmedFailures';

const FILE = 'https://files.example/decks/t-1/deck.pptx';

/** One read, its file checked where the record asks for it: there, or not (yet). */
const judged = (body: Record<string, unknown>, there = true): StatusJudgement => {
	const judgement = judgeStatus(body);
	return judgement.fileToCheck ? settleFileCheck(judgement, there ? { there: true } : { there: false, why: 'the file host answered 404' }) : judgement;
};

describe('2. a flag that says the opposite is no failure', () => {
	test.each([
		['has_non_fatal_errors', { status: 'processing', has_non_fatal_errors: true }],
		['isNonFatal', { status: 'processing', isNonFatal: true }],
		['ignore_fatal_errors', { status: 'processing', ignore_fatal_errors: true }],
		['failOnError (a setting)', { status: 'processing', failOnError: true }],
		['fatal_errors_allowed (a setting)', { status: 'processing', fatal_errors_allowed: true }],
		['not_failed', { status: 'processing', not_failed: true }],
	])('%s: a running deck stays running', (_case, body) => {
		expect(judgeStatus(body)).toMatchObject({ state: 'running' });
		expect(judgeStatus(body)).not.toHaveProperty('failureReason');
	});

	test.each([
		['fatalErrorEncountered', { done: false, fatalErrorEncountered: true }],
		['has_errors', { status: 'processing', has_errors: true }],
		['isFailed', { status: 'processing', isFailed: true }],
		['errorOccurred', { status: 'processing', errorOccurred: true }],
		['fatal', { status: 'processing', fatal: true }],
		['has_fatal_error', { status: 'processing', has_fatal_error: true }],
	])('over-reach: %s still fails it', (name, body) => {
		expect(judgeStatus(body)).toMatchObject({ state: 'failed', failureAt: name });
	});
});

describe("1. a part of the job never speaks for the job", () => {
	const COVER = 'https://files.example/decks/t-1/cover.png';
	test.each([
		['a preview that is ready', { data: { preview: { status: 'ready', url: COVER }, output: { url: FILE } } }],
		['a payment that succeeded', { data: { payment: { status: 'succeeded' }, output: { url: FILE } } }],
		['a webhook delivered', { job: { webhook: { status: 'completed' }, output: { url: FILE } } }],
		['a thumbnail done', { thumbnail: { status: 'done', url: COVER }, download_url: FILE }],
	])('%s is not the deck finished: the deck is completed only once its file is there', (_case, body) => {
		const first = judgeStatus(body);
		expect(first.state).not.toBe('succeeded');
		expect(first.word).toBeUndefined();
		expect(first.fileToCheck).toMatchObject({ url: FILE });
		expect(judged(body, false).state).not.toBe('succeeded');
		expect(judged(body, true)).toMatchObject({ state: 'succeeded', deckUrl: FILE });
	});

	test.each([
		['an attempt being retried', { data: { attempts: [{ status: 'failed' }] } }],
		['an attempt being retried, beside the running word', { status: 'processing', data: { attempts: [{ status: 'failed', error: 'worker lost' }] } }],
		['a history of states', { job: { history: [{ state: 'error' }] } }],
		['a webhook that failed', { data: { webhook: { status: 'failed' } } }],
		['a payment that failed', { status: 'processing', payment: { status: 'failed' } }],
		['one slide that failed', { data: { slides: [{ status: 'failed' }] } }],
	])('%s does not fail a running deck', (_case, body) => {
		const judgement = judgeStatus(body);
		expect(judgement.state).not.toBe('failed');
		expect(judgement.failureReason).toBeUndefined();
	});

	test("the path suggestions never offer a part's word as the deck's", () => {
		const judgement = judgeStatus({ data: { id: 'd-1', slides: [{ status: 'queued' }, { status: 'done' }], payment: { status: 'paid' } } });
		expect(judgement.state).toBe('unknown');
		for (const suggestion of judgement.suggestions?.word ?? []) expect(suggestion.path).not.toMatch(/slides|payment/);
		expect(judgement.note ?? '').not.toMatch(/slides\[0\]\.status|payment\.status/);
	});

	test('a one-entry list is not plainly the record: its success word needs the file; a one-job answer still reads (AWS Batch)', () => {
		const batch = { jobs: [{ jobId: 'j-1', status: 'SUCCEEDED', container: { exitCode: 0 }, output: FILE }] };
		expect(judgeStatus(batch)).toMatchObject({ word: 'SUCCEEDED', state: 'unknown', fileToCheck: { url: FILE } });
		expect(judged(batch)).toMatchObject({ state: 'succeeded', deckUrl: FILE });
		expect(judged({ jobs: [{ jobId: 'j-1', status: 'SUCCEEDED' }] }).state).toBe('unknown');
		expect(judged({ jobs: [{ jobId: 'j-1', status: 'RUNNING' }] }).state).toBe('running');
		expect(judged({ jobs: [{ jobId: 'j-1', status: 'FAILED', statusReason: 'Essential container in task exited' }] })).toMatchObject({ state: 'failed', failureReason: 'Essential container in task exited' });
	});

	test('a word two levels down through a name that is no plain envelope is read, but its success needs the file', () => {
		const body = { order: { fulfilment: { status: 'completed' } }, deckUrl: FILE };
		expect(judgeStatus(body)).toMatchObject({ word: 'completed', state: 'unknown', fileToCheck: { url: FILE } });
		expect(judged(body, false).state).toBe('unknown');
		expect(judged(body, true)).toMatchObject({ state: 'succeeded', deckUrl: FILE });
		// through plain envelopes (Cloudflare's result.default), as before: the word and its link agree
		expect(judgeStatus({ success: true, errors: [], result: { default: { status: 'ready', url: FILE } } })).toMatchObject({ state: 'succeeded', deckUrl: FILE });
	});

	test("a text under a step's name is the record's member, not a part: suggested as the path to paste; a preview's text stays the preview's", () => {
		// `stage: "generating"` is a word member of this object (the e2e's record to read), never a part of the job
		const unread = judgeStatus({ taskId: 't1', result: { main: { stage: 'generating' } } });
		expect(unread).toMatchObject({ state: 'unknown', suggestions: { word: [{ path: 'result.main.stage', value: 'generating' }] } });
		expect(unread.note).toContain('Status Word Path `result.main.stage` is "generating"');
		// a link under a name beside the deck is that part's, never the deck to hand over
		expect(judgeStatus({ status: 'running', preview: 'https://files.example/cover.png' })).toMatchObject({ state: 'running' });
		expect(judgeStatus({ status: 'running', preview: 'https://files.example/cover.png' }).fileToCheck).toBeUndefined();
	});
});

describe('4. outputs that are not the deck', () => {
	test.each([
		['a thumbnail entry with an id', { status: 'processing', outputs: [{ type: 'thumbnail', id: 42 }] }],
		['a preview entry named like the deck', { status: 'processing', outputs: [{ type: 'preview', name: 'deck.pptx' }] }],
		['a thumbnail entry, no word', { outputs: [{ kind: 'thumbnail', file_id: 'f_1' }] }],
		['a preview entry with a link', { status: 'processing', outputs: [{ type: 'preview', url: 'https://cdn.example/renders/t-1/deck.pptx' }] }],
		['a storage key, no link, beside a running word', { status: 'generating', result: { key: 'decks/t-1/deck.pptx' } }],
	])('%s: never Completed, and no file to check', (_case, body) => {
		const judgement = judgeStatus(body);
		expect(judgement.state).not.toBe('succeeded');
		expect(judgement).not.toHaveProperty('fileToCheck');
		expect(judgement).not.toHaveProperty('deckUrl');
	});

	test('over-reach: a finished record with its deck beside a thumbnail entry hands over the deck; a success word with a storage key still completes', () => {
		expect(judged({ status: 'completed', outputs: [{ type: 'thumbnail', url: 'https://cdn.example/t-1/1.png' }, { type: 'presentation', url: FILE }] })).toMatchObject({ state: 'succeeded', deckUrl: FILE });
		expect(judgeStatus({ status: 'done', output: 's3://bucket/deck.pptx' })).toMatchObject({ state: 'succeeded', handover: 'output' });
	});
});

describe('5. a failure word with no reason may be a stage', () => {
	test('running until a later read confirms it, with the word to confirm and a note that says why', () => {
		const first = judgeStatus({ status: 'stopped' });
		expect(first).toMatchObject({ state: 'running', wordState: 'failed', word: 'stopped', failureToConfirm: 'stopped' });
		expect(first.note).toMatch(/with no reason and no error in the record.*read again before the deck is reported failed/);
		expect(judgeStatus({ status: 'stopped' }, { failureToConfirm: 'stopped' })).toMatchObject({ state: 'failed', note: expect.stringMatching(/confirmed on a second read/) });
		// the stage moves on: the next read is what it says
		expect(judged({ status: 'available', url: FILE })).toMatchObject({ state: 'succeeded', deckUrl: FILE });
	});

	test("a part's own error beside a bare failure word is no reason for the deck: an attempt's, a webhook's", () => {
		for (const body of [{ status: 'stopped', attempts: [{ error: 'worker lost' }] }, { status: 'stopped', webhook: { last_error: 'HTTP 500 from your endpoint' } }]) {
			expect(judgeStatus(body)).toMatchObject({ state: 'running', failureToConfirm: 'stopped' });
		}
		// a failed step's message is the deck's reason (CloudConvert's tasks[])
		expect(judgeStatus({ status: 'failed', tasks: [{ name: 'convert', status: 'error', message: 'Conversion failed' }] })).toMatchObject({ state: 'failed', failureReason: 'Conversion failed' });
	});

	test('over-reach: a failure word with a reason, an error member, or on the user’s own list fails at once', () => {
		expect(judgeStatus({ status: 'stopped', reason: 'Out of credits' })).toMatchObject({ state: 'failed', failureReason: 'Out of credits' });
		expect(judgeStatus({ status: 'failed', error: { code: 'x', message: 'y' } })).toMatchObject({ state: 'failed', failureReason: 'y' });
		expect(judgeStatus({ status: 'halted' }, { words: { succeeded: [], failed: ['halted'], running: [], own: ['failed'] } })).toMatchObject({ state: 'failed' });
	});
});

describe('3. a long record: the work is bounded, not what is seen', () => {
	const slides = (n: number) => Array.from({ length: n }, (_, i) => ({ index: i, title: `Slide ${i}`, notes: 'Speaker notes', layout: 'title-and-body', image: null }));

	test('a finished record with 500 slide entries before its download link is completed with that link', () => {
		expect(judgeStatus({ status: 'completed', slides: slides(500), download_url: FILE })).toMatchObject({ state: 'succeeded', deckUrl: FILE });
		// no word: the link past the bound is still found, and its file decides
		expect(judgeStatus({ slides: slides(500), download_url: FILE }).fileToCheck).toMatchObject({ url: FILE });
	});

	test('a record past the bound on the work says what was cut; a short one says nothing of it', () => {
		const huge = { rows: Array.from({ length: 60_000 }, (_, i) => ({ a: i, b: 'x', c: true, d: null })), download_url: FILE };
		const started = process.hrtime.bigint();
		const judgement = judgeStatus(huge);
		expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(2_000);
		expect(judgement.state).not.toBe('succeeded');
		expect(judgement.note).toMatch(/The record is longer than the reading reads: it stopped after 200000 values/);
		expect(judgeStatus({ slides: slides(5) }).note ?? '').not.toMatch(/longer than the reading reads/);
	});
});

describe("5. this process's memory of a failure to confirm (shared/unconfirmedFailures.ts)", () => {
	test('a later read confirms only a poll interval after the first that said the word, and for an hour; any other reading forgets it', () => {
		const at = 1_000_000;
		noteUnconfirmedFailure('cred', 'tsk_1', 'stopped', at);
		// back to back (a Get Status, then a Check Once): one moment of the deck, no confirmation
		expect(unconfirmedFailure('cred', 'tsk_1', at + 1)).toBeUndefined();
		// said again: still counted from the first read
		noteUnconfirmedFailure('cred', 'tsk_1', 'stopped', at + 4_000);
		expect(unconfirmedFailure('cred', 'tsk_1', at + CONFIRM_AFTER_MS)).toBe('stopped');
		expect(unconfirmedFailure('other', 'tsk_1', at + CONFIRM_AFTER_MS)).toBeUndefined();
		noteUnconfirmedFailure('cred', 'tsk_1', undefined, at + 6_000);
		expect(unconfirmedFailure('cred', 'tsk_1', at + 7_000)).toBeUndefined();
		noteUnconfirmedFailure('cred', 'tsk_2', 'stopped', at);
		expect(unconfirmedFailure('cred', 'tsk_2', at + 61 * 60_000)).toBeUndefined();
	});
});
