/**
 * The schedules the benchmark sets beside the Wait node's, written the way each is usually
 * written. Every read is one `callService` call (the core's retry policy: a 429 waits its
 * Retry-After), so they differ only in when they read.
 */
import { CredentialGate, type CallResult } from '../../nodes/shared/client';
import { abortableSleep } from '../../nodes/shared/n8n/transport';
import { stateOf, statusWordOf } from '../../nodes/shared/status';

export type FetchStatus = (taskId: string, gate?: CredentialGate) => Promise<CallResult>;

/** Whether a status read ends the wait for its deck: done (either way), or a failure that will not change. */
export function isFinished(result: CallResult): boolean {
	if (result.outcome.route !== 'success') return !result.outcome.failure.retryable;
	const state = stateOf(statusWordOf(result.outcome.body));
	return state === 'succeeded' || state === 'failed';
}

/** Reads one deck every interval (between request starts) until it is finished. */
async function readUntilFinished(taskId: string, fetchStatus: FetchStatus, intervalMs: number, gate?: CredentialGate): Promise<void> {
	for (;;) {
		const firedAt = performance.now();
		if (isFinished(await fetchStatus(taskId, gate))) return;
		await abortableSleep(Math.max(0, firedAt + intervalMs - performance.now()));
	}
}

/**
 * The package's schedule before this change: every unfinished deck read every interval, first
 * reads spread uniformly over one interval, one credential gate pausing all of them on a 429.
 */
export async function everyDeckEveryInterval(taskIds: string[], fetchStatus: FetchStatus, intervalMs: number): Promise<void> {
	const gate = new CredentialGate();
	await Promise.all(
		taskIds.map(async (taskId) => {
			await abortableSleep(Math.random() * intervalMs);
			await readUntilFinished(taskId, fetchStatus, intervalMs, gate);
		}),
	);
}

/** What a user builds by hand: one loop per deck (read, wait, read again), all started together. */
export async function loopPerDeck(taskIds: string[], fetchStatus: FetchStatus, intervalMs: number): Promise<void> {
	await Promise.all(taskIds.map(async (taskId) => await readUntilFinished(taskId, fetchStatus, intervalMs)));
}

/** One deck after another, each read every interval until it is finished. */
export async function oneAfterAnother(taskIds: string[], fetchStatus: FetchStatus, intervalMs: number): Promise<void> {
	for (const taskId of taskIds) await readUntilFinished(taskId, fetchStatus, intervalMs);
}
