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
