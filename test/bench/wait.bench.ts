/**
 * `npm run bench`: "Wait Until Done" on N decks, schedules side by side on the same decks, against
 * the simulator in a child process. Exits non-zero when a target of the new schedule is missed.
 *
 *   npm run bench -- --decks 1000 --decks 10000 [--speed S] [--json out.json] [--schedule new]
 *
 * Schedules (the same seeded decks for every schedule at one N: 10-35 sim minutes, 5 sim s interval):
 *   new         the Wait node itself, through the in-process harness (n8n-core, n8n's request
 *               helper): its CPU is n8n's, not undici's
 *   old         every deck every interval (the node before this change), over undici
 *   loopPerDeck one loop per deck, all started together (what a user builds by hand), over undici
 *   sequential  one deck after another, over undici
 *   earlyFile   the Wait node on records that link the deck's file from the first read and carry no status word
 *               (Creatomate's render object without its word): only the file can say a deck is done, so
 *               the deck's file is checked at every read of it (issue 43). Its `file req/deck` column is what
 *               that costs.
 *   floor       the request floor, N + ceil(T / interval), run through the same node path as `new`
 *               (n8n's request helper, the core's retries and gate) by an oracle told when each deck
 *               finishes: each interval it reads the decks finished since the last one, plus one still
 *               running to notice the end (test/harness/nodes/HarnessFloorOracle.node.ts). Its CPU is
 *               what the fewest possible reads cost on this machine.
 * The costly ones (old, loopPerDeck: ~270 reads a deck; sequential: reads in series) stop at N = 1,000.
 *
 * Time runs `--speed` times fast on the simulator's clock and in the node's interval (5 s / speed),
 * so wall figures are in sim seconds (default: 20x, 5x from 5,000 decks, see defaultSpeed). The per-credential bucket sits at 1.1 × the rate that reads
 * every deck once per interval (N / 5 s), on a 1 sim-second window (`limits.bucketWindowMs`), so a
 * schedule that bursts meets real 429s.
 *
 * Targets of earlyFile (every N): every deck completed; reads <= 1.25 × floor; file requests <= status reads;
 * wall <= T + 2 intervals + the last sweep.
 * Targets (new schedule, every N >= 1,000): reads <= 1.25 × floor; wall <= T + 2 intervals + the
 * last sweep at the bucket's rate; no deck read twice within 5 sim s; 429s <= 1 % of reads;
 * CPU <= 1.5 × the floor's CPU at the same N in the same run; live memory per waiting deck
 * <= 2 KB (slope across N).
 * CPU is judged against the floor measured on the same machine, not a fixed figure: a status read
 * through n8n's request helper opens a new connection, and what that costs depends on the machine.
 * The issue's 3 CPU-s per 1,000 decks assumed 0.65-1.2 ms a read, i.e. at least
 * 3,000 / (1,420 reads × 1.2 ms) = 1.76 × the floor at N = 1,000 (2.4 × at 10,000); on the 2-core
 * machine this was built on a read costs about 2.2 ms and the floor alone 2.9-3.5 CPU-s per 1,000
 * decks. 1.5 × keeps the issue's figure, made stricter, and machine-independent.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

import type { INode, INodeExecutionData } from 'n8n-workflow';

import { callService, type CredentialGate } from '../../nodes/shared/client';
import { abortableSleep } from '../../nodes/shared/n8n/transport';
import { CONTRACT_POLL_INTERVAL_MS } from '../../nodes/shared/poller';
import { undiciTransport } from '../support/undici-transport';
import { everyDeckEveryInterval, loopPerDeck, oneAfterAnother, type FetchStatus } from './baselines';
import type { ProfileChoices } from '../simulator';
import type { Request, SeedReply, StartReply, StatsReply } from './simulator-process';

const SEED = 20_260_105;
const BUCKET_HEADROOM = 1.1;
const BUCKET_WINDOW_SIM_MS = 1_000;
const COSTLY_MAX_N = 1_000;
const TARGETS = { readsOverFloor: 1.25, minGapS: 5, share429: 0.01, cpuOverFloor: 1.5, liveKbPerDeck: 2, fromN: 1_000, fileRequestsOverReads: 1 };
/** The issue's fixed CPU figure, printed beside the measured floor for comparison. */
const ISSUE_CPU_MS_PER_1000_DECKS = 3_000;

