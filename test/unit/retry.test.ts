/**
 * The retry policy of design.md ("Retry policy"), one row per rule. Each row starts from a real
 * response (parsed by parseFailure, as callService does) or from "no response", so the table
 * tests the policy as the client meets it, not a hand-built failure object.
 */
import { parseFailure, type ServiceFailure } from '../../nodes/shared/problem';
import { backoff, decideRetry, DEFAULT_RETRY_SETTINGS, isRateLimit, type RetrySettings } from '../../nodes/shared/retry';
import { TransportError, type HttpMethod, type ServiceResponse } from '../../nodes/shared/transport';

const NOW = Date.parse('2025-03-01T12:00:00Z');

const SETTINGS: RetrySettings = {
	maxAttempts: 6,
	maxRetryWaitMs: 60_000,
	backoffBaseMs: 1_000,
	backoffCapMs: 30_000,
};

function problem(status: number, members: Record<string, unknown>, headers: Record<string, string> = {}): ServiceResponse {
	return {
		status,
		headers: { 'content-type': 'application/problem+json', 'x-request-id': 'req-1', ...headers },
		text: JSON.stringify({ type: 'https://errors.example/x', title: 't', requestId: 'req-1', ...members }),
	};
}

function raw(status: number, text: string, contentType: string, headers: Record<string, string> = {}): ServiceResponse {
	return { status, headers: { 'content-type': contentType, ...headers }, text };
}

interface Row {
	name: string;
	/** The response of the attempt, or undefined for "no response". */
	response?: ServiceResponse;
	method?: HttpMethod;
	key?: boolean;
	attempt?: number;
	settings?: Partial<RetrySettings>;
	random?: number;
	/** How often this code was already retried in the same call. */
	retriesOfCode?: number;
	expected: { retry: true; waitMs: number } | { retry: false; waitTooLongMs?: number };
}

const notRetried = { retry: false } as const;

