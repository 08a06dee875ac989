/**
 * `npm run bench:queue -- --decks N [--json FILE] [--rounds 2] [--workers 1] [--concurrency 10]
 *   [--first-wait-seconds 66] [--wait-seconds 66] [--speed 20] [--max-minutes 120] [--save-progress example|both|none]
 *   [--warm-up N] [--breakdown DIR] [--cpu-prof DIR] [--only SIDE] [--journal]`
 *
 * Side by side on one queue-mode stack (test/e2e/queue-stack.ts: PostgreSQL, Redis, an n8n 2.41.1 main
 * and `--workers` workers), against the simulator, N deck requests each:
 *
 * - package: the recommended at-scale workflow (test/workflows/examples/at-scale.json): Webhook ->
 *   Create -> Wait -> Check Once (Simplify, Download File); Still Running -> Wait -> Check Once;
 *   Completed -> Slack with the file;
 * - handBuilt: the same job built from HTTP Request + Wait + Switch (test/bench/hand-built-loop.json),
 *   with the same first wait and the same re-check wait.
 *
 * In `--rounds` rounds, each running N / rounds decks of one workflow and then of the other (the order
 * alternates from round to round), after a warm-up of both (`--warm-up`, default half a half round
 * each): so both see the same, warm machine. Each half
 * round is measured alone (nothing else runs then): worker and main CPU-seconds. At the end, from the
 * database, every measured execution's stored run data (`execution_data.data`: bytes and node runs);
 * from the simulator's ledger, status reads and charges.
 *
 * Decks take 10-35 min of simulator time (`--speed` 20: 30-105 s), so about half the decks are still
 * running at their first check and go round the loop once. Both Waits must stay above n8n's 65 s
 * offload threshold (a shorter wait holds the worker slot in memory instead of the database).
 *
 * `--breakdown DIR`: where each workflow's stored bytes go, node by node (./breakdown.ts), printed and
 * written to DIR with one stored execution of each shape.
 *
 * `--journal`: a third workflow beside them, the purchase journal's example (issue 44:
 *   test/workflows/examples/at-scale-journal.json, its Form Trigger swapped for the package example's Webhook
 *   and its Create given the same Idempotency Key, so the two differ by the journal alone; the sweeper,
 *   purchase-sweeper.json, published beside it as shipped), measured in the same rounds; printed beside the
 *   package example with what the journal adds per deck. Its own targets: charges = decks, every execution a
 *   success, every deck delivered, every journal row `delivered`.
 *
 * `--only package|handBuilt|journal`: runs that workflow alone and prints its figures (no ratio, no targets):
 * with `--cpu-prof`, a profile of one workflow.
 *
 * `--cpu-prof DIR`: the main process writes a V8 CPU profile to DIR/main and each worker one to DIR/worker when
 * the stack stops (both workflows' executions, warm-up included); `ts-node test/bench/cpu-profile.ts DIR/main`
 * (or DIR/worker) sums its self time by package, so main's CPU (the webhooks, the waits, the resumptions) shows
 * whether any of it is the package's.
 *
 * `--save-progress`: which workflows save execution progress after every node (n8n's
 * saveExecutionProgress): `example` (default: each as its file says: the example does, the loop
 * keeps n8n's default, off), `both`, or `none` (shows what the setting costs).
 *
 * Targets (exit code 1 when one is missed): ahead of the loop on every figure: each per-deck figure of
 * the package (worker, main and PostgreSQL CPU, execution data, workflow copy, node runs, status reads,
 * file downloads) <= the loop's (PER_DECK_FIGURES); charges = decks for both; every execution of both a
 * success and every deck delivered (else the figures mean nothing). Two figures are judged as what they
 * are: a CPU figure moves from round to round on a shared machine (±10-25 % here), so it is ahead when
 * it is at or below the loop's within the spread this run measured between its own rounds, and never
 * less than 10 % (`noise`, printed; a single round has none: strict); status reads depend on the decks
 * each workflow drew (a deck longer than a wait needs a second read), so the needless ones are
 * compared: for each deck, the reads after the one that found it done, and the reads before it beyond
 * one per wait the deck outlasted (a wait that starts late only saves reads, so the count has no timing
 * noise). The earlier fixed ratios (execution data <= 0.6 x, worker CPU <= 0.8 x the loop's) are
 * retired: they lay below n8n's own per-execution floor, which both workflows pay (CONTRIBUTING.md, "At
 * scale: the benchmarks").
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { parse as parseFlatted } from 'flatted';
import { breakdown, formatBreakdown, type Breakdown } from './breakdown';
import { start } from '../simulator';
import { ensureBuilt, REPO } from '../e2e/fixtures/build';
import { startSink } from '../e2e/fixtures/sink';
import {
	type AtScaleWorkflow,
	FILE_NODE,
	fireDecks,
	HAND_BUILT_SINK_PREFIX,
	HAND_BUILT_WEBHOOK_PATH,
	importAtScale,
	importHandBuilt,
	SINK_PREFIX,
	startSampler,
	WAIT_OFFLOAD_THRESHOLD_SECONDS,
	waitForFinished,
	WEBHOOK_PATH,
} from '../e2e/fixtures/at-scale';
import { loadExample, SCALE_EXAMPLE } from '../e2e/fixtures/examples';
import { ensureJournalTable, importJournalBench, JOURNAL_BENCH_SINK_PREFIX, JOURNAL_BENCH_WEBHOOK_PATH } from '../e2e/fixtures/journal';
import { closeHttpClients } from '../e2e/n8n-instance';
import { groupCpuSeconds, startQueueStack, type QueueStack } from '../e2e/queue-stack';

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

type SideName = 'package' | 'handBuilt' | 'journal';

interface Side {
	name: SideName;
	wf: AtScaleWorkflow;
	webhookPath: string;
	/** delivery ids (the Idempotency Key) start with it: charges and reads are told apart by it */
	idPrefix: string;
	sinkName: string;
	/** executions fired so far (warm-up included), for waitForFinished's count */
	fired: number;
	halves: Array<{ round: number; decks: number; workerCpu: number; mainCpu: number; postgresCpu: number; wallSeconds: number; longestDeckSeconds: number; peakWaiting: number; peakActiveJobs: number }>;
	redeliveries: { count: number };
	notAccepted: number;
}

