/**
 * A deck's state from its status record. The contract shows neither the record's members nor its
 * words, and warns that one word reads as the opposite of what it means without saying which. Real
 * generation APIs write their records in many shapes (the word under `task_status` or inside an
 * envelope, upper-case terminal words, previews before the end, progress that stops at 0.99), so
 * `judgeStatus` reads a record as a person would: the one judgement every node and tool uses.
 */
import { findLinks, isDeliverable, isPreviewText, namesDeckFile } from './links';

export type DeckState = 'running' | 'succeeded' | 'failed' | 'unknown';

export type WordList = 'succeeded' | 'failed' | 'running';

export interface StatusWords {
	succeeded: string[];
	failed: string[];
	running: string[];
	/** The lists the user set (Status Words options): their words are believed whatever the record says. */
	own?: WordList[];
}

/**
 * The built-in vocabulary, normalised (lower case, camelCase split, `-` and spaces as `_`). Terminal
 * words end the wait at once: a deck that timed out, was aborted, killed or revoked ended without a
 * deck. Words for a transition (`timing_out`, `aborting`, `cancelling`) are running: the terminal word
 * comes next.
 */
export const DEFAULT_STATUS_WORDS: StatusWords = {
	succeeded: [
		'completed', 'complete', 'done', 'succeeded', 'success', 'successful', 'succeed', 'ready', 'finished',
		'partial', 'partially_completed', 'partial_success', 'partially_succeeded', 'completed_with_errors',
	],
	failed: [
		'failed', 'failure', 'fail', 'error', 'errored', 'cancelled', 'canceled', 'expired', 'rejected',
		'timed_out', 'timedout', 'timeout', 'aborted', 'killed', 'terminated', 'abandoned', 'revoked', 'crashed', 'interrupted',
		'content_filtered', 'moderated',
	],
	running: [
		'queued', 'pending', 'processing', 'running', 'in_progress', 'generating', 'started', 'created', 'accepted',
		'submitted', 'sent', 'received', 'scheduled', 'waiting', 'starting', 'preparing', 'queueing', 'in_queue', 'rendering', 'retry', 'retrying',
		'dreaming', 'throttled', 'timing_out', 'aborting', 'cancelling', 'canceling', 'terminating', 'stopping',
		// Azure's NotStarted, AWS's PROGRESSING, OpenAI's validating / finalizing, Vertex's updating, DeepL, ElevenLabs
		'not_started', 'not_start', 'progressing', 'validating', 'finalizing', 'finalising', 'updating', 'initializing',
		'initialising', 'uploading', 'exporting', 'converting', 'translating', 'dubbing',
	],
};

/**
 * The success words that say the job ended with only part of its output (one format failed, the deck
 * did not). With the deck to hand over they are completed, with a note; with nothing, failed.
 */
const PARTIAL_WORDS = new Set(DEFAULT_STATUS_WORDS.succeeded.filter((word) => word.startsWith('partial') || word.endsWith('_with_errors')));

/** The last part of a compound failure word (`generate_audio_failed`, `sensitive_word_error`, `user_cancelled`). */
const FAILED_ENDINGS = new Set(['failed', 'failure', 'error', 'errored', 'rejected', 'aborted', 'timeout', 'expired', 'cancelled', 'canceled', 'killed', 'terminated']);

/** A word as the lists write it: lower case, camelCase split, `-` and spaces as `_` (`NotStarted` → `not_started`). */
function normalise(word: string): string {
	return word
		.trim()
		.replace(/([a-z0-9])([A-Z])/g, '$1_$2')
		.toLowerCase()
		.replace(/[\s-]+/g, '_');
}

/** Splits a user's comma- or newline-separated list; an empty list means "keep the default". */
export function parseWordList(text: string | undefined): string[] | undefined {
	if (!text) return undefined;
	const words = text
		.split(/[,\n]/)
		.map(normalise)
		.filter((word) => word.length > 0);
	return words.length ? words : undefined;
}

/**
 * A user's list for one state replaces the default for that state, and its words are taken out
 * of the other defaults, so "treat `complete` as failed" really moves the word.
 */
