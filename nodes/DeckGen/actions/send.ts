/**
 * Sending one item's request and turning the outcome into the item the node emits. Every
 * operation ends here, so keys, price drift, routing and error conversion live in one place.
 */
import { NodeApiError, NodeOperationError, type IDataObject, type IExecuteFunctions, type JsonObject } from 'n8n-workflow';

import type { CallResult } from '../../shared/client';
import { endpointHint, endpointPath, endpointPathProblem, ENDPOINTS, type EndpointName } from '../../shared/endpoints';
import {
	canonicalJson,
	IDEMPOTENCY_HEADER,
	idempotencyKeyFor,
	MAY_HAVE_BEEN_BOUGHT,
	originHash,
	purchasesIn,
	recordPurchase,
	sha256Hex,
	type KeySlot,
	type KeyStore,
	type PurchaseResult,
} from '../../shared/idempotency';
import { withFormLabels, type FormLabels } from '../../shared/formLabels';
import { livePriceOf, refusalFields, REPLAYED_MESSAGE, REPLAYED_UPLOAD_MESSAGE, type Outcome } from '../../shared/outcome';
import type { RetrySettings } from '../../shared/retry';
import type { HttpMethod } from '../../shared/transport';
import { toNodeApiError } from '../../shared/n8n/errors';
import { announcePurchase, notePurchaseResult } from '../../shared/n8n/purchaseLog';
import { triggerItemsOf } from '../../shared/n8n/origin';
import { admitToolPurchase, settleToolPurchase, type ToolSpending } from '../../shared/n8n/toolSpending';
import type { EmittedItem } from '../../shared/n8n/item';
import type { NodeService } from '../../shared/n8n/service';
import { readExpectedCredits, readOptions, readTaskId, type SpendOptions } from './common';
import { outputIndexFor } from './outputs';
import { recordedItem } from './record';

export interface ItemContext {
	ctx: IExecuteFunctions;
	service: NodeService;
	itemIndex: number;
	split: boolean;
	/**
	 * The operation has Checkout and Client Action outputs (outputs.ts). Without them (Get Credits,
	 * Get Status, Download, Upload) an answer for a person, such as a 501 "not available yet", is an error.
	 */
	paymentOutputs: boolean;
	runIndex: number;
	/** The node's execution context: idempotency keys and the purchases they made (see idempotency.ts). */
	keyStore: KeyStore;
	/** The operation spends credits: every keyed POST it sends is a purchase to keep track of. */
	spends: boolean;
	/** As an AI tool that spends: who lets it buy (shared/n8n/toolSpending.ts), asked before every purchase is sent. */
	toolSpending?: ToolSpending;
}

export interface ReadRequest {
	path: string;
	retry?: Partial<RetrySettings>;
	/** Adds our fields to a success body (e.g. the deck `state`, which may need a look at the deck's file). */
	decorate?: (body: Record<string, unknown>, httpStatus: number) => Record<string, unknown> | Promise<Record<string, unknown>>;
}

export interface MutationRequest {
	/** Names the idempotency slot, e.g. `deck.create`. */
	operation: string;
	method?: HttpMethod;
	path: string;
	/** A JSON body, or a prepared body with its content type (multipart). */
	json?: Record<string, unknown>;
	raw?: { bytes: Buffer; contentType: string };
	options: SpendOptions;
	/** The success body must carry this member (e.g. `taskId` of a bought deck). */
	requiredMember?: string;
	decorate?: (body: Record<string, unknown>, httpStatus: number) => Record<string, unknown>;
	/** The form's label of each body field, for a validation refusal to name the fields as the form does. */
	formLabels?: FormLabels;
	/** The path is one the contract leaves open (`endpointPathFor`): a 404 or 405 names the credential field that sets it. */
	endpoint?: EndpointName;
}

export async function sendRead(item: ItemContext, request: ReadRequest): Promise<EmittedItem> {
	const { outcome } = await item.service.call({ method: 'GET', path: request.path }, request.retry);
	if (outcome.route === 'success' && request.decorate) return emit(item, { ...outcome, body: await request.decorate(outcome.body, outcome.status) }, {});
	return emit(item, outcome, {});
}

/**
 * A POST with its idempotency key. A spending body (one with `expected_credits`) that meets a
 * 409 price_drift is re-sent once with the live price when it is within Max Credits: a new body,
 * so a new key; nothing was charged for the first.
 */
