// Rate limits (contract "Limits" and the 429 rows): edge, principal, route, spend velocity, with Retry-After,
// retryAfterMs and X-RateLimit-*. limits.retryAfterMs keeps every real wait at a few tens of milliseconds.
import { start, type Simulator } from '../simulator';
import { FILES } from './files';
import { call, deckBody, expectProblem, get, post, realSleep, upload, type Res } from './helpers';

const WAIT = 40;

/** Retry-After (seconds) and retryAfterMs (ms) are the same wait; X-RateLimit-* describe the refusing bucket. */
function expectRateHeaders(res: Res, limit: number): void {
	expect(res.headers['retry-after']).toMatch(/^\d+$/);
	expect(Number(res.headers['x-ratelimit-limit'])).toBe(limit);
	expect(res.headers['x-ratelimit-remaining']).toBe('0');
	expect(res.headers['x-ratelimit-reset']).toMatch(/^\d+$/);
}

function expectSameWait(res: Res, wait = WAIT): void {
	const ms = res.json.retryAfterMs;
	expect(ms).toBeGreaterThan(0);
	expect(ms).toBeLessThanOrEqual(wait);
	expect(Number(res.headers['retry-after'])).toBe(Math.ceil(ms / 1000));
}

describe('edge bucket, per IP, before authentication (L-edge, N-429-edge, C-429-rate_limited)', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await start({ seed: 71, limits: { edgePerMinute: 3, retryAfterMs: WAIT } });
	});
	afterAll(() => sim.close());

	it('charges every request, even unauthenticated ones; the 4th is a 429 with a non-problem body', async () => {
		expect((await get(sim, '/v1/credits', { key: null })).status).toBe(401);
		expect((await get(sim, '/v1/credits', { key: 'bogus' })).status).toBe(401);
		expect((await get(sim, '/v1/credits')).status).toBe(200);
		const res = await get(sim, '/v1/credits');
		expect(res.status).toBe(429);
		expect(res.headers['content-type']).toMatch(/^text\/plain/);
		expect(res.json).toBeUndefined();
		expectRateHeaders(res, 3);
		expect(res.headers['x-request-id']).toEqual(expect.any(String));
	});

	it('honouring Retry-After (scaled by limits.retryAfterMs) lets the next request through', async () => {
		await realSleep(WAIT + 10);
		expect((await get(sim, '/v1/credits')).status).toBe(200);
	});
});

describe('principal bucket, per credential (L-principal, C-429-rate_limited)', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await start({ seed: 72, limits: { principalPerMinute: 2, retryAfterMs: WAIT } });
	});
	afterAll(() => sim.close());

	it('successes carry X-RateLimit-* of the credential\'s bucket', async () => {
		const res = await get(sim, '/v1/credits');
		expect(res.headers['x-ratelimit-limit']).toBe('2');
		expect(res.headers['x-ratelimit-remaining']).toBe('1');
		expect(res.headers['x-ratelimit-reset']).toMatch(/^\d+$/);
	});

	it('the third call is 429 rate_limited bucket principal, retryable, same wait in header and body', async () => {
		await get(sim, '/v1/credits');
		const res = await get(sim, '/v1/credits');
		const body = expectProblem(res, 429, 'rate_limited', { retryable: true });
		expect(body.bucket).toBe('principal');
		expectRateHeaders(res, 2);
		expectSameWait(res);
	});

	it('other credentials have their own bucket', async () => {
		expect((await get(sim, '/v1/credits', { key: sim.keys.other })).status).toBe(200);
	});

	it('after the advertised wait the credential is served again', async () => {
		await realSleep(WAIT + 10);
		expect((await get(sim, '/v1/credits')).status).toBe(200);
	});
});

describe('route bucket, on top of the principal bucket (L-route)', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await start({ seed: 73, clock: { manual: true }, limits: { routePerMinute: { 'GET /v1/credits': 1 }, retryAfterMs: WAIT } });
	});
	afterAll(() => sim.close());

	it('the second call of a limited route is 429 bucket route; other routes are unaffected', async () => {
		expect((await get(sim, '/v1/credits')).status).toBe(200);
		const res = await get(sim, '/v1/credits');
		expect(expectProblem(res, 429, 'rate_limited', { retryable: true }).bucket).toBe('route');
		expectSameWait(res);
		const deck = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 0 });
		expect((await get(sim, `/v1/decks/${deck}/status`)).status).toBe(200);
	});

	it('a number applies the same cap to every route', async () => {
		sim.control.setLimits({ routePerMinute: 1 });
		const deck = sim.control.seedDeck({ key: sim.keys.other, durationMs: 0 });
		expect((await get(sim, `/v1/decks/${deck}/status`, { key: sim.keys.other })).status).toBe(200);
		expect((await get(sim, `/v1/decks/${deck}/status`, { key: sim.keys.other })).json.bucket).toBe('route');
	});
});

