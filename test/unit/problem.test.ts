/**
 * parseFailure: problem+json and the contract's four bodies that are not problem+json.
 */
import {
	header,
	isSuccess,
	parseFailure,
	parseJson,
	requestIdOf,
	retryAfterMsOf,
	type ServiceFailure,
} from '../../nodes/shared/problem';
import type { ServiceResponse } from '../../nodes/shared/transport';

function response(status: number, text: string, headers: Record<string, string> = {}): ServiceResponse {
	return { status, headers, text };
}

const PROBLEM_TYPE = { 'content-type': 'application/problem+json' };

describe('parseFailure: problem+json', () => {
	it('reads every member of a problem body', () => {
		const body = {
			type: 'https://docs.example/errors#rate_limited',
			code: 'rate_limited',
			title: 'Too many spending calls',
			detail: 'The hourly ceiling of 20 spending calls is reached.',
			retryable: true,
			requestId: 'req-123',
			reason: 'spend_velocity_exceeded',
			retryAfterMs: 1_500,
			spendVelocityLimit: 20,
			spendVelocitySpent: 20,
			spendVelocityWindowSeconds: 3600,
			resetAt: '2025-03-01T13:00:00Z',
		};
		const failure = parseFailure(response(429, JSON.stringify(body), { ...PROBLEM_TYPE, 'x-request-id': 'req-123' }));
		expect(failure).toEqual<ServiceFailure>({
			status: 429,
			shape: 'problem',
			code: 'rate_limited',
			reason: 'spend_velocity_exceeded',
			title: 'Too many spending calls',
			detail: 'The hourly ceiling of 20 spending calls is reached.',
			retryable: true,
			requestId: 'req-123',
			fields: [],
			allow: undefined,
			retryAfterMs: 1_500,
			body,
		});
	});

	it('keeps extension members, cta and options in order in the body', () => {
		const options = [
			{ cta: 'top_up', credits: 500, url: 'https://pay.example/500' },
			{ cta: 'top_up', credits: 100, url: 'https://pay.example/100' },
		];
		const failure = parseFailure(
			response(
				402,
				JSON.stringify({ code: 'insufficient_credits', retryable: false, requestId: 'r', cta: 'top_up', options, monthlyCreditCap: 1000 }),
				PROBLEM_TYPE,
			),
		);
		expect(failure.shape).toBe('problem');
		expect(failure.body).toMatchObject({ cta: 'top_up', options, monthlyCreditCap: 1000 });
	});

	it('falls back to conflictKind for the reason, and to code for title and detail', () => {
		const failure = parseFailure(
			response(409, JSON.stringify({ code: 'conflict', conflictKind: 'terminal_state', retryable: false, requestId: 'r' }), PROBLEM_TYPE),
		);
		expect(failure).toMatchObject({ code: 'conflict', reason: 'terminal_state', title: 'conflict', detail: 'conflict' });
	});

	it('prefers reason over conflictKind when both are present', () => {
		const failure = parseFailure(
			response(
				409,
				JSON.stringify({ code: 'conflict', conflictKind: 'already_in_progress', reason: 'already_in_progress.deck_busy', retryable: true }),
				PROBLEM_TYPE,
			),
		);
		expect(failure.reason).toBe('already_in_progress.deck_busy');
	});

	it('takes retryable from the body over the status', () => {
		expect(parseFailure(response(404, JSON.stringify({ code: 'not_found', retryable: true }))).retryable).toBe(true);
		expect(parseFailure(response(503, JSON.stringify({ code: 'surface_disabled', retryable: false }))).retryable).toBe(false);
	});

	it('turns an `errors` extension member into fields', () => {
		const failure = parseFailure(
			response(
				422,
				JSON.stringify({
					code: 'validation_failed',
					retryable: false,
					errors: [
						{ loc: ['body', 'slide_count'], msg: 'must be at least 1' },
						{ field: 'title', message: 'too long' },
						{},
					],
				}),
				PROBLEM_TYPE,
			),
		);
		expect(failure.fields).toEqual([
			{ field: 'slide_count', message: 'must be at least 1' },
			{ field: 'title', message: 'too long' },
			{ field: '(body)', message: 'invalid' },
		]);
	});

	it('reads the 403 scope bodies as forbidden with their reason and members', () => {
		const body = {
			code: 'forbidden',
			reason: 'insufficient_scope',
			retryable: false,
			requestId: 'r3',
			requiredAction: 'spend',
			requiredResource: 'decks',
			grantedActions: ['read'],
		};
		const failure = parseFailure(response(403, JSON.stringify(body), { 'www-authenticate': 'Bearer error="insufficient_scope"' }));
		expect(failure).toMatchObject({ code: 'forbidden', reason: 'insufficient_scope', retryable: false, body });
	});

	it('reads the Allow header of a 405', () => {
		const failure = parseFailure(
			response(405, JSON.stringify({ code: 'method_not_allowed', retryable: false }), { ...PROBLEM_TYPE, allow: 'GET, POST' }),
		);
		expect(failure).toMatchObject({ code: 'method_not_allowed', allow: 'GET, POST', retryable: false });
	});

	it('reads the Allow header of a 405 the web framework answered itself', () => {
		const failure = parseFailure(response(405, '{"detail":"Method Not Allowed"}', { 'content-type': 'application/json', allow: 'GET' }));
		expect(failure).toMatchObject({ shape: 'plain-json', code: 'method_not_allowed', allow: 'GET', retryable: false });
	});

	it('is not fooled by a body without the required members', () => {
		// `retryable` is on every problem body; without it this is plain JSON.
		const failure = parseFailure(response(409, JSON.stringify({ code: 'conflict' })));
		expect(failure.shape).toBe('plain-json');
		expect(failure.code).toBe('conflict');
	});
});

