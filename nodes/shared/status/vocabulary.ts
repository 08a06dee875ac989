/**
 * The status words: which state each word of a deck's record means. The contract shows no status words,
 * so the built-in vocabulary is read from real asynchronous APIs' documentation, each word with the APIs that
 * write it (the reference table; `test/fixtures/status-vocabulary.ts` keeps their documented records, with
 * sources, and a test reads every one of them). A user's Status Words lists replace the built-in list of their
 * state. Words are compared normalised: case, camelCase, spaces, `-` and `_` do not matter.
 */

export type DeckState = 'running' | 'succeeded' | 'failed' | 'unknown';

export type WordList = 'succeeded' | 'failed' | 'running';

export interface StatusWords {
	succeeded: string[];
	failed: string[];
	running: string[];
	/** The lists the user set (Status Words options): their words are believed whatever the record says. */
	own?: WordList[];
}

/** One row of the reference table: a word (normalised) and the APIs that write it. */
type Written = readonly [word: string, writtenBy: string];

const SUCCEEDED: readonly Written[] = [
	['completed', 'OpenAI batches and videos, AssemblyAI, Gamma, Presenton, Replicate? (succeeded), Luma, Shotstack? (done), fal (COMPLETED), Leonardo (COMPLETE)'],
	['complete', 'Leonardo, Ideogram, Bannerbear'],
	['done', 'Shotstack, D-ID, Google operations (done: true)'],
	['succeeded', 'Replicate, Runway (SUCCEEDED), Apify, Azure (Succeeded), AWS Step Functions, Creatomate, Vertex AI (JOB_STATE_SUCCEEDED)'],
	['success', 'SlideSpeak (Celery SUCCESS), Kling? (succeed), Suno (SUCCESS), MiniMax (Success), kie.ai, Stability (finish_reason SUCCESS)'],
	['successful', 'Mistral batch (SUCCESS), Mux'],
	['succeed', 'Kling (succeed)'],
	['ready', 'Mux assets, Synthesia? (complete), Presentations APIs'],
	['finished', 'CloudConvert jobs and tasks, Databricks, Zamzar? (successful)'],
	// the job ended with only part of its output (one format failed, the deck did not)
	['partial', 'the contract’s own reading (a partial deck)'],
	['partially_completed', 'batch APIs'],
	['partial_success', 'batch APIs'],
	['partially_succeeded', 'Vertex AI (JOB_STATE_PARTIALLY_SUCCEEDED), Azure batch'],
	['completed_with_errors', 'batch APIs'],
];

const FAILED: readonly Written[] = [
	['failed', 'OpenAI, Replicate, Runway, Gamma, Apify, Vertex AI, AWS, Azure, Creatomate, HeyGen, fal'],
	['failure', 'SlideSpeak (Celery FAILURE)'],
	['fail', 'MiniMax (Fail), kie.ai (fail)'],
	['error', 'AssemblyAI, Presenton, D-ID, CloudConvert, Kling? (failed), Rev.ai? (failed), Stability (finish_reason ERROR)'],
	['errored', 'Plainly, webhook-style APIs'],
	['cancelled', 'OpenAI batches, Replicate (canceled), Vertex AI (JOB_STATE_CANCELLED), Azure (Canceled)'],
	['canceled', 'Replicate, Azure, OpenAI, Transloadit (ASSEMBLY_CANCELED)'],
	['expired', 'OpenAI batches, Vertex AI (JOB_STATE_EXPIRED)'],
	['rejected', 'D-ID, moderation verdicts'],
	['timed_out', 'Apify (TIMED-OUT), AWS Step Functions (TIMED_OUT), Azure (TimedOut)'],
	['timedout', 'a one-word spelling of timed out'],
	['timeout', 'fal and queue APIs'],
	['aborted', 'Apify (ABORTED), AWS Step Functions'],
	['killed', 'job schedulers'],
	['terminated', 'Databricks, Step Functions activities'],
	['abandoned', 'queue APIs'],
	['revoked', 'SlideSpeak (Celery REVOKED)'],
	['crashed', 'platform runs'],
	['interrupted', 'platform runs'],
	['content_filtered', 'Stability (finish_reason CONTENT_FILTERED)'],
	['moderated', 'moderation verdicts (Content Moderated)'],
	['banned', 'Midjourney proxies (a banned prompt)'],
];