const rows: Row[] = [
	// The problem body's `retryable` decides, not the status.
	{ name: '404 whose body says retryable true is retried', response: problem(404, { code: 'not_found', retryable: true }), expected: { retry: true, waitMs: 500 } },
	{ name: '503 whose body says retryable false is not retried', response: problem(503, { code: 'surface_disabled', retryable: false }), expected: notRetried },
	{ name: '503 surface_disabled waits its retryAfterMs', response: problem(503, { code: 'surface_disabled', retryable: true, retryAfterMs: 4_000 }), expected: { retry: true, waitMs: 4_000 } },

	// Retry-After and retryAfterMs: the larger wins; the HTTP-date form counts from now.
	{ name: 'Retry-After (5 s) larger than retryAfterMs (2 s)', response: problem(429, { code: 'rate_limited', retryable: true, retryAfterMs: 2_000 }, { 'retry-after': '5' }), expected: { retry: true, waitMs: 5_000 } },
	{ name: 'retryAfterMs (2.5 s) larger than Retry-After (1 s)', response: problem(429, { code: 'rate_limited', retryable: true, retryAfterMs: 2_500 }, { 'retry-after': '1' }), expected: { retry: true, waitMs: 2_500 } },
	{ name: 'Retry-After 2 s is retryAfterMs 1.5 s rounded up: the precise one', response: problem(429, { code: 'rate_limited', retryable: true, retryAfterMs: 1_500 }, { 'retry-after': '2' }), expected: { retry: true, waitMs: 1_500 } },
	{ name: 'Retry-After as an HTTP date 30 s ahead', response: problem(429, { code: 'rate_limited', retryable: true }, { 'retry-after': new Date(NOW + 30_000).toUTCString() }), expected: { retry: true, waitMs: 30_000 } },
	{ name: 'Retry-After HTTP date (40 s) larger than retryAfterMs (10 s)', response: problem(503, { code: 'surface_disabled', retryable: true, retryAfterMs: 10_000 }, { 'retry-after': new Date(NOW + 40_000).toUTCString() }), expected: { retry: true, waitMs: 40_000 } },
	{ name: 'a hint of exactly Max Retry Wait is still taken', response: problem(429, { code: 'rate_limited', retryable: true }, { 'retry-after': '60' }), expected: { retry: true, waitMs: 60_000 } },

	// Without a hint: exponential backoff with full jitter, uniform in [0, min(cap, base * 2^(n-1))).
	{ name: 'backoff, attempt 1, random 0 -> 0', response: raw(503, '{"error":"db down"}', 'application/json'), attempt: 1, random: 0, expected: { retry: true, waitMs: 0 } },
	{ name: 'backoff, attempt 1, random 0.5 -> half of 1 s', response: raw(503, '{"error":"db down"}', 'application/json'), attempt: 1, random: 0.5, expected: { retry: true, waitMs: 500 } },
	{ name: 'backoff, attempt 1, random just under 1 -> just under 1 s', response: raw(503, '{"error":"db down"}', 'application/json'), attempt: 1, random: 0.9999, expected: { retry: true, waitMs: 999 } },
	{ name: 'backoff, attempt 2, random 0.5 -> half of 2 s', response: raw(503, '{"error":"db down"}', 'application/json'), attempt: 2, random: 0.5, expected: { retry: true, waitMs: 1_000 } },
	{ name: 'backoff, attempt 4, random 0.5 -> half of 8 s', response: raw(503, '{"error":"db down"}', 'application/json'), attempt: 4, random: 0.5, expected: { retry: true, waitMs: 4_000 } },
	{ name: 'backoff capped: attempt 9, random 0.9999 -> under the 30 s cap', response: raw(503, '{"error":"db down"}', 'application/json'), attempt: 9, settings: { maxAttempts: 20 }, random: 0.9999, expected: { retry: true, waitMs: 29_997 } },

	// Max Retry Wait: a longer hint is not taken in-node; the caller gets the wait it was asked for.
	{ name: 'Retry-After 120 s over a 60 s Max Retry Wait', response: problem(429, { code: 'rate_limited', retryable: true, reason: 'spend_velocity_exceeded', resetAt: '2025-03-01T13:00:00Z' }, { 'retry-after': '120' }), expected: { retry: false, waitTooLongMs: 120_000 } },
	{ name: 'retryAfterMs 61 s over a 60 s Max Retry Wait', response: problem(503, { code: 'surface_disabled', retryable: true, retryAfterMs: 61_000 }), expected: { retry: false, waitTooLongMs: 61_000 } },
	{ name: 'a 5 s hint over a user Max Retry Wait of 1 s', response: problem(429, { code: 'rate_limited', retryable: true, retryAfterMs: 5_000 }), settings: { maxRetryWaitMs: 1_000 }, expected: { retry: false, waitTooLongMs: 5_000 } },

	// Our own backoff is never longer than Max Retry Wait: it is capped, not refused.
	{ name: 'own backoff (4 s) capped at a Max Retry Wait of 1 s', response: raw(503, '{"error":"db down"}', 'application/json'), attempt: 4, settings: { maxRetryWaitMs: 1_000 }, expected: { retry: true, waitMs: 1_000 } },
	{ name: 'Max Retry Wait 0: a plain 503 is retried at once', response: raw(503, '{"error":"db down"}', 'application/json'), settings: { maxRetryWaitMs: 0 }, expected: { retry: true, waitMs: 0 } },
	{ name: 'Max Retry Wait 0: a 1 s hint is too long', response: problem(429, { code: 'rate_limited', retryable: true, retryAfterMs: 1_000 }), settings: { maxRetryWaitMs: 0 }, expected: { retry: false, waitTooLongMs: 1_000 } },
	{ name: 'no response: own backoff (2 s) capped at a Max Retry Wait of 0.5 s', attempt: 2, settings: { maxRetryWaitMs: 500 }, expected: { retry: true, waitMs: 500 } },

	// 500 internal_error: once only.
	{ name: '500 internal_error after the first attempt is retried', response: problem(500, { code: 'internal_error', retryable: true }), attempt: 1, expected: { retry: true, waitMs: 500 } },
	{ name: '500 internal_error after the second attempt is not', response: problem(500, { code: 'internal_error', retryable: true }), attempt: 2, expected: notRetried },
	{ name: 'a plain-text 500 is internal_error too: retried once', response: raw(500, 'Internal Server Error', 'text/plain'), attempt: 1, expected: { retry: true, waitMs: 500 } },
	{ name: 'a plain-text 500 is internal_error too: not twice', response: raw(500, 'Internal Server Error', 'text/plain'), attempt: 2, expected: notRetried },
	{ name: 'a 500 with an earlier 503 in the same call still gets its one retry', response: problem(500, { code: 'internal_error', retryable: true }), attempt: 2, retriesOfCode: 0, expected: { retry: true, waitMs: 1_000 } },
	{ name: 'a second 500 in the same call is not retried, whatever the attempt', response: problem(500, { code: 'internal_error', retryable: true }), attempt: 3, retriesOfCode: 1, expected: notRetried },

	// 503: problem and plain JSON.
	{ name: '503 surface_disabled problem', response: problem(503, { code: 'surface_disabled', retryable: true }), expected: { retry: true, waitMs: 500 } },
	{ name: '503 plain JSON from the shared handler', response: raw(503, '{"status":"error","message":"database unreachable"}', 'application/json'), expected: { retry: true, waitMs: 500 } },
	{ name: '503 plain JSON on a keyed POST', response: raw(503, '{"error":"db"}', 'application/json'), method: 'POST', key: true, expected: { retry: true, waitMs: 500 } },

	// Any 429, any body.
	{ name: '429 rate_limited problem, bucket principal', response: problem(429, { code: 'rate_limited', retryable: true, bucket: 'principal', retryAfterMs: 3_000 }, { 'retry-after': '3' }), expected: { retry: true, waitMs: 3_000 } },
	{ name: '429 spend_velocity_exceeded within Max Retry Wait', response: problem(429, { code: 'rate_limited', retryable: true, reason: 'spend_velocity_exceeded', retryAfterMs: 20_000 }), method: 'POST', key: true, expected: { retry: true, waitMs: 20_000 } },
	{ name: '429 from the edge with a text body and Retry-After', response: raw(429, 'Too Many Requests', 'text/plain', { 'retry-after': '2' }), expected: { retry: true, waitMs: 2_000 } },
	{ name: '429 from the edge with an HTML body, no hint', response: raw(429, '<html><body><h1>429 Too Many Requests</h1></body></html>', 'text/html'), expected: { retry: true, waitMs: 500 } },
	{ name: '429 with an empty body', response: raw(429, '', 'text/plain'), expected: { retry: true, waitMs: 500 } },

	// 409: only already_in_progress is waited out (same key).
	{ name: '409 already_in_progress on a keyed POST', response: problem(409, { code: 'conflict', conflictKind: 'already_in_progress', reason: 'already_in_progress', retryable: true, retryAfterMs: 1_000 }, { 'retry-after': '1' }), method: 'POST', key: true, expected: { retry: true, waitMs: 1_000 } },
	{ name: '409 terminal_state', response: problem(409, { code: 'conflict', conflictKind: 'terminal_state', retryable: false }), method: 'POST', key: true, expected: notRetried },
	{ name: '409 idempotency_key_reused', response: problem(409, { code: 'conflict', conflictKind: 'idempotency_key_reused', retryable: false }), method: 'POST', key: true, expected: notRetried },
	{ name: '409 price_drift', response: problem(409, { code: 'price_drift', conflictKind: 'price_drift', retryable: false, expectedCredits: 10, credits: 12 }), method: 'POST', key: true, expected: notRetried },
	{ name: '409 plain JSON (no problem body)', response: raw(409, '{"error":"conflict"}', 'application/json'), method: 'POST', key: true, expected: notRetried },

	// 429 version_cap_reached is not rate limiting in time: never retried.
	{ name: '429 version_cap_reached (retryable false)', response: problem(429, { code: 'rate_limited', reason: 'version_cap_reached', retryable: false, max_versions: 3 }), method: 'POST', key: true, expected: notRetried },

	// Never retried.
	{ name: '402 insufficient_credits', response: problem(402, { code: 'insufficient_credits', retryable: false, cta: 'top_up', options: [] }), method: 'POST', key: true, expected: notRetried },
	{ name: '402 plain JSON', response: raw(402, '{"error":"pay"}', 'application/json'), method: 'POST', key: true, expected: notRetried },
	{ name: '401 problem', response: problem(401, { code: 'unauthorized', retryable: false }), expected: notRetried },
	{ name: '401 with an empty body', response: raw(401, '', 'text/plain'), expected: notRetried },
	{ name: '403 not_enrolled', response: problem(403, { code: 'forbidden', reason: 'not_enrolled', retryable: false }), expected: notRetried },
	{ name: '403 insufficient_scope', response: problem(403, { code: 'forbidden', reason: 'insufficient_scope', retryable: false }, { 'www-authenticate': 'Bearer error="insufficient_scope"' }), expected: notRetried },
	{ name: '403 unrecognized_scope', response: problem(403, { code: 'forbidden', reason: 'unrecognized_scope', retryable: false }), expected: notRetried },
	{ name: '404 not_found', response: problem(404, { code: 'not_found', retryable: false }), expected: notRetried },
	{ name: '404 plain JSON from the framework', response: raw(404, '{"detail":"Not Found"}', 'application/json'), expected: notRetried },
	{ name: '405 method_not_allowed', response: problem(405, { code: 'method_not_allowed', retryable: false }, { allow: 'GET' }), method: 'POST', key: true, expected: notRetried },
	{ name: '413 problem', response: problem(413, { code: 'payload_too_large', retryable: false }), method: 'POST', key: true, expected: notRetried },
	{ name: '413 HTML from the body-size middleware', response: raw(413, '<html><head><title>413 Request Entity Too Large</title></head></html>', 'text/html'), method: 'POST', key: true, expected: notRetried },
	{ name: '415 unsupported_media_type', response: problem(415, { code: 'unsupported_media_type', retryable: false }), method: 'POST', key: true, expected: notRetried },
	{ name: '422 framework validation shape', response: raw(422, '{"detail":[{"loc":["body","title"],"msg":"field required","type":"missing"}]}', 'application/json'), method: 'POST', key: true, expected: notRetried },
	{ name: '422 validation_failed problem', response: problem(422, { code: 'validation_failed', retryable: false }), method: 'POST', key: true, expected: notRetried },
	{ name: '400 validation_failed (missing Idempotency-Key)', response: problem(400, { code: 'validation_failed', retryable: false }), method: 'POST', key: false, expected: notRetried },
	{ name: '501 not_implemented', response: problem(501, { code: 'not_implemented', retryable: false }), method: 'POST', key: true, expected: notRetried },
	{ name: '501 plain text', response: raw(501, 'Not Implemented', 'text/plain'), expected: notRetried },

	// No response at all.
	{ name: 'no response on a GET', method: 'GET', expected: { retry: true, waitMs: 500 } },
	{ name: 'no response on a POST with its Idempotency-Key', method: 'POST', key: true, expected: { retry: true, waitMs: 500 } },
	{ name: 'no response on a POST without an Idempotency-Key', method: 'POST', key: false, expected: notRetried },
	// A POST without a key is never repeated, even when the answer says it could be.
	{ name: 'a retryable 503 on a POST without an Idempotency-Key', response: problem(503, { code: 'surface_disabled', retryable: true }), method: 'POST', key: false, expected: notRetried },

	// maxAttempts counts the first attempt.
	{ name: '503 after attempt 5 of 6 is retried', response: problem(503, { code: 'surface_disabled', retryable: true }), attempt: 5, expected: { retry: true, waitMs: 8_000 } },
	{ name: '503 after attempt 6 of 6 is not', response: problem(503, { code: 'surface_disabled', retryable: true }), attempt: 6, expected: notRetried },
	{ name: 'no response on a GET after attempt 6 of 6', method: 'GET', attempt: 6, expected: notRetried },
	{ name: '429 after attempt 2 of a user maxAttempts of 2', response: raw(429, 'slow down', 'text/plain'), attempt: 2, settings: { maxAttempts: 2 }, expected: notRetried },
	{ name: 'maxAttempts 1: nothing is ever retried', response: problem(503, { code: 'surface_disabled', retryable: true }), attempt: 1, settings: { maxAttempts: 1 }, expected: notRetried },
];

