// Real services' shapes (issues 31, 37, 39). The contract shows neither the status record's members nor its words, so a
// real deployment will look like one of the asynchronous generation APIs that exist today. With the choice
// `service`, `GET /v1/decks/{taskId}/status` (and the spending POSTs' success answers) speak one of them,
// carrying our deck's real state: its words in their exact case and member, its envelope, its progress scale,
// its links (our deck files, previews, app pages) and its failure shape. Where a service's own shape cannot
// carry a deck (a second call for the file, media words), the adaptation is named in README.md ("Real services
// modelled"), with each service's documentation address and what it taught.
//
// The rules the contract does state hold in every shape: the status path, a `taskId` member in every create
// answer (inside the service's envelope where it has one), problem+json for every refusal, the deck files at
// their usual endpoints. The profile's other choices (fileLinks, fileLength, paths, the failure dialect, …)
// keep applying underneath.
import type { DataFileKind } from './deckfiles';
import type { FailureKind } from './types';

export type ServiceShape =
	| 'none'
	| 'slidespeak'
	| 'gamma'
	| 'presenton'
	| 'replicate'
	| 'runway'
	| 'kling'
	| 'heygen'
	| 'fal'
	| 'stability'
	| 'minimax'
	| 'luma'
	| 'suno'
	| 'apify'
	| 'azure'
	| 'vertex'
	| 'veo'
	| 'creatomate'
	| 'bfl'
	| 'tripo'
	| 'cloudconvert'
	| 'kieai'
	| 'transloadit'
	| 'meshy'
	| 'did'
	| 'revai'
	| 'cloudflare'
	| 'shopify'
	| 'remotion'
	| 'github'
	| 'databricks'
	| 'transcribe'
	| 'coconut'
	| 'intercom'
	| 'higgsfield'
	| 'krea'
	| 'api2convert'
	| 'rediscloud';

export const FAILURE_KINDS: readonly FailureKind[] = ['error', 'timeout', 'aborted', 'cancelled', 'moderated'];

/** Our deck's reason for each failure kind (a shape gives it where its service gives a reason). */
export const FAILURE_REASONS: Record<FailureKind, { code: string; message: string }> = {
	error: { code: 'generation_failed', message: 'The deck could not be generated. Start a new deck.' },
	timeout: { code: 'generation_timeout', message: 'The deck took longer than its time limit and was stopped.' },
	aborted: { code: 'aborted', message: 'The deck was aborted by the service.' },
	cancelled: { code: 'cancelled', message: 'The deck was cancelled.' },
	moderated: { code: 'content_moderated', message: 'The brief was refused by content moderation.' },
};

/** The partial deck's word for its failed format, where a shape gives one. */
export const PARTIAL_REASON = { code: 'pdf_export_failed', message: 'The PDF export failed; the PowerPoint file is ready.' };

/** Everything a shape may say about one deck at one instant (handlers.ts builds it). */
export interface DeckView {
	taskId: string;
	version: number;
	phase: 'queued' | 'running' | 'succeeded' | 'failed';
	/** Running, but ending by timeout, abort or cancel (the last `endingMs` of such a deck). */
	ending?: 'timeout' | 'aborted' | 'cancelled';
	/** A failed deck's kind (`error` otherwise). */
	failureKind: FailureKind;
	/** Succeeded with the pptx only: the pdf export failed. */
	partial: boolean;
	/** 0–100. */
	progress: number;
	createdAt: number;
	updatedAt: number;
	/**
	 * The deck's files (the profile's `fileLinks`); no pdf when partial. A shape may name them before the deck is
	 * done (`fileBeforeReady`): the address answers 404 until the deck succeeded, and forever for a failed deck.
	 */
	pptx(): string;
	pdf(): string | undefined;
	/** Preview images (PNG) of the deck, on the storage stand-in: `n` from 1. */
	preview(n: number): string;
	/** The input document the deck was made from (a DOCX brief), on the storage stand-in: never the deck. */
	input(): string;
	/** An intermediate audio file (a narration WAV), on the storage stand-in: never the deck. */
	audio(): string;
	/**
	 * A data file of the job, on the storage stand-in, served as its host serves it (issue 43): a failed bulk
	 * operation's partial rows (JSONL), a run's log archive (a ZIP with no presentation in it), subtitles (VTT,
	 * SRT). Never the deck.
	 */
	dataFile(kind: DataFileKind): string;
	/** The address that data file will have, named before it exists: 404 (S3's NoSuchKey) until `dataFile` put it. */
	futureDataFile(kind: DataFileKind): string;
	/** The deck's page in the app (not the file). */
	appPage: string;
	/** This deck's status URL on the API origin. */
	statusUrl: string;
}

/** A shape's answer: status code and JSON body; no body = an empty answer. */
export interface ServiceAnswer {
	status: number;
	body?: Record<string, unknown>;
}

/** What a service makes: the kinds of generation and job APIs modelled. */
export type ServiceKind = 'slides' | 'image' | 'video' | 'audio' | 'platform' | '3d' | 'conversion';

/**
 * What a correct client must conclude from a shape, for tests to assert against without hard-coding:
 * where the word is and which words it has, where the reason is, which links are the deck file and
 * which are not. Paths are dot paths with `[i]` for list entries, from the body's top.
 */
export interface ServiceShapeSpec {
	name: string;
	/** The documentation the shape follows (README.md has the rest). */
	doc: string;
	kind: ServiceKind;
	/** HTTP status of a poll while the deck is queued or running (200, or 202 with an empty body). */
	runningStatus: 200 | 202;
	/** Path of the status word; undefined where the shape has no word, only flags (`flags`). */
	wordAt?: string;
	/**
	 * Where an ended record says how it ended, where the word at `wordAt` only says that it did (issue 43: GitHub's
	 * `conclusion` beside `status: "completed"`, Databricks' `status.termination_details.code` beside `TERMINATED`).
	 * `words.succeeded`, `partial` and `failed` are the words there; `endedWord` is the word at `wordAt` then.
	 */
	conclusionAt?: string;
	endedWord?: string;
	/**
	 * A shape with no word at all (`wordAt` undefined): the flags that say where the job is, as each record of an
	 * outcome matches them (Veo's `done`; Remotion's `done` beside `fatalErrorEncountered`, a failed render being
	 * `done: false`).
	 */
	flags?: { running: Record<string, unknown>; succeeded: Record<string, unknown>; failed: Record<string, unknown> };
	/**
	 * Where a failed record of a kind has its word when not at `wordAt` (Transloadit: no `ok` on an Assembly that
	 * ended in error, its code under `error`).
	 */
	failedWordAt?: Partial<Record<FailureKind, string>>;
	words: {
		queued: string[];
		running: string[];
		/** Words a running deck may show on its way that are not the end (stages, "first of two done"). */
		stages?: string[];
		succeeded: string;
		partial: string;
		failed: Record<FailureKind, string>;
		/** Words while ending (timing out, aborting), where the service has them. */
		ending?: Partial<Record<'timeout' | 'aborted' | 'cancelled', string>>;
	};
	/** Path of the failure reason for each kind that has one (our FAILURE_REASONS[kind].message, or its code). */
	reasonAt: Partial<Record<FailureKind, string>>;
	/** Paths that hold the deck files (pptx first) in a finished record. */
	deckLinksAt: string[];
	/** Paths of the other links of a finished record (previews, thumbnails, app pages, API URLs): never the deck. */
	otherLinksAt: string[];
	/**
	 * Paths of links a running record carries before the end (previews, API URLs, input documents, intermediate
	 * files): never the deck, except where `fileBeforeReady` says the record names its future file here.
	 */
	runningLinksAt: string[];
	/**
	 * The record names the deck's file from the first answer, before the file exists (Creatomate's `url`, "always
	 * present", the file "only available after the render has succeeded"): `deckLinksAt` are filled while the deck
	 * runs and after it failed, and the file host answers 404 there (API files: problem+json; storage: S3's
	 * NoSuchKey) until the deck succeeded, and forever for a failed deck. `runningLinksAt` names those paths too.
	 */
	fileBeforeReady?: boolean;
	/** How progress is given: not at all, a percentage, a fraction while running only, a fraction (1 when done). */
	progress: { at?: string; scale: 'none' | 'percent' | 'fraction-while-running' | 'fraction' };
	/** Top-level members that say "success" about the request beside a failed deck (envelopes). */
	envelopeSuccess?: Record<string, unknown>;
	/** The create answer: its status and where the service's own id is, or a resource name ending in it (`taskId` is there too). */
	create: { status: number; idAt: string };
	/**
	 * HTTP status of a failed deck's poll per kind, where it is not 200 (issue 50 B9: Intercom answers a failed export
	 * job's poll with 504 and the job's record).
	 */
	failedStatus?: Partial<Record<FailureKind, number>>;
}

interface ShapeDef {
	spec: ServiceShapeSpec;
	status(v: DeckView): ServiceAnswer;
	created(v: DeckView): ServiceAnswer;
}

const iso = (ms: number) => new Date(ms).toISOString();
const seconds = (ms: number) => Math.floor(ms / 1000);
const ok = (body: Record<string, unknown>, status = 200): ServiceAnswer => ({ status, body });
const reason = (v: DeckView) => FAILURE_REASONS[v.failureKind];
const allKinds = <T>(value: T): Record<FailureKind, T> => ({ error: value, timeout: value, aborted: value, cancelled: value, moderated: value });
/** The deck files of a finished record (pptx, and pdf unless partial). */
const filesOf = (v: DeckView): string[] => [v.pptx(), ...(v.pdf() ? [v.pdf() as string] : [])];
/** A running deck's slide being drafted, for log lines and status messages. */
const slideOf = (v: DeckView) => Math.max(1, Math.ceil(v.progress / 10));
const stopped = (kind: FailureKind) => kind === 'aborted' || kind === 'cancelled';

/** SlideSpeak: Celery's words under `task_status`, the result (or the error text) under `task_result`. */
const slidespeak: ShapeDef = {
	spec: {
		name: 'SlideSpeak',
		doc: 'https://docs.slidespeak.co/v1/reference/get-task-status/',
		kind: 'slides',
		runningStatus: 200,
		wordAt: 'task_status',
		words: { queued: ['SENT'], running: ['STARTED'], succeeded: 'SUCCESS', partial: 'SUCCESS', failed: { error: 'FAILURE', timeout: 'FAILURE', moderated: 'FAILURE', aborted: 'REVOKED', cancelled: 'REVOKED' } },
		reasonAt: allKinds('task_result'),
		deckLinksAt: ['task_result.url', 'task_info.url'],
		otherLinksAt: [],
		runningLinksAt: [],
		progress: { scale: 'none' },
		create: { status: 200, idAt: 'task_id' },
	},
	created: (v) => ok({ task_id: v.taskId, taskId: v.taskId }),
	status(v) {
		const base = { task_id: v.taskId };
		switch (v.phase) {
			case 'queued':
			case 'running':
				return ok({ ...base, task_status: v.phase === 'queued' ? 'SENT' : 'STARTED', task_result: null, task_info: null });
			case 'succeeded': {
				const result = { url: v.pptx(), request_id: `req_${v.taskId}` };
				return ok({ ...base, task_status: 'SUCCESS', task_result: result, task_info: result });
			}
			case 'failed':
				return ok({ ...base, task_status: stopped(v.failureKind) ? 'REVOKED' : 'FAILURE', task_result: reason(v).message, task_info: {} });
		}
	},
};

/** Gamma: `pending` until the end; the app's page (`gammaUrl`) beside the export (`exportUrl`); `error` object. */
const gamma: ShapeDef = {
	spec: {
		name: 'Gamma',
		doc: 'https://developers.gamma.app/generations/get-generation-status',
		kind: 'slides',
		runningStatus: 200,
		wordAt: 'status',
		words: { queued: ['pending'], running: ['pending'], succeeded: 'completed', partial: 'completed', failed: allKinds('failed') },
		reasonAt: allKinds('error.message'),
		deckLinksAt: ['exportUrl'],
		otherLinksAt: ['gammaUrl'],
		runningLinksAt: [],
		progress: { scale: 'none' },
		create: { status: 200, idAt: 'generationId' },
	},
	created: (v) => ok({ generationId: v.taskId, taskId: v.taskId }),
	status(v) {
		const base = { generationId: v.taskId };
		switch (v.phase) {
			case 'queued':
			case 'running':
				return ok({ ...base, status: 'pending' });
			case 'succeeded':
				return ok({ ...base, status: 'completed', gammaId: `g_${v.taskId.slice(-12)}`, gammaUrl: v.appPage, exportUrl: v.pptx(), credits: { deducted: 10, remaining: 90 } });
			case 'failed':
				return ok({ ...base, status: 'failed', error: { message: reason(v).message, statusCode: GAMMA_CODES[v.failureKind] } });
		}
	},
};
const GAMMA_CODES: Record<FailureKind, number> = { error: 500, timeout: 504, aborted: 500, cancelled: 499, moderated: 400 };

/** Presenton: `pending` / `completed` / `error`, a `message` always, the result under `data`, the error under `error`. */
const presenton: ShapeDef = {
	spec: {
		name: 'Presenton',
		doc: 'https://docs.presenton.ai/api-reference/presentation/check-async-presentation-generation-status',
		kind: 'slides',
		runningStatus: 200,
		wordAt: 'status',
		words: { queued: ['pending'], running: ['pending'], succeeded: 'completed', partial: 'completed', failed: allKinds('error') },
		reasonAt: allKinds('error.detail'),
		deckLinksAt: ['data.path'],
		otherLinksAt: ['data.edit_path'],
		runningLinksAt: [],
		progress: { scale: 'none' },
		create: { status: 200, idAt: 'id' },
	},
	created: (v) => ok({ id: v.taskId, taskId: v.taskId, status: 'pending', message: 'Queued', created_at: iso(v.createdAt), updated_at: iso(v.createdAt) }),
	status(v) {
		const base = { id: v.taskId, created_at: iso(v.createdAt), updated_at: iso(v.updatedAt) };
		switch (v.phase) {
			case 'queued':
				return ok({ ...base, status: 'pending', message: 'Queued', data: null, error: null });
			case 'running':
				return ok({ ...base, status: 'pending', message: `Generating slide ${slideOf(v)}`, data: null, error: null });
			case 'succeeded':
				return ok({ ...base, status: 'completed', message: 'Presentation generated', data: { presentation_id: v.taskId, path: v.pptx(), edit_path: `${v.appPage}/edit`, credits_consumed: 10 }, error: null });
			case 'failed':
				return ok({ ...base, status: 'error', message: 'Presentation generation failed', data: null, error: { detail: reason(v).message } });
		}
	},
};