const RUNNING: readonly Written[] = [
	['queued', 'OpenAI videos, AssemblyAI, Runway (QUEUED), Luma, Shotstack'],
	['pending', 'Gamma, Presenton, Runway (PENDING), Suno, Mux? (preparing)'],
	['processing', 'Replicate, AssemblyAI, Kling, HeyGen, CloudConvert'],
	['running', 'Runway, Apify, Vertex AI, Azure, Step Functions'],
	['in_progress', 'OpenAI batches and videos, fal (IN_PROGRESS), Azure (InProgress)'],
	['generating', 'the contract’s own reading'],
	['started', 'SlideSpeak (Celery STARTED), D-ID'],
	['created', 'D-ID, Transloadit'],
	['accepted', 'asynchronous request APIs (202 Accepted)'],
	['submitted', 'Kling (submitted), AWS Batch (SUBMITTED)'],
	['sent', 'SlideSpeak (Celery SENT)'],
	['received', 'queue APIs'],
	['scheduled', 'schedulers'],
	['waiting', 'CloudConvert, Creatomate, Suno'],
	['starting', 'Replicate'],
	['preparing', 'Mux, MiniMax (Preparing)'],
	['queueing', 'MiniMax (Queueing)'],
	['in_queue', 'fal (IN_QUEUE)'],
	['rendering', 'Creatomate, Shotstack'],
	['retry', 'SlideSpeak (Celery RETRY)'],
	['retrying', 'queue APIs'],
	['dreaming', 'Luma'],
	['throttled', 'Runway (THROTTLED)'],
	// a transition: the terminal word comes next
	['timing_out', 'Apify (TIMING-OUT)'],
	['aborting', 'Apify (ABORTING)'],
	['cancelling', 'Vertex AI (JOB_STATE_CANCELLING), OpenAI batches'],
	['canceling', 'Azure (Canceling), Replicate'],
	['terminating', 'Databricks'],
	['stopping', 'platform runs'],
	// an action under way
	['not_started', 'Azure (NotStarted)'],
	['not_start', 'Kling (NOT_START)'],
	['progressing', 'AWS MediaConvert (PROGRESSING)'],
	['validating', 'OpenAI batches'],
	['finalizing', 'OpenAI batches'],
	['finalising', 'a British spelling of finalizing'],
	['updating', 'Vertex AI'],
	['initializing', 'platform runs'],
	['initialising', 'a British spelling of initializing'],
	['uploading', 'Transloadit (ASSEMBLY_UPLOADING)'],
	['executing', 'Transloadit (ASSEMBLY_EXECUTING)'],
	['exporting', 'slide and video APIs'],
	['converting', 'conversion APIs'],
	['translating', 'DeepL documents'],
	['dubbing', 'ElevenLabs dubbing'],
	// documented stages that sound final but come before the end
	['text_success', 'Suno (TEXT_SUCCESS: the lyrics are done, the tracks are not)'],
	['first_success', 'Suno (FIRST_SUCCESS: the first of two tracks is done)'],
];

const wordsOf = (rows: readonly Written[]): string[] => rows.map(([word]) => word);

/** The built-in vocabulary, normalised (see `normalise`). */
export const DEFAULT_STATUS_WORDS: StatusWords = {
	succeeded: wordsOf(SUCCEEDED),
	failed: wordsOf(FAILED),
	running: wordsOf(RUNNING),
};

/**
 * The success words that say the job ended with only part of its output (one format failed, the deck
 * did not). With the deck to hand over they are completed, with a note; with nothing, failed.
 */
export const PARTIAL_WORDS = new Set(DEFAULT_STATUS_WORDS.succeeded.filter((word) => word.startsWith('partial') || word.endsWith('_with_errors')));

/**
 * The last part of a compound failure word (`GENERATE_AUDIO_FAILED`, `Content Moderated`, `job-killed`,
 * `user_cancelled`): the built-in failed words that can end a compound (`fail` is too short to, `timedout`
 * is one part already).
 */
const FAILED_ENDINGS = new Set([...DEFAULT_STATUS_WORDS.failed.filter((word) => word !== 'fail' && !word.includes('_')), 'filtered', 'refused', 'denied', 'declined']);

/** First parts that turn a compound around (`no_error`, `not_failed`): never a failure word. */
const NEGATIONS = new Set(['no', 'not', 'non', 'without']);

