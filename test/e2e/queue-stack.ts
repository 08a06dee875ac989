/**
 * n8n queue mode on one machine, from real parts: Redis and PostgreSQL from Debian's packages (each
 * on a loopback port of its own, never the system services), an n8n main with EXECUTIONS_MODE=queue
 * (./n8n-instance.ts) and `n8n worker` processes, all on the pinned 2.x flavor, with our package
 * installed into every n8n's user folder as a community package.
 *
 *   const stack = await startQueueStack({ packageDir: REPO, workers: 2 });
 *   try { ... stack.main.runWebhook(...) ... stack.workers[0].kill() ... await stack.redis.restart() }
 *   finally { await stack.stop(); }
 *
 * Everything started here is stopped by its PID (process group) in stop(), and killed with SIGKILL
 * if the test process dies first (./owned-process.ts). The environment each process gets, and why, is in
 * queueEnv() and startWorker(); test/e2e/README.md ("Queue mode") lists it.
 */
import { spawnSync } from 'child_process';
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { Flavor } from './n8n-install';
import { freePort, installCommunityPackage, n8nFetch, N8nInstance, startN8n } from './n8n-instance';
import { signalGroup, spawnOwned, type OwnedProcess } from './owned-process';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** CPU seconds (user + system, children included) of every live process in the process group `pgid`. */
export function groupCpuSeconds(pgid: number): number {
	const ticks = 100; // USER_HZ on Linux
	let total = 0;
	for (const entry of fs.readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		let stat: string;
		try {
			stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
		} catch {
			continue;
		}
		// fields after the ")" of the command name: state ppid pgrp ... utime(14) stime(15) cutime(16) cstime(17)
		const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		if (Number(fields[2]) !== pgid) continue;
		total += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
	}
	return total / ticks;
}

// ---------------------------------------------------------------------------------------------
// Redis and PostgreSQL from Debian's packages

function findPgBin(name: string): string | undefined {
	const root = '/usr/lib/postgresql';
	if (fs.existsSync(root)) {
		const versions = fs
			.readdirSync(root)
			.filter((v) => fs.existsSync(path.join(root, v, 'bin', name)))
			.sort((a, b) => Number(b) - Number(a));
		if (versions[0]) return path.join(root, versions[0], 'bin', name);
	}
	const which = spawnSync('which', [name], { encoding: 'utf8' });
	return which.status === 0 ? which.stdout.trim() : undefined;
}

function onPath(name: string): boolean {
	return spawnSync('which', [name], { encoding: 'utf8' }).status === 0;
}

/**
 * Installs Debian's `redis-server` and `postgresql` when their binaries are missing (needs root, as CI
 * has). Only the binaries are used: the harness starts its own servers.
 */
export function ensureQueueServices(): { postgresBin: string; initdbBin: string } {
	const missing = () => !onPath('redis-server') || !onPath('redis-cli') || !findPgBin('postgres') || !findPgBin('initdb');
	if (missing()) {
		if (process.getuid?.() !== 0) throw new Error('redis-server and postgresql are not installed: run `apt-get install -y redis-server postgresql` as root');
		process.stderr.write('[queue-stack] installing redis-server and postgresql with apt-get\n');
		const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
		for (const args of [['update'], ['install', '-y', '--no-install-recommends', 'redis-server', 'postgresql']]) {
			const r = spawnSync('apt-get', args, { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 600_000 });
			if (r.status !== 0) throw new Error(`apt-get ${args.join(' ')} failed (${r.status}): ${r.stderr?.slice(-2000)}`);
		}
		if (missing()) throw new Error('apt-get finished, but redis-server or PostgreSQL binaries are still missing');
	}
	return { postgresBin: findPgBin('postgres')!, initdbBin: findPgBin('initdb')! };
}

export interface RedisServer {
	host: string;
	port: number;
	readonly pid: number;
	/** redis-cli against this server; returns stdout */
	cli(...args: string[]): string;
	/** INFO <section> as a map */
	info(section: string): Record<string, string>;
	/** stop (SIGTERM, no snapshot: --save '') and start again on the same port: every key is gone */
	restart(): Promise<void>;
	stop(): Promise<void>;
}

