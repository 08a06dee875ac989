/**
 * Status word -> state, with design.md's default map and the user's overrides.
 */
import {
	DEFAULT_STATUS_WORDS,
	parseWordList,
	stateOf,
	statusWordOf,
	statusWords,
	withState,
	judgeStatus,
	type DeckState,
} from '../../nodes/shared/status';

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

	it('has exactly the words of design.md, each in one list', () => {
		const all = [...DEFAULT_STATUS_WORDS.succeeded, ...DEFAULT_STATUS_WORDS.failed, ...DEFAULT_STATUS_WORDS.running];
		expect(all.sort()).toEqual(DESIGN_MAP.map(([word]) => word).sort());
		expect(new Set(all).size).toBe(all.length);
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

	it.each([['paused'], ['needs_review'], ['inprogress'], [''], ['completed!']])('an unknown word (%p) is unknown, never guessed', (word) => {
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

describe('statusWordOf and withState', () => {
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
		expect(withState(body)).toEqual({ taskId: 't-1', status: 'Generating', progress: 40, url: null, state: 'running' });
	});

	it("keeps the service's own `state` as serviceState", () => {
		expect(withState({ taskId: 't-1', state: 'done', deckUrl: 'https://files.example/t-1.pptx' })).toEqual({
			taskId: 't-1',
			deckUrl: 'https://files.example/t-1.pptx',
			state: 'succeeded',
			serviceState: 'done',
		});
		expect(withState({ taskId: 't-1', status: 'failed', state: { stage: 3 } })).toEqual({
			taskId: 't-1',
			status: 'failed',
			state: 'failed',
			serviceState: { stage: 3 },
		});
	});

	it('reports an unknown word as-is, with state unknown', () => {
		expect(withState({ status: 'awaiting_moderation' })).toEqual({ status: 'awaiting_moderation', state: 'unknown' });
	});

	it('uses the given words', () => {
		expect(withState({ status: 'complete' }, statusWords({ failed: ['complete'] })).state).toBe('failed');
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
		expect(judgeStatus(body)).toEqual({ state: 'succeeded', wordState: 'succeeded', word: 'completed', handover: 'deckUrl' });
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
		expect(judgeStatus(body, DEFAULT_STATUS_WORDS, 'https://api.example/v1/decks/t-1/status')).toMatchObject({ state: 'succeeded', handover });
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

	it('a deck to hand over is completed whatever the word, and says so', () => {
		expect(judgeStatus({ status: 'generating', deckUrl: FILE })).toMatchObject({ state: 'succeeded', wordState: 'running' });
		expect(judgeStatus({ status: 'expired', deckUrl: FILE }).note).toBe(
			'The service said "expired", but the record has the deck to hand over (deckUrl): reported as completed. To believe the word instead, add "expired" to Failed Status Words.',
		);
		expect(judgeStatus({ status: 'processed', deckUrl: FILE })).toMatchObject({ state: 'succeeded', wordState: 'unknown' });
	});

	it('a link is no hand-over while the record says the deck is still in progress (a link given early, the last version during a revision)', () => {
		expect(judgeStatus({ status: 'generating', progress: 40, deckUrl: FILE })).toEqual({ state: 'running', wordState: 'running', word: 'generating' });
		expect(judgeStatus({ status: 'failed', progress: 99, deckUrl: FILE })).toMatchObject({ state: 'failed' });
		const done = judgeStatus({ status: 'done', progress: 40, deckUrl: FILE });
		expect(done.state).toBe('unknown');
		expect(done.note).toMatch(/^The service said "done", but the record says it is still in progress \(progress: 40\): not taken as finished/);
		expect(judgeStatus({ status: { code: 'done', percent: '0.4' }, deckUrl: FILE }).note).toMatch(/still in progress \(status.percent: 0.4\)/);
		// 100 %, a fraction of exactly 1, and no progress at all: the link is the deck
		for (const progress of [100, 1, '100', undefined]) expect(judgeStatus({ status: 'generating', progress, deckUrl: FILE }).state).toBe('succeeded');
	});

	it('a word on a list the user set is believed, and the note says the record disagrees', () => {
		const words = statusWords({ succeeded: ['done'] });
		expect(judgeStatus({ status: 'done' }, words)).toEqual({ state: 'succeeded', wordState: 'succeeded', word: 'done' });
		const running = statusWords({ running: ['generating'] });
		const judgement = judgeStatus({ status: 'generating', deckUrl: FILE }, running);
		expect(judgement.state).toBe('running');
		expect(judgement.note).toMatch(/your Running Status Words list makes running, though the record carries the deck to hand over \(deckUrl\): your list decides/);
	});

	it('the running and failed words of the default map stand when the record agrees', () => {
		expect(judgeStatus({ status: 'generating', progress: 40 })).toEqual({ state: 'running', wordState: 'running', word: 'generating' });
		expect(judgeStatus({ status: 'failed' })).toEqual({ state: 'failed', wordState: 'failed', word: 'failed' });
		expect(judgeStatus({ status: 'failed', error: { code: 'x', message: 'y' } })).toMatchObject({ state: 'failed', failureReason: 'y', failureCode: 'x' });
		expect(judgeStatus({ status: 'failed', error: { message: 'y' } }).note).toBeUndefined();
	});
});
