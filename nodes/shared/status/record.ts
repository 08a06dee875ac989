/**
 * Where things are in a deck's status answer: the record inside its envelope, its status word wherever the
 * record puts it, a record written inside a JSON string, and the dot paths a user sets (Status Word Path,
 * File Link Path, Failure Reason Path). Only finding; what the findings mean is judge.ts's.
 */
import { deepWord, type RecordIndex } from './leaves';
import { ENUM_LIKE, ENVELOPE_WORDS, isPartMember, isRecord, memberKey, NOT_A_STATE, ownWord, RECORD_IN_PART, wordIn, wordRank } from './members';
import { classify, DEFAULT_STATUS_WORDS, normalise, type StatusWords } from './vocabulary';

/** A JSON document inside a string is read up to this size, and this many of them per answer. */
const MAX_JSON_STRING = 64 * 1024;
const MAX_JSON_STRINGS = 32;
const MAX_DEPTH = 8;

/** Whether a text may be a JSON object or array (the cheap test before parsing it). */
const looksLikeJson = (text: string) => {
	const trimmed = text.trim();
	return trimmed.length >= 2 && trimmed.length <= MAX_JSON_STRING && ((trimmed[0] === '{' && trimmed.endsWith('}')) || (trimmed[0] === '[' && trimmed.endsWith(']')));
};

function parseJsonText(text: string): unknown {
	try {
		const parsed: unknown = JSON.parse(text);
		return parsed && typeof parsed === 'object' ? parsed : undefined;
	} catch {
		return undefined;
	}
}

/**
 * The answer with every member whose value is a JSON object or array written as a string (kie.ai's
 * `"resultJson": "{\"resultUrls\":[…]}"`) read as if it were nested there, so its links, words and reasons are
 * found like any other; a string that does not parse stays as it is. Copies only what it changes: an answer
 * without such strings is returned as it is.
 */
export function expandJsonStrings(body: Record<string, unknown>): Record<string, unknown> {
	let budget = MAX_JSON_STRINGS;
	const visit = (value: unknown, depth: number): unknown => {
		if (typeof value === 'string') {
			if (budget <= 0 || !looksLikeJson(value)) return value;
			const parsed = parseJsonText(value.trim());
			if (parsed === undefined) return value;
			budget--;
			return visit(parsed, depth + 1);
		}
		if (!value || typeof value !== 'object' || depth >= MAX_DEPTH) return value;
		let copy: Record<string, unknown> | unknown[] | undefined;
		const entries = Array.isArray(value) ? value.entries() : Object.entries(value as Record<string, unknown>);
		for (const [key, member] of entries) {
			const read = visit(member, depth + 1);
			if (read === member) continue;
			copy ??= Array.isArray(value) ? [...value] : { ...(value as Record<string, unknown>) };
			(copy as Record<string | number, unknown>)[key] = read;
		}
		return copy ?? value;
	};
	return visit(body, 0) as Record<string, unknown>;
}

/** A dot path's steps: `data.files[0].url` → `data`, `files`, 0, `url`. */
export function pathSteps(path: string): Array<string | number> | undefined {
	const steps: Array<string | number> = [];
	for (const part of path.trim().split('.')) {
		const match = /^([^[\]]*)((?:\[\d+\])*)$/.exec(part);
		if (!match || (match[1] === '' && match[2] === '')) return undefined;
		if (match[1] !== '') steps.push(match[1]);
		for (const index of match[2].matchAll(/\[(\d+)\]/g)) steps.push(Number(index[1]));
	}
	return steps.length ? steps : undefined;
}

/**
 * The value at a dot path of the answer (`data.resultJson.resultUrls[0]`): array indexes in brackets, and a
 * member holding a JSON document as a string is read through, as if nested. Undefined: nothing there.
 */
export function valueAtRecordPath(body: unknown, path: string): unknown {
	return resolveRecordPath(body, path)?.value;
}

/** A step that stands for any one member (issue 50 B12: `statuses.*.status`, a member named after each deck's id). */
export const ANY_MEMBER = '*';

/**
 * The value at a dot path and the path it was found at, with each `*` step standing for any one member of an
 * object (or entry of a list), in the record's order: the first whose rest of the path leads to a value.
 */
export function resolveRecordPath(body: unknown, path: string): { value: unknown; path: string } | undefined {
	const steps = pathSteps(path);
	if (!steps) return undefined;
	const walk = (at: unknown, from: number, walked: string): { value: unknown; path: string } | undefined => {
		if (at === undefined || at === null) return undefined;
		if (from === steps.length) return { value: at, path: walked };
		if (typeof at === 'string' && looksLikeJson(at)) at = parseJsonText(at.trim());
		const step = steps[from];
		if (typeof step === 'number') return Array.isArray(at) ? walk(at[step], from + 1, `${walked}[${step}]`) : undefined;
		if (step === ANY_MEMBER && !(isRecord(at) && ANY_MEMBER in at)) {
			const entries: Array<[string, unknown]> = Array.isArray(at) ? at.map((entry, index) => [`[${index}]`, entry]) : isRecord(at) ? Object.entries(at).map(([name, value]) => [name, value]) : [];
			for (const [name, value] of entries) {
				const found = walk(value, from + 1, name.startsWith('[') ? `${walked}${name}` : walked ? `${walked}.${name}` : name);
				if (found) return found;
			}
			return undefined;
		}
		return isRecord(at) ? walk(at[step], from + 1, walked ? `${walked}.${step}` : step) : undefined;
	};
	return walk(body, 0, '');
}