type Schedule = 'new' | 'earlyFile' | 'old' | 'loopPerDeck' | 'sequential' | 'floor';

/** What the simulator's records look like for a schedule: earlyFile's link the file from the first read and carry no word. */
const CHOICES: Partial<Record<Schedule, Partial<ProfileChoices>>> = { earlyFile: { service: 'creatomate', omitStatusWord: true } };

interface BenchRecord {
	schedule: Schedule;
	n: number;
	reads: number;
	floor: number;
	readsOverFloor: number;
	wallS: number;
	limitS: number;
	requests429: number;
	cpuMsPer1000Decks: number | null;
	/** CPU over the floor schedule's CPU at the same N (new schedule only). */
	cpuOverFloor: number | null;
	liveKbPerDeck: number | null;
	/** Extra columns: what the targets also need, and how the run was made. */
	minGapS: number | null;
	completed: number;
	lastSweep: number;
	/** From seeding the decks to the first status read (the node reading its items), sim s. */
	firstReadS: number;
	/** Status reads per 100 sim seconds. */
	readsPer100S: number[];
	/** From the last status read to the end of the run (n8n finishing the workflow included), sim s. */
	tailS: number;
	longestS: number;
	speed: number;
	path: 'n8n node (harness)' | 'undici';
	/** Live heap kept per deck in this run (midway, after a full GC, minus before) / N. */
	runKbPerDeck: number | null;
	/** Requests for decks' files (file checks and downloads) per deck. */
	fileRequestsPerDeck: number;
	misses: string[];
}

setFlagsFromString('--expose_gc');
const gc = runInNewContext('gc') as () => void;

/**
 * Default speed: 20x, and 5x from 5,000 decks. Near the end of a batch the node reads most decks
 * within a few minutes (sim time); compressed 20x at N = 10,000 that is over 1,000 reads a real
 * second, more than one n8n process and the simulator can serve on 2 cores, and the wall figure
 * would measure the machine instead of the schedule.
 */
const defaultSpeed = (n: number) => (n >= 5_000 ? 5 : 20);

function parseArgs(argv: string[]): { decks: number[]; speed?: number; json?: string; only: Set<string> } {
	const decks: number[] = [];
	const only = new Set<string>();
	let speed: number | undefined;
	let json: string | undefined;
	for (let i = 0; i < argv.length; i++) {
		const value = argv[i + 1];
		if (argv[i] === '--decks') decks.push(Number(value));
		else if (argv[i] === '--speed') speed = Number(value);
		else if (argv[i] === '--json') json = value;
		else if (argv[i] === '--schedule') only.add(value);
		else throw new Error(`Unknown option ${argv[i]}; use --decks N (repeatable), --speed S, --json FILE, --schedule NAME (repeatable)`);
		i++;
	}
	if (decks.some((n) => !Number.isInteger(n) || n < 1)) throw new Error('--decks takes a whole number of decks, e.g. --decks 1000');
	if (speed !== undefined && !(speed > 0)) throw new Error('--speed takes a number above 0, e.g. --speed 20');
	return { decks: decks.length ? [...new Set(decks)].sort((a, b) => a - b) : [1_000, 10_000], speed, json, only };
}

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

	/** A fresh simulator whose per-credential buckets allow `perSimSecond` reads on a 1 sim-second window. */
	start = async (speed: number, perSimSecond: number, choices?: Partial<ProfileChoices>) => {
		const perRealMinute = Math.ceil(perSimSecond * speed * 60);
		return await this.ask<StartReply>({
			type: 'start',
			seed: SEED,
			speed,
			limits: { routePerMinute: perRealMinute, principalPerMinute: 10 * perRealMinute, bucketWindowMs: BUCKET_WINDOW_SIM_MS / speed },
			choices,
		});
	};
	seed = async (count: number) => await this.ask<SeedReply>({ type: 'seed', count });
	stats = async (intervalMs: number) => await this.ask<StatsReply>({ type: 'stats', intervalMs });

	async close(): Promise<void> {
		await this.ask({ type: 'stop' });
		this.child.disconnect();
	}
}