describe('parseFailure: requestId', () => {
	it('takes the requestId of the body', () => {
		const failure = parseFailure(
			response(404, JSON.stringify({ code: 'not_found', retryable: false, requestId: 'from-body' }), { 'x-request-id': 'from-header' }),
		);
		expect(failure.requestId).toBe('from-body');
	});

	it('takes the X-Request-Id header when the body has none', () => {
		expect(parseFailure(response(429, 'Too Many Requests', { 'x-request-id': 'edge-7' })).requestId).toBe('edge-7');
		expect(parseFailure(response(404, JSON.stringify({ code: 'not_found', retryable: false }), { 'x-request-id': 'hdr' })).requestId).toBe(
			'hdr',
		);
	});

	it('has no requestId when neither carries one', () => {
		expect(parseFailure(response(413, '<html></html>')).requestId).toBeUndefined();
	});

	it('requestIdOf ignores a requestId that is not a string', () => {
		expect(requestIdOf(response(500, '', { 'x-request-id': 'hdr' }), { requestId: 42 })).toBe('hdr');
	});
});

describe('parseFailure: the failures that are not problem+json', () => {
	it('formats the framework 422 as a field list', () => {
		const text = JSON.stringify({
			detail: [
				{ loc: ['body', 'slide_count'], msg: 'Input should be a valid integer', type: 'int_parsing' },
				{ loc: ['body', 'brand_colour'], msg: 'Extra inputs are not permitted', type: 'extra_forbidden' },
				{ loc: ['body', 'material_ids', 2], msg: 'Input should be a valid string', type: 'string_type' },
				{ loc: ['header', 'idempotency-key'], msg: 'Field required', type: 'missing' },
				{ loc: ['body'], msg: 'Field required', type: 'missing' },
				{ msg: 'Something is wrong' },
			],
		});
		const failure = parseFailure(response(422, text, { 'content-type': 'application/json', 'x-request-id': 'req-v' }));
		expect(failure).toMatchObject({
			status: 422,
			shape: 'framework-validation',
			code: 'validation_failed',
			retryable: false,
			requestId: 'req-v',
		});
		expect(failure.fields).toEqual([
			{ field: 'slide_count', message: 'Input should be a valid integer' },
			{ field: 'brand_colour', message: 'Extra inputs are not permitted' },
			{ field: 'material_ids.2', message: 'Input should be a valid string' },
			{ field: 'idempotency-key', message: 'Field required' },
			{ field: 'body', message: 'Field required' },
			{ field: '(body)', message: 'Something is wrong' },
		]);
		expect(failure.detail).toBe(
			'slide_count: Input should be a valid integer; brand_colour: Extra inputs are not permitted; material_ids.2: Input should be a valid string; idempotency-key: Field required; body: Field required; (body): Something is wrong',
		);
	});

	it('keeps a loc that does not start with body/header/query whole', () => {
		const failure = parseFailure(response(422, JSON.stringify({ detail: [{ loc: ['title'], msg: 'too long' }] })));
		expect(failure.fields).toEqual([{ field: 'title', message: 'too long' }]);
	});

	it('reads the plain-JSON 503 of the shared handler as retryable service_unavailable', () => {
		const failure = parseFailure(
			response(503, '{"error":"database unreachable","status":503}', { 'content-type': 'application/json', 'x-request-id': 'db-1' }),
		);
		expect(failure).toMatchObject({
			status: 503,
			shape: 'plain-json',
			code: 'service_unavailable',
			retryable: true,
			requestId: 'db-1',
			body: { error: 'database unreachable', status: 503 },
			fields: [],
		});
		expect(failure.detail).toContain('database unreachable');
	});

	it('reads a text 429 from the edge as retryable rate limiting, with its Retry-After', () => {
		const failure = parseFailure(response(429, 'Too Many Requests\n', { 'content-type': 'text/plain', 'retry-after': '3' }));
		expect(failure).toMatchObject({
			status: 429,
			shape: 'unstructured',
			code: 'rate_limited',
			retryable: true,
			retryAfterMs: 3_000,
			detail: 'Too Many Requests',
			body: 'Too Many Requests\n',
		});
	});

	it('reads an HTML 413 from the body-size middleware, with the markup stripped', () => {
		const html =
			'<html>\r\n<head><title>413 Request Entity Too Large</title></head>\r\n<body>\r\n<center><h1>413 Request Entity Too Large</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';
		const failure = parseFailure(response(413, html, { 'content-type': 'text/html' }));
		expect(failure).toMatchObject({
			status: 413,
			shape: 'unstructured',
			code: 'payload_too_large',
			retryable: false,
			body: html,
		});
		expect(failure.detail).toBe('413 Request Entity Too Large 413 Request Entity Too Large nginx');
	});

	it('shortens a long text body to one bounded line', () => {
		const failure = parseFailure(response(502, `${'bad gateway '.repeat(50)}\n\nmore`));
		expect(failure.detail.length).toBe(200);
		expect(failure.detail.endsWith('...')).toBe(true);
		expect(failure.detail).not.toContain('\n');
		expect(failure).toMatchObject({ code: 'bad_gateway', retryable: true });
	});

	it('describes an empty body by its status', () => {
		expect(parseFailure(response(401, ''))).toMatchObject({ code: 'unauthorized', detail: 'HTTP 401', retryable: false, shape: 'unstructured' });
	});

	it.each([
		[400, 'validation_failed', false],
		[401, 'unauthorized', false],
		[402, 'insufficient_credits', false],
		[403, 'forbidden', false],
		[404, 'not_found', false],
		[409, 'conflict', false],
		[415, 'unsupported_media_type', false],
		[500, 'internal_error', true],
		[501, 'not_implemented', false],
		[502, 'bad_gateway', true],
		[504, 'gateway_timeout', true],
		[418, 'http_418', false],
	])('a %i without a problem body is %s, retryable %s', (status, code, retryable) => {
		expect(parseFailure(response(status, 'nope'))).toMatchObject({ code, retryable });
	});
});

