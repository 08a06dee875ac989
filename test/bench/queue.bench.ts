/**
 * `npm run bench:queue -- --decks N [--json FILE] [--workers 2] [--concurrency 10] [--wait-seconds 66] [--speed 60]`
 *
 * The at-scale example in n8n queue mode (test/e2e/queue-stack.ts: PostgreSQL, Redis, an n8n 2.41.1 main
 * and `--workers` workers) against the simulator: N webhook calls, each its own execution (Create ->
 * Check Once -> Wait -> Check Once -> Slack stand-in). Decks take 10-35 min of simulator time
 * (`--speed` 60: 10-35 s); the Wait node waits `--wait-seconds` (above n8n's 65 s offload threshold,
 * so every execution is offloaded to the database once). Not a test: it measures and prints.
 *
 * Reported: executions per minute per worker, worker CPU-seconds per deck, main CPU, PostgreSQL CPU,
 * Redis memory, peak active (running / Bull active jobs) versus waiting executions, charges versus
 * decks, and wall time against the longest deck plus the Wait node's delay.
 */
import * as fs from 'fs';
import * as os from 'os';
import { start } from '../simulator';
import { ensureBuilt, REPO } from '../e2e/fixtures/build';
import { startSink } from '../e2e/fixtures/sink';
import { FILE_NODE, fireDecks, importAtScale, SINK_PREFIX, startSampler, WAIT_OFFLOAD_THRESHOLD_SECONDS, waitForFinished } from '../e2e/fixtures/at-scale';
import { closeHttpClients } from '../e2e/n8n-instance';
import { groupCpuSeconds, startQueueStack } from '../e2e/queue-stack';