export async function sendMutation(item: ItemContext, request: MutationRequest): Promise<EmittedItem> {
	// The same for every body this item sends (a price re-sent after drift included): computed once,
	// and only when the key is derived (an Idempotency Key of the user's makes it unused; following
	// the pairedItem lineage to the trigger costs a few milliseconds of an n8n worker per item).
	const origin = request.options.idempotencyKey ? '' : originHash(triggerItemsOf(item.ctx, item.itemIndex), request.options.purchaseReference);
	if (request.options.recordOnly) return recordWithoutSending(item, request, origin);
	const first = await sendOnce(item, request, request.json, origin);
	let { outcome } = first;
	let repricedFrom: number | undefined;
	let key = first.key;

	const ceiling = request.options.maxCredits;
	if (request.json && outcome.outcome === 'price_drift') {
		const live = livePriceOf(outcome.failure);
		if (ceiling !== undefined && live !== undefined && live <= ceiling) {
			repricedFrom = request.json.expected_credits as number;
			const second = await sendOnce(item, request, { ...request.json, expected_credits: live }, origin);
			outcome = second.outcome;
			key = second.key;
		}
	}

	if (outcome.route === 'error' && request.formLabels) {
		outcome = { ...outcome, failure: withFormLabels(outcome.failure, request.formLabels) };
	}
	const pathHint =
		outcome.route === 'error' && request.endpoint
			? endpointHint(request.endpoint, item.service.endpointPaths[request.endpoint], outcome.failure.status, request.method ?? 'POST')
			: undefined;

	return emit(item, outcome, {
		decorate: request.decorate,
		requiredMember: request.requiredMember,
		key,
		extra: {
			idempotencyKey: key,
			...(repricedFrom !== undefined ? { repricedFrom } : {}),
		},
		request: request.json,
		pathHint: pathHint && request.endpoint ? { text: pathHint, endpoint: request.endpoint, path: request.path } : undefined,
	});
}

/**
 * The path of an operation whose path the contract leaves open: the credential's override, checked
 * before anything is sent, or the default (../../shared/endpoints.ts).
 */
export function endpointPathFor(item: ItemContext, name: EndpointName, taskId?: string): string {
	const value = item.service.endpointPaths[name];
	const problem = endpointPathProblem(name, value);
	if (problem) {
		throw new NodeOperationError(item.ctx.getNode(), problem, {
			itemIndex: item.itemIndex,
			description: `Open the Deck Generator credential and fix its ${ENDPOINTS[name].label} field (a path starting with /v1/), or empty it for ${ENDPOINTS[name].defaultPath}.`,
		});
	}
	return endpointPath(name, value, taskId);
}

/**
 * A spending call on an existing deck (revise, translate, video): `POST /v1/decks/{taskId}/<suffix>`
 * with the operation's fields plus `expected_credits`; the answer carries the `taskId` it was for.
 */
export async function spendOnDeck(
	item: ItemContext,
	operation: string,
	endpoint: EndpointName,
	fields: Record<string, unknown>,
	formLabels: FormLabels = {},
): Promise<EmittedItem> {
	const { ctx, itemIndex } = item;
	const taskId = readTaskId(ctx, itemIndex);
	return await sendMutation(item, {
		operation,
		path: endpointPathFor(item, endpoint, taskId),
		endpoint,
		json: { ...fields, expected_credits: readExpectedCredits(ctx, itemIndex) },
		options: readOptions(ctx, itemIndex),
		decorate: (body) => ({ taskId, ...body }),
		formLabels: { ...formLabels, expected_credits: 'Expected Credits' },
	});
}

async function sendOnce(
	item: ItemContext,
	request: MutationRequest,
	json: Record<string, unknown> | undefined,
	origin: string,
): Promise<{ outcome: Outcome; key: string }> {
	const { ctx, itemIndex } = item;
	const slot = slotOf(item, request);
	const bytes = json ? Buffer.from(canonicalJson(json)) : request.raw!.bytes;
	const contentType = json ? 'application/json' : request.raw!.contentType;
	const key = purchaseKey(item, request, bytes, origin);
	const method = request.method ?? 'POST';
	const paying = item.spends && method === 'POST';
	// As an AI tool: refused here, before anything is sent, unless a person reviews the call or it fits the allowance.
	const admitted = paying && item.toolSpending ? admitToolPurchase(ctx, item.toolSpending, item.keyStore, { key, price: priceOf(json) }, itemIndex) : undefined;
	// Written before a byte is sent: the only trace of a purchase whose worker dies while it is in flight.
	const logged = paying && json;
	if (logged) {
		const body = JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
		announcePurchase(ctx, { method, path: request.path, idempotencyKey: key, body }, { operation: request.operation, item: itemIndex }, item.service.maskText);
	}
	const result = await item.service.call(
		{
			method,
			path: request.path,
			headers: { 'Content-Type': contentType, [IDEMPOTENCY_HEADER]: key },
			body: bytes,
		},
		request.options.retry,
	);
	if (item.spends) {
		const purchase = purchaseResult(result);
		if (admitted) settleToolPurchase(item.keyStore, admitted, charged(purchase, result));
		recordPurchase(item.keyStore, slot, key, purchase);
		logPurchase(ctx, slot, key, purchase, result.outcome, item.service.maskText);
		if (logged) notePurchaseResult(ctx, key, purchase);
	}
	return { outcome: result.outcome, key };
}

