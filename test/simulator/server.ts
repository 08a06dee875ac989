// The request pipeline, in the order a real deployment meets a request:
//   fault plan → edge bucket (per IP, 429 text/plain) → body-size layer (413 html) → operator switch (503
//   surface_disabled) → router (404 / 405 + Allow) → database (503 plain JSON) → key, principal, enrolment
//   (401 / 403 not_enrolled) → shipped? (501) → scope (403) → principal and route buckets (429) →
//   Idempotency-Key present? (400, body unread) → body read (413) and validated (422) → idempotency store
//   (replay / 409) → spend velocity (429) → injected latency → handler → store the outcome → answer or drop.
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { authenticate, checkScope } from './auth';
import { livePriceOf, type Call } from './handlers';
import { priceDrift } from './pricing';
import { renameRateLimitHeaders, speak } from './dialect';
import { echoKey, presentedKey } from './echo';
import { canonicalJson, fingerprint } from './idempotency';
import { fileIssue, sha256 } from './materials';
import { boundaryOf, parseMultipart, type Part } from './multipart';
import {
	conflict,
	databaseDown,
	edgeRateLimited,
	internalError,
	notFound,
	payloadTooLarge,
	problem,
	surfaceDisabled,
	validationFailed,
} from './problem';
import { rateLimitHeaders, refusalHeaders, type BucketVerdict } from './ratelimit';
import { serialize, writeChunked, type Reply, type WireReply } from './reply';
import { MATERIALS_PATH, matchRoute, routedPath, type Route } from './router';
import type { SimState } from './state';
import type { StorageRequest } from './storage';
import type { PickedFault } from './faults';
import type { RequestRecord } from './types';
import { parseJsonBody } from './validation';

const MINUTE = 60_000;
const HOUR = 3_600_000;
const MAX_IDEMPOTENCY_KEY = 255;

interface Ctx {
	state: SimState;
	req: http.IncomingMessage;
	method: string;
	path: string;
	requestId: string;
	record: RequestRecord;
	fault?: PickedFault;
	/** X-RateLimit-* of the credential's bucket, sent on every authenticated answer. */
	rateHeaders: Record<string, string>;
}

/** A stored answer sent again on an idempotent replay. */
interface Replay {
	replay: WireReply;
}

export function createServer(state: SimState): http.Server {
	return http.createServer((req, res) => {
		void handleRequest(state, req, res);
	});
}

async function handleRequest(state: SimState, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
	req.on('error', () => undefined);
	res.on('error', () => undefined);
	const method = (req.method ?? 'GET').toUpperCase();
	// The raw path, query dropped: no URL parsing that could reinterpret '//' or throw.
	const path = (req.url ?? '/').split('?')[0];
	const requestId = 'req_' + state.ids.hex(24);
	const record: RequestRecord = { method, path, status: 0, requestId, at: state.now() };
	const key = req.headers['idempotency-key'];
	if (typeof key === 'string') record.idempotencyKey = key;
	state.ledger.addRequest(record);
	// For files: when the connection closed, and whether the whole answer had gone out by then; and every file
	// request on its own list (`sim.fileRequests`: method, Range, status), as the storage keeps its own.
	const fileRecord = FILE_PATH.test(path) ? fileRequest(state, req, method, path) : undefined;
	if (fileRecord) {
		trackConnection(req, res, record);
		trackConnection(req, res, fileRecord);
	}

	// A fault's followedBy sequence follows the request it hit: same key, same credential.
	const sequenceKey = record.idempotencyKey === undefined ? undefined : `${req.headers.authorization ?? ''}\u0000${record.idempotencyKey}`;
	const fault = state.faults.pick(method, path, sequenceKey);
	if (fault) record.fault = fault.kind;
	if (fault?.shape) record.faultShape = fault.shape;
	if (fault?.afterCommit) record.faultAfterCommit = true;
	if (fault?.followUp) record.faultFollowUp = true;
	// Nothing happens at all: the connection just dies.
	if (fault?.kind === 'drop-before-commit') return drop(req);

	const ctx: Ctx = { state, req, method, path, requestId, record, fault, rateHeaders: {} };
	let outcome: Reply | Replay | 'aborted';
	try {
		outcome = await processRequest(ctx);
	} catch {
		outcome = internalError();
	}
	if (outcome === 'aborted') return;
	// Everything was done (charged, stored for replay); only the answer is lost.
	if (fault?.kind === 'drop-after-commit') return drop(req);
	// Everything was done, and then the answer is a 500 or 503 all the same.
	if (fault?.afterCommit) outcome = injectedStatus(ctx, true) ?? outcome;

	const answer = 'replay' in outcome ? outcome.replay : serialize(speak(outcome, state.profile), requestId);
	const echoed = state.echoKey ? presentedKey(req.headers.authorization) : undefined;
	const wire = echoed === undefined ? answer : echoKey(answer, echoed);
	const headers: Record<string, string> = renameRateLimitHeaders({ ...ctx.rateHeaders, ...wire.headers, 'x-request-id': requestId }, state.profile);
	if ('replay' in outcome) headers[state.profile.replayHeader.toLowerCase()] = 'true';
	const chunked = state.profile.fileLength === 'chunked' && wire.status === 200 && FILE_PATH.test(path);
	if (!chunked) headers['content-length'] = String(wire.data.length);
	record.status = wire.status;
	if (fileRecord) fileRecord.status = wire.status;
	if (res.destroyed) return;
	res.writeHead(wire.status, headers);
	if (chunked) writeChunked(res, wire.data);
	else res.end(wire.data);
}

