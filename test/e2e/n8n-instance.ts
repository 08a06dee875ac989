/**
 * Start a real n8n (installed by ./n8n-install.ts) headless on loopback, with a built community
 * package loaded the way a user's n8n loads it, and drive it over REST and the CLI.
 *
 *   const n8n = await startN8n({ flavor: 'v2', packageDir: '/path/to/built/package' });
 *   try { ... } finally { await n8n.stop(); }
 *
 * How the package gets in (option `install`):
 * - 'community' (default): exactly what n8n 2.x does for Settings -> Community Nodes -> Install
 *   (CommunityPackagesService.downloadPackage): `npm pack`, untar into
 *   <userFolder>/.n8n/nodes/node_modules/<name>, drop dev/peer/optional dependencies from its
 *   package.json, `npm install` its own dependencies inside it, record it in
 *   <userFolder>/.n8n/nodes/package.json. The only thing skipped is the registry download and the
 *   row in n8n's installed_packages table (so Settings -> Community Nodes doesn't list it; loading
 *   doesn't depend on that row). Node types are `<package name>.<node name>`.
 * - 'custom': N8N_CUSTOM_EXTENSIONS=<packageDir>/dist, node types `CUSTOM.<node name>`.
 */
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as net from 'net';
import * as os from 'os';
import * as path from 'path';
import { createRequire } from 'module';
import { Agent, fetch as undiciFetch } from 'undici';
import { ensureN8n, Flavor, N8nInstall } from './n8n-install';
import { killGroupWithParent, signalGroup, spawnOwned } from './owned-process';

export interface Owner {
	email: string;
	password: string;
	firstName: string;
	lastName: string;
}

export const DEFAULT_OWNER: Owner = {
	email: 'owner@deckgen.test',
	// n8n's password rules: 8-64 chars, a number and an uppercase letter
	password: 'DeckGen-e2e-Passw0rd',
	firstName: 'Deck',
	lastName: 'Owner',
};

export interface StartN8nOptions {
	flavor: Flavor;
	/** default: a free port */
	port?: number;
	/** task-runner broker port (n8n default 5679 would clash between instances); default: a free port */
	brokerPort?: number;
	/** built package root (package.json + dist/) to load; omit to start plain n8n */
	packageDir?: string;
	/** 'community' (default): as a user's n8n installs it; 'custom': N8N_CUSTOM_EXTENSIONS */
	install?: 'community' | 'custom';
	/** default: a new temp folder, deleted by stop() */
	userFolder?: string;
	/** keep the user folder after stop() (always kept when given by the caller) */
	keepUserFolder?: boolean;
	/** extra environment for n8n (wins over the defaults here) */
	env?: Record<string, string>;
	owner?: Owner;
	/** ms to wait for readiness; default 240 000 */
	startupTimeoutMs?: number;
	/** echo n8n's output to this process's stderr (dev) */
	echo?: boolean;
}

/**
 * Every request to n8n goes on a connection of its own. With keep-alive, a test that keeps the event
 * loop busy for seconds (loading n8n-workflow, say) misses the idle timer and sends its next request
 * on a socket n8n closed meanwhile: "fetch failed (other side closed)", once, under load.
 */
const toN8n = new Agent({ pipelining: 0 });
export const n8nFetch = (url: string, init: Parameters<typeof undiciFetch>[1] = {}) => undiciFetch(url, { ...init, dispatcher: toN8n });

export class RestError extends Error {
	constructor(
		public method: string,
		public url: string,
		public status: number,
		public body: unknown,
	) {
		super(`${method} ${url} -> HTTP ${status}: ${typeof body === 'string' ? body.slice(0, 500) : JSON.stringify(body)?.slice(0, 500)}`);
	}
}

/** How often a read is tried while n8n answers 5xx (a second apart). */
const GET_ATTEMPTS = 20;

/** Authenticated client for n8n's internal REST API (the one the editor uses). Unwraps `{ data }`. */
export class RestClient {
	cookie = '';
	/** n8n binds the auth cookie to this header (browserId check) */
	readonly browserId = 'deckgen-e2e-browser';

	constructor(public baseUrl: string) {}

