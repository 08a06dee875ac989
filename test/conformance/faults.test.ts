// The simulator's own promises (design "The simulator"): the seeded fault plan, the ledger, the seed, the
// clocks. Other suites rely on these to prove "charged once" and to replay identical runs.
import { errors } from 'undici';
import { start, type Simulator } from '../simulator';
import { call, deckBody, expectProblem, get, post, realSleep } from './helpers';

/** A POST whose connection dies: the error undici raises, or the response if there was one. */
async function attempt(sim: Simulator, idem: string): Promise<{ status?: number; error?: unknown; replayed?: string }> {
	try {
		const res = await post(sim, '/v1/decks', deckBody(), { idem });
		return { status: res.status, replayed: res.headers['idempotency-replayed'] };
	} catch (error) {
		return { error };
	}
}

describe('drop faults and the retry with the same key (SIM-fault-drop, E-create-2)', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await start({ seed: 91, clock: { manual: true } });
	});
	afterAll(() => sim.close());

	it('drop-before-commit: the connection dies, nothing happens; the retry is a first purchase', async () => {
		sim.control.setFaults([{ method: 'POST', path: '/v1/decks', kind: 'drop-before-commit', times: 1 }]);
		const first = await attempt(sim, 'before-1');
		expect(first.error).toBeInstanceOf(errors.SocketError);
		expect(sim.ledger.chargesFor('before-1')).toHaveLength(0);
		const retry = await attempt(sim, 'before-1');
		expect(retry).toEqual({ status: 202, replayed: undefined });
		expect(sim.ledger.chargesFor('before-1')).toHaveLength(1);
		expect(sim.control.faultsInjected()['drop-before-commit']).toBe(1);
	});

	it('drop-after-commit: charged and stored, answer lost; the retry with the same key is the replay', async () => {
		sim.control.setFaults([{ method: 'POST', path: '/v1/decks', kind: 'drop-after-commit', times: 1 }]);
		const balance = sim.control.balanceOf(sim.keys.personal);
		const first = await attempt(sim, 'after-1');
		expect(first.error).toBeInstanceOf(errors.SocketError);
		expect(sim.ledger.chargesFor('after-1')).toHaveLength(1);
		const retry = await attempt(sim, 'after-1');
		expect(retry).toEqual({ status: 202, replayed: 'true' });
		expect(sim.ledger.chargesFor('after-1')).toHaveLength(1);
		expect(sim.control.balanceOf(sim.keys.personal)).toBe(balance - 10);
		expect(sim.control.faultsInjected()['drop-after-commit']).toBe(1);
	});

	it('a fresh key after a lost answer buys twice: the ledger shows it', async () => {
		sim.control.setFaults([{ method: 'POST', path: '/v1/decks', kind: 'drop-after-commit', times: 1 }]);
		await attempt(sim, 'lost-a');
		await attempt(sim, 'lost-b');
		expect(sim.ledger.chargesFor('lost-a')).toHaveLength(1);
		expect(sim.ledger.chargesFor('lost-b')).toHaveLength(1);
	});

	it('dropped requests are in the ledger with status 0 and the fault kind', async () => {
		const dropped = sim.ledger.requests.filter((r) => r.fault === 'drop-before-commit' || r.fault === 'drop-after-commit');
		expect(dropped.length).toBeGreaterThanOrEqual(3);
		for (const r of dropped) expect(r.status).toBe(0);
	});
});

describe('status and latency faults (SIM-fault-status, SIM-fault-latency)', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await start({ seed: 92, clock: { manual: true }, limits: { retryAfterMs: 20 } });
	});
	afterAll(() => sim.close());

	it('status503 problem → surface_disabled; plain → the database shape', async () => {
		sim.control.setFaults([{ path: '/v1/credits', kind: 'status503', times: 1 }, { path: '/v1/credits', kind: 'status503', shape: 'plain', times: 1 }]);
		expectProblem(await get(sim, '/v1/credits'), 503, 'surface_disabled', { retryable: true });
		const plain = await get(sim, '/v1/credits');
		expect(plain.status).toBe(503);
		expect(plain.json).toEqual({ error: 'database unavailable' });
		expect((await get(sim, '/v1/credits')).status).toBe(200);
	});

	it('status429 problem → rate_limited with Retry-After and retryAfterMs; plain → text', async () => {
		sim.control.setFaults([{ path: '/v1/credits', kind: 'status429', times: 1 }, { path: '/v1/credits', kind: 'status429', shape: 'plain', times: 1 }]);
		const problem = await get(sim, '/v1/credits');
		expect(expectProblem(problem, 429, 'rate_limited', { retryable: true }).retryAfterMs).toBe(20);
		expect(problem.headers['retry-after']).toBe('1');
		const plain = await get(sim, '/v1/credits');
		expect(plain.status).toBe(429);
		expect(plain.headers['content-type']).toMatch(/^text\/plain/);
	});

	it('an injected 500 on a POST charges nothing; the retry with the same key is charged once', async () => {
		sim.control.setFaults([{ method: 'POST', kind: 'status500', times: 1 }]);
		expect((await post(sim, '/v1/decks', deckBody(), { idem: 'five-hundred' })).status).toBe(500);
		expect(sim.ledger.chargesFor('five-hundred')).toHaveLength(0);
		expect((await post(sim, '/v1/decks', deckBody(), { idem: 'five-hundred' })).status).toBe(202);
		expect(sim.ledger.chargesFor('five-hundred')).toHaveLength(1);
	});

	it('latency delays the answer by latencyMs real ms', async () => {
		sim.control.setFaults([{ method: 'GET', path: /^\/v1\/credits$/, kind: 'latency', latencyMs: 60, times: 1 }]);
		const t0 = performance.now();
		expect((await get(sim, '/v1/credits')).status).toBe(200);
		expect(performance.now() - t0).toBeGreaterThanOrEqual(55);
	});

	it('rules match on method and path (string or RegExp); times limits them', async () => {
		sim.control.setFaults([{ method: 'POST', path: /^\/v1\/decks\/[^/]+\/status$/, kind: 'status500' }, { method: 'GET', path: '/v1/other', kind: 'status500' }]);
		expect((await get(sim, '/v1/credits')).status).toBe(200);
		const deck = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 0 });
		expect((await get(sim, `/v1/decks/${deck}/status`)).status).toBe(200);
		expect((await call(sim, 'POST', `/v1/decks/${deck}/status`)).status).toBe(500);
		sim.control.setFaults([]);
	});

	it('faultsInjected counts every kind', () => {
		expect(sim.control.faultsInjected()).toMatchObject({ status503: 2, status429: 2, status500: 2, latency: 1, 'drop-before-commit': 0 });
	});
});

