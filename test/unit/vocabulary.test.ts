/**
 * Every status word of the real asynchronous APIs in test/fixtures/status-vocabulary.ts reads as its
 * documentation says (issue 37): a word for waiting or working keeps the deck running and is on a list, a word
 * for an end without output fails it (at once with a reason, else once a later read confirms it), a success word with the deck beside it completes it, and a stage
 * that sounds final is not the end. A failing case names the API and the word.
 */
import { judgeStatus, normalise, settleFileCheck, type DeckState } from '../../nodes/shared/status';
import { SERVICE_SHAPES } from '../simulator/services';
import { STATUS_VOCABULARY, type ApiVocabulary } from '../fixtures/status-vocabulary';

/** A deck file link, set beside a success word: the deck to hand over. */
const DECK_FILE = 'https://files.example/deck.pptx';

/** Said of a word on no Status Words list (status/judge.ts, unknownWordNote). */
const ON_NO_LIST = 'a word on no Status Words list';

interface Reading {
	state: DeckState;
	/** What the word alone said, before the deck file or its absence was weighed. */
	wordState: DeckState;
	/** The judgement's note says the word is on no list. */
	onNoList: boolean;
}

/**
 * How status/judge.ts reads `word` in a record shaped as `row` documents it: the word at `row.wordAt` (nested
 * objects, a number a list index) and, `withDeck`, a deck file link at the record's level, which is there when
 * the judgement checks it (a word that is no success word is completed only once its file is seen there).
 */
function readsAs(row: ApiVocabulary, word: string, withDeck = false): Reading {
	const judged = judgeStatus(recordWith(row.wordAt, valueOf(row, word), withDeck ? { deckUrl: DECK_FILE } : {}));
	const judgement = judged.fileToCheck ? settleFileCheck(judged, { there: true }) : judged;
	return { state: judgement.state, wordState: judgement.wordState, onNoList: (judgement.note ?? '').includes(ON_NO_LIST) };
}

/**
 * Words that real APIs document with opposite meanings: Apify's READY is a run not yet started, Mux's `ready`
 * an asset ready to play. A success word alone is never believed (judge.ts), so such a word keeps the deck
 * waiting until its file is there, whichever API wrote it.
 */
const CONTESTED = new Set(
	STATUS_VOCABULARY.flatMap((row) => row.succeeded ?? [])
		.map(normalise)
		.filter((word) => STATUS_VOCABULARY.some((row) => [...(row.queued ?? []), ...(row.running ?? [])].map(normalise).includes(word))),
);

/**
 * Google's operations have no word, only `done`, and Remotion's renders only flags (`done`,
 * `fatalErrorEncountered`): their rows write the JSON booleans as 'true' and 'false'.
 */
function valueOf(row: ApiVocabulary, word: string): unknown {
	return row.flag || row.wordAt.split('.').pop() === 'done' ? word === 'true' : word;
}

/**
 * A record with `value` at `path` and `beside` at the record's level: the object holding the word's member,
 * or the one around it when that object is itself a status object or an operation's metadata
 * (`status.state`, `state.result_state`, `metadata.state`).
 */
function recordWith(path: string, value: unknown, beside: Record<string, unknown>): Record<string, unknown> {
	const keys = path.split('.');
	const root: Record<string, unknown> = {};
	const objects: Array<Record<string, unknown>> = [root];
	let place: Record<string, unknown> = root;
	keys.forEach((key, i) => {
		if (i === keys.length - 1) {
			place[key] = value;
			return;
		}
		const next = /^\d+$/.test(keys[i + 1]) ? ([] as unknown as Record<string, unknown>) : {};
		place[key] = next;
		place = next;
		objects.push(next);
	});
	const holder = keys.length > 1 && /^(status|state|metadata)$/i.test(keys[keys.length - 2]) ? objects.length - 2 : objects.length - 1;
	Object.assign(objects[holder], beside);
	return root;
}

type Case = [title: string, row: ApiVocabulary, word: string];