	async request<T = any>(method: string, urlPath: string, body?: unknown, opts: { raw?: boolean; headers?: Record<string, string> } = {}): Promise<T> {
		const url = `${this.baseUrl}${urlPath}`;
		const headers: Record<string, string> = { 'browser-id': this.browserId, accept: 'application/json', ...opts.headers };
		if (this.cookie) headers.cookie = this.cookie;
		if (body !== undefined) headers['content-type'] = 'application/json';
		const res = await n8nFetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
		for (const c of res.headers.getSetCookie?.() ?? []) {
			const m = /^(n8n-auth)=([^;]*)/.exec(c);
			if (m) this.cookie = m[2] ? `${m[1]}=${m[2]}` : '';
		}
		const text = await res.text();
		let parsed: unknown = text;
		try {
			parsed = text ? JSON.parse(text) : undefined;
		} catch {
			/* not JSON */
		}
		if (!res.ok) throw new RestError(method, urlPath, res.status, parsed);
		if (opts.raw) return parsed as T;
		return (parsed && typeof parsed === 'object' && 'data' in (parsed as object) ? (parsed as { data: unknown }).data : parsed) as T;
	}
	/**
	 * A read is asked again while n8n answers 5xx or drops the connection: a main busy with a burst
	 * answers 503 "Database is not ready!" for a moment when its database ping times out.
	 */
	async get<T = any>(p: string): Promise<T> {
		for (let attempt = 1; ; attempt++) {
			try {
				return await this.request<T>('GET', p);
			} catch (e) {
				// fetch's "fetch failed" is a TypeError of another realm than jest's sandbox: known by its name
				const transient = e instanceof RestError ? e.status >= 500 : (e as Error)?.name === 'TypeError';
				if (!transient || attempt >= GET_ATTEMPTS) throw e;
				await new Promise((resolve) => setTimeout(resolve, 1_000));
			}
		}
	}
	post<T = any>(p: string, body?: unknown) {
		return this.request<T>('POST', p, body ?? {});
	}
	patch<T = any>(p: string, body?: unknown) {
		return this.request<T>('PATCH', p, body ?? {});
	}
	delete<T = any>(p: string) {
		return this.request<T>('DELETE', p);
	}
}

export interface WorkflowJson {
	name: string;
	nodes: Array<Record<string, any>>;
	connections: Record<string, any>;
	settings?: Record<string, any>;
	pinData?: Record<string, any>;
	[k: string]: unknown;
}

export interface ExecutionSummary {
	id: string;
	workflowId: string;
	status: string;
	finished: boolean;
	mode: string;
	retryOf?: string | null;
	retrySuccessId?: string | null;
	startedAt?: string;
	stoppedAt?: string;
	[k: string]: unknown;
}

export interface ExecutionDetail extends ExecutionSummary {
	/** execution data, un-flattened: { resultData: { runData, error?, lastNodeExecuted } , ... } */
	data: any;
	workflowData?: any;
}

export interface CliResult {
	exitCode: number | null;
	signal: NodeJS.Signals | null;
	ok: boolean;
	/** the IRun n8n prints (success: the --rawOutput JSON; failure: the JSON it logs) */
	run?: any;
	/** error message when the CLI reported one */
	error?: string;
	/** the execution row this run created (found via REST), when any */
	executionId?: string;
	stdout: string;
	stderr: string;
	seconds: number;
}

export interface WebhookResponse {
	status: number;
	headers: Record<string, string>;
	body: any;
}