const FILE_PATH = /^\/v1\/decks\/[^/]+\/files\//;

/** A file request's record on `sim.fileRequests` (its status is set once answered; 0 when dropped). */
function fileRequest(state: SimState, req: http.IncomingMessage, method: string, path: string): StorageRequest {
	const range = typeof req.headers.range === 'string' ? req.headers.range : undefined;
	const record: StorageRequest = { method, path, authorization: req.headers.authorization !== undefined, ...(range !== undefined ? { range } : {}), status: 0 };
	state.fileRequests.push(record);
	return record;
}

type Tracked = { closedAt?: number; complete?: boolean };
/** The records waiting for each socket's close: one listener per socket, however many requests it carries. */
const trackedBySocket = new WeakMap<object, Tracked[]>();

/** Records when the request's connection closes (`closedAt`, real time) and whether the answer was complete by then. */
export function trackConnection(req: http.IncomingMessage, res: http.ServerResponse, record: Tracked): void {
	record.complete = false;
	res.once('finish', () => (record.complete = true));
	const socket = req.socket;
	let records = trackedBySocket.get(socket);
	if (!records) {
		const list: Tracked[] = [];
		records = list;
		trackedBySocket.set(socket, list);
		socket.once('close', () => {
			const at = Date.now();
			for (const tracked of list) tracked.closedAt ??= at;
		});
	}
	records.push(record);
}

function drop(req: http.IncomingMessage): void {
	req.socket.destroy();
}