/**
 * Replicate: a prediction; `output` fills while it is processing (previews here), the files when it succeeded;
 * `canceled` with no error; `urls` (get, cancel, stream, web) from the start.
 */
const replicate: ShapeDef = {
	spec: {
		name: 'Replicate',
		doc: 'https://replicate.com/docs/reference/http#predictions.get',
		kind: 'image',
		runningStatus: 200,
		wordAt: 'status',
		words: { queued: ['starting'], running: ['processing'], succeeded: 'succeeded', partial: 'succeeded', failed: { error: 'failed', timeout: 'failed', moderated: 'failed', aborted: 'canceled', cancelled: 'canceled' } },
		reasonAt: { error: 'error', timeout: 'error', moderated: 'error' },
		deckLinksAt: ['output[0]', 'output[1]'],
		otherLinksAt: ['urls.get', 'urls.cancel', 'urls.stream', 'urls.web'],
		runningLinksAt: ['output[0]', 'output[1]', 'urls.get', 'urls.cancel', 'urls.stream', 'urls.web'],
		progress: { scale: 'none' },
		create: { status: 201, idAt: 'id' },
	},
	created: (v) => ok({ ...replicateBase(v), taskId: v.taskId, status: 'starting', output: null, error: null, logs: '' }, 201),
	status(v) {
		const base = replicateBase(v);
		const started = { started_at: iso(v.createdAt + 1_000) };
		switch (v.phase) {
			case 'queued':
				return ok({ ...base, status: 'starting', output: null, error: null, logs: '' });
			case 'running': {
				// a streaming model's output grows while it runs: here the slides drafted so far, as previews
				const previews = v.progress >= 75 ? [v.preview(1), v.preview(2)] : v.progress >= 50 ? [v.preview(1)] : null;
				return ok({ ...base, ...started, status: 'processing', output: previews, error: null, logs: replicateLog(v) });
			}
			case 'succeeded':
				return ok({ ...base, ...started, status: 'succeeded', output: filesOf(v), error: null, logs: replicateLog(v), completed_at: iso(v.updatedAt), metrics: { predict_time: 612.4 } });
			case 'failed':
				return ok({
					...base,
					...started,
					status: stopped(v.failureKind) ? 'canceled' : 'failed',
					output: null,
					error: stopped(v.failureKind) ? null : reason(v).message,
					logs: replicateLog(v),
					completed_at: iso(v.updatedAt),
					metrics: { predict_time: 600.1 },
				});
		}
	},
};
function replicateBase(v: DeckView): Record<string, unknown> {
	return {
		id: v.taskId,
		model: 'deckgen/deck',
		version: 'c0ffee',
		input: {},
		data_removed: false,
		created_at: iso(v.createdAt),
		// as Replicate's: the prediction's API URLs, its event stream on another host, its page on the web
		urls: { get: v.statusUrl, cancel: `${v.statusUrl}/cancel`, stream: `https://stream.deckgen.example/v1/files/${v.taskId}`, web: `https://app.deckgen.example/p/${v.taskId}` },
	};
}
function replicateLog(v: DeckView): string {
	const lines = Array.from({ length: Math.min(10, slideOf(v)) }, (_, i) => `drafting slide ${i + 1} of 10`);
	if (v.partial && v.phase === 'succeeded') lines.push(PARTIAL_REASON.message);
	return lines.join('\n');
}

/** Runway: upper-case words, `progress` a fraction 0–1 only while RUNNING, `failure` + dotted `failureCode`. */
const runway: ShapeDef = {
	spec: {
		name: 'Runway',
		doc: 'https://docs.dev.runwayml.com/api/#tag/Task-management/paths/~1v1~1tasks~1%7Bid%7D/get',
		kind: 'video',
		runningStatus: 200,
		wordAt: 'status',
		words: { queued: ['PENDING'], running: ['RUNNING'], succeeded: 'SUCCEEDED', partial: 'SUCCEEDED', failed: { error: 'FAILED', timeout: 'FAILED', moderated: 'FAILED', aborted: 'CANCELLED', cancelled: 'CANCELLED' } },
		reasonAt: { error: 'failure', timeout: 'failure', moderated: 'failure' },
		deckLinksAt: ['output[0]', 'output[1]'],
		otherLinksAt: [],
		runningLinksAt: [],
		progress: { at: 'progress', scale: 'fraction-while-running' },
		create: { status: 200, idAt: 'id' },
	},
	created: (v) => ok({ id: v.taskId, taskId: v.taskId }),
	status(v) {
		const base = { id: v.taskId, createdAt: iso(v.createdAt) };
		switch (v.phase) {
			case 'queued':
				return ok({ ...base, status: 'PENDING' });
			case 'running':
				return ok({ ...base, status: 'RUNNING', progress: Math.round(v.progress) / 100 });
			case 'succeeded':
				return ok({ ...base, status: 'SUCCEEDED', output: filesOf(v) });
			case 'failed':
				return stopped(v.failureKind) ? ok({ ...base, status: 'CANCELLED' }) : ok({ ...base, status: 'FAILED', failure: reason(v).message, failureCode: RUNWAY_CODES[v.failureKind] });
		}
	},
};
const RUNWAY_CODES: Partial<Record<FailureKind, string>> = { error: 'INTERNAL.BAD_OUTPUT', timeout: 'INTERNAL.TIMEOUT', moderated: 'SAFETY.INPUT.TEXT' };

/**
 * Kling: the record inside `{code: 0, message: "SUCCEED", request_id, data}` (also for a failed task); the word
 * under `data.task_status`, the reason under `data.task_status_msg`, the files under `data.task_result`.
 */
const kling: ShapeDef = {
	spec: {
		name: 'Kling',
		doc: 'https://app.klingai.com/global/dev/document-api/apiReference/model/textToVideo',
		kind: 'video',
		runningStatus: 200,
		wordAt: 'data.task_status',
		words: { queued: ['submitted'], running: ['processing'], succeeded: 'succeed', partial: 'succeed', failed: allKinds('failed') },
		reasonAt: allKinds('data.task_status_msg'),
		deckLinksAt: ['data.task_result.files[0].url', 'data.task_result.files[1].url'],
		otherLinksAt: [],
		runningLinksAt: [],
		progress: { scale: 'none' },
		envelopeSuccess: { code: 0, message: 'SUCCEED' },
		create: { status: 200, idAt: 'data.task_id' },
	},
	created: (v) => ok({ code: 0, message: 'SUCCEED', request_id: `req_${v.taskId}`, data: { task_id: v.taskId, taskId: v.taskId, task_status: 'submitted', task_info: {}, created_at: v.createdAt, updated_at: v.createdAt } }),
	status(v) {
		const data: Record<string, unknown> = { task_id: v.taskId, task_status_msg: '', task_info: {}, created_at: v.createdAt, updated_at: v.updatedAt };
		switch (v.phase) {
			case 'queued':
				data.task_status = 'submitted';
				break;
			case 'running':
				data.task_status = 'processing';
				break;
			case 'succeeded':
				data.task_status = 'succeed';
				data.task_result = { files: filesOf(v).map((url, i) => ({ id: `${v.taskId}-${i}`, url, format: i === 0 ? 'pptx' : 'pdf' })) };
				if (v.partial) data.task_status_msg = PARTIAL_REASON.message;
				break;
			case 'failed':
				data.task_status = 'failed';
				data.task_status_msg = reason(v).message;
				break;
		}
		return ok({ code: 0, message: 'SUCCEED', request_id: `req_${v.taskId}`, data });
	},
};

/**
 * HeyGen: `{code: 100, data: {…}, message: "Success"}` whatever the video's state; `data.error` an object
 * with a numeric code; the file beside a thumbnail and a GIF preview.
 */
const heygen: ShapeDef = {
	spec: {
		name: 'HeyGen',
		doc: 'https://docs.heygen.com/reference/video-status',
		kind: 'video',
		runningStatus: 200,
		wordAt: 'data.status',
		words: { queued: ['pending'], running: ['processing'], succeeded: 'completed', partial: 'completed', failed: allKinds('failed') },
		reasonAt: allKinds('data.error.message'),
		deckLinksAt: ['data.file_url'],
		otherLinksAt: ['data.thumbnail_url', 'data.gif_url'],
		runningLinksAt: [],
		progress: { scale: 'none' },
		envelopeSuccess: { code: 100, message: 'Success' },
		create: { status: 200, idAt: 'data.video_id' },
	},
	created: (v) => ok({ error: null, data: { video_id: v.taskId, taskId: v.taskId } }),
	status(v) {
		const data: Record<string, unknown> = {
			callback_id: null,
			caption_url: null,
			created_at: seconds(v.createdAt),
			duration: null,
			error: null,
			gif_url: null,
			id: v.taskId,
			status: v.phase === 'queued' ? 'pending' : v.phase === 'running' ? 'processing' : v.phase === 'succeeded' ? 'completed' : 'failed',
			thumbnail_url: null,
			file_url: null,
			file_url_caption: null,
		};
		if (v.phase === 'succeeded') Object.assign(data, { duration: 10, file_url: v.pptx(), thumbnail_url: v.preview(1), gif_url: v.preview(2) });
		if (v.phase === 'failed') data.error = { code: HEYGEN_CODES[v.failureKind], detail: reason(v).message, message: reason(v).message };
		return ok({ code: 100, data, message: 'Success' });
	},
};
const HEYGEN_CODES: Record<FailureKind, number> = { error: 40001, timeout: 40008, aborted: 40099, cancelled: 40098, moderated: 40039 };

/**
 * fal's queue: IN_QUEUE (queue_position) / IN_PROGRESS (logs) / COMPLETED, and COMPLETED also for a request
 * that failed (then `error` and `error_type`); the result inlined under `response` (fal serves it at response_url).
 */
const fal: ShapeDef = {
	spec: {
		name: 'fal',
		doc: 'https://docs.fal.ai/documentation/model-apis/inference/queue',
		kind: 'image',
		runningStatus: 200,
		wordAt: 'status',
		words: { queued: ['IN_QUEUE'], running: ['IN_PROGRESS'], succeeded: 'COMPLETED', partial: 'COMPLETED', failed: allKinds('COMPLETED') },
		reasonAt: allKinds('error'),
		deckLinksAt: ['response.deck.url', 'response.pdf.url'],
		otherLinksAt: ['response_url', 'status_url', 'cancel_url'],
		runningLinksAt: ['response_url', 'status_url', 'cancel_url'],
		progress: { scale: 'none' },
		create: { status: 200, idAt: 'request_id' },
	},
	created: (v) => ok({ request_id: v.taskId, taskId: v.taskId, ...falUrls(v), queue_position: 0 }),
	status(v) {
		const base = { request_id: v.taskId, ...falUrls(v) };
		const log = (message: string, level = 'INFO') => ({ message, level, source: 'USER', timestamp: iso(v.updatedAt) });
		switch (v.phase) {
			case 'queued':
				return ok({ ...base, status: 'IN_QUEUE', queue_position: 0 });
			case 'running':
				return ok({ ...base, status: 'IN_PROGRESS', logs: [log(`drafting slide ${slideOf(v)} of 10`)] });
			case 'succeeded': {
				const file = (url: string, name: string, type: string) => ({ url, content_type: type, file_name: name, file_size: 4096 });
				const pdf = v.pdf();
				const response = { deck: file(v.pptx(), 'deck.pptx', 'application/vnd.openxmlformats-officedocument.presentationml.presentation'), ...(pdf ? { pdf: file(pdf, 'deck.pdf', 'application/pdf') } : {}) };
				return ok({ ...base, status: 'COMPLETED', logs: [log('done')], metrics: { inference_time: 612.4 }, response });
			}
			case 'failed':
				return ok({ ...base, status: 'COMPLETED', logs: [log(reason(v).message, 'ERROR')], metrics: { inference_time: null }, error: reason(v).message, error_type: FAL_TYPES[v.failureKind] });
		}
	},
};
const FAL_TYPES: Record<FailureKind, string> = { error: 'runner_server_error', timeout: 'request_timeout', aborted: 'runner_disconnected', cancelled: 'client_cancelled', moderated: 'content_policy_violation' };
function falUrls(v: DeckView): Record<string, string> {
	return { response_url: v.statusUrl, status_url: v.statusUrl, cancel_url: `${v.statusUrl}/cancel` };
}

/**
 * Stability AI's result endpoint: 202 with nothing to read while in progress, 200 when done with a
 * `finish_reason` (SUCCESS, ERROR, CONTENT_FILTERED) and no status word; a filtered result still has an image.
 */
const stability: ShapeDef = {
	spec: {
		name: 'Stability AI',
		doc: 'https://platform.stability.ai/docs/api-reference#tag/Image-to-Video/paths/~1v2beta~1image-to-video~1result~1%7Bid%7D/get',
		kind: 'image',
		runningStatus: 202,
		wordAt: 'finish_reason',
		words: { queued: [], running: [], succeeded: 'SUCCESS', partial: 'SUCCESS', failed: { error: 'ERROR', timeout: 'ERROR', aborted: 'ERROR', cancelled: 'ERROR', moderated: 'CONTENT_FILTERED' } },
		reasonAt: { error: 'errors[0]', timeout: 'errors[0]', aborted: 'errors[0]', cancelled: 'errors[0]' },
		deckLinksAt: ['file'],
		otherLinksAt: [],
		runningLinksAt: [],
		progress: { scale: 'none' },
		create: { status: 200, idAt: 'id' },
	},
	created: (v) => ok({ id: v.taskId, taskId: v.taskId }),
	status(v) {
		switch (v.phase) {
			case 'queued':
			case 'running':
				return { status: 202 };
			case 'succeeded':
				return ok({ finish_reason: 'SUCCESS', seed: 42, file: v.pptx() });
			case 'failed':
				return v.failureKind === 'moderated'
					? ok({ finish_reason: 'CONTENT_FILTERED', seed: 42, file: v.preview(9) })
					: ok({ finish_reason: 'ERROR', seed: 42, errors: [reason(v).message] });
		}
	},
};

