/**
 * What a record's members say by their names and values, for every part of the judgement that looks for the
 * word (record.ts, leaves.ts) or weighs a witness (witnesses.ts): how plainly a name says it carries the state
 * word, the word of one object, the members that hold a part of the job or are about something else, and what an
 * enum-like value is.
 */
export const isRecord = (value: unknown): value is Record<string, unknown> => !!value && typeof value === 'object' && !Array.isArray(value);

/** A member's name as the tables below write it: lower case, `_` and `-` dropped (`task_status` → `taskstatus`). */
export const memberKey = (name: string) => name.toLowerCase().replace(/[_-]/g, '');

/**
 * How plainly a member's name says it carries the word: a conclusion (`conclusion`, `result_state`: GitHub and
 * Databricks write how a job ended beside a `status` that only says it ended), `status`, `state`, a name ending
 * in either (`task_status`, `jobStatus`, `deck_state`), `phase`, `finish_reason`. Undefined: not a word member.
 */
export function wordRank(name: string): number | undefined {
	const key = memberKey(name);
	if (CONCLUSIONS.has(key)) return -1;
	if (key === 'status') return 0;
	if (key === 'state') return 1;
	if (key.endsWith('status')) return 2;
	if (key.endsWith('state')) return 3;
	if (key === 'phase') return 4;
	// Stability's `finish_reason` (SUCCESS, ERROR, CONTENT_FILTERED): the only word such a record has
	if (key === 'finishreason') return 5;
	return undefined;
}

/** Members that say how a job ended, where a status only says that it did (empty until then). */
const CONCLUSIONS = new Set(['conclusion', 'outcome', 'resultstate', 'resultstatus']);

/** Members of a status object that carry its word (`"status": {"code": "completed", …}`). */
const INNER_WORD_MEMBERS = ['code', 'name', 'value', 'state', 'status', 'phase'] as const;

/**
 * Objects inside a status object that say how the job ended, by their `code` (Databricks Jobs 2.2:
 * `"status": {"state": "TERMINATED", "termination_details": {"code": "SUCCESS", "message": …}}`), where the
 * status's own word only says that it ended.
 */
const CONCLUSION_DETAILS = /^(termination|result|outcome|completion)(details?|info)?$/;

/**
 * A word member's word: its text; in a status object, its conclusion (`state.result_state`,
 * `status.termination_details.code`), else a text under INNER_WORD_MEMBERS, else a member named for a state
 * (`state.life_cycle_state`); else a number (as text).
 */
export function wordIn(value: unknown): { word: string; inner?: string; text: boolean } | undefined {
	if (typeof value === 'string') return value.trim() ? { word: value, text: true } : undefined;
	if (typeof value === 'number' && Number.isFinite(value)) return { word: String(value), text: false };
	if (typeof value === 'boolean') return { word: String(value), text: false };
	if (!isRecord(value)) return undefined;
	let number: { word: string; inner: string; text: boolean } | undefined;
	const text = (inner: string) => (typeof value[inner] === 'string' && (value[inner] as string).trim() ? { word: value[inner] as string, inner, text: true } : undefined);
	for (const inner of Object.keys(value)) if (CONCLUSIONS.has(memberKey(inner)) && text(inner)) return text(inner);
	for (const [inner, details] of Object.entries(value)) {
		if (!CONCLUSION_DETAILS.test(memberKey(inner)) || !isRecord(details)) continue;
		const code = details.code;
		if (typeof code === 'string' && code.trim()) return { word: code, inner: `${inner}.code`, text: true };
	}
	for (const inner of INNER_WORD_MEMBERS) {
		if (text(inner)) return text(inner);
		const found = value[inner];
		if (number === undefined && typeof found === 'number' && Number.isFinite(found)) number = { word: String(found), inner, text: false };
	}
	for (const inner of Object.keys(value)) if (/(state|status)$/.test(memberKey(inner)) && text(inner)) return text(inner);
	return number;
}

/** The status word of one object: the plainest word member with text, else with a number. */
export function ownWord(place: Record<string, unknown>): { word: string; path: string; text: boolean } | undefined {
	let best: { word: string; path: string; text: boolean; rank: number } | undefined;
	for (const [name, value] of Object.entries(place)) {
		const rank = wordRank(name);
		if (rank === undefined || typeof value === 'boolean') continue;
		const found = wordIn(value);
		if (!found) continue;
		const score = rank + (found.text ? 0 : 10);
		if (!best || score < best.rank) best = { word: found.word, path: found.inner ? `${name}.${found.inner}` : name, text: found.text, rank: score };
	}
	return best && { word: best.word, path: best.path, text: best.text };
}

/** Words an envelope says about the request, not the job (`{"status": "success", "data": {…}}`, JSend, Kling's `message: "SUCCEED"`). */
export const ENVELOPE_WORDS = new Set(['success', 'ok', 'succeed']);

/**
 * The one list of what a part of the job is (issue 50: leaves.ts and record.ts each had their own, and they
 * disagreed): its steps, inputs, files, formats, errors and bookkeeping (CloudConvert's `tasks[]`, Transloadit's
 * `uploads[]`, a deck's `formats.pdf`), and the things beside the deck that have words of their own: a preview or
 * thumbnail, a payment or invoice, a webhook or callback, an earlier attempt, a history or log of events, one
 * slide or page. A word under one is about that part, never the deck's: it is not read as the deck's word, nor
 * suggested as its path, and the object is no envelope of the record. A list of more than one entry is such a
 * part too, whatever its name (leaves.ts). `jobs` is not here: AWS Batch's DescribeJobs answers `jobs: [{…}]`,
 * the one job asked for.
 */
