/**
 * Wait Until Done: one batch polls all its decks together on one schedule (shared/poller/schedule.ts) until
 * each has finished or Max Wait has passed, then emits every item at once: Completed, Failed, or
 * Still Running with its last status (a later run can resume it). Before it waits it says in the
 * output pane what a restart would lose, and when Poll Interval was raised to the contract's 5 s.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { CONTRACT_POLL_INTERVAL_MS, DEFAULT_MAX_WAIT_MS } from '../../shared/poller';
import type { WaitMode } from './node.type';

export const waitUntilDone: WaitMode = {
	deckSpec: (taskId, options, { words, paths }, loopback) => ({
		taskId,
		intervalMs: pollInterval(options.pollIntervalSeconds, loopback).ms,
		maxWaitMs: options.maxWaitMinutes !== undefined ? options.maxWaitMinutes * 60_000 : DEFAULT_MAX_WAIT_MS,
		once: false,
		words,
		paths,
	}),

	announce(ctx: IExecuteFunctions, options, loopback) {
		if (ctx.getWorkflowSettings().saveExecutionProgress !== true) {
			ctx.addExecutionHints?.({ message: UNSAVED_PROGRESS_HINT, type: 'info', location: 'outputPane' });
		}
		// the last item's, as the items usually share their options
		const clampedFrom = options.map((each) => pollInterval(each.pollIntervalSeconds, loopback).clampedFrom).filter((seconds) => seconds !== undefined).pop();
		if (clampedFrom !== undefined) {
			const message = `Poll Interval of ${clampedFrom} s is below the 5 s the service asks for; polling every 5 s (only a loopback Base URL is polled faster)`;
			ctx.logger.warn(`Deck Generator Wait: ${message}`);
			ctx.addExecutionHints?.({ message, type: 'warning', location: 'outputPane' });
		}
	},
};

/**
 * Said when Wait Until Done runs in a workflow that does not save its progress: by default n8n
 * saves an execution only at its start, at a wait and at its end, so a restart while this node
 * waits loses every output before it.
 */
export const UNSAVED_PROGRESS_HINT =
	'This workflow does not save execution progress (unless your n8n does so by default: EXECUTIONS_DATA_SAVE_ON_PROGRESS). If n8n restarts or crashes while this node waits, the execution is marked crashed and the decks bought before it are not in it; Retry replays those purchases without charging again. To resume at this node instead, turn on "Save execution progress" in the workflow settings. For many or long decks, use Check Once with n8n\'s Wait node.';

/**
 * The interval between two reads of a deck. Below the contract's 5 s only on a loopback base URL
 * (tests, benchmarks): the real service is never polled faster than it asks.
 */
export function pollInterval(seconds: number | undefined, loopback: boolean): { ms: number; clampedFrom?: number } {
	const ms = (seconds ?? CONTRACT_POLL_INTERVAL_MS / 1000) * 1000;
	if (ms < CONTRACT_POLL_INTERVAL_MS && !loopback) return { ms: CONTRACT_POLL_INTERVAL_MS, clampedFrom: ms / 1000 };
	return { ms };
}