describe('retryAfterMsOf', () => {
	const now = Date.parse('2025-03-01T12:00:00Z');
	const withRetryAfter = (value: string): ServiceResponse => response(429, '', { 'retry-after': value });

	it('reads Retry-After seconds', () => {
		expect(retryAfterMsOf(withRetryAfter('7'), undefined, now)).toBe(7_000);
		expect(retryAfterMsOf(withRetryAfter('0.5'), undefined, now)).toBe(500);
	});

	it('reads the HTTP-date form relative to now', () => {
		expect(retryAfterMsOf(withRetryAfter('Sat, 01 Mar 2025 12:00:45 GMT'), undefined, now)).toBe(45_000);
	});

	it('treats a date in the past as no wait', () => {
		expect(retryAfterMsOf(withRetryAfter('Sat, 01 Mar 2025 11:00:00 GMT'), undefined, now)).toBe(0);
	});

	it('takes the larger of Retry-After and retryAfterMs when they really differ', () => {
		expect(retryAfterMsOf(withRetryAfter('1'), { retryAfterMs: 2_400 }, now)).toBe(2_400);
		expect(retryAfterMsOf(withRetryAfter('5'), { retryAfterMs: 2_400 }, now)).toBe(5_000);
		expect(retryAfterMsOf(withRetryAfter('Sat, 01 Mar 2025 12:01:00 GMT'), { retryAfterMs: 2_400 }, now)).toBe(60_000);
	});

	it('takes the precise retryAfterMs when the header is the same number rounded to seconds', () => {
		expect(retryAfterMsOf(withRetryAfter('3'), { retryAfterMs: 2_400 }, now)).toBe(2_400);
		expect(retryAfterMsOf(withRetryAfter('2'), { retryAfterMs: 2_400 }, now)).toBe(2_400);
	});

	it('reads retryAfterMs alone, and ignores what is not a number', () => {
		expect(retryAfterMsOf(response(503, ''), { retryAfterMs: 1_200 }, now)).toBe(1_200);
		expect(retryAfterMsOf(response(503, ''), { retryAfterMs: '1200' }, now)).toBeUndefined();
		expect(retryAfterMsOf(withRetryAfter('whenever'), undefined, now)).toBeUndefined();
		expect(retryAfterMsOf(response(503, ''), undefined, now)).toBeUndefined();
	});
});

describe('small helpers', () => {
	it('parseJson returns undefined for empty or broken text', () => {
		expect(parseJson('')).toBeUndefined();
		expect(parseJson('<html>')).toBeUndefined();
		expect(parseJson('{"a":1}')).toEqual({ a: 1 });
	});

	it('header looks names up case-insensitively in the lower-cased map', () => {
		expect(header(response(200, '', { 'x-request-id': 'a' }), 'X-Request-Id')).toBe('a');
	});

	it('isSuccess is exactly 2xx', () => {
		expect([199, 200, 201, 202, 204, 299, 300, 304, 400].map(isSuccess)).toEqual([
			false,
			true,
			true,
			true,
			true,
			true,
			false,
			false,
			false,
		]);
	});
});
