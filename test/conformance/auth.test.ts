// Authentication (contract "Authentication" and "Verify credentials"): 401, the three 403 forms, scopes per
// operation, the credits endpoint, wallets.
import { start, type Simulator } from '../simulator';
import { call, deckBody, expectProblem, get, post, upload } from './helpers';

let sim: Simulator;
let personalDeck: string;

beforeAll(async () => {
	sim = await start({ seed: 11, clock: { manual: true } });
	personalDeck = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 60_000 });
});
afterAll(() => sim.close());

describe('401: key missing, wrong or revoked (A-1, A-4-401, A-401-shape)', () => {
	const cases: Array<[string, Record<string, string> | null]> = [
		['no Authorization header', null],
		['a Basic credential', { authorization: 'Basic dXNlcjpwYXNz' }],
		['an unknown key', { authorization: 'Bearer dg_live_00000000000000000000000000000000' }],
	];
	it.each(cases)('%s answers 401 unauthorized problem, not retryable', async (_name, headers) => {
		const res = await call(sim, 'GET', '/v1/credits', headers ? { key: null, headers } : { key: null });
		const body = expectProblem(res, 401, 'unauthorized', { retryable: false });
		expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
		expect(body).not.toHaveProperty('reason');
	});

	it('a revoked key answers 401 on reads and on spend', async () => {
		expectProblem(await get(sim, '/v1/credits', { key: sim.keys.revoked }), 401, 'unauthorized');
		expectProblem(await post(sim, '/v1/decks', deckBody(), { key: sim.keys.revoked }), 401, 'unauthorized');
	});

	it('control.revokeKey turns a working key into a 401 at once', async () => {
		const { key } = sim.control.createAccount();
		expect((await get(sim, '/v1/credits', { key })).status).toBe(200);
		sim.control.revokeKey(key);
		expectProblem(await get(sim, '/v1/credits', { key }), 401, 'unauthorized');
	});
});

describe('403 not_enrolled (A-2, A-4-403-not_enrolled)', () => {
	it('answers forbidden/not_enrolled without WWW-Authenticate, with a requestId for support', async () => {
		const res = await get(sim, '/v1/credits', { key: sim.keys.notEnrolled });
		const body = expectProblem(res, 403, 'forbidden', { reason: 'not_enrolled', retryable: false });
		expect(res.headers).not.toHaveProperty('www-authenticate');
		expect(body.requestId).toMatch(/^req_/);
	});

	it('applies to every operation, reads and spend', async () => {
		expectProblem(await get(sim, `/v1/decks/${personalDeck}/status`, { key: sim.keys.notEnrolled }), 403, 'forbidden', { reason: 'not_enrolled' });
		expectProblem(await post(sim, '/v1/decks', deckBody(), { key: sim.keys.notEnrolled }), 403, 'forbidden', { reason: 'not_enrolled' });
	});

	it('the same key works the moment the account is enrolled', async () => {
		const { key } = sim.control.createAccount({ enrolled: false });
		expectProblem(await get(sim, '/v1/credits', { key }), 403, 'forbidden', { reason: 'not_enrolled' });
		sim.control.updateAccount(key, { enrolled: true });
		expect((await get(sim, '/v1/credits', { key })).status).toBe(200);
	});
});

