/**
 * A deck's state from its status record. The contract does not list the status words, and warns
 * that one of them reads as the opposite of what it means without saying which. So the word is read
 * through a default map that the user can override per list in the node options (an unknown word is
 * never guessed at: it keeps polling and is reported exactly as it came), and `judgeStatus` weighs
 * it against the rest of the record: the one judgement every node and tool uses.
 */
import { findLinks, isDeliverable } from './links';


export type DeckState = 'running' | 'succeeded' | 'failed' | 'unknown';

export type WordList = 'succeeded' | 'failed' | 'running';

export interface StatusWords {
	succeeded: string[];
	failed: string[];
	running: string[];
	/** The lists the user set (Status Words options): their words are believed whatever the record says. */
	own?: WordList[];
}

export const DEFAULT_STATUS_WORDS: StatusWords = {
	succeeded: ['completed', 'complete', 'done', 'succeeded', 'success', 'ready', 'finished'],
	failed: ['failed', 'failure', 'error', 'errored', 'cancelled', 'canceled', 'expired', 'rejected'],
	running: [
		'queued',
		'pending',
		'processing',
		'running',
		'in_progress',
		'generating',
		'started',
		'created',
		'accepted',
	],
};

function normalise(word: string): string {
	return word.trim().toLowerCase().replace(/[\s-]+/g, '_');
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
	if (word === undefined) return 'unknown';
	const normalised = normalise(word);
	if (words.succeeded.includes(normalised)) return 'succeeded';
	if (words.failed.includes(normalised)) return 'failed';
	if (words.running.includes(normalised)) return 'running';
	return 'unknown';
}

/** Members of a status object that carry its word (`"status": {"code": "completed", …}`). */
const WORD_MEMBERS = ['code', 'name', 'value', 'state', 'status', 'phase'] as const;

/**
 * The status word of a status response: `status`, falling back to `state`. The contract shows no
 * status fields, so the word may also sit inside an object under one of WORD_MEMBERS, or be a
 * number (read as text, which the Status Words lists can map). Text wins over a number.
 */
export function statusWordOf(body: Record<string, unknown>): string | undefined {
	const values = (['status', 'state'] as const).map((member) => body[member]);
	const inner = values.flatMap((value) =>
		value && typeof value === 'object' && !Array.isArray(value)
			? WORD_MEMBERS.map((member) => (value as Record<string, unknown>)[member])
			: [],
	);
	const candidates = [...values, ...inner];
	const text = candidates.find((value): value is string => typeof value === 'string');
	if (text !== undefined) return text;
	const number = candidates.find((value): value is number => typeof value === 'number' && Number.isFinite(value));
	return number !== undefined ? String(number) : undefined;
}

/**
 * The one judgement of a status record, used by Get Status, Download, the Wait node (both modes) and
 * the agent tools. The contract warns that one word reads as its opposite, so the word is one witness
 * and the record the other:
 * 1. a word on a list the user set (Status Words options) is believed: that list is the person's
 *    statement about their deployment;
 * 2. else a failure member with content (`error`, `errors[]`, `failure`, `failureReason`, …; FAILURE_MEMBERS)
 *    means failed, with the service's reason, whatever the word;
 * 3. else something to hand over (a deck file link, or a result member naming a file) means succeeded,
 *    whatever the word, unless the record says the deck is still in progress (a progress below 100 %:
 *    a link given before the file is ready, or the last version's link while a revision runs);
 * 4. else the word, except that a success word of the default map is not believed alone: a deck with
 *    nothing to hand over is `unknown` (it keeps being polled; at Max Wait it is Still Running).
 * Where word and record disagree, `note` says so in one sentence, with the setting that settles it.
 */
