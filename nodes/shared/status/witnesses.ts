/**
 * The witnesses a status record gives beside its word, each read on its own: a failure member with content,
 * the service's reason for a failure (wherever it writes it), a progress short of its end, and the deck to
 * hand over. judge.ts weighs them.
 */
import { bestDeckFile, isPreviewText, namesDeckFile, type FoundLink } from '../links';
import { BESIDE_THE_DECK, declaresPreview, isPartMember, isRecord, memberKey, ownWord, wordRank } from './members';
import { valueAtRecordPath, type Located } from './record';
import { classify, normalise } from './vocabulary';

/** Member names that carry a failure when they have content (compared as memberKey writes them). */
const FAILURE_MEMBERS = new Set([
	'error', 'errors', 'failure', 'failures', 'failurereason', 'failedreason', 'failreason', 'failuremessage', 'failurecause', 'failuredetail', 'failuredetails',
	'errormessage', 'errormsg', 'failmsg', 'errordetail', 'errordetails', 'errorreason', 'errorcode', 'lasterror', 'failurecode', 'failcode',
	'errordescription', 'failuredescription',
]);

/**
 * A boolean flag that says the deck failed when true, read by its words (normalise: `hasErrors` → `has_errors`):
 * an optional `is`/`has`/`was`, an optional `fatal`, then what went wrong (`failed`, `error(s)`, `failure`,
 * `fatal`), then optionally that it happened (`fatalErrorEncountered`, `errorOccurred`). Nothing else may stand
 * in it, so a flag that turns the failure around or only sets a policy is none: `has_non_fatal_errors`,
 * `isNonFatal`, `ignore_fatal_errors`, `retryOnError`, `failOnError` (issue 50).
 */
const FAILURE_FLAG = /^(?:(?:is|has|had|was|were)_)?(?:fatal_)?(?:failed|errored|errors?|failures?|fatal)(?:_(?:errors?|failures?))?(?:_(?:encountered|occurred|happened|found|seen))?$/;
export const isFailureFlag = (name: string): boolean => FAILURE_FLAG.test(normalise(name));

/** Members that hold the deliverable itself, when they have content. */
export const RESULT_MEMBERS = new Set([
	'result', 'results', 'output', 'outputs', 'file', 'files', 'artifact', 'artifacts', 'download', 'downloads',
	'export', 'exports', 'deliverable', 'deliverables', 'taskresult', 'taskresults',
]);

/** Texts that say "no error" (an empty failure member): a service's null written out, an ok, a zero. */
const EMPTY_TEXTS = new Set(['', 'none', 'null', 'nil', 'undefined', 'n/a', 'na', '0', 'ok', 'success', 'succeed', 'succeeded', 'false', 'no error', 'no_error']);

/** The members of an object that say in words what went wrong, in the order they are read. */
const WORDED_MEMBERS = ['message', 'detail', 'description', 'reason', 'title', 'msg', 'error', 'code'];

/**
 * An error entry the job gets past: one that says it is retried or not fatal (Remotion's `errors[]` lists a
 * chunk's timeout with `isFatal: false, willRetry: true` while the render goes on). No failure of the deck.
 */
function retriedEntry(entry: unknown): boolean {
	return isRecord(entry) && (entry.isFatal === false || entry.fatal === false || entry.willRetry === true || entry.retrying === true || entry.recoverable === true);
}

