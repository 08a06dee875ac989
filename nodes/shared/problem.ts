/**
 * Reading the service's failures. Most are `application/problem+json` (RFC 9457); four are not
 * (contract, "Failures that are not problem+json"): the web framework's 422 shape, a plain-JSON
 * 503 when the database is down, a 429 of any body from the edge, and a 413 from the body-size
 * middleware. Every failure, whatever its shape, becomes one `ServiceFailure`.
 * Branch on `code`, never on wording.
 */
import { z } from 'zod/v4';

import { displayUrl } from './download';
import { KEY_MASK, noteMasked } from './secrecy';
import type { ServiceResponse } from './transport';

export const problemSchema = z.looseObject({
	type: z.string().optional(),
	code: z.string(),
	title: z.string().optional(),
	detail: z.string().optional(),
	retryable: z.boolean(),
	requestId: z.string().optional(),
	reason: z.string().optional(),
	conflictKind: z.string().optional(),
	retryAfterMs: z.number().optional(),
	cta: z.string().optional(),
	options: z.array(z.unknown()).optional(),
});
export type Problem = z.infer<typeof problemSchema>;

/** `{"detail": [{"loc": [...], "msg": "..."}]}`: the framework's own 422. */
export const frameworkValidationSchema = z.object({
	detail: z.array(
		z.looseObject({
			loc: z.array(z.union([z.string(), z.number()])).optional(),
			msg: z.string(),
			type: z.string().optional(),
		}),
	),
});

export type FailureShape = 'problem' | 'framework-validation' | 'plain-json' | 'unstructured';

export interface FieldError {
	/** The field as the form labels it where the operation knows it (formLabels.ts), else as the service named it. */
	field: string;
	message: string;
	/** The service's own name of the field, when `field` is the form's label. */
	serviceField?: string;
}

export interface ServiceFailure {
	status: number;
	shape: FailureShape;
	/** The problem `code`; for the non-problem shapes the code the contract implies. */
	code: string;
	reason?: string;
	title: string;
	detail: string;
	/** From the body where present (authoritative); otherwise what the status implies. */
	retryable: boolean;
	requestId?: string;
	/** Fields named by a validation failure. */
	fields: FieldError[];
	/** The `Allow` header of a 405. */
	allow?: string;
	/** The larger of `Retry-After` and `retryAfterMs`, when either was given. */
	retryAfterMs?: number;
	/** The parsed body (object) or its text. */
	body: unknown;
}

/** Codes implied by a status when the body is not a problem (the contract's code table). */
const CODE_BY_STATUS: Record<number, string> = {
	400: 'validation_failed',
	401: 'unauthorized',
	402: 'insufficient_credits',
	403: 'forbidden',
	404: 'not_found',
	405: 'method_not_allowed',
	409: 'conflict',
	413: 'payload_too_large',
	415: 'unsupported_media_type',
	422: 'validation_failed',
	429: 'rate_limited',
	500: 'internal_error',
	501: 'not_implemented',
	502: 'bad_gateway',
	503: 'service_unavailable',
	504: 'gateway_timeout',
};

/** Without a problem body, only these statuses say "try again". */
const RETRYABLE_STATUSES = new Set([429, 500, 502, 503, 504]);

export function parseJson(text: string): unknown {
	if (!text) return undefined;
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}

export function header(response: ServiceResponse, name: string): string | undefined {
	return response.headers[name.toLowerCase()];
}

export function requestIdOf(response: ServiceResponse, body?: unknown): string | undefined {
	const fromBody =
		body && typeof body === 'object' && typeof (body as { requestId?: unknown }).requestId === 'string'
			? (body as { requestId: string }).requestId
			: undefined;
	return fromBody ?? header(response, 'x-request-id');
}

/**
 * `Retry-After` is whole seconds (or an HTTP date); `retryAfterMs` is the same number in
 * milliseconds. Where they agree up to the header's rounding, the precise one is used; where
 * they really differ, the larger.
 */
export function retryAfterMsOf(response: ServiceResponse, body: unknown, now = Date.now()): number | undefined {
	let fromHeader: number | undefined;
	const retryAfter = header(response, 'retry-after');
	if (retryAfter !== undefined) {
		const seconds = Number(retryAfter);
		if (Number.isFinite(seconds)) fromHeader = Math.max(0, seconds * 1000);
		else {
			const date = Date.parse(retryAfter);
			if (!Number.isNaN(date)) fromHeader = Math.max(0, date - now);
		}
	}
	const member = (body as { retryAfterMs?: unknown } | undefined)?.retryAfterMs;
	const fromBody = typeof member === 'number' && Number.isFinite(member) ? Math.max(0, member) : undefined;
	if (fromBody === undefined) return fromHeader;
	if (fromHeader === undefined || Math.abs(fromHeader - fromBody) < 1000) return fromBody;
	return Math.max(fromHeader, fromBody);
}

