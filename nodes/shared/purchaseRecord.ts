/**
 * The record of a purchase, written to n8n's log before the purchase is sent (issue 33), or output
 * as a purchase journal's row instead of being sent (issue 44, below), and read back from either by
 * Deck → Recover Purchase.
 *
 * In queue mode n8n ends the execution of a worker that died and replaces everything it had saved
 * with the error alone; a deck bought in that execution is then named nowhere n8n keeps. The
 * service replays a purchase sent again with the same Idempotency-Key and the byte-identical body
 * (a different body under the same key is refused, 409 `idempotency_key_reused`). So the log line
 * carries both: the key and the canonical body (the brief and the price, nothing secret), with the
 * execution it came from, on one line, before a byte is sent. Framework-free.
 *
 * The line ends with `DECKGEN_PURCHASE {…}`, one JSON object (keys sorted) with a `check`: the
 * first 16 hex digits of the SHA-256 of what is sent (method, path, key, body), so that a line
 * changed or cut after n8n logged it is refused instead of buying a different deck.
 */
import { servicePathProblem } from './endpoints';
import { canonicalJson, sha256Hex } from './idempotency';

export const PURCHASE_MARKER = 'DECKGEN_PURCHASE';

/** What is sent again, exactly: the check covers these and nothing else. */
export interface PurchaseRequest {
	method: 'POST';
	/** Under /v1/, as sent (a credential's path override included). */
	path: string;
	idempotencyKey: string;
	/** The body as sent: canonical JSON parsed back (keys sorted, nothing undefined). */
	body: Record<string, unknown>;
}

/** Where the purchase was made: for the person reading the log; not sent, not checked. */
export interface PurchaseOrigin {
	/** `deck.create`, `deck.revise`, …, `custom.request` */
	operation: string;
	workflowId: string;
	executionId: string;
	node: string;
	item: number;
}

export interface PurchaseRecord extends PurchaseRequest, PurchaseOrigin {
	v: 1;
	check: string;
}

/** The fields of the record, in the words a refusal uses. */
const REQUEST_FIELDS: Array<keyof PurchaseRequest> = ['method', 'path', 'idempotencyKey', 'body'];

export function checkOf(request: PurchaseRequest): string {
	const { method, path, idempotencyKey, body } = request;
	return sha256Hex(canonicalJson({ method, path, idempotencyKey, body })).slice(0, 16);
}

export function purchaseRecord(request: PurchaseRequest, origin: PurchaseOrigin): PurchaseRecord {
	return { v: 1, ...origin, ...request, check: checkOf(request) };
}

/** The brief's title, where the body has one (Create), for a person to recognise the deck. */
export function titleOf(body: Record<string, unknown>): string | undefined {
	return typeof body.title === 'string' && body.title ? body.title : undefined;
}

/**
 * The one log line, at n8n's default level (info). Everything a person needs is in the message
 * itself: n8n's default console format prints the message alone (its metadata only at debug level
 * or in N8N_LOG_FORMAT=json). User text is JSON-quoted, so a title or brief with a line break still
 * makes one line.
 */
export function purchaseLogLine(record: PurchaseRecord): string {
	const title = titleOf(record.body);
	return (
		`Deck Generator: sending purchase ${title ? JSON.stringify(title) : `(${record.operation}, no title)`} with Idempotency-Key ${record.idempotencyKey} ` +
		`(workflow ${record.workflowId || '(unsaved)'}, execution ${record.executionId}, node ${JSON.stringify(record.node)}, item ${record.item}). ` +
		`If n8n loses this execution, Deck Generator → Recover Purchase with this line gets the deck back without paying twice: ` +
		`${PURCHASE_MARKER} ${canonicalJson(record)}`
	);
}

export type LoggedPurchase = { ok: true; record: PurchaseRecord } | { ok: false; message: string; description: string };

const PASTE_WHOLE_LINE =
	'Paste the whole line n8n logged before the purchase was sent: it reads "Deck Generator: sending purchase … DECKGEN_PURCHASE {…}" (in N8N_LOG_FORMAT=json, the whole JSON record of that line also works).';

const refused = (message: string, description = PASTE_WHOLE_LINE): LoggedPurchase => ({
	ok: false,
	message: `${message}; nothing was sent`,
	description,
});

/** How refusals name what they read, and what to do: a pasted line, or a journal row (below). */
interface Source {
	/** `Logged Purchase`, `Journal row 12` */
	noun: string;
	/** What was changed after it was written: `n8n logged it`, `it was written` */
	written: string;
	/** How to give a whole, unchanged record. */
	help: string;
}

const LOGGED_LINE: Source = { noun: 'Logged Purchase', written: 'n8n logged it', help: PASTE_WHOLE_LINE };

