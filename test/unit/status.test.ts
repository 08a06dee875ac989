/**
 * Status word -> state, with design.md's default map and the user's overrides.
 */
import {
	DEFAULT_STATUS_WORDS,
	parseWordList,
	stateOf,
	statusWordOf,
	statusWords,
	stateFields,
	expandJsonStrings,
	judgeStatus,
	locateRecord,
	settleFileCheck,
	type DeckState,
} from '../../nodes/shared/status';
import { indexRecord } from '../../nodes/shared/status/leaves';

const fieldsOf = (...args: Parameters<typeof judgeStatus>) => stateFields(args[0], judgeStatus(...args));

/** design.md, "Default status map", copied word for word. */
const DESIGN_MAP: Array<[string, DeckState]> = [
	...['completed', 'complete', 'done', 'succeeded', 'success', 'ready', 'finished'].map((w) => [w, 'succeeded'] as [string, DeckState]),
	...['failed', 'failure', 'error', 'errored', 'cancelled', 'canceled', 'expired', 'rejected'].map(
		(w) => [w, 'failed'] as [string, DeckState],
	),
	...['queued', 'pending', 'processing', 'running', 'in_progress', 'generating', 'started', 'created', 'accepted'].map(
		(w) => [w, 'running'] as [string, DeckState],
	),
];

describe('the default status map', () => {
	it.each(DESIGN_MAP)('%s -> %s', (word, state) => {
		expect(stateOf(word)).toBe(state);
	});

	it('keeps every word of design.md in its list, each word in one list', () => {
		const all = [...DEFAULT_STATUS_WORDS.succeeded, ...DEFAULT_STATUS_WORDS.failed, ...DEFAULT_STATUS_WORDS.running];
		expect(all).toEqual(expect.arrayContaining(DESIGN_MAP.map(([word]) => word)));
		expect(new Set(all).size).toBe(all.length);
	});

	// Issue 31: the terminal words real services use end the wait at once, in any case and with - _ or a space;
	// the words of a transition keep it running (the terminal word comes next).
	it.each<[string, DeckState]>([
		['TIMED-OUT', 'failed'],
		['timed out', 'failed'],
		['TIMED_OUT', 'failed'],
		['Timeout', 'failed'],
		['ABORTED', 'failed'],
		['killed', 'failed'],
		['Terminated', 'failed'],
		['abandoned', 'failed'],
		['REVOKED', 'failed'],
		['Fail', 'failed'],
		['FAILURE', 'failed'],
		['CREATE_TASK_FAILED', 'failed'],
		['generate-audio-failed', 'failed'],
		['SENSITIVE_WORD_ERROR', 'failed'],
		['timing out', 'running'],
		['Aborting', 'running'],
		['CANCELLING', 'running'],
		['canceling', 'running'],
		['terminating', 'running'],
		['SENT', 'running'],
		['submitted', 'running'],
		['IN_QUEUE', 'running'],
		['Queueing', 'running'],
		['Preparing', 'running'],
		['STARTED', 'running'],
		['RETRY', 'running'],
		['SUCCESS', 'succeeded'],
		['succeed', 'succeeded'],
		['Success', 'succeeded'],
		['partial', 'succeeded'],
		// documented stages on the way (Suno): running, so no word on no list is reported for them
		['TEXT_SUCCESS', 'running'],
		['FIRST_SUCCESS', 'running'],
		// a stop that was only asked for is still under way (Mistral's CANCELLATION_REQUESTED)
		['cancel_requested', 'running'],
		['CANCELLATION_REQUESTED', 'running'],
	])('the vocabulary of real services: %p -> %s', (word, state) => {
		expect(stateOf(word)).toBe(state);
	});

	it.each<[string, DeckState]>([
		// Azure's long-running operations and AWS Bedrock: PascalCase
		['NotStarted', 'running'],
		['InProgress', 'running'],
		['Succeeded', 'succeeded'],
		['TimedOut', 'failed'],
		['Canceled', 'failed'],
		// Vertex AI's JobState: the enum's type name in front of the word
		['JOB_STATE_QUEUED', 'running'],
		['JOB_STATE_RUNNING', 'running'],
		['JOB_STATE_CANCELLING', 'running'],
		['JOB_STATE_SUCCEEDED', 'succeeded'],
		['JOB_STATE_PARTIALLY_SUCCEEDED', 'succeeded'],
		['JOB_STATE_FAILED', 'failed'],
		['JOB_STATE_CANCELLED', 'failed'],
		['JOB_STATE_EXPIRED', 'failed'],
		['JOB_STATE_PAUSED', 'running'],
		['PIPELINE_STATE_SUCCEEDED', 'succeeded'],
		// an action under way: OpenAI batches, AWS MediaConvert, DeepL documents, ElevenLabs dubbing
		['validating', 'running'],
		['finalizing', 'running'],
		['PROGRESSING', 'running'],
		['translating', 'running'],
		['dubbing', 'running'],
		['NOT_START', 'running'],
		// a compound ending in a stop
		['user_cancelled', 'failed'],
		['KILLED', 'failed'],
	])('the spellings of more real services: %p -> %s', (word, state) => {
		expect(stateOf(word)).toBe(state);
	});

	it('a compound failure word is inferred only while the Failed list is the built-in one', () => {
		expect(stateOf('render_failed', statusWords({ failed: ['broken'] }))).toBe('unknown');
		expect(stateOf('render_failed', statusWords({ running: ['queued'] }))).toBe('failed');
	});

	it.each<[string, DeckState]>([
		['COMPLETED', 'succeeded'],
		['  Done  ', 'succeeded'],
		['In Progress', 'running'],
		['in-progress', 'running'],
		['IN_PROGRESS', 'running'],
		['in  -  progress', 'running'],
		['Cancelled', 'failed'],
		['\tQueued\n', 'running'],
	])('normalises case, spaces and dashes: %p -> %s', (word, state) => {
		expect(stateOf(word)).toBe(state);
	});

	it.each([['on_hold'], ['needs_review'], ['in_limbo'], [''], ['completed!']])('an unknown word (%p) is unknown, never guessed', (word) => {
		expect(stateOf(word)).toBe('unknown');
	});

	it('no word at all is unknown', () => {
		expect(stateOf(undefined)).toBe('unknown');
	});
});