export function judgeStatus(
	body: Record<string, unknown>,
	words: StatusWords = DEFAULT_STATUS_WORDS,
	resolveAgainst?: string,
): StatusJudgement {
	const word = statusWordOf(body);
	const wordState = stateOf(word, words);
	const failure = failureOf(body);
	const progress = progressOf(body);
	const found = failure ? undefined : handoverOf(body, resolveAgainst);
	// a link is no hand-over while the record says the deck is still being made
	const handover = progress ? undefined : found;
	const said = `The service said ${word === undefined ? 'no status word' : `"${word}"`}`;
	const judgement: StatusJudgement = { state: wordState, wordState, ...(word !== undefined ? { word } : {}) };
	if (failure) judgement.failureReason = failure.reason;
	if (failure?.code) judgement.failureCode = failure.code;
	if (handover) judgement.handover = handover;
	const ownList = wordState !== 'unknown' && words.own?.includes(wordState);

	if (ownList) {
		const other = failure && wordState !== 'failed' ? `a failure reason (${failure.member}: ${failure.reason})` : handover && wordState !== 'succeeded' ? `the deck to hand over (${handover})` : undefined;
		if (other) judgement.note = `${said}, which your ${LIST_NAME[wordState]} list makes ${wordState}, though the record carries ${other}: your list decides.`;
		return judgement;
	}
	const believe = word === undefined ? '' : ` To believe the word instead, add "${word}" to ${LIST_NAME[wordState === 'unknown' ? 'running' : wordState]}.`;
	if (failure) {
		judgement.state = 'failed';
		if (wordState !== 'failed') judgement.note = `${said}, but the record carries a failure reason (${failure.member}: ${failure.reason}): reported as failed.${wordState === 'succeeded' ? believe : ''}`;
		return judgement;
	}
	if (handover) {
		judgement.state = 'succeeded';
		if (wordState !== 'succeeded') judgement.note = `${said}, but the record has the deck to hand over (${handover}): reported as completed.${wordState === 'unknown' ? '' : believe}`;
		return judgement;
	}
	if (wordState === 'succeeded') {
		judgement.state = 'unknown';
		const missing = [progress && `says it is still in progress (${progress})`, !found && 'has nothing to hand over (no result, link or file)'].filter(Boolean).join(' and ');
		judgement.note = `${said}, but the record ${missing}: not taken as finished, still checking. If "${word}" means finished in this deployment, add it to ${LIST_NAME.succeeded}; if it means still working, add it to ${LIST_NAME.running}.`;
	}
	return judgement;
}

const LIST_NAME: Record<WordList, string> = {
	succeeded: 'Succeeded Status Words',
	failed: 'Failed Status Words',
	running: 'Running Status Words',
};

/**
 * A status answer as the nodes hand it on: every member the service sent, our `state` (judgeStatus;
 * the service's own `state` member, if any, stays under `serviceState`), and where the record and
 * its word disagree `statusNote`, and on a failure the record's `failureReason`.
 */
export function withState(body: Record<string, unknown>, words?: StatusWords, resolveAgainst?: string): Record<string, unknown> {
	const judgement = judgeStatus(body, words, resolveAgainst);
	const { state: serviceState, ...rest } = body;
	const result: Record<string, unknown> = { ...rest, state: judgement.state };
	if (judgement.note) result.statusNote = judgement.note;
	if (judgement.state === 'failed' && judgement.failureReason) result.failureReason = judgement.failureReason;
	if (serviceState !== undefined) result.serviceState = serviceState;
	return result;
}

/** What judgeStatus makes of one status record. */
export interface StatusJudgement {
	state: DeckState;
	/** The service's status word, exactly as it came. */
	word?: string;
	/** What the word alone would have said. */
	wordState: DeckState;
	/** The failure reason the record carries, in the service's words, and its code where it gives one. */
	failureReason?: string;
	failureCode?: string;
	/** Where the record's deliverable is (a link's JSON path or the result member), when it has one. */
	handover?: string;
	/** One sentence, present only where word and record disagree. */
	note?: string;
}

/** Member names that carry a failure when they have content (compared lower-cased, `_` and `-` dropped). */
const FAILURE_MEMBERS = new Set([
	'error', 'errors', 'failure', 'failures', 'failurereason', 'failedreason', 'failreason', 'failuremessage',
	'errormessage', 'errordetail', 'errordetails', 'errorreason', 'errorcode', 'lasterror',
]);

/** Boolean flags that say the deck failed when true. */
const FAILURE_FLAGS = new Set(['failed', 'errored', 'haserror', 'haserrors', 'iserror']);

/** Members that hold the deliverable itself, when they have content. */
const RESULT_MEMBERS = new Set(['result', 'results', 'output', 'outputs', 'file', 'files', 'artifact', 'artifacts', 'download', 'downloads', 'export', 'exports', 'deliverable', 'deliverables']);

const memberKey = (name: string) => name.toLowerCase().replace(/[_-]/g, '');