/**
 * The end of the JSON object that starts at `start` (a `{`), strings and escapes respected; -1
 * when the text ends first (a line cut short).
 */
function objectEnd(text: string, start: number): number {
	let depth = 0;
	let inString = false;
	for (let i = start; i < text.length; i++) {
		const c = text[i];
		if (inString) {
			if (c === '\\') i++;
			else if (c === '"') inString = false;
		} else if (c === '"') inString = true;
		else if (c === '{') depth++;
		else if (c === '}' && --depth === 0) return i + 1;
	}
	return -1;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
	return !!value && typeof value === 'object' && !Array.isArray(value);
}

/**
 * A purchase as an admin pastes it: the text line (with or without n8n's timestamp and level, or
 * debug metadata after it), the JSON record of that line (N8N_LOG_FORMAT=json), or the object after
 * the marker alone. Refuses, naming the field, anything that is not exactly one whole, unchanged
 * record: a recovery never sends a request that differs from the one logged.
 */
export function readLoggedPurchase(input: unknown): LoggedPurchase {
	if (isPlainObject(input)) {
		if (typeof input.message === 'string') return readLoggedPurchase(input.message);
		return validate(input, LOGGED_LINE);
	}
	if (typeof input !== 'string' || !input.trim()) return refused('Logged Purchase is empty');
	const text = input.trim();
	if (text.startsWith('{')) {
		try {
			return readLoggedPurchase(JSON.parse(text) as unknown);
		} catch {
			/* not one JSON value: a text line that starts with the record, or a cut one */
		}
	}
	const at = text.indexOf(PURCHASE_MARKER);
	if (at < 0) {
		if (text.includes('Deck Generator: purchase')) {
			return refused(
				'Logged Purchase is a line written after the answer (purchase made, replayed or sent without a definite answer), not the one written before the purchase was sent',
				`Find the earlier line with the same Idempotency-Key that reads "Deck Generator: sending purchase … ${PURCHASE_MARKER} {…}". ${PASTE_WHOLE_LINE}`,
			);
		}
		return refused(`Logged Purchase has no ${PURCHASE_MARKER} record`);
	}
	if (text.indexOf(PURCHASE_MARKER, at + PURCHASE_MARKER.length) >= 0) {
		return refused(
			`Logged Purchase holds more than one ${PURCHASE_MARKER} record`,
			'Give each logged line its own item (one line, one purchase): the recovery example splits pasted lines into items.',
		);
	}
	const start = text.indexOf('{', at);
	const end = start < 0 ? -1 : objectEnd(text, start);
	if (end < 0) return refused(`Logged Purchase is cut short: the record after ${PURCHASE_MARKER} does not end`);
	let parsed: unknown;
	try {
		parsed = JSON.parse(text.slice(start, end));
	} catch {
		return refused(`Logged Purchase's record after ${PURCHASE_MARKER} is not valid JSON`);
	}
	return isPlainObject(parsed) ? validate(parsed, LOGGED_LINE) : refused(`Logged Purchase's record after ${PURCHASE_MARKER} is not an object`);
}

function validate(record: Record<string, unknown>, source: Source): LoggedPurchase {
	const { noun, help } = source;
	if (record.v !== 1) return refused(`${noun} has version ${JSON.stringify(record.v)}, not 1`, 'It was written by a version of this package that this one cannot read: recover it with that version, or a newer one.');
	const missing = REQUEST_FIELDS.find((field) => record[field] === undefined || record[field] === '' || record[field] === null);
	if (missing) return refused(`${noun} has no "${missing}"`, help);
	if (record.method !== 'POST') return refused(`${noun}'s "method" is ${JSON.stringify(record.method)}, not POST`, help);
	if (typeof record.path !== 'string' || servicePathProblem(record.path)) {
		return refused(`${noun}'s "path" (${JSON.stringify(record.path)}) is not a service path under /v1/`, help);
	}
	if (typeof record.idempotencyKey !== 'string') return refused(`${noun}'s "idempotencyKey" is not text`, help);
	if (!isPlainObject(record.body)) return refused(`${noun}'s "body" is not a JSON object`, help);
	if (typeof record.check !== 'string' || !record.check) return refused(`${noun} has no "check"`, help);
	const request: PurchaseRequest = { method: 'POST', path: record.path, idempotencyKey: record.idempotencyKey, body: record.body };
	if (checkOf(request) !== record.check) {
		return refused(
			`${noun} was changed after ${source.written}: its "check" (${record.check}) does not match its method, path, idempotencyKey and body`,
			`Sending it could buy a different deck than the one paid for. ${help}`,
		);
	}
	const text = (value: unknown) => (typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value));
	return {
		ok: true,
		record: {
			v: 1,
			...request,
			operation: text(record.operation) || 'unknown',
			workflowId: text(record.workflowId),
			executionId: text(record.executionId),
			node: text(record.node),
			item: typeof record.item === 'number' ? record.item : 0,
			check: record.check,
		},
	};
}