/** The reads every deck once per interval would need, per sim second: what the bucket is sized on. */
const neededPerSimSecond = (n: number) => (n * 1_000) / CONTRACT_POLL_INTERVAL_MS;
const floorOf = (n: number, longestMs: number) => n + Math.ceil(longestMs / CONTRACT_POLL_INTERVAL_MS);

/** Live heap after a full collection; the collection's own CPU is kept out of the run's figure. */
function liveHeap(): { bytes: number; gcCpuMs: number } {
	const cpu = process.cpuUsage();
	gc();
	const spent = process.cpuUsage(cpu);
	return { bytes: process.memoryUsage().heapUsed, gcCpuMs: (spent.user + spent.system) / 1_000 };
}

interface Run {
	completed: number;
	/** When the waiting ended (Date.now ms): the Wait node's run ended, or the baseline returned. */
	endedAt: number;
}

/**
 * One node in a real workflow (n8n-core, n8n's request helper, the credential's gate): the Wait
 * node's test workflow, its Wait node set up by `setUp` (parameters, or another node type).
 */
async function runInN8n(url: string, apiKey: string, inputItems: INodeExecutionData[], setUp: (node: INode) => void): Promise<Run> {
	const { runWorkflow } = await import('../harness');
	const { loadWorkflow, WAIT_NODE } = await import('../workflows/wait/run');
	const workflow = loadWorkflow('wait-until-done');
	setUp(workflow.nodes.find((node) => node.name === WAIT_NODE)!);
	const result = await runWorkflow(workflow, { credentials: { deckGenApi: { apiKey, baseUrl: url } }, inputItems });
	if (result.status !== 'success') throw new Error(`The workflow ended ${result.status}: ${String(result.error?.message)}`);
	const nodeRun = result.runData[WAIT_NODE][0];
	return { completed: result.output(WAIT_NODE, 0).length, endedAt: nodeRun.startTime + nodeRun.executionTime };
}

/** The Wait node itself. */
async function runNode(url: string, apiKey: string, taskIds: string[], speed: number): Promise<Run> {
	const items = taskIds.map((taskId) => ({ json: { taskId } }));
	return await runInN8n(url, apiKey, items, (wait) => {
		wait.parameters = { ...wait.parameters, options: { pollIntervalSeconds: CONTRACT_POLL_INTERVAL_MS / speed / 1_000, maxWaitMinutes: 60 } };
	});
}

/** The floor: the oracle node on the same path, told when each deck finishes (real clock). */
async function runFloor(url: string, apiKey: string, seeded: SeedReply, speed: number): Promise<Run> {
	// 1 real ms after the simulator's end: the two processes read the same wall clock.
	const items = seeded.taskIds.map((taskId, i) => ({ json: { taskId, dueAt: seeded.seededAtReal + seeded.durationsMs[i] / speed + 1 } }));
	return await runInN8n(url, apiKey, items, (node) => {
		node.type = 'CUSTOM.harnessFloorOracle';
		node.parameters = { intervalMs: CONTRACT_POLL_INTERVAL_MS / speed };
	});
}

async function runBaseline(schedule: 'old' | 'loopPerDeck' | 'sequential', url: string, apiKey: string, taskIds: string[], speed: number): Promise<Run> {
	const transport = undiciTransport({ baseUrl: url, apiKey, connections: 64 });
	const fetchStatus: FetchStatus = async (taskId: string, gate?: CredentialGate) =>
		await callService({ method: 'GET', path: `/v1/decks/${encodeURIComponent(taskId)}/status` }, { transport, sleep: abortableSleep, gate });
	const intervalMs = CONTRACT_POLL_INTERVAL_MS / speed;
	try {
		const run = { old: everyDeckEveryInterval, loopPerDeck, sequential: oneAfterAnother }[schedule];
		await run(taskIds, fetchStatus, intervalMs);
		return { completed: taskIds.length, endedAt: Date.now() };
	} finally {
		await transport.close();
	}
}

