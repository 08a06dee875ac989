/**
 * Status word -> state. The contract does not list the status words, and warns that one of them
 * reads as the opposite of what it means without saying which; so this is a default map that the
 * user can override per list in the node options, and an unknown word is never guessed at: it
 * keeps polling and is reported exactly as it came.
 */

export type DeckState = 'running' | 'succeeded' | 'failed' | 'unknown';

export interface StatusWords {
	succeeded: string[];
	failed: string[];
	running: string[];
}

export const DEFAULT_STATUS_WORDS: StatusWords = {
	succeeded: ['completed', 'complete', 'done', 'succeeded', 'success', 'ready', 'finished'],
	failed: ['failed', 'failure', 'error', 'errored', 'cancelled', 'canceled', 'expired', 'rejected'],
	running: [
		'queued',
		'pending',
		'processing',
		'running',
		'in_progress',
		'generating',
		'started',
		'created',
		'accepted',
	],
};

function normalise(word: string): string {
	return word.trim().toLowerCase().replace(/[\s-]+/g, '_');
}

/** Splits a user's comma- or newline-separated list; an empty list means "keep the default". */
export function parseWordList(text: string | undefined): string[] | undefined {
	if (!text) return undefined;
	const words = text
		.split(/[,\n]/)
		.map(normalise)
		.filter((word) => word.length > 0);
	return words.length ? words : undefined;
}

/**
 * A user's list for one state replaces the default for that state, and its words are taken out
 * of the other defaults, so "treat `complete` as failed" really moves the word.
 */
export function statusWords(overrides: Partial<StatusWords> = {}): StatusWords {
	const overridden = new Set(
		[...(overrides.succeeded ?? []), ...(overrides.failed ?? []), ...(overrides.running ?? [])].map(normalise),
	);
	const pick = (state: keyof StatusWords): string[] =>
		overrides[state]?.map(normalise) ?? DEFAULT_STATUS_WORDS[state].filter((word) => !overridden.has(word));
	return { succeeded: pick('succeeded'), failed: pick('failed'), running: pick('running') };
}

export function stateOf(word: string | undefined, words: StatusWords = DEFAULT_STATUS_WORDS): DeckState {
	if (word === undefined) return 'unknown';
	const normalised = normalise(word);
	if (words.succeeded.includes(normalised)) return 'succeeded';
	if (words.failed.includes(normalised)) return 'failed';
	if (words.running.includes(normalised)) return 'running';
	return 'unknown';
}

/** Members of a status object that carry its word (`"status": {"code": "completed", …}`). */
const WORD_MEMBERS = ['code', 'name', 'value', 'state', 'status', 'phase'] as const;

/**
 * The status word of a status response: `status`, falling back to `state`. The contract shows no
 * status fields, so the word may also sit inside an object under one of WORD_MEMBERS, or be a
 * number (read as text, which the Status Words lists can map). Text wins over a number.
 */
export function statusWordOf(body: Record<string, unknown>): string | undefined {
	const values = (['status', 'state'] as const).map((member) => body[member]);
	const inner = values.flatMap((value) =>
		value && typeof value === 'object' && !Array.isArray(value)
			? WORD_MEMBERS.map((member) => (value as Record<string, unknown>)[member])
			: [],
	);
	const candidates = [...values, ...inner];
	const text = candidates.find((value): value is string => typeof value === 'string');
	if (text !== undefined) return text;
	const number = candidates.find((value): value is number => typeof value === 'number' && Number.isFinite(value));
	return number !== undefined ? String(number) : undefined;
}

/** `state` is ours; the service's own `state` member, if any, stays under `serviceState`. */
export function withState(body: Record<string, unknown>, words?: StatusWords): Record<string, unknown> {
	const { state: serviceState, ...rest } = body;
	const result: Record<string, unknown> = { ...rest, state: stateOf(statusWordOf(body), words) };
	if (serviceState !== undefined) result.serviceState = serviceState;
	return result;
}
