/**
 * The simulator's token bucket advertises whole milliseconds: a refusal's wait is exactly what
 * limits.retryAfterMs says, not one more from floating-point noise in `(now + wait) - now`.
 */
import { TokenBucket } from './ratelimit';

describe('TokenBucket', () => {
	afterEach(() => jest.restoreAllMocks());

	test('a refused bucket advertises exactly its retryAfterMs, whatever the clock reads', () => {
		// performance.now() values for which (now + 1500) - now is 1500.000000000001 or 1499.9999999999998
		for (const now of [7778.727521199568, 65171.654195400384, 1234.5678]) {
			jest.spyOn(performance, 'now').mockReturnValue(now);
			const bucket = new TokenBucket(1, 60_000, 1_500);
			expect(bucket.take().ok).toBe(true);
			const refused = bucket.take();
			expect(refused).toMatchObject({ ok: false, retryAfterMs: 1_500, remaining: 0 });
			jest.restoreAllMocks();
		}
	});
});