export interface N8nInstance {
	flavor: Flavor;
	version: string;
	install: N8nInstall;
	baseUrl: string;
	port: number;
	brokerPort: number;
	userFolder: string;
	owner: Owner;
	rest: RestClient;
	/** `<package name>` (community) or `CUSTOM`: prefix of the package's node types */
	nodeTypePrefix?: string;
	packageName?: string;
	pid: number;
	/** seconds from spawn to REST-ready */
	startupSeconds: number;
	/** everything n8n printed (stdout + stderr interleaved), also in <userFolder>/n8n.log */
	readonly logs: string;
	/** log lines that look like warnings or errors */
	warnings(): string[];
	importWorkflow(json: WorkflowJson, opts?: { via?: 'rest' | 'cli' }): Promise<string>;
	getWorkflow(id: string): Promise<any>;
	updateWorkflow(id: string, patch: Partial<WorkflowJson>): Promise<any>;
	activate(id: string): Promise<void>;
	deactivate(id: string): Promise<void>;
	/** `env` is added to the CLI process's environment only (e.g. N8N_LOG_LEVEL: 'info' when the server runs at debug level, whose log format would wrap the printed JSON) */
	executeViaCli(id: string, opts?: { timeoutMs?: number; env?: Record<string, string> }): Promise<CliResult>;
	/** manual run through REST (as the editor's "Execute workflow"); resolves when finished */
	runManually(id: string, opts?: { timeoutMs?: number; triggerNode?: string }): Promise<ExecutionDetail>;
	runWebhook(opts: { path: string; method?: string; body?: unknown; query?: Record<string, string>; headers?: Record<string, string>; test?: boolean }): Promise<WebhookResponse>;
	getExecution(id: string): Promise<ExecutionDetail>;
	listExecutions(filter?: { workflowId?: string; status?: string[]; limit?: number }): Promise<ExecutionSummary[]>;
	waitForExecution(id: string, opts?: { timeoutMs?: number }): Promise<ExecutionDetail>;
	retryExecution(id: string, opts: { loadWorkflow: boolean }): Promise<{ raw: unknown; execution?: ExecutionDetail }>;
	createCredential(c: { name: string; type: string; data: Record<string, unknown> }): Promise<{ id: string; name: string; type: string }>;
	/** update the credential with this name and type (PATCH /rest/credentials/:id), or create it */
	upsertCredential(c: { name: string; type: string; data: Record<string, unknown> }): Promise<{ id: string; name: string; type: string }>;
	nodeTypes(): Promise<Array<{ name: string; displayName: string; version: number | number[]; [k: string]: unknown }>>;
	credentialTypes(): Promise<Array<{ name: string; displayName: string; [k: string]: unknown }>>;
	/**
	 * The environment this instance was started with, plus `overrides`: for another n8n process of the same
	 * setup (a queue-mode worker, see ./queue-stack.ts), which then needs its own ports and user folder.
	 */
	processEnv(overrides?: Record<string, string>): NodeJS.ProcessEnv;
	stop(): Promise<void>;
}

/**
 * Close the keep-alive connections of Node's built-in fetch (undici's global dispatcher; requests to
 * the simulator use it), so a test runner can exit at once after the last test.
 */
export async function closeHttpClients(): Promise<void> {
	const dispatcher = (globalThis as Record<symbol, { close?: () => Promise<void> } | undefined>)[Symbol.for('undici.globalDispatcher.1')];
	await dispatcher?.close?.().catch(() => undefined);
}

export function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const srv = net.createServer();
		srv.unref();
		srv.on('error', reject);
		srv.listen(0, '127.0.0.1', () => {
			const { port } = srv.address() as net.AddressInfo;
			srv.close(() => resolve(port));
		});
	});
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function runCommand(
	cmd: string,
	args: string[],
	opts: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
	return new Promise((resolve, reject) => {
		const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
		if (child.pid) killGroupWithParent(child.pid);
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (d) => (stdout += d));
		child.stderr.on('data', (d) => (stderr += d));
		const timer = opts.timeoutMs
			? setTimeout(() => {
					signalGroup(child.pid!, 'SIGKILL');
				}, opts.timeoutMs)
			: undefined;
		child.on('error', reject);
		child.on('close', (code, signal) => {
			if (timer) clearTimeout(timer);
			resolve({ code, signal, stdout, stderr });
		});
	});
}

/** npm environment without what an `npm run` parent passes down (e.g. the repo's ignore-scripts / local_prefix). */
function cleanNpmEnv(): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const [k, v] of Object.entries(process.env)) {
		if (/^npm_(config|package|lifecycle)_/i.test(k) && !/^npm_config_(cache|userconfig|registry|cafile)$/i.test(k)) continue;
		env[k] = v;
	}
	return env;
}