/**
 * The value at a path the user set, and the path it was found at (each `*` as the member it stood for): as
 * written (the record as Get Status shows it), else, for a path copied from a service's documentation, without the
 * envelope Get Status lifts its record out of (`data.state` → `state`, `data.attributes.status` → `status`:
 * shared/outcome.ts withoutEnvelope).
 */
export function atUserPath(body: unknown, path: string): { value: unknown; path: string } | undefined {
	const written = path.trim();
	for (const candidate of [written, written.replace(/^data\.attributes\./, ''), written.replace(/^data\./, '')]) {
		const found = resolveRecordPath(body, candidate);
		if (found) return found;
	}
	return undefined;
}

/** The parent of a path and its last step (`data.job.state` → `data.job`, `state`). */
export function parentPath(path: string): string {
	const cut = Math.max(path.lastIndexOf('.'), path.lastIndexOf('['));
	return cut > 0 ? path.slice(0, cut) : '';
}

/**
 * The members an answer has, for a note about a path that matches nothing: its own members and those of each
 * object member one level down (`data.state`), at most `limit` of them.
 */
export function membersOf(body: Record<string, unknown>, limit = 24): string[] {
	const names: string[] = [];
	for (const [name, value] of Object.entries(body)) {
		names.push(name);
		if (isRecord(value)) for (const inner of Object.keys(value)) names.push(`${name}.${inner}`);
		if (names.length >= limit) return [...names.slice(0, limit), '…'];
	}
	return names;
}

/**
 * The state word under a member no list names (Transloadit's `"ok": "ASSEMBLY_EXECUTING"`, sync.ai's `"message":
 * "rendering"`): the first text member of `place` whose value is enum-like and reads as a word of the vocabulary
 * (its last part included: `PREFIX_WORD`), skipping members named for prose, names and settings, and an
 * envelope's words about the request (`"message": "Success"`).
 */
function unnamedWord(place: Record<string, unknown>, words: StatusWords): { word: string; path: string } | undefined {
	// walks the raw record, not the index: past 2,000 values the index drops exactly these members (text under a name no list names)
	for (const [name, value] of Object.entries(place)) {
		if (typeof value !== 'string' || value.length > 48 || !ENUM_LIKE.test(value.trim()) || NOT_A_STATE.test(memberKey(name)) || isPartMember(name)) continue;
		if (ENVELOPE_WORDS.has(normalise(value))) continue;
		const reading = classify(value, words);
		if (reading.state !== 'unknown' || reading.endsInSuccess) return { word: value, path: name };
	}
	return undefined;
}

/** Where a record is, and where its word was found. `prefix` is the record's path (`data.`, `''`). */
export interface Located {
	record: Record<string, unknown>;
	prefix: string;
	word?: string;
	/** The word's JSON path in the body (`status`, `data.task_status`, `status.code`). */
	path?: string;
	/** A record with no word whose `done` says whether it ended (Google's long-running operations). */
	done?: boolean;
	/** The Status Word Path the user set matched nothing in this answer. */
	pathMissed?: string;
	/**
	 * The word was read where it is not plainly the deck's (issue 50): in a list's one entry (`attempts: [{…}]` is
	 * a part, but `jobs: [{…}]` is AWS Batch's record), or two or more levels down through a name that is no plain
	 * envelope (members.ts PLAIN_ENVELOPES). judge.ts believes its success only with the deck's file there.
	 */
	weak?: boolean;
}

/**
 * The object members a record may sit in: an envelope's `data`, JSON:API's `data.attributes`, a named record
 * (`generation`), the one entry of a list (`{"jobs": [{…}]}`: AWS Batch's DescribeJobs).
 */
function* envelopePlaces(body: Record<string, unknown>): Generator<[string, Record<string, unknown>, { weak: boolean }]> {
	// walks the raw record, not the index: the index's places come shallowest first (not each member's `[0]`, itself, `.attributes` in turn) and stop at its cut
	for (const [name, value] of Object.entries(body)) {
		if (wordRank(name) !== undefined || isPartMember(name)) continue;
		// a list's one entry may be the record, or one of the many a list holds that happens to have one entry now
		if (Array.isArray(value) && value.length === 1 && isRecord(value[0])) yield [`${name}[0].`, value[0], { weak: true }];
		if (!isRecord(value)) continue;
		yield [`${name}.`, value, { weak: false }];
		if (isRecord(value.attributes)) yield [`${name}.attributes.`, value.attributes, { weak: false }];
	}
}