/**
 * MiniMax: `Preparing` / `Queueing` / `Processing` / `Success` / `Fail`, with `base_resp: {status_code: 0,
 * status_msg: "success"}` beside a failed task too; the file by `file_id` (its download URL inlined here).
 */
const minimax: ShapeDef = {
	spec: {
		name: 'MiniMax',
		doc: 'https://platform.minimax.io/docs/api-reference/video-generation-query',
		kind: 'video',
		runningStatus: 200,
		wordAt: 'status',
		words: { queued: ['Queueing'], running: ['Processing'], succeeded: 'Success', partial: 'Success', failed: allKinds('Fail') },
		reasonAt: { moderated: 'base_resp.status_msg' },
		deckLinksAt: ['file.download_url'],
		otherLinksAt: [],
		runningLinksAt: [],
		progress: { scale: 'none' },
		envelopeSuccess: { base_resp: { status_code: 0, status_msg: 'success' } },
		create: { status: 200, idAt: 'task_id' },
	},
	created: (v) => ok({ task_id: v.taskId, taskId: v.taskId, base_resp: { status_code: 0, status_msg: 'success' } }),
	status(v) {
		const base = { task_id: v.taskId };
		const fine = { base_resp: { status_code: 0, status_msg: 'success' } };
		switch (v.phase) {
			case 'queued':
				return ok({ ...base, status: 'Queueing', ...fine });
			case 'running':
				return ok({ ...base, status: 'Processing', ...fine });
			case 'succeeded': {
				const fileId = `f_${v.taskId.slice(-10)}`;
				return ok({ ...base, status: 'Success', file_id: fileId, file: { file_id: fileId, bytes: 4096, created_at: seconds(v.updatedAt), filename: 'deck.pptx', purpose: 'deck_generation', download_url: v.pptx() }, ...fine });
			}
			case 'failed':
				return ok({ ...base, status: 'Fail', ...(v.failureKind === 'moderated' ? { base_resp: { status_code: 1027, status_msg: reason(v).message } } : fine) });
		}
	},
};

/** Luma (Dream Machine): `state` queued / dreaming / completed / failed, `failure_reason`, `assets` with a thumbnail. */
const luma: ShapeDef = {
	spec: {
		name: 'Luma Dream Machine',
		doc: 'https://docs.lumalabs.ai/reference/getgeneration',
		kind: 'video',
		runningStatus: 200,
		wordAt: 'state',
		words: { queued: ['queued'], running: ['dreaming'], succeeded: 'completed', partial: 'completed', failed: allKinds('failed') },
		reasonAt: allKinds('failure_reason'),
		deckLinksAt: ['assets.file'],
		otherLinksAt: ['assets.thumbnail'],
		runningLinksAt: [],
		progress: { scale: 'none' },
		create: { status: 201, idAt: 'id' },
	},
	created: (v) => ok({ ...lumaBase(v), taskId: v.taskId, state: 'queued', failure_reason: null, assets: null }, 201),
	status(v) {
		const base = lumaBase(v);
		switch (v.phase) {
			case 'queued':
			case 'running':
				return ok({ ...base, state: v.phase === 'queued' ? 'queued' : 'dreaming', failure_reason: null, assets: null });
			case 'succeeded':
				return ok({ ...base, state: 'completed', failure_reason: null, assets: { file: v.pptx(), thumbnail: v.preview(1) } });
			case 'failed':
				return ok({ ...base, state: 'failed', failure_reason: reason(v).message, assets: null });
		}
	},
};
function lumaBase(v: DeckView): Record<string, unknown> {
	return { id: v.taskId, generation_type: 'deck', created_at: iso(v.createdAt), model: 'deck-1', request: { prompt: 'deck' } };
}

/**
 * Suno (sunoapi.org): `{code: 200, msg: "success", data}` beside a failed task too; stage words that say
 * SUCCESS before the end (TEXT_SUCCESS, FIRST_SUCCESS), with cover images before the files; failure words of
 * their own (GENERATE_AUDIO_FAILED, SENSITIVE_WORD_ERROR) and `errorMessage`.
 */
const suno: ShapeDef = {
	spec: {
		name: 'Suno (sunoapi.org)',
		doc: 'https://docs.sunoapi.org/suno-api/get-music-generation-details',
		kind: 'audio',
		runningStatus: 200,
		wordAt: 'data.status',
		words: {
			queued: ['PENDING'],
			running: ['PENDING'],
			stages: ['TEXT_SUCCESS', 'FIRST_SUCCESS'],
			succeeded: 'SUCCESS',
			partial: 'SUCCESS',
			failed: { error: 'GENERATE_AUDIO_FAILED', timeout: 'GENERATE_AUDIO_FAILED', aborted: 'GENERATE_AUDIO_FAILED', cancelled: 'GENERATE_AUDIO_FAILED', moderated: 'SENSITIVE_WORD_ERROR' },
		},
		reasonAt: allKinds('data.errorMessage'),
		deckLinksAt: ['data.response.deckData[0].fileUrl', 'data.response.deckData[1].fileUrl'],
		otherLinksAt: ['data.response.deckData[0].imageUrl', 'data.response.deckData[1].imageUrl'],
		runningLinksAt: ['data.response.deckData[0].imageUrl'],
		progress: { scale: 'none' },
		envelopeSuccess: { code: 200, msg: 'success' },
		create: { status: 200, idAt: 'data.taskId' },
	},
	created: (v) => ok({ code: 200, msg: 'success', data: { taskId: v.taskId } }),
	status(v) {
		const data: Record<string, unknown> = { taskId: v.taskId, parentMusicId: '', param: '{}', response: null, type: 'GENERATE', errorCode: null, errorMessage: null };
		const entry = (i: number, fileUrl: string, imageUrl: string) => ({ id: `${v.taskId}-${i}`, title: `Deck ${v.taskId}`, fileUrl, imageUrl, createTime: iso(v.updatedAt) });
		if (v.phase === 'queued' || (v.phase === 'running' && v.progress < 30)) data.status = 'PENDING';
		else if (v.phase === 'running' && v.progress < 60) {
			data.status = 'TEXT_SUCCESS';
			data.response = { taskId: v.taskId, deckData: [entry(0, '', '')] };
		} else if (v.phase === 'running') {
			data.status = 'FIRST_SUCCESS';
			data.response = { taskId: v.taskId, deckData: [entry(0, '', v.preview(1))] };
		} else if (v.phase === 'succeeded') {
			data.status = 'SUCCESS';
			data.response = { taskId: v.taskId, deckData: filesOf(v).map((url, i) => entry(i, url, v.preview(i + 1))) };
		} else {
			data.status = v.failureKind === 'moderated' ? 'SENSITIVE_WORD_ERROR' : 'GENERATE_AUDIO_FAILED';
			data.errorCode = v.failureKind === 'moderated' ? 400 : 500;
			data.errorMessage = reason(v).message;
		}
		return ok({ code: 200, msg: 'success', data });
	},
};

/**
 * Apify (actor runs): `{data: run}`; READY / RUNNING / SUCCEEDED / FAILED / TIMING-OUT / TIMED-OUT / ABORTING /
 * ABORTED, upper case with hyphens; the reason in `statusMessage`; the output in the run's key-value store
 * (named here under `output`).
 */
const apify: ShapeDef = {
	spec: {
		name: 'Apify',
		doc: 'https://docs.apify.com/api/v2/actor-run-get',
		kind: 'platform',
		runningStatus: 200,
		wordAt: 'data.status',
		words: {
			queued: ['READY'],
			running: ['RUNNING'],
			succeeded: 'SUCCEEDED',
			partial: 'SUCCEEDED',
			failed: { error: 'FAILED', moderated: 'FAILED', timeout: 'TIMED-OUT', aborted: 'ABORTED', cancelled: 'ABORTED' },
			ending: { timeout: 'TIMING-OUT', aborted: 'ABORTING', cancelled: 'ABORTING' },
		},
		reasonAt: allKinds('data.statusMessage'),
		deckLinksAt: ['data.output.pptx', 'data.output.pdf'],
		otherLinksAt: [],
		runningLinksAt: [],
		progress: { scale: 'none' },
		create: { status: 201, idAt: 'data.id' },
	},
	created: (v) => ok({ data: { ...apifyBase(v), taskId: v.taskId, status: 'READY', statusMessage: null, finishedAt: null, exitCode: null } }, 201),
	status(v) {
		const base = apifyBase(v);
		switch (v.phase) {
			case 'queued':
				return ok({ data: { ...base, status: 'READY', statusMessage: null, isStatusMessageTerminal: false, finishedAt: null, exitCode: null } });
			case 'running':
				return ok({
					data: {
						...base,
						status: v.ending === 'timeout' ? 'TIMING-OUT' : v.ending ? 'ABORTING' : 'RUNNING',
						statusMessage: v.ending ? 'Stopping' : `Drafting slide ${slideOf(v)} of 10`,
						isStatusMessageTerminal: false,
						finishedAt: null,
						exitCode: null,
					},
				});
			case 'succeeded': {
				const pdf = v.pdf();
				return ok({
					data: { ...base, status: 'SUCCEEDED', statusMessage: v.partial ? PARTIAL_REASON.message : 'Finished', isStatusMessageTerminal: true, finishedAt: iso(v.updatedAt), exitCode: 0, output: { pptx: v.pptx(), ...(pdf ? { pdf } : {}) } },
				});
			}
			case 'failed': {
				const word = v.failureKind === 'timeout' ? 'TIMED-OUT' : stopped(v.failureKind) ? 'ABORTED' : 'FAILED';
				return ok({ data: { ...base, status: word, statusMessage: reason(v).message, isStatusMessageTerminal: true, finishedAt: iso(v.updatedAt), exitCode: word === 'FAILED' ? 1 : null } });
			}
		}
	},
};
function apifyBase(v: DeckView): Record<string, unknown> {
	return {
		id: v.taskId,
		actId: 'deckgen~deck',
		startedAt: iso(v.createdAt),
		buildNumber: '0.1.1',
		defaultKeyValueStoreId: `kvs_${v.taskId.slice(-10)}`,
		defaultDatasetId: `ds_${v.taskId.slice(-10)}`,
		meta: { origin: 'API' },
		options: { timeoutSecs: 3600, memoryMbytes: 1024 },
	};
}

/**
 * Azure AI Speech batch synthesis, Azure's pattern for long-running operations: PascalCase words (`NotStarted`,
 * `Running`, `Succeeded`, `Failed`; `Canceled` from Azure's operation guidelines), the files under
 * `outputs.result`, the failure under `properties.error`.
 */
const azure: ShapeDef = {
	spec: {
		name: 'Azure AI Speech batch synthesis',
		doc: 'https://learn.microsoft.com/azure/ai-services/speech-service/batch-synthesis',
		kind: 'audio',
		runningStatus: 200,
		wordAt: 'status',
		words: { queued: ['NotStarted'], running: ['Running'], succeeded: 'Succeeded', partial: 'Succeeded', failed: { error: 'Failed', timeout: 'Failed', moderated: 'Failed', aborted: 'Canceled', cancelled: 'Canceled' } },
		reasonAt: { error: 'properties.error.message', timeout: 'properties.error.message', moderated: 'properties.error.message' },
		deckLinksAt: ['outputs.result', 'outputs.pdf'],
		otherLinksAt: [],
		runningLinksAt: [],
		progress: { scale: 'none' },
		create: { status: 201, idAt: 'id' },
	},
	created: (v) => ok({ ...azureBase(v), taskId: v.taskId, status: 'NotStarted' }, 201),
	status(v) {
		const base = azureBase(v);
		switch (v.phase) {
			case 'queued':
			case 'running':
				return ok({ ...base, status: v.phase === 'queued' ? 'NotStarted' : 'Running', properties: azureProperties(v) });
			case 'succeeded': {
				const pdf = v.pdf();
				return ok({ ...base, status: 'Succeeded', properties: { ...azureProperties(v), succeededCount: pdf ? 2 : 1, failedCount: pdf ? 0 : 1 }, outputs: { result: v.pptx(), ...(pdf ? { pdf } : {}) } });
			}
			case 'failed':
				return stopped(v.failureKind)
					? ok({ ...base, status: 'Canceled', properties: azureProperties(v) })
					: ok({ ...base, status: 'Failed', properties: { ...azureProperties(v), succeededCount: 0, failedCount: 1, error: { code: AZURE_CODES[v.failureKind], message: reason(v).message } } });
		}
	},
};
const AZURE_CODES: Partial<Record<FailureKind, string>> = { error: 'InternalServerError', timeout: 'Timeout', moderated: 'ContentFiltered' };
function azureBase(v: DeckView): Record<string, unknown> {
	return { id: v.taskId, internalId: `int-${v.taskId.slice(-12)}`, createdDateTime: iso(v.createdAt), lastActionDateTime: iso(v.updatedAt), inputKind: 'PlainText' };
}
function azureProperties(v: DeckView): Record<string, unknown> {
	return { timeToLiveInHours: 744, outputFormat: 'pptx', concatenateResult: false, decompressOutputFiles: false, ...(v.phase === 'succeeded' ? { durationInMilliseconds: v.updatedAt - v.createdAt } : {}) };
}

/**
 * Vertex AI batch prediction: the enum's type name in front of every word (`JOB_STATE_RUNNING`,
 * `JOB_STATE_CANCELLING`, `JOB_STATE_PARTIALLY_SUCCEEDED`), `error` a google.rpc.Status, `partialFailures`
 * beside a partial success, the output directory on Cloud Storage (`gs://`, never a link to fetch).
 */