describe('overrides', () => {
	it('moves a word from one list to another', () => {
		// "complete" is the one that reads as its opposite in this deployment.
		const words = statusWords({ failed: ['complete'] });
		expect(stateOf('complete', words)).toBe('failed');
		expect(words.succeeded).not.toContain('complete');
		// The other defaults of the succeeded list stay.
		expect(stateOf('completed', words)).toBe('succeeded');
		expect(stateOf('queued', words)).toBe('running');
	});

	it('a user list replaces the default of its state', () => {
		const words = statusWords({ failed: ['complete', 'aborted'] });
		expect(words.failed).toEqual(['complete', 'aborted']);
		expect(stateOf('aborted', words)).toBe('failed');
		// "error" was a default failed word; the user's list replaced it.
		expect(stateOf('error', words)).toBe('unknown');
	});

	it('normalises the user words too', () => {
		const words = statusWords({ running: ['Waiting For Review', 'in-review'] });
		expect(stateOf('waiting for review', words)).toBe('running');
		expect(stateOf('IN_REVIEW', words)).toBe('running');
	});

	it('moves a word out of every default list it is taken into', () => {
		const words = statusWords({ succeeded: ['Pending'], running: ['paused'] });
		expect(stateOf('pending', words)).toBe('succeeded');
		expect(words.failed).toEqual(DEFAULT_STATUS_WORDS.failed);
		expect(stateOf('processing', words)).toBe('unknown');
	});

	it('no overrides gives the defaults', () => {
		expect(statusWords()).toEqual(DEFAULT_STATUS_WORDS);
		expect(statusWords({})).toEqual(DEFAULT_STATUS_WORDS);
	});
});

describe('parseWordList', () => {
	it('splits on commas and newlines and normalises each word', () => {
		expect(parseWordList('Complete, done\nIn Progress,,\n  ready-for-download ')).toEqual([
			'complete',
			'done',
			'in_progress',
			'ready_for_download',
		]);
	});

	it.each([[undefined], [''], [' , \n ,']])('an empty list (%p) keeps the default', (text) => {
		expect(parseWordList(text)).toBeUndefined();
	});

	it('feeds statusWords: an empty option leaves the default in place', () => {
		const words = statusWords({ succeeded: parseWordList(''), failed: parseWordList('complete') });
		expect(words.succeeded).toEqual(DEFAULT_STATUS_WORDS.succeeded.filter((w) => w !== 'complete'));
		expect(words.failed).toEqual(['complete']);
	});
});

describe('statusWordOf and stateFields', () => {
	it('reads `status`, falling back to `state`', () => {
		expect(statusWordOf({ status: 'done', state: 'running' })).toBe('done');
		expect(statusWordOf({ state: 'running' })).toBe('running');
		expect(statusWordOf({ status: 3, state: 'queued' })).toBe('queued');
		expect(statusWordOf({ progress: 40 })).toBeUndefined();
	});

	it('reads a word inside a status object, and a number as text (text wins)', () => {
		expect(statusWordOf({ status: { code: 'completed', progress: 100 } })).toBe('completed');
		expect(statusWordOf({ state: { name: 'RUNNING' } })).toBe('RUNNING');
		expect(statusWordOf({ status: { code: 2, label: 'done' }, state: { value: 'done' } })).toBe('done');
		expect(statusWordOf({ status: 3 })).toBe('3');
		expect(stateOf(statusWordOf({ status: 3 }), statusWords({ succeeded: ['3'] }))).toBe('succeeded');
	});

	it('adds our state and passes every other field through', () => {
		const body = { taskId: 't-1', status: 'Generating', progress: 40, url: null };
		expect(fieldsOf(body)).toEqual({ taskId: 't-1', status: 'Generating', progress: 40, url: null, state: 'running', statusWord: 'Generating' });
	});

	it("keeps the service's own `state` as serviceState", () => {
		expect(fieldsOf({ taskId: 't-1', state: 'done', deckUrl: 'https://files.example/t-1.pptx' })).toEqual({
			taskId: 't-1',
			deckUrl: 'https://files.example/t-1.pptx',
			state: 'succeeded',
			statusWord: 'done',
			serviceState: 'done',
		});
		expect(fieldsOf({ taskId: 't-1', status: 'failed', error: 'Out of credits', state: { stage: 3 } })).toEqual({
			taskId: 't-1',
			status: 'failed',
			error: 'Out of credits',
			state: 'failed',
			statusWord: 'failed',
			failureReason: 'Out of credits',
			serviceState: { stage: 3 },
		});
	});

	it('reports an unknown word as-is, with state unknown and the lists that settle it', () => {
		expect(fieldsOf({ status: 'awaiting_moderation' })).toEqual({
			status: 'awaiting_moderation',
			state: 'unknown',
			statusWord: 'awaiting_moderation',
			statusNote:
				'The service said "awaiting_moderation", a word on no Status Words list: taken as still working. If it means still working, add "awaiting_moderation" to Running Status Words; if the deck ended without a deck, to Failed Status Words; if it is finished, to Succeeded Status Words.',
		});
	});

	it('uses the given words', () => {
		expect(fieldsOf({ status: 'complete' }, { words: statusWords({ failed: ['complete'] }) }).state).toBe('failed');
	});
});

