/**
 * Processes the end-to-end tests own (n8n mains and workers, Redis, PostgreSQL, n8n's CLI): each in
 * its own process group, so a stop or a kill takes what it started too (n8n's task runners), with its
 * output kept in memory and in a log file, and never outliving the test process.
 *
 * Why a watchdog, not a signal handler: jest gives test code a sandboxed `process`, whose 'exit',
 * 'SIGINT' and 'SIGTERM' listeners never run when the real process goes (tried: a SIGTERM to jest left
 * every child running). A small `sh` loop per group, outside the group, polls the test process and
 * SIGKILLs the group once the test process is gone, whatever ended it (a CI timeout, Ctrl-C, SIGKILL).
 */
import { ChildProcess, spawn } from 'child_process';
import * as fs from 'fs';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Resolves when `p` does or after `ms`, whichever is first; clears its timer (a pending one keeps jest from exiting). */
const settled = (p: Promise<void>, ms: number) =>
	new Promise<void>((resolve) => {
		const timer = setTimeout(resolve, ms);
		void p.then(() => {
			clearTimeout(timer);
			resolve();
		});
	});

export interface OwnedProcess {
	name: string;
	pid: number;
	child: ChildProcess;
	logFile: string;
	/** everything the process printed so far */
	logs(): string;
	exited(): { code: number | null; signal: NodeJS.Signals | null } | undefined;
	/** resolves when the process has exited */
	readonly exit: Promise<void>;
	/** signal the process group, wait up to timeoutMs for the exit, then SIGKILL what is left of the group */
	stop(signal?: NodeJS.Signals, timeoutMs?: number): Promise<void>;
	/** SIGKILL the process group at once (a crash, as far as everyone else can tell) */
	kill(): Promise<void>;
}

export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
	try {
		process.kill(-pgid, signal);
		return true;
	} catch {
		return false; // already gone
	}
}

/**
 * SIGKILLs the process group `pgid` once this (test) process is gone; ends by itself once the group is.
 * Runs outside the group, so stopping the group does not stop the watch.
 */
export function killGroupWithParent(pgid: number): void {
	const script = `while kill -0 ${process.pid} 2>/dev/null && kill -0 -${pgid} 2>/dev/null; do sleep 1; done; kill -0 ${process.pid} 2>/dev/null || kill -KILL -${pgid} 2>/dev/null`;
	spawn('sh', ['-c', script], { detached: true, stdio: 'ignore' }).unref();
}

/** Spawns `cmd` in its own process group, tied to the test process's life. */
export function spawnOwned(
	name: string,
	cmd: string,
	args: string[],
	o: { env?: NodeJS.ProcessEnv; cwd?: string; logFile: string; uid?: number; gid?: number; echo?: boolean },
): OwnedProcess {
	const child = spawn(cmd, args, { env: o.env ?? process.env, cwd: o.cwd, uid: o.uid, gid: o.gid, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
	if (!child.pid) throw new Error(`could not start ${cmd}`);
	killGroupWithParent(child.pid);
	const stream = fs.createWriteStream(o.logFile, { flags: 'a' });
	let text = '';
	const onData = (d: Buffer) => {
		text += d.toString();
		stream.write(d);
		if (o.echo) process.stderr.write(d);
	};
	child.stdout!.on('data', onData);
	child.stderr!.on('data', onData);
	let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
	const exitPromise = new Promise<void>((resolve) =>
		child.on('exit', (code, signal) => {
			exit = { code, signal };
			resolve();
		}),
	);
	let stopping: Promise<void> | undefined;
	const proc: OwnedProcess = {
		name,
		pid: child.pid,
		child,
		logFile: o.logFile,
		logs: () => text,
		exited: () => exit,
		exit: exitPromise,
		stop(signal = 'SIGTERM', timeoutMs = 20_000) {
			stopping ??= (async () => {
				if (!exit) {
					signalGroup(proc.pid, signal);
					await settled(exitPromise, timeoutMs);
				}
				// whatever is left of the group (n8n's task runners): asked first, then killed
				if (signalGroup(proc.pid, 'SIGTERM')) await sleep(500);
				signalGroup(proc.pid, 'SIGKILL');
				await settled(exitPromise, 5000);
				await new Promise<void>((r) => stream.end(r));
			})();
			return stopping;
		},
		async kill() {
			signalGroup(proc.pid, 'SIGKILL');
			await settled(exitPromise, 5000);
		},
	};
	return proc;
}
