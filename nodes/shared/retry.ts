/**
 * The retry policy: data plus one function, unit-tested as a table.
 *
 * - A problem body's `retryable` decides, not the status code (the contract makes it
 *   authoritative). Without a problem body, the status decides.
 * - Waits honour `Retry-After` / `retryAfterMs` (the larger), otherwise exponential backoff with
 *   full jitter, capped at `maxRetryWaitMs`; a wait the service asks for that is longer than
 *   `maxRetryWaitMs` is not taken in-node: the caller fails or routes with the `resetAt` it gave.
 * - 500 internal_error is retried once. A 409 already_in_progress is waited out with the same key.
 * - A POST is only ever repeated with its Idempotency-Key, byte-identical.
 */
import type { ServiceFailure } from './problem';
import type { HttpMethod } from './transport';

export interface RetrySettings {
	/** Attempts in total, the first included. */
	maxAttempts: number;
	/** The longest single wait taken inside the node. */
	maxRetryWaitMs: number;
	/** First backoff step; doubles each attempt, capped at `backoffCapMs`. */
	backoffBaseMs: number;
	backoffCapMs: number;
}

export const DEFAULT_RETRY_SETTINGS: RetrySettings = {
	maxAttempts: 6,
	maxRetryWaitMs: 60_000,
	backoffBaseMs: 1_000,
	backoffCapMs: 30_000,
};

/** How many times a given code may be retried at most, where that is fewer than maxAttempts. */
const RETRY_BUDGET_BY_CODE: Record<string, number> = {
	internal_error: 1,
};

export interface AttemptResult {
	method: HttpMethod;
	hasIdempotencyKey: boolean;
	/** The failure the attempt ended with; undefined when no response arrived. */
	failure?: ServiceFailure;
	/** Set when no response arrived (connection refused, dropped, timed out). */
	networkError?: Error;
	/**
	 * How many times this failure's code was already retried in the same call. Without it every
	 * earlier attempt is counted, which is only exact when they all failed with this code.
	 */
	retriesOfCode?: number;
}

export type RetryDecision =
	| { retry: true; waitMs: number; why: string }
	| { retry: false; why: string; waitTooLongMs?: number };

/**
 * @param attempt the number of attempts made so far (1 after the first)
 * @param random a source in [0, 1), injected so tests are deterministic
 */
export function decideRetry(
	result: AttemptResult,
	attempt: number,
	settings: RetrySettings,
	random: () => number,
): RetryDecision {
	if (attempt >= settings.maxAttempts) return { retry: false, why: `gave up after ${attempt} attempts` };

	const { failure } = result;
	if (!failure) {
		if (result.method === 'POST' && !result.hasIdempotencyKey) {
			return { retry: false, why: 'no response, and a POST without an Idempotency-Key is never repeated' };
		}
		return { retry: true, waitMs: ownBackoff(attempt, settings, random), why: 'no response' };
	}

	if (!failure.retryable) return { retry: false, why: `${failure.code} is not retryable` };
	if (result.method === 'POST' && !result.hasIdempotencyKey) {
		return { retry: false, why: 'a POST without an Idempotency-Key is never repeated' };
	}
	const budget = RETRY_BUDGET_BY_CODE[failure.code];
	if (budget !== undefined && (result.retriesOfCode ?? attempt - 1) >= budget) {
		return { retry: false, why: `${failure.code} is retried ${budget === 1 ? 'once' : `${budget} times`}` };
	}

	const asked = failure.retryAfterMs;
	if (asked !== undefined && asked > settings.maxRetryWaitMs) {
		return {
			retry: false,
			why: `the service asks to wait ${Math.ceil(asked / 1000)} s, longer than Max Retry Wait`,
			waitTooLongMs: asked,
		};
	}
	return { retry: true, waitMs: asked ?? ownBackoff(attempt, settings, random), why: failure.code };
}

/** Exponential backoff with full jitter (AWS architecture blog): uniform in [0, min(cap, base*2^n)). */
export function backoff(attempt: number, settings: RetrySettings, random: () => number): number {
	const ceiling = Math.min(settings.backoffCapMs, settings.backoffBaseMs * 2 ** Math.max(0, attempt - 1));
	return Math.floor(random() * ceiling);
}

/** Our own backoff never waits past Max Retry Wait (0 = retry at once, leaving the pacing to n8n). */
function ownBackoff(attempt: number, settings: RetrySettings, random: () => number): number {
	return Math.min(backoff(attempt, settings, random), settings.maxRetryWaitMs);
}

/** A 429 of any shape, or a hint to wait, slows down every request of the credential. */
export function isRateLimit(failure: ServiceFailure | undefined): boolean {
	return failure?.status === 429 && failure.retryable;
}