describe('the word is wherever the record puts it (issue 31), and only there', () => {
	it.each<[string, Record<string, unknown>, string | undefined, string | undefined]>([
		['Celery', { task_id: 't', task_status: 'FAILURE', task_result: 'boom' }, 'FAILURE', 'task_status'],
		['camelCase', { id: 't', jobStatus: 'RUNNING' }, 'RUNNING', 'jobStatus'],
		['a state member', { deck_state: 'done' }, 'done', 'deck_state'],
		['phase', { phase: 'queued' }, 'queued', 'phase'],
		['Stability', { finish_reason: 'CONTENT_FILTERED', seed: 1 }, 'CONTENT_FILTERED', 'finish_reason'],
		['an envelope', { code: 0, message: 'SUCCEED', data: { task_id: 't', task_status: 'processing' } }, 'processing', 'data.task_status'],
		['JSON:API', { data: { type: 'deck', attributes: { deckStatus: 'ready' } } }, 'ready', 'data.attributes.deckStatus'],
		['a named record', { generations_by_pk: { id: 'g', status: 'COMPLETE' } }, 'COMPLETE', 'generations_by_pk.status'],
		['JSend: the envelope\'s "success" is not the deck\'s', { status: 'success', data: { taskId: 't', status: 'processing' } }, 'processing', 'data.status'],
		['status before a member ending in status', { progress_status: 'rendering', status: 'generating' }, 'generating', 'status'],
		['text before a number', { status: 200, task_status: 'SENT' }, 'SENT', 'task_status'],
	])('%s', (_, body, word, path) => {
		expect(locateRecord(body)).toMatchObject({ word, path });
		expect(statusWordOf(body)).toBe(word);
	});

	it.each<[string, Record<string, unknown>]>([
		['a per-format export\'s status', { progress: 40, exports: { pdf: { status: 'failed' } } }],
		['an error object\'s status', { error: { status: 'ok' } }],
		['a response envelope\'s status message', { task_id: 't', base_resp: { status_code: 0, status_msg: 'success' } }],
		['a message', { message: 'Success', code: 0 }],
	])('is not the word: %s', (_, body) => {
		expect(statusWordOf(body)).toBeUndefined();
	});

	it('says where the word was read when not in status or state', () => {
		expect(judgeStatus({ task_status: 'STARTED' })).toMatchObject({ state: 'running', wordAt: 'task_status', note: '(The word was read from task_status.)' });
		expect(judgeStatus({ status: { code: 'generating' } })).not.toHaveProperty('note');
		expect(judgeStatus({ state: 'generating' })).not.toHaveProperty('note');
	});

	it('a 202 without a word is running; a 200 without one is unknown, and says so', () => {
		expect(judgeStatus({}, { httpStatus: 202 })).toEqual({ state: 'running', wordState: 'unknown', links: [] });
		expect(judgeStatus({}, { httpStatus: 200 })).toMatchObject({ state: 'unknown', note: expect.stringContaining('no status word') });
	});

	it('the reason of a failure word: a status message, a result\'s prose, an envelope\'s own message one level down, never its "success"', () => {
		expect(judgeStatus({ data: { task_status: 'failed', task_status_msg: 'Content risk' }, message: 'SUCCEED' }).failureReason).toBe('Content risk');
		expect(judgeStatus({ task_status: 'FAILURE', task_result: 'Out of memory while rendering' }).failureReason).toBe('Out of memory while rendering');
		expect(judgeStatus({ status: 'Fail', base_resp: { status_code: 1027, status_msg: 'Refused by moderation' } }).failureReason).toBe('Refused by moderation');
		expect(judgeStatus({ status: 'Fail', base_resp: { status_code: 0, status_msg: 'success' } })).not.toHaveProperty('failureReason');
		expect(judgeStatus({ status: 'failed', errorCode: 500, errorMessage: 'Render crashed' })).toMatchObject({ failureReason: 'Render crashed', failureCode: '500' });
		expect(judgeStatus({ status: 'FAILED', failure: 'Unsafe prompt', failureCode: 'SAFETY.INPUT.TEXT' })).toMatchObject({ failureReason: 'Unsafe prompt', failureCode: 'SAFETY.INPUT.TEXT' });
	});
});