/** A failure member's content as words: a text, an object's message, a list's entries. Undefined: empty. */
function failureText(value: unknown, depth = 0): string | undefined {
	if (value === null || value === undefined || value === false || depth > 3) return undefined;
	if (typeof value === 'string') return value.trim() || undefined;
	if (typeof value === 'number' || value === true) return String(value);
	if (Array.isArray(value)) {
		const texts = value.map((entry) => failureText(entry, depth + 1)).filter((text): text is string => text !== undefined);
		return texts.length ? texts.join('; ') : undefined;
	}
	if (typeof value === 'object') {
		const record = value as Record<string, unknown>;
		for (const member of ['message', 'detail', 'description', 'reason', 'title', 'msg', 'error', 'code']) {
			const text = failureText(record[member], depth + 1);
			if (text !== undefined) return text;
		}
		return Object.keys(record).length ? JSON.stringify(record) : undefined;
	}
	return undefined;
}

/** The objects of a record where its failure or result members may sit: the record, and the status object. */
function placesOf(body: Record<string, unknown>): Array<[string, Record<string, unknown>]> {
	const places: Array<[string, Record<string, unknown>]> = [['', body]];
	for (const member of ['status', 'state'] as const) {
		const value = body[member];
		if (value && typeof value === 'object' && !Array.isArray(value)) places.push([`${member}.`, value as Record<string, unknown>]);
	}
	return places;
}

/**
 * The failure the record carries: `{member, reason, code?}` (`code`: an object's, or a list's first
 * entry's, `code` text), or undefined when no failure member has content.
 */
export function failureOf(body: Record<string, unknown>): { member: string; reason: string; code?: string } | undefined {
	for (const [prefix, place] of placesOf(body)) {
		for (const [name, value] of Object.entries(place)) {
			const key = memberKey(name);
			if (FAILURE_FLAGS.has(key) && value === true) return { member: `${prefix}${name}`, reason: `${name}: true` };
			if (!FAILURE_MEMBERS.has(key)) continue;
			const reason = failureText(value);
			if (reason === undefined) continue;
			const first = Array.isArray(value) ? value[0] : value;
			const code = first && typeof first === 'object' ? (first as Record<string, unknown>).code : undefined;
			return { member: `${prefix}${name}`, reason, ...(typeof code === 'string' && code !== '' ? { code } : {}) };
		}
	}
	return undefined;
}

/** Members that say how far along a deck is: a percentage, or a fraction of 1. */
const PROGRESS_MEMBERS = new Set(['progress', 'percent', 'percentcomplete', 'progresspercent', 'completion']);

/**
 * Where the record says the deck is still being made (`progress: 40`), or undefined: a progress below
 * 100 on a percentage, or below 1 on a fraction (exactly 1 is done on either scale).
 */
export function progressOf(body: Record<string, unknown>): string | undefined {
	for (const [prefix, place] of placesOf(body)) {
		for (const [name, value] of Object.entries(place)) {
			if (!PROGRESS_MEMBERS.has(memberKey(name))) continue;
			const amount = typeof value === 'number' ? value : typeof value === 'string' ? Number.parseFloat(value) : Number.NaN;
			if (Number.isFinite(amount) && (amount < 1 || (amount > 1 && amount < 100))) return `${prefix}${name}: ${String(value)}`;
		}
	}
	return undefined;
}

/** Where the record's deliverable is: a deck file link's JSON path, or a result member with content. */
export function handoverOf(body: Record<string, unknown>, resolveAgainst?: string): string | undefined {
	const link = findLinks(body, resolveAgainst).find(isDeliverable);
	if (link) return link.path;
	for (const [prefix, place] of placesOf(body)) {
		for (const [name, value] of Object.entries(place)) {
			if (RESULT_MEMBERS.has(memberKey(name)) && namesAFile(value)) return `${prefix}${name}`;
		}
	}
	return undefined;
}

/** Members that name a file inside a result member (a storage key, an id, inline content). */
const FILE_MEMBERS = new Set(['id', 'fileid', 'key', 'path', 'filename', 'name', 'content', 'data', 'base64', 'uri', 'location']);

/**
 * Whether a result member names a file: a text (`"result": "s3://bucket/deck.pptx"`), or an object or
 * list with a FILE_MEMBERS text. Settings echoed back (`"output": {"format": "pptx"}`) are not a file.
 */
function namesAFile(value: unknown, depth = 0): boolean {
	if (typeof value === 'string') return value.trim() !== '';
	if (!value || typeof value !== 'object' || depth > 3) return false;
	if (Array.isArray(value)) return value.some((entry) => namesAFile(entry, depth + 1));
	return Object.entries(value as Record<string, unknown>).some(([name, member]) =>
		FILE_MEMBERS.has(memberKey(name)) ? typeof member === 'string' ? member.trim() !== '' : typeof member === 'number' : typeof member === 'object' && namesAFile(member, depth + 1),
	);
}
