/**
 * Check Once: one batch reads each deck's status once, all at once, and routes each item as that
 * read found it: Completed, Failed, or Still Running with its status, for a loop through n8n's own
 * Wait node (the at-scale shape). Nothing waits, so there is nothing to say before it.
 */
import type { WaitMode } from './node.type';
import { pollInterval } from './waitUntilDone.mode';

export const checkOnce: WaitMode = {
	deckSpec: (taskId, options, { words, paths }, loopback) => ({
		taskId,
		// read once and at once; the interval only groups the decks in the poller, as it always has
		intervalMs: pollInterval(options.pollIntervalSeconds, loopback).ms,
		once: true,
		words,
		paths,
	}),
};