/**
 * The deck's record inside a status answer, and its word. With a Status Word Path the word is there (and the
 * record is the object holding it), or there is none. Else the word is wherever the record puts it: the
 * answer's own plainest word member (status, state, task_status, …), else the record inside an envelope
 * (`{code, message: "Success", data: {task_status, …}}`, JSON:API `data.attributes`, any one object member
 * such as `generation`, a list's one entry), else an enum-like value of the vocabulary under a member no list
 * names (`ok`), else a record held in an `output` or `metadata` member (DashScope, Google operations), else
 * (given the record's index) a word two or more envelopes down (`deepWord`), else none. An envelope's
 * `status: "success"` beside a `data` record with its own word is the envelope's.
 */
export function locateRecord(body: Record<string, unknown>, words: StatusWords = DEFAULT_STATUS_WORDS, wordPath?: string, index?: RecordIndex): Located {
	// walks the raw record for its shallow searches (unnamedWord, envelopePlaces say why); only the deep word, past them, asks the index (deepWord)
	if (wordPath) {
		const at = atUserPath(body, wordPath);
		const found = wordIn(at?.value);
		if (!at || !found) return { record: body, prefix: '', pathMissed: wordPath };
		const parent = parentPath(at.path);
		const holder = parent ? valueAtRecordPath(body, parent) : body;
		const record = isRecord(holder) ? holder : body;
		const prefix = parent && record !== body ? `${parent}.` : '';
		return { record, prefix, word: found.word, path: found.inner ? `${at.path}.${found.inner}` : at.path };
	}
	const own = ownWord(body);
	if (own?.text && !ENVELOPE_WORDS.has(normalise(own.word))) return { record: body, prefix: '', word: own.word, path: own.path };
	for (const [prefix, place, { weak }] of envelopePlaces(body)) {
		const inner = ownWord(place);
		if (inner?.text) return { record: place, prefix, word: inner.word, path: `${prefix}${inner.path}`, ...(weak ? { weak } : {}) };
	}
	const unnamed = unnamedWord(body, words);
	if (unnamed) return { record: body, prefix: '', word: unnamed.word, path: unnamed.path };
	for (const [prefix, place, { weak }] of envelopePlaces(body)) {
		const inner = unnamedWord(place, words);
		if (inner) return { record: place, prefix, word: inner.word, path: `${prefix}${inner.path}`, ...(weak ? { weak } : {}) };
	}
	for (const [name, value] of Object.entries(body)) {
		if (!RECORD_IN_PART.test(name) || !isRecord(value)) continue;
		const inner = ownWord(value);
		if (inner?.text && !ENVELOPE_WORDS.has(normalise(inner.word)) && classify(inner.word, words).state !== 'unknown') return { record: value, prefix: `${name}.`, word: inner.word, path: `${name}.${inner.path}` };
	}
	// nothing shallower has a word: two or more envelopes down (Cloudflare's result.default, GraphQL's data.node)
	const deep = index && deepWord(index, words);
	if (deep) return { record: deep.place.value, prefix: `${deep.place.path}.`, word: deep.word, path: deep.path, ...(deep.weak ? { weak: true } : {}) };
	if (own) return { record: body, prefix: '', word: own.word, path: own.path };
	if (typeof body.done === 'boolean') return { record: body, prefix: '', done: body.done };
	// no word anywhere: the record is still the one inside an API envelope, so its failure members are read there
	const wrapped = dataWrapperOf(body);
	return wrapped ? { record: wrapped.record, prefix: `${wrapped.name}.` } : { record: body, prefix: '' };
}

/** Members of an API envelope about the request, beside the record it wraps (`{code, msg, data: {…}}`). */
const ENVELOPE_MEMBERS = /^(code|msg|message|success|ok|errcode|errmsg|statuscode|statusmsg|requestid|logid|traceid|timestamp)$/;

/**
 * The record an API envelope wraps (issue 50 B7: `{code, msg, data: {…, error_reason}}`): the answer's one object
 * member, beside members that are only about the request (a code, a message, a request id). Undefined when the
 * answer is not such an envelope (it has members of its own, or several objects).
 */
function dataWrapperOf(body: Record<string, unknown>): { name: string; record: Record<string, unknown> } | undefined {
	const objects = Object.entries(body).filter(([, value]) => isRecord(value));
	if (objects.length !== 1) return undefined;
	const [name, record] = objects[0] as [string, Record<string, unknown>];
	if (isPartMember(name) || wordRank(name) !== undefined) return undefined;
	const others = Object.keys(body).filter((member) => member !== name);
	return others.length > 0 && others.every((member) => ENVELOPE_MEMBERS.test(memberKey(member))) ? { name, record } : undefined;
}