export async function startRedis(dir: string): Promise<RedisServer> {
	const port = await freePort();
	let proc: OwnedProcess;
	const cli = (...args: string[]) => {
		const r = spawnSync('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args], { encoding: 'utf8', timeout: 10_000 });
		if (r.status !== 0) throw new Error(`redis-cli ${args.join(' ')}: ${r.stderr}`);
		return r.stdout;
	};
	const launch = async () => {
		proc = spawnOwned('redis', 'redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], {
			logFile: path.join(dir, 'redis.log'),
		});
		const deadline = Date.now() + 20_000;
		for (;;) {
			if (proc.exited()) throw new Error(`redis-server exited: ${proc.logs()}`);
			try {
				if (cli('ping').trim() === 'PONG') return;
			} catch {
				/* not up yet */
			}
			if (Date.now() > deadline) throw new Error(`redis-server not answering on ${port}: ${proc.logs()}`);
			await sleep(100);
		}
	};
	await launch();
	return {
		host: '127.0.0.1',
		port,
		get pid() {
			return proc.pid;
		},
		cli,
		info(section) {
			const out: Record<string, string> = {};
			for (const line of cli('info', section).split(/\r?\n/)) {
				const i = line.indexOf(':');
				if (i > 0 && !line.startsWith('#')) out[line.slice(0, i)] = line.slice(i + 1);
			}
			return out;
		},
		async restart() {
			await proc.stop('SIGTERM');
			await launch();
		},
		stop: () => proc.stop('SIGTERM'),
	};
}

export interface PostgresServer {
	host: string;
	port: number;
	pid: number;
	database: string;
	user: string;
	/** n8n's DB_* variables for this cluster */
	n8nEnv(): Record<string, string>;
	stop(): Promise<void>;
}

/**
 * A cluster of our own: initdb into `dir`, the postmaster on a loopback port (run directly, so its PID
 * is ours to stop; `pg_ctl start` would daemonize it). PostgreSQL refuses to run as root: then it runs
 * as the `postgres` user the Debian package creates. Durability is off (fsync, synchronous_commit):
 * a throwaway test cluster, and on a shared 2-core machine the disk flushes would dominate.
 */
export async function startPostgres(dir: string): Promise<PostgresServer> {
	const { postgresBin, initdbBin } = ensureQueueServices();
	const port = await freePort();
	const user = 'n8n';
	const database = 'n8n';
	let uid: number | undefined;
	let gid: number | undefined;
	if (process.getuid?.() === 0) {
		const id = (flag: string) => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
		uid = id('-u');
		gid = id('-g');
		if (!uid) throw new Error('running as root and there is no `postgres` user (Debian\'s postgresql package creates it)');
	}
	const dataDir = path.join(dir, 'pgdata');
	fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
	if (uid !== undefined) {
		fs.chmodSync(dir, 0o755);
		fs.chownSync(dataDir, uid, gid!);
	}
	const asPg = { uid, gid, env: { ...process.env, LC_ALL: 'C.UTF-8' } };
	const init = spawnSync(initdbBin, ['-D', dataDir, '-U', user, '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync'], { ...asPg, encoding: 'utf8' });
	if (init.status !== 0) throw new Error(`initdb failed (${init.status}): ${init.stderr}`);
	const logFile = path.join(dir, 'postgres.log');
	fs.writeFileSync(logFile, '');
	if (uid !== undefined) fs.chownSync(logFile, uid, gid!);
	const proc = spawnOwned(
		'postgres',
		postgresBin,
		[
			'-D', dataDir, '-p', String(port), '-k', dataDir, '-c', 'listen_addresses=127.0.0.1',
			'-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=200',
		],
		{ ...asPg, logFile },
	);
	const deadline = Date.now() + 30_000;
	for (;;) {
		if (proc.exited()) throw new Error(`postgres exited: ${proc.logs()}`);
		if (spawnSync('pg_isready', ['-h', '127.0.0.1', '-p', String(port)], { encoding: 'utf8' }).status === 0) break;
		if (Date.now() > deadline) throw new Error(`postgres not ready on ${port}: ${proc.logs()}`);
		await sleep(200);
	}
	const created = spawnSync('createdb', ['-h', '127.0.0.1', '-p', String(port), '-U', user, database], { encoding: 'utf8' });
	if (created.status !== 0) throw new Error(`createdb failed: ${created.stderr}`);
	return {
		host: '127.0.0.1',
		port,
		pid: proc.pid,
		database,
		user,
		n8nEnv: () => ({
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: '127.0.0.1',
			DB_POSTGRESDB_PORT: String(port),
			DB_POSTGRESDB_DATABASE: database,
			DB_POSTGRESDB_USER: user,
			DB_POSTGRESDB_PASSWORD: '',
		}),
		// SIGINT = PostgreSQL's "fast" shutdown
		stop: () => proc.stop('SIGINT'),
	};
}

// ---------------------------------------------------------------------------------------------
// n8n main + workers

export interface Worker {
	index: number;
	readonly pid: number;
	userFolder: string;
	healthPort: number;
	process: OwnedProcess;
	logs(): string;
	/** execution ids this worker logged as started */
	startedExecutions(): string[];
	/** execution ids this worker logged as finished */
	finishedExecutions(): string[];
	cpuSeconds(): number;
	/** SIGKILL: the worker and its task runner die at once */
	kill(): Promise<void>;
	stop(): Promise<void>;
}

