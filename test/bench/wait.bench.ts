/**
 * `npm run bench`: Deck Generator Wait, many decks in one execution, against the simulator.
 *
 * What runs: `pollDecks`, the node's scheduler, with exactly the pieces the node gives it
 * (callService with the core's retry policy, a CredentialGate, n8n-workflow's sleep raced with
 * the cancel signal), over the undici transport. Not the whole node through the harness: there
 * every status request also pays n8n's httpRequestWithAuthentication (credential decryption,
 * the header expression, axios), about 2-3 ms of CPU per request in this process. At N = 1,000
 * that is over ten minutes of CPU, and the numbers would describe n8n's request helper rather
 * than the wait. That cost is real for users, so it is measured separately at the end (the
 * "n8n path" line: the real node in a real workflow, N = 10).
 *
 * The simulator runs in a child process (simulator-process.ts), so CPU and RSS here are the
 * poller's own and its server work does not delay the poller's timers.
 *
 * Time compression. Decks last 10-35 sim minutes (the simulator's default draw, seeded) and
 * each is read every 5 sim seconds, so a deck needs about 120-420 reads whatever the speed:
 * N = 1,000 is ~270,000 status requests. At speed S one sim interval is 5,000 / S real ms and
 * the request rate is N × S / 5 per second:
 *   N = 1 and 100 at S = 100: interval 50 ms, ≤ 2,000 req/s, longest deck ≤ 21 s.
 *   N = 1,000 at S = 20:      interval 250 ms, 4,000 req/s, longest deck ≤ 105 s.
 * S = 100 at N = 1,000 would be 20,000 req/s, more than a client and server on two cores can
 * serve, and the numbers would measure the machine's saturation, not the schedule. The naive
 * baseline sends at most one request per interval, so it runs at S = 100 for every N (its
 * ratios are relative to its own ideal, so the speed cancels out). Whole run: about 3.5 minutes.
 *
 * Rate limiting: every run sets the simulator's route bucket 10 % above the polling rate it
 * needs (N reads per interval, per real minute) and counts the 429s it answers.
 */
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

import { callService, CredentialGate, type CallResult } from '../../nodes/shared/client';
import { abortableSleep } from '../../nodes/shared/n8n/transport';
import { CONTRACT_POLL_INTERVAL_MS, pollDecks } from '../../nodes/shared/poller';
import { stateOf, statusWordOf } from '../../nodes/shared/status';
import { undiciTransport } from '../support/undici-transport';
import type { Request, SeedReply, StartReply, StatsReply } from './simulator-process';

const SEED = 20_260_105;
const PLAN = [
	{ n: 1, speed: 100 },
	{ n: 100, speed: 100 },
	{ n: 1_000, speed: 20 },
];
const NAIVE_SPEED = 100;
const BUCKET_HEADROOM = 1.1;
const RSS_SAMPLE_MS = 50;
/**
 * Memory per deck is printed from this N up. Below it, a few MB of allocation churn (a
 * compressed clock means thousands of requests a second, collected later) divided by a
 * small N says nothing about the decks.
 */
const MEMORY_MIN_N = 1_000;
/** The simulator's longest draw (35 sim minutes), in real ms at a speed. */
const longestDeckMs = (speed: number) => (35 * 60_000) / speed;

setFlagsFromString('--expose_gc');
const gc = runInNewContext('gc') as () => void;

/** The simulator child, one request at a time over IPC. */
class SimulatorProcess {
	private readonly child: ChildProcess;
	private nextId = 0;
	private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();

	constructor() {
		this.child = fork(path.join(__dirname, 'simulator-process.ts'), [], {
			execArgv: ['-r', 'ts-node/register/transpile-only'],
			stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
		});
		this.child.on('message', (message: { id: number; result?: unknown; error?: string }) => {
			const waiter = this.pending.get(message.id);
			this.pending.delete(message.id);
			if (message.error) waiter?.reject(new Error(message.error));
			else waiter?.resolve(message.result);
		});
	}

	private async ask<T>(request: Request extends infer R ? (R extends unknown ? Omit<R, 'id'> : never) : never): Promise<T> {
		const id = this.nextId++;
		return await new Promise<T>((resolve, reject) => {
			this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
			this.child.send({ ...request, id });
		});
	}