export function statusWords(overrides: Partial<Record<WordList, string[]>> = {}): StatusWords {
	const overridden = new Set(
		[...(overrides.succeeded ?? []), ...(overrides.failed ?? []), ...(overrides.running ?? [])].map(normalise),
	);
	const pick = (state: WordList): string[] =>
		overrides[state]?.map(normalise) ?? DEFAULT_STATUS_WORDS[state].filter((word) => !overridden.has(word));
	const own = (['succeeded', 'failed', 'running'] as const).filter((state) => overrides[state] !== undefined);
	return { succeeded: pick('succeeded'), failed: pick('failed'), running: pick('running'), ...(own.length ? { own } : {}) };
}

export function stateOf(word: string | undefined, words: StatusWords = DEFAULT_STATUS_WORDS): DeckState {
	return classify(word, words).state;
}

/**
 * A word's state and the list word it matched (`canonical`). The word itself first; then, for an enum
 * written with its type's name in front (`JOB_STATE_CANCELLED`, `TASK_STATUS_RUNNING`: Google's APIs), the
 * part after `state_`/`status_`. Beyond the lists, the built-in vocabulary (unless the user's own Failed
 * list replaced it) reads a compound failure word (`generate_audio_failed`) as failed. Nothing else is
 * guessed: a word on no list stays unknown, so the nodes can say which word the service keeps sending.
 */
function classify(word: string | undefined, words: StatusWords): { state: DeckState; canonical?: string } {
	if (word === undefined) return { state: 'unknown' };
	const normalised = normalise(word);
	const enumPrefix = /(?:^|_)(?:state|status)_(.+)$/.exec(normalised);
	for (const candidate of enumPrefix ? [normalised, enumPrefix[1]] : [normalised]) {
		for (const state of ['succeeded', 'failed', 'running'] as const) {
			if (words[state].includes(candidate)) return { state, canonical: candidate };
		}
	}
	const parts = (enumPrefix ? enumPrefix[1] : normalised).split('_');
	if (!words.own?.includes('failed') && parts.length > 1 && FAILED_ENDINGS.has(parts[parts.length - 1])) return { state: 'failed' };
	return { state: 'unknown' };
}

const memberKey = (name: string) => name.toLowerCase().replace(/[_-]/g, '');

const isRecord = (value: unknown): value is Record<string, unknown> => !!value && typeof value === 'object' && !Array.isArray(value);

/**
 * How plainly a member's name says it carries the word: `status`, `state`, a name ending in either
 * (`task_status`, `jobStatus`, `deck_state`), `phase`, `finish_reason`. Undefined: not a word member.
 */
function wordRank(name: string): number | undefined {
	const key = memberKey(name);
	if (key === 'status') return 0;
	if (key === 'state') return 1;
	if (key.endsWith('status')) return 2;
	if (key.endsWith('state')) return 3;
	if (key === 'phase') return 4;
	// Stability's `finish_reason` (SUCCESS, ERROR, CONTENT_FILTERED): the only word such a record has
	if (key === 'finishreason') return 5;
	return undefined;
}

/** Members of a status object that carry its word (`"status": {"code": "completed", …}`). */
const INNER_WORD_MEMBERS = ['code', 'name', 'value', 'state', 'status', 'phase'] as const;

/** A word member's word: its text, a text under INNER_WORD_MEMBERS, else a number (as text). */
function wordIn(value: unknown): { word: string; inner?: string; text: boolean } | undefined {
	if (typeof value === 'string') return value.trim() ? { word: value, text: true } : undefined;
	if (typeof value === 'number' && Number.isFinite(value)) return { word: String(value), text: false };
	if (!isRecord(value)) return undefined;
	let number: { word: string; inner: string; text: boolean } | undefined;
	for (const inner of INNER_WORD_MEMBERS) {
		const found = value[inner];
		if (typeof found === 'string' && found.trim()) return { word: found, inner, text: true };
		if (number === undefined && typeof found === 'number' && Number.isFinite(found)) number = { word: String(found), inner, text: false };
	}
	return number;
}

