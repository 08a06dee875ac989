/**
 * callService with a scripted transport and virtual time: every wait is recorded, none is real.
 */
import {
	callService,
	CancelledError,
	CredentialGate,
	gateFor,
	throwIfCancelled,
	type CallOptions,
	type Sleep,
} from '../../nodes/shared/client';
import { statusRequest, TransportError, type ServiceRequest, type ServiceResponse, type Transport } from '../../nodes/shared/transport';

type Step = ServiceResponse | Error;

/** A transport that answers from a script, in order, and records every request it was given. */
function scripted(steps: Step[]): { transport: Transport; requests: ServiceRequest[]; snapshots: string[] } {
	const queue = [...steps];
	const requests: ServiceRequest[] = [];
	const snapshots: string[] = [];
	const transport: Transport = async (request) => {
		requests.push(request);
		snapshots.push(JSON.stringify({ ...request, body: Buffer.from(request.body ?? '').toString('base64') }));
		const step = queue.shift();
		if (step === undefined) throw new Error('the script has no more answers');
		if (step instanceof Error) throw step;
		return step;
	};
	return { transport, requests, snapshots };
}

/**
 * Virtual time: `sleep` parks the caller until `advance` moves the clock past its end (or the
 * signal aborts it, as n8n's abortable sleep does). With `auto`, every sleep ends at once and
 * moves the clock by its length.
 */
class VirtualTime {
	now = 0;
	readonly waits: number[] = [];
	private parked: Array<{ at: number; resolve: () => void }> = [];

	constructor(private readonly auto = true) {}

	readonly clock = (): number => this.now;

	readonly sleep: Sleep = async (ms, signal) => {
		if (signal?.aborted) throw new CancelledError();
		this.waits.push(ms);
		if (this.auto) {
			this.now += ms;
			return;
		}
		await new Promise<void>((resolve, reject) => {
			const entry = { at: this.now + ms, resolve };
			this.parked.push(entry);
			signal?.addEventListener(
				'abort',
				() => {
					this.parked = this.parked.filter((p) => p !== entry);
					reject(new CancelledError());
				},
				{ once: true },
			);
		});
	};

	async advance(ms: number): Promise<void> {
		this.now += ms;
		const due = this.parked.filter((p) => p.at <= this.now);
		this.parked = this.parked.filter((p) => p.at > this.now);
		for (const p of due) p.resolve();
		await settle();
	}

	get parkedCount(): number {
		return this.parked.length;
	}
}

/** Lets every pending promise chain run to its next real wait. */
async function settle(): Promise<void> {
	for (let i = 0; i < 50; i++) await Promise.resolve();
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): ServiceResponse {
	return { status, headers: { 'content-type': 'application/json', ...headers }, text: JSON.stringify(body) };
}

function problem(status: number, members: Record<string, unknown>, headers: Record<string, string> = {}): ServiceResponse {
	return {
		status,
		headers: { 'content-type': 'application/problem+json', 'x-request-id': 'req-9', ...headers },
		text: JSON.stringify({ title: 't', requestId: 'req-9', ...members }),
	};
}

const S503 = problem(503, { code: 'surface_disabled', retryable: true });
const PLAIN_503 = json(503, { error: 'database unreachable' });
const P500 = problem(500, { code: 'internal_error', retryable: true });
const CREATED = json(201, { taskId: 'task-1' }, { 'x-request-id': 'req-ok' });

const GET_CREDITS: ServiceRequest = { method: 'GET', path: '/v1/credits' };

function keyedPost(): ServiceRequest {
	return {
		method: 'POST',
		path: '/v1/decks',
		headers: { 'Content-Type': 'application/json', 'Idempotency-Key': 'b7a0c3f2-5d1e-5a4b-9c8d-0e1f2a3b4c5d' },
		body: Buffer.from('{"audience":"board","expected_credits":120,"title":"Q3 — Überblick"}'),
	};
}

function options(transport: Transport, time: VirtualTime, extra: Partial<CallOptions> = {}): CallOptions {
	return { transport, sleep: time.sleep, random: () => 0.5, ...extra };
}