	start = async (speed: number, routePerMinute: number) =>
		await this.ask<StartReply>({ type: 'start', seed: SEED, speed, limits: { routePerMinute } });
	seed = async (count: number) => await this.ask<SeedReply>({ type: 'seed', count });
	stats = async () => await this.ask<StatsReply>({ type: 'stats' });

	async close(): Promise<void> {
		await this.ask({ type: 'stop' });
		this.child.disconnect();
	}
}

type Kind = 'poller' | 'naive';

interface Row {
	kind: Kind;
	n: number;
	speed: number;
	intervalMs: number;
	wallMs: number;
	idealMs: number;
	requestsPerDeck: number;
	idealPerDeck: number;
	worstExtra: number;
	statusRequests: number;
	cpuMsPerRequest: number;
	peakRssMb: number;
	kbPerDeck: number;
	heapKbPerDeck: number;
	rateLimited: number;
	simCpuMs: number;
	unfinished: number;
}

function isTerminal(result: CallResult): boolean {
	if (result.outcome.route !== 'success') return !result.outcome.failure.retryable;
	const state = stateOf(statusWordOf(result.outcome.body));
	return state === 'succeeded' || state === 'failed';
}

/** The loop a simple workflow would run: one deck after another, each read until it is done. */
async function naiveWait(taskIds: string[], fetchStatus: (taskId: string) => Promise<CallResult>, intervalMs: number): Promise<number[]> {
	const requests: number[] = [];
	for (const taskId of taskIds) {
		let count = 0;
		for (;;) {
			const result = await fetchStatus(taskId);
			count += result.attempts;
			if (isTerminal(result)) break;
			await abortableSleep(intervalMs);
		}
		requests.push(count);
	}
	return requests;
}

async function measure(sim: SimulatorProcess, kind: Kind, n: number, speed: number): Promise<Row> {
	const intervalMs = CONTRACT_POLL_INTERVAL_MS / speed;
	const neededPerMinute = (n * 60_000) / intervalMs;
	const { url, apiKey } = await sim.start(speed, Math.ceil(neededPerMinute * BUCKET_HEADROOM));
	const transport = undiciTransport({ baseUrl: url, apiKey, connections: 64 });
	const gate = new CredentialGate();
	const fetchStatus = async (taskId: string) =>
		await callService({ method: 'GET', path: `/v1/decks/${encodeURIComponent(taskId)}/status` }, { transport, sleep: abortableSleep, gate });

	gc();
	const { rss: rssBefore, heapUsed: heapBefore } = process.memoryUsage();
	let peakRss = rssBefore;
	const sampler = setInterval(() => {
		peakRss = Math.max(peakRss, process.memoryUsage.rss());
	}, RSS_SAMPLE_MS);
	// Halfway through, what the waiting decks keep alive: live heap after a full collection.
	let heapMid = heapBefore;
	let gcCpuMs = 0;
	const midway = setTimeout(() => {
		const cpu = process.cpuUsage();
		gc();
		heapMid = process.memoryUsage().heapUsed;
		const spent = process.cpuUsage(cpu);
		// The forced collection is the benchmark's, not the wait's: kept out of CPU per request.
		gcCpuMs = (spent.user + spent.system) / 1000;
	}, longestDeckMs(speed) / 2);

	const cpuBefore = process.cpuUsage();
	const startedAt = performance.now();
	const { taskIds, durationsMs } = await sim.seed(n);
	let requests: number[];
	let unfinished = 0;
	if (kind === 'poller') {
		const reports = await pollDecks(
			taskIds.map((taskId) => ({ taskId, intervalMs, maxWaitMs: 24 * 60 * 60_000 })),
			{ fetchStatus, sleep: abortableSleep, gate },
		);
		requests = reports.map((report) => report.requests);
		unfinished = reports.filter((report) => report.outcome !== 'completed').length;
	} else {
		requests = await naiveWait(taskIds, fetchStatus, intervalMs);
	}
	const wallMs = performance.now() - startedAt;
	const cpu = process.cpuUsage(cpuBefore);
	clearInterval(sampler);
	clearTimeout(midway);
	peakRss = Math.max(peakRss, process.memoryUsage.rss());
	await transport.close();

	const stats = await sim.stats();
	const ideal = durationsMs.map((duration) => Math.ceil(duration / CONTRACT_POLL_INTERVAL_MS) + 1);
	return {
		kind,
		n,
		speed,
		intervalMs,
		wallMs,
		idealMs: Math.max(...durationsMs) / speed,
		requestsPerDeck: sum(requests) / n,
		idealPerDeck: sum(ideal) / n,
		worstExtra: Math.max(...requests.map((count, i) => count - ideal[i])),
		statusRequests: stats.statusRequests,
		cpuMsPerRequest: ((cpu.user + cpu.system) / 1000 - gcCpuMs) / stats.statusRequests,
		peakRssMb: peakRss / 2 ** 20,
		kbPerDeck: (peakRss - rssBefore) / 1024 / n,
		heapKbPerDeck: (heapMid - heapBefore) / 1024 / n,
		rateLimited: stats.rateLimited,
		simCpuMs: stats.cpuMs,
		unfinished,
	};
}