/** A failure member's content as words: a text, an object's message, a list's entries (those not retried). Undefined: empty. */
export function failureText(value: unknown, depth = 0): string | undefined {
	// reads a value, not the index: a reason is text and whole objects (JSON.stringify), and the index keeps no text past 2,000 values
	if (value === null || value === undefined || value === false || value === 0 || depth > 3) return undefined;
	if (typeof value === 'string') return EMPTY_TEXTS.has(value.trim().toLowerCase()) ? undefined : value.trim();
	if (typeof value === 'number' || value === true) return String(value);
	if (Array.isArray(value)) {
		const texts = value.filter((entry) => !retriedEntry(entry)).map((entry) => failureText(entry, depth + 1)).filter((text): text is string => text !== undefined);
		return texts.length ? texts.join('; ') : undefined;
	}
	if (retriedEntry(value)) return undefined;
	if (isRecord(value)) {
		for (const member of WORDED_MEMBERS) {
			const text = failureText(value[member], depth + 1);
			if (text !== undefined) return text;
		}
		// members named for what they say (BFL's `details: {"Moderation Reasons": […]}`)
		for (const [name, member] of Object.entries(value)) {
			if (!/reason|message|error|detail|cause/.test(memberKey(name))) continue;
			const text = failureText(member, depth + 1);
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
export type Places = Array<[string, Record<string, unknown>]>;

export function placesOf(body: Record<string, unknown>, located: Located): Places {
	const places: Places = [[located.prefix, located.record]];
	if (located.record !== body) places.push(['', body]);
	for (const member of ['status', 'state'] as const) {
		const value = located.record[member];
		if (isRecord(value)) places.push([`${located.prefix}${member}.`, value]);
	}
	return places;
}

export interface Failure {
	member: string;
	reason: string;
	code?: string;
}

/**
 * The failure the record carries (a witness against the word): the first failure member with content. The
 * reason is the first member with words (a message, a text, a list's entries); a code member (`errorCode:
 * 500`, `failureCode`) or an entry's `code` text is the code, and the reason only where nothing else says
 * more; a flag (`failed: true`) says the least.
 */
export function failureOf(places: Places): Failure | undefined {
	const worded: Failure[] = [];
	let coded: { member: string; code: string } | undefined;
	let flagged: string | undefined;
	for (const [prefix, place] of places) {
		for (const [name, value] of Object.entries(place)) {
			const key = memberKey(name);
			if (value === true && isFailureFlag(name)) flagged ??= `${prefix}${name}`;
			if (!FAILURE_MEMBERS.has(key)) continue;
			const reason = failureText(value);
			if (reason === undefined) continue;
			// `error: 1`, `error: true`: a flag, not words (issue 50 B11); the prose beside it says why
			if (value === true || (typeof value === 'number' && !key.endsWith('code'))) {
				flagged ??= `${prefix}${name}`;
				continue;
			}
			if (key.endsWith('code')) {
				coded ??= { member: `${prefix}${name}`, code: reason };
				continue;
			}
			const first = Array.isArray(value) ? value[0] : value;
			const inner = isRecord(first) ? first.code : undefined;
			worded.push({ member: `${prefix}${name}`, reason, ...(typeof inner === 'string' && inner !== '' ? { code: inner } : {}) });
		}
	}
	if (worded.length) return withCode(worded, coded, places);
	if (coded) return { member: coded.member, reason: coded.code, code: coded.code };
	if (!flagged) return undefined;
	const beside = proseBeside(places, flagged);
	return beside ? { member: beside.member, reason: beside.text } : { member: flagged, reason: `${flagged.slice(flagged.lastIndexOf('.') + 1)}: ${String(valueOfMember(places, flagged))}` };
}

/** The value of a member found in `places` by its full path (`data.error`). */
function valueOfMember(places: Places, member: string): unknown {
	const prefix = member.slice(0, member.lastIndexOf('.') + 1);
	return places.find(([at]) => at === prefix)?.[1][member.slice(prefix.length)];
}

/** A code: one token, no words (`internal_processing`, `INTERNAL_COMMAND_ERROR`, `500`). */
const isCode = (text: string) => /^[A-Za-z0-9_.:-]+$/.test(text);

/**
 * The failure members with words, as one failure: the first that says it in words (Rev.ai's `failure_detail`
 * beside its `failure: "internal_processing"`), with the code the others give.
 */
function withCode(worded: Failure[], coded: { code: string } | undefined, places: Places): Failure {
	const code = worded.find((failure) => isCode(failure.reason))?.reason ?? coded?.code;
	const prose = worded.find((failure) => !isCode(failure.reason));
	if (prose) return prose.code === undefined && code !== undefined ? { ...prose, code } : prose;
	// only codes: the message beside the first (Transloadit's `error` and `message`) says it in words
	const [first] = worded;
	const beside = proseBeside(places, first.member);
	if (beside) return { member: beside.member, reason: beside.text, code: first.code ?? first.reason };
	return first.code === undefined && coded ? { ...first, code: coded.code } : first;
}

/** The message beside a failure member that gave only a code: a text with words, in the same object. */
function proseBeside(places: Places, member: string): { member: string; text: string } | undefined {
	const prefix = member.slice(0, member.lastIndexOf('.') + 1);
	const place = places.find(([at]) => at === prefix)?.[1];
	for (const name of ['message', 'detail', 'description', 'errorMessage', 'error_message', 'error_description', 'errorDescription']) {
		const text = place?.[name];
		if (typeof text === 'string' && /\s/.test(text.trim())) return { member: `${prefix}${name}`, text: text.trim() };
	}
	return undefined;
}

/** Members beside a failure word that say why (`task_status_msg`, `statusMessage`, `status_details`, `reason`). */
const STATUS_MESSAGE = /^(.*status(msg|message|reason|detail|details|text)|reason|detail|details|message)$/;

/** Member names that say why something ended, at any depth (`task_error`, `failure_cause`, `raiMediaFilteredReasons`). */
const WHY_MEMBER = /error|fail|cause|reasons?$/;

/**
 * Why a deck ended without its deck, where the record has no failure member with content (`failureOf`, the
 * witness, says why where it has one), wherever else the record says it, in the order a person reading it would
 * trust: a failed sub-task's own message (CloudConvert's
 * `tasks[].message`), a failure member one level down (Azure's `properties.error`), a status message or
 * detail of the record (`task_status_msg`, `statusMessage`, `status_details`; an envelope's own "Success"
 * is about the request, never the deck's), then any member named for an error, a failure, a cause or a reason
 * (`task_error.message`, `failure_cause`, Veo's `raiMediaFilteredReasons`). Read only to say why: none of these
 * overrules the word.
 */
export function reasonOf(body: Record<string, unknown>, located: Located): Failure | undefined {
	return (
		failedSubTaskOf(located.record, located.prefix) ??
		nestedFailureOf(located) ??
		besideTheWord(body, located) ??
		statusMessageOf(located) ??
		namedReasonOf(located.record, located.prefix, located.word) ??
		(located.record !== body ? namedReasonOf(body, '', located.word) : undefined)
	);
}

/**
 * The message beside a word read inside its own object (Databricks' `status.termination_details`: its `code` is
 * the word, its `message` why), where that object is not the record itself (statusMessageOf reads that one).
 */
function besideTheWord(body: Record<string, unknown>, located: Located): Failure | undefined {
	const at = located.path;
	const cut = at?.lastIndexOf('.') ?? -1;
	if (!at || cut <= 0) return undefined;
	const parent = at.slice(0, cut);
	if (`${parent}.` === located.prefix) return undefined;
	const holder = valueAtRecordPath(body, parent);
	return isRecord(holder) ? messageOf(holder, `${parent}.`, located.word) : undefined;
}

/** A failure member one level inside the record (Azure's `properties.error`). */
function nestedFailureOf(located: Located): Failure | undefined {
	for (const [name, value] of Object.entries(located.record)) {
		if (!isRecord(value) || isPartMember(name) || wordRank(name) !== undefined) continue;
		const failure = failureOf([[`${located.prefix}${name}.`, value]]);
		if (failure) return failure;
	}
	return undefined;
}

/**
 * A step of the job that failed, in a list of steps each with its own word (CloudConvert's `tasks`, a
 * pipeline's `steps`): its failure member, else its own message, with its code.
 */
function failedSubTaskOf(record: Record<string, unknown>, prefix: string, depth = 0): Failure | undefined {
	// walks the raw record, not the index: the first failed sub-task depth-first (the index's places come shallowest first), and past its cut
	if (depth > 2) return undefined;
	for (const [name, value] of Object.entries(record)) {
		// an earlier attempt, a webhook, a slide: its failure is its own, never why the deck failed (issue 50)
		if (BESIDE_THE_DECK.test(name)) continue;
		const entries = Array.isArray(value) ? value : isRecord(value) && depth > 0 ? [value] : [];
		for (const [index, entry] of entries.entries()) {
			if (!isRecord(entry)) continue;
			const at = Array.isArray(value) ? `${prefix}${name}[${index}].` : `${prefix}${name}.`;
			const word = ownWord(entry);
			if (word?.text && classify(word.word).state === 'failed') {
				const own = failureOf([[at, entry]]) ?? messageOf(entry, at, word.word);
				if (own) return own;
			}
			const inner = failedSubTaskOf(entry, at, depth + 1);
			if (inner) return inner;
		}
	}
	return undefined;
}

/** An object's own message (`message`, `statusMessage`, `detail`), with its `code` where it gives one. */
function messageOf(place: Record<string, unknown>, prefix: string, word?: string): Failure | undefined {
	for (const [name, value] of Object.entries(place)) {
		if (!STATUS_MESSAGE.test(memberKey(name))) continue;
		const reason = failureText(value);
		if (reason === undefined || reason === word) continue;
		const code = typeof place.code === 'string' && place.code !== '' ? place.code : undefined;
		return { member: `${prefix}${name}`, reason, ...(code ? { code } : {}) };
	}
	return undefined;
}

/**
 * Why a deck whose word says failed ended, from a status message of the record itself (a result member holding
 * prose is one: Celery's `task_result`), else a response envelope's own status message one level down
 * (`base_resp.status_msg`), never its "success".
 */
function statusMessageOf(located: Located): Failure | undefined {
	const inner: Array<[string, Record<string, unknown>]> = [];
	for (const [name, value] of Object.entries(located.record)) {
		const key = memberKey(name);
		const prose = RESULT_MEMBERS.has(key) && typeof value === 'string' && /\s/.test(value.trim());
		if (prose || STATUS_MESSAGE.test(key)) {
			const text = failureText(value);
			if (text !== undefined && text !== located.word) return { member: `${located.prefix}${name}`, reason: text };
		}
		if (isRecord(value)) inner.push([`${located.prefix}${name}.`, value]);
	}
	for (const [prefix, place] of inner) {
		for (const [name, value] of Object.entries(place)) {
			if (!/(status|state)(msg|message)$/.test(memberKey(name))) continue;
			const text = failureText(value);
			if (text !== undefined) return { member: `${prefix}${name}`, reason: text };
		}
	}
	return undefined;
}

/** The first text under a member named for an error, a failure, a cause or a reason, at any depth. */
function namedReasonOf(value: Record<string, unknown> | unknown[], prefix: string, word: string | undefined, depth = 0): Failure | undefined {
	// walks the raw record, not the index: reasons are text members (the index keeps none past 2,000 values) and objects read whole
	if (depth > 4) return undefined;
	for (const [name, member] of Object.entries(value)) {
		if (!Array.isArray(value) && BESIDE_THE_DECK.test(name)) continue;
		const at = Array.isArray(value) ? `${prefix.replace(/\.$/, '')}[${name}]` : `${prefix}${name}`;
		if (!Array.isArray(value) && WHY_MEMBER.test(memberKey(name)) && memberKey(name) !== 'finishreason') {
			const text = failureText(member);
			if (text !== undefined && text !== word) return { member: at, reason: text };
		}
		if (member && typeof member === 'object') {
			const inner = namedReasonOf(member as Record<string, unknown>, `${at}.`, word, depth + 1);
			if (inner) return inner;
		}
	}
	return undefined;
}

/** Members that say how far along a deck is: a percentage, or a fraction of 1. */
const PROGRESS_MEMBERS = new Set(['progress', 'percent', 'percentage', 'percentcomplete', 'progresspercent', 'progresspercentage', 'completion']);

/**
 * Where the record says the deck is still being made (`progress: 40`), or undefined: a progress below
 * 100 on a percentage, or below 1 on a fraction (exactly 1 is done on either scale).
 */
export function progressOf(places: Places): string | undefined {
	for (const [prefix, place] of places) {
		for (const [name, value] of Object.entries(place)) {
			if (!PROGRESS_MEMBERS.has(memberKey(name))) continue;
			const amount = typeof value === 'number' ? value : typeof value === 'string' ? Number.parseFloat(value) : Number.NaN;
			if (Number.isFinite(amount) && (amount < 1 || (amount > 1 && amount < 100))) return `${prefix}${name}: ${String(value)}`;
		}
	}
	return undefined;
}

/** The deck to hand over: a link to its file (with its JSON path), or a result member naming a file. */
export type Handover = { path: string; link?: FoundLink };

/**
 * Where the record's deliverable is: a deck file link, or a result member naming a file. `strict` (the word
 * says running or failed): only what names the deck's file format or a download/export counts, since services
 * put previews and intermediate files in `output` before the end.
 */
export function handoverOf(links: FoundLink[], places: Places, strict: boolean): Handover | undefined {
	const link = bestDeckFile(links, strict);
	if (link) return { path: link.path, link };
	for (const [prefix, place] of places) {
		for (const [name, value] of Object.entries(place)) {
			if (RESULT_MEMBERS.has(memberKey(name)) && namesAFile(value, strict)) return { path: `${prefix}${name}` };
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
	// walks the raw value, not the index: file names are text, and the index keeps none past 2,000 values
	if (typeof value === 'string') {
		const text = value.trim();
		// prose (a message where a file would be) is no file, nor a link (judged as a link), nor a preview
		if (text === '' || /\s/.test(text) || /^(https?:)?\/\//i.test(text) || text.startsWith('/v1/') || isPreviewText(text)) return false;
		return !strict || namesDeckFile(text);
	}
	if (!value || typeof value !== 'object' || depth > 3) return false;
	if (Array.isArray(value)) return value.some((entry) => namesAFile(entry, strict, depth + 1));
	// an entry that says it is a thumbnail or a preview names no deck, whatever its file is called (issue 50)
	if (declaresPreview(value as Record<string, unknown>)) return false;
	return Object.entries(value as Record<string, unknown>).some(([name, member]) =>
		FILE_MEMBERS.has(memberKey(name))
			? typeof member === 'string'
				? namesAFile(member, strict, depth + 1)
				: typeof member === 'number' && !strict
			: typeof member === 'object' && namesAFile(member, strict, depth + 1),
	);
}
