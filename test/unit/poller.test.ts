/**
 * The poller on virtual time (a fake service answering from a virtual clock, through the real
 * callService, retry policy and credential gate), then against the real simulator.
 */
import { callService, CancelledError, CredentialGate, type Sleep } from '../../nodes/shared/client';
import { pollDecks, type DeckReport, type DeckSpec, type PollerOptions } from '../../nodes/shared/poller';
import { parseWordList, statusWords } from '../../nodes/shared/status';
import type { ServiceResponse, Transport } from '../../nodes/shared/transport';
import { start, type Simulator } from '../simulator';
import { undiciTransport } from '../support/undici-transport';
import { VirtualClock } from './virtual-clock';

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const INTERVAL = 5 * SECOND;

/** A seeded source in [0, 1) so schedules are the same on every run. */
function seeded(seed = 42): () => number {
	let s = seed >>> 0;
	return () => {
		s = (s + 0x6d2b79f5) >>> 0;
		let t = s;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

interface FakeDeck {
	doneAt: number;
	end: 'completed' | 'failed';
	/** Returned verbatim instead of the derived word. */
	word?: string;
}

type Fault = (taskId: string, at: number) => ServiceResponse | undefined;

/** The status endpoint on virtual time. */
class FakeService {
	readonly decks = new Map<string, FakeDeck>();
	readonly requests: Array<{ taskId: string; at: number; status: number }> = [];
	faults: Fault[] = [];
	latencyMs = 0;
	inFlight = 0;
	maxInFlight = 0;

	constructor(private readonly clock: VirtualClock) {}

	add(taskId: string, durationMs: number, end: FakeDeck['end'] = 'completed', word?: string): string {
		this.decks.set(taskId, { doneAt: this.clock.now() + durationMs, end, word });
		return taskId;
	}

	readonly transport: Transport = async (request) => {
		const taskId = decodeURIComponent(request.path.split('/')[3]);
		const at = this.clock.now();
		this.inFlight++;
		this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
		try {
			if (this.latencyMs) await this.clock.sleep(this.latencyMs);
			const response = this.answer(taskId, at);
			this.requests.push({ taskId, at, status: response.status });
			return response;
		} finally {
			this.inFlight--;
		}
	};

	private answer(taskId: string, at: number): ServiceResponse {
		for (const fault of this.faults) {
			const response = fault(taskId, at);
			if (response) return response;
		}
		const deck = this.decks.get(taskId);
		if (!deck) return problem(404, { code: 'not_found', detail: `No deck ${taskId}`, retryable: false });
		const word = deck.word ?? (at >= deck.doneAt ? deck.end : 'generating');
		// A finished deck's record has its file to hand over: a success word alone is not believed (status/judge.ts judgeStatus).
		// A failed deck's record says why: a failure word alone is confirmed on a later read first (issue 50).
		const file = at < deck.doneAt ? {} : deck.end === 'completed' ? { deckUrl: `https://files.example/${taskId}.pptx` } : { error: 'The deck could not be generated.' };
		return { status: 200, headers: { 'x-request-id': `req_${this.requests.length}` }, text: JSON.stringify({ taskId, status: word, ...file }) };
	}

	requestsOf(taskId: string): number[] {
		return this.requests.filter((r) => r.taskId === taskId).map((r) => r.at);
	}
}

function problem(status: number, body: Record<string, unknown>, headers: Record<string, string> = {}): ServiceResponse {
	const requestId = `req_${status}_${Math.floor(Math.random() * 1e6)}`;
	return {
		status,
		headers: { 'content-type': 'application/problem+json', 'x-request-id': requestId, ...headers },
		text: JSON.stringify({ type: 'about:blank', title: String(body.code), requestId, ...body }),
	};
}

function setup(options: { maxInFlight?: number } = {}) {
	const clock = new VirtualClock();
	const service = new FakeService(clock);
	const gate = new CredentialGate(clock.now);
	const random = seeded();
	const controller = new AbortController();
	const poller: PollerOptions = {
		fetchStatus: async (taskId, deadline) =>
			await callService(
				{ method: 'GET', path: `/v1/decks/${encodeURIComponent(taskId)}/status` },
				{ transport: service.transport, sleep: clock.sleep, gate, random, signal: controller.signal, deadline, now: clock.now },
			),
		sleep: clock.sleep,
		now: clock.now,
		gate,
		signal: controller.signal,
		maxInFlight: options.maxInFlight,
	};
	const wait = async (specs: DeckSpec[], hooks: Parameters<VirtualClock['run']>[1] = []) =>
		await clock.run(pollDecks(specs, poller), hooks);
	return { clock, service, gate, controller, wait, startedAt: clock.now() };
}

const deck = (taskId: string, extra: Partial<DeckSpec> = {}): DeckSpec => ({ taskId, intervalMs: INTERVAL, ...extra });

describe('pollDecks on virtual time', () => {
	test('one deck: first read within one interval, then exactly every interval, done on the first read after it finished', async () => {
		const { service, wait, startedAt } = setup();
		service.add('tsk_a', 12 * MINUTE + 1_234);

		const [report] = await wait([deck('tsk_a')]);

		const times = service.requestsOf('tsk_a');
		expect(times[0] - startedAt).toBeLessThan(INTERVAL);
		for (let i = 1; i < times.length; i++) expect(times[i] - times[i - 1]).toBe(INTERVAL);
		const doneAt = startedAt + 12 * MINUTE + 1_234;
		expect(times.at(-1)!).toBeGreaterThanOrEqual(doneAt);
		expect(times.at(-2)!).toBeLessThan(doneAt);
		expect(times.length).toBeLessThanOrEqual(Math.ceil((12 * MINUTE + 1_234) / INTERVAL) + 1);
		expect(report).toMatchObject({ taskId: 'tsk_a', outcome: 'completed', state: 'succeeded', status: 'completed', polls: times.length });
		expect(report.body).toEqual({ taskId: 'tsk_a', status: 'completed', deckUrl: 'https://files.example/tsk_a.pptx' });
		expect(report.requestId).toMatch(/^req_/);
		expect(report.elapsedMs).toBe(times.at(-1)! - startedAt);
	});

	// Replaces "first reads spread over the interval" of the every-deck-every-interval schedule.
	test('1,000 decks share one timer and cost about the floor: N reads + one per interval', async () => {
		const { clock, service, wait, startedAt } = setup();
		const random = seeded(7);
		const durations = Array.from({ length: 1_000 }, () => 10 * MINUTE + random() * 25 * MINUTE);
		const specs = durations.map((ms, i) => deck(service.add(`tsk_${i}`, ms)));

		const reports = await wait(specs);

		expect(reports.every((r) => r.outcome === 'completed')).toBe(true);
		// One schedule: the loop's own sleep is the only timer (no per-deck timers).
		expect(clock.maxPendingTimers).toBe(1);
		const longest = Math.max(...durations);
		const floor = 1_000 + Math.ceil(longest / INTERVAL);
		expect(service.requests.length).toBeLessThanOrEqual(1.25 * floor);
		// Every finished deck was read exactly once after it finished.
		for (let i = 0; i < 1_000; i++) {
			const after = service.requestsOf(`tsk_${i}`).filter((at) => at >= startedAt + durations[i]);
			expect(after).toHaveLength(1);
		}
		// No deck is read twice within one interval.
		for (let i = 0; i < 1_000; i++) {
			const times = service.requestsOf(`tsk_${i}`);
			for (let k = 1; k < times.length; k++) expect(times[k] - times[k - 1]).toBeGreaterThanOrEqual(INTERVAL);
		}
		// Something is read every interval while decks run, and the end is noticed within one.
		const times = service.requests.map((r) => r.at);
		for (let k = 1; k < times.length; k++) expect(times[k] - times[k - 1]).toBeLessThanOrEqual(INTERVAL);
		expect(clock.now() - startedAt).toBeLessThanOrEqual(longest + INTERVAL);
		// elapsed is when the node saw the deck finished: never before it finished, and its last read.
		for (let i = 0; i < 1_000; i++) {
			expect(reports[i].elapsedMs).toBeGreaterThanOrEqual(durations[i]);
			expect(reports[i].elapsedMs).toBe(service.requestsOf(`tsk_${i}`).at(-1)! - startedAt);
		}
	});

	test('the schedule reads past a running deck only on credit earned from finished ones', async () => {
		const { service, wait } = setup();
		// 200 decks finish at once after 1 minute; 200 others run an hour.
		const specs = Array.from({ length: 400 }, (_, i) => deck(service.add(`tsk_${i}`, i % 2 ? 60 * MINUTE : MINUTE), { maxWaitMs: 5 * MINUTE }));

		const reports = await wait(specs);

		expect(reports.filter((r) => r.outcome === 'completed')).toHaveLength(200);
		expect(reports.filter((r) => r.outcome === 'still_running')).toHaveLength(200);
		// Running reads: one a pass (60 passes over 5 minutes) plus at most 15 % of the finished
		// ones and 10 % for the read windows, plus the final pass at Max Wait.
		const runningReads = service.requests.length - 200;
		expect(runningReads).toBeLessThanOrEqual(61 + 0.25 * 200 + 200);
	});

	test('a failed deck goes to failed; status words can be overridden', async () => {
		const { service, wait } = setup();
		service.add('tsk_fail', MINUTE, 'failed');
		service.add('tsk_odd', MINUTE, 'completed', 'archived');

		const words = statusWords({ succeeded: parseWordList('archived, completed') });
		const [failed, odd] = await wait([deck('tsk_fail'), deck('tsk_odd', { words })]);

		expect(failed).toMatchObject({ outcome: 'failed', state: 'failed', status: 'failed' });
		expect(odd).toMatchObject({ outcome: 'completed', state: 'succeeded', status: 'archived' });
		expect(odd.polls).toBe(1);
	});

	test('an unknown status word keeps polling until the deadline and is reported as it came', async () => {
		const { service, wait, startedAt, clock } = setup();
		// still generating (nothing to hand over) at the deadline, under a word on no list
		service.add('tsk_odd', 60 * MINUTE, 'completed', 'Awaiting-Review');

		const [report] = await wait([deck('tsk_odd', { maxWaitMs: 2 * MINUTE })]);

		expect(report).toMatchObject({ outcome: 'still_running', state: 'unknown', status: 'Awaiting-Review' });
		expect(report.polls).toBeGreaterThanOrEqual(24);
		// It stops as soon as the next read would start after the deadline.
		expect(clock.now() - startedAt).toBeLessThanOrEqual(2 * MINUTE);
		expect(report.elapsedMs).toBeGreaterThan(2 * MINUTE - INTERVAL);
	});

	test('max wait: decks still running are reported with their last status and elapsed time', async () => {
		const { service, wait } = setup();
		service.add('tsk_quick', 3 * MINUTE);
		service.add('tsk_slow', 30 * MINUTE);

		const [quick, slow] = await wait([deck('tsk_quick', { maxWaitMs: 10 * MINUTE }), deck('tsk_slow', { maxWaitMs: 10 * MINUTE })]);

		expect(quick.outcome).toBe('completed');
		expect(slow).toMatchObject({ outcome: 'still_running', state: 'running', status: 'generating' });
		expect(slow.elapsedMs).toBeGreaterThan(10 * MINUTE - INTERVAL);
		expect(slow.elapsedMs).toBeLessThanOrEqual(10 * MINUTE);
	});

	test('404 fails the deck with the service detail after one request; other decks carry on', async () => {
		const { service, wait } = setup();
		service.add('tsk_ok', MINUTE);

		const [missing, ok] = await wait([deck('tsk_missing'), deck('tsk_ok')]);

		expect(missing).toMatchObject({ outcome: 'failed', state: 'unknown', polls: 1, requests: 1 });
		expect(missing.failure).toMatchObject({ status: 404, code: 'not_found', detail: 'No deck tsk_missing' });
		expect(missing.requestId).toBe(missing.failure!.requestId);
		expect(ok.outcome).toBe('completed');
	});

	test('401 is about the key: every deck fails at once, without a request per deck', async () => {
		const { service, wait } = setup();
		service.faults = [() => problem(401, { code: 'unauthorized', detail: 'Key revoked', retryable: false })];

		const reports = await wait(Array.from({ length: 200 }, (_, i) => deck(`tsk_${i}`)));

		expect(reports.every((r) => r.outcome === 'failed' && r.failure?.code === 'unauthorized')).toBe(true);
		expect(service.requests.length).toBeLessThan(5);
	});

	test('a 429 pauses every deck of the credential for Retry-After, then polling resumes at the same pace', async () => {
		const { service, wait, startedAt } = setup();
		const specs = Array.from({ length: 100 }, (_, i) => deck(service.add(`tsk_${i}`, 2 * MINUTE)));
		let limitedAt = -1;
		service.faults = [
			(_taskId, at) => {
				if (limitedAt >= 0 || at - startedAt < 30 * SECOND) return undefined;
				limitedAt = at;
				return problem(429, { code: 'rate_limited', detail: 'Slow down', retryable: true, retryAfterMs: 8_000 }, { 'retry-after': '8' });
			},
		];

		const reports = await wait(specs);

		expect(reports.every((r) => r.outcome === 'completed')).toBe(true);
		const during = service.requests.filter((r) => r.at > limitedAt && r.at < limitedAt + 8_000);
		expect(during).toEqual([]);
		// After the pause: no burst, about 100 decks per 5 s as before.
		const after = service.requests.filter((r) => r.at >= limitedAt + 8_000 && r.at < limitedAt + 8_000 + SECOND);
		expect(after.length).toBeLessThanOrEqual(40);
	});

	test('a retryable 503 is retried by the core policy and the deck still completes', async () => {
		const { service, wait } = setup();
		service.add('tsk_a', MINUTE);
		let failures = 3;
		service.faults = [
			() => (failures-- > 0 ? problem(503, { code: 'surface_disabled', detail: 'Off for maintenance', retryable: true }) : undefined),
		];

		const [report] = await wait([deck('tsk_a')]);

		expect(report.outcome).toBe('completed');
		expect(report.requests).toBe(report.polls + 3);
	});

	test('5xx past the retries: the deck stays on the schedule and ends still running with the last failure', async () => {
		const { service, wait } = setup();
		service.add('tsk_a', MINUTE);
		service.faults = [() => problem(500, { code: 'internal_error', detail: 'Boom', retryable: true })];

		const [report] = await wait([deck('tsk_a', { maxWaitMs: MINUTE })]);

		expect(report.outcome).toBe('still_running');
		expect(report.failure).toMatchObject({ code: 'internal_error', detail: 'Boom' });
		// internal_error is retried once per read (the core's budget), then the next read is a new try;
		// the read at Max Wait is not retried, since the retry would start after it.
		expect(report.requests).toBeGreaterThanOrEqual(2 * report.polls - 1);
		expect(report.requests).toBeLessThanOrEqual(2 * report.polls);
		expect(report.polls).toBeGreaterThan(5);
	});

	test('Max Wait is a hard bound: 503 with Retry-After 3 s on every read, Max Wait 3 s, ends at 3 s', async () => {
		const { service, wait, clock, startedAt } = setup();
		service.add('tsk_a', MINUTE);
		service.faults = [
			() => problem(503, { code: 'surface_disabled', detail: 'Off for maintenance', retryable: true, retryAfterMs: 3_000 }, { 'retry-after': '3' }),
		];

		const [report] = await wait([deck('tsk_a', { maxWaitMs: 3 * SECOND })]);

		// Before the fix the core retried on past Max Wait: 6 attempts, 15 s.
		expect(clock.now() - startedAt).toBeLessThanOrEqual(3 * SECOND);
		expect(service.requests.every((r) => r.at <= startedAt + 3 * SECOND)).toBe(true);
		expect(report).toMatchObject({ outcome: 'still_running', failure: { code: 'surface_disabled' } });
		expect(report.requests).toBe(2);
	});

	test('at Max Wait every deck not read within the last interval is read once more', async () => {
		const { service, wait, clock, startedAt } = setup();
		// 100 decks that all run past Max Wait: the passes read one a interval, the last look the rest.
		const specs = Array.from({ length: 100 }, (_, i) => deck(service.add(`tsk_${i}`, 60 * MINUTE), { maxWaitMs: MINUTE }));

		const reports = await wait(specs);

		expect(reports.every((r) => r.outcome === 'still_running' && r.polls >= 1 && r.status === 'generating')).toBe(true);
		expect(service.requests.filter((r) => r.at === startedAt + MINUTE).length).toBeGreaterThan(80);
		expect(clock.now() - startedAt).toBe(MINUTE);
	});

	test('Max Wait is a hard bound for a 429 pause too: nothing waits past it', async () => {
		const { service, wait, clock, startedAt } = setup();
		const specs = Array.from({ length: 20 }, (_, i) => deck(service.add(`tsk_${i}`, MINUTE), { maxWaitMs: 30 * SECOND }));
		service.faults = [
			(_taskId, at) =>
				at - startedAt >= 20 * SECOND
					? problem(429, { code: 'rate_limited', detail: 'Slow down', retryable: true, retryAfterMs: 45_000 }, { 'retry-after': '45' })
					: undefined,
		];

		const reports = await wait(specs);

		expect(clock.now() - startedAt).toBeLessThanOrEqual(30 * SECOND);
		expect(reports.every((r) => r.outcome === 'still_running')).toBe(true);
		expect(service.requests.filter((r) => r.status === 429)).toHaveLength(1);
	});

	test('Check Once: one read per deck, no waiting, routed like a wait', async () => {
		const { clock, service, wait, startedAt } = setup();
		service.add('tsk_done', 0);
		service.add('tsk_failed', 0, 'failed');
		service.add('tsk_running', MINUTE);

		const reports = await wait(['tsk_done', 'tsk_failed', 'tsk_running', 'tsk_missing'].map((id) => deck(id, { once: true })));

		expect(reports.map((r) => r.outcome)).toEqual(['completed', 'failed', 'still_running', 'failed']);
		expect(reports.map((r) => r.polls)).toEqual([1, 1, 1, 1]);
		expect(clock.now()).toBe(startedAt);
		expect(service.requests).toHaveLength(4);
	});

	test('a failure word with no reason is confirmed on the next read before Failed; a stage that moves on is never failed (issue 50)', async () => {
		const { service, wait } = setup();
		service.add('tsk_bare', 0);
		service.add('tsk_stage', 0);
		// `tsk_bare` says "failed" with no reason at every read; `tsk_stage` says "stopped" once (its file uploading), then completed
		const said = new Map<string, number>();
		service.faults.push((taskId) => {
			const reads = said.set(taskId, (said.get(taskId) ?? 0) + 1).get(taskId)!;
			const body = taskId === 'tsk_bare' ? { taskId, status: 'failed' } : reads === 1 ? { taskId, status: 'stopped' } : { taskId, status: 'completed', deckUrl: `https://files.example/${taskId}.pptx` };
			return { status: 200, headers: {}, text: JSON.stringify(body) };
		});
		service.add('tsk_done', 0);

		const [bare, stage] = await wait([deck('tsk_bare'), deck('tsk_stage')]);

		expect(bare).toMatchObject({ outcome: 'failed', state: 'failed', status: 'failed', polls: 2 });
		expect(bare.judgement?.note).toMatch(/a failure confirmed on a second read/);
		expect(stage).toMatchObject({ outcome: 'completed', state: 'succeeded', status: 'completed', polls: 2 });
		// Check Once reads once: the bare word is not yet a failure, and the report says what to confirm
		const [once] = await wait([deck('tsk_bare', { once: true })]);
		expect(once).toMatchObject({ outcome: 'still_running', state: 'running', judgement: { failureToConfirm: 'failed' } });
		// the loop's next check carries it (the item's failureToConfirm) and confirms it
		const [next] = await wait([{ ...deck('tsk_bare', { once: true }), failureToConfirm: 'failed' }]);
		expect(next).toMatchObject({ outcome: 'failed', state: 'failed' });
	});

	test('the same task id twice is read once and reported twice', async () => {
		const { service, wait } = setup();
		service.add('tsk_a', MINUTE);

		const [a, b] = await wait([deck('tsk_a'), deck('tsk_a')]);

		expect(a).toBe(b);
		expect(service.requestsOf('tsk_a')).toHaveLength(a.polls);
	});

	test('reads in flight stay within the bound even when answers are slow', async () => {
		const { service, wait } = setup({ maxInFlight: 8 });
		service.latencyMs = 2_000;
		const specs = Array.from({ length: 100 }, (_, i) => deck(service.add(`tsk_${i}`, MINUTE)));

		const reports = await wait(specs);

		expect(reports.every((r) => r.outcome === 'completed')).toBe(true);
		expect(service.maxInFlight).toBe(8);
	});

	test('a run of finished decks is read in rounds that double, each sent at once', async () => {
		const { service, wait, startedAt } = setup();
		service.latencyMs = 10;
		const specs = Array.from({ length: 200 }, (_, i) => deck(service.add(`tsk_${i}`, MINUTE)));

		const reports = await wait(specs);

		expect(reports.every((r) => r.outcome === 'completed')).toBe(true);
		// The pass after the minute finds all 200 finished: 1, 2, 4, ... 64 at once, not one by one.
		expect(service.maxInFlight).toBe(64);
		const passes = Math.ceil(MINUTE / INTERVAL) + 1;
		expect(service.requests.length).toBe(200 + passes - 1);
		expect(Math.max(...reports.map((r) => r.elapsedMs))).toBeLessThanOrEqual(MINUTE + INTERVAL);
		expect(service.requests.every((r) => r.at >= startedAt)).toBe(true);
	});

	test('slow answers: a deck answered after the last pass began is waited for, so the end is seen within one interval', async () => {
		const { clock, service, wait, startedAt } = setup();
		service.latencyMs = 400;
		// Seeded so the last decks are read in a pass of several rounds just before the end: without
		// the wait the end was seen 1.8 s past one interval.
		const random = seeded(2);
		const durations = Array.from({ length: 40 }, () => MINUTE + random() * 2 * MINUTE);
		const specs = durations.map((ms, i) => deck(service.add(`tsk_${i}`, ms)));

		const reports = await wait(specs);

		expect(reports.every((r) => r.outcome === 'completed')).toBe(true);
		// One interval, plus the last answer.
		expect(clock.now() - startedAt).toBeLessThanOrEqual(Math.max(...durations) + INTERVAL + service.latencyMs);
		for (let i = 0; i < 40; i++) {
			const times = service.requestsOf(`tsk_${i}`);
			for (let k = 1; k < times.length; k++) expect(times[k] - times[k - 1]).toBeGreaterThanOrEqual(INTERVAL);
		}
	});

	test('cancelling ends the wait at once, with no read after it', async () => {
		const { service, wait, controller, startedAt } = setup();
		const specs = Array.from({ length: 50 }, (_, i) => deck(service.add(`tsk_${i}`, 30 * MINUTE)));
		const cancelAt = startedAt + 2 * MINUTE + 1_234;

		await expect(wait(specs, [{ at: cancelAt, do: () => controller.abort() }])).rejects.toBeInstanceOf(CancelledError);

		// One read per interval while every deck runs (the old schedule read all 50 every interval).
		expect(service.requests.length).toBeGreaterThanOrEqual(Math.floor((2 * MINUTE) / INTERVAL));
		expect(service.requests.every((r) => r.at <= cancelAt)).toBe(true);
	});
});

describe('pollDecks against the simulator', () => {
	let sim: Simulator;
	/** Called when a sleep of a second or more begins (the poller waiting out a long interval). */
	let onLongSleep: (() => void) | undefined;
	const realSleep: Sleep = (ms, signal) =>
		new Promise((resolve, reject) => {
			if (ms >= 1_000) onLongSleep?.();
			if (signal?.aborted) return reject(new CancelledError());
			const timer = setTimeout(resolve, ms);
			signal?.addEventListener('abort', () => {
				clearTimeout(timer);
				reject(new CancelledError());
			}, { once: true });
		});

	beforeEach(async () => {
		sim = await start({ seed: 7, clock: { speed: 1 } });
	});
	afterEach(async () => {
		await sim.close();
	});

	async function waitOn(specs: DeckSpec[], key = sim.keys.personal, signal?: AbortSignal): Promise<DeckReport[]> {
		const transport = undiciTransport({ baseUrl: sim.url, apiKey: key, signal });
		const gate = new CredentialGate();
		try {
			return await pollDecks(specs, {
				fetchStatus: async (taskId) =>
					await callService({ method: 'GET', path: `/v1/decks/${encodeURIComponent(taskId)}/status` }, { transport, sleep: realSleep, gate, signal }),
				sleep: realSleep,
				gate,
				signal,
			});
		} finally {
			await transport.close();
		}
	}

	test('completed, failed and not found decks, read every few ms on loopback', async () => {
		const done = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 150, outcome: 'succeeded' });
		const failed = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 100, outcome: 'failed' });
		const others = sim.control.seedDeck({ key: sim.keys.other, durationMs: 50, outcome: 'succeeded' });

		const reports = await waitOn([done, failed, others].map((taskId) => ({ taskId, intervalMs: 10, maxWaitMs: 5_000 })));

		expect(reports.map((r) => r.outcome)).toEqual(['completed', 'failed', 'failed']);
		expect(reports[0].body).toMatchObject({ taskId: done, status: 'completed', progress: 100 });
		expect(reports[0].polls).toBeLessThanOrEqual(Math.ceil(150 / 10) + 3);
		expect(reports[2].failure).toMatchObject({ status: 404, code: 'not_found' });
		expect(reports[2].failure!.requestId).toBe(reports[2].requestId);
	});

	test('a 429 pauses the credential: no deck is read until the wait passed, and every deck completes', async () => {
		sim.control.setLimits({ retryAfterMs: 50 });
		sim.control.setFaults([{ kind: 'status429', method: 'GET', path: /\/status$/, times: 1 }]);
		const ids = Array.from({ length: 10 }, () => sim.control.seedDeck({ key: sim.keys.personal, durationMs: 100, outcome: 'succeeded' }));

		const reports = await waitOn(ids.map((taskId) => ({ taskId, intervalMs: 5, maxWaitMs: 10_000 })));

		expect(reports.every((r) => r.outcome === 'completed')).toBe(true);
		const reads = sim.ledger.requests.filter((r) => r.path.endsWith('/status'));
		expect(reads[0].status).toBe(429);
		// The clock runs at real speed here. Reads already on their way when the 429 came back may
		// still land (about one per deck); without the pause, 10 decks read every 5 ms would make ~100.
		const t0 = reads[0].at;
		const during = reads.filter((r) => r.at > t0 && r.at < t0 + 50);
		expect(during.length).toBeLessThanOrEqual(ids.length);
		expect(reads.some((r) => r.at >= t0 + 50)).toBe(true);
	});

	test('cancelling stops the wait at once, not at the next read', async () => {
		const id = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 60_000, outcome: 'succeeded' });
		const controller = new AbortController();
		// Cancelled as the poller goes to sleep for its 10 s interval, after the first read.
		let abortedAt = 0;
		onLongSleep = () => {
			onLongSleep = undefined;
			// on the next tick: the sleep is then set up and listening for the signal
			setTimeout(() => {
				abortedAt = Date.now();
				controller.abort();
			}, 0);
		};

		try {
			await expect(waitOn([{ taskId: id, intervalMs: 10_000, maxWaitMs: 60_000 }], sim.keys.personal, controller.signal)).rejects.toBeInstanceOf(
				CancelledError,
			);
		} finally {
			onLongSleep = undefined;
		}
		expect(abortedAt).toBeGreaterThan(0);
		// A poller that ignored the signal would sleep out the interval (10 s).
		expect(Date.now() - abortedAt).toBeLessThan(2_000);
		expect(sim.ledger.requests).toHaveLength(1);
	});
});