/** The status word of one object: the plainest word member with text, else with a number. */
function ownWord(place: Record<string, unknown>): { word: string; path: string; text: boolean } | undefined {
	let best: { word: string; path: string; text: boolean; rank: number } | undefined;
	for (const [name, value] of Object.entries(place)) {
		const rank = wordRank(name);
		if (rank === undefined) continue;
		const found = wordIn(value);
		if (!found) continue;
		const score = rank + (found.text ? 0 : 10);
		if (!best || score < best.rank) best = { word: found.word, path: found.inner ? `${name}.${found.inner}` : name, text: found.text, rank: score };
	}
	return best && { word: best.word, path: best.path, text: best.text };
}

/** Words an envelope says about the request, not the job (`{"status": "success", "data": {…}}`, JSend). */
const ENVELOPE_WORDS = new Set(['success', 'ok']);

/** Members that hold files, results or errors: their own status words are about a part, not the deck. */
const PART_MEMBERS = /^(results?|outputs?|files?|exports?|downloads?|artifacts?|assets?|deliverables?|formats?|errors?|failures?|links|_links|meta|metadata|usage|credits|base_?resp)$/i;

/** Where a record is, and where its word was found. `prefix` is the record's path (`data.`, `''`). */
interface Located {
	record: Record<string, unknown>;
	prefix: string;
	word?: string;
	/** The word's JSON path in the body (`status`, `data.task_status`, `status.code`). */
	path?: string;
	/** A record with no word whose `done` says whether it ended (Google's long-running operations). */
	done?: boolean;
}

/**
 * The deck's record inside a status answer, and its word. The word is wherever the record puts it:
 * the answer's own plainest word member (status, state, task_status, …), else the record inside an
 * envelope (`{code, message: "Success", data: {task_status, …}}`, JSON:API `data.attributes`, any
 * one object member such as `generation`), else none. An envelope's `status: "success"` beside a
 * `data` record with its own word is the envelope's, not the deck's.
 */
export function locateRecord(body: Record<string, unknown>): Located {
	const own = ownWord(body);
	if (own?.text && !ENVELOPE_WORDS.has(normalise(own.word))) return { record: body, prefix: '', word: own.word, path: own.path };
	for (const [name, value] of Object.entries(body)) {
		if (!isRecord(value) || wordRank(name) !== undefined || PART_MEMBERS.test(name)) continue;
		for (const [prefix, place] of [[`${name}.`, value], [`${name}.attributes.`, value.attributes]] as const) {
			if (!isRecord(place)) continue;
			const inner = ownWord(place);
			if (inner?.text) return { record: place, prefix, word: inner.word, path: `${prefix}${inner.path}` };
		}
	}
	if (own) return { record: body, prefix: '', word: own.word, path: own.path };
	return typeof body.done === 'boolean' ? { record: body, prefix: '', done: body.done } : { record: body, prefix: '' };
}

/** The status word of a status answer, wherever the record puts it (locateRecord). */
export function statusWordOf(body: Record<string, unknown>): string | undefined {
	return locateRecord(body).word;
}

/** What judgeStatus needs beside the record. */
export interface JudgeContext {
	words?: StatusWords;
	/** The URL the record was read from: root-relative links in it are resolved against it. */
	resolveAgainst?: string;
	/** The answer's HTTP status: a 202 without a word says the job is still accepted, not done. */
	httpStatus?: number;
	/** The reads before this one that sent the same word (the Wait node's), for the note of a word on no list. */
	earlier?: { word: string; reads: number; seconds: number };
}