/**
 * Install a built package into <userFolder>/.n8n/nodes the way the README tells a user to:
 * `cd ~/.n8n/nodes && npm install <package>`, with the registry download replaced by the packed
 * tarball (`npm pack` honours "files", so it is exactly what the registry would serve). npm runs
 * under the flavor's Node.js (`npmEnv`: 24 for n8n 2.x, 20 for 1.123.x), with the user's npm
 * settings (scripts not ignored), as a user's would. n8n scans that folder at startup.
 *
 * Then it checks that this installed only the package: nothing but the package and its declared
 * dependencies in node_modules, and, for a package without dependencies, exactly the bytes of the
 * tarball (an `n8n-workflow` peer pulled in by npm was a second 144 MB copy on Node 24, and a failed
 * native build of isolated-vm on Node 20).
 */
export async function installCommunityPackage(
	packageDir: string,
	userFolder: string,
	npmEnv: Record<string, string> = {},
): Promise<{ name: string; version: string; dir: string; installedBytes: number }> {
	const pkg = JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8'));
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	fs.mkdirSync(nodesDir, { recursive: true });
	const env = { ...cleanNpmEnv(), ...npmEnv };
	const packDir = fs.mkdtempSync(path.join(os.tmpdir(), 'deckgen-pack-'));
	try {
		const packed = await runCommand('npm', ['pack', packageDir, '--pack-destination', packDir, '--ignore-scripts', '--json', '--loglevel=error'], { cwd: packDir, env, timeoutMs: 120_000 });
		if (packed.code !== 0) throw new Error(`npm pack ${packageDir} failed: ${packed.stderr}`);
		const [{ filename, unpackedSize }] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as Array<{ filename: string; unpackedSize: number }>;
		const tarball = path.join(packDir, filename);

		// The folder n8n creates for community packages, if this is the first one.
		const manifest = path.join(nodesDir, 'package.json');
		if (!fs.existsSync(manifest)) fs.writeFileSync(manifest, JSON.stringify({ name: 'installed-nodes', private: true, dependencies: {} }, null, 2));
		const inst = await runCommand('npm', ['install', tarball], { cwd: nodesDir, env, timeoutMs: 300_000 });
		if (inst.code !== 0) throw new Error(`npm install ${filename} in ${nodesDir} failed (${inst.code}): ${inst.stderr}`);

		const dest = path.join(nodesDir, 'node_modules', pkg.name);
		const pj = JSON.parse(fs.readFileSync(path.join(dest, 'package.json'), 'utf8'));
		const allowed = new Set([pkg.name, ...Object.keys(pj.dependencies ?? {})]);
		const installed = topLevelPackages(path.join(nodesDir, 'node_modules'));
		const extra = installed.filter((name) => !allowed.has(name));
		if (extra.length) {
			throw new Error(`npm install ${filename} installed more than the package: ${extra.join(', ')} (${installed.length} packages)`);
		}
		const installedBytes = bytesUnder(dest);
		if (!pj.dependencies && installedBytes !== unpackedSize) {
			throw new Error(`npm install ${filename} installed ${installedBytes} bytes; the package is ${unpackedSize}`);
		}
		return { name: pkg.name, version: pj.version, dir: dest, installedBytes };
	} finally {
		fs.rmSync(packDir, { recursive: true, force: true });
	}
}

/** Package names directly under a node_modules folder (scoped ones as @scope/name). */
function topLevelPackages(nodeModules: string): string[] {
	const names: string[] = [];
	for (const entry of fs.readdirSync(nodeModules)) {
		if (entry.startsWith('.')) continue; // npm's own .package-lock.json and .bin
		if (entry.startsWith('@')) for (const scoped of fs.readdirSync(path.join(nodeModules, entry))) names.push(`${entry}/${scoped}`);
		else names.push(entry);
	}
	return names;
}

function bytesUnder(dir: string): number {
	let total = 0;
	for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
		const full = path.join(dir, entry.name);
		total += entry.isDirectory() ? bytesUnder(full) : fs.statSync(full).size;
	}
	return total;
}

const WARNING_RE = /\b(warn|warning|error|deprecat|skipping|failed|unrecognized)\b/i;