interface PerDeck {
	decks: number;
	executions: Record<string, number>;
	workerCpuSeconds: number;
	mainCpuSeconds: number;
	postgresCpuSeconds: number;
	executionDataBytes: number;
	workflowCopyBytes: number;
	nodeRuns: number;
	statusReads: number;
	/** Reads no deck needed: after the read that found it done, or more than one per wait it outlasted. */
	needlessReads: number;
	fileDownloads: number;
	charges: number;
	delivered: number;
	wallSeconds: number;
	floorSeconds: number;
	wallOverFloor: number;
}

/** The least a CPU figure is allowed to move between rounds (when there are rounds to compare). */
const MIN_ROUND_SPREAD = 0.1;

/** Every per-deck figure, as the targets name it: the package must be at or below the loop on each. */
const PER_DECK_FIGURES = [
	['workerCpuSeconds', 'worker CPU'],
	['mainCpuSeconds', 'main CPU'],
	['postgresCpuSeconds', 'PostgreSQL CPU'],
	['executionDataBytes', 'execution data'],
	['workflowCopyBytes', 'workflow copy'],
	['nodeRuns', 'node runs'],
	['statusReads', 'status reads'],
	['fileDownloads', 'file downloads'],
] as const;

/** psql against the stack's database; rows of fields */
function sql(stack: QueueStack, query: string): string[][] {
	const { host, port, user, database } = stack.postgres;
	const r = spawnSync('psql', ['-h', host, '-p', String(port), '-U', user, '-d', database, '-At', '-F', '\x1f', '-R', '\x1e', '-c', query], {
		encoding: 'utf8',
		maxBuffer: 1 << 30,
	});
	if (r.status !== 0) throw new Error(`psql: ${r.stderr}`);
	return r.stdout.split('\x1e').filter((row) => row !== '' && row !== '\n').map((row) => row.replace(/^\n/, '').split('\x1f'));
}

/** The stored run data of the workflow's executions above `afterId`: bytes of `data` and of the workflow copy, node runs. */
function stored(stack: QueueStack, workflowId: string, afterId: number) {
	const rows = sql(
		stack,
		`SELECT e.status, octet_length(d.data), octet_length(d."workflowData"::text), d.data FROM execution_data d JOIN execution_entity e ON e.id = d."executionId" WHERE e."workflowId" = '${workflowId}' AND e.id > ${afterId}`,
	);
	let dataBytes = 0;
	let workflowBytes = 0;
	let nodeRuns = 0;
	const executions: Record<string, number> = {};
	const texts: string[] = [];
	for (const [status, data, workflow, text] of rows) {
		texts.push(text);
		executions[status] = (executions[status] ?? 0) + 1;
		dataBytes += Number(data);
		workflowBytes += Number(workflow);
		const runData = (parseFlatted(text) as { resultData?: { runData?: Record<string, unknown[]> } }).resultData?.runData ?? {};
		for (const runs of Object.values(runData)) nodeRuns += runs.length;
	}
	return { executions, count: rows.length, dataBytes, workflowBytes, nodeRuns, texts };
}