const vertex: ShapeDef = {
	spec: {
		name: 'Vertex AI batch prediction',
		doc: 'https://cloud.google.com/vertex-ai/docs/reference/rest/v1/projects.locations.batchPredictionJobs',
		kind: 'platform',
		runningStatus: 200,
		wordAt: 'state',
		words: {
			queued: ['JOB_STATE_QUEUED'],
			running: ['JOB_STATE_RUNNING'],
			succeeded: 'JOB_STATE_SUCCEEDED',
			partial: 'JOB_STATE_PARTIALLY_SUCCEEDED',
			failed: { error: 'JOB_STATE_FAILED', moderated: 'JOB_STATE_FAILED', timeout: 'JOB_STATE_EXPIRED', aborted: 'JOB_STATE_CANCELLED', cancelled: 'JOB_STATE_CANCELLED' },
			ending: { aborted: 'JOB_STATE_CANCELLING', cancelled: 'JOB_STATE_CANCELLING' },
		},
		// `error` is "only populated when the job's state is JOB_STATE_FAILED or JOB_STATE_CANCELLED"
		reasonAt: { error: 'error.message', moderated: 'error.message', aborted: 'error.message', cancelled: 'error.message' },
		deckLinksAt: ['outputInfo.files[0]', 'outputInfo.files[1]'],
		otherLinksAt: ['outputInfo.gcsOutputDirectory'],
		runningLinksAt: [],
		progress: { scale: 'none' },
		create: { status: 200, idAt: 'name' },
	},
	created: (v) => ok({ ...vertexBase(v), taskId: v.taskId, state: 'JOB_STATE_QUEUED' }),
	status(v) {
		const base = vertexBase(v);
		switch (v.phase) {
			case 'queued':
				return ok({ ...base, state: 'JOB_STATE_QUEUED' });
			case 'running':
				return ok({ ...base, state: v.ending === 'aborted' || v.ending === 'cancelled' ? 'JOB_STATE_CANCELLING' : 'JOB_STATE_RUNNING', startTime: iso(v.createdAt + 1_000) });
			case 'succeeded':
				return ok({
					...base,
					state: v.partial ? 'JOB_STATE_PARTIALLY_SUCCEEDED' : 'JOB_STATE_SUCCEEDED',
					startTime: iso(v.createdAt + 1_000),
					endTime: iso(v.updatedAt),
					completionStats: { successfulCount: String(filesOf(v).length), failedCount: v.partial ? '1' : '0' },
					...(v.partial ? { partialFailures: [{ code: 13, message: PARTIAL_REASON.message }] } : {}),
					outputInfo: { gcsOutputDirectory: `gs://deckgen-output/${v.taskId}`, files: filesOf(v) },
				});
			case 'failed': {
				const state = v.failureKind === 'timeout' ? 'JOB_STATE_EXPIRED' : stopped(v.failureKind) ? 'JOB_STATE_CANCELLED' : 'JOB_STATE_FAILED';
				const error = state === 'JOB_STATE_EXPIRED' ? {} : { error: { code: GOOGLE_CODES[v.failureKind], message: reason(v).message } };
				return ok({ ...base, state, endTime: iso(v.updatedAt), ...error });
			}
		}
	},
};
/** google.rpc.Code per failure kind: INTERNAL, DEADLINE_EXCEEDED, ABORTED, CANCELLED, INVALID_ARGUMENT. */
const GOOGLE_CODES: Record<FailureKind, number> = { error: 13, timeout: 4, aborted: 10, cancelled: 1, moderated: 3 };
function vertexBase(v: DeckView): Record<string, unknown> {
	return { name: `projects/deckgen/locations/us-central1/batchPredictionJobs/${v.taskId}`, displayName: `deck ${v.taskId}`, model: 'publishers/deckgen/models/deck-1', createTime: iso(v.createdAt), updateTime: iso(v.updatedAt) };
}

/**
 * Veo (Gemini API video generation): a long-running operation with no status word at all. `{name}` at first
 * (proto3 leaves `done: false` out), `done: false` while running; when done, `response` with the samples or
 * `error` (a google.rpc.Status); a filtered prompt ends done with no sample and `raiMediaFilteredReasons`.
 */
const veo: ShapeDef = {
	spec: {
		name: 'Veo (Gemini API)',
		doc: 'https://ai.google.dev/gemini-api/docs/video',
		kind: 'video',
		runningStatus: 200,
		words: { queued: [], running: [], succeeded: 'done: true', partial: 'done: true', failed: allKinds('done: true') },
		flags: { running: {}, succeeded: { done: true }, failed: { done: true } },
		reasonAt: { error: 'error.message', timeout: 'error.message', aborted: 'error.message', cancelled: 'error.message', moderated: 'response.generateVideoResponse.raiMediaFilteredReasons[0]' },
		deckLinksAt: ['response.generateVideoResponse.generatedSamples[0].file.uri', 'response.generateVideoResponse.generatedSamples[1].file.uri'],
		otherLinksAt: [],
		runningLinksAt: [],
		progress: { scale: 'none' },
		create: { status: 200, idAt: 'name' },
	},
	created: (v) => ok({ name: veoName(v), taskId: v.taskId }),
	status(v) {
		const name = veoName(v);
		const response = (generateVideoResponse: Record<string, unknown>) => ({ '@type': 'type.googleapis.com/google.ai.generativelanguage.v1beta.PredictLongRunningResponse', generateVideoResponse });
		switch (v.phase) {
			case 'queued':
				return ok({ name });
			case 'running':
				return ok({ name, done: false });
			case 'succeeded':
				return ok({ name, done: true, response: response({ generatedSamples: filesOf(v).map((uri) => ({ file: { uri } })) }) });
			case 'failed':
				return v.failureKind === 'moderated'
					? ok({ name, done: true, response: response({ raiMediaFilteredCount: 1, raiMediaFilteredReasons: [reason(v).message] }) })
					: ok({ name, done: true, error: { code: GOOGLE_CODES[v.failureKind], message: reason(v).message } });
		}
	},
};
const veoName = (v: DeckView) => `models/deck-1/operations/${v.taskId}`;

/**
 * Creatomate renders: the file's address is in the record from the first answer (`url` "is always present"),
 * the file there "only available after the render has succeeded"; planned / waiting (for a third-party
 * integration) / transcribing (subtitles) / rendering / succeeded / failed with `error_message`.
 */
const creatomate: ShapeDef = {
	spec: {
		name: 'Creatomate',
		doc: 'https://creatomate.com/docs/api/rest-api/the-render-object',
		kind: 'video',
		runningStatus: 200,
		wordAt: 'status',
		words: { queued: ['planned'], running: ['waiting', 'transcribing', 'rendering'], succeeded: 'succeeded', partial: 'succeeded', failed: allKinds('failed') },
		reasonAt: allKinds('error_message'),
		deckLinksAt: ['url'],
		otherLinksAt: ['snapshot_url'],
		runningLinksAt: ['url'],
		fileBeforeReady: true,
		progress: { scale: 'none' },
		create: { status: 202, idAt: 'id' },
	},
	created: (v) => ok({ ...creatomateBase(v), taskId: v.taskId, status: 'planned' }, 202),
	status(v) {
		const base = creatomateBase(v);
		switch (v.phase) {
			case 'queued':
				return ok({ ...base, status: 'planned' });
			case 'running':
				return ok({ ...base, status: v.progress < 20 ? 'waiting' : v.progress < 40 ? 'transcribing' : 'rendering' });
			case 'succeeded':
				return ok({ ...base, status: 'succeeded', snapshot_url: v.preview(1), width: 1280, height: 720, file_size: 4096 });
			case 'failed':
				return ok({ ...base, status: 'failed', error_message: reason(v).message });
		}
	},
};
function creatomateBase(v: DeckView): Record<string, unknown> {
	// the file's address from the start: a client that fetches it before `succeeded` meets a 404
	return { id: v.taskId, url: v.pptx(), template_id: 'tpl-deck', template_name: 'Deck', template_tags: [], output_format: 'pptx', render_scale: 1, metadata: null };
}

/**
 * Black Forest Labs' FLUX API (`get_result`): Pending / Ready, and terminal words of two words with a space:
 * `Request Moderated`, `Content Moderated`, `Task not found`; `Error`. The image under `result.sample`.
 */
const bfl: ShapeDef = {
	spec: {
		name: 'Black Forest Labs (FLUX API)',
		doc: 'https://docs.bfl.ml/api_integration/errors',
		kind: 'image',
		runningStatus: 200,
		wordAt: 'status',
		words: { queued: ['Pending'], running: ['Pending'], succeeded: 'Ready', partial: 'Ready', failed: { error: 'Error', timeout: 'Error', aborted: 'Error', cancelled: 'Error', moderated: 'Content Moderated' } },
		// the moderation's reasons (*inferred*: the docs name the word, not the record beside it)
		reasonAt: { moderated: 'details.Moderation Reasons[0]' },
		deckLinksAt: ['result.sample'],
		otherLinksAt: [],
		runningLinksAt: [],
		progress: { scale: 'none' },
		create: { status: 200, idAt: 'id' },
	},
	created: (v) => ok({ id: v.taskId, taskId: v.taskId, polling_url: v.statusUrl }),
	status(v) {
		const base = { id: v.taskId };
		switch (v.phase) {
			case 'queued':
			case 'running':
				return ok({ ...base, status: 'Pending', result: null });
			case 'succeeded':
				return ok({ ...base, status: 'Ready', result: { sample: v.pptx(), prompt: 'deck', seed: 42, start_time: seconds(v.createdAt), end_time: seconds(v.updatedAt), duration: seconds(v.updatedAt - v.createdAt) } });
			case 'failed':
				return v.failureKind === 'moderated'
					? ok({ ...base, status: 'Content Moderated', result: null, details: { 'Moderation Reasons': [reason(v).message] } })
					: ok({ ...base, status: 'Error', result: null });
		}
	},
};

/**
 * Tripo (3D generation, `/v2/openapi/task/{task_id}`): `{code: 0, data}`; queued / running / success / failed /
 * cancelled / unknown / banned / expired (a ban word); `progress` 0–100; the input image's URL in `data.input`, a
 * rendered preview in `data.output.rendered_image` beside the model; no reason member.
 */
const tripo: ShapeDef = {
	spec: {
		name: 'Tripo',
		doc: 'https://github.com/comfyanonymous/ComfyUI/blob/master/comfy_api_nodes/apis/tripo_api.py',
		kind: '3d',
		runningStatus: 200,
		wordAt: 'data.status',
		words: { queued: ['queued'], running: ['running'], succeeded: 'success', partial: 'success', failed: { error: 'failed', timeout: 'expired', aborted: 'cancelled', cancelled: 'cancelled', moderated: 'banned' } },
		reasonAt: {},
		deckLinksAt: ['data.output.model'],
		otherLinksAt: ['data.output.rendered_image', 'data.input.file.url'],
		runningLinksAt: ['data.input.file.url', 'data.output.rendered_image'],
		progress: { at: 'data.progress', scale: 'percent' },
		envelopeSuccess: { code: 0 },
		create: { status: 200, idAt: 'data.task_id' },
	},
	created: (v) => ok({ code: 0, data: { task_id: v.taskId, taskId: v.taskId } }),
	status(v) {
		const data: Record<string, unknown> = {
			task_id: v.taskId,
			type: 'image_to_model',
			input: { file: { type: 'docx', url: v.input() } },
			output: {},
			progress: v.phase === 'queued' ? 0 : v.progress,
			create_time: seconds(v.createdAt),
		};
		switch (v.phase) {
			case 'queued':
				Object.assign(data, { status: 'queued', queue_position: 1 });
				break;
			case 'running':
				// a rendered preview appears before the model does (*inferred*)
				Object.assign(data, { status: 'running', running_left_time: 60, output: v.progress >= 60 ? { rendered_image: v.preview(1) } : {} });
				break;
			case 'succeeded':
				Object.assign(data, { status: 'success', output: { model: v.pptx(), rendered_image: v.preview(1) } });
				break;
			case 'failed':
				data.status = { error: 'failed', timeout: 'expired', aborted: 'cancelled', cancelled: 'cancelled', moderated: 'banned' }[v.failureKind];
				break;
		}
		return ok({ code: 0, data });
	},
};

/**
 * CloudConvert jobs: `{data: job}`, waiting / processing / finished / error, and the job's `tasks[]` (import,
 * convert, export), each with its own `status`, `code`, `message`: the failed task's message is the only reason
 * (the tasks after it say "Input task has failed"); the files under the export task's `result.files[].url`, the
 * input document under the import task's `payload.url`.
 */
const cloudconvert: ShapeDef = {
	spec: {
		name: 'CloudConvert',
		doc: 'https://cloudconvert.com/api/v2/jobs',
		kind: 'conversion',
		runningStatus: 200,
		wordAt: 'data.status',
		words: { queued: ['waiting'], running: ['processing'], succeeded: 'finished', partial: 'finished', failed: allKinds('error') },
		reasonAt: allKinds('data.tasks[1].message'),
		deckLinksAt: ['data.tasks[2].result.files[0].url', 'data.tasks[2].result.files[1].url'],
		otherLinksAt: ['data.tasks[0].payload.url', 'data.links.self'],
		runningLinksAt: ['data.tasks[0].payload.url', 'data.links.self'],
		progress: { scale: 'none' },
		create: { status: 201, idAt: 'data.id' },
	},
	created: (v) => ok({ data: { ...cloudconvertJob(v), taskId: v.taskId } }, 201),
	status: (v) => ok({ data: cloudconvertJob(v) }),
};
function cloudconvertJob(v: DeckView): Record<string, unknown> {
	const task = (n: number, name: string, operation: string, status: string, extra: Record<string, unknown> = {}) => ({
		id: `${v.taskId}-t${n}`,
		name,
		job_id: v.taskId,
		operation,
		status,
		code: null,
		message: null,
		percent: status === 'finished' ? 100 : 0,
		result: null,
		created_at: iso(v.createdAt),
		ended_at: status === 'finished' || status === 'error' ? iso(v.updatedAt) : null,
		...extra,
	});
	const imported = task(0, 'import-brief', 'import/url', v.phase === 'queued' ? 'processing' : 'finished', { payload: { operation: 'import/url', url: v.input(), filename: 'brief.docx' } });
	let convert: Record<string, unknown>;
	let exported: Record<string, unknown>;
	let status: string;
	switch (v.phase) {
		case 'queued':
			status = 'waiting';
			convert = task(1, 'convert-deck', 'convert', 'waiting');
			exported = task(2, 'export-deck', 'export/url', 'waiting');
			break;
		case 'running':
			status = 'processing';
			convert = task(1, 'convert-deck', 'convert', 'processing', { percent: v.progress, engine: 'office' });
			exported = task(2, 'export-deck', 'export/url', 'waiting');
			break;
		case 'succeeded':
			status = 'finished';
			convert = task(1, 'convert-deck', 'convert', 'finished', { engine: 'office' });
			exported = task(2, 'export-deck', 'export/url', 'finished', { result: { files: filesOf(v).map((url, i) => ({ filename: i === 0 ? 'deck.pptx' : 'deck.pdf', size: 4096, url })) } });
			break;
		case 'failed':
			status = 'error';
			convert = task(1, 'convert-deck', 'convert', 'error', { code: CLOUDCONVERT_CODES[v.failureKind], message: reason(v).message, engine: 'office' });
			// the tasks after the failed one fail with it, and say only that (*inferred* from the task model)
			exported = task(2, 'export-deck', 'export/url', 'error', { code: 'INPUT_TASK_FAILED', message: 'Input task has failed' });
			break;
	}
	return {
		id: v.taskId,
		tag: `deck-${v.taskId.slice(-6)}`,
		status,
		created_at: iso(v.createdAt),
		started_at: iso(v.createdAt),
		ended_at: status === 'finished' || status === 'error' ? iso(v.updatedAt) : null,
		tasks: [imported, convert, exported],
		links: { self: v.statusUrl },
	};
}
const CLOUDCONVERT_CODES: Record<FailureKind, string> = { error: 'UNKNOWN_ERROR', timeout: 'TIMEOUT', aborted: 'CANCELLED', cancelled: 'CANCELLED', moderated: 'INVALID_INPUT' };

