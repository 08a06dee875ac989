/**
 * The status words: which state each word of a deck's record means. The contract shows no status words,
 * so the built-in vocabulary is read from real asynchronous APIs' documentation, each word with the APIs that
 * write it (the reference table; `test/fixtures/status-vocabulary.ts` keeps their documented records, with
 * sources, and a test reads every one of them). A user's Status Words lists replace the built-in list of their
 * state. Words are compared normalised: case, camelCase, spaces, `-`, `_` and `.` do not matter (`job.failed`,
 * `JobStatus.FAILED` are read by their parts).
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

/** One row of the reference table: a word (normalised) and the APIs that write it (test/fixtures/status-vocabulary.ts has their pages). */
type Written = readonly [word: string, writtenBy: string];

const SUCCEEDED: readonly Written[] = [
	['completed', 'OpenAI batches and videos, AssemblyAI, Gamma, Presenton, fal, Luma, Mistral, Google Dataproc, Speechmatics'],
	['complete', 'Leonardo, Ideogram, Synthesia, Bannerbear, Plus AI'],
	['done', 'Shotstack, D-ID, Google operations (done: true), SlideForge'],
	['succeeded', 'Replicate, Runway, Apify, Azure, AWS Step Functions and Batch, Creatomate, Vertex AI (JOB_STATE_SUCCEEDED), DashScope, Document AI'],
	['success', 'SlideSpeak (Celery), Suno, MiniMax, kie.ai, Stability (finish_reason), Databricks (result_state), GitHub (conclusion)'],
	['successful', 'Zamzar, Pictory'],
	['succeed', 'Kling'],
	['ready', 'Mux assets, Pluslide (Apify writes READY for a run not yet started: a success word alone is never believed, judge.ts)'],
	['finished', 'CloudConvert, sync.ai, Speechmatics? (done), Magic Hour'],
	['transcribed', 'Rev AI'],
	['dubbed', 'ElevenLabs dubbing'],
	['published', 'Gan.ai'],
	['ended', 'Anthropic message batches (the results file says how each request went)'],
	['approved', 'Didit'],
	['assembly_completed', 'Transloadit (ok: ASSEMBLY_COMPLETED)'],
	['job_completed', 'Coconut (job.completed)'],
	['processing_completed', 'Redis Cloud tasks (processing-completed)'],
];

/** The success words that say the job ended with only part of its output (one format failed, the deck did not). */
const PARTIAL: readonly Written[] = [
	['partial', 'the contract’s own reading (a partial deck)'],
	['partially_completed', 'batch APIs'],
	['partial_success', 'batch APIs'],
	['partially_succeeded', 'Vertex AI (JOB_STATE_PARTIALLY_SUCCEEDED)'],
	['partial_failure', 'Sarvam AI dubbing'],
	['completed_with_errors', 'batch APIs'],
	['completed_with_failures', 'Cortex batch jobs (completed with failures)'],
	['success_with_failures', 'Databricks (result_state)'],
	['succeeded_with_errors', 'Google Dataplex'],
	['warning', 'BatchX (WARNING), Edlink'],
];

const FAILED: readonly Written[] = [
	['failed', 'OpenAI, Replicate, Runway, Gamma, Apify, Vertex AI, AWS, Azure, Creatomate, HeyGen, Mistral, DashScope, Databricks'],
	['failure', 'SlideSpeak (Celery FAILURE), GitHub (conclusion)'],
	['fail', 'MiniMax (Fail), kie.ai (fail)'],
	['error', 'AssemblyAI, Presenton, D-ID, CloudConvert, Synthesia, Gladia, Stability (finish_reason ERROR)'],
	['errored', 'Bannerbear-style webhooks, Keyframe'],
	['cancelled', 'OpenAI batches, Vertex AI (JOB_STATE_CANCELLED), GitHub (conclusion), Document AI'],
	['canceled', 'Replicate, Azure, OpenAI fine-tuning, DashScope, Databricks'],
	['expired', 'OpenAI batches, Vertex AI (JOB_STATE_EXPIRED), Anthropic, Didit'],
	['rejected', 'D-ID, Synthesia (rejected during moderation)'],
	['declined', 'Didit'],
	['timed_out', 'Apify (TIMED-OUT), AWS Step Functions (TIMED_OUT), Azure (TimedOut), RunPod'],
	['timedout', 'Databricks (TIMEDOUT)'],
	['timeout', 'fal and queue APIs'],
	['aborted', 'Apify (ABORTED), AWS Step Functions'],
	['killed', 'job schedulers'],
	['terminated', 'Databricks tasks, AWS RoboMaker'],
	['abandoned', 'Didit'],
	['revoked', 'SlideSpeak (Celery REVOKED)'],
	['crashed', 'platform runs'],
	['interrupted', 'platform runs'],
	['stopped', 'Cortex batch jobs'],
	['deleted', 'Sarvam AI dubbing'],
	['skipped', 'Databricks (a run that never ran), GitHub (conclusion)'],
	['excluded', 'Databricks (result_state)'],
	['disabled', 'Databricks (result_state)'],
	['maximum_concurrent_runs_reached', 'Databricks (result_state)'],
	['out_of_memory', 'BatchX, Cortex (out of memory)'],
	['invalid_output', 'BatchX'],
	['not_found', 'Black Forest Labs (Task not found: the task is gone)'],
	['unknown', 'Bria (an internal error), DashScope and Tripo (the task does not exist or has expired)'],
];

