/**
 * How a deck's status record is read, one definition for every node that judges it (Get Status, Download,
 * Deck Generator Wait in both modes, and their tools): the Status Words lists (a list the user sets replaces
 * the default for that state, and its words are believed whatever the record says) and the three paths that
 * fix a reading the built-in search gets wrong for some service (shared/status judgeStatus).
 */
import type { INodeProperties } from 'n8n-workflow';

import { DEFAULT_STATUS_WORDS, parseWordList, statusWords, type ReadingPaths, type StatusWords } from '../status';

export interface ReadingSettings {
	succeededWords?: string;
	failedWords?: string;
	runningWords?: string;
	statusWordPath?: string;
	/** File Link Path; named `downloadLink` since 0.1, when it was Download Link Path (a path among the status's links). */
	downloadLink?: string;
	failureReasonPath?: string;
}

const PATH_HELP = 'A dot path into the status record as Get Status shows it (a path copied from the service’s documentation that starts at its data envelope works too): members joined by dots, [0] for a list’s first entry, * for a member named after each deck (statuses.*.status); a member holding JSON as text is read through.';

/** Each option by its name, for a panel that places them among its own options (the Wait node). */
export const readingOption: Record<keyof ReadingSettings, INodeProperties> = {
	failedWords: {
		displayName: 'Failed Status Words',
		name: 'failedWords',
		type: 'string',
		default: '',
		placeholder: 'e.g. failed, error',
		description: `Comma-separated status words that mean the deck failed, replacing the built-in list (${DEFAULT_STATUS_WORDS.failed.join(', ')}, and words ending in one of them, such as GENERATION_FAILED or Content Moderated; case, spaces and dashes do not matter). Your words are believed as they are; a word on the built-in list is checked against the record (a failure reason means failed, a deck file that is there means completed).`,
	},
	failureReasonPath: {
		displayName: 'Failure Reason Path',
		name: 'failureReasonPath',
		type: 'string',
		default: '',
		placeholder: 'e.g. data.failMsg',
		description: `Where the service says why a deck failed, when the built-in reading misses it: the text there is the failed item’s reason. ${PATH_HELP} Empty: found by its name (error, failure, reason, a failed step’s message).`,
	},
	downloadLink: {
		displayName: 'File Link Path',
		name: 'downloadLink',
		type: 'string',
		default: '',
		placeholder: 'e.g. data.resultJson.resultUrls[0]',
		description: `Where the deck’s file link is, when the built-in reading picks another: the link there is deckUrl, what counts as the deck for the state, and what a download fetches. ${PATH_HELP} Empty: the most likely deck file among the record’s links.`,
	},
	runningWords: {
		displayName: 'Running Status Words',
		name: 'runningWords',
		type: 'string',
		default: '',
		placeholder: 'e.g. queued, generating',
		description: `Comma-separated status words that mean the deck is still being generated, replacing the built-in list (${DEFAULT_STATUS_WORDS.running.join(', ')}). A word on no list also keeps polling; the item's statusNote and the output pane name it.`,
	},
	statusWordPath: {
		displayName: 'Status Word Path',
		name: 'statusWordPath',
		type: 'string',
		default: '',
		placeholder: 'e.g. ok or data.job.state',
		description: `Where the deck’s status word is, when the built-in reading misses it. ${PATH_HELP} Empty: found wherever the record puts it (status, state, task_status, …).`,
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

/** The reading options in the panel's (alphabetical) order, for an options collection that holds them together. */
export const readingOptions: INodeProperties[] = Object.values(readingOption).sort((a, b) => a.displayName.localeCompare(b.displayName));

export interface Reading {
	words: StatusWords;
	paths: ReadingPaths;
}

/** Items almost always share their settings: one reading for all of them, not one per item. */
const cache = new Map<string, Reading>();

const trimmed = (text: string | undefined) => (typeof text === 'string' && text.trim() ? text.trim() : undefined);

export function readReading(options: ReadingSettings): Reading {
	const key = [options.succeededWords, options.failedWords, options.runningWords, options.statusWordPath, options.downloadLink, options.failureReasonPath].join('\u0000');
	let reading = cache.get(key);
	if (!reading) {
		const words = statusWords({
			succeeded: parseWordList(options.succeededWords),
			failed: parseWordList(options.failedWords),
			running: parseWordList(options.runningWords),
		});
		const paths: ReadingPaths = {};
		const word = trimmed(options.statusWordPath);
		const file = trimmed(options.downloadLink);
		const reason = trimmed(options.failureReasonPath);
		if (word) paths.word = word;
		if (file) paths.file = file;
		if (reason) paths.reason = reason;
		reading = { words, paths };
		if (cache.size > 100) cache.clear();
		cache.set(key, reading);
	}
	return reading;
}
