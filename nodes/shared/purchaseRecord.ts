/**
 * The record of a purchase, written to n8n's log before the purchase is sent (issue 33), and read
 * back by Deck → Recover Purchase.
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
		return validate(input);
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
	return isPlainObject(parsed) ? validate(parsed) : refused(`Logged Purchase's record after ${PURCHASE_MARKER} is not an object`);
}

function validate(record: Record<string, unknown>): LoggedPurchase {
	if (record.v !== 1) return refused(`Logged Purchase has version ${JSON.stringify(record.v)}, not 1`, 'It was written by a version of this package that this one cannot read: recover it with that version, or a newer one.');
	const missing = REQUEST_FIELDS.find((field) => record[field] === undefined || record[field] === '' || record[field] === null);
	if (missing) return refused(`Logged Purchase has no "${missing}"`);
	if (record.method !== 'POST') return refused(`Logged Purchase's "method" is ${JSON.stringify(record.method)}, not POST`);
	if (typeof record.path !== 'string' || !/^\/v1\/\S*$/.test(record.path) || record.path.split('/').includes('..')) {
		return refused(`Logged Purchase's "path" (${JSON.stringify(record.path)}) is not a service path under /v1/`);
	}
	if (typeof record.idempotencyKey !== 'string') return refused('Logged Purchase\'s "idempotencyKey" is not text');
	if (!isPlainObject(record.body)) return refused('Logged Purchase\'s "body" is not a JSON object');
	if (typeof record.check !== 'string' || !record.check) return refused('Logged Purchase has no "check"');
	const request: PurchaseRequest = { method: 'POST', path: record.path, idempotencyKey: record.idempotencyKey, body: record.body };
	if (checkOf(request) !== record.check) {
		return refused(
			`Logged Purchase was changed after n8n logged it: its "check" (${record.check}) does not match its method, path, idempotencyKey and body`,
			`Sending it could buy a different deck than the one paid for. ${PASTE_WHOLE_LINE} Copy it from the log unchanged.`,
		);
	}
	const text = (value: unknown) => (typeof value === 'string' ? value : value === undefined ? '' : String(value));
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
