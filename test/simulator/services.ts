// Real services' shapes (issue 31). The contract shows neither the status record's members nor its words, so a
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
	| 'veo';

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
	/** The deck's files (the profile's `fileLinks`); no pdf when partial. */
	pptx(): string;
	pdf(): string | undefined;
	/** Preview images (PNG) of the deck, on the storage stand-in: `n` from 1. */
	preview(n: number): string;
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

/**
 * What a correct client must conclude from a shape, for tests to assert against without hard-coding:
 * where the word is and which words it has, where the reason is, which links are the deck file and
 * which are not. Paths are dot paths with `[i]` for list entries, from the body's top.
 */
export interface ServiceShapeSpec {
	name: string;
	/** The documentation the shape follows (README.md has the rest). */
	doc: string;
	kind: 'slides' | 'image' | 'video' | 'audio' | 'platform';
	/** HTTP status of a poll while the deck is queued or running (200, or 202 with an empty body). */
	runningStatus: 200 | 202;
	/** Path of the status word; undefined where the shape has no word (its finished record says `finish_reason`). */
	wordAt?: string;
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
	/** Paths of links a running record carries before the end (previews, API URLs): never the deck. */
	runningLinksAt: string[];
	/** How progress is given: not at all, a percentage, a fraction while running only. */
	progress: { at?: string; scale: 'none' | 'percent' | 'fraction-while-running' };
	/** Top-level members that say "success" about the request beside a failed deck (envelopes). */
	envelopeSuccess?: Record<string, unknown>;
	/** The create answer: its status and where the service's own id is, or a resource name ending in it (`taskId` is there too). */
	create: { status: number; idAt: string };
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

const SHAPES: Record<Exclude<ServiceShape, 'none'>, ShapeDef> = { slidespeak, gamma, presenton, replicate, runway, kling, heygen, fal, stability, minimax, luma, suno, apify, azure, vertex, veo };

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

/** The value at a spec path (`data.output[0]`, `task_result.url`) of a body, for tests. */
export function valueAt(body: unknown, path: string): unknown {
	return path
		.replace(/\[(\d+)\]/g, '.$1')
		.split('.')
		.reduce<unknown>((value, key) => (value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined), body);
}