const STEPS_FILES_AND_BOOKKEEPING =
	'tasks?|sub_?tasks?|steps?|stages?|children|uploads?|inputs?|sources?|formats?|exports?|files?|outputs?|results?|downloads?|artifacts?|assets?|deliverables?|variants|errors?|failures?|warnings?|messages|links|_links|meta|metadata|usage|credits|base_?resp|extensions|billing|pagination';
const BESIDE_THE_DECK_NAMES =
	'previews?|thumbnails?|thumbs?|posters?|covers?|images?|payments?|invoices?|charges?|subscriptions?|webhooks?|callbacks?|notifications?|hooks?|attempts?|retries|history|histories|events?|logs?|revisions|versions|previous|parent|slides?|pages?|chapters?|scenes?|sections?|frames?|clips?|segments?|chunks?';
export const PART_MEMBERS = new RegExp(`^(${STEPS_FILES_AND_BOOKKEEPING}|${BESIDE_THE_DECK_NAMES})$`, 'i');

/**
 * Of the parts, those beside the deck rather than steps towards it (a preview, a payment, a webhook, an earlier
 * attempt, a history, a slide): their errors and reasons are about themselves, so none is read as why the deck
 * failed (witnesses.ts reasonOf), where a failed step's message is (CloudConvert's `tasks[].message`).
 */
export const BESIDE_THE_DECK = new RegExp(`^(${BESIDE_THE_DECK_NAMES})$`, 'i');

/** Whether a member holds a part of the job (PART_MEMBERS). */
export const isPartMember = (name: string): boolean => PART_MEMBERS.test(name);

/**
 * The parts that may hold the whole record when nothing else has a word: DashScope's `output` (its `task_status`
 * and results), Cloudflare's `result` (its `default` variant), a Google operation's `metadata` (its `state`,
 * beside `done`).
 */
export const RECORD_IN_PART = /^(output|result|metadata)$/i;

/** Of those, the ones that wrap the record at any depth (DashScope's `output`, Cloudflare's `result.default`): leaves.ts reads through them. */
export const ENVELOPE_PARTS = /^(output|result)$/i;

/**
 * Names that plainly wrap the record itself, two or more levels down (Cloudflare's `result.default`, GraphQL's
 * `data.node`): a word reached through any other name, or through a list's one entry, is read, but it is not
 * plainly the deck's (record.ts `Located.weak`): it says succeeded only with the deck's file checked and there.
 */
export const PLAIN_ENVELOPES = /^(data|result|response|payload|body|record|job|task|operation|run|node|attributes|detail|default|generation|deck|presentation|render|prediction|execution|item|object|content)$/i;

/**
 * Members whose text is about something else (prose, names, ids, settings, links): never the state, whatever
 * word their text happens to be (a title "Done", a type "error_report").
 */
export const NOT_A_STATE = /^(title|name|displayname|description|text|prompt|negativeprompt|caption|label|summary|details?|notes?|comments?|reason|.+reason|.+message|.+msg|id|uuid|.*id|ids|type|kind|format|model|mode|version|.*url|.*uri|href|path|filename|languages?|locales?|voices?|style|theme|category|tags?|source|target|operation|method|action|step|task|job|event|object)$/;

/**
 * An enum-like value: one to four words of letters and digits joined by `_`, `-`, a space or a dot (`job.failed`,
 * `JobStatus.FAILED`: issue 50 B6), no prose, and no file name (`deck.pptx`).
 */
export const ENUM_LIKE = /^(?!.*\.(?:pptx?|pdf|key|odp|docx?|xlsx?|csv|txt|md|json|xml|html?|zip|png|jpe?g|gif|webp|svg|mp[34]|wav|vtt|srt)$)[A-Za-z][A-Za-z0-9]*(?:(?:[ _-]|\.(?=[A-Za-z]))[A-Za-z0-9]+){0,3}$/i;


/** Members of an entry that say what the entry is (`{type: "thumbnail", url}`, `{kind: "preview", file_id}`). */
const WHAT_IT_IS = /^(type|kind|role|purpose|usage|category|variant|label|rel|mime_?type|content_?type)$/i;

/**
 * What such a member says of a preview, as its whole value: `thumbnail`, `preview`, `cover_image`, `poster-large`,
 * an image's MIME type. Never a value that only mentions one (Tripo's job `type: "image_to_model"`).
 */
const A_PREVIEW = /^((preview|thumbnail|thumb|poster|cover|snapshot)([ _-]?(image|img|png|jpe?g|webp|small|medium|large|\d+))?|image|image\/[\w.+-]+)$/i;

/**
 * Whether an object says it is a preview of the deck (a thumbnail, a poster, a cover image): an entry of a
 * service's `outputs` beside, or before, the deck itself (issue 50, point 4). Its links and files are never the
 * deck, whatever their names.
 */
export function declaresPreview(place: Record<string, unknown>): boolean {
	return Object.entries(place).some(([name, value]) => WHAT_IT_IS.test(name) && typeof value === 'string' && A_PREVIEW.test(value.trim()));
}