/**
 * Moderation verdicts: the request or its output was refused by a content check, so the deck will never come
 * (issue 50 B8). Services write them as a status word, an error code or a finish reason, in their own spelling,
 * abbreviations included; a compound holding one is read by MODERATION_PARTS below.
 */
const MODERATED: readonly Written[] = [
	['moderated', 'Black Forest Labs (Content Moderated, Request Moderated)'],
	['content_filtered', 'Stability (finish_reason CONTENT_FILTERED)'],
	['content_filter', 'Azure OpenAI (finish_reason content_filter)'],
	['banned', 'Tripo, Midjourney proxies (a banned prompt)'],
	['moderation_blocked', 'OpenAI images and Sora videos (error code moderation_blocked)'],
	['content_policy_violation', 'OpenAI images (content_policy_violation), fal'],
	['nsfw', 'Replicate (NSFW content detected), Leonardo, Novita (NSFW)'],
	['safety', 'Runway (failureCode SAFETY.INPUT.TEXT), Gemini (finishReason SAFETY)'],
	['image_safety', 'Gemini (finishReason IMAGE_SAFETY)'],
	['prohibited_content', 'Gemini (finishReason, blockReason PROHIBITED_CONTENT)'],
	['blocklist', 'Gemini (finishReason BLOCKLIST)'],
	['spii', 'Gemini (finishReason SPII: sensitive personally identifiable information)'],
	['csam', 'Gemini and trust-and-safety APIs (CSAM)'],
	['rai_filtered', 'Vertex AI Imagen and Veo (raiFilteredReason, RAI: Responsible AI)'],
	['sensitive_content', 'MiniMax (1026, 1027: sensitive content), Kling'],
	['policy_violation', 'Luma, Pika (policy violation)'],
];