function arg(name: string, fallback?: string): string | undefined {
	const i = process.argv.indexOf(`--${name}`);
	return i >= 0 ? process.argv[i + 1] : fallback;
}
function num(name: string, fallback: number): number {
	const n = Number(arg(name, String(fallback)));
	if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number`);
	return n;
}

const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;
const log = (msg: string) => process.stderr.write(`[bench:queue ${new Date().toISOString().slice(11, 19)}] ${msg}\n`);

async function main(): Promise<void> {
	const decks = num('decks', 100);
	const workersCount = num('workers', 2);
	const concurrency = num('concurrency', 10);
	const waitSeconds = num('wait-seconds', WAIT_OFFLOAD_THRESHOLD_SECONDS + 1);
	const speed = num('speed', 60);
	const jsonFile = arg('json');
	// stop waiting after this long and report what finished (a run that cannot complete still measures)
	const maxMinutes = num('max-minutes', 360);

	ensureBuilt();
	const sim = await start({ seed: 42, clock: { speed }, limits: { maxConcurrentDecks: 10_000_000, spendPerHour: 10_000_000, retryAfterMs: 20 } });
	const apiKey = sim.control.createAccount({ balance: 100_000_000, subscriber: true }).key;
	const sink = await startSink();
	log(`starting PostgreSQL, Redis, n8n main and ${workersCount} workers (concurrency ${concurrency})`);
	const stack = await startQueueStack({
		packageDir: REPO,
		workers: workersCount,
		concurrency,
		// info: workers log each job's start and end (the per-worker active count); no pruning while we count
		env: { N8N_LOG_LEVEL: 'info', EXECUTIONS_DATA_PRUNE_MAX_COUNT: '0' },
	});
	try {
		const wf = await importAtScale(stack.main, { sim, apiKey, sinkUrl: sink.url, waitSeconds, name: ' (bench)' });
		const cpu0 = {
			workers: stack.workers.map((w) => w.cpuSeconds()),
			main: groupCpuSeconds(stack.main.pid),
			postgres: groupCpuSeconds(stack.postgres.pid),
			bench: process.cpuUsage(),
		};
		const redisMemory: number[] = [];
		// the samples are REST count queries the main answers: sparse at large N, so they cost it little
		const sampler = startSampler(stack, wf.id, decks > 1000 ? 5000 : 1000);
		const memTimer = setInterval(() => {
			try {
				redisMemory.push(Number(stack.redis.info('memory').used_memory));
			} catch {
				/* ignore */
			}
		}, 2000);
		const t0 = Date.now();
		log(`firing ${decks} webhook calls`);
		const ids = Array.from({ length: decks }, (_, i) => `bench-${i}`);
		const progress = setInterval(() => {
			const s = sampler.samples[sampler.samples.length - 1];
			if (s) log(`${Math.round((Date.now() - t0) / 1000)} s: waiting ${s.waiting}, running ${s.running}, new ${s.queued}, active jobs ${s.activeJobs}, queued jobs ${s.queuedJobs}, delivered ${sink.records.length}, charges ${sim.ledger.charges.length}`);
		}, 30_000);
		const redeliveries = { count: 0 };
		const statuses = await fireDecks(stack.main, ids, 6, redeliveries);
		const firedSeconds = (Date.now() - t0) / 1000;
		log(`fired in ${firedSeconds.toFixed(1)} s (${statuses.filter((s) => s !== 202).length} not 202)`);
		let complete = true;
		let counts: Record<string, number>;
		try {
			counts = await waitForFinished(stack.main, wf.id, decks, maxMinutes * 60_000 - (Date.now() - t0));
		} catch (e) {
			log(`${(e as Error).message}: reporting what finished within --max-minutes ${maxMinutes}`);
			complete = false;
			counts = await waitForFinished(stack.main, wf.id, 0, 1000);
		}
		const finishedDecks = Object.values(counts).reduce((a, b) => a + b, 0);
		const wallSeconds = (Date.now() - t0) / 1000;
		clearInterval(progress);
		clearInterval(memTimer);
		const samples = await sampler.stop();
		const redisInfo = stack.redis.info('memory');

		const cpuWorkers = stack.workers.map((w, i) => w.cpuSeconds() - cpu0.workers[i]);
		const cpuMain = groupCpuSeconds(stack.main.pid) - cpu0.main;
		const cpuPostgres = groupCpuSeconds(stack.postgres.pid) - cpu0.postgres;
		const bench = process.cpuUsage(cpu0.bench);
		const charges = sim.ledger.charges;
		const keys = new Set(charges.map((c) => c.idempotencyKey));
		const durations = [...new Set(charges.map((c) => c.taskId))].map((taskId) => {
			const d = sim.control.deck(taskId)!;
			return (d.doneAt - d.createdAt) / speed / 1000;
		});
		const longestDeck = Math.max(...durations);
		const delivered = sink.of('sink', `${SINK_PREFIX}/${FILE_NODE}`).length;
		const valid = (xs: number[]) => xs.filter((x) => Number.isFinite(x));
		const result = {
			complete,
			finishedDecks,
			decks,
			workers: workersCount,
			concurrencyPerWorker: concurrency,
			waitNodeSeconds: waitSeconds,
			simulatorSpeed: speed,
			machine: { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model, memoryGb: round(os.totalmem() / 2 ** 30, 1), loadAvg1mAtEnd: round(os.loadavg()[0]) },
			n8n: stack.main.version,
			postgres: spawnVersion(),
			executions: counts,
			webhookNot202: statuses.filter((s) => s !== 202).length,
			webhookRedeliveries: redeliveries.count,
			firedSeconds: round(firedSeconds, 1),
			wallSeconds: round(wallSeconds, 1),
			longestDeckSeconds: round(longestDeck, 1),
			floorSeconds: round(longestDeck + waitSeconds, 1),
			executionsPerMinutePerWorker: round(finishedDecks / (wallSeconds / 60) / workersCount, 1),
			workerCpuSeconds: cpuWorkers.map((c) => round(c, 1)),
			workerCpuSecondsPerDeck: round(cpuWorkers.reduce((a, b) => a + b, 0) / finishedDecks, 4),
			mainCpuSeconds: round(cpuMain, 1),
			mainCpuSecondsPerDeck: round(cpuMain / finishedDecks, 4),
			postgresCpuSeconds: round(cpuPostgres, 1),
			benchAndSimulatorCpuSeconds: round((bench.user + bench.system) / 1e6, 1),
			redisUsedMemoryPeakMb: round(Math.max(...valid(redisMemory), Number(redisInfo.used_memory ?? 0)) / 2 ** 20, 2),
			redisUsedMemoryEndMb: round(Number(redisInfo.used_memory ?? 0) / 2 ** 20, 2),
			peakWaiting: Math.max(...samples.map((s) => s.waiting)),
			peakRunning: Math.max(...samples.map((s) => s.running)),
			peakQueuedExecutions: Math.max(...samples.map((s) => s.queued)),
			peakActiveJobs: Math.max(...valid(samples.map((s) => s.activeJobs))),
			peakQueuedJobs: Math.max(...valid(samples.map((s) => s.queuedJobs))),
			peakWorkerActive: Math.max(...samples.map((s) => s.workerActive.reduce((a, b) => a + b, 0))),
			charges: charges.length,
			chargedKeys: keys.size,
			chargedTwice: charges.length - keys.size,
			delivered,
			samples: samples.length,
		};
		printTable(result);
		if (jsonFile) fs.writeFileSync(jsonFile, JSON.stringify({ ...result, samples: samples }, null, 2) + '\n');
	} finally {
		await stack.stop();
		await sink.close();
		await sim.close();
		await closeHttpClients();
	}
}

function spawnVersion(): string {
	try {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		return require('child_process').execFileSync('psql', ['--version'], { encoding: 'utf8' }).trim();
	} catch {
		return 'unknown';
	}
}

function printTable(r: Record<string, any>): void {
	const rows: Array<[string, string]> = [
		['decks (webhook calls, one execution each)', `${r.decks}${r.complete ? '' : ` (INCOMPLETE: ${r.finishedDecks} finished within --max-minutes)`}`],
		['workers x concurrency', `${r.workers} x ${r.concurrencyPerWorker}`],
		['executions: success / error / crashed', `${r.executions.success} / ${r.executions.error} / ${r.executions.crashed}`],
		['charges / charged keys / decks', `${r.charges} / ${r.chargedKeys} / ${r.decks}`],
		['delivered to the sink', `${r.delivered}`],
		['webhook calls redelivered after a 5xx (same delivery id) / failed for good', `${r.webhookRedeliveries} / ${r.webhookNot202}`],
		['wall time (s)', `${r.wallSeconds}`],
		['longest deck + Wait node delay (s)', `${r.longestDeckSeconds} + ${r.waitNodeSeconds} = ${r.floorSeconds}`],
		['executions per minute per worker', `${r.executionsPerMinutePerWorker}`],
		['worker CPU-seconds per deck', `${r.workerCpuSecondsPerDeck} (total ${r.workerCpuSeconds.join(' + ')})`],
		['main CPU-seconds (per deck)', `${r.mainCpuSeconds} (${r.mainCpuSecondsPerDeck})`],
		['PostgreSQL CPU-seconds', `${r.postgresCpuSeconds}`],
		['Redis used memory: peak / end (MB)', `${r.redisUsedMemoryPeakMb} / ${r.redisUsedMemoryEndMb}`],
		['peak waiting executions', `${r.peakWaiting}`],
		['peak running executions / Bull active jobs / worker-logged active', `${r.peakRunning} / ${r.peakActiveJobs} / ${r.peakWorkerActive}`],
		['peak queued: executions (status new) / jobs in Redis', `${r.peakQueuedExecutions} / ${r.peakQueuedJobs}`],
		['machine', `${r.machine.cpus} CPUs (${r.machine.cpuModel}), ${r.machine.memoryGb} GB; n8n ${r.n8n}; ${r.postgres}`],
	];
	const w = Math.max(...rows.map(([k]) => k.length));
	console.log(`| ${'measure'.padEnd(w)} | value |\n|${'-'.repeat(w + 2)}|-------|`);
	for (const [k, v] of rows) console.log(`| ${k.padEnd(w)} | ${v} |`);
}

main().catch((e) => {
	console.error(e instanceof Error ? e.stack : e);
	process.exit(1);
});
