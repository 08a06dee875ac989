/**
 * Issue 50, part B (read more, with nothing wrong), the judgement's side; the simulator's real shapes run every
 * reader (test/workflows/services/real-services.test.ts). Each reading here has its over-reach side beside it: a
 * running record never becomes Completed or Failed by it.
 */
import { answerOf, isJobRecord } from '../../nodes/shared/outcome';
import { classify, judgeStatus, settleFileCheck, suggestionsHint, valueAtRecordPath, type StatusJudgement } from '../../nodes/shared/status';
import { atUserPath } from '../../nodes/shared/status/record';
import type { ServiceResponse } from '../../nodes/shared/transport';

const FILE = 'https://files.example/decks/t-1/deck.pptx';
const ARCHIVE = 'https://cdn.example/jobs/1/archive';
const SIGNED = `${ARCHIVE}?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAEXAMPLE%2F20260101&X-Amz-Signature=0123456789abcdef`;

const judged = (body: Record<string, unknown>, there = true, context = {}): StatusJudgement => {
	const judgement = judgeStatus(body, context);
	return judgement.fileToCheck ? settleFileCheck(judgement, there ? { there: true } : { there: false, why: 'the file host answered 404' }) : judgement;
};

describe('B6: words with structure are read by their parts', () => {
	test.each([
		['job.failed', 'failed'],
		['video.failed', 'failed'],
		['fine_tuning.job.cancelled', 'failed'],
		['JobStatus.FAILED', 'failed'],
		['TaskState.CANCELLED', 'failed'],
		['X_STATUS_FAILED', 'failed'],
		['job.processing', 'running'],
		['JobStatus.RUNNING', 'running'],
		['job.queued', 'running'],
		['TaskStatus.SUCCEEDED', 'succeeded'],
	])('%s is %s', (word, state) => {
		expect(classify(word).state).toBe(state);
	});

	test('a dotted word that ends in a success word waits for the file, as ASSEMBLY_COMPLETED does', () => {
		expect(classify('render.completed')).toMatchObject({ state: 'unknown', endsInSuccess: true });
		expect(judged({ id: 't-1', status: 'render.completed', download_url: FILE })).toMatchObject({ state: 'succeeded', deckUrl: FILE });
		expect(judged({ id: 't-1', status: 'render.completed', download_url: FILE }, false).state).toBe('unknown');
		// Coconut's own, on the list: a success word, believed with the deck beside it
		expect(classify('job.completed')).toMatchObject({ state: 'succeeded', canonical: 'job_completed' });
	});

	test('a dotted failure two envelopes down is the job’s word (with no reason, confirmed on the next read: issue 50 A5)', () => {
		const body = { success: true, result: { default: { status: 'render.failed' } } };
		expect(judged(body)).toMatchObject({ wordState: 'failed', wordAt: 'result.default.status', failureToConfirm: 'render.failed' });
		expect(judged(body, true, { failureToConfirm: 'render.failed' })).toMatchObject({ state: 'failed' });
		expect(judged({ ...body, result: { default: { status: 'render.failed', error: 'Out of memory' } } })).toMatchObject({ state: 'failed', failureReason: 'Out of memory' });
	});

	test('over-reach: a dotted word that negates its failure, or whose stop is still under way, never fails a deck', () => {
		for (const word of ['job.not_failed', 'job.no_error', 'job.failed.retrying', 'JobStatus.CANCELLING']) {
			expect({ word, state: judged({ status: word }).state }).toEqual({ word, state: expect.stringMatching(/^(running|unknown)$/) });
		}
		// a file name is no word, wherever it is
		expect(judged({ status: 'processing', source: 'brief.docx' }).state).toBe('running');
	});
});

describe('B7: a failure with no word, under the answer’s data wrapper', () => {
	test('{code, msg, data: {…, error_reason}} is Failed with that reason, where it was read', () => {
		const judgement = judged({ code: 0, msg: 'ok', request_id: 'r-1', data: { task_id: 't-1', progress: 40, error_reason: 'The brief was refused: it names a real person.' } });
		expect(judgement).toMatchObject({ state: 'failed', failureReason: 'The brief was refused: it names a real person.', failureAt: 'data.error_reason' });
	});

	test('over-reach: an empty reason, a reason of a retried attempt, or a reason outside the wrapper’s record fail nothing', () => {
		for (const body of [
			{ code: 0, msg: 'ok', data: { task_id: 't-1', progress: 40, error_reason: '' } },
			{ code: 0, msg: 'ok', data: { task_id: 't-1', progress: 40, error_reason: null } },
			{ code: 0, msg: 'ok', data: { task_id: 't-1', progress: 40, attempts: [{ error_reason: 'timed out, retrying' }] } },
			{ code: 0, msg: 'ok', data: { task_id: 't-1', progress: 40, preview: { error_reason: 'thumbnail failed' } } },
		]) {
			expect(judged(body).state).toBe('unknown');
		}
		// an answer that is no envelope (members of its own beside the object) is read as it was
		expect(judged({ id: 't-1', progress: 40, settings: { error_reason: 'n/a yet' } }).state).toBe('unknown');
	});
});

