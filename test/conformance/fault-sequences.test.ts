// The simulator's fault plan, continued (SIM-fault-sequence): a 500 or 503 answered after the purchase
// was committed, and a fault followed by more faults for the same request (same Idempotency-Key and
// credential) until a client's retries run out. The soak draws both (issue 15: decks named nowhere).
import { errors } from 'undici';
import { start, type Simulator } from '../simulator';
import { deckBody, post } from './helpers';

async function attempt(sim: Simulator, idem: string, key?: string): Promise<{ status?: number; error?: unknown; json?: any; replayed?: string }> {
	try {
		const res = await post(sim, '/v1/decks', deckBody(), { idem, key });
		return { status: res.status, json: res.json, replayed: res.headers['idempotency-replayed'] };
	} catch (error) {
		return { error };
	}
}

describe('faults after the commit and fault sequences (SIM-fault-sequence)', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await start({ seed: 93, clock: { manual: true }, limits: { retryAfterMs: 20, maxConcurrentDecks: 100 } });
	});
	afterAll(() => sim.close());
	afterEach(() => sim.control.setFaults([]));

	it('status500 afterCommit: charged and stored, then answered 500; the same-key retry is the replay', async () => {
		sim.control.setFaults([{ method: 'POST', kind: 'status500', afterCommit: true, times: 1 }]);
		const first = await attempt(sim, 'commit-500');
		expect(first.status).toBe(500);
		expect(first.json).toMatchObject({ status: 500, code: 'internal_error', retryable: true });
		expect(sim.ledger.chargesFor('commit-500')).toHaveLength(1);
		const retry = await attempt(sim, 'commit-500');
		expect(retry).toMatchObject({ status: 202, replayed: 'true' });
		expect(retry.json.taskId).toBe(sim.ledger.chargesFor('commit-500')[0].taskId);
		expect(sim.ledger.chargesFor('commit-500')).toHaveLength(1);
		const record = sim.ledger.requests.find((r) => r.idempotencyKey === 'commit-500' && r.fault);
		expect(record).toMatchObject({ fault: 'status500', faultAfterCommit: true, status: 500 });
	});

	it('status503 afterCommit, both shapes: charged, then the 503 of that shape', async () => {
		sim.control.setFaults([
			{ method: 'POST', kind: 'status503', afterCommit: true, times: 1 },
			{ method: 'POST', kind: 'status503', shape: 'plain', afterCommit: true, times: 1 },
		]);
		const problem = await attempt(sim, 'commit-503');
		expect(problem.status).toBe(503);
		expect(problem.json.code).toBe('surface_disabled');
		const plain = await attempt(sim, 'commit-503-plain');
		expect(plain).toMatchObject({ status: 503, json: { error: 'database unavailable' } });
		expect(sim.ledger.chargesFor('commit-503')).toHaveLength(1);
		expect(sim.ledger.chargesFor('commit-503-plain')).toHaveLength(1);
	});

	it('an injected status without afterCommit still charges nothing', async () => {
		sim.control.setFaults([{ method: 'POST', kind: 'status503', times: 1 }]);
		expect((await attempt(sim, 'before-503')).status).toBe(503);
		expect(sim.ledger.chargesFor('before-503')).toHaveLength(0);
	});

	it('followedBy: the next requests with that key meet the steps in order, then the replay', async () => {
		sim.control.setFaults([
			{
				method: 'POST',
				kind: 'status500',
				afterCommit: true,
				times: 1,
				followedBy: [{ kind: 'status500' }, { kind: 'status503', shape: 'plain' }, { kind: 'status429', shape: 'plain' }, { kind: 'status429' }],
			},
		]);
		const statuses: Array<number | undefined> = [];
		for (let i = 0; i < 5; i++) statuses.push((await attempt(sim, 'streak-1')).status);
		expect(statuses).toEqual([500, 500, 503, 429, 429]);
		const last = await attempt(sim, 'streak-1');
		expect(last).toMatchObject({ status: 202, replayed: 'true' });
		expect(sim.ledger.chargesFor('streak-1')).toHaveLength(1);
		const records = sim.ledger.requests.filter((r) => r.idempotencyKey === 'streak-1');
		expect(records.map((r) => r.faultFollowUp ?? false)).toEqual([false, true, true, true, true, false]);
		expect(records.map((r) => r.faultShape)).toEqual([undefined, undefined, 'plain', 'plain', undefined, undefined]);
	});

	it('a drop after the commit followed by 503s: the answers are lost, then refused, the charge is one', async () => {
		sim.control.setFaults([{ method: 'POST', kind: 'drop-after-commit', times: 1, followedBy: [{ kind: 'status503' }, { kind: 'status429' }] }]);
		const dropped = await attempt(sim, 'drop-streak');
		expect(dropped.error).toBeInstanceOf(errors.SocketError);
		expect((await attempt(sim, 'drop-streak')).status).toBe(503);
		expect((await attempt(sim, 'drop-streak')).status).toBe(429);
		expect(await attempt(sim, 'drop-streak')).toMatchObject({ status: 202, replayed: 'true' });
		expect(sim.ledger.chargesFor('drop-streak')).toHaveLength(1);
	});

	it('a sequence follows its own key and credential only: other requests are drawn as usual', async () => {
		const other = sim.control.createAccount({ balance: 1_000 });
		sim.control.setFaults([{ method: 'POST', kind: 'status503', times: 1, followedBy: [{ kind: 'status503' }, { kind: 'status503' }] }]);
		expect((await attempt(sim, 'shared-key')).status).toBe(503);
		// The same key from another credential, and another key of this credential: no fault.
		expect((await attempt(sim, 'shared-key', other.key)).status).toBe(202);
		expect((await attempt(sim, 'another-key')).status).toBe(202);
		expect((await attempt(sim, 'shared-key')).status).toBe(503);
		expect((await attempt(sim, 'shared-key')).status).toBe(503);
		expect((await attempt(sim, 'shared-key')).status).toBe(202);
	});

	it('setFaults refuses afterCommit on a kind that answers nothing or everything', () => {
		expect(() => sim.control.setFaults([{ kind: 'status429', afterCommit: true }])).toThrow(/afterCommit applies to status500 and status503 only/);
		expect(() => sim.control.setFaults([{ kind: 'status500', followedBy: [{ kind: 'latency', afterCommit: true }] }])).toThrow(/afterCommit/);
	});
});