export async function startN8n(opts: StartN8nOptions): Promise<N8nInstance> {
	const install = await ensureN8n(opts.flavor);
	const isV1 = opts.flavor === 'v1';
	const port = opts.port ?? (await freePort());
	const brokerPort = opts.brokerPort ?? (await freePort());
	const ownUserFolder = !opts.userFolder;
	const userFolder = opts.userFolder ?? fs.mkdtempSync(path.join(os.tmpdir(), `deckgen-n8n-${opts.flavor}-`));
	fs.mkdirSync(userFolder, { recursive: true });
	const owner = opts.owner ?? DEFAULT_OWNER;
	const baseUrl = `http://127.0.0.1:${port}`;

	let nodeTypePrefix: string | undefined;
	let packageName: string | undefined;
	const extraEnv: Record<string, string> = {};
	if (opts.packageDir) {
		const mode = opts.install ?? 'community';
		if (mode === 'community') {
			const p = await installCommunityPackage(opts.packageDir, userFolder, install.env);
			packageName = p.name;
			nodeTypePrefix = p.name;
		} else {
			extraEnv.N8N_CUSTOM_EXTENSIONS = path.join(opts.packageDir, 'dist');
			packageName = JSON.parse(fs.readFileSync(path.join(opts.packageDir, 'package.json'), 'utf8')).name;
			nodeTypePrefix = 'CUSTOM';
		}
	}

	const baseEnv: NodeJS.ProcessEnv = { ...process.env };
	// jest sets NODE_ENV=test, and n8n refuses to load nodes "in tests"
	delete baseEnv.NODE_ENV;
	for (const k of Object.keys(baseEnv)) if (/^(JEST_|npm_)/i.test(k)) delete baseEnv[k];
	const n8nEnv = (overrides: Record<string, string> = {}): NodeJS.ProcessEnv => ({
		...baseEnv,
		...install.env,
		N8N_USER_FOLDER: userFolder,
		N8N_PORT: String(port),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_PROTOCOL: 'http',
		// 2.x renamed WEBHOOK_URL (and warns about the old name)
		...(isV1 ? { WEBHOOK_URL: `${baseUrl}/` } : { N8N_WEBHOOK_URL: `${baseUrl}/` }),
		N8N_EDITOR_BASE_URL: `${baseUrl}/`,
		N8N_RUNNERS_BROKER_PORT: String(brokerPort),
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		// http on 127.0.0.1: let a browser keep the auth cookie
		N8N_SECURE_COOKIE: 'false',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'true',
		// the default today; 2.x warns it will flip to false (which would block installing our package from the UI)
		N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
		// 2.x publishes activated workflows through an outbox polled every 15 s by default
		N8N_WORKFLOW_PUBLICATION_OUTBOX_POLL_INTERVAL_MS: '500',
		...extraEnv,
		...opts.env,
		...overrides,
	});

	const started = Date.now();
	// own process group: stop() ends n8n and its task runners together
	const proc = spawnOwned('n8n', install.nodeBin, [install.n8nBin, 'start'], { cwd: userFolder, env: n8nEnv(), logFile: path.join(userFolder, 'n8n.log'), echo: opts.echo });

	let stopping: Promise<void> | undefined;
	const stop = (): Promise<void> => {
		stopping ??= (async () => {
			await proc.stop('SIGTERM', 20_000);
			if (ownUserFolder && !opts.keepUserFolder) fs.rmSync(userFolder, { recursive: true, force: true });
		})();
		return stopping;
	};

	const rest = new RestClient(baseUrl);
	const tail = () => proc.logs().split('\n').slice(-60).join('\n');

	try {
		// readiness: /healthz answers as soon as the port is open; /healthz/readiness once the database is
		// migrated; "Editor is now accessible" once n8n has finished starting (webhooks, triggers, REST).
		const timeoutMs = opts.startupTimeoutMs ?? 240_000;
		const deadline = Date.now() + timeoutMs;
		let restReadySince = 0;
		for (;;) {
			const exited = proc.exited();
			if (exited) throw new Error(`n8n exited during startup (code ${exited.code}, signal ${exited.signal}):\n${tail()}`);
			if (Date.now() > deadline) throw new Error(`n8n not ready after ${timeoutMs / 1000}s:\n${tail()}`);
			let restReady = false;
			try {
				const h = await n8nFetch(`${baseUrl}/healthz/readiness`);
				await h.arrayBuffer();
				if (h.ok || h.status === 404) {
					const s = await n8nFetch(`${baseUrl}/rest/settings`);
					await s.arrayBuffer();
					restReady = s.ok;
				}
			} catch {
				/* not listening yet */
			}
			if (restReady) {
				restReadySince ||= Date.now();
				// the banner line is info-level: with a quieter N8N_LOG_LEVEL, settle for 10 s of REST answering
				if (/Editor is now accessible/.test(proc.logs()) || Date.now() - restReadySince > 10_000) break;
			}
			await sleep(250);
		}
	} catch (e) {
		await stop();
		throw e;
	}
	const startupSeconds = (Date.now() - started) / 1000;

	try {
		await setupOwnerAndLogin(rest, owner);
	} catch (e) {
		await stop();
		throw new Error(`owner setup/login failed: ${(e as Error).message}\n${tail()}`);
	}

	const flatted = createRequire(path.join(install.dir, 'node_modules', 'n8n', 'package.json'))('flatted') as { parse(s: string): any };

	const getExecution = async (id: string): Promise<ExecutionDetail> => {
		const e = await rest.get(`/rest/executions/${id}`);
		return { ...e, data: typeof e.data === 'string' ? flatted.parse(e.data) : e.data };
	};

	const listExecutions = async (filter: { workflowId?: string; status?: string[]; limit?: number } = {}): Promise<ExecutionSummary[]> => {
		const f: Record<string, unknown> = {};
		if (filter.workflowId) f.workflowId = filter.workflowId;
		if (filter.status) f.status = filter.status;
		const q = new URLSearchParams({ filter: JSON.stringify(f), limit: String(filter.limit ?? 100) });
		const r = await rest.get(`/rest/executions?${q}`);
		return (r.results ?? r) as ExecutionSummary[];
	};

	const waitForExecution = async (id: string, o: { timeoutMs?: number } = {}): Promise<ExecutionDetail> => {
		const deadline = Date.now() + (o.timeoutMs ?? 60_000);
		for (;;) {
			try {
				const e = await getExecution(id);
				const done = !['new', 'running', 'waiting', 'unknown'].includes(e.status) || e.finished;
				// 1.x writes the status row and the execution data separately: a read in between sees a
				// finished execution with no run data yet. A finished run has data for at least its trigger, or an error.
				const result = e.data?.resultData;
				const hasData = Boolean(result && (Object.keys(result.runData ?? {}).length > 0 || result.error));
				if (done && (hasData || Date.now() > deadline)) return e;
			} catch (err) {
				if (!(err instanceof RestError && err.status === 404)) throw err;
			}
			if (Date.now() > deadline) throw new Error(`execution ${id} did not finish in time`);
			await sleep(250);
		}
	};

	const getWorkflow = (id: string) => rest.get(`/rest/workflows/${id}`);

	type Publication = { status: string; liveVersionId: string | null; triggers: Array<{ nodeId: string; status: string; errorMessage?: string }> };
	const waitForPublication = async (id: string, done: (s: Publication) => boolean, timeoutMs = 90_000): Promise<void> => {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			let s: Publication;
			try {
				s = await rest.get(`/rest/workflows/${id}/publication-status`);
			} catch (e) {
				if (e instanceof RestError && e.status === 404) return; // publication service off: activation was synchronous
				throw e;
			}
			if (done(s)) return;
			if (s.status === 'failed' || s.status === 'partial') throw new Error(`publishing workflow ${id} failed: ${JSON.stringify(s.triggers)}`);
			if (Date.now() > deadline) throw new Error(`workflow ${id} publication still ${JSON.stringify(s)} after ${timeoutMs / 1000}s`);
			await sleep(250);
		}
	};

	const importViaCli = async (json: WorkflowJson): Promise<string> => {
		const id = (json.id as string | undefined) ?? randomWorkflowId();
		const file = path.join(userFolder, `import-${id}.json`);
		fs.writeFileSync(file, JSON.stringify({ active: false, settings: {}, ...json, id }));
		const r = await runCommand(install.nodeBin, [install.n8nBin, 'import:workflow', `--input=${file}`], {
			cwd: userFolder,
			env: n8nEnv({ N8N_RUNNERS_BROKER_PORT: String(await freePort()), N8N_PORT: String(await freePort()) }),
			timeoutMs: 180_000,
		});
		fs.rmSync(file, { force: true });
		if (r.code !== 0) throw new Error(`n8n import:workflow failed (${r.code}):\n${r.stdout}\n${r.stderr}`);
		return id;
	};

	const instance: N8nInstance = {
		flavor: opts.flavor,
		version: install.version,
		install,
		baseUrl,
		port,
		brokerPort,
		userFolder,
		owner,
		rest,
		nodeTypePrefix,
		packageName,
		pid: proc.pid,
		startupSeconds,
		get logs() {
			return proc.logs();
		},
		warnings: () => proc.logs().split('\n').filter((l) => WARNING_RE.test(l)),

		async importWorkflow(json, o = {}) {
			if (o.via === 'cli') return importViaCli(json);
			const body: Record<string, unknown> = {
				name: json.name,
				nodes: json.nodes,
				connections: json.connections,
				settings: json.settings ?? {},
				active: false,
			};
			if (json.pinData) body.pinData = json.pinData;
			const wf = await rest.post('/rest/workflows', body);
			return String(wf.id);
		},

		getWorkflow,

		async updateWorkflow(id, patch) {
			const current = await getWorkflow(id);
			return rest.patch(`/rest/workflows/${id}`, { ...patch, versionId: current.versionId });
		},

		async activate(id) {
			// both versions: POST /rest/workflows/:id/activate { versionId } (1.x also still takes PATCH { active: true })
			const wf = await getWorkflow(id);
			await rest.post(`/rest/workflows/${id}/activate`, { versionId: wf.versionId });
			// 2.x publishes through an outbox (polled every N8N_WORKFLOW_PUBLICATION_OUTBOX_POLL_INTERVAL_MS):
			// triggers and webhooks are live only once the publication status says so; 1.x has no such status
			await waitForPublication(id, (s) => s.status === 'published' && s.liveVersionId === wf.versionId);
		},

		async deactivate(id) {
			await rest.post(`/rest/workflows/${id}/deactivate`, {});
			await waitForPublication(id, (s) => s.status === 'not_published');
		},

		async executeViaCli(id, o = {}) {
			const t = Date.now();
			const before = new Set((await listExecutions({ workflowId: id })).map((e) => e.id));
			// the CLI is a second n8n process on the same database: give it its own broker/http ports
			const r = await runCommand(install.nodeBin, [install.n8nBin, 'execute', `--id=${id}`, '--rawOutput'], {
				cwd: userFolder,
				env: n8nEnv({ ...o.env, N8N_RUNNERS_BROKER_PORT: String(await freePort()), N8N_PORT: String(await freePort()) }),
				timeoutMs: o.timeoutMs ?? 180_000,
			});
			const result: CliResult = { exitCode: r.code, signal: r.signal, ok: false, stdout: r.stdout, stderr: r.stderr, seconds: (Date.now() - t) / 1000 };
			result.run = extractJson(r.stdout);
			const err = result.run?.data?.resultData?.error;
			// success = n8n printed the finished run without an error. (The exit status is kept in
			// exitCode/signal: a CLI that dies by a signal after printing is reported there, not as a failure.)
			result.ok = Boolean(result.run) && !err && result.run.finished !== false && (r.code === 0 || r.code === null);
			if (err) result.error = err.message ?? JSON.stringify(err);
			else if (!result.ok) {
				const m = /Execution error:[\s\S]*?={10,}\s*\n(.+)/.exec(r.stdout + '\n' + r.stderr);
				result.error = m?.[1]?.trim() || (r.stderr || r.stdout).trim().split('\n').slice(-5).join('\n');
			}
			const after = await listExecutions({ workflowId: id });
			const created = after.filter((e) => !before.has(e.id)).sort((a, b) => Number(b.id) - Number(a.id));
			if (created[0]) result.executionId = String(created[0].id);
			return result;
		},

		async runManually(id, o = {}) {
			const wf = await getWorkflow(id);
			const trigger =
				o.triggerNode ??
				(wf.nodes as Array<{ name: string; type: string }>).find((n) => /trigger|webhook/i.test(n.type))?.name ??
				wf.nodes[0].name;
			// 1.x: the editor sends the whole workflow; 2.x: the saved workflow + where to start
			const body = isV1 ? { workflowData: wf, triggerToStartFrom: { name: trigger } } : { triggerToStartFrom: { name: trigger } };
			const r = await rest.post(`/rest/workflows/${id}/run`, body);
			if (!r?.executionId) throw new Error(`manual run of ${id} did not start an execution: ${JSON.stringify(r)}`);
			return waitForExecution(String(r.executionId), { timeoutMs: o.timeoutMs });
		},

		async runWebhook(o) {
			const base = o.test ? 'webhook-test' : 'webhook';
			const q = o.query ? `?${new URLSearchParams(o.query)}` : '';
			const headers: Record<string, string> = { ...o.headers };
			let body: string | undefined;
			if (o.body !== undefined) {
				body = typeof o.body === 'string' ? o.body : JSON.stringify(o.body);
				headers['content-type'] ??= typeof o.body === 'string' ? 'text/plain' : 'application/json';
			}
			const res = await n8nFetch(`${baseUrl}/${base}/${o.path.replace(/^\//, '')}${q}`, { method: o.method ?? 'POST', headers, body });
			const text = await res.text();
			let parsed: unknown = text;
			try {
				parsed = JSON.parse(text);
			} catch {
				/* text */
			}
			return { status: res.status, headers: Object.fromEntries(res.headers.entries()), body: parsed };
		},

		getExecution,
		listExecutions,
		waitForExecution,

		async retryExecution(id, o) {
			const before = new Set((await listExecutions({})).map((e) => e.id));
			const raw = await rest.post(`/rest/executions/${id}/retry`, { loadWorkflow: o.loadWorkflow });
			// 2.x answers with the new execution; 1.x with a boolean (finished): look the new one up
			let newId: string | undefined = raw && typeof raw === 'object' && 'id' in (raw as object) ? String((raw as { id: unknown }).id) : undefined;
			if (!newId) {
				const fresh = (await listExecutions({})).filter((e) => !before.has(e.id) && String(e.retryOf) === String(id));
				newId = fresh[0] ? String(fresh[0].id) : undefined;
			}
			return { raw, execution: newId ? await waitForExecution(newId) : undefined };
		},

		async createCredential(c) {
			const r = await rest.post('/rest/credentials', { name: c.name, type: c.type, data: c.data });
			return { id: String(r.id), name: r.name, type: r.type };
		},

		async upsertCredential(c) {
			const all = await rest.get<Array<{ id: string; name: string; type: string }>>('/rest/credentials');
			const found = all.find((x) => x.name === c.name && x.type === c.type);
			if (!found) return instance.createCredential(c);
			await rest.patch(`/rest/credentials/${found.id}`, { name: c.name, type: c.type, data: c.data });
			return { id: String(found.id), name: found.name, type: found.type };
		},

		async nodeTypes() {
			return rest.get('/types/nodes.json');
		},

		async credentialTypes() {
			return rest.get('/types/credentials.json');
		},

		processEnv: (overrides = {}) => n8nEnv(overrides),

		stop,
	};
	return instance;
}