describe('callService: retries', () => {
	it('retries a plain-JSON 503 and a problem 503, then returns the success', async () => {
		const { transport, requests } = scripted([PLAIN_503, S503, CREATED]);
		const time = new VirtualTime();
		const retries: Array<{ attempt: number; waitMs: number }> = [];
		const result = await callService(
			keyedPost(),
			options(transport, time, { onRetry: ({ attempt, waitMs }) => retries.push({ attempt, waitMs }) }),
		);
		expect(result.attempts).toBe(3);
		expect(requests).toHaveLength(3);
		expect(result.outcome).toMatchObject({ route: 'success', status: 201, body: { taskId: 'task-1' }, requestId: 'req-ok' });
		// Full jitter with random 0.5: half of 1 s, then half of 2 s.
		expect(time.waits).toEqual([500, 1_000]);
		expect(retries).toEqual([
			{ attempt: 1, waitMs: 500 },
			{ attempt: 2, waitMs: 1_000 },
		]);
	});

	it('re-sends the very same request (byte-identical body, same Idempotency-Key) on every attempt', async () => {
		const request = keyedPost();
		const bodyBefore = Buffer.from(request.body as Buffer);
		const { transport, requests, snapshots } = scripted([
			new TransportError('socket hang up', 'ECONNRESET'),
			P500,
			problem(409, { code: 'conflict', conflictKind: 'already_in_progress', retryable: true, retryAfterMs: 1_000 }),
			CREATED,
		]);
		const result = await callService(request, options(transport, new VirtualTime()));
		expect(result.outcome.route).toBe('success');
		expect(requests).toHaveLength(4);
		for (const sent of requests) {
			expect(sent).toBe(request);
			expect(Buffer.compare(sent.body as Buffer, bodyBefore)).toBe(0);
			expect(sent.headers?.['Idempotency-Key']).toBe('b7a0c3f2-5d1e-5a4b-9c8d-0e1f2a3b4c5d');
		}
		// Nothing was mutated between attempts either.
		expect(new Set(snapshots).size).toBe(1);
	});

	it('issue 49: a 409 already_in_progress is another request holding the key, counted apart from this call\'s own lost attempts', async () => {
		const inProgress = problem(409, { code: 'conflict', conflictKind: 'already_in_progress', reason: 'already_in_progress', retryable: true, retryAfterMs: 1_000 });
		const elsewhere = await callService(keyedPost(), options(scripted([inProgress, inProgress, CREATED]).transport, new VirtualTime()));
		expect(elsewhere).toMatchObject({ uncertainAttempts: 0, heldElsewhere: 2 });
		expect(elsewhere.lostAttempt).toBeUndefined();
		const own = await callService(keyedPost(), options(scripted([new TransportError('socket hang up', 'ECONNRESET'), inProgress, CREATED]).transport, new VirtualTime()));
		expect(own).toMatchObject({ uncertainAttempts: 1, heldElsewhere: 1, lostAttempt: 'no answer: socket hang up' });
	});

	it('does not sleep after the last attempt', async () => {
		const { transport, requests } = scripted([S503, S503, S503]);
		const time = new VirtualTime();
		const result = await callService(GET_CREDITS, options(transport, time, { settings: { maxAttempts: 3 } }));
		expect(requests).toHaveLength(3);
		expect(result.attempts).toBe(3);
		expect(time.waits).toHaveLength(2);
		expect(result.outcome).toMatchObject({ route: 'error', failure: { status: 503, code: 'surface_disabled' } });
		expect(result.response?.status).toBe(503);
	});

	it('retries a 500 once, then reports it with its requestId', async () => {
		const { transport, requests } = scripted([P500, P500, CREATED]);
		const time = new VirtualTime();
		const result = await callService(GET_CREDITS, options(transport, time));
		expect(requests).toHaveLength(2);
		expect(time.waits).toHaveLength(1);
		expect(result.outcome).toMatchObject({ route: 'error', failure: { code: 'internal_error', requestId: 'req-9' } });
	});

	it('gives a 500 its one retry even when an earlier attempt failed differently', async () => {
		const { transport, requests } = scripted([S503, P500, CREATED]);
		const result = await callService(GET_CREDITS, options(transport, new VirtualTime()));
		expect(requests).toHaveLength(3);
		expect(result.outcome.route).toBe('success');
	});

	it('does not retry a second 500 in the same call, whatever came between', async () => {
		const { transport, requests } = scripted([P500, S503, P500, CREATED]);
		const result = await callService(GET_CREDITS, options(transport, new VirtualTime()));
		expect(requests).toHaveLength(3);
		expect(result.outcome).toMatchObject({ route: 'error', failure: { code: 'internal_error' } });
	});

	it('returns a non-retryable answer after one attempt, without waiting', async () => {
		const payment = problem(402, { code: 'insufficient_credits', retryable: false, cta: 'top_up', options: [{ cta: 'top_up' }] });
		const { transport, requests } = scripted([payment, CREATED]);
		const time = new VirtualTime();
		const result = await callService(keyedPost(), options(transport, time));
		expect(requests).toHaveLength(1);
		expect(time.waits).toEqual([]);
		expect(result.outcome).toMatchObject({ route: 'checkout', cta: 'top_up' });
	});

	it('retries a dropped connection on a GET and on a keyed POST', async () => {
		for (const request of [GET_CREDITS, keyedPost()]) {
			const { transport, requests } = scripted([new TransportError('ECONNREFUSED', 'ECONNREFUSED'), CREATED]);
			const result = await callService(request, options(transport, new VirtualTime()));
			expect(requests).toHaveLength(2);
			expect(result.outcome.route).toBe('success');
		}
	});

	it('never repeats a POST without an Idempotency-Key after a dropped connection', async () => {
		const request: ServiceRequest = { method: 'POST', path: '/v1/materials', body: Buffer.from('x') };
		const { transport, requests } = scripted([new TransportError('socket hang up', 'ECONNRESET'), CREATED]);
		const time = new VirtualTime();
		const result = await callService(request, options(transport, time));
		expect(requests).toHaveLength(1);
		expect(time.waits).toEqual([]);
		expect(result.networkError).toBeInstanceOf(TransportError);
		expect(result.response).toBeUndefined();
		expect(result.outcome).toMatchObject({ route: 'error', failure: { status: 0, code: 'no_response' } });
		if (result.outcome.route !== 'error') throw new Error('unreachable');
		expect(result.outcome.failure.detail).toContain('after 1 attempt:');
		expect(result.outcome.failure.detail).toContain('socket hang up');
	});

	it('recognises the Idempotency-Key header whatever its case, and an empty one as no key', async () => {
		const lower: ServiceRequest = { method: 'POST', path: '/v1/decks', headers: { 'idempotency-key': 'k-1' }, body: '{}' };
		const first = scripted([new TransportError('socket hang up', 'ECONNRESET'), CREATED]);
		expect((await callService(lower, options(first.transport, new VirtualTime()))).outcome.route).toBe('success');
		expect(first.requests).toHaveLength(2);

		const empty: ServiceRequest = { method: 'POST', path: '/v1/decks', headers: { 'Idempotency-Key': '' }, body: '{}' };
		const second = scripted([new TransportError('socket hang up', 'ECONNRESET'), CREATED]);
		expect((await callService(empty, options(second.transport, new VirtualTime()))).outcome.route).toBe('error');
		expect(second.requests).toHaveLength(1);
	});

	it('reports the attempts of a connection that never answers', async () => {
		const drops = Array.from({ length: 4 }, () => new TransportError('timeout', 'ETIMEDOUT'));
		const { transport, requests } = scripted(drops);
		const time = new VirtualTime();
		const result = await callService(GET_CREDITS, options(transport, time, { settings: { maxAttempts: 4 } }));
		expect(requests).toHaveLength(4);
		expect(time.waits).toHaveLength(3);
		expect(result.attempts).toBe(4);
		if (result.outcome.route !== 'error') throw new Error('expected an error');
		expect(result.outcome.failure.detail).toContain('after 4 attempts');
	});

	it('stops at once when the service asks for a wait longer than Max Retry Wait', async () => {
		const velocity = problem(
			429,
			{ code: 'rate_limited', retryable: true, reason: 'spend_velocity_exceeded', resetAt: '2025-03-01T13:00:00Z', retryAfterMs: 3_600_000 },
			{ 'retry-after': '3600' },
		);
		const { transport, requests } = scripted([velocity, CREATED]);
		const time = new VirtualTime();
		const result = await callService(keyedPost(), options(transport, time));
		expect(requests).toHaveLength(1);
		expect(time.waits).toEqual([]);
		expect(result.waitTooLongMs).toBe(3_600_000);
		expect(result.outcome).toMatchObject({ route: 'error', failure: { reason: 'spend_velocity_exceeded' } });
	});

	it('lets a non-TransportError thrown by the transport propagate untouched, without retrying', async () => {
		const bug = new TypeError('Cannot read properties of undefined');
		const { transport, requests } = scripted([bug, CREATED]);
		const time = new VirtualTime();
		await expect(callService(GET_CREDITS, options(transport, time))).rejects.toBe(bug);
		expect(requests).toHaveLength(1);
		expect(time.waits).toEqual([]);
	});
});

