/**
 * The Status Words options, one definition for every node that judges a deck's status (Get Status,
 * Download, Deck Generator Wait), and the reading of them. A list the user sets replaces the default
 * for that state, and its words are believed whatever the record says (shared/status.ts judgeStatus).
 */
import type { INodeProperties } from 'n8n-workflow';

import { DEFAULT_STATUS_WORDS, parseWordList, statusWords, type StatusWords } from '../status';

export interface StatusWordSettings {
	succeededWords?: string;
	failedWords?: string;
	runningWords?: string;
}

/** Each option by its name, for a panel that places them among its own options (the Wait node). */
export const statusWordOption: Record<keyof StatusWordSettings, INodeProperties> = {
	failedWords: {
		displayName: 'Failed Status Words',
		name: 'failedWords',
		type: 'string',
		default: '',
		placeholder: 'e.g. failed, error',
		description: `Comma-separated status words that mean the deck failed, replacing the built-in list (${DEFAULT_STATUS_WORDS.failed.join(', ')}, and words ending in _failed or _error; case, spaces and dashes do not matter). Your words are believed as they are; a word on the built-in list is checked against the record (a failure reason means failed, a file to hand over means completed).`,
	},
	runningWords: {
		displayName: 'Running Status Words',
		name: 'runningWords',
		type: 'string',
		default: '',
		placeholder: 'e.g. queued, generating',
		description: `Comma-separated status words that mean the deck is still being generated, replacing the built-in list (${DEFAULT_STATUS_WORDS.running.join(', ')}). A word on no list also keeps polling; the item's statusNote and the output pane name it.`,
	},
	succeededWords: {
		displayName: 'Succeeded Status Words',
		name: 'succeededWords',
		type: 'string',
		default: '',
		placeholder: 'e.g. completed, ready',
		description: `Comma-separated status words that mean the deck is ready, replacing the built-in list (${DEFAULT_STATUS_WORDS.succeeded.join(', ')}). A built-in word counts only when the record has something to hand over (a link, result or file); your own words are believed as they are.`,
	},
};

export const statusWordOptions: INodeProperties[] = Object.values(statusWordOption);

/** Items almost always share their word lists: one map for all of them, not one per item. */
const cache = new Map<string, StatusWords>();

export function readStatusWords(options: StatusWordSettings): StatusWords {
	const key = [options.succeededWords, options.failedWords, options.runningWords].join('\u0000');
	let words = cache.get(key);
	if (!words) {
		words = statusWords({
			succeeded: parseWordList(options.succeededWords),
			failed: parseWordList(options.failedWords),
			running: parseWordList(options.runningWords),
		});
		if (cache.size > 100) cache.clear();
		cache.set(key, words);
	}
	return words;
}
