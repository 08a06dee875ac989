/**
 * Virtual time for code that waits through an injected Sleep: `sleep` registers a timer on a
 * virtual timeline, and `run` advances `now` straight to the earliest timer whenever every
 * microtask has settled. Hours of polling take milliseconds, and every instant is exact.
 */
import { CancelledError, type Sleep } from '../../nodes/shared/client';

interface Timer {
	at: number;
	seq: number;
	resolve: () => void;
}

export class VirtualClock {
	private current: number;
	private seq = 0;
	private timers: Timer[] = [];
	/** Timers pending at once, at most: a poller that keeps one schedule keeps this near 1. */
	maxPendingTimers = 0;
	sleeps = 0;

	constructor(start = 1_000_000) {
		this.current = start;
	}

	readonly now = (): number => this.current;

	readonly sleep: Sleep = (ms, signal) => {
		this.sleeps++;
		if (signal?.aborted) return Promise.reject(new CancelledError());
		return new Promise<void>((resolve, reject) => {
			const timer: Timer = { at: this.current + Math.max(0, ms), seq: this.seq++, resolve: () => resolve() };
			const onAbort = () => {
				this.timers = this.timers.filter((t) => t !== timer);
				reject(new CancelledError());
			};
			timer.resolve = () => {
				signal?.removeEventListener('abort', onAbort);
				resolve();
			};
			signal?.addEventListener('abort', onAbort, { once: true });
			this.timers.push(timer);
			this.maxPendingTimers = Math.max(this.maxPendingTimers, this.timers.length);
		});
	};

	/** Runs `work` to completion on virtual time; `at` hooks run when the clock reaches them. */
	async run<T>(work: Promise<T>, hooks: Array<{ at: number; do: () => void }> = []): Promise<T> {
		let done = false;
		let value: T | undefined;
		let failure: { error: unknown } | undefined;
		work.then(
			(v) => {
				done = true;
				value = v;
			},
			(error) => {
				done = true;
				failure = { error };
			},
		);
		const pendingHooks = [...hooks].sort((a, b) => a.at - b.at);
		for (;;) {
			await settle();
			if (done) {
				if (failure) throw failure.error;
				return value as T;
			}
			this.timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
			const timer = this.timers[0];
			const hook = pendingHooks[0];
			if (hook && (!timer || hook.at <= timer.at)) {
				pendingHooks.shift();
				this.current = Math.max(this.current, hook.at);
				hook.do();
				continue;
			}
			if (!timer) throw new Error(`Nothing scheduled at virtual ${this.current} and the work has not finished`);
			this.timers.shift();
			this.current = Math.max(this.current, timer.at);
			timer.resolve();
		}
	}
}

/** Lets every queued microtask (and the ones they queue) run. */
async function settle(): Promise<void> {
	for (let i = 0; i < 3; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}