describe('callService: the credential gate', () => {
	it('pauses every call of the credential after a 429 (two concurrent calls, one gate)', async () => {
		const time = new VirtualTime(false);
		const gate = new CredentialGate(time.clock);
		const sent: Array<{ path: string; at: number }> = [];
		const answers: Record<string, ServiceResponse[]> = {
			'/v1/decks/a/status': [problem(429, { code: 'rate_limited', retryable: true, bucket: 'principal' }, { 'retry-after': '10' }), json(200, { status: 'running' })],
			'/v1/decks/b/status': [json(200, { status: 'done' })],
		};
		const transport: Transport = async (request) => {
			sent.push({ path: request.path, at: time.now });
			return answers[request.path].shift()!;
		};

		const a = callService({ method: 'GET', path: '/v1/decks/a/status' }, { transport, sleep: time.sleep, gate, random: () => 0.5 });
		await settle();
		expect(sent).toEqual([{ path: '/v1/decks/a/status', at: 0 }]);
		expect(gate.remainingPause()).toBe(10_000);

		const b = callService({ method: 'GET', path: '/v1/decks/b/status' }, { transport, sleep: time.sleep, gate, random: () => 0.5 });
		await settle();
		// B has not been sent: it waits out the pause A's 429 put on the credential.
		expect(sent).toHaveLength(1);
		expect(time.waits).toEqual([10_000, 10_000]);

		await time.advance(9_999);
		expect(sent).toHaveLength(1);
		await time.advance(1);
		const [ra, rb] = await Promise.all([a, b]);
		expect(sent).toEqual([
			{ path: '/v1/decks/a/status', at: 0 },
			{ path: '/v1/decks/a/status', at: 10_000 },
			{ path: '/v1/decks/b/status', at: 10_000 },
		]);
		expect(ra).toMatchObject({ attempts: 2, outcome: { route: 'success', body: { status: 'running' } } });
		expect(rb).toMatchObject({ attempts: 1, outcome: { route: 'success', body: { status: 'done' } } });
	});

	it('pauses a text 429 without a hint for one second', async () => {
		const time = new VirtualTime();
		const gate = new CredentialGate(time.clock);
		const { transport } = scripted([{ status: 429, headers: {}, text: 'Too Many Requests' }, CREATED]);
		const result = await callService(GET_CREDITS, { transport, sleep: time.sleep, gate, random: () => 0 });
		expect(result.outcome.route).toBe('success');
		// The jittered backoff drew 0 ms; the gate still held the call back for its one second.
		expect(time.waits).toEqual([1_000]);
	});

	it('never holds other calls back longer than Max Retry Wait', async () => {
		const time = new VirtualTime();
		const gate = new CredentialGate(time.clock);
		const { transport } = scripted([problem(429, { code: 'rate_limited', retryable: true, retryAfterMs: 3_600_000 })]);
		const result = await callService(GET_CREDITS, { transport, sleep: time.sleep, gate, settings: { maxRetryWaitMs: 30_000 } });
		expect(result.waitTooLongMs).toBe(3_600_000);
		expect(gate.remainingPause()).toBeGreaterThan(0);
		expect(gate.remainingPause()).toBeLessThanOrEqual(30_000);
	});

	it('does not pause for a 429 version_cap_reached, which is not about time', async () => {
		const time = new VirtualTime();
		const gate = new CredentialGate(time.clock);
		const { transport } = scripted([problem(429, { code: 'rate_limited', reason: 'version_cap_reached', retryable: false })]);
		const result = await callService(keyedPost(), { transport, sleep: time.sleep, gate });
		expect(result.outcome).toMatchObject({ route: 'clientAction', outcome: 'version_cap_reached' });
		expect(gate.remainingPause()).toBe(0);
	});

	it('observe(): X-RateLimit-Remaining 0 with a reset in seconds pauses until the reset', () => {
		let now = 5_000;
		const gate = new CredentialGate(() => now);
		gate.observe(json(200, {}, { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '7' }));
		expect(gate.remainingPause()).toBe(7_000);
		now += 3_000;
		expect(gate.remainingPause()).toBe(4_000);
	});

	it('observe(): a reset given as epoch seconds counts from now', () => {
		const now = 1_740_000_000_000;
		const gate = new CredentialGate(() => now);
		gate.observe(json(200, {}, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(now / 1000 + 12) }));
		expect(gate.remainingPause()).toBe(12_000);
	});

	it('observe(): any x-ratelimit-* spelling counts, and the pause is capped at a minute', () => {
		const gate = new CredentialGate(() => 0);
		gate.observe(json(200, {}, { 'x-ratelimit-remaining-principal': '0', 'x-ratelimit-reset-principal': '3600' }));
		expect(gate.remainingPause()).toBe(60_000);
	});

	it.each([
		['X-RateLimit-*', 'x-ratelimit-'],
		['RateLimit-* (IETF draft)', 'ratelimit-'],
		['X-Rate-Limit-*', 'x-rate-limit-'],
	])('observe(): %s names are read (issue 8: the contract does not fix them)', (_name, prefix) => {
		const gate = new CredentialGate(() => 0);
		gate.observe(json(200, {}, { [`${prefix}remaining`]: '0', [`${prefix}reset`]: '4' }));
		expect(gate.remainingPause()).toBe(4_000);
	});

	it.each<[string, Record<string, string>]>([
		['tokens remain', { 'x-ratelimit-remaining': '3', 'x-ratelimit-reset': '7' }],
		['no reset given', { 'x-ratelimit-remaining': '0' }],
		['no remaining given', { 'x-ratelimit-reset': '7' }],
		['a reset that is not a number', { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': 'soon' }],
		['a reset epoch in the past', { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1700000000' }],
	])('observe(): no pause when %s', (_name, headers) => {
		const gate = new CredentialGate(() => 1_740_000_000_000);
		gate.observe(json(200, {}, headers));
		expect(gate.remainingPause()).toBe(0);
	});

	it('a success that empties the bucket makes the next call wait for the reset', async () => {
		const time = new VirtualTime();
		const gate = new CredentialGate(time.clock);
		const { transport, requests } = scripted([
			json(200, { balance: 10 }, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '5' }),
			json(200, { balance: 10 }),
		]);
		await callService(GET_CREDITS, { transport, sleep: time.sleep, gate });
		expect(time.waits).toEqual([]);
		await callService(GET_CREDITS, { transport, sleep: time.sleep, gate });
		expect(time.waits).toEqual([5_000]);
		expect(requests).toHaveLength(2);
	});

	it('pauseFor keeps the later of two pauses', () => {
		const gate = new CredentialGate(() => 0);
		gate.pauseFor(5_000);
		gate.pauseFor(2_000);
		expect(gate.remainingPause()).toBe(5_000);
	});

	it('gateFor returns one gate per credential fingerprint', () => {
		expect(gateFor('fingerprint-a')).toBe(gateFor('fingerprint-a'));
		expect(gateFor('fingerprint-a')).not.toBe(gateFor('fingerprint-b'));
	});
});

describe('callService: cancellation', () => {
	it('does not send anything when the signal is already aborted', async () => {
		const controller = new AbortController();
		controller.abort();
		const { transport, requests } = scripted([CREATED]);
		await expect(callService(GET_CREDITS, options(transport, new VirtualTime(), { signal: controller.signal }))).rejects.toBeInstanceOf(
			CancelledError,
		);
		expect(requests).toHaveLength(0);
	});

	it('stops between attempts when the execution is cancelled during a wait', async () => {
		const controller = new AbortController();
		const { transport, requests } = scripted([S503, CREATED]);
		const time = new VirtualTime();
		// The user presses "stop" while the call waits; this sleep lets the wait end normally.
		const sleep: Sleep = async (ms) => {
			time.waits.push(ms);
			controller.abort();
		};
		await expect(callService(GET_CREDITS, { transport, sleep, signal: controller.signal, random: () => 0.5 })).rejects.toBeInstanceOf(
			CancelledError,
		);
		expect(requests).toHaveLength(1);
		expect(time.waits).toEqual([500]);
	});

	it('ends a pending wait at once when the signal aborts', async () => {
		const controller = new AbortController();
		const { transport, requests } = scripted([S503, CREATED]);
		const time = new VirtualTime(false);
		const call = callService(GET_CREDITS, options(transport, time, { signal: controller.signal }));
		const settled = call.then(
			() => 'resolved',
			(error: unknown) => error,
		);
		await settle();
		expect(time.parkedCount).toBe(1);
		controller.abort();
		expect(await settled).toBeInstanceOf(CancelledError);
		expect(requests).toHaveLength(1);
	});

	it('stops while waiting at the gate', async () => {
		const controller = new AbortController();
		const time = new VirtualTime(false);
		const gate = new CredentialGate(time.clock);
		gate.pauseFor(30_000);
		const { transport, requests } = scripted([CREATED]);
		const call = callService(GET_CREDITS, { transport, sleep: time.sleep, gate, signal: controller.signal });
		const settled = call.then(
			() => 'resolved',
			(error: unknown) => error,
		);
		await settle();
		controller.abort();
		expect(await settled).toBeInstanceOf(CancelledError);
		expect(requests).toHaveLength(0);
	});

	it('throwIfCancelled throws only for an aborted signal', () => {
		const controller = new AbortController();
		expect(() => throwIfCancelled(undefined)).not.toThrow();
		expect(() => throwIfCancelled(controller.signal)).not.toThrow();
		controller.abort();
		expect(() => throwIfCancelled(controller.signal)).toThrow(CancelledError);
	});
});

describe('callService: a deadline (Max Wait is a hard bound)', () => {
	const S503_3S = problem(503, { code: 'surface_disabled', retryable: true, retryAfterMs: 3_000 }, { 'retry-after': '3' });

	it('stops retrying when the next wait would end after the deadline, returning the last failure', async () => {
		const { transport, requests } = scripted([S503_3S, S503_3S, S503_3S, S503_3S, S503_3S, S503_3S]);
		const time = new VirtualTime();
		const result = await callService(GET_CREDITS, options(transport, time, { deadline: 3_000, now: time.clock }));
		// Sent at 0 and 3 s; the next retry would start at 6 s, after the deadline.
		expect(requests).toHaveLength(2);
		expect(time.now).toBe(3_000);
		expect(result).toMatchObject({ attempts: 2, stoppedAtDeadline: true, outcome: { route: 'error', failure: { code: 'surface_disabled' } } });
	});

	it('without a deadline the same answers are retried to the attempt limit', async () => {
		const { transport, requests } = scripted([S503_3S, S503_3S, S503_3S, S503_3S, S503_3S, S503_3S]);
		const time = new VirtualTime();
		const result = await callService(GET_CREDITS, options(transport, time));
		expect(requests).toHaveLength(6);
		expect(time.now).toBe(15_000);
		expect(result.stoppedAtDeadline).toBeUndefined();
	});

	it('sends nothing when the credential is paused past the deadline', async () => {
		const { transport, requests } = scripted([CREATED]);
		const time = new VirtualTime();
		const gate = new CredentialGate(time.clock);
		gate.pauseFor(10_000);
		const result = await callService(GET_CREDITS, options(transport, time, { gate, deadline: 5_000, now: time.clock }));
		expect(requests).toHaveLength(0);
		expect(time.waits).toEqual([]);
		expect(result).toMatchObject({ attempts: 0, stoppedAtDeadline: true, outcome: { failure: { code: 'deadline_reached', retryable: true } } });
	});

	it('a pause that ends before the deadline is still taken', async () => {
		const { transport, requests } = scripted([CREATED]);
		const time = new VirtualTime();
		const gate = new CredentialGate(time.clock);
		gate.pauseFor(2_000);
		const result = await callService(GET_CREDITS, options(transport, time, { gate, deadline: 5_000, now: time.clock }));
		expect(requests).toHaveLength(1);
		expect(time.now).toBe(2_000);
		expect(result.outcome.route).toBe('success');
	});
});

describe('callService: a deadline does not stop the first request', () => {
	it('a call made after its deadline with no pause still sends once, and does not retry', async () => {
		const { transport, requests } = scripted([S503, CREATED]);
		const time = new VirtualTime();
		time.now = 10_000;
		const result = await callService(GET_CREDITS, options(transport, time, { deadline: 5_000, now: time.clock }));
		expect(requests).toHaveLength(1);
		expect(result).toMatchObject({ attempts: 1, stoppedAtDeadline: true, outcome: { failure: { code: 'surface_disabled' } } });
	});
});

describe('callService: a status read answered with an error status and the deck’s own record (issue 50 B9)', () => {
	const record = { job_identifier: 'tsk_1', status: 'failed', download_url: '' };
	const html = (status: number): ServiceResponse => ({ status, headers: { 'content-type': 'text/html' }, text: '<html><body><h1>504 Gateway Time-out</h1></body></html>' });
	const OK = json(200, { job_identifier: 'tsk_1', status: 'in_progress' });

	it('a 504 carrying the deck’s record is the answer, at once, not a fault to retry', async () => {
		const { transport, requests } = scripted([json(504, record)]);
		const result = await callService(statusRequest('tsk_1'), options(transport, new VirtualTime()));
		expect(requests).toHaveLength(1);
		expect(result).toMatchObject({ attempts: 1, outcome: { route: 'success', status: 504, body: record } });
	});

	it('over-reach: a gateway’s HTML page, a gateway’s JSON, another deck’s record, and any read that is not this deck’s status, are retried as before', async () => {
		for (const fault of [html(504), json(504, { status: 504, error: 'Gateway Timeout', message: 'Upstream timeout' }), json(504, { ...record, job_identifier: 'tsk_2' })]) {
			const { transport, requests } = scripted([fault, OK]);
			const result = await callService(statusRequest('tsk_1'), options(transport, new VirtualTime()));
			expect({ requests: requests.length, route: result.outcome.route, status: result.outcome.route === 'success' ? result.outcome.status : 0 }).toEqual({ requests: 2, route: 'success', status: 200 });
		}
		const { transport, requests } = scripted([json(504, record), OK]);
		const credits = await callService(GET_CREDITS, options(transport, new VirtualTime()));
		expect({ requests: requests.length, route: credits.outcome.route }).toEqual({ requests: 2, route: 'success' });
	});
});