/**
 * The one judgement of a status record, used by Get Status, Download, the Wait node (both modes) and
 * the agent tools. The contract warns that one word reads as its opposite, and real services write
 * members they do not mean (a progress left at 0.99, an empty error, a preview in `output`), so no
 * single witness decides alone. The witnesses: the word (wherever the record puts it), a failure
 * member with content, the deck to hand over (a deck file; while the word says running only a file
 * that names the deck's format or a download, never a preview image, thumbnail or app page), and a
 * progress short of its scale's end. In this order:
 * 1. a word on a list the user set (Status Words options) is believed: the person's statement about
 *    their deployment;
 * 2. a success word AND the deck to hand over: completed, whatever one other member says (a failure
 *    member, a progress below its end: noted, never a veto);
 * 3. else a failure member with content: failed, with the service's reason, whatever the word;
 * 4. else the deck to hand over, unless the progress says the deck is mid-way (a link given before the
 *    file is ready): completed, whatever the word;
 * 5. else the word: a partial word (the job ended with part of its output) with nothing to hand over
 *    is failed; a success word with nothing to hand over is not believed alone (`unknown`: it keeps
 *    being polled, and at Max Wait it is Still Running); a word on no list is `unknown` (running, as
 *    a 202 with no word is), and the note names the lists that settle it.
 * The word is compared in any case and spelling (`TIMED-OUT`, `timed_out`, `TimedOut`), also after an
 * enum's type name (`JOB_STATE_CANCELLED`); a compound failure word is failed (classify). A record
 * with no word whose `done` is a boolean (Google's long-running operations) is read by it: `done:
 * false` running; `done: true` ended, so with an `error` it failed, with the deck it is completed, and
 * with neither it failed (a reason member, such as Veo's `raiMediaFilteredReasons`, says why): polling
 * a finished operation again changes nothing.
 * Where the witnesses disagree, or the word was found elsewhere than `status`/`state`, `note` says so
 * in plain words, with the setting that settles it.
 */