describe('the seed (SIM-seed)', () => {
	async function run(seed: number): Promise<{ keys: string[]; faults: boolean[]; tasks: string[]; durations: number[]; requestIds: string[] }> {
		const sim = await start({ seed, clock: { manual: true }, faults: [{ path: '/v1/credits', kind: 'status500', probability: 0.5 }] });
		try {
			const faults: boolean[] = [];
			for (let i = 0; i < 16; i++) faults.push((await get(sim, '/v1/credits')).status === 500);
			const tasks: string[] = [];
			const durations: number[] = [];
			for (let i = 0; i < 3; i++) {
				const { taskId } = (await post(sim, '/v1/decks', deckBody(), { idem: `seed-${i}` })).json;
				tasks.push(taskId);
				const d = sim.control.deck(taskId)!;
				durations.push(d.doneAt - d.createdAt);
			}
			return { keys: Object.values(sim.keys), faults, tasks, durations, requestIds: sim.ledger.requests.map((r) => r.requestId!) };
		} finally {
			await sim.close();
		}
	}

	it('same seed, same run: keys, fault plan, task ids, deck durations, request ids', async () => {
		const a = await run(7);
		const b = await run(7);
		expect(b).toEqual(a);
		expect(a.faults).toContain(true);
		expect(a.faults).toContain(false);
	});

	it('another seed, another run', async () => {
		const a = await run(7);
		const c = await run(8);
		expect(c.keys).not.toEqual(a.keys);
		expect(c.tasks).not.toEqual(a.tasks);
		expect(c.faults).not.toEqual(a.faults);
	});

	it('demo keys are distinct, random-looking secrets', async () => {
		const sim = await start({ seed: 9 });
		try {
			const keys = Object.values(sim.keys);
			expect(new Set(keys).size).toBe(14);
			for (const k of keys) expect(k).toMatch(/^dg_live_[0-9a-f]{32}$/);
		} finally {
			await sim.close();
		}
	});
});

describe('the ledger (SIM-ledger)', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await start({ seed: 93, clock: { manual: true } });
	});
	afterAll(() => sim.close());

	it('records every request: method, path, key, body hash, status, requestId, sim time', async () => {
		const res = await post(sim, '/v1/decks', deckBody(), { idem: 'ledger-1' });
		const record = sim.ledger.requests.find((r) => r.requestId === res.headers['x-request-id'])!;
		expect(record).toMatchObject({ method: 'POST', path: '/v1/decks', idempotencyKey: 'ledger-1', status: 202, at: sim.control.now(), bodySha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
		await get(sim, '/v1/credits', { key: 'nope' });
		expect(sim.ledger.requests.at(-1)).toMatchObject({ method: 'GET', path: '/v1/credits', status: 401 });
	});

	it('records every charge; totals per principal', async () => {
		const org = await get(sim, '/v1/credits', { key: sim.keys.org });
		await post(sim, '/v1/decks', deckBody(), { key: sim.keys.org });
		expect(sim.ledger.totalCharged(org.json.principal.id)).toBe(10);
		expect(sim.ledger.totalCharged()).toBe(20);
		expect(sim.ledger.charges.map((c) => c.operation)).toEqual(['create', 'create']);
	});

	it('resetLedger empties both lists', () => {
		sim.control.resetLedger();
		expect(sim.ledger.charges).toEqual([]);
		expect(sim.ledger.requests).toEqual([]);
	});
});

describe('the clocks (SIM-clock)', () => {
	it('manual: time stands still until advance()', async () => {
		const sim = await start({ clock: { manual: true } });
		try {
			const t0 = sim.control.now();
			await realSleep(5);
			expect(sim.control.now()).toBe(t0);
			sim.control.advance(90_000);
			expect(sim.control.now()).toBe(t0 + 90_000);
		} finally {
			await sim.close();
		}
	});

	it('speed: sim time runs speed times faster than real time', async () => {
		const sim = await start({ clock: { speed: 60_000 } });
		try {
			const t0 = sim.control.now();
			await realSleep(20);
			expect(sim.control.now() - t0).toBeGreaterThanOrEqual(15 * 60_000);
		} finally {
			await sim.close();
		}
	});
});