/** A word as the lists write it: lower case, camelCase split, `-` and spaces as `_` (`NotStarted` → `not_started`). */
export function normalise(word: string): string {
	return word
		.trim()
		.replace(/([a-z0-9])([A-Z])/g, '$1_$2')
		.toLowerCase()
		.replace(/[\s_-]+/g, '_');
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
export function statusWords(overrides: Partial<Record<WordList, string[]>> = {}): StatusWords {
	const overridden = new Set(
		[...(overrides.succeeded ?? []), ...(overrides.failed ?? []), ...(overrides.running ?? [])].map(normalise),
	);
	const pick = (state: WordList): string[] =>
		overrides[state]?.map(normalise) ?? DEFAULT_STATUS_WORDS[state].filter((word) => !overridden.has(word));
	const own = (['succeeded', 'failed', 'running'] as const).filter((state) => overrides[state] !== undefined);
	return { succeeded: pick('succeeded'), failed: pick('failed'), running: pick('running'), ...(own.length ? { own } : {}) };
}

export function stateOf(word: string | undefined, words: StatusWords = DEFAULT_STATUS_WORDS): DeckState {
	return classify(word, words).state;
}

/** What one word says: its state, the list word it matched, and whether it was read as a compound. */
export interface WordReading {
	state: DeckState;
	/** The list word it matched (`JOB_STATE_CANCELLED` → `cancelled`). */
	canonical?: string;
	/**
	 * Read from its last parts (`ASSEMBLY_EXECUTING`, `Content Moderated`), not as a whole list word. A
	 * compound that ends in a success word (`ASSEMBLY_COMPLETED`, but also Suno's stage `FIRST_SUCCESS`) is not
	 * believed as a success word: its state stays `unknown` and `endsInSuccess` says so, so the deck's file decides.
	 */
	compound?: boolean;
	endsInSuccess?: boolean;
}

const listOf = (word: string, words: StatusWords): WordList | undefined =>
	words.succeeded.includes(word) ? 'succeeded' : words.failed.includes(word) ? 'failed' : words.running.includes(word) ? 'running' : undefined;

/**
 * A word's state. The whole word first (on the lists, also after an enum's type name: `JOB_STATE_CANCELLED`,
 * `TASK_STATUS_RUNNING`); then its last parts, split at spaces, `_`, `-` and case changes: a word whose last
 * parts are a running word is running (`ASSEMBLY_EXECUTING`); one that ends in a failure word is failed
 * (`Content Moderated`, `GENERATION_CANCELLED`, `job-killed`), unless a part says the job is still going
 * (`cancelling`: running) or the word is negated (`no_error`), and only while the Failed list is the built-in
 * one (a user's own list says exactly which words fail). Nothing else is guessed: a word on no list stays
 * unknown, so the nodes can say which word the service keeps sending.
 */
export function classify(word: string | undefined, words: StatusWords = DEFAULT_STATUS_WORDS): WordReading {
	if (word === undefined) return { state: 'unknown' };
	const normalised = normalise(word);
	const enumPrefix = /(?:^|_)(?:state|status)_(.+)$/.exec(normalised);
	for (const candidate of enumPrefix ? [normalised, enumPrefix[1]] : [normalised]) {
		const list = listOf(candidate, words);
		if (list) return { state: list, canonical: candidate };
	}
	const parts = (enumPrefix ? enumPrefix[1] : normalised).split('_').filter(Boolean);
	if (parts.length < 2 || NEGATIONS.has(parts[0])) return { state: 'unknown' };
	// the longest ending that is a list word (`..._in_progress`, `..._timed_out`)
	for (let from = 1; from < parts.length; from++) {
		const ending = parts.slice(from).join('_');
		const list = listOf(ending, words);
		if (list === 'running') return { state: 'running', canonical: ending, compound: true };
		if (list === 'succeeded') return { state: 'unknown', canonical: ending, compound: true, endsInSuccess: true };
		if (list === 'failed' || (!words.own?.includes('failed') && from === parts.length - 1 && FAILED_ENDINGS.has(ending))) {
			// a part that says the job is still going (`cancelling_failed_task`) keeps it running
			const going = parts.slice(0, from).find((part) => listOf(part, words) === 'running');
			return going ? { state: 'running', canonical: going, compound: true } : { state: 'failed', canonical: ending, compound: true };
		}
	}
	return { state: 'unknown' };
}

/** The names of the three lists, as the options call them. */
export const LIST_NAME: Record<WordList, string> = {
	succeeded: 'Succeeded Status Words',
	failed: 'Failed Status Words',
	running: 'Running Status Words',
};