describe('403 insufficient_scope (A-3, A-4-403-scope)', () => {
	it('a decks:read key creating a deck: requiredResource/Action, grantedActions, WWW-Authenticate', async () => {
		const res = await post(sim, '/v1/decks', deckBody(), { key: sim.keys.narrow });
		const body = expectProblem(res, 403, 'forbidden', { reason: 'insufficient_scope', retryable: false });
		expect(body).toMatchObject({ requiredResource: 'decks', requiredAction: 'spend', grantedActions: ['read'] });
		expect(res.headers['www-authenticate']).toBe('Bearer error="insufficient_scope"');
	});

	it('a decks:read key reading credits: grantedActions on credits is empty', async () => {
		const body = expectProblem(await get(sim, '/v1/credits', { key: sim.keys.narrow }), 403, 'forbidden', { reason: 'insufficient_scope' });
		expect(body).toMatchObject({ requiredResource: 'credits', requiredAction: 'read', grantedActions: [] });
	});

	it('the same key may do what its scope allows: decks:read polls a deck of its principal', async () => {
		expect((await get(sim, `/v1/decks/${personalDeck}/status`, { key: sim.keys.narrow })).status).toBe(200);
	});

	it('re-sending never fixes a scope refusal: the answer is the same every time', async () => {
		const a = await post(sim, '/v1/decks', deckBody(), { key: sim.keys.narrow });
		const b = await post(sim, '/v1/decks', deckBody(), { key: sim.keys.narrow });
		expect(b.status).toBe(403);
		expect(b.json.reason).toBe(a.json.reason);
		expect(b.json.requiredAction).toBe(a.json.requiredAction);
	});
});

describe('403 unrecognized_scope (A-4-403-unrecognized, R-key-2, R-key-3)', () => {
	it('a key none of whose scopes parse is refused, with the recognised lists and the header', async () => {
		const res = await get(sim, `/v1/decks/${personalDeck}/status`, { key: sim.keys.unrecognized });
		const body = expectProblem(res, 403, 'forbidden', { reason: 'unrecognized_scope', retryable: false });
		expect(body.unrecognizedScopes).toEqual(['decks.write', '*']);
		expect(body.recognizedActions).toEqual(['read', 'spend', 'write']);
		expect(body.recognizedResources).toEqual(['credits', 'decks', 'materials']);
		expect(res.headers['www-authenticate']).toBe('Bearer error="insufficient_scope"');
	});

	it('a key with some parsable tokens uses them and ignores the rest (never wider access)', async () => {
		const { key } = sim.control.createAccount({ scopes: ['decks:read', 'decks.write', '*', 'decks:delete'] });
		const deck = sim.control.seedDeck({ key, durationMs: 1 });
		expect((await get(sim, `/v1/decks/${deck}/status`, { key })).status).toBe(200);
		const body = expectProblem(await post(sim, '/v1/decks', deckBody(), { key }), 403, 'forbidden', { reason: 'insufficient_scope' });
		expect(body.grantedActions).toEqual(['read']);
	});
});

describe('scope per operation (A-scope-map)', () => {
	const routes: Array<{ name: string; scope: string; run: (s: Simulator, key: string, deck: string) => Promise<{ status: number; json: any }> }> = [
		{ name: 'GET /v1/credits', scope: 'credits:read', run: (s, key) => get(s, '/v1/credits', { key }) },
		{ name: 'GET /v1/decks/{taskId}/status', scope: 'decks:read', run: (s, key, deck) => get(s, `/v1/decks/${deck}/status`, { key }) },
		{ name: 'POST /v1/decks', scope: 'decks:spend', run: (s, key) => post(s, '/v1/decks', deckBody(), { key }) },
		{ name: 'POST /v1/decks/{taskId}/revisions', scope: 'decks:spend', run: (s, key, deck) => post(s, `/v1/decks/${deck}/revisions`, { instructions: 'shorter', expected_credits: 0 }, { key }) },
		{ name: 'POST /v1/decks/{taskId}/translations', scope: 'decks:spend', run: (s, key, deck) => post(s, `/v1/decks/${deck}/translations`, { languages: ['de'], expected_credits: 5 }, { key }) },
		{ name: 'POST /v1/materials', scope: 'materials:write', run: (s, key) => upload(s, 'notes.txt', 'hello', 'text/plain', { key }) },
	];
	const all = ['credits:read', 'decks:read', 'decks:spend', 'materials:write'];

	it.each(routes)('$name needs $scope: without it 403 names it; with only it, no 403', async ({ scope, run }) => {
		const [resource, action] = scope.split(':');
		const without = sim.control.createAccount({ scopes: all.filter((s) => s !== scope) });
		const only = sim.control.createAccount({ scopes: [scope] });
		const deckOfWithout = sim.control.seedDeck({ key: without.key, durationMs: 0 });
		const deckOfOnly = sim.control.seedDeck({ key: only.key, durationMs: 0 });
		const refused = await run(sim, without.key, deckOfWithout);
		expect(refused.status).toBe(403);
		expect(refused.json).toMatchObject({ reason: 'insufficient_scope', requiredResource: resource, requiredAction: action });
		const allowed = await run(sim, only.key, deckOfOnly);
		expect(allowed.status).toBeGreaterThanOrEqual(200);
		expect(allowed.status).toBeLessThan(300);
	});
});