export function judgeStatus(body: Record<string, unknown>, context: JudgeContext = {}): StatusJudgement {
	const words = context.words ?? DEFAULT_STATUS_WORDS;
	const located = locateRecord(body);
	const word = located.word;
	// Google's operations have no word: `done` says whether the job ended (with `error` or `response`)
	const ended = located.done;
	const { state: wordState, canonical } = ended === undefined ? classify(word, words) : { state: ended ? ('succeeded' as const) : ('running' as const), canonical: undefined };
	const partialWord = PARTIAL_WORDS.has(canonical ?? '');
	const places = placesOf(body, located);
	const failure = failureOf(places);
	const progress = progressOf(places);
	// A word that says running or failed is contradicted only by the deck's own file, not by any link
	const handover = handoverOf(body, places, wordState === 'running' || wordState === 'failed', context.resolveAgainst);
	const said = ended !== undefined ? `The operation says done: ${ended}` : `The service said ${word === undefined ? 'no status word' : `"${word}"`}`;
	const judgement: StatusJudgement = { state: wordState, wordState, ...(word !== undefined ? { word } : {}) };
	// `status` and `state` (design.md's reading) go without saying; anywhere else is said
	if (located.path !== undefined && !/^(status|state)(\.|$)/.test(located.path)) judgement.wordAt = located.path;
	if (failure) judgement.failureReason = failure.reason;
	if (failure?.code) judgement.failureCode = failure.code;
	const notes: string[] = [];
	const conclude = (state: DeckState, note?: string) => {
		judgement.state = state;
		if (handover && state === 'succeeded') judgement.handover = handover;
		if (note) notes.push(note);
		if (judgement.wordAt) notes.push(`(The word was read from ${judgement.wordAt}.)`);
		if (notes.length) judgement.note = notes.join(' ');
		return judgement;
	};

	if (word !== undefined && wordState !== 'unknown' && words.own?.includes(wordState)) {
		const other = failure && wordState !== 'failed' ? `a failure reason (${failure.member}: ${failure.reason})` : handover && wordState !== 'succeeded' ? `the deck to hand over (${handover})` : undefined;
		return conclude(wordState, other && `${said}, which your ${LIST_NAME[wordState]} list makes ${wordState}, though the record carries ${other}: your list decides.`);
	}
	const believe = word === undefined ? '' : ` To believe the word instead, add "${word}" to ${LIST_NAME[wordState === 'unknown' ? 'running' : wordState]}.`;
	if (wordState === 'succeeded' && handover) {
		const stray = [failure && `a failure member (${failure.member}: ${failure.reason})`, progress && `a progress short of its end (${progress})`].filter(Boolean).join(' and ');
		if (partialWord) notes.push(`${said}: part of the job did not finish${failure ? ` (${failure.reason})` : ''}, but the deck is there to hand over (${handover}): reported as completed.`);
		else if (stray) notes.push(`${said} and the record has the deck to hand over (${handover}), though it also carries ${stray}: reported as completed.`);
		return conclude('succeeded');
	}
	if (failure) {
		// an operation that is done with an error failed: that is how it says so, nothing disagrees
		return conclude('failed', wordState === 'failed' || ended ? undefined : `${said}, but the record carries a failure reason (${failure.member}: ${failure.reason}): reported as failed.${wordState === 'succeeded' ? believe : ''}`);
	}
	if (handover && !progress) {
		return conclude('succeeded', wordState === 'succeeded' ? undefined : `${said}, but the record has the deck to hand over (${handover}): reported as completed.${wordState === 'unknown' ? '' : believe}`);
	}
	if (wordState === 'failed') {
		const nested = nestedFailureOf(located);
		const reason = nested?.reason ?? statusMessageOf(located);
		if (reason) judgement.failureReason = reason;
		if (nested?.code) judgement.failureCode = nested.code;
		return conclude('failed');
	}
	if (wordState === 'succeeded') {
		if (ended) {
			const why = endedReasonOf(body);
			if (why) judgement.failureReason = why;
			return conclude('failed', `${said}: the operation ended with nothing to hand over (no result, link or file) and no error${why ? ` (${why})` : ''}: reported as failed.`);
		}
		if (partialWord) {
			return conclude('failed', `${said}, and the record has nothing to hand over (no result, link or file): reported as failed.`);
		}
		const missing = [progress && `says it is still in progress (${progress})`, !handover && 'has nothing to hand over (no result, link or file)'].filter(Boolean).join(' and ');
		return conclude('unknown', `${said}, but the record ${missing}: not taken as finished, still checking. If "${word}" means finished in this deployment, add it to ${LIST_NAME.succeeded}; if it means still working, add it to ${LIST_NAME.running}.`);
	}
	if (wordState === 'running') return conclude('running');
	if (word === undefined && context.httpStatus === 202) return conclude('running');
	if (word === undefined) return conclude('unknown', 'The service\'s answer carries no status word and nothing to hand over: taken as still working.');
	const earlier = context.earlier?.word === word ? context.earlier : undefined;
	return conclude('unknown', unknownWordNote(word, earlier && { reads: earlier.reads + 1, seconds: earlier.seconds }));
}

/**
 * Said of a word on no list: taken as still working, and the three lists that would settle it. With
 * `seen` (the Wait node's reads of it), how long the service kept sending it.
 */
export function unknownWordNote(word: string, seen?: { reads: number; seconds: number }): string {
	const kept = seen && seen.reads > 1 ? `kept sending "${word}" (${seen.reads} reads over ${seen.seconds} s)` : `said "${word}"`;
	return `The service ${kept}, a word on no Status Words list: taken as still working. If it means still working, add "${word}" to ${LIST_NAME.running}; if the deck ended without a deck, to ${LIST_NAME.failed}; if it is finished, to ${LIST_NAME.succeeded}.`;
}

/** The output pane's words for decks left on a word on no list (n8n's execution hints). */
export function unknownWordHint(word: string, decks: number): string {
	const which = decks === 1 ? 'one deck' : `${decks} decks`;
	return `The service kept sending "${word}" for ${which}, a word on no Status Words list, so ${decks === 1 ? 'it was' : 'they were'} taken as still working. In the options, add "${word}" to ${LIST_NAME.running} if it means still working, to ${LIST_NAME.failed} if the deck ended without a deck, or to ${LIST_NAME.succeeded} if it is finished.`;
}

const LIST_NAME: Record<WordList, string> = {
	succeeded: 'Succeeded Status Words',
	failed: 'Failed Status Words',
	running: 'Running Status Words',
};