/** Same payloads on 1.123 and 2.41: POST /rest/owner/setup, then POST /rest/login { emailOrLdapLoginId, password }. */
async function setupOwnerAndLogin(rest: RestClient, owner: Owner): Promise<void> {
	try {
		await rest.post('/rest/owner/setup', { email: owner.email, firstName: owner.firstName, lastName: owner.lastName, password: owner.password });
	} catch (e) {
		// a reused user folder already has its owner
		if (!(e instanceof RestError && e.status === 400)) throw e;
	}
	rest.cookie = '';
	await rest.post('/rest/login', { emailOrLdapLoginId: owner.email, password: owner.password });
	if (!rest.cookie) throw new Error('login returned no n8n-auth cookie');
}

function randomWorkflowId(): string {
	const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
	let s = '';
	for (let i = 0; i < 16; i++) s += chars[Math.floor(Math.random() * chars.length)];
	return s;
}

/** The pretty-printed JSON object n8n's `execute` prints: from a line that is exactly "{" to the matching "}". */
export function extractJson(out: string): any {
	const lines = out.split('\n');
	for (let i = 0; i < lines.length; i++) {
		if (lines[i].trimEnd() !== '{') continue;
		for (let j = lines.length - 1; j > i; j--) {
			if (lines[j].trimEnd() !== '}') continue;
			try {
				return JSON.parse(lines.slice(i, j + 1).join('\n'));
			} catch {
				/* try a shorter span */
			}
		}
	}
	return undefined;
}
