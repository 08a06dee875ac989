// Answer shapes (contract "Errors"): the problem body on every code, 405 + Allow, 404 for unknown paths,
// the four non-problem failures, 500/503, and the /v1 prefix.
import { start, type Simulator } from '../simulator';
import { call, deckBody, expectProblem, get, post, type Res } from './helpers';

let sim: Simulator;

beforeAll(async () => {
	sim = await start({ seed: 81, clock: { manual: true }, limits: { maxConcurrentDecks: 1000 } });
});
afterAll(() => sim.close());

describe('the problem body on every problem code (P-1, P-2, P-3, R-hdr-4, S-7)', () => {
	const failing: Array<[string, number, string, (s: Simulator) => Promise<Res>]> = [
		['400 missing Idempotency-Key', 400, 'validation_failed', (s) => post(s, '/v1/decks', deckBody(), { idem: null })],
		['401', 401, 'unauthorized', (s) => get(s, '/v1/credits', { key: 'nope' })],
		['402', 402, 'insufficient_credits', (s) => post(s, '/v1/decks', deckBody(), { key: s.keys.broke })],
		['403', 403, 'forbidden', (s) => get(s, '/v1/credits', { key: s.keys.narrow })],
		['404', 404, 'not_found', (s) => get(s, '/v1/decks/tsk_nope/status')],
		['405', 405, 'method_not_allowed', (s) => call(s, 'DELETE', '/v1/decks')],
		['409 price_drift', 409, 'price_drift', (s) => post(s, '/v1/decks', deckBody({ expected_credits: 9 }))],
		['409 conflict', 409, 'conflict', (s) => post(s, `/v1/decks/${s.control.seedDeck({ key: s.keys.personal, durationMs: 60_000 })}/revisions`, { instructions: 'x', expected_credits: 0 })],
		['415', 415, 'unsupported_media_type', async (s) => {
			const boundary = 'b';
			const raw = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="x.exe"\r\n\r\nMZ\r\n--${boundary}--\r\n`;
			return call(s, 'POST', '/v1/materials', { raw, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
		}],
		['501', 501, 'not_implemented', async (s) => post(s, `/v1/decks/${s.control.seedDeck({ key: s.keys.personal, durationMs: 0 })}/video`, { expected_credits: 20 })],
	];

	it.each(failing)('%s: problem+json with type, code, title, detail, retryable, requestId = X-Request-Id', async (_name, status, code, run) => {
		const res = await run(sim);
		const body = expectProblem(res, status, code);
		expect(body.type).toMatch(new RegExp(`#${code}$`));
		expect(body.status).toBe(status);
	});

	it('X-Request-Id is sent on every answer, success and non-problem failures included, and differs per request', async () => {
		const ids = new Set<string>();
		for (const res of [await get(sim, '/v1/credits'), await post(sim, '/v1/decks', deckBody()), await post(sim, '/v1/decks', { x: 1 })]) {
			expect(res.headers['x-request-id']).toMatch(/^req_[0-9a-f]+$/);
			ids.add(res.headers['x-request-id']);
		}
		expect(ids.size).toBe(3);
	});

	it('a 402, a 403, a 409 and a 429 carry reason (codes covering several situations); 409s repeat conflictKind', async () => {
		expect((await post(sim, '/v1/decks', deckBody(), { key: sim.keys.broke })).json.reason).toBe('insufficient_balance');
		expect((await get(sim, '/v1/credits', { key: sim.keys.narrow })).json.reason).toBe('insufficient_scope');
		const drift = (await post(sim, '/v1/decks', deckBody({ expected_credits: 9 }))).json;
		expect([drift.reason, drift.conflictKind]).toEqual(['price_drift', 'price_drift']);
		const busy = (await post(sim, `/v1/decks/${sim.control.seedDeck({ key: sim.keys.personal, durationMs: 60_000 })}/revisions`, { instructions: 'x', expected_credits: 0 })).json;
		expect([busy.reason, busy.conflictKind]).toEqual(['already_in_progress', 'already_in_progress']);
		sim.control.setFaults([{ path: '/v1/credits', kind: 'status429', times: 1 }]);
		expect((await get(sim, '/v1/credits')).json.reason).toBe('principal');
	});
});

describe('405 with Allow on every known path (E-verbs-1, C-405)', () => {
	const paths: Array<[string, string]> = [
		['/v1/credits', 'GET'],
		['/v1/decks', 'POST'],
		['/v1/decks/tsk_x/status', 'GET'],
		['/v1/decks/tsk_x/revisions', 'POST'],
		['/v1/decks/tsk_x/translations', 'POST'],
		['/v1/decks/tsk_x/video', 'POST'],
		['/v1/materials', 'POST'],
	];
	const wrongVerbs = ['PUT', 'PATCH', 'DELETE'];

	it.each(paths)('%s accepts only %s', async (path, allowed) => {
		for (const verb of [...wrongVerbs, allowed === 'GET' ? 'POST' : 'GET']) {
			const res = await call(sim, verb, path, { idem: null });
			const body = expectProblem(res, 405, 'method_not_allowed', { retryable: false });
			expect(res.headers.allow).toBe(allowed);
			expect(body.allow).toEqual([allowed]);
		}
	});

	it('the 405 comes before authentication: no key needed to learn the verbs', async () => {
		const res = await call(sim, 'PUT', '/v1/decks', { key: null });
		expect(res.status).toBe(405);
	});
});

describe('unknown paths and the /v1 prefix (V-1, C-404)', () => {
	// /v1/quote: there is no price-quote operation (decision); price discovery goes through 409 price_drift.
	it.each(['/v1/nothing', '/v2/decks', '/decks', '/v1/decks/', '/v1/decks/tsk_x', '/v1/quote', '/'])('%s → 404 not_found problem', async (path) => {
		expectProblem(await get(sim, path), 404, 'not_found', { retryable: false });
	});
});

describe('failures that are not problem+json (N-422, N-503-db, N-429-edge, N-413)', () => {
	it('422: the framework\'s {"detail":[{loc,msg,type}]}', async () => {
		const res = await post(sim, '/v1/decks', { expected_credits: 10, title: 'x', bogus: true });
		expect(res.status).toBe(422);
		expect(res.headers['content-type']).toBe('application/json');
		expect(Object.keys(res.json)).toEqual(['detail']);
	});

	it('503 database down: plain JSON from the shared handler, on reads and writes', async () => {
		sim.control.setDatabase('down');
		try {
			for (const res of [await get(sim, '/v1/credits'), await post(sim, '/v1/decks', deckBody())]) {
				expect(res.status).toBe(503);
				expect(res.headers['content-type']).toBe('application/json');
				expect(res.json).toEqual({ error: 'database unavailable' });
			}
		} finally {
			sim.control.setDatabase('up');
		}
		expect((await get(sim, '/v1/credits')).status).toBe(200);
	});

	// Both layers are tested in depth in materials.test.ts and limits.test.ts; here only "not reshaped".
	it('413 from the size layer and 429 from the edge are not problem+json', async () => {
		const small = await start({ seed: 82, limits: { jsonBodyBytes: 16, edgePerMinute: 2 } });
		try {
			const big = await post(small, '/v1/decks', deckBody());
			expect(big.status).toBe(413);
			expect(big.headers['content-type']).not.toMatch(/problem/);
			expect((await get(small, '/v1/credits')).status).toBe(200);
			const limited = await get(small, '/v1/credits');
			expect(limited.status).toBe(429);
			expect(limited.headers['content-type']).not.toMatch(/json/);
		} finally {
			await small.close();
		}
	});
});

describe('503 surface_disabled and 500 internal_error (C-503-surface_disabled, C-500-internal_error, A-4-503)', () => {
	it('surface_disabled affects reads too; retryable with retryAfterMs and Retry-After', async () => {
		const deck = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 0 });
		sim.control.setSurface('disabled');
		try {
			for (const res of [await get(sim, `/v1/decks/${deck}/status`), await get(sim, '/v1/credits'), await post(sim, '/v1/decks', deckBody())]) {
				const body = expectProblem(res, 503, 'surface_disabled', { retryable: true });
				expect(body.retryAfterMs).toBeGreaterThan(0);
				expect(res.headers['retry-after']).toBe(String(Math.ceil(body.retryAfterMs / 1000)));
			}
		} finally {
			sim.control.setSurface('on');
		}
		expect((await get(sim, `/v1/decks/${deck}/status`)).status).toBe(200);
	});

	it('a 503 is not an authentication failure: the same key works once the surface is back', async () => {
		sim.control.setSurface('disabled');
		expect((await get(sim, '/v1/credits')).status).toBe(503);
		sim.control.setSurface('on');
		expect((await get(sim, '/v1/credits')).status).toBe(200);
	});

	it('500 internal_error is retryable; retrying once succeeds', async () => {
		sim.control.setFaults([{ path: '/v1/credits', kind: 'status500', times: 1 }]);
		try {
			expectProblem(await get(sim, '/v1/credits'), 500, 'internal_error', { retryable: true });
			expect((await get(sim, '/v1/credits')).status).toBe(200);
		} finally {
			sim.control.setFaults([]);
		}
	});
});
