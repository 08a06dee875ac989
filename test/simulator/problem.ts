// RFC 9457 problem bodies and the four failure shapes that are deliberately NOT problem+json.
import { raw, json, type Reply, type ProblemBody } from './reply';

export const PROBLEM_TYPE_BASE = 'https://docs.deckgen.example/api/errors#';

const TITLES: Record<string, string> = {
	unauthorized: 'Unauthorized',
	forbidden: 'Forbidden',
	not_found: 'Not found',
	insufficient_credits: 'Insufficient credits',
	price_drift: 'Price changed',
	conflict: 'Conflict',
	validation_failed: 'Validation failed',
	rate_limited: 'Too many requests',
	method_not_allowed: 'Method not allowed',
	unsupported_media_type: 'Unsupported media type',
	not_implemented: 'Not implemented',
	surface_disabled: 'Service unavailable',
	internal_error: 'Internal server error',
	range_not_satisfiable: 'Range not satisfiable',
};

export interface ProblemOptions {
	detail: string;
	retryable: boolean;
	reason?: string;
	/** Extra members, written after the standard ones. */
	extra?: Record<string, unknown>;
	headers?: Record<string, string>;
}

export function problem(status: number, code: string, opts: ProblemOptions): Reply {
	const value: ProblemBody = {
		type: PROBLEM_TYPE_BASE + code,
		code,
		title: TITLES[code] ?? code,
		status,
		detail: opts.detail,
		retryable: opts.retryable,
	};
	if (opts.reason !== undefined) value.reason = opts.reason;
	Object.assign(value, opts.extra);
	return { status, headers: { ...opts.headers }, body: { kind: 'problem', value } };
}

/** 404 for a resource that does not exist or is not the caller's: identical bytes apart from requestId. */
export function notFound(): Reply {
	return problem(404, 'not_found', {
		detail: 'No such resource, or it is not visible to this credential.',
		retryable: false,
	});
}

/** One item of the web framework's native 422 shape. */
export interface ValidationIssue {
	type: string;
	loc: Array<string | number>;
	msg: string;
	input?: unknown;
	ctx?: Record<string, unknown>;
}

/** 422 in the framework's native shape: {"detail":[{loc,msg,type}]}, NOT problem+json. */
export function validationFailed(issues: ValidationIssue[]): Reply {
	return json(422, { detail: issues });
}

/** 413 from the body-size layer in front of the API: an nginx-style HTML page, NOT problem+json. */
export function payloadTooLarge(): Reply {
	return raw(
		413,
		'text/html',
		'<html>\r\n<head><title>413 Request Entity Too Large</title></head>\r\n<body>\r\n' +
			'<center><h1>413 Request Entity Too Large</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n',
	);
}

/** 503 from the shared database handler: plain JSON, NOT problem+json. */
export function databaseDown(): Reply {
	return json(503, { error: 'database unavailable' });
}

/** 429 from the edge bucket (before authentication): text/plain, NOT problem+json. */
export function edgeRateLimited(headers: Record<string, string>): Reply {
	return raw(429, 'text/plain; charset=utf-8', 'Too Many Requests\n', headers);
}

export function surfaceDisabled(retryAfterMs: number): Reply {
	return problem(503, 'surface_disabled', {
		detail: 'The public API surface is switched off by an operator. Retry later; do not mint a new key.',
		retryable: true,
		extra: { retryAfterMs },
		headers: { 'retry-after': String(Math.ceil(retryAfterMs / 1000)) },
	});
}

export function internalError(): Reply {
	return problem(500, 'internal_error', {
		detail: 'The server failed while handling the request. Retry once, then report the requestId.',
		retryable: true,
	});
}

/** A 409 conflict; reason repeats conflictKind. price_drift has its own builder in pricing. */
export function conflict(conflictKind: string, detail: string, retryable: boolean, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): Reply {
	return problem(409, 'conflict', {
		detail,
		retryable,
		reason: conflictKind,
		extra: { conflictKind, ...extra },
		headers,
	});
}