describe('decideRetry: the policy table of design.md', () => {
	let dateNow: jest.SpyInstance;
	beforeAll(() => {
		dateNow = jest.spyOn(Date, 'now').mockReturnValue(NOW);
	});
	afterAll(() => dateNow.mockRestore());

	it.each(rows.map((row) => [row.name, row] as const))('%s', (_name, row) => {
		const failure = row.response ? parseFailure(row.response) : undefined;
		const decision = decideRetry(
			{
				method: row.method ?? 'GET',
				hasIdempotencyKey: row.key ?? false,
				failure,
				networkError: row.response ? undefined : new TransportError('socket hang up', 'ECONNRESET'),
				retriesOfCode: row.retriesOfCode,
			},
			row.attempt ?? 1,
			{ ...SETTINGS, ...row.settings },
			() => row.random ?? 0.5,
		);
		if (row.expected.retry) {
			expect(decision).toEqual({ retry: true, waitMs: row.expected.waitMs, why: expect.any(String) });
		} else {
			expect(decision.retry).toBe(false);
			expect(decision).toEqual(
				row.expected.waitTooLongMs === undefined
					? { retry: false, why: expect.any(String) }
					: { retry: false, why: expect.any(String), waitTooLongMs: row.expected.waitTooLongMs },
			);
		}
	});
});