/**
 * A status answer as the nodes hand it on (`fields`): every member the service sent, our `state`
 * (judgeStatus; the service's own `state` member, if any, stays under `serviceState`), `statusNote`
 * where the witnesses disagree, and on a failure the record's `failureReason`; and the `judgement`.
 */
export function withState(body: Record<string, unknown>, context?: JudgeContext): { fields: Record<string, unknown>; judgement: StatusJudgement } {
	const judgement = judgeStatus(body, context);
	const { state: serviceState, ...rest } = body;
	const fields: Record<string, unknown> = { ...rest, state: judgement.state };
	if (judgement.note) fields.statusNote = judgement.note;
	if (judgement.state === 'failed' && judgement.failureReason) fields.failureReason = judgement.failureReason;
	if (serviceState !== undefined) fields.serviceState = serviceState;
	return { fields, judgement };
}

/** What judgeStatus makes of one status record. */
export interface StatusJudgement {
	state: DeckState;
	/** The service's status word, exactly as it came. */
	word?: string;
	/** Where the word was found, when not in a member named `status` or `state` (e.g. `data.task_status`). */
	wordAt?: string;
	/** What the word alone would have said. */
	wordState: DeckState;
	/** The failure reason the record carries, in the service's words, and its code where it gives one. */
	failureReason?: string;
	failureCode?: string;
	/** Where the record's deliverable is (a link's JSON path or the result member), when it has one. */
	handover?: string;
	/** One or two sentences, present only where the witnesses disagree or the word was elsewhere. */
	note?: string;
}

/** Member names that carry a failure when they have content (compared lower-cased, `_` and `-` dropped). */
const FAILURE_MEMBERS = new Set([
	'error', 'errors', 'failure', 'failures', 'failurereason', 'failedreason', 'failreason', 'failuremessage',
	'errormessage', 'errordetail', 'errordetails', 'errorreason', 'errorcode', 'lasterror', 'failurecode',
]);

/** Boolean flags that say the deck failed when true. */
const FAILURE_FLAGS = new Set(['failed', 'errored', 'haserror', 'haserrors', 'iserror']);

/** Members that hold the deliverable itself, when they have content. */
const RESULT_MEMBERS = new Set([
	'result', 'results', 'output', 'outputs', 'file', 'files', 'artifact', 'artifacts', 'download', 'downloads',
	'export', 'exports', 'deliverable', 'deliverables', 'taskresult', 'taskresults',
]);

/** Texts that say "no error" (an empty failure member): a service's null written out, an ok, a zero. */
const EMPTY_TEXTS = new Set(['', 'none', 'null', 'nil', 'undefined', 'n/a', 'na', '0', 'ok', 'success', 'succeed', 'succeeded', 'false', 'no error', 'no_error']);

/** A failure member's content as words: a text, an object's message, a list's entries. Undefined: empty. */
function failureText(value: unknown, depth = 0): string | undefined {
	if (value === null || value === undefined || value === false || value === 0 || depth > 3) return undefined;
	if (typeof value === 'string') return EMPTY_TEXTS.has(value.trim().toLowerCase()) ? undefined : value.trim();
	if (typeof value === 'number' || value === true) return String(value);
	if (Array.isArray(value)) {
		const texts = value.map((entry) => failureText(entry, depth + 1)).filter((text): text is string => text !== undefined);
		return texts.length ? texts.join('; ') : undefined;
	}
	if (isRecord(value)) {
		for (const member of ['message', 'detail', 'description', 'reason', 'title', 'msg', 'error', 'code']) {
			const text = failureText(value[member], depth + 1);
			if (text !== undefined) return text;
		}
		// an object whose members are all empty (`{code: 0, message: ""}`) is no failure
		return Object.values(value).some((member) => failureText(member, depth + 1) !== undefined) ? JSON.stringify(value) : undefined;
	}
	return undefined;
}

/**
 * The objects where a record's failure, progress and result members may sit, with their paths: the
 * record (inside its envelope), the answer itself, and a status object.
 */