describe('GET /v1/credits (E-credits-1, E-credits-2, E-credits-3, A-5)', () => {
	it('answers 200 with the wallet, principal and subscriber flag of a personal key', async () => {
		const res = await get(sim, '/v1/credits');
		expect(res.status).toBe(200);
		expect(res.headers['content-type']).toMatch(/^application\/json/);
		expect(res.json).toMatchObject({ credits: 1000, wallet: 'personal', principal: { type: 'user', id: expect.stringMatching(/^usr_/) }, subscriber: true });
		expect(res.json).not.toHaveProperty('monthlyCreditCap');
	});

	it('an organisation key resolves to the organisation and its pooled wallet', async () => {
		const res = await get(sim, '/v1/credits', { key: sim.keys.org });
		expect(res.json).toMatchObject({ credits: 5000, wallet: 'organisation', principal: { type: 'organisation', id: expect.stringMatching(/^org_/) } });
	});

	it('a capped key shows its monthly cap and what it spent', async () => {
		const res = await get(sim, '/v1/credits', { key: sim.keys.capped });
		expect(res.json).toMatchObject({ monthlyCreditCap: 100, monthlyCreditsSpent: 100 });
	});

	it('spends nothing, however often it is called', async () => {
		const before = sim.ledger.charges.length;
		for (let i = 0; i < 3; i++) expect((await get(sim, '/v1/credits')).status).toBe(200);
		expect(sim.ledger.charges.length).toBe(before);
		expect(sim.control.balanceOf(sim.keys.personal)).toBe(1000);
	});

	it('never shows the secret again: no answer echoes the key (R-key-1)', async () => {
		for (const res of [await get(sim, '/v1/credits'), await post(sim, '/v1/decks', deckBody()), await get(sim, '/v1/credits', { key: sim.keys.narrow })]) {
			expect(res.text).not.toContain(sim.keys.personal);
			expect(res.text).not.toContain(sim.keys.narrow);
		}
	});

	it('works for an account that never bought credits (reads are not spend)', async () => {
		expect((await get(sim, '/v1/credits', { key: sim.keys.neverPurchased })).status).toBe(200);
	});

	it('503 when the surface is switched off: retryable, never a 401', async () => {
		sim.control.setSurface('disabled');
		try {
			const body = expectProblem(await get(sim, '/v1/credits'), 503, 'surface_disabled', { retryable: true });
			expect(body.retryAfterMs).toEqual(expect.any(Number));
		} finally {
			sim.control.setSurface('on');
		}
	});

	it('personal keys spend the personal wallet, organisation keys the pooled wallet (A-5)', async () => {
		const personalBefore = sim.control.balanceOf(sim.keys.personal);
		const orgBefore = sim.control.balanceOf(sim.keys.org);
		expect((await post(sim, '/v1/decks', deckBody(), { key: sim.keys.org })).status).toBe(202);
		expect(sim.control.balanceOf(sim.keys.org)).toBe(orgBefore - 10);
		expect(sim.control.balanceOf(sim.keys.personal)).toBe(personalBefore);
		expect((await post(sim, '/v1/decks', deckBody())).status).toBe(202);
		expect(sim.control.balanceOf(sim.keys.personal)).toBe(personalBefore - 10);
		expect(sim.control.balanceOf(sim.keys.org)).toBe(orgBefore - 10);
		expect((await get(sim, '/v1/credits', { key: sim.keys.orgKeyCapped })).json.credits).toBe(orgBefore - 10);
	});
});