function sum(values: number[]): number {
	return values.reduce((total, value) => total + value, 0);
}

const COLUMNS: Array<[title: string, width: number, cell: (row: Row) => string]> = [
	['run', 7, (r) => r.kind],
	['N', 6, (r) => String(r.n)],
	['speed', 6, (r) => `${r.speed}x`],
	['int ms', 7, (r) => r.intervalMs.toFixed(0)],
	['wall s', 8, (r) => (r.wallMs / 1000).toFixed(2)],
	['ideal s', 8, (r) => (r.idealMs / 1000).toFixed(2)],
	['wall/ideal', 11, (r) => (r.wallMs / r.idealMs).toFixed(4)],
	['target', 8, (r) => ((1.02 * r.idealMs + r.intervalMs) / r.idealMs).toFixed(4)],
	['req/deck', 9, (r) => r.requestsPerDeck.toFixed(1)],
	['ideal', 7, (r) => r.idealPerDeck.toFixed(1)],
	['ratio', 7, (r) => (r.requestsPerDeck / r.idealPerDeck).toFixed(3)],
	['worst+', 7, (r) => String(r.worstExtra)],
	['requests', 9, (r) => String(r.statusRequests)],
	['CPU ms/req', 11, (r) => r.cpuMsPerRequest.toFixed(3)],
	['peak RSS MB', 12, (r) => r.peakRssMb.toFixed(1)],
	['RSS KB/deck', 12, (r) => (r.n >= MEMORY_MIN_N ? r.kbPerDeck.toFixed(2) : '-')],
	['live KB/deck', 13, (r) => (r.n >= MEMORY_MIN_N ? r.heapKbPerDeck.toFixed(2) : '-')],
	['429s', 6, (r) => String(r.rateLimited)],
	['429 %', 7, (r) => ((100 * r.rateLimited) / r.statusRequests).toFixed(2)],
	['targets', 8, targets],
];

/**
 * wall ≤ 1.02 × ideal + one interval; worst deck ≤ ideal + 1 reads; ≤ 20 KB per waiting deck;
 * 429s ≤ 1 %. Memory is judged on N = 1,000, where decks, not the allocation churn of a
 * compressed clock (thousands of requests a second, collected later), decide the RSS.
 */
function targets(row: Row): string {
	const misses: string[] = [];
	if (row.wallMs > 1.02 * row.idealMs + row.intervalMs) misses.push('W');
	if (row.worstExtra > 1) misses.push('R');
	if (row.n >= MEMORY_MIN_N && (row.kbPerDeck > 20 || row.heapKbPerDeck > 20)) misses.push('M');
	if (row.rateLimited > 0.01 * row.statusRequests) misses.push('L');
	if (row.unfinished > 0) misses.push('U');
	return misses.length ? `MISS ${misses.join('')}` : 'ok';
}

function line(cells: string[]): string {
	return cells.map((cell, i) => cell.padStart(COLUMNS[i][1])).join(' ');
}

function printTable(rows: Row[]): void {
	console.log(line(COLUMNS.map(([title]) => title)));
	for (const row of rows) console.log(line(COLUMNS.map(([, , cell]) => cell(row))));
}