// ---------------------------------------------------------------------------------------------
// The purchase journal (issue 44): the same record as a row of n8n's Data Table, written by n8n's
// own Data Table node before the purchase is sent (a community node cannot write to a data table:
// n8n's data-table proxy serves its own Data Table nodes only), then sent by Recover Purchase from
// the row. A row is flat (a data table column holds text, a number, a boolean or a date), so the body
// is its canonical JSON text: the very bytes that are sent.

/** The journal's state of a purchase just written down, before anything is sent. */
export const RECORDED = 'recorded';

/**
 * What Create (and every spending operation) outputs with Record Without Sending: exactly the
 * journal row to insert, every member a column (n8n's Data Table node maps an item's members to
 * columns of the same names and refuses a member with no column).
 */
export interface JournalRow {
	/** The row's state: `recorded` until the purchase is delivered, refused or failed. */
	outcome: typeof RECORDED;
	/** The brief's title (Create), for a person to recognise the deck. */
	title?: string;
	idempotencyKey: string;
	path: string;
	/** The body exactly as it is sent: canonical JSON text (keys sorted). */
	body: string;
	check: string;
	operation: string;
	workflowId: string;
	executionId: string;
	node: string;
	item: number;
}

/**
 * The journal's columns, in the order a person reads them: the row's state and the deck, then the
 * record (what the check covers, then where it was made). `taskId` and `reason` are written by the
 * workflow (the deck delivered, or why the row ended without one); the rest by Record Without Sending.
 */
export const JOURNAL_COLUMNS: ReadonlyArray<{ name: string; type: 'string' | 'number' }> = [
	{ name: 'outcome', type: 'string' },
	{ name: 'title', type: 'string' },
	{ name: 'taskId', type: 'string' },
	{ name: 'reason', type: 'string' },
	{ name: 'idempotencyKey', type: 'string' },
	{ name: 'path', type: 'string' },
	{ name: 'body', type: 'string' },
	{ name: 'check', type: 'string' },
	{ name: 'operation', type: 'string' },
	{ name: 'workflowId', type: 'string' },
	{ name: 'executionId', type: 'string' },
	{ name: 'node', type: 'string' },
	{ name: 'item', type: 'number' },
];

/** The record as the journal's row. */
export function journalRow(record: PurchaseRecord): JournalRow {
	const title = titleOf(record.body);
	return {
		outcome: RECORDED,
		...(title ? { title } : {}),
		idempotencyKey: record.idempotencyKey,
		path: record.path,
		body: canonicalJson(record.body),
		check: record.check,
		operation: record.operation,
		workflowId: record.workflowId,
		executionId: record.executionId,
		node: record.node,
		item: record.item,
	};
}

export type JournalReading = { ok: true; record: PurchaseRecord; rowId?: number | string } | { ok: false; message: string; description: string; rowId?: number | string };

const WRITE_UNCHANGED =
	'A journal row is the record Deck Generator output with Record Without Sending, written unchanged by the Data Table node (columns idempotencyKey, path, body, check, operation, workflowId, executionId, node, item): ' +
	'a row whose record was edited is never sent, since it could buy a different deck than the one recorded. Mark the row refused, or write the record again as it was output.';

/**
 * A journal row as n8n's Data Table node outputs it (its `id`, `createdAt` and `updatedAt`, then the
 * columns). Refuses, naming the row, anything that is not the record as it was written: a body that
 * is not JSON text, a missing field, or a record whose check no longer matches (an edited title,
 * price, key or path).
 */
export function readJournalRow(row: unknown): JournalReading {
	if (!isPlainObject(row)) return refused('The input item is not a journal row (no object)', WRITE_UNCHANGED);
	const rowId = typeof row.id === 'number' || (typeof row.id === 'string' && row.id) ? row.id : undefined;
	const noun = rowId === undefined ? 'The journal row (no id)' : `Journal row ${rowId}`;
	const named = (reading: LoggedPurchase): JournalReading => ({ ...reading, ...(rowId === undefined ? {} : { rowId }) });
	let body: unknown = row.body;
	if (typeof body === 'string') {
		try {
			body = JSON.parse(body) as unknown;
		} catch {
			return named(refused(`${noun}'s "body" is not JSON text`, WRITE_UNCHANGED));
		}
	}
	return named(validate({ ...row, v: 1, method: 'POST', body }, { noun, written: 'it was written', help: WRITE_UNCHANGED }));
}