describe('a preview is not the deck (issue 31)', () => {
	const PPTX = 'https://files.example/decks/t-1/deck.pptx';
	const PNG = 'https://cdn.example/t-1/out-0.png';

	it('while the word says running, neither a preview nor a bare output link is a hand-over; the deck\'s own file is', () => {
		expect(judgeStatus({ status: 'processing', output: [PNG] }).state).toBe('running');
		expect(judgeStatus({ status: 'processing', output: ['https://cdn.example/t-1/out-0'] }).state).toBe('running');
		expect(judgeStatus({ status: 'processing', output: 'previews/slide-1.jpg' }).state).toBe('running');
		expect(judgeStatus({ status: 'processing', urls: { stream: 'https://stream.example/v1/files/t-1' } }).state).toBe('running');
		// the deck's own file under a running word: completed once the file is there (settleFileCheck), not on the link alone
		const linked = judgeStatus({ status: 'processing', output: [PPTX] });
		expect(linked).toMatchObject({ state: 'running', fileToCheck: { path: 'output[0]', url: PPTX } });
		expect(settleFileCheck(linked, { there: true })).toMatchObject({ state: 'succeeded', handover: 'output[0]', deckUrl: PPTX });
		expect(settleFileCheck(linked, { there: false, why: 'the file host answered 404' })).toMatchObject({ state: 'running', note: expect.stringContaining('the file is not there yet (the file host answered 404): still checking') });
	});

	it('an image, a thumbnail, an editor page is never the deck, whatever the word; beside the file, the file is deckUrl', () => {
		for (const body of [{ status: 'completed', output: [PNG] }, { status: 'completed', thumbnail_url: PNG }, { status: 'completed', data: { edit_path: 'https://app.example/presentation?id=1' } }]) {
			expect(judgeStatus(body).state).toBe('unknown');
		}
		const both = { status: 'completed', output: [PNG, PPTX], thumbnail_url: PNG };
		expect(judgeStatus(both)).toMatchObject({ state: 'succeeded', handover: 'output[1]' });
		expect(judgeStatus(both).deckUrl).toBe(PPTX);
		expect(judgeStatus({ status: 'processing', output: [PNG] })).not.toHaveProperty('deckUrl');
	});

	it('a storage key is judged by its preview words only: "status-report.pptx" is a deck, "previews/cover.webp" is not', () => {
		expect(judgeStatus({ status: 'completed', result: { key: 'decks/status-report.pptx' } })).toMatchObject({ state: 'succeeded', handover: 'result' });
		expect(judgeStatus({ status: 'completed', result: { key: 'previews/cover.webp' } }).state).toBe('unknown');
	});

	it('a result text that is prose is no file (a failure text where the result would be)', () => {
		expect(judgeStatus({ status: 'FAILURE', result: 'The deck could not be generated.' })).toMatchObject({ state: 'failed', failureReason: 'The deck could not be generated.' });
	});
});

describe("an operation with no word: Google's `done` (issue 31)", () => {
	const FILE = 'https://files.example/decks/tsk_1.pptx';
	const name = 'models/deck-1/operations/op_1';

	it('done: false, or no done yet, is still working; done: false says nothing more', () => {
		expect(judgeStatus({ name, done: false })).toEqual({ state: 'running', wordState: 'running', links: [] });
		expect(judgeStatus({ name }).state).toBe('unknown');
	});

	it('done: true with the deck is completed, with an error failed with its message: no note, that is how it speaks', () => {
		expect(judgeStatus({ name, done: true, response: { samples: [{ file: { uri: FILE } }] } })).toMatchObject({ state: 'succeeded', handover: expect.any(String) });
		expect(judgeStatus({ name, done: true, response: { samples: [{ file: { uri: FILE } }] } }).note).toBeUndefined();
		const failed = judgeStatus({ name, done: true, error: { code: 4, message: 'Deadline exceeded.' } });
		expect(failed).toMatchObject({ state: 'failed', failureReason: 'Deadline exceeded.' });
		expect(failed.note).toBeUndefined();
	});

	it('done: true with nothing to hand over and no error ended without a deck: failed now, with the reason it gives', () => {
		const filtered = judgeStatus({ name, done: true, response: { videoResponse: { raiMediaFilteredCount: 1, raiMediaFilteredReasons: ['The prompt was blocked by the safety filter.'] } } });
		expect(filtered).toMatchObject({ state: 'failed', failureReason: 'The prompt was blocked by the safety filter.' });
		expect(filtered.note).toContain('done: true');
		expect(judgeStatus({ name, done: true, response: {} })).toMatchObject({ state: 'failed' });
	});

	it('a word, where the record has one, is read before done', () => {
		expect(judgeStatus({ status: 'processing', done: true }).state).toBe('running');
	});
});