describe('decideRetry: explanations', () => {
	it('says why a too-long wait was refused, in seconds', () => {
		const failure = parseFailure(problem(429, { code: 'rate_limited', retryable: true, retryAfterMs: 90_500 }));
		const decision = decideRetry({ method: 'GET', hasIdempotencyKey: false, failure }, 1, SETTINGS, () => 0);
		expect(decision).toMatchObject({ retry: false, waitTooLongMs: 90_500 });
		expect(decision.why).toContain('91 s');
	});

	it('names the code that is not retryable', () => {
		const failure = parseFailure(problem(402, { code: 'insufficient_credits', retryable: false }));
		expect(decideRetry({ method: 'POST', hasIdempotencyKey: true, failure }, 1, SETTINGS, () => 0).why).toContain(
			'insufficient_credits',
		);
	});
});

describe('backoff: full jitter bounds', () => {
	it.each([
		[1, 1_000],
		[2, 2_000],
		[3, 4_000],
		[4, 8_000],
		[5, 16_000],
		[6, 30_000],
		[12, 30_000],
	])('attempt %i stays in [0, %i)', (attempt, ceiling) => {
		expect(backoff(attempt, SETTINGS, () => 0)).toBe(0);
		expect(backoff(attempt, SETTINGS, () => 0.25)).toBe(Math.floor(ceiling / 4));
		const top = backoff(attempt, SETTINGS, () => 1 - Number.EPSILON);
		expect(top).toBeLessThan(ceiling);
		expect(top).toBeGreaterThanOrEqual(ceiling - 1);
	});

	it('draws a fresh random number per wait and never exceeds the ceiling', () => {
		let calls = 0;
		const random = (): number => {
			calls++;
			return (calls * 0.37) % 1;
		};
		for (let attempt = 1; attempt <= 20; attempt++) {
			const wait = backoff(attempt, SETTINGS, random);
			expect(wait).toBeGreaterThanOrEqual(0);
			expect(wait).toBeLessThan(Math.min(SETTINGS.backoffCapMs, SETTINGS.backoffBaseMs * 2 ** (attempt - 1)));
		}
		expect(calls).toBe(20);
	});
});