const slotOf = (item: ItemContext, request: MutationRequest): KeySlot => ({ operation: request.operation, runIndex: item.runIndex, itemIndex: item.itemIndex });

/** The Idempotency-Key `bytes` are sent with (../../shared/idempotency.ts): derived here only, for a send and for a purchase recorded without sending. */
function purchaseKey(item: ItemContext, request: MutationRequest, bytes: Buffer, origin: string): string {
	const scope = { workflowId: String(item.ctx.getWorkflow().id ?? ''), nodeId: item.ctx.getNode().id, origin };
	return idempotencyKeyFor(item.keyStore, scope, slotOf(item, request), sha256Hex(bytes), request.options.idempotencyKey);
}

/**
 * Record Without Sending (issue 44): the purchase this item would send, as the journal's row, with the
 * key and the bytes a send would use (./record.ts). Nothing is sent.
 */
function recordWithoutSending(item: ItemContext, request: MutationRequest, origin: string): EmittedItem {
	const bytes = request.json ? Buffer.from(canonicalJson(request.json)) : undefined;
	const key = bytes ? purchaseKey(item, request, bytes, origin) : '';
	return recordedItem(item.ctx, item.itemIndex, { operation: request.operation, path: request.path, bytes, idempotencyKey: key, maxCredits: request.options.maxCredits });
}

/** The price a spending body agrees to (`expected_credits`); a body without one is taken to cost nothing. */
function priceOf(json: Record<string, unknown> | undefined): number {
	const price = json?.expected_credits;
	return typeof price === 'number' && Number.isFinite(price) && price > 0 ? price : 0;
}

/** Whether credits may have been charged: bought and not a replay, or sent without a definite answer. */
function charged(purchase: PurchaseResult, result: CallResult): boolean {
	if (purchase.kind === 'unanswered') return true;
	return purchase.kind === 'bought' && !(result.outcome.route === 'success' && result.outcome.replayed);
}

/**
 * What one keyed request tells about a purchase. A 2xx bought (or replayed) it. A 4xx other than
 * a 429 was the service's judgement of this very key (had an earlier attempt been committed, the
 * service would have replayed it instead): nothing was bought. Anything else (a 5xx, a 429, no
 * answer, a deadline) is no definite answer: if any attempt may have been committed, the purchase
 * may have been bought.
 */
function purchaseResult(result: CallResult): PurchaseResult {
	const { outcome, response } = result;
	if (outcome.route === 'success') {
		const taskId = outcome.body.taskId;
		return { kind: 'bought', ...(typeof taskId === 'string' && taskId ? { taskId } : {}) };
	}
	// A redirect off the Base URL's origin was not followed: what it pointed to (perhaps the bought
	// deck, as a 303 See Other does) was never read.
	if (response && response.status >= 300 && response.status < 400) return { kind: 'unanswered' };
	const definiteRefusal = response && response.status >= 400 && response.status < 500 && response.status !== 429;
	if (definiteRefusal && outcome.failure.reason !== 'already_in_progress') return { kind: 'refused' };
	return result.uncertainAttempts > 0 ? { kind: 'unanswered' } : { kind: 'notCommitted' };
}

/**
 * What came of every purchase goes to n8n's log when its answer is in (the line written before it
 * was sent is ../../shared/n8n/purchaseLog.ts's), so that an administrator can find the decks after
 * any crash, whatever the execution saved. Never the API key: only ids n8n and the service gave,
 * and the idempotency key (which replays, never buys).
 */