describe('spend velocity, per credential, hourly (L-spend-velocity, C-429-spend_velocity_exceeded)', () => {
	// The refusal lasts SPEND_WAIT real ms and the next tests rely on it still holding: long enough that a
	// loaded machine cannot outlast it between two tests (40 ms could), short enough to sleep through once.
	const SPEND_WAIT = 1_500;
	let sim: Simulator;
	beforeAll(async () => {
		sim = await start({ seed: 74, clock: { manual: true }, unshipped: [], limits: { spendPerHour: 2, retryAfterMs: SPEND_WAIT } });
	});
	afterAll(() => sim.close());

	it('reads and uploads never count', async () => {
		for (let i = 0; i < 4; i++) expect((await get(sim, '/v1/credits')).status).toBe(200);
		for (let i = 0; i < 3; i++) expect((await upload(sim, 'a.png', FILES.png, 'image/png')).status).toBe(201);
	});

	it('the third spending call in the hour: 429 spend_velocity_exceeded with its members; nothing charged', async () => {
		expect((await post(sim, '/v1/decks', deckBody())).status).toBe(202);
		expect((await post(sim, '/v1/decks', deckBody())).status).toBe(202);
		const balance = sim.control.balanceOf(sim.keys.personal);
		const charges = sim.ledger.charges.length;
		const res = await post(sim, '/v1/decks', deckBody());
		const body = expectProblem(res, 429, 'rate_limited', { reason: 'spend_velocity_exceeded', retryable: true });
		expect(body).toMatchObject({ bucket: 'spend_velocity', spendVelocityLimit: 2, spendVelocitySpent: 2, spendVelocityWindowSeconds: 3600 });
		expect(Number.isNaN(Date.parse(body.resetAt))).toBe(false);
		expectSameWait(res, SPEND_WAIT);
		expectRateHeaders(res, 2);
		expect(sim.control.balanceOf(sim.keys.personal)).toBe(balance);
		expect(sim.ledger.charges.length).toBe(charges);
	});

	it('every spending operation counts and is refused alike; reads still pass', async () => {
		const deck = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 0 });
		expectProblem(await post(sim, `/v1/decks/${deck}/video`, { expected_credits: 20 }), 429, 'rate_limited', { reason: 'spend_velocity_exceeded' });
		expect((await get(sim, `/v1/decks/${deck}/status`)).status).toBe(200);
	});

	it('it is per credential: another key still spends', async () => {
		expect((await post(sim, '/v1/decks', deckBody(), { key: sim.keys.other })).status).toBe(202);
	});

	it('after the advertised wait the credential spends again', async () => {
		await realSleep(SPEND_WAIT + 10);
		expect((await post(sim, '/v1/decks', deckBody())).status).toBe(202);
	});
});

describe('defaults are generous (decision)', () => {
	it('a burst of 200 calls meets no limit', async () => {
		const sim = await start({ seed: 75 });
		try {
			const results = await Promise.all(Array.from({ length: 200 }, () => call(sim, 'GET', '/v1/credits')));
			expect(results.every((r) => r.status === 200)).toBe(true);
		} finally {
			await sim.close();
		}
	});
});

describe('limits.bucketWindowMs: a short window holds rate × window and refills over it (simulator option, benchmark)', () => {
	let sim: Simulator;
	beforeAll(async () => {
		// 60 a minute over a 2 s window: 2 tokens, one back every second (wide enough that three reads
		// on a loaded machine still come within one refill).
		sim = await start({ seed: 75, limits: { routePerMinute: 60, bucketWindowMs: 2_000 } });
	});
	afterAll(() => sim.close());

	it('a burst past rate × window is refused with the wait for one token; after it, one more goes through', async () => {
		const deck = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 60_000, outcome: 'succeeded' });
		const read = async () => await get(sim, `/v1/decks/${deck}/status`);
		expect((await read()).status).toBe(200);
		expect((await read()).status).toBe(200);
		const refused = await read();
		expect(refused.status).toBe(429);
		expect(refused.json).toMatchObject({ code: 'rate_limited', bucket: 'route' });
		expect(refused.json.retryAfterMs).toBeGreaterThan(0);
		expect(refused.json.retryAfterMs).toBeLessThanOrEqual(1_000);
		await realSleep(refused.json.retryAfterMs + 5);
		expect((await read()).status).toBe(200);
	});
});