function fieldName(loc: Array<string | number> | undefined): string {
	if (!loc || loc.length === 0) return '(body)';
	const path = loc[0] === 'body' || loc[0] === 'header' || loc[0] === 'query' ? loc.slice(1) : loc;
	return path.length ? path.join('.') : String(loc[0]);
}

function firstLine(text: string): string {
	const stripped = text
		.replace(/<[^>]*>/g, ' ')
		.replace(/\s+/g, ' ')
		.trim();
	return stripped.length > 200 ? `${stripped.slice(0, 197)}...` : stripped;
}

/**
 * Turns any non-2xx response into a `ServiceFailure`. The response readers have already masked the
 * API key (secrecy.ts); a detail that quoted it says so instead of reading oddly.
 */
export function parseFailure(response: ServiceResponse): ServiceFailure {
	const failure = readFailure(response);
	return failure.detail.includes(KEY_MASK) ? { ...failure, detail: noteMasked(failure.detail) } : failure;
}

function readFailure(response: ServiceResponse): ServiceFailure {
	const body = parseJson(response.text);
	const requestId = requestIdOf(response, body);
	const retryAfterMs = retryAfterMsOf(response, body);
	const status = response.status;
	const impliedCode = CODE_BY_STATUS[status] ?? `http_${status}`;

	const problem = problemSchema.safeParse(body);
	if (problem.success) {
		const p = problem.data;
		// A problem may list its fields under `errors` (RFC 9457 extension members).
		const fields = frameworkFields(p.errors);
		return {
			status,
			shape: 'problem',
			code: p.code,
			reason: p.reason ?? p.conflictKind,
			title: p.title ?? p.code,
			detail: p.detail ?? p.title ?? p.code,
			retryable: p.retryable,
			requestId,
			fields,
			allow: header(response, 'allow'),
			retryAfterMs,
			body: p,
		};
	}

	const framework = frameworkValidationSchema.safeParse(body);
	if (framework.success) {
		const fields = frameworkFields(framework.data.detail);
		return {
			status,
			shape: 'framework-validation',
			code: 'validation_failed',
			title: 'Validation failed',
			detail: fields.map((f) => `${f.field}: ${f.message}`).join('; '),
			retryable: false,
			requestId,
			fields,
			retryAfterMs,
			body,
		};
	}

	const location = status >= 300 && status < 400 ? header(response, 'location') : undefined;
	if (location !== undefined) {
		// Not followed (see sameOriginHop): the API key goes only to the Base URL's origin.
		const target = displayUrl(location);
		return {
			status,
			shape: 'unstructured',
			code: impliedCode,
			title: impliedCode,
			detail: `The service redirected to ${target}, which is not the Base URL's address, so the request was not sent on (the API key goes only to the Base URL). If the service has moved, set the credential's Base URL to ${originOrSelf(location)}.`,
			retryable: false,
			requestId,
			fields: [],
			retryAfterMs,
			body: response.text,
		};
	}

	const isObject = body !== null && typeof body === 'object';
	const text = isObject ? JSON.stringify(body) : response.text;
	return {
		status,
		shape: isObject ? 'plain-json' : 'unstructured',
		code: impliedCode,
		title: impliedCode,
		detail: firstLine(text) || `HTTP ${status}`,
		retryable: RETRYABLE_STATUSES.has(status),
		requestId,
		fields: [],
		// A 405 answered by the web framework itself (not a problem body) still names its verbs.
		allow: header(response, 'allow'),
		retryAfterMs,
		body: isObject ? body : response.text,
	};
}

function originOrSelf(url: string): string {
	try {
		return new URL(url).origin;
	} catch {
		return url;
	}
}

function frameworkFields(items: unknown): FieldError[] {
	if (!Array.isArray(items)) return [];
	return items.map((item) => {
		const entry = item as { loc?: Array<string | number>; msg?: string; field?: string; message?: string };
		return {
			field: entry.field ?? fieldName(entry.loc),
			message: entry.msg ?? entry.message ?? 'invalid',
		};
	});
}

export function isSuccess(status: number): boolean {
	return status >= 200 && status < 300;
}