const cases = (list: 'queued' | 'running' | 'succeeded' | 'partial' | 'failed' | 'stages', saying: string): Case[] =>
	STATUS_VOCABULARY.flatMap((row) => (row[list] ?? []).map((word): Case => [`${row.api}: '${word}' ${saying}`, row, word]));

const KINDS: Array<ApiVocabulary['kind']> = ['generation', 'rendering', 'transcription', 'conversion', 'batch', 'workflow', 'other'];

describe('the status vocabulary of real asynchronous APIs (test/fixtures/status-vocabulary.ts)', () => {
	it('holds at least 45 APIs, each with the page its words come from, where the word is, and a word', () => {
		expect(STATUS_VOCABULARY.length).toBeGreaterThanOrEqual(45);
		for (const row of STATUS_VOCABULARY) {
			expect({ api: row.api, source: /^https:\/\/\S+$/.test(row.source), wordAt: row.wordAt.length > 0 }).toEqual({ api: row.api, source: true, wordAt: true });
			const words = [row.queued, row.running, row.succeeded, row.partial, row.failed, row.stages].flatMap((list) => list ?? []);
			expect({ api: row.api, words: words.length > 0 }).toEqual({ api: row.api, words: true });
		}
	});

	it('keeps one row per API, sorted by kind then name', () => {
		const key = (row: ApiVocabulary) => `${KINDS.indexOf(row.kind)} ${row.api.toLowerCase()}`;
		const keys = STATUS_VOCABULARY.map(key);
		expect(keys).toEqual([...keys].sort());
		expect(new Set(STATUS_VOCABULARY.map((row) => row.api)).size).toBe(STATUS_VOCABULARY.length);
	});

	it('has a row, by the same name, for each of the real services the simulator serves', () => {
		const apis = new Set(STATUS_VOCABULARY.map((row) => row.api));
		const served = Object.values(SERVICE_SHAPES).map((spec) => spec.name);
		expect(served.length).toBeGreaterThanOrEqual(24);
		expect(served.filter((name) => !apis.has(name))).toEqual([]);
	});
});

describe('each documented word reads as its documentation says', () => {
	test.each([...cases('queued', 'is waiting to start'), ...cases('running', 'is still going')])('%s', (_title, row, word) => {
		const reading = readsAs(row, word);
		// a contested word (a success word elsewhere) is not believed alone: it keeps the deck waiting all the same
		const waiting = CONTESTED.has(normalise(word)) ? ['running', 'unknown'] : ['running'];
		expect({ waiting: waiting.includes(reading.state), onNoList: reading.onNoList }).toEqual({ waiting: true, onNoList: false });
	});

	it('knows which words real APIs contradict each other on (a fixture row that adds one is a decision, see judge.ts)', () => {
		expect([...CONTESTED]).toEqual(['ready']);
	});

	// a bare failure word (no reason, no error beside it) may be a stage on the way: a later read confirms it (issue 50)
	test.each(cases('failed', 'ended without its output: failed, at once or once a later read says it again'))('%s', (_title, row, word) => {
		const body = recordWith(row.wordAt, valueOf(row, word), {});
		const first = judgeStatus(body);
		expect({ state: first.state, toConfirm: first.failureToConfirm !== undefined }).toEqual(first.state === 'failed' ? { state: 'failed', toConfirm: false } : { state: 'running', toConfirm: true });
		expect(judgeStatus(body, { failureToConfirm: first.failureToConfirm }).state).toBe('failed');
	});

	// the word itself must say success: a deck file beside any word not failed or running completes it anyway
	test.each([...cases('succeeded', 'with the deck beside it is completed'), ...cases('partial', 'with the deck beside it is completed (part of the output)')])(
		'%s',
		(_title, row, word) => {
			const reading = readsAs(row, word, true);
			expect({ state: reading.state, wordState: reading.wordState }).toEqual({ state: 'succeeded', wordState: 'succeeded' });
		},
	);

	test.each(cases('stages', 'with no file beside it is not the end'))('%s', (_title, row, word) => {
		expect(readsAs(row, word).state).not.toBe('succeeded');
	});
});