describe('judgeStatus: the word is one witness, the record the other', () => {
	const FILE = 'https://files.example/decks/t-1/deck.pptx';

	it.each<[string, Record<string, unknown>, string]>([
		['a failure text', { status: 'completed', failureReason: 'render crashed' }, 'render crashed'],
		['an error object', { status: 'done', error: { code: 'E1', message: 'out of memory' } }, 'out of memory'],
		['a list of errors', { status: 'ready', errors: [{ message: 'slide 3' }, 'slide 4'] }, 'slide 3; slide 4'],
		['a failure object', { status: 'success', failure: { reason: 'timeout' } }, 'timeout'],
		['snake case', { status: 'finished', failure_reason: 'quota' }, 'quota'],
		['a flag', { status: 'complete', failed: true }, 'failed: true'],
		['inside the status object', { status: { code: 'done', error: 'broken' } }, 'broken'],
	])('a failure member with content means failed, whatever the word: %s', (_, body, reason) => {
		const judgement = judgeStatus(body);
		expect(judgement).toMatchObject({ state: 'failed', failureReason: reason });
		expect(judgement.note).toMatch(/but the record carries a failure reason/);
	});

	it.each<[string, Record<string, unknown>]>([
		['null', { status: 'completed', error: null, deckUrl: FILE }],
		['empty text', { status: 'completed', error: '', deckUrl: FILE }],
		['empty list', { status: 'completed', errors: [], deckUrl: FILE }],
		['empty object', { status: 'completed', failure: {}, deckUrl: FILE }],
		['false flag', { status: 'completed', failed: false, deckUrl: FILE }],
	])('an empty failure member is no failure: %s', (_, body) => {
		expect(judgeStatus(body)).toEqual({ state: 'succeeded', wordState: 'succeeded', word: 'completed', handover: 'deckUrl', deckUrl: FILE, links: [{ path: 'deckUrl', url: FILE }] });
	});

	it('a default success word with nothing to hand over is not believed: unknown, with what was claimed and missing', () => {
		const judgement = judgeStatus({ status: 'done', progress: 100 });
		expect(judgement.state).toBe('unknown');
		expect(judgement.note).toBe(
			'The service said "done", but the record has nothing to hand over (no result, link or file): not taken as finished, still checking. If "done" means finished in this deployment, add it to Succeeded Status Words; if it means still working, add it to Running Status Words.',
		);
	});

	it.each<[string, Record<string, unknown>, string]>([
		['a deckUrl', { status: 'done', deckUrl: FILE }, 'deckUrl'],
		['files', { status: 'done', files: { pdf: 'https://cdn.example/x' } }, 'files.pdf'],
		['a relative path', { status: 'done', result: { download: '/v1/decks/t-1/files/deck.pptx' } }, 'result.download'],
		['a storage key', { status: 'done', result: { key: 'decks/t-1.pptx' } }, 'result'],
		['a result text', { status: 'done', output: 's3://bucket/deck.pptx' }, 'output'],
	])('something to hand over confirms a success word: %s', (_, body, handover) => {
		expect(judgeStatus(body, { resolveAgainst: 'https://api.example/v1/decks/t-1/status' })).toMatchObject({ state: 'succeeded', handover });
	});

	it.each<[string, Record<string, unknown>]>([
		['the app page', { status: 'done', webUrl: 'https://app.example/decks/t-1' }],
		['a preview', { status: 'done', previewUrl: 'https://cdn.example/t-1/thumb.png' }],
		['the status itself', { status: 'done', _links: { self: { href: 'https://api.example/v1/decks/t-1/status' } } }],
		['a bare url', { status: 'done', url: 'https://example.com/x' }],
		['settings echoed back', { status: 'done', output: { format: 'pptx', language: 'en' } }],
		['a video', { status: 'done', videoUrl: 'https://app.example/decks/t-1/video' }],
	])('is nothing to hand over: %s', (_, body) => {
		expect(judgeStatus(body).state).toBe('unknown');
	});

	it('a deck to hand over is completed whatever the word once its file is there, and says so; a link alone is not', () => {
		const there = { there: true };
		const notYet = { there: false, why: 'the file host answered 404' };
		const running = judgeStatus({ status: 'generating', deckUrl: FILE });
		expect(running).toMatchObject({ state: 'running', wordState: 'running', fileToCheck: { url: FILE, path: 'deckUrl' } });
		expect(running).not.toHaveProperty('deckUrl');
		expect(settleFileCheck(running, there)).toMatchObject({ state: 'succeeded', wordState: 'running', deckUrl: FILE, handover: 'deckUrl' });
		expect(settleFileCheck(running, notYet)).toMatchObject({ state: 'running', note: 'The record links the deck\'s file (deckUrl), but the file is not there yet (the file host answered 404): still checking.' });
		// the failing deck too: its word stands while its file is not there
		const expired = judgeStatus({ status: 'expired', deckUrl: FILE }, { failureToConfirm: 'expired' });
		expect(expired.state).toBe('failed');
		expect(settleFileCheck(expired, there).note).toBe(
			'The service said "expired", but the record has the deck to hand over (deckUrl), and its file is there: reported as completed. To believe the word instead, add "expired" to Failed Status Words.',
		);
		expect(settleFileCheck(expired, notYet)).toMatchObject({ state: 'failed', note: expect.stringMatching(/^The record links the deck's file \(deckUrl\), but the file is not there \(the file host answered 404\): reported as failed\./) });
		expect(settleFileCheck(judgeStatus({ status: 'processed', deckUrl: FILE }), there)).toMatchObject({ state: 'succeeded', wordState: 'unknown' });
		// a success word that agrees with its file needs no check
		expect(judgeStatus({ status: 'completed', deckUrl: FILE })).not.toHaveProperty('fileToCheck');
		// a result member naming a file that is no link cannot be checked: it never stands against the word (issue 50)
		expect(judgeStatus({ status: 'generating', result: { key: 'decks/t-1/deck.pptx' } })).toMatchObject({ state: 'running', note: expect.stringMatching(/names a file \(result\) that is no link, so it cannot be checked/) });
	});

	it('a link is no hand-over while the record says the deck is still in progress (a link given early, the last version during a revision)', () => {
		expect(judgeStatus({ status: 'generating', progress: 40, deckUrl: FILE })).toEqual({ state: 'running', wordState: 'running', word: 'generating', links: [{ path: 'deckUrl', url: FILE }] });
		expect(judgeStatus({ status: 'failed', progress: 99, deckUrl: FILE, error: 'Render crashed' })).toMatchObject({ state: 'failed' });
		expect(judgeStatus({ status: 'processed', progress: 40, deckUrl: FILE })).toMatchObject({ state: 'unknown' });
		expect(judgeStatus({ status: { code: 'mulling', percent: '0.4' }, deckUrl: FILE }).state).toBe('unknown');
		// 100 %, a fraction of exactly 1, and no progress at all: the link is the deck
		for (const progress of [100, 1, '100', undefined]) expect(judgeStatus({ status: 'generating', progress, deckUrl: FILE }).fileToCheck).toMatchObject({ path: 'deckUrl' });
	});

	it('a success word and the deck to hand over outweigh a progress short of its end (rounded, a last step, no longer updated)', () => {
		for (const progress of [0.99, 99, 98.6, '0.95', 40]) {
			const judgement = judgeStatus({ status: 'completed', progress, deckUrl: FILE });
			expect(judgement).toMatchObject({ state: 'succeeded', handover: 'deckUrl' });
			expect(judgement.note).toBe(`The service said "completed" and the record has the deck to hand over (deckUrl), though it also carries a progress short of its end (progress: ${progress}): reported as completed.`);
		}
		// the word alone, with the progress against it, is still not believed
		expect(judgeStatus({ status: 'done', progress: 40 }).note).toMatch(/^The service said "done", but the record says it is still in progress \(progress: 40\) and has nothing to hand over/);
	});

	it('a success word and the deck to hand over outweigh a failure member (one format failed, not the deck), with a note', () => {
		const judgement = judgeStatus({ status: 'completed', files: { pptx: FILE }, errors: [{ format: 'pdf', message: 'PDF export failed' }] });
		expect(judgement).toMatchObject({ state: 'succeeded', handover: 'files.pptx', failureReason: 'PDF export failed' });
		expect(judgement.note).toMatch(/though it also carries a failure member \(errors: PDF export failed\): reported as completed/);
		// without the deck, the failure member decides (round 3: a failed deck whose word says "completed")
		expect(judgeStatus({ status: 'completed', errors: [{ message: 'render crashed' }] }).state).toBe('failed');
		// the word and the failure agree against a file: failed
		expect(judgeStatus({ status: 'failed', error: 'render crashed', deckUrl: FILE }).state).toBe('failed');
	});

	it.each<[string, unknown]>([
		['a zero code', { code: 0, message: '' }],
		['a None written out', 'None'],
		['an ok', { code: 'ok' }],
		['a zero error code', 0],
		['an object of empties', { code: null, message: null, detail: '' }],
	])('an empty failure member beside a finished deck is no failure: %s', (_, error) => {
		expect(judgeStatus({ status: 'completed', deckUrl: FILE, error })).toEqual({ state: 'succeeded', wordState: 'succeeded', word: 'completed', handover: 'deckUrl', deckUrl: FILE, links: [{ path: 'deckUrl', url: FILE }] });
		expect(judgeStatus({ status: 'completed', deckUrl: FILE, error_code: error })).toMatchObject({ state: 'succeeded' });
	});

	it('a warning is no failure', () => {
		expect(judgeStatus({ status: 'completed', deckUrl: FILE, warnings: ['font substituted'], warning: 'slow' })).toEqual({ state: 'succeeded', wordState: 'succeeded', word: 'completed', handover: 'deckUrl', deckUrl: FILE, links: [{ path: 'deckUrl', url: FILE }] });
	});

	it('a partial word hands over the deck that is there, and fails with nothing to hand over', () => {
		const partial = judgeStatus({ status: 'partial', files: { pptx: FILE }, errors: [{ format: 'pdf', message: 'PDF export failed' }] });
		expect(partial).toMatchObject({ state: 'succeeded', handover: 'files.pptx' });
		expect(partial.note).toMatch(/^The service said "partial": part of the job did not finish \(PDF export failed\), but the deck is there to hand over \(files.pptx\): reported as completed/);
		expect(judgeStatus({ status: 'PARTIAL' })).toMatchObject({ state: 'failed', note: expect.stringContaining('nothing to hand over') });
	});

	it('a word on a list the user set is believed, and the note says the record disagrees', () => {
		const words = statusWords({ succeeded: ['done'] });
		// believed, and (issue 45) the item says it has no file to hand over, and why
		expect(judgeStatus({ status: 'done' }, { words })).toEqual({
			state: 'succeeded',
			wordState: 'succeeded',
			word: 'done',
			links: [],
			note: 'It is completed, but the record links no file to hand over, so the item has no deckUrl. The record holds no link to set File Link Path to: get the deck from the service itself.',
		});
		const running = statusWords({ running: ['generating'] });
		const judgement = judgeStatus({ status: 'generating', deckUrl: FILE }, { words: running });
		expect(judgement.state).toBe('running');
		expect(judgement.note).toMatch(/your Running Status Words list makes running, though the record carries the deck to hand over \(deckUrl\): your list decides/);
	});

	it('the running and failed words of the default map stand when the record agrees', () => {
		expect(judgeStatus({ status: 'generating', progress: 40 })).toEqual({ state: 'running', wordState: 'running', word: 'generating', links: [] });
		// a bare failure word is confirmed on a later read first (issue 50: it may be a stage)
		expect(judgeStatus({ status: 'failed' }, { failureToConfirm: 'failed' })).toMatchObject({ state: 'failed', wordState: 'failed', word: 'failed', links: [] });
		expect(judgeStatus({ status: 'failed', error: { code: 'x', message: 'y' } })).toMatchObject({ state: 'failed', failureReason: 'y', failureCode: 'x' });
		expect(judgeStatus({ status: 'failed', error: { message: 'y' } }).note).toBeUndefined();
	});
});

describe('issue 39: a record inside a JSON string, the word under any member, the paths a user sets', () => {
	const PPTX = 'https://files.example/decks/t-1/deck.pptx';

	it('a JSON document inside a string is read as if nested: its links, its word, its reason', () => {
		const done = { code: 200, data: { state: 'success', resultJson: JSON.stringify({ resultUrls: [PPTX] }) } };
		expect(judgeStatus(done)).toMatchObject({ state: 'succeeded', deckUrl: PPTX, handover: 'data.resultJson.resultUrls[0]' });
		// the whole record as a string in an envelope
		const failed = { code: 0, data: JSON.stringify({ status: 'failed', error: { message: 'render crashed' } }) };
		expect(judgeStatus(failed)).toMatchObject({ state: 'failed', failureReason: 'render crashed', wordAt: 'data.status' });
	});

	it('over-reach: a string that does not parse, or is too large, stays text, and the body is passed on as sent', () => {
		const body = { status: 'completed', resultJson: '{"resultUrls": [', note: '[draft]' };
		expect(() => judgeStatus(body)).not.toThrow();
		expect(judgeStatus(body)).toMatchObject({ state: 'unknown', links: [] });
		expect(body.resultJson).toBe('{"resultUrls": [');
		const huge = JSON.stringify({ resultUrls: [PPTX], padding: 'x'.repeat(70 * 1024) });
		expect(judgeStatus({ status: 'completed', resultJson: huge }).links).toEqual([]);
		expect(expandJsonStrings({ a: 'plain', b: { c: 1 } })).toEqual({ a: 'plain', b: { c: 1 } });
	});

	it.each<[string, Record<string, unknown>, string, string]>([
		['Transloadit: ok', { assembly_id: 'a', ok: 'ASSEMBLY_EXECUTING', message: 'The Assembly is currently being executed.' }, 'ASSEMBLY_EXECUTING', 'ok'],
		['sync.ai: message', { code: '200', message: 'rendering' }, 'rendering', 'message'],
		['a conclusion beside a status that only says it ended (GitHub)', { status: 'completed', conclusion: 'failure' }, 'failure', 'conclusion'],
		['Databricks: the result inside the state object', { state: { life_cycle_state: 'TERMINATED', result_state: 'SUCCESS' } }, 'SUCCESS', 'state.result_state'],
		['Databricks while running: the life cycle', { state: { life_cycle_state: 'RUNNING' } }, 'RUNNING', 'state.life_cycle_state'],
		['a list of one job (AWS Batch DescribeJobs)', { jobs: [{ jobId: 'j', status: 'RUNNABLE' }] }, 'RUNNABLE', 'jobs[0].status'],
		['DashScope: the record under output', { request_id: 'r', output: { task_id: 't', task_status: 'SUCCEEDED' } }, 'SUCCEEDED', 'output.task_status'],
		['a Google operation: metadata.state beside done', { name: 'op', metadata: { state: 'RUNNING' }, done: false }, 'RUNNING', 'metadata.state'],
	])('the word under any member: %s', (_, body, word, path) => {
		expect(locateRecord(body)).toMatchObject({ word, path });
	});

	it.each<[string, Record<string, unknown>]>([
		['a title that says done', { id: 't', title: 'Done', deckUrl: undefined }],
		['prose holding a state word', { id: 't', summary: 'The deck failed review once and is being redone' }],
		['an envelope message about the request', { code: 0, message: 'Success' }],
		['an id, a type, a format', { taskId: 'completed', type: 'error_report', format: 'FAILED' }],
		['a part member\'s word (an export of one format)', { exports: { pdf: 'failed' } }],
	])('over-reach: a member whose text only happens to hold a state word is not the state: %s', (_, body) => {
		expect(locateRecord(body).word).toBeUndefined();
	});

	it('paths the user set are believed over the built-in search, as Get Status shows the record or past its data envelope', () => {
		const body = { status: 'ok', job: { phase_name: 'Complete' }, files: { pptx: PPTX, pdf: 'https://files.example/d.pdf' }, fail: { why: 'none' } };
		const judged = judgeStatus(body, { paths: { word: 'job.phase_name', file: 'files.pdf', reason: 'fail.why' } });
		expect(judged).toMatchObject({ state: 'succeeded', word: 'Complete', wordAt: 'job.phase_name', deckUrl: 'https://files.example/d.pdf' });
		expect(judgeStatus(body, { paths: { word: 'data.job.phase_name' } }).word).toBe('Complete');
		const failed = judgeStatus({ status: 'failed', error: { message: 'boom' }, detail: { code: 'E42' } }, { paths: { reason: 'detail.code' } });
		expect(failed).toMatchObject({ state: 'failed', failureReason: 'E42' });
	});

	it('a path that matches nothing says so, with the members the record has, and the reading does not fall back', () => {
		const judged = judgeStatus({ status: 'completed', deckUrl: PPTX }, { paths: { word: 'job.state' } });
		expect(judged).toMatchObject({ state: 'unknown', pathMisses: [{ option: 'Status Word Path', path: 'job.state', members: ['status', 'deckUrl'] }] });
		expect(judged.note).toContain('Status Word Path "job.state" matches nothing in this record; its members: status, deckUrl.');
		// a missing reason path on a failed deck keeps the built-in reason and says the path missed
		const failed = judgeStatus({ status: 'failed', error: 'boom' }, { paths: { reason: 'why' } });
		expect(failed).toMatchObject({ failureReason: 'boom', pathMisses: [expect.objectContaining({ option: 'Failure Reason Path' })] });
		// a missing file path while the deck runs is no miss: the file comes at the end
		expect(judgeStatus({ status: 'running' }, { paths: { file: 'output.url' } })).not.toHaveProperty('pathMisses');
	});
});

describe('issue 37: a failure says why, wherever the record gives it', () => {
	it.each<[string, Record<string, unknown>, string, string | undefined]>([
		['a failed sub-task (CloudConvert)', { data: { status: 'error', tasks: [{ name: 'import', status: 'finished' }, { name: 'convert', status: 'error', code: 'INVALID_FILE', message: 'The file is damaged.' }, { name: 'export', status: 'error', message: 'Input task has failed' }] } }, 'The file is damaged.', 'INVALID_FILE'],
		['task_error.message (Meshy)', { status: 'FAILED', task_error: { message: 'Mesh generation failed.' } }, 'Mesh generation failed.', undefined],
		['failure_cause', { status: 'FAILED', failure_cause: 'Upstream model unavailable' }, 'Upstream model unavailable', undefined],
		['status_details', { status: 'failed', status_details: 'The brief was empty.' }, 'The brief was empty.', undefined],
		['a detail beside a code (Rev.ai)', { status: 'failed', failure: 'internal_processing', failure_detail: 'Something went wrong.' }, 'Something went wrong.', 'internal_processing'],
		['a message beside an error code (Transloadit)', { error: 'INTERNAL_COMMAND_ERROR', message: 'The export step crashed.' }, 'The export step crashed.', 'INTERNAL_COMMAND_ERROR'],
		['failMsg (kie.ai)', { state: 'fail', failCode: '501', failMsg: 'Generation failed.' }, 'Generation failed.', '501'],
		['a moderation\'s reasons (BFL)', { status: 'Content Moderated', details: { 'Moderation Reasons': ['Refused.'] } }, 'Refused.', undefined],
	])('%s', (_, body, reason, code) => {
		const judged = judgeStatus(body);
		expect(judged).toMatchObject({ state: 'failed', failureReason: reason });
		expect(judged.failureCode).toBe(code);
	});
});

describe('issue 50 C: the witnesses that walk the record itself read past the index (leaves.ts keeps only links and word members past 2,000 values)', () => {
	// more values than the index keeps whole, before the member that decides
	const slides = Array.from({ length: 2_100 }, (_, n) => ({ caption: `Slide ${n + 1}, as written` }));
	/** Whether the index kept the leaf at `path`: these tests are about members it does not keep. */
	const indexed = (body: Record<string, unknown>, path: string) => indexRecord(body).leaves.some((leaf) => leaf.path === path);

	it('a word under a member no list names, after 2,100 values (unnamedWord)', () => {
		const body = { slides, ok: 'ASSEMBLY_EXECUTING' };
		expect(indexed(body, 'ok')).toBe(false);
		const judged = judgeStatus(body);
		expect(judged).toMatchObject({ state: 'running', word: 'ASSEMBLY_EXECUTING', wordAt: 'ok' });
	});

	it("a failure's reason after 2,100 values, in a member named for it and in a failed sub-task (namedReasonOf, failedSubTaskOf, failureText)", () => {
		expect(indexed({ status: 'failed', slides, reason: 'The prompt was refused' }, 'reason')).toBe(false);
		expect(judgeStatus({ status: 'failed', slides, reason: 'The prompt was refused' })).toMatchObject({ state: 'failed', failureReason: 'The prompt was refused' });
		expect(judgeStatus({ status: 'failed', slides, tasks: [{ status: 'failed', message: 'The render node crashed' }, { status: 'succeeded' }] })).toMatchObject({
			state: 'failed',
			failureReason: 'The render node crashed',
		});
	});

	it('a deck file named by no link, after 2,100 values (namesAFile)', () => {
		expect(indexed({ status: 'completed', slides, result: { key: 'decks/7/deck.pptx' } }, 'result.key')).toBe(false);
		expect(judgeStatus({ status: 'completed', slides, result: { key: 'decks/7/deck.pptx' } })).toMatchObject({ state: 'succeeded', handover: 'result' });
	});

	it("an envelope's own record is read member by member, its attributes before the next member (envelopePlaces)", () => {
		const body = { record: { attributes: { status: 'processing' } }, other: { status: 'completed' } };
		// the index's places come shallowest first: `other` before `record.attributes`
		expect(indexRecord(body).places.map((place) => place.path)).toEqual(['', 'record', 'other', 'record.attributes']);
		expect(judgeStatus(body)).toMatchObject({ word: 'processing', wordAt: 'record.attributes.status' });
	});
});