function logPurchase(ctx: IExecuteFunctions, slot: KeySlot, key: string, purchase: PurchaseResult, outcome: Outcome, mask: (text: string) => string): void {
	if (purchase.kind !== 'bought' && purchase.kind !== 'unanswered') return;
	const meta = {
		workflowId: ctx.getWorkflow().id ?? '',
		executionId: ctx.getExecutionId(),
		node: ctx.getNode().name,
		operation: slot.operation,
		itemIndex: slot.itemIndex,
		runIndex: slot.runIndex,
		idempotencyKey: mask(key),
	};
	// In the message itself: n8n's default console format prints the message alone.
	const where = `(Idempotency-Key ${mask(key)}; workflow ${meta.workflowId || '(unsaved)'}, execution ${meta.executionId}, node ${JSON.stringify(meta.node)}, item ${slot.itemIndex})`;
	if (purchase.kind === 'bought') {
		const replayed = outcome.route === 'success' && outcome.replayed;
		ctx.logger.info(`Deck Generator: ${replayed ? 'purchase replayed (nothing charged)' : 'purchase made'}, taskId ${purchase.taskId ?? '(none in the answer)'} ${where}`, {
			...meta,
			taskId: purchase.taskId,
			replayed,
		});
	} else {
		ctx.logger.warn(`Deck Generator: purchase sent without a definite answer: it ${MAY_HAVE_BEEN_BOUGHT} ${where}`, meta);
	}
}

interface EmitOptions {
	decorate?: (body: Record<string, unknown>, httpStatus: number) => Record<string, unknown>;
	/** The Idempotency-Key the final request was sent with. */
	key?: string;
	requiredMember?: string;
	extra?: IDataObject;
	request?: Record<string, unknown>;
	/** A 404 or 405 on a path the contract leaves open: which credential field sets it. */
	pathHint?: { text: string; endpoint: EndpointName; path: string };
}

function emit(item: ItemContext, outcome: Outcome, options: EmitOptions): EmittedItem {
	const { ctx, itemIndex } = item;
	if (outcome.route === 'error') {
		const error = toNodeApiError(ctx.getNode(), outcome.failure, itemIndex);
		if (options.pathHint) {
			// Not "no such deck" alone: the path itself may be this deployment's gap (the contract shows none).
			const { text, endpoint, path } = options.pathHint;
			error.message = `${error.message}: ${outcome.failure.status === 405 ? 'not taken' : 'nothing'} at ${path} (see the credential's ${ENDPOINTS[endpoint].label})`;
			error.description = [text, outcome.failure.requestId ? `Request id: ${outcome.failure.requestId}` : undefined].filter(Boolean).join(' ');
			error.context.endpointSetting = ENDPOINTS[endpoint].label;
		}
		const unanswered = options.key ? purchasesIn(item.keyStore).find((p) => p.key === options.key && p.state === 'unanswered') : undefined;
		if (unanswered) {
			// This item's request went out and its answer was lost, now or in an earlier try.
			error.description = `${error.description ? `${error.description} ` : ''}The request (Idempotency-Key ${unanswered.key}) ${MAY_HAVE_BEEN_BOUGHT}.`;
			error.context.idempotencyKey = unanswered.key;
			error.context.mayHaveBeenBought = true;
		}
		throw error;
	}

	if (outcome.route === 'success') {
		const body = options.decorate ? options.decorate(outcome.body, outcome.status) : outcome.body;
		// `outcome` leads the item (then the answer: `taskId` first on Create), and ours wins over a member of that name.
		const json: IDataObject = {
			...{ outcome: 'success' },
			...(body as IDataObject),
			outcome: 'success',
			...options.extra,
			...(outcome.replayed ? { replayed: true, message: item.spends ? REPLAYED_MESSAGE : REPLAYED_UPLOAD_MESSAGE } : {}),
			...(outcome.requestId ? { requestId: outcome.requestId } : {}),
		};
		if (options.requiredMember && (body[options.requiredMember] === undefined || body[options.requiredMember] === '')) {
			// A 2xx without the member we need: whatever was bought is still in `response`.
			const error = new NodeApiError(ctx.getNode(), outcome.body as JsonObject, {
				message: `The service answered ${outcome.status} without "${options.requiredMember}"`,
				description:
					'The request was accepted but the answer is missing the id needed to continue; the full answer is in the error details. Retrying the execution replays the same request without buying again.',
				itemIndex,
			});
			error.context.response = outcome.body as IDataObject;
			throw error;
		}
		return { output: 0, json };
	}

	if (!item.paymentOutputs) {
		const error = toNodeApiError(ctx.getNode(), outcome.failure, itemIndex);
		error.description = [outcome.action, error.description].filter(Boolean).join(' ');
		error.context.outcome = outcome.outcome;
		throw error;
	}

	const json: IDataObject = {
		...(refusalFields(outcome, item.service.accountUrl) as IDataObject),
		...options.extra,
		...(options.request ? { request: options.request as IDataObject } : {}),
	};
	return { output: outputIndexFor(outcome, item.split), json };
}