export interface QueueStackOptions {
	packageDir: string;
	/** n8n 2.41.1 (default); `v1` runs the stack on 1.123.81 (queue.e2e.ts with DECKGEN_E2E_FLAVORS=v1, by hand) */
	flavor?: Flavor;
	workers?: number;
	/** jobs per worker (`n8n worker --concurrency`); n8n's default 10 */
	concurrency?: number;
	/** extra environment for every n8n process */
	env?: Record<string, string>;
	/** extra environment for the main only */
	mainEnv?: Record<string, string>;
	/** extra environment for the workers only (e.g. NODE_OPTIONS to profile them) */
	workerEnv?: Record<string, string>;
}

export interface QueueStack {
	dir: string;
	redis: RedisServer;
	postgres: PostgresServer;
	/** the main now (restartMain() replaces it) */
	main: N8nInstance;
	workers: Worker[];
	encryptionKey: string;
	/**
	 * start one more worker (same setup); `env` is added to its environment only, e.g. n8n's default log
	 * level and format (`N8N_LOG_LEVEL: 'info'`, `N8N_LOG_FORMAT: 'json'`) where the stack logs at debug
	 */
	addWorker(o?: { env?: Record<string, string> }): Promise<Worker>;
	/**
	 * SIGKILL the main's process group (it and its task runner, as an OOM kill of its container), then start
	 * it again on the same user folder, port and environment, as an orchestrator restarts it; `stack.main` is
	 * the new one. Workers go on running their jobs meanwhile.
	 */
	restartMain(): Promise<{ downSeconds: number }>;
	/** every process this stack started, by PID: stop them all (also after a failure) */
	stop(): Promise<void>;
}

/**
 * The environment every process of the stack shares. Read from n8n 2.41.1's own config classes:
 * EXECUTIONS_MODE and the Bull/Redis settings (@n8n/config scaling-mode.config), the queue recovery
 * interval (executions.config, in minutes), the binary data mode (n8n-core binary-data.config:
 * 'database' is already the queue-mode default in 2.x; filesystem mode is not supported in queue mode).
 */
export function queueEnv(o: { redis: RedisServer; postgres: PostgresServer; encryptionKey: string }): Record<string, string> {
	return {
		EXECUTIONS_MODE: 'queue',
		QUEUE_BULL_REDIS_HOST: o.redis.host,
		QUEUE_BULL_REDIS_PORT: String(o.redis.port),
		...o.postgres.n8nEnv(),
		// n8n's default pool is 2 connections per process: under a burst of webhooks the main's health
		// ping then times out and it answers 503 "Database is not ready!"; 10 per process fits
		// max_connections 200 with room
		DB_POSTGRESDB_POOL_SIZE: '10',
		// every process must decrypt the same credentials
		N8N_ENCRYPTION_KEY: o.encryptionKey,
		N8N_DEFAULT_BINARY_DATA_MODE: 'database',
		// manual runs go to the workers too (2.x warns when unset; 3.x makes it the only behaviour)
		OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
		// A dead worker's job: its Bull lock lapses after QUEUE_WORKER_LOCK_DURATION; n8n runs Bull with
		// maxStalledCount 0, so the next stalled check fails the job instead of running it twice; the
		// main's queue recovery then marks the execution crashed. Defaults (60 s, 30 s, 180 min) are
		// shortened so a test sees it within about a minute (the interval is minutes, fractions allowed),
		// and kept long enough that a live worker starved of CPU for seconds keeps its lock.
		QUEUE_WORKER_LOCK_DURATION: '30000',
		QUEUE_WORKER_LOCK_RENEW_TIME: '5000',
		QUEUE_WORKER_STALLED_INTERVAL: '10000',
		N8N_EXECUTIONS_QUEUE_RECOVERY_INTERVAL: '0.25',
		// workers answer /healthz and /healthz/readiness (DB + Redis) on QUEUE_HEALTH_CHECK_PORT
		QUEUE_HEALTH_CHECK_ACTIVE: 'true',
		N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
	};
}