/**
 * kie.ai market tasks (`recordInfo`): `{code: 200, msg: "success", data}`; waiting / queuing / generating /
 * success / fail; the result a JSON document inside a string (`resultJson: "{\"resultUrls\":[…]}"`), the request
 * likewise (`param`, with the input document's URL and the callback address); `failMsg` beside `failCode`.
 */
const kieai: ShapeDef = {
	spec: {
		name: 'kie.ai (market models)',
		doc: 'https://docs.kie.ai/market/common/get-task-detail',
		kind: 'platform',
		runningStatus: 200,
		wordAt: 'data.state',
		words: { queued: ['waiting'], running: ['queuing', 'generating'], succeeded: 'success', partial: 'success', failed: allKinds('fail') },
		reasonAt: allKinds('data.failMsg'),
		deckLinksAt: ['data.resultJson.resultUrls[0]', 'data.resultJson.resultUrls[1]'],
		otherLinksAt: ['data.param.input.document_url', 'data.param.callBackUrl'],
		runningLinksAt: ['data.param.input.document_url', 'data.param.callBackUrl'],
		progress: { scale: 'none' },
		envelopeSuccess: { code: 200, msg: 'success' },
		create: { status: 200, idAt: 'data.taskId' },
	},
	created: (v) => ok({ code: 200, msg: 'success', data: { taskId: v.taskId } }),
	status(v) {
		const param = JSON.stringify({ model: 'deckgen/deck-1', callBackUrl: 'https://hooks.deckgen.example/kie/callback', input: { prompt: 'Quarterly update', document_url: v.input() } });
		const data: Record<string, unknown> = {
			taskId: v.taskId,
			model: 'deckgen/deck-1',
			state: v.phase === 'queued' ? 'waiting' : v.phase === 'running' ? (v.progress < 30 ? 'queuing' : 'generating') : v.phase === 'succeeded' ? 'success' : 'fail',
			param,
			resultJson: '',
			failCode: '',
			failMsg: '',
			costTime: null,
			completeTime: null,
			createTime: v.createdAt,
			updateTime: v.updatedAt,
		};
		if (v.phase === 'succeeded') Object.assign(data, { resultJson: JSON.stringify({ resultUrls: filesOf(v) }), costTime: v.updatedAt - v.createdAt, completeTime: v.updatedAt });
		if (v.phase === 'failed') Object.assign(data, { failCode: v.failureKind === 'moderated' ? '422' : '501', failMsg: reason(v).message, completeTime: v.updatedAt });
		return ok({ code: 200, msg: 'success', data });
	},
};

/**
 * Transloadit Assemblies: the state under `ok` (ASSEMBLY_UPLOADING, ASSEMBLY_EXECUTING, ASSEMBLY_COMPLETED,
 * ASSEMBLY_CANCELED, REQUEST_ABORTED), an error code under `error` (no `ok`) on the failures that have one, with
 * `message`; results by step name (`results.<step>[].ssl_url`: thumbnails first, the export after), the upload
 * (the input document) under `uploads[]`.
 */