describe('defaults and helpers', () => {
	it('has sane defaults: several attempts, a capped wait, a cap above the base', () => {
		expect(DEFAULT_RETRY_SETTINGS.maxAttempts).toBeGreaterThan(1);
		expect(DEFAULT_RETRY_SETTINGS.backoffCapMs).toBeGreaterThan(DEFAULT_RETRY_SETTINGS.backoffBaseMs);
		expect(DEFAULT_RETRY_SETTINGS.backoffCapMs).toBeLessThanOrEqual(DEFAULT_RETRY_SETTINGS.maxRetryWaitMs);
	});

	it.each<[string, ServiceFailure | undefined, boolean]>([
		['a text 429', parseFailure(raw(429, 'slow down', 'text/plain')), true],
		['a problem 429 rate_limited', parseFailure(problem(429, { code: 'rate_limited', retryable: true })), true],
		['429 version_cap_reached', parseFailure(problem(429, { code: 'rate_limited', reason: 'version_cap_reached', retryable: false })), false],
		['a 503', parseFailure(problem(503, { code: 'surface_disabled', retryable: true })), false],
		['no failure', undefined, false],
	])('isRateLimit(%s) is %s', (_name, failure, expected) => {
		expect(isRateLimit(failure)).toBe(expected);
	});
});
