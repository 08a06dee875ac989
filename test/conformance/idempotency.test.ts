// Idempotency (contract rules E-create-2/3, R-hdr-2, the already_in_progress and idempotency_key_reused 409s).
import { start, type Simulator } from '../simulator';
import { call, deckBody, expectProblem, newKey, post, realSleep, upload } from './helpers';

let sim: Simulator;

beforeAll(async () => {
	sim = await start({ seed: 51, clock: { manual: true }, limits: { maxConcurrentDecks: 1000 } });
});
afterAll(() => sim.close());

describe('replay (E-create-2, S-2)', () => {
	it('the same key with the identical body replays the original status and body, marked, with no new charge', async () => {
		const key = newKey('replay');
		const before = sim.control.balanceOf(sim.keys.personal);
		const first = await post(sim, '/v1/decks', deckBody(), { idem: key });
		const again = await post(sim, '/v1/decks', deckBody(), { idem: key });
		expect(first.status).toBe(202);
		expect(again.status).toBe(202);
		expect(again.text).toBe(first.text);
		expect(again.headers['idempotency-replayed']).toBe('true');
		expect(first.headers).not.toHaveProperty('idempotency-replayed');
		expect(again.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
		expect(sim.ledger.chargesFor(key)).toHaveLength(1);
		expect(sim.control.balanceOf(sim.keys.personal)).toBe(before - 10);
		expect(sim.ledger.requests.filter((r) => r.idempotencyKey === key).map((r) => r.replayed ?? false)).toEqual([false, true]);
	});

	it('"identical" is judged on the canonical body: member order and whitespace do not matter', async () => {
		const key = newKey('canonical');
		const first = await call(sim, 'POST', '/v1/decks', { idem: key, raw: '{"title":"T","expected_credits":10}', headers: { 'content-type': 'application/json' } });
		const again = await call(sim, 'POST', '/v1/decks', { idem: key, raw: '{ "expected_credits": 10,\n  "title": "T" }', headers: { 'content-type': 'application/json' } });
		expect(again.headers['idempotency-replayed']).toBe('true');
		expect(again.json.taskId).toBe(first.json.taskId);
	});

	it('a fresh key for the "retry" is a second purchase', async () => {
		const a = await post(sim, '/v1/decks', deckBody(), { idem: newKey('first') });
		const b = await post(sim, '/v1/decks', deckBody(), { idem: newKey('second') });
		expect(b.json.taskId).not.toBe(a.json.taskId);
		expect(sim.ledger.charges.filter((c) => c.taskId === a.json.taskId || c.taskId === b.json.taskId)).toHaveLength(2);
	});

	it('keys are scoped to the principal: another principal may use the same key for its own request', async () => {
		const key = newKey('shared');
		const mine = await post(sim, '/v1/decks', deckBody(), { idem: key });
		const theirs = await post(sim, '/v1/decks', deckBody(), { idem: key, key: sim.keys.other });
		expect(theirs.status).toBe(202);
		expect(theirs.headers).not.toHaveProperty('idempotency-replayed');
		expect(theirs.json.taskId).not.toBe(mine.json.taskId);
	});

	it('uploads replay too: same key and same file give the same materialId', async () => {
		const key = newKey('upload');
		const a = await upload(sim, 'notes.txt', 'hello', 'text/plain', { idem: key });
		const b = await upload(sim, 'notes.txt', 'hello', 'text/plain', { idem: key });
		expect(a.status).toBe(201);
		expect(b.headers['idempotency-replayed']).toBe('true');
		expect(b.json.materialId).toBe(a.json.materialId);
	});

	it('follow-up operations replay: a repeated revision does not add a second version', async () => {
		const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 0 });
		const key = newKey('revision');
		const a = await post(sim, `/v1/decks/${taskId}/revisions`, { instructions: 'x', expected_credits: 0 }, { idem: key });
		const b = await post(sim, `/v1/decks/${taskId}/revisions`, { instructions: 'x', expected_credits: 0 }, { idem: key });
		expect(a.json.version).toBe(2);
		expect(b.json.version).toBe(2);
		expect(sim.control.deck(taskId)!.version).toBe(2);
	});
});

describe('key reuse (E-create-3, C-409-conflict)', () => {
	it('the same key with a different body: 409 conflict idempotency_key_reused, not retryable, nothing charged', async () => {
		const key = newKey('reuse');
		await post(sim, '/v1/decks', deckBody(), { idem: key });
		const res = await post(sim, '/v1/decks', deckBody({ title: 'Another deck' }), { idem: key });
		const body = expectProblem(res, 409, 'conflict', { reason: 'idempotency_key_reused', retryable: false });
		expect(body.conflictKind).toBe('idempotency_key_reused');
		expect(sim.ledger.chargesFor(key)).toHaveLength(1);
	});

	it('the same key on another operation is a reuse too', async () => {
		const key = newKey('reuse-path');
		await post(sim, '/v1/decks', deckBody(), { idem: key });
		const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 0 });
		expectProblem(await post(sim, `/v1/decks/${taskId}/revisions`, { instructions: 'x', expected_credits: 0 }, { idem: key }), 409, 'conflict', { reason: 'idempotency_key_reused' });
	});

	it('the 409 repeats until a different action is taken', async () => {
		const key = newKey('reuse-repeat');
		await post(sim, '/v1/decks', deckBody(), { idem: key });
		for (let i = 0; i < 2; i++) expect((await post(sim, '/v1/decks', deckBody({ title: 'changed' }), { idem: key })).json.conflictKind).toBe('idempotency_key_reused');
	});
});

describe('in progress (ST-2, C-409-conflict already_in_progress)', () => {
	it('the same key while the first request is still processing: 409 already_in_progress, retryable; then the replay', async () => {
		const local = await start({ seed: 52, clock: { manual: true }, faults: [{ method: 'POST', path: '/v1/decks', kind: 'latency', latencyMs: 2_000, times: 1 }] });
		try {
			const key = newKey('concurrent');
			const slow = post(local, '/v1/decks', deckBody(), { idem: key });
			// Wait until the first request's body was read: it has then claimed the key (same tick) and sits in the latency.
			while (!local.ledger.requests.some((r) => r.idempotencyKey === key && r.bodySha256)) await realSleep(1);
			const second = await post(local, '/v1/decks', deckBody(), { idem: key });
			const body = expectProblem(second, 409, 'conflict', { reason: 'already_in_progress', retryable: true });
			expect(body).toMatchObject({ conflictKind: 'already_in_progress', retryAfterMs: expect.any(Number) });
			expect(second.headers['retry-after']).toBe(String(Math.ceil(body.retryAfterMs / 1000)));
			const first = await slow;
			expect(first.status).toBe(202);
			const third = await post(local, '/v1/decks', deckBody(), { idem: key });
			expect(third.headers['idempotency-replayed']).toBe('true');
			expect(third.json.taskId).toBe(first.json.taskId);
			expect(local.ledger.chargesFor(key)).toHaveLength(1);
		} finally {
			await local.close();
		}
	});
});

describe('only successes are kept (decision: refusals release the key)', () => {
	it('a 422 does not bind the key: fixing the body with the same key works', async () => {
		const key = newKey('fix');
		expect((await post(sim, '/v1/decks', deckBody({ colour: 'red' }), { idem: key })).status).toBe(422);
		expect((await post(sim, '/v1/decks', deckBody(), { idem: key })).status).toBe(202);
	});

	it('GET needs no Idempotency-Key', async () => {
		expect((await call(sim, 'GET', '/v1/credits')).status).toBe(200);
	});
});