async function main(): Promise<void> {
	const decks = num('decks', 200);
	const rounds = num('rounds', 2);
	const workersCount = num('workers', 1);
	const concurrency = num('concurrency', 10);
	const firstWaitSeconds = num('first-wait-seconds', WAIT_OFFLOAD_THRESHOLD_SECONDS + 1);
	const waitSeconds = num('wait-seconds', WAIT_OFFLOAD_THRESHOLD_SECONDS + 1);
	const speed = num('speed', 20);
	// The first half round measured after a 5-deck warm-up took 30 % more worker CPU than the same
	// workflow's second (32.3 s against 24.7 s for 100 decks, n8n's code and PostgreSQL still warming
	// up), and the first is always the package's: so both warm up on half a half round each.
	const warmUp = Number(arg('warm-up', String(Math.max(5, Math.ceil(decks / rounds / 2)))));
	const jsonFile = arg('json');
	const maxMinutes = num('max-minutes', 120);
	const perHalf = Math.ceil(decks / rounds);
	const saveProgress = arg('save-progress', 'example')!;
	const breakdownDir = arg('breakdown');
	const cpuProfDir = arg('cpu-prof');
	const only = arg('only') as SideName | undefined;
	const withJournal = process.argv.includes('--journal') || only === 'journal';
	if (only && only !== 'package' && only !== 'handBuilt' && only !== 'journal') throw new Error('--only must be package, handBuilt or journal');
	if (!['example', 'both', 'none'].includes(saveProgress)) throw new Error('--save-progress must be example, both or none');

	ensureBuilt();
	const sim = await start({ seed: 42, clock: { speed }, limits: { maxConcurrentDecks: 10_000_000, spendPerHour: 10_000_000, retryAfterMs: 20 } });
	const apiKey = sim.control.createAccount({ balance: 100_000_000, subscriber: true }).key;
	const sink = await startSink();
	log(`starting PostgreSQL, Redis, n8n main and ${workersCount} worker(s) (concurrency ${concurrency})`);
	const stack = await startQueueStack({
		packageDir: REPO,
		workers: workersCount,
		concurrency,
		// info: workers log each job's start and end; no pruning while we count
		env: { N8N_LOG_LEVEL: 'info', EXECUTIONS_DATA_PRUNE_MAX_COUNT: '0' },
		// written when each process exits (the stack's stop): open in Chrome DevTools, or sum with cpu-profile.ts
		workerEnv: cpuProfDir ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${path.resolve(cpuProfDir, 'worker')}` } : undefined,
		mainEnv: cpuProfDir ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${path.resolve(cpuProfDir, 'main')}` } : undefined,
	});
	const t0 = Date.now();
	try {
		const o = { sim, apiKey, sinkUrl: sink.url, firstWaitSeconds, waitSeconds, name: ' (bench)' };
		// 'example': the files' own settings; else the setting forced on both, or off on both
		const progress = () => (saveProgress === 'example' ? o : { ...o, settings: { saveExecutionProgress: saveProgress === 'both' } });
		const side = (name: SideName, wf: AtScaleWorkflow, webhookPath: string, idPrefix: string, sinkPrefix: string): Side => ({
			name, wf, webhookPath, idPrefix, sinkName: `${sinkPrefix}/${FILE_NODE}`, fired: 0, halves: [], redeliveries: { count: 0 }, notAccepted: 0,
		});
		const sides: Side[] = [
			side('package', await importAtScale(stack.main, progress()), WEBHOOK_PATH, 'pkg', SINK_PREFIX),
			side('handBuilt', await importHandBuilt(stack.main, progress()), HAND_BUILT_WEBHOOK_PATH, 'hand', HAND_BUILT_SINK_PREFIX),
			...(withJournal ? [side('journal', await importJournalSide(stack, o, saveProgress), JOURNAL_BENCH_WEBHOOK_PATH, 'jrn', JOURNAL_BENCH_SINK_PREFIX)] : []),
		].filter((s) => !only || s.name === only);
		const deadline = t0 + maxMinutes * 60_000;
		const fire = async (s: Side, ids: string[]) => {
			const statuses = await fireDecks(stack.main, ids, 6, s.redeliveries, s.webhookPath);
			s.notAccepted += statuses.filter((code) => code !== 202).length;
			s.fired += ids.length;
		};

		if (warmUp > 0) {
			log(`warm-up: ${warmUp} decks of each workflow (not measured)`);
			await Promise.all(sides.map((s) => fire(s, Array.from({ length: warmUp }, (_, i) => `warm-${s.idPrefix}-${i}`))));
			for (const s of sides) await waitForFinished(stack.main, s.wf.id, s.fired, deadline - Date.now());
		}
		const watermark = Number(sql(stack, 'SELECT coalesce(max(id), 0) FROM execution_entity')[0][0]);

		for (let r = 0; r < rounds; r++) {
			const order = r % 2 === 0 ? sides : [...sides].reverse();
			for (const s of order) {
				const ids = Array.from({ length: Math.min(perHalf, decks - r * perHalf) }, (_, i) => `${s.idPrefix}-${r}-${i}`);
				if (ids.length <= 0) continue;
				const cpu0 = { workers: stack.workers.map((w) => w.cpuSeconds()), main: groupCpuSeconds(stack.main.pid), postgres: groupCpuSeconds(stack.postgres.pid) };
				const sampler = startSampler(stack, s.wf.id, 2000);
				const start = Date.now();
				log(`round ${r + 1}/${rounds}: ${ids.length} decks of ${s.name}`);
				await fire(s, ids);
				await waitForFinished(stack.main, s.wf.id, s.fired, deadline - Date.now());
				const wallSeconds = (Date.now() - start) / 1000;
				const samples = await sampler.stop();
				const charged = sim.ledger.charges.filter((c) => ids.includes(c.idempotencyKey));
				const durations = charged.map((c) => {
					const d = sim.control.deck(c.taskId)!;
					return (d.doneAt - d.createdAt) / speed / 1000;
				});
				const half = {
					round: r + 1,
					decks: ids.length,
					workerCpu: stack.workers.reduce((sum, w, i) => sum + w.cpuSeconds() - cpu0.workers[i], 0),
					mainCpu: groupCpuSeconds(stack.main.pid) - cpu0.main,
					postgresCpu: groupCpuSeconds(stack.postgres.pid) - cpu0.postgres,
					wallSeconds,
					longestDeckSeconds: Math.max(0, ...durations),
					peakWaiting: Math.max(0, ...samples.map((x) => x.waiting)),
					peakActiveJobs: Math.max(0, ...samples.map((x) => x.activeJobs).filter(Number.isFinite)),
				};
				s.halves.push(half);
				log(`  ${s.name}: ${round(wallSeconds, 1)} s, worker CPU ${round(half.workerCpu, 1)} s, main CPU ${round(half.mainCpu, 1)} s`);
			}
		}

		const perDeck = {} as Record<SideName, PerDeck>;
		for (const s of sides) {
			const db = stored(stack, s.wf.id, watermark);
			if (breakdownDir) writeBreakdown(breakdownDir, s.name, db.texts);
			const mine = (key: string) => key.startsWith(`${s.idPrefix}-`);
			const charges = sim.ledger.charges.filter((c) => mine(c.idempotencyKey));
			const tasks = new Set(charges.map((c) => c.taskId));
			const taskOf = (q: { path: string }) => decodeURIComponent(q.path.split('/')[3]);
			const reads = sim.ledger.requests.filter((q) => q.method === 'GET' && /^\/v1\/decks\/[^/]+\/status$/.test(q.path) && tasks.has(taskOf(q)));
			const downloads = sim.ledger.requests.filter((q) => q.method === 'GET' && /^\/v1\/decks\/[^/]+\/files\//.test(q.path) && tasks.has(taskOf(q)));
			// a delivery names its deck's task id in the Slack comment
			const delivered = sink.of('sink', s.sinkName).filter((rec) => {
				const comment = typeof rec.body === 'string' ? rec.body : String((rec.body as { initialComment?: unknown } | undefined)?.initialComment ?? '');
				const taskId = /task (tsk_[0-9a-f]+)/.exec(comment)?.[1];
				return taskId !== undefined && tasks.has(taskId);
			}).length;
			const sum = (f: (h: Side['halves'][number]) => number) => s.halves.reduce((acc, h) => acc + f(h), 0);
			// a deck needs one read at the end of each wait it outlasted and one that finds it done: the rest is needless
			const readsOf = new Map<string, number[]>();
			for (const q of reads) {
				const times = readsOf.get(taskOf(q));
				if (times) times.push(q.at);
				else readsOf.set(taskOf(q), [q.at]);
			}
			const needless = [...tasks].reduce((acc, taskId) => {
				const d = sim.control.deck(taskId)!;
				const outlasted = Math.max(0, Math.ceil(((d.doneAt - d.createdAt) / speed / 1000 - firstWaitSeconds) / waitSeconds));
				const at = readsOf.get(taskId) ?? [];
				const after = at.filter((t) => t >= d.doneAt).length;
				return acc + Math.max(0, after - 1) + Math.max(0, at.length - after - outlasted);
			}, 0);
			const n = sum((h) => h.decks);
			// the floor of a half round: its longest deck, one Wait, and the workers' CPU time spread over the workers
			const floor = sum((h) => h.longestDeckSeconds + waitSeconds + h.workerCpu / workersCount);
			const wall = sum((h) => h.wallSeconds);
			perDeck[s.name] = {
				decks: n,
				executions: db.executions,
				workerCpuSeconds: round(sum((h) => h.workerCpu) / n, 4),
				mainCpuSeconds: round(sum((h) => h.mainCpu) / n, 4),
				postgresCpuSeconds: round(sum((h) => h.postgresCpu) / n, 4),
				executionDataBytes: Math.round(db.dataBytes / n),
				workflowCopyBytes: Math.round(db.workflowBytes / n),
				nodeRuns: round(db.nodeRuns / n, 2),
				statusReads: round(reads.length / n, 3),
				needlessReads: round(needless / n, 3),
				fileDownloads: round(downloads.length / n, 3),
				charges: charges.length,
				delivered,
				wallSeconds: round(wall / s.halves.length, 1),
				floorSeconds: round(floor / s.halves.length, 1),
				wallOverFloor: round(wall / floor, 2),
			};
		}
		const journal = sides.find((s) => s.name === 'journal');
		const journalFigures = journal ? await journalOutcome(stack, perDeck.journal, perDeck.package) : undefined;
		if (journalFigures) {
			printJournal(journalFigures);
			if (journalFigures.targets.some((t) => !t.met)) process.exitCode = 1;
		}
		if (only) {
			// one workflow alone (to profile it): its figures, no ratio and no targets
			const halves = sides[0].halves;
			const alone = { decks, only, perDeck, halves, journal: journalFigures, webhook: { redelivered: sides[0].redeliveries.count, notAccepted: sides[0].notAccepted }, n8n: stack.main.version, totalSeconds: round((Date.now() - t0) / 1000, 1) };
			console.log(JSON.stringify(alone, null, 2));
			if (jsonFile) fs.writeFileSync(jsonFile, JSON.stringify(alone, null, 2) + '\n');
			return;
		}
		const p = perDeck.package;
		const h = perDeck.handBuilt;
		const ratio = {
			workerCpu: round(p.workerCpuSeconds / h.workerCpuSeconds, 3),
			mainCpu: round(p.mainCpuSeconds / h.mainCpuSeconds, 3),
			executionDataBytes: round(p.executionDataBytes / h.executionDataBytes, 3),
			statusReads: round(p.statusReads / h.statusReads, 3),
			nodeRuns: round(p.nodeRuns / h.nodeRuns, 3),
		};
		// How much a CPU figure moved between the rounds of one workflow: the run's own noise. Two rounds
		// can land close by chance (main CPU: 4 % in one run, 28-32 % in others), so never less than
		// MIN_ROUND_SPREAD, the least this machine moved over five runs of every figure but that one.
		const spread = (cpu: (x: Side['halves'][number]) => number) =>
			Math.max(
				sides.every((s) => s.halves.length > 1) ? MIN_ROUND_SPREAD : 0,
				...sides.map((s) => {
					const perDeckCpu = s.halves.map((x) => cpu(x) / x.decks);
					const mean = perDeckCpu.reduce((a, b) => a + b, 0) / perDeckCpu.length;
					return mean ? (Math.max(...perDeckCpu) - Math.min(...perDeckCpu)) / mean : 0;
				}),
			);
		const noise: Partial<Record<(typeof PER_DECK_FIGURES)[number][0], number>> = {
			workerCpuSeconds: round(spread((x) => x.workerCpu), 3),
			mainCpuSeconds: round(spread((x) => x.mainCpu), 3),
			postgresCpuSeconds: round(spread((x) => x.postgresCpu), 3),
		};
		const ahead = (figure: (typeof PER_DECK_FIGURES)[number][0]): boolean =>
			figure === 'statusReads'
				? p.needlessReads <= h.needlessReads
				: p[figure] <= h[figure] * (1 + (noise[figure] ?? 0));
		const targets = [
			...PER_DECK_FIGURES.map(([figure, name]) => ({
				name: `${name} per deck <= the loop's${figure === 'statusReads' ? ' (the needless ones)' : noise[figure] !== undefined ? ` (within the rounds' spread, ${Math.round((noise[figure] ?? 0) * 100)} %)` : ''}`,
				met: ahead(figure),
			})),
			{ name: 'charges = decks (both)', met: p.charges === p.decks && h.charges === h.decks },
			{ name: 'every execution a success, every deck delivered (both)', met: [p, h].every((x) => x.executions.success === x.decks && x.delivered === x.decks) },
		];
		const result = {
			decks,
			perDeck,
			ratio,
			targets,
			...(journalFigures ? { journal: journalFigures } : {}),
			setup: {
				rounds,
				saveProgress,
				warmUpDecks: warmUp,
				workers: workersCount,
				concurrencyPerWorker: concurrency,
				firstWaitSeconds,
				waitSeconds,
				simulatorSpeed: speed,
				deckSeconds: [round(600 / speed, 1), round(2100 / speed, 1)],
				machine: { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model, memoryGb: round(os.totalmem() / 2 ** 30, 1), loadAvg1mAtEnd: round(os.loadavg()[0]) },
				n8n: stack.main.version,
				totalSeconds: round((Date.now() - t0) / 1000, 1),
			},
			halves: Object.fromEntries(sides.map((s) => [s.name, s.halves.map((x) => ({ ...x, workerCpu: round(x.workerCpu, 2), mainCpu: round(x.mainCpu, 2), postgresCpu: round(x.postgresCpu, 2), wallSeconds: round(x.wallSeconds, 1), longestDeckSeconds: round(x.longestDeckSeconds, 1) }))])),
			webhook: Object.fromEntries(sides.map((s) => [s.name, { redelivered: s.redeliveries.count, notAccepted: s.notAccepted }])),
		};
		printTable(result);
		if (jsonFile) fs.writeFileSync(jsonFile, JSON.stringify(result, null, 2) + '\n');
		if (targets.some((t) => !t.met)) process.exitCode = 1;
	} finally {
		await stack.stop();
		await sink.close();
		await sim.close();
		await closeHttpClients();
	}
}

/**
 * The journal's side (`--journal`): at-scale-journal.json as at-scale.json is run (its Webhook, its Idempotency
 * Key), with the same save-progress setting, and the sweeper beside it (test/e2e/fixtures/journal.ts).
 */
async function importJournalSide(stack: QueueStack, o: { sim: { url: string }; apiKey: string; sinkUrl: string; firstWaitSeconds: number; waitSeconds: number; name: string }, saveProgress: string): Promise<AtScaleWorkflow> {
	const scale = loadExample(SCALE_EXAMPLE);
	const webhook = scale.nodes.find((n) => n.type === 'n8n-nodes-base.webhook')!;
	const create = scale.nodes.find((n) => n.name === 'Create Deck')!;
	const wf = await importJournalBench(stack.main, {
		simUrl: o.sim.url,
		apiKey: o.apiKey,
		sinkUrl: o.sinkUrl,
		firstWaitSeconds: o.firstWaitSeconds,
		waitSeconds: o.waitSeconds,
		webhook,
		idempotencyKey: String((create.parameters.options as { idempotencyKey: string }).idempotencyKey),
		nameSuffix: o.name,
		settings: saveProgress === 'example' ? undefined : { saveExecutionProgress: saveProgress === 'both' },
	});
	journalSweeperId = wf.sweeperId;
	return { id: wf.journalId, credentialId: wf.credentialId, firstWaitSeconds: o.firstWaitSeconds, waitSeconds: o.waitSeconds };
}
let journalSweeperId = '';

interface JournalFigures {
	/** per deck, the journal's figure minus the package example's (what the journal adds) */
	addsPerDeck: Record<string, number>;
	rows: Record<string, number>;
	sweeps: { executions: number; dataBytesEach: number; nodeRunsEach: number };
	targets: Array<{ name: string; met: boolean }>;
}

/** What the journal adds per deck, its rows' outcomes, what the sweeper's runs stored, and the journal's targets. */
async function journalOutcome(stack: QueueStack, j: PerDeck, p: PerDeck | undefined): Promise<JournalFigures> {
	const rows = (await (await ensureJournalTable(stack.main)).rows()).filter((row) => /^Deck (warm-)?jrn-/.test(String(row.title ?? '')));
	const byOutcome: Record<string, number> = {};
	for (const row of rows) byOutcome[row.outcome] = (byOutcome[row.outcome] ?? 0) + 1;
	const sweeps = stored(stack, journalSweeperId, 0);
	const adds: Record<string, number> = {};
	if (p) for (const [figure] of PER_DECK_FIGURES) adds[figure] = round(j[figure] - p[figure], 4);
	return {
		addsPerDeck: adds,
		rows: byOutcome,
		sweeps: { executions: sweeps.count, dataBytesEach: sweeps.count ? Math.round(sweeps.dataBytes / sweeps.count) : 0, nodeRunsEach: sweeps.count ? round(sweeps.nodeRuns / sweeps.count) : 0 },
		targets: [
			{ name: 'journal: charges = decks', met: j.charges === j.decks },
			{ name: 'journal: every execution a success, every deck delivered', met: j.executions.success === j.decks && j.delivered === j.decks },
			// the warm-up's rows too: every row the bench wrote ended delivered
			{ name: 'journal: every row delivered', met: rows.length > 0 && byOutcome.delivered === rows.length },
		],
	};
}

function printJournal(f: JournalFigures): void {
	if (Object.keys(f.addsPerDeck).length) {
		console.log('\n| what the journal adds per deck (journal example − package example) | |\n|---|---|');
		for (const [figure, name] of PER_DECK_FIGURES) console.log(`| ${name} | ${f.addsPerDeck[figure] >= 0 ? '+' : ''}${f.addsPerDeck[figure].toLocaleString('en-US', { maximumFractionDigits: 4 })} |`);
	}
	console.log(`\njournal rows: ${JSON.stringify(f.rows)}; sweeper: ${f.sweeps.executions} runs, ${f.sweeps.dataBytesEach} bytes and ${f.sweeps.nodeRunsEach} node runs stored each`);
	console.log('Journal targets:');
	for (const t of f.targets) console.log(`  ${t.met ? 'met   ' : 'MISSED'} ${t.name}`);
}

/**
 * `--breakdown DIR`: per deck, where the stored bytes of the workflow's measured executions go, by node
 * (./breakdown.ts), printed and written to DIR/<side>.md; and one execution of each shape (node runs)
 * as stored, DIR/<side>-<runs>runs.flatted.json, to break down again offline.
 */
function writeBreakdown(dir: string, side: string, texts: string[]): void {
	fs.mkdirSync(dir, { recursive: true });
	const all: Breakdown[] = texts.map(breakdown);
	const byNode = new Map<string, { total: number; itemsJson: number; binary: number; runMetadata: number; runs: number }>();
	for (const b of all) {
		for (const r of b.runs) {
			const n = byNode.get(r.node) ?? { total: 0, itemsJson: 0, binary: 0, runMetadata: 0, runs: 0 };
			n.total += r.total;
			n.itemsJson += r.itemsJson;
			n.binary += r.binary;
			n.runMetadata += r.runMetadata;
			n.runs++;
			byNode.set(r.node, n);
		}
	}
	const count = all.length || 1;
	const avg = (f: (b: Breakdown) => number) => Math.round(all.reduce((sum, b) => sum + f(b), 0) / count);
	const lines = [
		`## ${side}: per deck, averaged over ${all.length} executions`,
		'',
		'| part | runs per deck | bytes | items JSON | binary | run records |',
		'|---|---|---|---|---|---|',
		...[...byNode].map(([node, n]) => `| ${node} | ${round(n.runs / count)} | ${Math.round(n.total / count)} | ${Math.round(n.itemsJson / count)} | ${Math.round(n.binary / count)} | ${Math.round(n.runMetadata / count)} |`),
		`| (shared between runs) | | ${avg((b) => b.runData - b.runs.reduce((s, r) => s + r.total, 0))} | | | |`,
		`| **all node runs** | ${round(avg((b) => b.nodeRuns * 100) / 100)} | **${avg((b) => b.runData)}** | | | |`,
		`| executionData (stack, waiting data, metadata) | | ${avg((b) => b.executionData)} | | | |`,
		`| startData | | ${avg((b) => b.startData)} | | | |`,
		`| the rest (resultData's other fields, envelope) | | ${avg((b) => b.rest)} | | | |`,
		`| **execution_data.data** | | **${avg((b) => b.bytes)}** | | | |`,
	];
	const shapes = new Map<number, number>();
	all.forEach((b, i) => {
		if (!shapes.has(b.nodeRuns)) shapes.set(b.nodeRuns, i);
	});
	for (const [runs, i] of shapes) {
		fs.writeFileSync(path.join(dir, `${side}-${runs}runs.flatted.json`), texts[i]);
		lines.push('', formatBreakdown(`${side}, one execution of ${runs} node runs`, all[i]));
	}
	const text = lines.join('\n') + '\n';
	fs.writeFileSync(path.join(dir, `${side}.md`), text);
	console.log(text);
}

function printTable(r: { decks: number; perDeck: Record<SideName, PerDeck>; ratio: Record<string, number>; targets: Array<{ name: string; met: boolean }>; setup: Record<string, any> }): void {
	const p = r.perDeck.package;
	const h = r.perDeck.handBuilt;
	const fmt = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 4 });
	const ratioOf = (a: number, b: number) => (b ? (a / b).toFixed(2) : '-');
	const rows: Array<[string, string, string, string]> = [
		['worker CPU-seconds', fmt(p.workerCpuSeconds), fmt(h.workerCpuSeconds), ratioOf(p.workerCpuSeconds, h.workerCpuSeconds)],
		['main CPU-seconds', fmt(p.mainCpuSeconds), fmt(h.mainCpuSeconds), ratioOf(p.mainCpuSeconds, h.mainCpuSeconds)],
		['PostgreSQL CPU-seconds', fmt(p.postgresCpuSeconds), fmt(h.postgresCpuSeconds), ratioOf(p.postgresCpuSeconds, h.postgresCpuSeconds)],
		['execution data (bytes of `execution_data.data`)', fmt(p.executionDataBytes), fmt(h.executionDataBytes), ratioOf(p.executionDataBytes, h.executionDataBytes)],
		['workflow copy (bytes of `execution_data.workflowData`)', fmt(p.workflowCopyBytes), fmt(h.workflowCopyBytes), ratioOf(p.workflowCopyBytes, h.workflowCopyBytes)],
		['node runs', fmt(p.nodeRuns), fmt(h.nodeRuns), ratioOf(p.nodeRuns, h.nodeRuns)],
		['status reads (simulator ledger)', fmt(p.statusReads), fmt(h.statusReads), ratioOf(p.statusReads, h.statusReads)],
		['needless status reads (after the one that found the deck done, or beyond one per wait it outlasted)', fmt(p.needlessReads), fmt(h.needlessReads), ratioOf(p.needlessReads, h.needlessReads)],
		['file downloads', fmt(p.fileDownloads), fmt(h.fileDownloads), ratioOf(p.fileDownloads, h.fileDownloads)],
		['charges / decks (total)', `${p.charges} / ${p.decks}`, `${h.charges} / ${h.decks}`, ''],
		['executions success / delivered (total)', `${p.executions.success ?? 0} / ${p.delivered}`, `${h.executions.success ?? 0} / ${h.delivered}`, ''],
		['wall time of a round / floor (s)', `${p.wallSeconds} / ${p.floorSeconds}`, `${h.wallSeconds} / ${h.floorSeconds}`, `${p.wallOverFloor} / ${h.wallOverFloor} of floor`],
	];
	console.log(`| per deck (N = ${r.decks} each) | package example | hand-built loop | ratio |\n|---|---|---|---|`);
	for (const row of rows) console.log(`| ${row.join(' | ')} |`);
	const s = r.setup;
	console.log(
		`\nsave execution progress: ${s.saveProgress}; ${s.rounds} alternating rounds after ${s.warmUpDecks} warm-up decks each; ${s.workers} worker(s) x ${s.concurrencyPerWorker}; decks ${s.deckSeconds[0]}-${s.deckSeconds[1]} s (sim speed ${s.simulatorSpeed}); ` +
			`first wait ${s.firstWaitSeconds} s, re-check ${s.waitSeconds} s; floor = longest deck + wait + worker CPU / workers; ` +
			`${s.machine.cpus} CPUs (${s.machine.cpuModel}), load ${s.machine.loadAvg1mAtEnd} at the end; n8n ${s.n8n}; ${s.totalSeconds} s in all`,
	);
	console.log('\nTargets:');
	for (const t of r.targets) console.log(`  ${t.met ? 'met   ' : 'MISSED'} ${t.name}`);
}

main().catch((e) => {
	console.error(e instanceof Error ? e.stack : e);
	process.exit(1);
});