describe('B8: moderation verdicts in the spellings services use', () => {
	test.each([
		['moderation_blocked', 'OpenAI images and Sora'],
		['content_policy_violation', 'OpenAI images'],
		['NSFW', 'Replicate, Leonardo'],
		['nsfw_content', 'an NSFW compound'],
		['SAFETY', 'Gemini finishReason'],
		['SAFETY.INPUT.TEXT', 'Runway failureCode'],
		['SAFETY.OUTPUT.VIDEO', 'Runway failureCode'],
		['IMAGE_SAFETY', 'Gemini'],
		['PROHIBITED_CONTENT', 'Gemini'],
		['SPII', 'Gemini'],
		['BLOCKLIST', 'Gemini'],
		['content_filter', 'Azure OpenAI'],
		['sensitive_content', 'MiniMax'],
		['RAI_FILTERED', 'Vertex AI'],
		['Request Moderated', 'Black Forest Labs'],
	])('%s (%s) fails the deck at once, a verdict being its own reason', (word) => {
		expect(judged({ id: 't-1', status: word })).toMatchObject({ state: 'failed' });
		expect(judged({ id: 't-1', status: word })).not.toHaveProperty('failureToConfirm');
	});

	test('over-reach: a bare failure word that is no verdict is still confirmed on a later read (issue 50 A5)', () => {
		expect(judged({ id: 't-1', status: 'stopped' })).toMatchObject({ state: 'running', failureToConfirm: 'stopped' });
	});

	test('a verdict as the reason beside a failure word is the reason', () => {
		expect(judged({ id: 't-1', status: 'FAILED', failureCode: 'SAFETY.INPUT.TEXT', failure: 'The prompt was flagged by moderation.' })).toMatchObject({
			state: 'failed',
			failureReason: 'The prompt was flagged by moderation.',
		});
	});

	test('over-reach: a check that is pending, under review or passed is no refusal', () => {
		for (const word of ['moderation_pending', 'moderating', 'under_review', 'moderation_review', 'safety_check_passed', 'nsfw_check_ok', 'not_nsfw', 'SAFETY_CHECKING', 'passed_safety', 'check_nsfw']) {
			expect({ word, state: judged({ id: 't-1', status: word }).state }).toEqual({ word, state: expect.stringMatching(/^(running|unknown)$/) });
		}
	});
});

describe('B9: a terminal record carried by an error status', () => {
	const response = (status: number, body: unknown, contentType = 'application/json'): ServiceResponse => ({
		status,
		headers: { 'content-type': contentType },
		text: typeof body === 'string' ? body : JSON.stringify(body),
	});
	const record = { id: 't-1', status: 'FAILED', failure: 'The render ran out of time.', failureCode: 'INTERNAL.BAD_OUTPUT.CODE01' };

	test('a 504 with the deck’s own job record (its id, its word) is the deck’s answer', () => {
		expect(isJobRecord(response(504, record), 't-1')).toBe(true);
		const answer = answerOf(response(504, record));
		expect(answer).toMatchObject({ route: 'success', status: 504, body: record });
		expect(judgeStatus(answer.body, { httpStatus: 504 })).toMatchObject({ state: 'failed', failureReason: 'The render ran out of time.' });
	});

	test('over-reach: a gateway’s page, a gateway’s JSON, this service’s problem body and another deck’s record stay faults', () => {
		expect(isJobRecord(response(504, '<html><body><h1>504 Gateway Time-out</h1></body></html>', 'text/html'), 't-1')).toBe(false);
		expect(isJobRecord(response(504, { status: 504, error: 'Gateway Timeout', message: 'Upstream timeout' }), 't-1')).toBe(false);
		expect(isJobRecord(response(502, { status: 'error', message: 'upstream connect error' }), 't-1')).toBe(false);
		expect(isJobRecord(response(503, { type: 'about:blank', code: 'surface_disabled', status: 'failed', taskId: 't-1', retryable: true, requestId: 'r' }), 't-1')).toBe(false);
		expect(isJobRecord(response(504, { ...record, id: 't-2' }), 't-1')).toBe(false);
		// a record with no word the vocabulary reads is no verdict either
		expect(isJobRecord(response(504, { id: 't-1', error: 'timeout' }), 't-1')).toBe(false);
		// and a 4xx is the contract's (a 404 is "not found", never a record)
		expect(isJobRecord(response(404, record), 't-1')).toBe(false);
	});
});

describe('B10: a link under a member whose name holds "status"', () => {
	test('statuses.<id>.videos[0].url is the file, not an API address', () => {
		const body = { statuses: { tsk_123: { status: 'COMPLETED', videos: [{ url: FILE }] } } };
		expect(judged(body)).toMatchObject({ state: 'succeeded', deckUrl: FILE });
	});

	test('over-reach: the status address itself is still never the deck', () => {
		const judgement = judged({ status: 'processing', status_url: 'https://api.example/v1/decks/t-1/status', urls: { status: 'https://api.example/v1/decks/t-1/status' } });
		expect(judgement.state).toBe('running');
		expect(judgement.deckUrl).toBeUndefined();
	});
});