async function measure(sim: SimulatorProcess, schedule: Schedule, n: number, speed: number): Promise<BenchRecord> {
	const { url, apiKey } = await sim.start(speed, BUCKET_HEADROOM * neededPerSimSecond(n), CHOICES[schedule]);
	const seeded = await sim.seed(n);
	const longestMs = seeded.durationsMs.reduce((max, ms) => Math.max(max, ms), 0);

	const before = liveHeap();
	// Halfway through the longest deck: what the waiting decks keep alive.
	let midway: { bytes: number; gcCpuMs: number } | undefined;
	const timer = setTimeout(() => (midway = liveHeap()), longestMs / speed / 2);
	const cpuBefore = process.cpuUsage();
	let run: Run;
	try {
		if (schedule === 'new' || schedule === 'earlyFile') run = await runNode(url, apiKey, seeded.taskIds, speed);
		else if (schedule === 'floor') run = await runFloor(url, apiKey, seeded, speed);
		else run = await runBaseline(schedule, url, apiKey, seeded.taskIds, speed);
	} finally {
		clearTimeout(timer);
	}
	const cpu = process.cpuUsage(cpuBefore);
	const stats = await sim.stats(CONTRACT_POLL_INTERVAL_MS);
	const cpuMs = (cpu.user + cpu.system) / 1_000 - (midway?.gcCpuMs ?? 0);
	const floor = floorOf(n, longestMs);
	const bucketPerSimSecond = BUCKET_HEADROOM * neededPerSimSecond(n);
	return {
		schedule,
		n,
		reads: stats.statusRequests,
		floor,
		readsOverFloor: stats.statusRequests / floor,
		// Until the node emitted its items (n8n's own wrap-up after that is the tail column).
		wallS: (stats.now - (stats.realNow - run.endedAt) * speed - seeded.seededAt) / 1_000,
		limitS: (longestMs + 2 * CONTRACT_POLL_INTERVAL_MS) / 1_000 + stats.lastSweep / bucketPerSimSecond,
		requests429: stats.rateLimited,
		cpuMsPer1000Decks: (cpuMs * 1_000) / n,
		cpuOverFloor: null,
		liveKbPerDeck: null,
		minGapS: stats.minGapMs === null ? null : stats.minGapMs / 1_000,
		completed: run.completed,
		lastSweep: stats.lastSweep,
		tailS: (stats.now - stats.lastReadAt) / 1_000,
		firstReadS: (stats.firstReadAt - seeded.seededAt) / 1_000,
		readsPer100S: stats.readsPer100S,
		longestS: longestMs / 1_000,
		speed,
		path: schedule === 'old' || schedule === 'loopPerDeck' || schedule === 'sequential' ? 'undici' : 'n8n node (harness)',
		runKbPerDeck: midway ? (midway.bytes - before.bytes) / 1_024 / n : null,
		fileRequestsPerDeck: stats.fileRequests / n,
		misses: [],
	};
}

/** Live memory per waiting deck as the slope of live heap over N (fixed costs cancel out). */
function memorySlope(records: BenchRecord[]): void {
	const bySchedule = new Map<Schedule, BenchRecord[]>();
	for (const record of records) if (record.runKbPerDeck !== null) bySchedule.set(record.schedule, [...(bySchedule.get(record.schedule) ?? []), record]);
	for (const runs of bySchedule.values()) {
		if (runs.length < 2) {
			for (const run of runs) run.liveKbPerDeck = run.runKbPerDeck;
			continue;
		}
		// Least squares of total live KB against N.
		const xs = runs.map((run) => run.n);
		const ys = runs.map((run) => run.runKbPerDeck! * run.n);
		const mx = xs.reduce((a, b) => a + b) / xs.length;
		const my = ys.reduce((a, b) => a + b) / ys.length;
		const slope = xs.reduce((sum, x, i) => sum + (x - mx) * (ys[i] - my), 0) / xs.reduce((sum, x) => sum + (x - mx) ** 2, 0);
		for (const run of runs) run.liveKbPerDeck = slope;
	}
}