type Places = Array<[string, Record<string, unknown>]>;

function placesOf(body: Record<string, unknown>, located: Located): Places {
	const places: Places = [[located.prefix, located.record]];
	if (located.record !== body) places.push(['', body]);
	for (const member of ['status', 'state'] as const) {
		const value = located.record[member];
		if (isRecord(value)) places.push([`${located.prefix}${member}.`, value]);
	}
	return places;
}

/**
 * The failure the record carries: `{member, reason, code?}`, or undefined when no failure member has
 * content. The reason is the first member with words (a message, a text, a list's entries); a code
 * member (`errorCode: 500`, `failureCode`) or an entry's `code` text is the code, and the reason only
 * where nothing else says more; a flag (`failed: true`) says the least.
 */
function failureOf(places: Places): { member: string; reason: string; code?: string } | undefined {
	let worded: { member: string; reason: string; code?: string } | undefined;
	let coded: { member: string; code: string } | undefined;
	let flagged: string | undefined;
	for (const [prefix, place] of places) {
		for (const [name, value] of Object.entries(place)) {
			const key = memberKey(name);
			if (FAILURE_FLAGS.has(key) && value === true) flagged ??= `${prefix}${name}`;
			if (!FAILURE_MEMBERS.has(key)) continue;
			const reason = failureText(value);
			if (reason === undefined) continue;
			if (key.endsWith('code')) {
				coded ??= { member: `${prefix}${name}`, code: reason };
				continue;
			}
			const first = Array.isArray(value) ? value[0] : value;
			const inner = isRecord(first) ? first.code : undefined;
			worded ??= { member: `${prefix}${name}`, reason, ...(typeof inner === 'string' && inner !== '' ? { code: inner } : {}) };
		}
	}
	if (worded) return worded.code === undefined && coded ? { ...worded, code: coded.code } : worded;
	if (coded) return { member: coded.member, reason: coded.code, code: coded.code };
	return flagged ? { member: flagged, reason: `${flagged.slice(flagged.lastIndexOf('.') + 1)}: true` } : undefined;
}

/**
 * A failure member one level inside the record (Azure's `properties.error`), read only to say why a deck
 * whose word says failed ended: a witness that deep does not overrule the word (a retried step's old error).
 */
function nestedFailureOf(located: Located): { member: string; reason: string; code?: string } | undefined {
	for (const [name, value] of Object.entries(located.record)) {
		if (!isRecord(value) || PART_MEMBERS.test(name) || wordRank(name) !== undefined) continue;
		const failure = failureOf([[`${located.prefix}${name}.`, value]]);
		if (failure) return failure;
	}
	return undefined;
}

/** Members beside a failure word that say why (`task_status_msg`, `statusMessage`, `reason`). */
const STATUS_MESSAGE = /^(.*status(msg|message|reason|detail|details|text)|reason|detail|message)$/;

/**
 * Why a deck whose word says failed ended, when no failure member says it: a status message of the
 * record itself (an envelope's own `message`, "Success" even for a failed job, is not the deck's).
 */
function statusMessageOf(located: Located): string | undefined {
	const inner: Array<Record<string, unknown>> = [];
	for (const [name, value] of Object.entries(located.record)) {
		const key = memberKey(name);
		// a result member holding prose under a failure word is the reason (Celery's `task_result`)
		const prose = RESULT_MEMBERS.has(key) && typeof value === 'string' && /\s/.test(value.trim());
		if (prose || STATUS_MESSAGE.test(key)) {
			const text = failureText(value);
			if (text !== undefined && text !== located.word) return text;
		}
		if (isRecord(value)) inner.push(value);
	}
	// one level down: a response envelope's own status message (`base_resp.status_msg`), never its "success"
	for (const place of inner) {
		for (const [name, value] of Object.entries(place)) {
			if (!/status(msg|message)$/.test(memberKey(name))) continue;
			const text = failureText(value);
			if (text !== undefined) return text;
		}
	}
	return undefined;
}

