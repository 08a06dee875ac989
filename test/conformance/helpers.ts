// Shared helpers of the conformance suite: one real HTTP exchange with undici, and the assertions every
// problem body must pass. Tests read as "call, then check the contract's members".
import { request } from 'undici';
import type { Simulator } from '../simulator';

export interface Res {
	status: number;
	headers: Record<string, string>;
	text: string;
	/** Parsed body when it is JSON of any flavour; undefined otherwise. */
	json: any;
}

export interface CallOptions {
	/** Bearer key; null sends no Authorization header. */
	key?: string | null;
	/** JSON body (serialised here). */
	body?: unknown;
	/** Raw body, sent as is (takes precedence over body). */
	raw?: string | Buffer;
	/** Idempotency-Key for POST: a fresh one by default, null to omit. */
	idem?: string | null;
	headers?: Record<string, string>;
}

let counter = 0;

/** A fresh Idempotency-Key; deterministic within a test file. */
export function newKey(prefix = 'idem'): string {
	counter += 1;
	return `${prefix}-${counter}`;
}

export async function call(sim: Simulator, method: string, path: string, opts: CallOptions = {}): Promise<Res> {
	const headers: Record<string, string> = { ...opts.headers };
	if (opts.key !== null) headers.authorization ??= `Bearer ${opts.key ?? sim.keys.personal}`;
	if (method === 'POST' && opts.idem !== null) headers['idempotency-key'] ??= opts.idem ?? newKey();
	let body: string | Buffer | undefined;
	if (opts.raw !== undefined) body = opts.raw;
	else if (opts.body !== undefined) {
		body = JSON.stringify(opts.body);
		headers['content-type'] ??= 'application/json';
	}
	const res = await request(sim.url + path, { method: method as 'GET', headers, body });
	const text = await res.body.text();
	const flat: Record<string, string> = {};
	for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) flat[k] = Array.isArray(v) ? v.join(', ') : v;
	let json: unknown;
	if (/json/.test(flat['content-type'] ?? '')) json = JSON.parse(text);
	return { status: res.statusCode, headers: flat, text, json };
}

export const get = (sim: Simulator, path: string, opts?: CallOptions): Promise<Res> => call(sim, 'GET', path, opts);
export const post = (sim: Simulator, path: string, body: unknown, opts: CallOptions = {}): Promise<Res> => call(sim, 'POST', path, { ...opts, body });

/** A creation body at the default live price. */
export function deckBody(extra: Record<string, unknown> = {}): Record<string, unknown> {
	return { title: 'Quarterly update', core_message: 'Revenue grew 12%', expected_credits: 10, ...extra };
}

/**
 * Every problem body: problem+json, the members the contract names, requestId equal to X-Request-Id.
 * Returns the body for further checks.
 */
export function expectProblem(res: Res, status: number, code: string, more: { reason?: string; retryable?: boolean } = {}): any {
	expect({ status: res.status, code: res.json?.code, text: res.status === status ? undefined : res.text }).toEqual({ status, code, text: undefined });
	expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
	const body = res.json;
	expect(typeof body.type).toBe('string');
	expect(() => new URL(body.type)).not.toThrow();
	expect(typeof body.title).toBe('string');
	expect(typeof body.detail).toBe('string');
	expect(typeof body.retryable).toBe('boolean');
	expect(body.requestId).toEqual(expect.any(String));
	expect(body.requestId).toBe(res.headers['x-request-id']);
	if (more.reason !== undefined) expect(body.reason).toBe(more.reason);
	if (more.retryable !== undefined) expect(body.retryable).toBe(more.retryable);
	return body;
}

/** The nine ctas of the contract: the complete set. */
export const CTAS = [
	'unlock_or_subscribe',
	'top_up',
	'manage_decks',
	'upgrade_for_slides',
	'confirm_slide_surcharge',
	'subscribe_for_translation',
	'translation_top_up',
	'buy_revision',
	'insufficient_credits',
];

/** Every 402: insufficient_credits, not retryable, an ordered options array of known ctas, cta (if any) known. */
export function expect402(res: Res, reason: string, cta: string | undefined): any {
	const body = expectProblem(res, 402, 'insufficient_credits', { reason, retryable: false });
	if (cta === undefined) expect(body).not.toHaveProperty('cta');
	else expect(body.cta).toBe(cta);
	expect(Array.isArray(body.options)).toBe(true);
	expect(body.options.length).toBeGreaterThan(0);
	// The cta a client routes by is also the first option's; only the video paywall names none anywhere.
	if (cta !== undefined) expect(body.options[0].cta).toBe(cta);
	for (const option of body.options) {
		if (cta === undefined) expect(option).not.toHaveProperty('cta');
		else expect(CTAS).toContain(option.cta);
		expect(['checkout', 'client_action']).toContain(option.kind);
		expect(typeof option.label).toBe('string');
	}
	return body;
}

/** Problem bodies minus requestId: to compare two answers for "identical". */
export function withoutRequestId(body: any): any {
	const { requestId: _requestId, ...rest } = body;
	return rest;
}

export function realSleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Builds a multipart/form-data body by hand so tests control every part header. */
export function multipart(parts: Array<{ name: string; filename?: string; contentType?: string; data: Buffer | string }>, boundary = 'sim-boundary-7d1f'): { raw: Buffer; contentType: string } {
	const chunks: Buffer[] = [];
	for (const p of parts) {
		let head = `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"`;
		if (p.filename !== undefined) head += `; filename="${p.filename}"`;
		head += '\r\n';
		if (p.contentType !== undefined) head += `Content-Type: ${p.contentType}\r\n`;
		chunks.push(Buffer.from(head + '\r\n'), Buffer.isBuffer(p.data) ? p.data : Buffer.from(p.data), Buffer.from('\r\n'));
	}
	chunks.push(Buffer.from(`--${boundary}--\r\n`));
	return { raw: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** The path an operation the contract shows no path for is served at under the profile (`paths`), the deck's id in. */
export function pathOf(sim: Simulator, name: 'materials' | 'revisions' | 'translations' | 'video', taskId = ''): string {
	const usual = { materials: '/v1/materials', revisions: '/v1/decks/{taskId}/revisions', translations: '/v1/decks/{taskId}/translations', video: '/v1/decks/{taskId}/video' };
	return (sim.profile.paths?.[name] ?? usual[name]).replace('{taskId}', encodeURIComponent(taskId));
}

/** POST to the upload path (`/v1/materials`, or where the profile serves it) with one file part. contentType undefined = no part Content-Type. */
export function upload(sim: Simulator, filename: string, data: Buffer | string, contentType?: string, opts: CallOptions = {}): Promise<Res> {
	const form = multipart([{ name: 'file', filename, contentType, data }]);
	return call(sim, 'POST', pathOf(sim, 'materials'), { ...opts, raw: form.raw, headers: { 'content-type': form.contentType, ...opts.headers } });
}