describe('B11: a numeric error flag is not the reason', () => {
	test('error: 1 beside error_description: the description is the reason', () => {
		expect(judged({ id: 't-1', status: 'failed', error: 1, error_description: 'The brief could not be rendered.' })).toMatchObject({ state: 'failed', failureReason: 'The brief could not be rendered.' });
		expect(judged({ id: 't-1', error: 1, error_description: 'The brief could not be rendered.' })).toMatchObject({ state: 'failed', failureReason: 'The brief could not be rendered.' });
		// alone, the flag says what it is, never a bare "1"
		expect(judged({ id: 't-1', status: 'failed', error: 1 }).failureReason).toBe('error: 1');
	});

	test('over-reach: error: 0 and an empty description fail nothing', () => {
		expect(judged({ id: 't-1', status: 'processing', error: 0, error_description: '' }).state).toBe('running');
		expect(judged({ id: 't-1', status: 'processing', error: false, error_description: null }).state).toBe('running');
	});
});

describe('B12: a suggested path works for every deck', () => {
	const record = (id: string, word: string) => ({ statuses: { [id]: { status: word, videos: [] } } });

	test('a member named after the deck’s id is suggested as *, and the path options read * as any one member', () => {
		const judgement = judged(record('tsk_123', 'baking'));
		expect(judgement.suggestions?.word).toEqual([{ path: 'statuses.*.status', value: 'baking' }]);
		// the same path reads another deck's record
		for (const id of ['tsk_123', 'tsk_456', 'b7f1c2d4-9e8a-4c3b-8f2d-1a2b3c4d5e6f']) {
			expect(judged(record(id, 'FAILED'), true, { paths: { word: 'statuses.*.status' } })).toMatchObject({ wordState: 'failed', word: 'FAILED', wordAt: `statuses.${id}.status` });
		}
		expect(valueAtRecordPath(record('tsk_9', 'x'), 'statuses.*.status')).toBe('x');
		expect(atUserPath({ data: { files: [{ url: 'a' }, { url: FILE }] } }, 'data.files.*.url')).toEqual({ value: 'a', path: 'data.files[0].url' });
		// a File Link Path with * too
		expect(judged({ statuses: { tsk_456: { state: 'done', videos: [{ url: FILE }] } } }, true, { paths: { file: 'statuses.*.videos[0].url' } })).toMatchObject({ state: 'succeeded', deckUrl: FILE });
	});

	test('over-reach: a member that is a word, or one of several, keeps its name', () => {
		expect(judged({ result: { default: { status: 'baking' } } }).suggestions?.word).toEqual([{ path: 'result.default.status', value: 'baking' }]);
		const two = judged({ statuses: { tsk_123: { status: 'baking' }, tsk_456: { status: 'baking' } } });
		expect(two.suggestions?.word?.[0].path).toBe('statuses.tsk_123.status');
		// a path with * that matches nothing is said as a miss
		expect(judged({ status: 'processing' }, true, { paths: { word: 'statuses.*.status' } }).pathMisses?.[0]).toMatchObject({ option: 'Status Word Path', path: 'statuses.*.status' });
	});
});

describe('B13: a deck completed by its file, whose record has a word on no list', () => {
	test('the note says the word and its path, not "no status word"', () => {
		const judgement = judged({ success: true, result: { default: { status: 'wrapped_up', url: FILE } } });
		expect(judgement).toMatchObject({ state: 'succeeded', deckUrl: FILE });
		expect(judgement.note).toContain('The service said "wrapped_up" at result.default.status, a word on no Status Words list');
		expect(judgement.note).toContain('set Status Word Path to `result.default.status` and add "wrapped_up" to Succeeded Status Words');
		expect(judgement.note).not.toContain('no status word');
	});

	test('a running record with such a word says it too, with the path to paste', () => {
		const judgement = judged({ success: true, result: { default: { status: 'baking' } } });
		expect(judgement.state).toBe('unknown');
		expect(judgement.note).toContain('The service said "baking" at result.default.status, a word on no Status Words list: taken as still working.');
	});

	test('over-reach: a part’s word is never said as the deck’s, and a record with no word still says so', () => {
		const part = judged({ success: true, result: { slides: [{ status: 'drafted' }, { status: 'drafted' }], url: FILE } });
		expect(part.note ?? '').not.toContain('"drafted"');
		expect(judged({ result: { main: { condition: 'baking' } } }).note).toContain("The service's answer carries no status word");
	});
});

describe('B14: a signed URL in a suggestion', () => {
	test('the suggestion shows the file as the downloads do, without its query', () => {
		const judgement = judged({ status: 'completed', archive: SIGNED }, true, { words: { succeeded: ['completed'], failed: [], running: [], own: ['succeeded'] } });
		expect(judgement.suggestions?.file).toEqual([{ path: 'archive', value: ARCHIVE }]);
		const texts = [judgement.note ?? '', suggestionsHint(judgement.suggestions!, 1)];
		for (const text of texts) {
			expect(text).toContain(ARCHIVE);
			expect(text).not.toMatch(/X-Amz-Signature|X-Amz-Credential|\?/);
		}
	});
});