const RUNNING: readonly Written[] = [
	['queued', 'OpenAI videos, AssemblyAI, Runway, Luma, Shotstack, Databricks, GitHub'],
	['pending', 'Gamma, Presenton, Runway, Suno, DashScope, AWS Batch, PiAPI'],
	['processing', 'Replicate, AssemblyAI, Kling, HeyGen, CloudConvert, Gladia'],
	['running', 'Runway, Apify, Vertex AI, Azure, Step Functions, DashScope, AWS Batch, Databricks'],
	['in_progress', 'OpenAI batches and videos, fal (IN_PROGRESS), Azure (InProgress), Synthesia, Didit'],
	['inprogress', 'Cloudflare Stream (downloads: inprogress, one word)'],
	['generating', 'the contract’s own reading, kie.ai'],
	['started', 'SlideSpeak (Celery STARTED), D-ID'],
	['created', 'D-ID, Transloadit'],
	['accepted', 'asynchronous request APIs (202 Accepted), Document AI'],
	['submitted', 'Kling, AWS Batch (SUBMITTED), Amazon Transcribe? (QUEUED)'],
	['requested', 'GitHub (status), and every cancel or stop that was only asked for (CANCELLATION_REQUESTED)'],
	['sent', 'SlideSpeak (Celery SENT)'],
	['received', 'queue APIs'],
	['scheduled', 'schedulers'],
	['waiting', 'CloudConvert, Creatomate, Suno, Databricks (WAITING_FOR_RETRY), GitHub'],
	['wait', 'kie.ai Runway'],
	['starting', 'Replicate, AWS Batch'],
	['preparing', 'Mux, MiniMax (Preparing)'],
	['queueing', 'MiniMax (Queueing)'],
	['queuing', 'kie.ai'],
	['enqueuing', 'Cortex'],
	['in_queue', 'fal (IN_QUEUE)'],
	['staged', 'PiAPI, apiframe'],
	['runnable', 'AWS Batch'],
	['creating', 'Amazon Athena'],
	['planned', 'Creatomate'],
	['planning', 'Keyframe'],
	['rendering', 'Creatomate, Shotstack, sync.ai'],
	['transcribing', 'Creatomate'],
	['fetching', 'Shotstack'],
	['saving', 'Shotstack'],
	['working', 'Edlink'],
	['progress', 'useapi.net'],
	['retry', 'SlideSpeak (Celery RETRY)'],
	['retrying', 'queue APIs'],
	['dreaming', 'Luma'],
	['throttled', 'Runway (THROTTLED)'],
	['blocked', 'Databricks (life_cycle_state BLOCKED: waiting on an upstream run)'],
	['paused', 'Vertex AI (JOB_STATE_PAUSED)'],
	['pending_redrive', 'AWS Step Functions'],
	['in_review', 'Didit'],
	['moderating', 'content checks under way (a moderation step before the render)'],
	['under_review', 'moderation queues (a person reviews the request)'],
	['awaiting_user', 'Didit'],
	['resubmitted', 'Didit'],
	// a transition: the terminal word comes next
	['timing_out', 'Apify (TIMING-OUT)'],
	['aborting', 'Apify (ABORTING)'],
	['cancelling', 'Vertex AI (JOB_STATE_CANCELLING), OpenAI batches'],
	['canceling', 'Azure (Canceling), Replicate'],
	['terminating', 'Databricks'],
	['stopping', 'platform runs'],
	['completing', 'AWS RoboMaker (Completing)'],
	// an action under way
	['not_started', 'Azure (NotStarted), Sarvam, Didit'],
	['not_start', 'Kling (NOT_START)'],
	['progressing', 'AWS MediaConvert (PROGRESSING)'],
	['validating', 'OpenAI batches and fine-tuning'],
	['finalizing', 'OpenAI batches'],
	['finalising', 'a British spelling of finalizing'],
	['updating', 'Vertex AI'],
	['initializing', 'platform runs'],
	['initialising', 'a British spelling of initializing'],
	['uploading', 'Transloadit (ASSEMBLY_UPLOADING), BatchX (UPLOADING_OUTPUT)'],
	['downloading', 'BatchX (DOWNLOADING_INPUT)'],
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
	succeeded: [...wordsOf(SUCCEEDED), ...wordsOf(PARTIAL)],
	failed: [...wordsOf(FAILED), ...wordsOf(MODERATED)],
	running: wordsOf(RUNNING),
};

/**
 * The success words that say the job ended with only part of its output (one format failed, the deck
 * did not). With the deck to hand over they are completed, with a note; with nothing, failed.
 */
export const PARTIAL_WORDS = new Set(wordsOf(PARTIAL));

/**
 * The last part of a compound failure word (`GENERATE_AUDIO_FAILED`, `Content Moderated`, `job-killed`,
 * `user_cancelled`, `CALLBACK_EXCEPTION`): the built-in one-part failed words (`fail` is too short to end a
 * compound, and `unknown` or `disabled` say nothing there), and a few more that only end one.
 */
const FAILED_ENDINGS = new Set([
	...DEFAULT_STATUS_WORDS.failed.filter((word) => !word.includes('_') && !['fail', 'unknown', 'disabled', 'excluded', 'skipped', 'deleted'].includes(word)),
	'filtered', 'refused', 'denied', 'exception', 'exceeded',
]);

/** The first part of a compound that says it ended without its output (`FAILED_VALIDATION`, `TIMEOUT_EXCEEDED`, `INVALID_INPUT`). */
const FAILED_OPENINGS = new Set(['failed', 'failure', 'error', 'timeout', 'cancelled', 'canceled', 'aborted', 'rejected', 'expired', 'invalid']);

/** Parts that say a stop is still under way (`cancelling`, `retrying`): a compound holding one is still going. */
const UNDER_WAY = new Set(['cancelling', 'canceling', 'aborting', 'terminating', 'stopping', 'timing', 'retrying', 'retry', 'requested']);

/** Parts that turn a compound around (`no_error`, `job.not_failed`): a failure after one is no failure word. */
const NEGATIONS = new Set(['no', 'not', 'non', 'without']);

/**
 * The first part of a compound that is a moderation verdict (Runway's `SAFETY.INPUT.TEXT`, `NSFW_CONTENT`,
 * `moderation_refused`): failed, unless a part says the check cleared it or is still going (MODERATION_OPEN).
 */
const MODERATION_OPENINGS = new Set(['nsfw', 'safety', 'moderation', 'moderated', 'csam', 'spii', 'blocklist', 'banned']);