/** Members that say why an operation ended as it did (`raiMediaFilteredReasons`, `blockReason`), at any depth. */
const REASON_MEMBER = /reasons?$/;

/**
 * Why an operation that ended (`done: true`) left nothing to hand over, where it says so: the first text
 * under a member named for a reason, anywhere in the answer (Veo's `raiMediaFilteredReasons`).
 */
function endedReasonOf(value: unknown, depth = 0): string | undefined {
	if (depth > 4 || (!isRecord(value) && !Array.isArray(value))) return undefined;
	for (const [name, member] of Object.entries(value)) {
		if (!Array.isArray(value) && REASON_MEMBER.test(memberKey(name))) {
			const text = failureText(member);
			if (text !== undefined) return text;
		}
		const inner = endedReasonOf(member, depth + 1);
		if (inner !== undefined) return inner;
	}
	return undefined;
}

/** Members that say how far along a deck is: a percentage, or a fraction of 1. */
const PROGRESS_MEMBERS = new Set(['progress', 'percent', 'percentage', 'percentcomplete', 'progresspercent', 'progresspercentage', 'completion']);

/**
 * Where the record says the deck is still being made (`progress: 40`), or undefined: a progress below
 * 100 on a percentage, or below 1 on a fraction (exactly 1 is done on either scale).
 */
function progressOf(places: Places): string | undefined {
	for (const [prefix, place] of places) {
		for (const [name, value] of Object.entries(place)) {
			if (!PROGRESS_MEMBERS.has(memberKey(name))) continue;
			const amount = typeof value === 'number' ? value : typeof value === 'string' ? Number.parseFloat(value) : Number.NaN;
			if (Number.isFinite(amount) && (amount < 1 || (amount > 1 && amount < 100))) return `${prefix}${name}: ${String(value)}`;
		}
	}
	return undefined;
}

/**
 * Where the record's deliverable is: a deck file link's JSON path, or a result member naming a file.
 * `strict` (the word says running): only what names the deck's file format or a download/export
 * counts, since services put previews and intermediate files in `output` before the end.
 */
function handoverOf(body: Record<string, unknown>, places: Places, strict: boolean, resolveAgainst?: string): string | undefined {
	const link = findLinks(body, resolveAgainst).find((found) => isDeliverable(found, strict));
	if (link) return link.path;
	for (const [prefix, place] of places) {
		for (const [name, value] of Object.entries(place)) {
			if (RESULT_MEMBERS.has(memberKey(name)) && namesAFile(value, strict)) return `${prefix}${name}`;
		}
	}
	return undefined;
}

/** Members that name a file inside a result member (a storage key, an id, inline content). */
const FILE_MEMBERS = new Set(['id', 'fileid', 'key', 'path', 'filename', 'name', 'content', 'data', 'base64', 'uri', 'location']);

/**
 * Whether a result member names a file that is not a link (links are judged as links): a text
 * (`"result": "s3://bucket/deck.pptx"`), or an object or list with a FILE_MEMBERS text. Settings echoed
 * back (`"output": {"format": "pptx"}`) and previews (`thumb.png`) are not a file. `strict`: the text
 * must name the deck's file format or a download/export.
 */
function namesAFile(value: unknown, strict: boolean, depth = 0): boolean {
	if (typeof value === 'string') {
		const text = value.trim();
		// prose (a message where a file would be) is no file, nor a link (judged as a link), nor a preview
		if (text === '' || /\s/.test(text) || /^(https?:)?\/\//i.test(text) || text.startsWith('/v1/') || isPreviewText(text)) return false;
		return !strict || namesDeckFile(text);
	}
	if (!value || typeof value !== 'object' || depth > 3) return false;
	if (Array.isArray(value)) return value.some((entry) => namesAFile(entry, strict, depth + 1));
	return Object.entries(value as Record<string, unknown>).some(([name, member]) =>
		FILE_MEMBERS.has(memberKey(name))
			? typeof member === 'string'
				? namesAFile(member, strict, depth + 1)
				: typeof member === 'number' && !strict
			: typeof member === 'object' && namesAFile(member, strict, depth + 1),
	);
}