/** The real node in a real workflow (harness, n8n-core), to show what n8n's request helper costs. */
async function n8nPath(sim: SimulatorProcess): Promise<string> {
	const { runWorkflow } = await import('../harness');
	const { loadWorkflow } = await import('../workflows/wait/run');
	const speed = 100;
	const { url, apiKey } = await sim.start(speed, 10_000_000);
	const workflow = loadWorkflow('wait-until-done');
	const wait = workflow.nodes.find((node) => node.name === 'Wait for Decks')!;
	wait.parameters = { ...wait.parameters, options: { pollIntervalSeconds: CONTRACT_POLL_INTERVAL_MS / speed / 1000, maxWaitMinutes: 60 } };
	const credentials = { deckGenApi: { apiKey, baseUrl: url } };
	// Once to load n8n-core and the node, then measured.
	await runWorkflow(workflow, { credentials, inputItems: [{ json: { taskId: 'tsk_warm_up' } }] });
	const before = await sim.stats();
	const { taskIds } = await sim.seed(10);
	const cpuBefore = process.cpuUsage();
	const startedAt = performance.now();
	const result = await runWorkflow(workflow, { credentials, inputItems: taskIds.map((taskId) => ({ json: { taskId } })) });
	const wallMs = performance.now() - startedAt;
	const cpu = process.cpuUsage(cpuBefore);
	const after = await sim.stats();
	const requests = after.statusRequests - before.statusRequests;
	const completed = result.output('Wait for Decks', 0).length;
	return `n8n path (harness, real node, N = 10, ${speed}x): ${completed}/10 completed, ${requests} status requests in ${(wallMs / 1000).toFixed(1)} s, CPU ${((cpu.user + cpu.system) / 1000 / requests).toFixed(3)} ms/request`;
}

async function main(): Promise<void> {
	const sim = new SimulatorProcess();
	try {
		console.log('Deck Generator Wait benchmark');
		console.log(`pollDecks + callService + undici, simulator in a child process, seed ${SEED}, decks 10-35 sim min, interval 5 sim s`);
		console.log('');
		// Warm-up: JIT, undici's connection pool, the simulator's code paths.
		await measure(sim, 'poller', 20, 1_000);

		const rows: Row[] = [];
		for (const { n, speed } of PLAN) rows.push(await measure(sim, 'poller', n, speed));
		for (const { n } of PLAN) rows.push(await measure(sim, 'naive', n, NAIVE_SPEED));
		printTable(rows);

		console.log('');
		console.log('poller vs naive (one deck after another), same N:');
		console.log(['N', 'wall/ideal', 'requests', 'CPU ms', 'peak RSS'].map((title, i) => title.padStart(i ? 12 : 6)).join(' '));
		for (const { n } of PLAN) {
			const ours = rows.find((row) => row.kind === 'poller' && row.n === n)!;
			const naive = rows.find((row) => row.kind === 'naive' && row.n === n)!;
			const ratio = (a: number, b: number) => `${(a / b).toFixed(3)}x`.padStart(12);
			console.log(
				[
					String(n).padStart(6),
					ratio(ours.wallMs / ours.idealMs, naive.wallMs / naive.idealMs),
					ratio(ours.statusRequests, naive.statusRequests),
					ratio(ours.cpuMsPerRequest * ours.statusRequests, naive.cpuMsPerRequest * naive.statusRequests),
					ratio(ours.peakRssMb, naive.peakRssMb),
				].join(' '),
			);
		}
		console.log('');
		console.log(await n8nPath(sim));
		console.log('');
		console.log('RSS KB/deck: (peak RSS during the wait - RSS before) / N; live KB/deck: heap kept alive halfway through the wait,');
		console.log('after a full GC, / N. Both from N = 1,000 only: at small N the churn of a compressed clock swamps them.');
		console.log('Peak RSS includes ts-node and the TypeScript compiler (about 190 MB before any deck).');
		console.log('targets: W wall <= 1.02 x ideal + one interval; R worst deck <= ideal + 1 reads; M <= 20 KB per deck, RSS and live;');
		console.log('         L 429s <= 1 % of requests; U every deck completed');
	} finally {
		await sim.close();
	}
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