/** Parts that say a content check passed or is not over (`safety_check_passed`, `moderation_review`): never a refusal. */
const MODERATION_OPEN = new Set(['passed', 'pass', 'cleared', 'approved', 'ok', 'safe', 'clean', 'none', 'false', 'review', 'reviewing', 'check', 'checking', 'scan', 'scanning', 'required']);

/** A word as the lists write it: lower case, camelCase split, `-`, `.` and spaces as `_` (`NotStarted` → `not_started`, `job.failed` → `job_failed`). */
export function normalise(word: string): string {
	return word
		.trim()
		.replace(/([a-z0-9])([A-Z])/g, '$1_$2')
		.toLowerCase()
		.replace(/[\s_.-]+/g, '_');
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
 * `TASK_STATUS_RUNNING`, `JobStatus.FAILED`); then its parts, split at spaces, `_`, `-`, `.` and case changes (`job.failed`): a word that ends in a
 * running word is running (`ASSEMBLY_EXECUTING`, `WAITING_FOR_RETRY`); one that ends in a failure word is failed
 * (`Content Moderated`, `GENERATION_CANCELLED`, `job-killed`), and so is one that opens with one
 * (`FAILED_VALIDATION`, `TIMEOUT_EXCEEDED`, `failed while enqueuing`: the opening says what, the rest when), unless a part says a stop is still under way (`cancelling`,
 * `retrying`: running) or the word is negated (`no_error`, `job.not_failed`), and only while the Failed list is the built-in one
 * (a user's own list says exactly which words fail); a word holding a running word anywhere is running
 * (`DOWNLOADING_INPUT`); one that opens with a moderation verdict is failed (`SAFETY.INPUT.TEXT`, `NSFW_CONTENT`)
 * unless a part says the check passed or goes on (`safety_check_passed`, `moderation_review`). A compound ending in a success word (`ASSEMBLY_COMPLETED`, but also Suno's stage
 * `FIRST_SUCCESS`) is not believed as one: `unknown`, `endsInSuccess`, so the deck's file decides. Nothing else
 * is guessed: a word on no list stays unknown, so the nodes can say which word the service keeps sending.
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
	const builtInFailures = !words.own?.includes('failed');
	const underWay = parts.find((part) => UNDER_WAY.has(part));
	const failed = (canonical: string): WordReading => (underWay ? { state: 'running', canonical: underWay, compound: true } : { state: 'failed', canonical, compound: true });
	// an opening failure says what happened, the rest when (`failed while enqueuing`, `ERROR_PROCESSING`)
	if (builtInFailures && FAILED_OPENINGS.has(parts[0])) return failed(parts[0]);
	// the longest ending that is a list word (`..._in_progress`, `..._timed_out`); a failure after a negation
	// (`job.not_failed`) is none
	for (let from = 1; from < parts.length; from++) {
		const ending = parts.slice(from).join('_');
		const list = listOf(ending, words);
		if (list === 'running') return { state: 'running', canonical: ending, compound: true };
		if (list === 'succeeded') return { state: 'unknown', canonical: ending, compound: true, endsInSuccess: true };
		if (list === 'failed' || (builtInFailures && from === parts.length - 1 && FAILED_ENDINGS.has(ending))) {
			const cleared = MODERATION_OPENINGS.has(ending) && parts.some((part) => MODERATION_OPEN.has(part));
			return cleared || parts.slice(0, from).some((part) => NEGATIONS.has(part)) ? { state: 'unknown' } : failed(ending);
		}
	}
	const running = parts.find((part) => listOf(part, words) === 'running');
	if (running) return { state: 'running', canonical: running, compound: true };
	if (builtInFailures && MODERATION_OPENINGS.has(parts[0]) && !parts.some((part) => MODERATION_OPEN.has(part) || NEGATIONS.has(part))) return failed(parts[0]);
	return { state: 'unknown' };
}

/**
 * Whether a failure word (its list word, `WordReading.canonical`) is a moderation verdict: the word says why the
 * deck ended (`nsfw`, `moderation_blocked`, Runway's `SAFETY.…`), so it needs no reason beside it to be believed.
 */
export function isModerationVerdict(canonical: string | undefined): boolean {
	return canonical !== undefined && (MODERATION_VERDICTS.has(canonical) || (MODERATION_OPENINGS.has(canonical) && canonical !== 'moderation'));
}
const MODERATION_VERDICTS = new Set([...wordsOf(MODERATED), 'filtered']);

/** The names of the three lists, as the options call them. */
export const LIST_NAME: Record<WordList, string> = {
	succeeded: 'Succeeded Status Words',
	failed: 'Failed Status Words',
	running: 'Running Status Words',
};