async function processRequest(ctx: Ctx): Promise<Reply | Replay | 'aborted'> {
	const { state, req, method, fault } = ctx;
	const limits = state.limits;
	// An operation the profile serves at another path is routed as if at its usual one (profile `paths`).
	const path = routedPath(ctx.path, state.profile.paths);

	const injected = injectedStatus(ctx);
	if (injected) return injected;

	const edge = state.buckets.get(`edge:${req.socket.remoteAddress ?? '?'}`, limits.edgePerMinute, MINUTE, limits.retryAfterMs).take();
	if (!edge.ok) return edgeRateLimited(refusalHeaders(edge));

	// The size layer judges the declared length before anything reads the body.
	const cap = path === MATERIALS_PATH ? limits.materialBodyBytes : limits.jsonBodyBytes;
	const declared = Number(req.headers['content-length'] ?? NaN);
	if (Number.isFinite(declared) && declared > cap) return payloadTooLarge();

	if (state.surface === 'disabled') return surfaceDisabled(state.retryHintMs(5_000));

	const match = matchRoute(method, path);
	if (match.kind === 'not_found') return notFound();
	if (match.kind === 'method_not_allowed') {
		return problem(405, 'method_not_allowed', {
			detail: `${method} is not accepted on this path. Allowed: ${match.allow.join(', ')}.`,
			retryable: false,
			extra: { allow: match.allow },
			headers: { allow: match.allow.join(', ') },
		});
	}
	const { route, params } = match;

	if (state.database === 'down') return databaseDown();

	const auth = authenticate(req.headers.authorization, state.accounts);
	if (!auth.ok) return auth.reply;
	const { key, principal } = auth;
	ctx.record.keyId = key.id;
	ctx.record.principalId = principal.id;

	if (route.capability && state.unshipped.has(route.capability)) {
		return problem(501, 'not_implemented', {
			detail: 'This operation is documented and advertised but not available yet in this deployment. Treat it as unavailable; it will start working with no client change.',
			retryable: false,
			extra: { capability: route.capability },
		});
	}

	const scopeRefusal = checkScope(key, route.scope);
	if (scopeRefusal) return scopeRefusal;

	const window = limits.bucketWindowMs;
	const perWindow = (perMinute: number) => Math.max(1, Math.round((perMinute * window) / MINUTE));
	const principalBucket = state.buckets.get(`principal:${key.id}`, perWindow(limits.principalPerMinute), window, limits.retryAfterMs).take();
	ctx.rateHeaders = rateLimitHeaders(principalBucket);
	if (!principalBucket.ok) return rateLimited('principal', principalBucket);
	const routeBucket = state.buckets.get(`route:${key.id}:${route.id}`, perWindow(routeLimit(ctx, route)), window, limits.retryAfterMs).take();
	if (!routeBucket.ok) return rateLimited('route', routeBucket);

	// Refused before the body is read: the handler never touches the request stream.
	const idempotencyKey = ctx.record.idempotencyKey;
	if (route.method === 'POST' && (!idempotencyKey || idempotencyKey.length > MAX_IDEMPOTENCY_KEY)) {
		return problem(400, 'validation_failed', {
			detail: idempotencyKey
				? `Idempotency-Key must be at most ${MAX_IDEMPOTENCY_KEY} characters. The body was not read.`
				: 'Every POST needs an Idempotency-Key header (a UUID is suitable). The body was not read.',
			retryable: false,
			reason: idempotencyKey ? 'idempotency_key_invalid' : 'idempotency_key_missing',
			extra: { header: 'Idempotency-Key' },
		});
	}

	let body: Record<string, unknown> = {};
	let parts: Part[] = [];
	let canonical = '';
	if (route.body !== 'none') {
		const raw = await readBody(req, cap);
		if (raw === 'aborted') return 'aborted';
		if (raw === 'too_large') return payloadTooLarge();
		ctx.record.bodySha256 = sha256(raw);
		const contentType = req.headers['content-type'];
		if (route.body === 'json') {
			const parsed = parseJsonBody(raw, contentType, schemaFor(route, state));
			if (!parsed.ok) return validationFailed(parsed.issues);
			body = parsed.value;
			canonical = canonicalJson(body);
		} else {
			const boundary = boundaryOf(contentType);
			if (!boundary) return validationFailed([fileIssue('Field required (send multipart/form-data with a part named "file")', 'missing')]);
			const parsed = parseMultipart(raw, boundary);
			if (!parsed) return validationFailed([{ type: 'value_error', loc: ['body'], msg: 'Value error, malformed multipart/form-data body' }]);
			parts = parsed;
			canonical = canonicalJson(parts.map((p) => ({ name: p.name, filename: p.filename, contentType: p.contentType, sha256: sha256(p.data) })));
		}
	}

	let claimed = false;
	const print = fingerprint(method, path, canonical);
	if (route.method === 'POST' && idempotencyKey) {
		const found = state.idempotency.lookup(principal.id, idempotencyKey, print);
		if ((found.kind === 'replay' || found.kind === 'reused') && state.profile.priceCheck === 'before-key' && route.spending && typeof body.expected_credits === 'number') {
			// a service that checks the price before its store answers for a stored key (profile.ts priceCheck); a new
			// key meets the price where the handler checks it, after the refusals that come first
			const live = livePriceOf(route.id, { state, key, principal, params, body, parts, idempotencyKey, now: state.now(), headers: req.headers });
			if (live !== undefined && live !== body.expected_credits) return priceDrift(body.expected_credits, live);
		}
		if (found.kind === 'replay') {
			ctx.record.replayed = true;
			return { replay: found.reply };
		}
		if (found.kind === 'reused') {
			return conflict('idempotency_key_reused', 'This Idempotency-Key was already used with a different request. A retry must repeat the identical body; a new operation needs a new key.', false);
		}
		if (found.kind === 'in_progress') {
			const retryAfterMs = state.retryHintMs(1_000);
			return conflict(
				'already_in_progress',
				'A request with this Idempotency-Key is still being processed. Wait, then retry with the same key and body.',
				true,
				{ retryAfterMs },
				{ 'retry-after': String(Math.ceil(retryAfterMs / 1000)) },
			);
		}
		state.idempotency.claim(principal.id, idempotencyKey, print);
		claimed = true;
	}

	try {
		if (route.spending) {
			const velocity = state.buckets.get(`spend:${key.id}`, limits.spendPerHour, HOUR, limits.retryAfterMs).peek();
			if (!velocity.ok) {
				return rateLimited('spend_velocity', velocity, {
					spendVelocityLimit: velocity.limit,
					spendVelocitySpent: velocity.spent,
					spendVelocityWindowSeconds: HOUR / 1000,
					resetAt: new Date(Date.now() + velocity.retryAfterMs).toISOString(),
				});
			}
		}
		if (fault?.kind === 'latency') await sleep(fault.latencyMs ?? 100);
		const call: Call = { state, key, principal, params, body, parts, idempotencyKey, now: state.now(), headers: req.headers };
		// Spoken before it is stored: a replay repeats exactly what the first answer said.
		const reply = speak(route.handle(call), state.profile);
		if (claimed && reply.status >= 200 && reply.status < 300) {
			state.idempotency.complete(principal.id, idempotencyKey!, print, serialize(reply, ''));
			claimed = false;
		}
		return reply;
	} finally {
		// Anything but a success wrote nothing: free the key so a retry is judged afresh.
		if (claimed) state.idempotency.release(principal.id, idempotencyKey!);
	}
}