function judge(record: BenchRecord, records: BenchRecord[]): void {
	if (record.schedule === 'earlyFile') {
		if (record.completed !== record.n) record.misses.push(`${record.n - record.completed} decks not completed`);
		if (record.fileRequestsPerDeck * record.n > TARGETS.fileRequestsOverReads * record.reads) {
			record.misses.push(`file requests ${(record.fileRequestsPerDeck * record.n).toFixed(0)} > ${TARGETS.fileRequestsOverReads} x ${record.reads} reads`);
		}
		if (record.wallS > record.limitS) record.misses.push(`wall ${record.wallS.toFixed(1)} s > ${record.limitS.toFixed(1)} s`);
		if (record.readsOverFloor > TARGETS.readsOverFloor) record.misses.push(`reads ${record.readsOverFloor.toFixed(3)} x floor > ${TARGETS.readsOverFloor}`);
		return;
	}
	if (record.schedule !== 'new' || record.n < TARGETS.fromN) return;
	const floor = records.find((other) => other.schedule === 'floor' && other.n === record.n);
	const misses = record.misses;
	if (record.readsOverFloor > TARGETS.readsOverFloor) misses.push(`reads ${record.readsOverFloor.toFixed(3)} x floor > ${TARGETS.readsOverFloor}`);
	if (record.wallS > record.limitS) misses.push(`wall ${record.wallS.toFixed(1)} s > ${record.limitS.toFixed(1)} s`);
	// The node and the simulator keep time on two clocks (Date.now, performance.now): 1 real ms of slack.
	if (record.minGapS !== null && record.minGapS < TARGETS.minGapS - record.speed / 1_000) misses.push(`a deck read ${record.minGapS.toFixed(2)} s after its last read`);
	if (record.requests429 > TARGETS.share429 * record.reads) misses.push(`${record.requests429} 429s > 1 %`);
	if (!floor?.cpuMsPer1000Decks) misses.push('CPU not judged: no floor run at this N');
	else {
		record.cpuOverFloor = record.cpuMsPer1000Decks! / floor.cpuMsPer1000Decks;
		if (record.cpuOverFloor > TARGETS.cpuOverFloor) misses.push(`CPU ${record.cpuOverFloor.toFixed(2)} x the floor's > ${TARGETS.cpuOverFloor}`);
	}
	if ((record.liveKbPerDeck ?? 0) > TARGETS.liveKbPerDeck) misses.push(`live ${(record.liveKbPerDeck ?? 0).toFixed(2)} KB per deck > 2`);
	if (record.completed !== record.n) misses.push(`${record.n - record.completed} decks not completed`);
}

const COLUMNS: Array<[title: string, width: number, cell: (r: BenchRecord) => string]> = [
	['schedule', 11, (r) => r.schedule],
	['N', 6, (r) => String(r.n)],
	['speed', 5, (r) => (r.speed ? `${r.speed}x` : '-')],
	['reads', 8, (r) => String(r.reads)],
	['floor', 7, (r) => String(r.floor)],
	['reads/floor', 11, (r) => r.readsOverFloor.toFixed(3)],
	['wall s', 8, (r) => r.wallS.toFixed(1)],
	['limit s', 8, (r) => r.limitS.toFixed(1)],
	['last sweep', 10, (r) => String(r.lastSweep)],
	['first read s', 12, (r) => r.firstReadS.toFixed(1)],
	['tail s', 7, (r) => r.tailS.toFixed(1)],
	['min gap s', 9, (r) => (r.minGapS === null ? '-' : r.minGapS.toFixed(2))],
	['429s', 6, (r) => String(r.requests429)],
	['CPU ms/1k decks', 15, (r) => (r.cpuMsPer1000Decks === null ? '-' : r.cpuMsPer1000Decks.toFixed(0))],
	['CPU/floor', 9, (r) => (r.cpuOverFloor === null ? '-' : r.cpuOverFloor.toFixed(2))],
	['live KB/deck', 12, (r) => (r.liveKbPerDeck === null ? '-' : r.liveKbPerDeck.toFixed(2))],
	['path', 18, (r) => r.path],
	['file req/deck', 13, (r) => r.fileRequestsPerDeck.toFixed(2)],
	['targets', 7, (r) => ((r.schedule !== 'new' || r.n < TARGETS.fromN) && r.schedule !== 'earlyFile' ? '' : r.misses.length ? 'MISS' : 'ok')],
];

