// Token buckets on REAL time: clients honour Retry-After with real waits, so a compressed or manual sim clock
// must not refill them. Sizes come from the limits and refill at their natural rate (capacity per window).
// limits.retryAfterMs (tokenMs here) only shortens the recovery after a refusal: the refused bucket advertises
// that wait and grants a token once it has passed. Exhaustion therefore stays deterministic however slow the
// test machine is, and honouring Retry-After costs milliseconds.

export interface BucketVerdict {
	ok: boolean;
	limit: number;
	remaining: number;
	/** Real ms until the bucket is full again. */
	resetMs: number;
	/** Real ms until one token is available (0 when ok). */
	retryAfterMs: number;
	/** Tokens used up in the current window (capacity minus what is left). */
	spent: number;
}

/** Whole ms, rounded up, ignoring float noise: (now + 1500) - now must advertise 1500, not 1501. */
const ceilMs = (ms: number) => Math.ceil(Math.round(ms * 1e6) / 1e6);

export class TokenBucket {
	private tokens: number;
	private last = performance.now();
	private readonly perMs: number;
	/** With tokenMs: when the refused bucket grants its next token. */
	private releaseAt?: number;

	constructor(readonly capacity: number, readonly windowMs: number, readonly tokenMs?: number) {
		this.tokens = capacity;
		this.perMs = capacity / windowMs;
	}

	private refill(now: number): void {
		this.tokens = Math.min(this.capacity, this.tokens + (now - this.last) * this.perMs);
		this.last = now;
		if (this.releaseAt !== undefined && now >= this.releaseAt) {
			this.tokens = Math.max(this.tokens, 1);
			this.releaseAt = undefined;
		}
	}

	private verdict(ok: boolean, now: number): BucketVerdict {
		let retryAfterMs = 0;
		if (!ok) {
			if (this.tokenMs !== undefined) {
				this.releaseAt ??= now + this.tokenMs;
				retryAfterMs = Math.max(1, ceilMs(this.releaseAt - now));
			} else {
				retryAfterMs = Math.max(1, ceilMs((1 - this.tokens) / this.perMs));
			}
		}
		return {
			ok,
			limit: this.capacity,
			remaining: Math.max(0, Math.floor(this.tokens)),
			resetMs: ceilMs((this.capacity - this.tokens) / this.perMs),
			retryAfterMs,
			spent: this.capacity - Math.floor(this.tokens),
		};
	}

	/** Checks without consuming. */
	peek(): BucketVerdict {
		const now = performance.now();
		this.refill(now);
		return this.verdict(this.tokens >= 1, now);
	}

	/** Consumes one token when one is available. */
	take(): BucketVerdict {
		const now = performance.now();
		this.refill(now);
		if (this.tokens < 1) return this.verdict(false, now);
		this.tokens -= 1;
		return this.verdict(true, now);
	}
}

/** Buckets by id, rebuilt (full) when their size changes through setLimits. */
export class BucketSet {
	private readonly buckets = new Map<string, TokenBucket>();

	get(id: string, capacity: number, windowMs: number, tokenMs?: number): TokenBucket {
		let bucket = this.buckets.get(id);
		if (!bucket || bucket.capacity !== capacity || bucket.windowMs !== windowMs || bucket.tokenMs !== tokenMs) {
			bucket = new TokenBucket(capacity, windowMs, tokenMs);
			this.buckets.set(id, bucket);
		}
		return bucket;
	}
}

/** X-RateLimit-* headers describing one bucket. Reset is delta seconds until the bucket is full. */
export function rateLimitHeaders(v: BucketVerdict): Record<string, string> {
	return {
		'x-ratelimit-limit': String(v.limit),
		'x-ratelimit-remaining': String(v.remaining),
		'x-ratelimit-reset': String(Math.ceil(v.resetMs / 1000)),
	};
}

/** Retry-After (seconds, ceil) plus the X-RateLimit-* headers of the refusing bucket. */
export function refusalHeaders(v: BucketVerdict): Record<string, string> {
	return { 'retry-after': String(Math.max(1, Math.ceil(v.retryAfterMs / 1000))), ...rateLimitHeaders(v) };
}