/** The route's schema; the create body's required fields are the profile's choice. */
function schemaFor(route: Route, state: SimState) {
	let schema = route.schema!;
	if (route.id !== 'POST /v1/decks') return schema;
	// Integer material ids are integers in the create body too.
	if (state.profile.materialIdType === 'integer') schema = { ...schema, fields: { ...schema.fields, material_ids: { kind: 'integerList', maxItems: 20 } } };
	const required = state.profile.requiredCreateFields;
	if (!Array.isArray(required)) return schema;
	return { ...schema, required: [...new Set([...schema.required, ...required])], check: undefined };
}

function routeLimit(ctx: Ctx, route: Route): number {
	const setting = ctx.state.limits.routePerMinute;
	if (typeof setting === 'number') return setting;
	return setting[route.id] ?? 600_000;
}

function rateLimited(bucket: 'principal' | 'route' | 'spend_velocity', v: BucketVerdict, extra: Record<string, unknown> = {}): Reply {
	const what = bucket === 'spend_velocity' ? 'Too many credit-spending calls this hour; nothing was charged.' : `The ${bucket} rate bucket is empty.`;
	return problem(429, 'rate_limited', {
		detail: `${what} Retry after ${v.retryAfterMs} ms.`,
		retryable: true,
		reason: bucket === 'spend_velocity' ? 'spend_velocity_exceeded' : bucket,
		extra: { bucket, retryAfterMs: v.retryAfterMs, ...extra },
		headers: refusalHeaders(v),
	});
}

/** Injected 500/503/429: answered at once, nothing processed (or, afterCommit, once everything was done). */
function injectedStatus(ctx: Ctx, committed = false): Reply | undefined {
	const { fault, state } = ctx;
	if (!fault || (fault.afterCommit ?? false) !== committed) return undefined;
	if (fault.kind === 'status500') return internalError();
	if (fault.kind === 'status503') return fault.shape === 'plain' ? databaseDown() : surfaceDisabled(state.retryHintMs(1_000));
	if (fault.kind === 'status429') {
		const retryAfterMs = state.retryHintMs(1_000);
		const v: BucketVerdict = { ok: false, limit: 1, remaining: 0, resetMs: retryAfterMs, retryAfterMs, spent: 1 };
		return fault.shape === 'plain' ? edgeRateLimited(refusalHeaders(v)) : rateLimited('principal', v);
	}
	return undefined;
}

/** Reads the body up to cap; past it, keeps draining (so the connection stays usable) and reports too_large. */
function readBody(req: http.IncomingMessage, cap: number): Promise<Buffer | 'too_large' | 'aborted'> {
	return new Promise((resolve) => {
		const chunks: Buffer[] = [];
		let size = 0;
		let over = false;
		req.on('data', (chunk: Buffer) => {
			if (over) return;
			size += chunk.length;
			if (size > cap) {
				over = true;
				chunks.length = 0;
				resolve('too_large');
				return;
			}
			chunks.push(chunk);
		});
		req.on('end', () => resolve(over ? 'too_large' : Buffer.concat(chunks)));
		req.on('close', () => resolve('aborted'));
	});
}