const transloadit: ShapeDef = {
	spec: {
		name: 'Transloadit (Assemblies)',
		doc: 'https://transloadit.com/docs/api/response-codes/',
		kind: 'conversion',
		runningStatus: 200,
		wordAt: 'ok',
		words: {
			queued: ['ASSEMBLY_UPLOADING'],
			running: ['ASSEMBLY_EXECUTING'],
			succeeded: 'ASSEMBLY_COMPLETED',
			partial: 'ASSEMBLY_COMPLETED',
			failed: { error: 'INTERNAL_COMMAND_ERROR', timeout: 'ASSEMBLY_EXPIRED', moderated: 'USER_COMMAND_ERROR', aborted: 'REQUEST_ABORTED', cancelled: 'ASSEMBLY_CANCELED' },
		},
		failedWordAt: { error: 'error', timeout: 'error', moderated: 'error' },
		reasonAt: { error: 'message', timeout: 'message', moderated: 'message' },
		deckLinksAt: ['results.exported[0].ssl_url', 'results.exported[1].ssl_url'],
		otherLinksAt: ['results.thumbs[0].ssl_url', 'uploads[0].ssl_url', 'assembly_ssl_url'],
		runningLinksAt: ['uploads[0].ssl_url', 'assembly_ssl_url', 'results.thumbs[0].ssl_url'],
		progress: { scale: 'none' },
		create: { status: 200, idAt: 'assembly_id' },
	},
	created: (v) => ok({ ...transloaditBase(v), taskId: v.taskId, ok: 'ASSEMBLY_UPLOADING', message: 'The Assembly is still in the process of being uploaded.', results: {} }),
	status(v) {
		const base = transloaditBase(v);
		const thumbs = [{ id: `${v.taskId}-thumb`, name: 'slide-1.png', mime: 'image/png', ssl_url: v.preview(1) }];
		switch (v.phase) {
			case 'queued':
				return ok({ ...base, ok: 'ASSEMBLY_UPLOADING', message: 'The Assembly is still in the process of being uploaded.', results: {} });
			case 'running':
				// results fill step by step while the Assembly executes: the thumbnails before the export
				return ok({ ...base, ok: 'ASSEMBLY_EXECUTING', message: 'The Assembly is currently being executed.', results: v.progress >= 50 ? { thumbs } : {} });
			case 'succeeded': {
				const exported = filesOf(v).map((url, i) => ({ id: `${v.taskId}-out${i}`, name: i === 0 ? 'deck.pptx' : 'deck.pdf', mime: i === 0 ? 'application/vnd.openxmlformats-officedocument.presentationml.presentation' : 'application/pdf', ssl_url: url }));
				return ok({ ...base, ok: 'ASSEMBLY_COMPLETED', message: 'The Assembly was successfully completed.', last_job_completed: iso(v.updatedAt), results: { thumbs, exported } });
			}
			case 'failed':
				if (v.failureKind === 'cancelled') return ok({ ...base, ok: 'ASSEMBLY_CANCELED', message: 'The Assembly was canceled.', results: {} });
				if (v.failureKind === 'aborted') return ok({ ...base, ok: 'REQUEST_ABORTED', message: 'The upload connection was closed or timed out before receiving all data.', results: {} });
				return ok({ ...base, error: { error: 'INTERNAL_COMMAND_ERROR', timeout: 'ASSEMBLY_EXPIRED', moderated: 'USER_COMMAND_ERROR' }[v.failureKind], message: reason(v).message, results: {} });
		}
	},
};
function transloaditBase(v: DeckView): Record<string, unknown> {
	return {
		assembly_id: v.taskId,
		assembly_ssl_url: v.statusUrl,
		account_id: 'acc-deckgen',
		execution_start: iso(v.createdAt),
		bytes_expected: 2048,
		bytes_received: 2048,
		warnings: [],
		uploads: [{ id: `${v.taskId}-up`, name: 'brief.docx', mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', ssl_url: v.input() }],
	};
}

/**
 * Meshy tasks: PENDING / IN_PROGRESS / SUCCEEDED / FAILED / CANCELED, `progress` 0–100, the reason under
 * `task_error.message` (an empty message on every other record), the files under `model_urls` (empty strings
 * until the end), a thumbnail and a preview video beside them.
 */
const meshy: ShapeDef = {
	spec: {
		name: 'Meshy',
		doc: 'https://docs.meshy.ai/api/task-lifecycle',
		kind: '3d',
		runningStatus: 200,
		wordAt: 'status',
		words: { queued: ['PENDING'], running: ['IN_PROGRESS'], succeeded: 'SUCCEEDED', partial: 'SUCCEEDED', failed: { error: 'FAILED', timeout: 'FAILED', moderated: 'FAILED', aborted: 'CANCELED', cancelled: 'CANCELED' } },
		reasonAt: { error: 'task_error.message', timeout: 'task_error.message', moderated: 'task_error.message' },
		deckLinksAt: ['model_urls.pptx', 'model_urls.pdf'],
		otherLinksAt: ['thumbnail_url', 'video_url'],
		runningLinksAt: [],
		progress: { at: 'progress', scale: 'percent' },
		create: { status: 202, idAt: 'result' },
	},
	created: (v) => ok({ result: v.taskId, taskId: v.taskId }, 202),
	status(v) {
		const base = { id: v.taskId, created_at: v.createdAt, expires_at: v.createdAt + 3 * 86_400_000, texture_urls: [] };
		const pending = { model_urls: { pptx: '', pdf: '' }, thumbnail_url: '', video_url: '', started_at: 0, finished_at: 0, task_error: { message: '' } };
		switch (v.phase) {
			case 'queued':
				return ok({ ...base, ...pending, status: 'PENDING', progress: 0, preceding_tasks: 2 });
			case 'running':
				return ok({ ...base, ...pending, status: 'IN_PROGRESS', progress: v.progress, started_at: v.createdAt + 1_000 });
			case 'succeeded':
				return ok({
					...base,
					status: 'SUCCEEDED',
					progress: 100,
					model_urls: { pptx: v.pptx(), pdf: v.pdf() ?? '' },
					thumbnail_url: v.preview(1),
					video_url: v.preview(2),
					started_at: v.createdAt + 1_000,
					finished_at: v.updatedAt,
					task_error: { message: '' },
				});
			case 'failed':
				return ok({ ...base, ...pending, status: stopped(v.failureKind) ? 'CANCELED' : 'FAILED', progress: v.progress, started_at: v.createdAt + 1_000, finished_at: v.updatedAt, task_error: { message: stopped(v.failureKind) ? '' : reason(v).message } });
		}
	},
};

/**
 * D-ID talks: created / started / done / error / rejected; while it works the record links the input image
 * (`source_url`), the synthesised audio (`audio_url`, a real file, never the deck), the driver (`bank://…`) and
 * where the result will be (`pending_url`, an `s3://` address); `result_url` once done; `error: {kind, description}`.
 */
const did: ShapeDef = {
	spec: {
		name: 'D-ID (talks)',
		doc: 'https://docs.d-id.com/reference/talks-overview',
		kind: 'video',
		runningStatus: 200,
		wordAt: 'status',
		words: { queued: ['created'], running: ['started'], succeeded: 'done', partial: 'done', failed: { error: 'error', timeout: 'error', aborted: 'error', cancelled: 'error', moderated: 'rejected' } },
		reasonAt: allKinds('error.description'),
		deckLinksAt: ['result_url'],
		otherLinksAt: ['source_url', 'audio_url'],
		runningLinksAt: ['source_url', 'audio_url'],
		progress: { scale: 'none' },
		create: { status: 201, idAt: 'id' },
	},
	created: (v) => ok({ id: v.taskId, taskId: v.taskId, object: 'talk', created_at: iso(v.createdAt), created_by: 'auth0|deckgen', status: 'created' }, 201),
	status(v) {
		const base = { id: v.taskId, object: 'talk', user_id: 'auth0|deckgen', created_by: 'auth0|deckgen', created_at: iso(v.createdAt), modified_at: iso(v.updatedAt), source_url: v.input(), driver_url: 'bank://lively/', config: { result_format: '.pptx', fluent: false } };
		const pendingUrl = `s3://deckgen-talks/${v.taskId}/deck.pptx`;
		switch (v.phase) {
			case 'queued':
				return ok({ ...base, status: 'created', pending_url: pendingUrl });
			case 'running':
				return ok({ ...base, status: 'started', started_at: iso(v.createdAt + 1_000), audio_url: v.audio(), pending_url: pendingUrl });
			case 'succeeded':
				return ok({ ...base, status: 'done', started_at: iso(v.createdAt + 1_000), audio_url: v.audio(), result_url: v.pptx(), duration: 12 });
			case 'failed':
				return ok({ ...base, status: v.failureKind === 'moderated' ? 'rejected' : 'error', audio_url: v.audio(), error: { kind: DID_KINDS[v.failureKind], description: reason(v).message } });
		}
	},
};
const DID_KINDS: Record<FailureKind, string> = { error: 'InternalServerError', timeout: 'TimeoutError', aborted: 'InternalServerError', cancelled: 'InternalServerError', moderated: 'ContentModerationError' };

/**
 * Rev.ai transcription jobs: in_progress / transcribed (a success word of its own) / failed, `failure` a code
 * and `failure_detail` the human-readable reason; `media_url` the input. The transcript is a second call
 * (`/jobs/{id}/transcript`); here its link is inlined as `transcript_url`.
 */
const revai: ShapeDef = {
	spec: {
		name: 'Rev.ai (async jobs)',
		doc: 'https://docs.rev.ai/api/asynchronous/reference/jobs/getjobbyid',
		kind: 'audio',
		runningStatus: 200,
		wordAt: 'status',
		words: { queued: ['in_progress'], running: ['in_progress'], succeeded: 'transcribed', partial: 'transcribed', failed: allKinds('failed') },
		reasonAt: allKinds('failure_detail'),
		deckLinksAt: ['transcript_url'],
		otherLinksAt: ['media_url'],
		runningLinksAt: ['media_url'],
		progress: { scale: 'none' },
		create: { status: 200, idAt: 'id' },
	},
	created: (v) => ok({ ...revaiBase(v), taskId: v.taskId, status: 'in_progress' }),
	status(v) {
		const base = revaiBase(v);
		switch (v.phase) {
			case 'queued':
			case 'running':
				return ok({ ...base, status: 'in_progress' });
			case 'succeeded':
				return ok({ ...base, status: 'transcribed', completed_on: iso(v.updatedAt), duration_seconds: 324.36, transcript_url: v.pptx() });
			case 'failed':
				return ok({ ...base, status: 'failed', completed_on: iso(v.updatedAt), failure: REVAI_FAILURES[v.failureKind], failure_detail: reason(v).message });
		}
	},
};
const REVAI_FAILURES: Record<FailureKind, string> = { error: 'internal_processing', timeout: 'internal_processing', aborted: 'internal_processing', cancelled: 'internal_processing', moderated: 'invalid_media' };
function revaiBase(v: DeckView): Record<string, unknown> {
	return { id: v.taskId, created_on: iso(v.createdAt), name: 'brief.docx', media_url: v.input(), type: 'async', language: 'en', transcriber: 'machine' };
}

// ── issue 43: the record two envelopes down, no word at all, an outcome one member deeper, data files ──

/** A number for services whose own ids are numbers (GitHub's and Databricks' run ids): from our taskId's hex. */
const numericId = (v: DeckView) => Number.parseInt(v.taskId.slice(-10), 16);

/**
 * Cloudflare Stream downloads: the API envelope `{result, success, errors, messages}` around the download
 * variants by name (`result.default`), each `{status, url, percentComplete}`: `inprogress` / `ready` / `error`.
 * The `url` is there from the first answer ("will become functional when the MP4 is ready"): 404 until then.
 * The variant has no reason member; the envelope's `errors` are about the request, empty beside a failed file.
 */
const cloudflare: ShapeDef = {
	spec: {
		name: 'Cloudflare Stream downloads',
		doc: 'https://developers.cloudflare.com/api/resources/stream/subresources/downloads',
		kind: 'video',
		runningStatus: 200,
		wordAt: 'result.default.status',
		words: { queued: ['inprogress'], running: ['inprogress'], succeeded: 'ready', partial: 'ready', failed: allKinds('error') },
		reasonAt: {},
		deckLinksAt: ['result.default.url'],
		otherLinksAt: [],
		runningLinksAt: ['result.default.url'],
		fileBeforeReady: true,
		progress: { at: 'result.default.percentComplete', scale: 'percent' },
		envelopeSuccess: { success: true },
		create: { status: 200, idAt: 'taskId' },
	},
	// the POST answers as the GET does ("the response for creating and fetching downloads are the same")
	created: (v) => ok({ ...cloudflareDownloads(v), taskId: v.taskId }),
	status: (v) => ok(cloudflareDownloads(v)),
};
function cloudflareDownloads(v: DeckView): Record<string, unknown> {
	const status = v.phase === 'succeeded' ? 'ready' : v.phase === 'failed' ? 'error' : 'inprogress';
	return { result: { default: { status, url: v.pptx(), percentComplete: v.phase === 'succeeded' ? 100 : v.progress } }, success: true, errors: [], messages: [] };
}

/**
 * Shopify's bulk operations (GraphQL Admin API): the answer `{data: {node: BulkOperation}, extensions: {cost}}`;
 * CREATED / RUNNING / CANCELING / COMPLETED / FAILED / CANCELED (EXPIRED: its URL expired); `errorCode` a code
 * only (ACCESS_DENIED, INTERNAL_SERVER_ERROR, TIMEOUT); the result under `url` when COMPLETED, and a FAILED
 * operation's partial rows under `partialDataUrl`: a real JSONL file, never the deck.
 */
const shopify: ShapeDef = {
	spec: {
		name: 'Shopify bulk operations',
		doc: 'https://shopify.dev/docs/api/admin-graphql/latest/objects/BulkOperation',
		kind: 'platform',
		runningStatus: 200,
		wordAt: 'data.node.status',
		words: {
			queued: ['CREATED'],
			running: ['RUNNING'],
			succeeded: 'COMPLETED',
			partial: 'COMPLETED',
			failed: { error: 'FAILED', timeout: 'FAILED', moderated: 'FAILED', aborted: 'CANCELED', cancelled: 'CANCELED' },
			ending: { aborted: 'CANCELING', cancelled: 'CANCELING' },
		},
		// a code, no message: nothing carries our reason
		reasonAt: {},
		deckLinksAt: ['data.node.url'],
		otherLinksAt: ['data.node.partialDataUrl'],
		runningLinksAt: [],
		progress: { scale: 'none' },
		create: { status: 200, idAt: 'data.bulkOperationRunQuery.bulkOperation.id' },
	},
	created: (v) => ok({ data: { taskId: v.taskId, bulkOperationRunQuery: { bulkOperation: { id: shopifyId(v), status: 'CREATED' }, userErrors: [] } }, extensions: shopifyCost(10) }),
	status(v) {
		const node: Record<string, unknown> = {
			id: shopifyId(v),
			type: 'QUERY',
			status: 'CREATED',
			errorCode: null,
			createdAt: iso(v.createdAt),
			completedAt: null,
			objectCount: String(v.phase === 'queued' ? 0 : v.progress * 12),
			rootObjectCount: String(v.phase === 'queued' ? 0 : v.progress),
			fileSize: null,
			url: null,
			partialDataUrl: null,
			query: '{ slides { edges { node { id title } } } }',
		};
		switch (v.phase) {
			case 'queued':
				break;
			case 'running':
				node.status = v.ending === 'aborted' || v.ending === 'cancelled' ? 'CANCELING' : 'RUNNING';
				break;
			case 'succeeded':
				Object.assign(node, { status: 'COMPLETED', completedAt: iso(v.updatedAt), objectCount: '1200', rootObjectCount: '100', fileSize: '4096', url: v.pptx() });
				break;
			case 'failed':
				if (stopped(v.failureKind)) node.status = 'CANCELED';
				else {
					// "the operation resulted in partial or incomplete data": the rows read so far, as JSONL
					const partialData = v.failureKind === 'moderated' ? null : v.dataFile('partial-data');
					Object.assign(node, { status: 'FAILED', errorCode: SHOPIFY_CODES[v.failureKind], partialDataUrl: partialData });
				}
				break;
		}
		return ok({ data: { node }, extensions: shopifyCost(1) });
	},
};
const SHOPIFY_CODES: Partial<Record<FailureKind, string>> = { error: 'INTERNAL_SERVER_ERROR', timeout: 'TIMEOUT', moderated: 'ACCESS_DENIED' };
const shopifyId = (v: DeckView) => `gid://shopify/BulkOperation/${v.taskId}`;
function shopifyCost(cost: number): Record<string, unknown> {
	return { cost: { requestedQueryCost: cost, actualQueryCost: cost, throttleStatus: { maximumAvailable: 2000, currentlyAvailable: 2000 - cost, restoreRate: 100 } } };
}

/**
 * Remotion Lambda's render progress (`getRenderProgress()`): no status word at all. `done` ("true if video has been
 * successfully rendered"), `fatalErrorEncountered` ("you should stop polling … and check the errors array": a
 * failed render is `done: false`), `overallProgress` a fraction 0–1, `outputFile` the URL once rendered. `errors`
 * also reports a chunk's error that will be retried (`isFatal: false, willRetry: true`) while the render goes on.
 */
const remotion: ShapeDef = {
	spec: {
		name: 'Remotion Lambda renders',
		doc: 'https://www.remotion.dev/docs/lambda/getrenderprogress',
		kind: 'video',
		runningStatus: 200,
		words: { queued: [], running: [], succeeded: 'done: true', partial: 'done: true', failed: allKinds('fatalErrorEncountered: true') },
		flags: { running: { done: false, fatalErrorEncountered: false }, succeeded: { done: true, fatalErrorEncountered: false }, failed: { done: false, fatalErrorEncountered: true } },
		// the fatal error, after the retried one the render met half way
		reasonAt: allKinds('errors[1].message'),
		deckLinksAt: ['outputFile', 'artifacts[0].s3Url'],
		otherLinksAt: [],
		runningLinksAt: [],
		progress: { at: 'overallProgress', scale: 'fraction' },
		create: { status: 200, idAt: 'renderId' },
	},
	created: (v) =>
		ok({
			renderId: v.taskId,
			taskId: v.taskId,
			bucketName: REMOTION_BUCKET,
			cloudWatchLogs: `https://console.aws.amazon.com/cloudwatch/home?region=us-east-1#logsV2:log-groups/log-group/$252Faws$252Flambda$252Fremotion-render/log-events$3FfilterPattern$3D$2522${v.taskId}$2522`,
			folderInS3Console: `https://s3.console.aws.amazon.com/s3/buckets/${REMOTION_BUCKET}?region=us-east-1&prefix=renders/${v.taskId}/`,
			progressJsonInConsole: `https://s3.console.aws.amazon.com/s3/object/${REMOTION_BUCKET}?region=us-east-1&prefix=renders/${v.taskId}/progress.json`,
			lambdaInsightsLogs: null,
		}),
	status(v) {
		const frames = 300;
		const started = v.phase !== 'queued';
		const retried = v.progress >= 50 ? [remotionError('Timed out while rendering chunk 3: the browser did not answer in 30000ms.', false)] : [];
		const record: Record<string, unknown> = {
			overallProgress: v.progress / 100,
			chunks: Math.floor(v.progress / 10),
			done: false,
			encodingStatus: v.progress >= 90 ? { framesEncoded: Math.floor((frames * v.progress) / 100) } : null,
			renderId: v.taskId,
			renderMetadata: started ? { frameRange: [0, frames - 1], startedDate: v.createdAt + 1_000, totalChunks: 10, estimatedTotalLambdaInvokations: 11, estimatedRenderLambdaInvokations: 10, compositionId: 'Deck', type: 'video' } : null,
			bucket: REMOTION_BUCKET,
			outputFile: null,
			outKey: null,
			timeToFinish: null,
			errors: retried,
			fatalErrorEncountered: false,
			currentTime: v.updatedAt,
			renderSize: v.progress * 1024,
			outputSizeInBytes: null,
			lambdasInvoked: started ? 10 : 0,
			framesRendered: Math.floor((frames * v.progress) / 500) * 5,
			costs: { accruedSoFar: v.progress / 10_000, currency: 'USD', displayCost: `$${(v.progress / 10_000).toFixed(4)}`, disclaimer: 'Estimated cost only. Does not include charges for other AWS services.' },
			estimatedBillingDurationInMilliseconds: v.progress * 1_200,
			mostExpensiveFrameRanges: null,
			artifacts: [],
		};
		switch (v.phase) {
			case 'queued':
				return ok({ ...record, overallProgress: 0 });
			case 'running':
				return ok(record);
			case 'succeeded': {
				const pdf = v.pdf();
				return ok({
					...record,
					overallProgress: 1,
					done: true,
					outputFile: v.pptx(),
					outKey: `renders/${v.taskId}/out.pptx`,
					timeToFinish: v.updatedAt - v.createdAt,
					outputSizeInBytes: 4096,
					mostExpensiveFrameRanges: [{ chunk: 3, timeInMilliseconds: 2_100, frameRange: [90, 119] }],
					// a second file the render emitted (its pdf), as Remotion's artifacts are listed
					artifacts: pdf ? [{ filename: 'deck.pdf', sizeInBytes: 4096, s3Url: pdf, s3Key: `renders/${v.taskId}/artifacts/deck.pdf` }] : [],
				});
			}
			case 'failed':
				return ok({ ...record, errors: [...retried, remotionError(reason(v).message, true)], fatalErrorEncountered: true });
		}
	},
};
const REMOTION_BUCKET = 'remotionlambda-useast1-deckgen';
function remotionError(message: string, fatal: boolean): Record<string, unknown> {
	return {
		type: 'renderer',
		message,
		name: fatal ? 'Error' : 'TimeoutError',
		stack: `Error: ${message}\n    at renderHandler (/var/task/index.js:1:1)`,
		frame: null,
		chunk: 3,
		isFatal: fatal,
		attempt: fatal ? 2 : 1,
		willRetry: !fatal,
		totalAttempts: 2,
		tmpDir: null,
		s3Location: '',
		explanation: null,
	};
}

/**
 * GitHub Actions workflow runs: `status` queued / in_progress / completed, and how a completed run ended under
 * `conclusion` (success, failure, cancelled, timed_out); no reason in the run. Every run links its API resources
 * (jobs, logs, artifacts, cancel, rerun), its page, and `logs_url`, an archive of the log files (a ZIP: 404 until
 * the run completed, then the logs, whatever the conclusion): never the deck. The deck is the run's artifact.
 */
const github: ShapeDef = {
	spec: {
		name: 'GitHub Actions workflow runs',
		doc: 'https://docs.github.com/en/rest/actions/workflow-runs#get-a-workflow-run',
		kind: 'platform',
		runningStatus: 200,
		wordAt: 'status',
		conclusionAt: 'conclusion',
		endedWord: 'completed',
		words: { queued: ['queued'], running: ['in_progress'], succeeded: 'success', partial: 'success', failed: { error: 'failure', moderated: 'failure', timeout: 'timed_out', aborted: 'cancelled', cancelled: 'cancelled' } },
		reasonAt: {},
		deckLinksAt: ['artifacts[0].archive_download_url', 'artifacts[1].archive_download_url'],
		otherLinksAt: ['logs_url', 'html_url', 'url', 'jobs_url', 'artifacts_url', 'cancel_url', 'rerun_url'],
		runningLinksAt: ['logs_url', 'html_url', 'url', 'jobs_url', 'artifacts_url', 'cancel_url', 'rerun_url'],
		progress: { scale: 'none' },
		create: { status: 200, idAt: 'taskId' },
	},
	// the dispatch answers with the run it started (`return_run_details`)
	created: (v) => ok({ workflow_run_id: numericId(v), run_url: v.statusUrl, html_url: githubPage(v), taskId: v.taskId }),
	status(v) {
		const ended = v.phase === 'succeeded' || v.phase === 'failed';
		const run: Record<string, unknown> = {
			id: numericId(v),
			name: 'Build deck',
			node_id: `WFR_kwLO${v.taskId.slice(-12)}`,
			head_branch: 'main',
			head_sha: 'f83a356604ae3c5d03e1b46ef4d1ca77d64a90b0',
			path: '.github/workflows/deck.yml',
			display_title: `Deck ${v.taskId}`,
			run_number: 42,
			event: 'workflow_dispatch',
			status: v.phase === 'queued' ? 'queued' : ended ? 'completed' : 'in_progress',
			conclusion: null,
			workflow_id: 161335,
			url: v.statusUrl,
			html_url: githubPage(v),
			created_at: iso(v.createdAt),
			updated_at: iso(v.updatedAt),
			run_attempt: 1,
			run_started_at: iso(v.createdAt + 1_000),
			jobs_url: `${v.statusUrl}/jobs`,
			// the log archive: "a redirect URL to download an archive of log files" (its target, here), there once the run completed
			logs_url: ended ? v.dataFile('logs') : v.futureDataFile('logs'),
			check_suite_url: `${v.statusUrl}/check-suite`,
			artifacts_url: `${v.statusUrl}/artifacts`,
			cancel_url: `${v.statusUrl}/cancel`,
			rerun_url: `${v.statusUrl}/rerun`,
			previous_attempt_url: null,
			workflow_url: `${v.statusUrl}/workflow`,
		};
		if (v.phase === 'succeeded') {
			run.conclusion = 'success';
			run.artifacts = filesOf(v).map((url, i) => ({ id: numericId(v) + i, name: i === 0 ? 'deck-pptx' : 'deck-pdf', size_in_bytes: 4096, archive_download_url: url, expired: false, created_at: iso(v.updatedAt), expires_at: iso(v.updatedAt + 90 * 86_400_000) }));
		}
		if (v.phase === 'failed') {
			run.conclusion = { error: 'failure', moderated: 'failure', timeout: 'timed_out', aborted: 'cancelled', cancelled: 'cancelled' }[v.failureKind];
			run.artifacts = [];
		}
		return ok(run);
	},
};
const githubPage = (v: DeckView) => `https://github.deckgen.example/acme/decks/actions/runs/${numericId(v)}`;

/**
 * Databricks job runs (Jobs API 2.2 `runs/get`): `status.state` QUEUED / PENDING / RUNNING / TERMINATING /
 * TERMINATED only says whether the run ended; how it ended is one member deeper, `status.termination_details`
 * (`code` SUCCESS, SUCCESS_WITH_FAILURES, RUN_EXECUTION_ERROR, USER_CANCELED, …; `type`; `message`), and in the
 * deprecated `state` object still sent beside it (`life_cycle_state`, `result_state`, `state_message`). The run's
 * page (`run_page_url`) from the start; the notebook's exit value (`runs/get-output`'s `notebook_output.result`,
 * inlined) is the deck's URL.
 */
const databricks: ShapeDef = {
	spec: {
		name: 'Databricks job runs',
		doc: 'https://databricks.github.io/sdk-js/api/variables/_databricks_sdk-jobs.v2.RunLifecycleStateV2_State.html',
		kind: 'platform',
		runningStatus: 200,
		wordAt: 'status.state',
		conclusionAt: 'status.termination_details.code',
		endedWord: 'TERMINATED',
		words: {
			queued: ['QUEUED'],
			running: ['RUNNING'],
			succeeded: 'SUCCESS',
			partial: 'SUCCESS_WITH_FAILURES',
			failed: { error: 'RUN_EXECUTION_ERROR', moderated: 'RUN_EXECUTION_ERROR', timeout: 'CANCELED', aborted: 'INTERNAL_ERROR', cancelled: 'USER_CANCELED' },
			ending: { timeout: 'TERMINATING', cancelled: 'TERMINATING' },
		},
		reasonAt: allKinds('status.termination_details.message'),
		deckLinksAt: ['notebook_output.result'],
		otherLinksAt: ['run_page_url'],
		runningLinksAt: ['run_page_url'],
		progress: { scale: 'none' },
		create: { status: 200, idAt: 'taskId' },
	},
	created: (v) => ok({ run_id: numericId(v), taskId: v.taskId }),
	status(v) {
		const base: Record<string, unknown> = {
			job_id: 11223344,
			run_id: numericId(v),
			number_in_job: numericId(v),
			original_attempt_run_id: numericId(v),
			creator_user_name: 'decks@deckgen.example',
			run_name: 'deck',
			run_type: 'SUBMIT_RUN',
			trigger: 'ONE_TIME',
			attempt_number: 0,
			start_time: v.createdAt,
			setup_duration: 0,
			execution_duration: 0,
			cleanup_duration: 0,
			end_time: 0,
			run_page_url: `https://dbc-deckgen.cloud.databricks.com/?o=1234567890#job/11223344/run/${numericId(v)}`,
		};
		const lifecycle = (life: string, message = '') => ({ life_cycle_state: life, state_message: message, user_cancelled_or_timedout: false });
		switch (v.phase) {
			case 'queued':
				return ok({ ...base, state: lifecycle('QUEUED', 'Queued due to reaching maximum concurrent runs.'), status: { state: 'QUEUED', queue_details: { code: 'ACTIVE_RUNS_LIMIT_REACHED', message: 'Queued due to reaching maximum concurrent runs.' } } });
			case 'running': {
				const word = v.ending === 'timeout' || v.ending === 'cancelled' ? 'TERMINATING' : 'RUNNING';
				return ok({ ...base, state: lifecycle(word, v.ending ? 'Run is being terminated.' : 'In run'), status: { state: word } });
			}
			case 'succeeded': {
				const code = v.partial ? 'SUCCESS_WITH_FAILURES' : 'SUCCESS';
				const message = v.partial ? PARTIAL_REASON.message : '';
				return ok({
					...base,
					end_time: v.updatedAt,
					execution_duration: v.updatedAt - v.createdAt,
					state: { life_cycle_state: 'TERMINATED', result_state: code, state_message: message, user_cancelled_or_timedout: false },
					status: { state: 'TERMINATED', termination_details: { code, type: 'SUCCESS', message } },
					notebook_output: { result: v.pptx(), truncated: false },
				});
			}
			case 'failed': {
				const { code, type, life, result } = DATABRICKS_ENDS[v.failureKind];
				const message = reason(v).message;
				return ok({
					...base,
					end_time: v.updatedAt,
					state: { life_cycle_state: life, result_state: result, state_message: message, user_cancelled_or_timedout: v.failureKind === 'timeout' || v.failureKind === 'cancelled' },
					status: { state: 'TERMINATED', termination_details: { code, type, message } },
				});
			}
		}
	},
};
const DATABRICKS_ENDS: Record<FailureKind, { code: string; type: string; life: string; result: string }> = {
	error: { code: 'RUN_EXECUTION_ERROR', type: 'CLIENT_ERROR', life: 'TERMINATED', result: 'FAILED' },
	moderated: { code: 'RUN_EXECUTION_ERROR', type: 'CLIENT_ERROR', life: 'TERMINATED', result: 'FAILED' },
	// "CANCELED: the run was canceled during execution by the platform; for example, if the maximum run duration was exceeded"
	timeout: { code: 'CANCELED', type: 'CLIENT_ERROR', life: 'TERMINATED', result: 'TIMEDOUT' },
	aborted: { code: 'INTERNAL_ERROR', type: 'INTERNAL_ERROR', life: 'INTERNAL_ERROR', result: 'FAILED' },
	cancelled: { code: 'USER_CANCELED', type: 'SUCCESS', life: 'TERMINATED', result: 'CANCELED' },
};

/**
 * Amazon Transcribe transcription jobs (`GetTranscriptionJob`): the record inside an envelope named for the
 * resource, members in PascalCase (`TranscriptionJob.TranscriptionJobStatus`: QUEUED / IN_PROGRESS / COMPLETED /
 * FAILED, `FailureReason`), the input under `Media.MediaFileUri`, the output under `Transcript.TranscriptFileUri`,
 * and beside it, once completed, the subtitle files it wrote (`Subtitles.SubtitleFileUris`: VTT and SRT).
 */
const transcribe: ShapeDef = {
	spec: {
		name: 'Amazon Transcribe transcription jobs',
		doc: 'https://docs.aws.amazon.com/transcribe/latest/APIReference/API_GetTranscriptionJob.html',
		kind: 'audio',
		runningStatus: 200,
		wordAt: 'TranscriptionJob.TranscriptionJobStatus',
		words: { queued: ['QUEUED'], running: ['IN_PROGRESS'], succeeded: 'COMPLETED', partial: 'COMPLETED', failed: allKinds('FAILED') },
		reasonAt: allKinds('TranscriptionJob.FailureReason'),
		deckLinksAt: ['TranscriptionJob.Transcript.TranscriptFileUri'],
		otherLinksAt: ['TranscriptionJob.Media.MediaFileUri', 'TranscriptionJob.Subtitles.SubtitleFileUris[0]', 'TranscriptionJob.Subtitles.SubtitleFileUris[1]'],
		runningLinksAt: ['TranscriptionJob.Media.MediaFileUri'],
		progress: { scale: 'none' },
		create: { status: 200, idAt: 'TranscriptionJob.TranscriptionJobName' },
	},
	created: (v) => ok({ TranscriptionJob: { ...transcribeJob(v), TranscriptionJobStatus: 'QUEUED' }, taskId: v.taskId }),
	status(v) {
		const job = transcribeJob(v);
		switch (v.phase) {
			case 'queued':
				return ok({ TranscriptionJob: { ...job, TranscriptionJobStatus: 'QUEUED' } });
			case 'running':
				return ok({ TranscriptionJob: { ...job, TranscriptionJobStatus: 'IN_PROGRESS', StartTime: iso(v.createdAt + 1_000) } });
			case 'succeeded':
				return ok({
					TranscriptionJob: {
						...job,
						TranscriptionJobStatus: 'COMPLETED',
						StartTime: iso(v.createdAt + 1_000),
						CompletionTime: iso(v.updatedAt),
						Transcript: { TranscriptFileUri: v.pptx() },
						Subtitles: { Formats: ['vtt', 'srt'], SubtitleFileUris: [v.dataFile('vtt'), v.dataFile('srt')], OutputStartIndex: 0 },
					},
				});
			case 'failed':
				return ok({ TranscriptionJob: { ...job, TranscriptionJobStatus: 'FAILED', StartTime: iso(v.createdAt + 1_000), CompletionTime: iso(v.updatedAt), FailureReason: reason(v).message } });
		}
	},
};
function transcribeJob(v: DeckView): Record<string, unknown> {
	return {
		TranscriptionJobName: v.taskId,
		LanguageCode: 'en-US',
		MediaSampleRateHertz: 48_000,
		MediaFormat: 'mp4',
		Media: { MediaFileUri: v.input() },
		Transcript: {},
		CreationTime: iso(v.createdAt),
		Settings: { ChannelIdentification: false, ShowAlternatives: false },
		Subtitles: { Formats: ['vtt', 'srt'], OutputStartIndex: 0 },
	};
}

/**
 * Coconut (video encoding API v2): dotted words for the job (`job.starting`, `job.completed`, `job.failed`) and for
 * each part (`input.transferred`, each output's `video.encoded`, `image.created`), progress as a text (`"40%"`), the
 * outputs listed with their own status, the thumbnails beside the files (issue 50 B6).
 */
const coconut: ShapeDef = {
	spec: {
		name: 'Coconut jobs',
		doc: 'https://docs.coconut.co/jobs/api',
		kind: 'conversion',
		runningStatus: 200,
		wordAt: 'status',
		words: { queued: ['job.starting'], running: ['job.starting'], succeeded: 'job.completed', partial: 'job.completed', failed: allKinds('job.failed') },
		reasonAt: {},
		deckLinksAt: ['outputs[0].url', 'outputs[1].url'],
		otherLinksAt: ['outputs[2].urls[0]', 'outputs[2].urls[1]'],
		runningLinksAt: [],
		progress: { at: 'progress', scale: 'percent' },
		create: { status: 201, idAt: 'id' },
	},
	created: (v) => ok({ ...coconutJob(v), taskId: v.taskId }, 201),
	status: (v) => ok(coconutJob(v)),
};
function coconutJob(v: DeckView): Record<string, unknown> {
	const ended = v.phase === 'succeeded' || v.phase === 'failed';
	const output = (key: string, status: string, url?: string) => ({ key, type: 'deck', format: key, status, ...(url ? { url } : {}) });
	const outputs =
		v.phase === 'succeeded'
			? [output('pptx', 'deck.encoded', v.pptx()), v.pdf() ? output('pdf', 'deck.encoded', v.pdf()) : output('pdf', 'deck.failed'), { key: 'jpg:reg', type: 'image', format: 'jpg:400x', status: 'image.created', urls: [v.preview(1), v.preview(2)] }]
			: v.phase === 'failed'
				? [output('pptx', 'deck.failed'), output('pdf', 'deck.failed')]
				: [output('pptx', 'deck.waiting'), output('pdf', 'deck.waiting')];
	return {
		id: v.taskId,
		created_at: iso(v.createdAt),
		completed_at: ended ? iso(v.updatedAt) : null,
		status: v.phase === 'succeeded' ? 'job.completed' : v.phase === 'failed' ? 'job.failed' : 'job.starting',
		progress: `${v.phase === 'succeeded' ? 100 : v.phase === 'queued' ? 0 : Math.round(v.progress)}%`,
		input: { status: v.phase === 'queued' ? 'input.starting' : 'input.transferred' },
		outputs,
	};
}

/**
 * Intercom data export jobs: `pending`, `in_progress`, `complete`, the file under `download_url` (empty until then);
 * a failed job's poll answers **HTTP 504 with the job's own record** (`status: "failed"`): "If a job has failed,
 * then the HTTP Response Code will show as a 504 (Timeout)" (issue 50 B9); a cancelled job `canceled`.
 */
const intercom: ShapeDef = {
	spec: {
		name: 'Intercom data export',
		doc: 'https://developers.intercom.com/docs/references/2.5/rest-api/exports-content-stats/checking-the-status-of-the-job',
		kind: 'platform',
		runningStatus: 200,
		wordAt: 'status',
		words: { queued: ['pending'], running: ['in_progress'], succeeded: 'complete', partial: 'complete', failed: { error: 'failed', timeout: 'failed', moderated: 'failed', aborted: 'canceled', cancelled: 'canceled' } },
		reasonAt: {},
		deckLinksAt: ['download_url'],
		otherLinksAt: [],
		runningLinksAt: [],
		progress: { scale: 'none' },
		create: { status: 200, idAt: 'job_identifier' },
		failedStatus: { error: 504, timeout: 504, moderated: 504 },
	},
	created: (v) => ok({ ...intercomJob(v, 'pending'), taskId: v.taskId }),
	status(v) {
		switch (v.phase) {
			case 'queued':
				return ok(intercomJob(v, 'pending'));
			case 'running':
				return ok(intercomJob(v, 'in_progress'));
			case 'succeeded':
				return ok({ ...intercomJob(v, 'complete'), download_expires_at: String(seconds(v.updatedAt + 2 * 86_400_000)), download_url: v.pptx() });
			case 'failed':
				return stopped(v.failureKind) ? ok(intercomJob(v, 'canceled')) : ok(intercomJob(v, 'failed'), 504);
		}
	},
};
const intercomJob = (v: DeckView, status: string) => ({ job_identifier: v.taskId, status, download_expires_at: '', download_url: '' });

/**
 * Higgsfield (platform API): `queued`, `in_progress`, and three final statuses, `completed`, `failed` and **`nsfw`**:
 * "either your input parameters or the generated output did not pass our content moderation system" (issue 50 B8);
 * the request's `status_url` and `cancel_url` (API addresses) in every answer; the result under `video.url`.
 */
const higgsfield: ShapeDef = {
	spec: {
		name: 'Higgsfield',
		doc: 'https://docs.higgsfield.ai/how-to/webhooks',
		kind: 'video',
		runningStatus: 200,
		wordAt: 'status',
		words: { queued: ['queued'], running: ['in_progress'], succeeded: 'completed', partial: 'completed', failed: { error: 'failed', timeout: 'failed', moderated: 'nsfw', aborted: 'canceled', cancelled: 'canceled' } },
		reasonAt: {},
		deckLinksAt: ['video.url'],
		otherLinksAt: ['status_url', 'cancel_url'],
		runningLinksAt: ['status_url', 'cancel_url'],
		progress: { scale: 'none' },
		create: { status: 200, idAt: 'request_id' },
	},
	created: (v) => ok({ ...higgsfieldRequest(v, 'queued'), taskId: v.taskId }),
	status(v) {
		switch (v.phase) {
			case 'queued':
				return ok(higgsfieldRequest(v, 'queued'));
			case 'running':
				return ok(higgsfieldRequest(v, 'in_progress'));
			case 'succeeded':
				return ok({ ...higgsfieldRequest(v, 'completed'), video: { url: v.pptx() } });
			case 'failed':
				return ok(higgsfieldRequest(v, v.failureKind === 'moderated' ? 'nsfw' : stopped(v.failureKind) ? 'canceled' : 'failed'));
		}
	},
};
const higgsfieldRequest = (v: DeckView, status: string) => ({ status, request_id: v.taskId, status_url: v.statusUrl, cancel_url: `${v.statusUrl.replace(/\/status$/, '')}/cancel` });

/**
 * Krea jobs: `queued`, `processing`, `completed` (files under `result.urls`), `failed` with the reason under
 * `result.error` (an API error, invalid parameters, **content moderation (NSFW filtering)**, a timeout), `cancelled`.
 */
const krea: ShapeDef = {
	spec: {
		name: 'Krea jobs',
		doc: 'https://docs.krea.ai/developers/job-lifecycle',
		kind: 'image',
		runningStatus: 200,
		wordAt: 'status',
		words: { queued: ['queued'], running: ['processing'], succeeded: 'completed', partial: 'completed', failed: { error: 'failed', timeout: 'failed', moderated: 'failed', aborted: 'cancelled', cancelled: 'cancelled' } },
		reasonAt: { error: 'result.error', timeout: 'result.error', moderated: 'result.error' },
		deckLinksAt: ['result.urls[0]', 'result.urls[1]'],
		otherLinksAt: [],
		runningLinksAt: [],
		progress: { scale: 'none' },
		create: { status: 200, idAt: 'job_id' },
	},
	created: (v) => ok({ job_id: v.taskId, status: 'queued', created_at: iso(v.createdAt), taskId: v.taskId }),
	status(v) {
		const base = { job_id: v.taskId, created_at: iso(v.createdAt), completed_at: null as string | null };
		switch (v.phase) {
			case 'queued':
				return ok({ ...base, status: 'queued', result: null });
			case 'running':
				return ok({ ...base, status: 'processing', result: null });
			case 'succeeded':
				return ok({ ...base, status: 'completed', completed_at: iso(v.updatedAt), result: { urls: filesOf(v) } });
			case 'failed':
				return stopped(v.failureKind) ? ok({ ...base, status: 'cancelled', completed_at: iso(v.updatedAt), result: null }) : ok({ ...base, status: 'failed', completed_at: iso(v.updatedAt), result: { error: reason(v).message } });
		}
	},
};

/**
 * api2convert (online-convert.com API v2): the word inside a status object (`status: {code, info}`), `queued`,
 * `downloading`, `processing`, `completed`, `failed` with the reasons under `errors[]` (`{source, code, message}`),
 * the input under `input[].source`, the files under `output[].uri`.
 */
const api2convert: ShapeDef = {
	spec: {
		name: 'api2convert jobs',
		doc: 'https://www.api2convert.com/docs/getting_started/job_lifecycle_and_errors.html',
		kind: 'conversion',
		runningStatus: 200,
		wordAt: 'status.code',
		words: { queued: ['queued'], running: ['processing'], succeeded: 'completed', partial: 'completed', failed: allKinds('failed') },
		reasonAt: allKinds('errors[0].message'),
		deckLinksAt: ['output[0].uri', 'output[1].uri'],
		otherLinksAt: ['input[0].source'],
		runningLinksAt: ['input[0].source'],
		progress: { scale: 'none' },
		create: { status: 201, idAt: 'id' },
	},
	created: (v) => ok({ ...api2convertJob(v, 'queued', 'The file is waiting in the queue for being processed'), taskId: v.taskId }, 201),
	status(v) {
		switch (v.phase) {
			case 'queued':
				return ok(api2convertJob(v, 'queued', 'The file is waiting in the queue for being processed'));
			case 'running':
				return ok(api2convertJob(v, 'processing', 'The file is currently being converted'));
			case 'succeeded':
				return ok({
					...api2convertJob(v, 'completed', 'The file has been successfully converted'),
					output: filesOf(v).map((uri, i) => ({ id: `${v.taskId}-out-${i}`, source: { conversion: `${v.taskId}-conv` }, uri, filename: i === 0 ? 'deck.pptx' : 'deck.pdf', size: 4096, status: 'enabled', content_type: i === 0 ? 'application/vnd.openxmlformats-officedocument.presentationml.presentation' : 'application/pdf' })),
				});
			case 'failed':
				return ok({ ...api2convertJob(v, 'failed', 'The file has not been converted due to errors.'), errors: [{ source: 'conversion', id_source: `${v.taskId}-conv`, code: 17, message: reason(v).message }] });
		}
	},
};
function api2convertJob(v: DeckView, code: string, info: string): Record<string, unknown> {
	return {
		id: v.taskId,
		token: `tok${v.taskId.slice(-8)}`,
		type: 'job',
		status: { code, info },
		errors: [],
		warnings: [],
		process: true,
		conversion: [{ id: `${v.taskId}-conv`, target: 'pptx', category: 'document', options: {} }],
		input: [{ id: `${v.taskId}-in`, type: 'remote', source: v.input(), filename: 'brief.docx', status: 'ready' }],
		output: [],
		created_at: iso(v.createdAt),
		modified_at: iso(v.updatedAt),
	};
}

/**
 * Redis Cloud tasks (`GET /v1/tasks/{taskId}`): hyphen-joined words with a prefix (`received`,
 * `processing-in-progress`, `processing-completed`, `processing-error`), the task's own `description`, the outcome
 * under `response` (its `resourceId`, or `error: {type, status, description}`), and the task's own address under
 * `_links.task.href`.
 */
const rediscloud: ShapeDef = {
	spec: {
		name: 'Redis Cloud tasks',
		doc: 'https://redis.io/docs/latest/operate/rc/api/get-started/manage-tasks',
		kind: 'platform',
		runningStatus: 200,
		wordAt: 'status',
		words: { queued: ['received'], running: ['processing-in-progress'], succeeded: 'processing-completed', partial: 'processing-completed', failed: allKinds('processing-error') },
		reasonAt: allKinds('response.error.description'),
		deckLinksAt: ['response.resource.deckUrl', 'response.resource.pdfUrl'],
		otherLinksAt: ['_links.task.href'],
		runningLinksAt: ['_links.task.href'],
		progress: { scale: 'none' },
		create: { status: 202, idAt: 'taskId' },
	},
	created: (v) => ok(redisTask(v, 'received', 'Task request received and is being queued for processing.', {}), 202),
	status(v) {
		switch (v.phase) {
			case 'queued':
				return ok(redisTask(v, 'received', 'Task request received and is being queued for processing.', {}));
			case 'running':
				return ok(redisTask(v, 'processing-in-progress', 'Task request is being processed', {}));
			case 'succeeded':
				return ok(redisTask(v, 'processing-completed', 'Request processing completed', { resourceId: numericId(v), resource: { deckUrl: v.pptx(), ...(v.pdf() ? { pdfUrl: v.pdf() } : {}) } }));
			case 'failed':
				return ok(redisTask(v, 'processing-error', 'Task request failed during processing. See error information for failure details.', { error: { type: REDIS_ERRORS[v.failureKind], status: '400 BAD_REQUEST', description: reason(v).message } }));
		}
	},
};
const REDIS_ERRORS: Record<FailureKind, string> = { error: 'GENERAL_ERROR', timeout: 'TASK_TIMEOUT', aborted: 'TASK_ABORTED', cancelled: 'TASK_CANCELLED', moderated: 'CONTENT_REFUSED' };
const redisTask = (v: DeckView, status: string, description: string, response: Record<string, unknown>) => ({
	taskId: v.taskId,
	commandType: 'deckCreateRequest',
	status,
	description,
	timestamp: iso(v.updatedAt),
	response,
	_links: { task: { href: v.statusUrl, title: 'getTaskStatusUpdates', type: 'GET' } },
});

const SHAPES: Record<Exclude<ServiceShape, 'none'>, ShapeDef> = {
	slidespeak,
	gamma,
	presenton,
	replicate,
	runway,
	kling,
	heygen,
	fal,
	stability,
	minimax,
	luma,
	suno,
	apify,
	azure,
	vertex,
	veo,
	creatomate,
	bfl,
	tripo,
	cloudconvert,
	kieai,
	transloadit,
	meshy,
	did,
	revai,
	cloudflare,
	shopify,
	remotion,
	github,
	databricks,
	transcribe,
	coconut,
	intercom,
	higgsfield,
	krea,
	api2convert,
	rediscloud,
};

/** Every modelled service, by shape: what a correct client must conclude (see ServiceShapeSpec). */
export const SERVICE_SHAPES: Record<Exclude<ServiceShape, 'none'>, ServiceShapeSpec> = Object.fromEntries(
	Object.entries(SHAPES).map(([name, def]) => [name, def.spec]),
) as Record<Exclude<ServiceShape, 'none'>, ServiceShapeSpec>;

export const SERVICE_SHAPE_NAMES = Object.keys(SHAPES) as Array<Exclude<ServiceShape, 'none'>>;

/** The status answer of a deck in a service's shape. */
export function serviceStatus(shape: Exclude<ServiceShape, 'none'>, view: DeckView): ServiceAnswer {
	return SHAPES[shape].status(view);
}

/** A spending POST's success answer in a service's shape (it carries `taskId`, in the envelope where there is one). */
export function serviceCreated(shape: Exclude<ServiceShape, 'none'>, view: DeckView): ServiceAnswer {
	return SHAPES[shape].created(view);
}

/**
 * The value at a spec path (`data.output[0]`, `task_result.url`) of a body, for tests. A member whose value is a
 * string holding a JSON object or array is read through (`data.resultJson.resultUrls[0]`, kie.ai's result, issue 39).
 */
export function valueAt(body: unknown, path: string): unknown {
	return path
		.replace(/\[(\d+)\]/g, '.$1')
		.split('.')
		.reduce<unknown>((value, key) => {
			const container = typeof value === 'string' ? parsedJson(value) : value;
			return container && typeof container === 'object' ? (container as Record<string, unknown>)[key] : undefined;
		}, body);
}

/** A string's JSON object or array, or undefined (plain text, an empty string). */
function parsedJson(text: string): unknown {
	if (!/^\s*[[{]/.test(text)) return undefined;
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return undefined;
	}
}

/**
 * A status answer without its word (choice `omitStatusWord`, issue 43): the members the shape names for its word
 * (`wordAt`, `conclusionAt`, `failedWordAt`) taken out, everything else as served, so a record only its other
 * members (its link, its progress, its flags) and its file can settle.
 */
export function withoutWord(shape: Exclude<ServiceShape, 'none'>, body: Record<string, unknown>): Record<string, unknown> {
	const spec = SERVICE_SHAPES[shape];
	const copy = structuredClone(body);
	for (const path of [spec.wordAt, spec.conclusionAt, ...Object.values(spec.failedWordAt ?? {})]) {
		if (!path) continue;
		const steps = path.replace(/\[(\d+)\]/g, '.$1').split('.');
		const holder = steps.slice(0, -1).reduce<unknown>((value, key) => (value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined), copy);
		if (holder && typeof holder === 'object') delete (holder as Record<string, unknown>)[steps[steps.length - 1]];
	}
	return copy;
}