async function startWorker(main: N8nInstance, index: number, o: { dir: string; packageDir: string; concurrency: number; env: Record<string, string> }): Promise<Worker> {
	// each worker has its own user folder with the package installed, as a worker host or image would
	const userFolder = path.join(o.dir, `worker-${index}`);
	fs.mkdirSync(userFolder, { recursive: true });
	await installCommunityPackage(o.packageDir, userFolder);
	const healthPort = await freePort();
	const env = main.processEnv({
		...o.env,
		N8N_USER_FOLDER: userFolder,
		// each n8n process runs its own task-runner broker: ports must differ
		N8N_RUNNERS_BROKER_PORT: String(await freePort()),
		N8N_PORT: String(await freePort()),
		QUEUE_HEALTH_CHECK_PORT: String(healthPort),
	});
	const proc = spawnOwned(`worker-${index}`, main.install.nodeBin, [main.install.n8nBin, 'worker', `--concurrency=${o.concurrency}`], {
		env,
		cwd: userFolder,
		logFile: path.join(userFolder, 'n8n.log'),
	});
	const deadline = Date.now() + 240_000;
	for (;;) {
		if (proc.exited()) throw new Error(`worker ${index} exited during startup:\n${proc.logs().slice(-4000)}`);
		try {
			const r = await n8nFetch(`http://127.0.0.1:${healthPort}/healthz/readiness`);
			await r.arrayBuffer();
			if (r.ok) break;
		} catch {
			/* not listening yet */
		}
		if (Date.now() > deadline) throw new Error(`worker ${index} not ready:\n${proc.logs().slice(-4000)}`);
		await sleep(250);
	}
	// job starts and ends as the worker logs them (info level), read line by line as they arrive
	const started: string[] = [];
	const finished: string[] = [];
	let partial = '';
	const onData = (d: Buffer) => {
		const lines = (partial + d.toString()).split('\n');
		partial = lines.pop() ?? '';
		for (const line of lines) {
			const m = /Worker (started|finished) execution (\d+)/.exec(line);
			if (m) (m[1] === 'started' ? started : finished).push(m[2]);
		}
	};
	proc.child.stdout!.on('data', onData);
	proc.child.stderr!.on('data', onData);
	return {
		index,
		get pid() {
			return proc.pid;
		},
		userFolder,
		healthPort,
		process: proc,
		logs: () => proc.logs(),
		startedExecutions: () => started,
		finishedExecutions: () => finished,
		cpuSeconds: () => groupCpuSeconds(proc.pid),
		kill: () => proc.kill(),
		// n8n's worker drains running jobs on SIGTERM for up to QUEUE_WORKER_TIMEOUT (30 s)
		stop: () => proc.stop('SIGTERM', 35_000),
	};
}

export async function startQueueStack(o: QueueStackOptions): Promise<QueueStack> {
	ensureQueueServices();
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'deckgen-queue-'));
	const stops: Array<() => Promise<void>> = [];
	const stopAll = async () => {
		// reverse order of start: workers and main before Redis and PostgreSQL
		for (const stop of stops.splice(0).reverse()) await stop().catch((e) => process.stderr.write(`[queue-stack] stop: ${e}\n`));
	};
	try {
		const postgres = await startPostgres(dir);
		stops.push(() => postgres.stop());
		const redis = await startRedis(dir);
		stops.push(() => redis.stop());
		const encryptionKey = crypto.randomBytes(24).toString('hex');
		const env = { ...queueEnv({ redis, postgres, encryptionKey }), ...o.env };
		const mainEnv = { ...env, ...o.mainEnv };
		let main = await startN8n({ flavor: o.flavor ?? 'v2', packageDir: o.packageDir, userFolder: path.join(dir, 'main'), env: mainEnv });
		stops.push(() => main.stop());
		const workers: Worker[] = [];
		let started = 0;
		const addWorker = async (w0: { env?: Record<string, string> } = {}) => {
			const w = await startWorker(main, started++, { dir, packageDir: o.packageDir, concurrency: o.concurrency ?? 10, env: { ...env, ...o.workerEnv, ...w0.env } });
			stops.push(() => w.stop());
			workers.push(w);
			workers.sort((a, b) => a.index - b.index);
			return w;
		};
		// in parallel: each installs the package into its own folder and migrates nothing (the main did)
		await Promise.all(Array.from({ length: o.workers ?? 2 }, () => addWorker()));
		const stack: QueueStack = {
			dir,
			redis,
			postgres,
			main,
			workers,
			encryptionKey,
			addWorker,
			async restartMain() {
				const old = main;
				const t = Date.now();
				signalGroup(old.pid, 'SIGKILL');
				const alive = () => {
					try {
						process.kill(old.pid, 0);
						return true;
					} catch {
						return false;
					}
				};
				while (alive()) {
					if (Date.now() - t > 60_000) throw new Error(`the main (pid ${old.pid}) still runs 60 s after SIGKILL`);
					await sleep(50);
				}
				await old.stop(); // the user folder was given: kept
				// the package is installed in the user folder already; the new instance names its node types as the old did
				main = await startN8n({ flavor: o.flavor ?? 'v2', userFolder: old.userFolder, port: old.port, brokerPort: old.brokerPort, env: mainEnv });
				Object.assign(main, { nodeTypePrefix: old.nodeTypePrefix, packageName: old.packageName });
				stack.main = main;
				return { downSeconds: (Date.now() - t) / 1000 };
			},
			async stop() {
				await stopAll();
				fs.rmSync(dir, { recursive: true, force: true });
			},
		};
		return stack;
	} catch (e) {
		await stopAll();
		fs.rmSync(dir, { recursive: true, force: true });
		throw e;
	}
}