function printTable(records: BenchRecord[]): void {
	const line = (cells: string[]) => cells.map((cell, i) => cell.padStart(COLUMNS[i][1])).join(' ');
	console.log(line(COLUMNS.map(([title]) => title)));
	for (const record of records) console.log(line(COLUMNS.map(([, , cell]) => cell(record))));
}

async function main(): Promise<void> {
	const { decks, speed, json, only } = parseArgs(process.argv.slice(2));
	const startedAt = performance.now();
	const elapsed = () => `${((performance.now() - startedAt) / 1_000).toFixed(0)} s`;
	const sim = new SimulatorProcess();
	const records: BenchRecord[] = [];
	try {
		const speedOf = (n: number) => speed ?? defaultSpeed(n);
		console.log(`Deck Generator Wait benchmark: decks ${decks.map((n) => `${n} at ${speedOf(n)}x`).join(', ')}, seed ${SEED}`);
		// Warm-up: n8n-core and the node load, JIT, connection pools, the simulator's code paths.
		await measure(sim, 'new', 20, 1_000);
		await measure(sim, 'old', 20, 1_000);
		await measure(sim, 'floor', 20, 1_000);
		console.log(`[${elapsed()}] warmed up`);

		for (const n of decks) {
			const schedules: Schedule[] = ['new', 'floor', ...(n <= COSTLY_MAX_N ? (['earlyFile', 'old', 'loopPerDeck', 'sequential'] as const) : [])];
			// The new schedule's CPU is judged against the floor's, so choosing it brings the floor along.
			const chosen = (name: Schedule) => only.size === 0 || only.has(name) || (name === 'floor' && only.has('new'));
			for (const schedule of schedules.filter(chosen)) {
				console.log(`[${elapsed()}] ${schedule}, N = ${n} ...`);
				const record = await measure(sim, schedule, n, speedOf(n));
				records.push(record);
				console.log(
					`[${elapsed()}] ${schedule}, N = ${n}: ${record.reads} reads (${record.readsOverFloor.toFixed(3)} x floor), wall ${record.wallS.toFixed(1)} s of ${record.limitS.toFixed(1)}, ${record.requests429} 429s`,
				);
				if (process.env.BENCH_TIMELINE) console.log(`  reads per 100 sim s: ${record.readsPer100S.join(' ')}`);
			}
		}
	} finally {
		await sim.close();
	}

	memorySlope(records);
	for (const record of records) judge(record, records);
	console.log('');
	printTable(records);
	console.log('');
	console.log(`wall, limit, first read, tail and min gap in sim seconds; limit = T + 2 intervals + last sweep at the bucket's rate`);
	console.log('old and loopPerDeck read every deck every interval only while the machine keeps up: their reads are a lower bound');
	console.log('bucket: 1.1 x N reads / 5 s on a 1 sim-second window; live KB/deck: slope of live heap (after a full GC, halfway) over N');
	for (const floor of records.filter((record) => record.schedule === 'floor' && record.cpuMsPer1000Decks !== null)) {
		const perRead = (floor.cpuMsPer1000Decks! * floor.n) / 1_000 / floor.reads;
		console.log(
			`CPU at N = ${floor.n}: the floor itself costs ${(floor.cpuMsPer1000Decks! / 1_000).toFixed(2)} CPU-s per 1,000 decks here (${perRead.toFixed(2)} ms a read); ` +
				`the issue's fixed ${ISSUE_CPU_MS_PER_1000_DECKS / 1_000} CPU-s assumed 0.65-1.2 ms a read`,
		);
	}
	const misses = records.flatMap((record) => record.misses.map((miss) => `${record.schedule} N = ${record.n}: ${miss}`));
	for (const miss of misses) console.log(`MISSED ${miss}`);
	console.log(`${misses.length ? 'Targets missed' : 'Every target met'}; run time ${elapsed()}`);
	if (json) {
		writeFileSync(json, `${JSON.stringify(records, null, 2)}\n`);
		console.log(`wrote ${json}`);
	}
	if (misses.length) process.exitCode = 1;
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
