/**
 * Sending one item's request and turning the outcome into the item the node emits. Every
 * operation ends here, so keys, price drift, routing and error conversion live in one place.
 */
import { NodeApiError, NodeOperationError, type IDataObject, type IExecuteFunctions, type JsonObject } from 'n8n-workflow';

import { chargeMessage, chargeOf, CHARGE_LOG, type Charge, type ChargeFacts } from '../../shared/charge';
import type { CallResult } from '../../shared/client';
import { endpointHint, endpointPath, endpointPathProblem, ENDPOINTS, type EndpointName } from '../../shared/endpoints';
import {
	canonicalJson,
	IDEMPOTENCY_HEADER,
	idempotencyKeyFor,
	repricedKeyOf,
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
import { isConflictOf, livePriceOf, refusalFields, REPLAYED_UPLOAD_MESSAGE, type Outcome } from '../../shared/outcome';
import { rememberPurchase, type PurchaseFacts } from '../../shared/purchaseFacts';
import type { ServiceFailure } from '../../shared/problem';
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
	/** A deck's status read (transport.ts statusRequest): an error status carrying the deck's own record is the answer. */
	jobRecordOf?: string;
	retry?: Partial<RetrySettings>;
	/** Adds our fields to a success body (e.g. the deck `state`, which may need a look at the deck's file). */
	decorate?: (body: Record<string, unknown>, httpStatus: number) => Record<string, unknown> | Promise<Record<string, unknown>>;
	/**
	 * A failure the operation reads itself (a 404 of a deck just bought: shared/n8n/justBought.ts): an answer for
	 * Success, or the error to throw; undefined: the failure is an error as usual.
	 */
	readFailure?: (failure: ServiceFailure) => { notVisibleYet: IDataObject; error?: undefined } | { error: Error; notVisibleYet?: undefined } | undefined;
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
	const { outcome } = await item.service.call({ method: 'GET', path: request.path, ...(request.jobRecordOf !== undefined ? { jobRecordOf: request.jobRecordOf } : {}) }, request.retry);
	if (outcome.route === 'success' && request.decorate) return emit(item, { ...outcome, body: await request.decorate(outcome.body, outcome.status) }, {});
	const read = outcome.route === 'error' ? request.readFailure?.(outcome.failure) : undefined;
	if (read?.error) throw read.error;
	if (read?.notVisibleYet) return { output: 0, json: { outcome: 'success', ...read.notVisibleYet } };
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
	let sent = await sendOnce(item, request, request.json, origin);
	let repricedFrom: number | undefined;

	const ceiling = request.options.maxCredits;
	if (request.json && sent.outcome.outcome === 'price_drift') {
		const live = livePriceOf(sent.outcome.failure);
		if (ceiling !== undefined && live !== undefined && live <= ceiling) {
			repricedFrom = request.json.expected_credits as number;
			// the same purchase at the live price: its key follows from the first request's (repricedKeyOf)
			const repriced = { ...request, options: { ...request.options, idempotencyKey: repricedKeyOf(sent.key) } };
			sent = await sendOnce(item, repriced, { ...request.json, expected_credits: live }, origin);
		}
	}

	let { outcome } = sent;
	if (outcome.route === 'error' && request.formLabels) {
		outcome = { ...outcome, failure: withFormLabels(outcome.failure, request.formLabels) };
	}
	const pathHint =
		outcome.route === 'error' && request.endpoint
			? endpointHint(request.endpoint, item.service.endpointPaths[request.endpoint], outcome.failure.status, request.method ?? 'POST')
			: undefined;

	if (repricedFrom !== undefined && outcome.route === 'error' && isConflictOf(outcome.failure, 'idempotency_key_reused')) throw boughtAtAnotherPrice(item, outcome.failure, sent);
	return emit(item, outcome, {
		decorate: request.decorate,
		requiredMember: request.requiredMember,
		key: sent.key,
		extra: {
			idempotencyKey: sent.key,
			...(repricedFrom !== undefined ? { repricedFrom } : {}),
		},
		charged: sent.charge && { charge: sent.charge, operation: request.operation, price: priceOf(sent.json), repricedFrom, lostAttempt: sent.lostAttempt },
		request: request.json,
		pathHint: pathHint && request.endpoint ? { text: pathHint, endpoint: request.endpoint, path: request.path } : undefined,
	});
}

/**
 * A price re-sent within Max Credits whose key the service holds with another body: an earlier run bought this
 * very purchase when the live price was another (repricedKeyOf). Nothing is bought now, and the deck is not lost.
 */
function boughtAtAnotherPrice(item: ItemContext, failure: ServiceFailure, sent: { key: string; json?: Record<string, unknown> }): Error {
	const error = toNodeApiError(item.ctx.getNode(), failure, item.itemIndex);
	error.message = 'This purchase was already made, when the live price was another: nothing was bought now';
	error.description =
		`The request at the live price (${String(sent.json?.expected_credits)} credits, re-sent within Max Credits under Idempotency-Key ${sent.key}) is held by the service with another price: ` +
		`an earlier run of this purchase bought it then. It is not lost and is not bought twice: Deck Generator → Recover Purchase with the line n8n logged for Idempotency-Key ${sent.key} gets it back without a charge. ` +
		`To buy another deck on purpose, set a new Purchase Reference.${failure.requestId ? ` Request id: ${failure.requestId}` : ''}`;
	error.context.idempotencyKey = sent.key;
	return error;
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

/** One body sent under its key, and, for a purchase, what it did to the credits (shared/charge.ts). */
interface Sent {
	outcome: Outcome;
	key: string;
	json: Record<string, unknown> | undefined;
	/** A purchase the service answered (2xx) or refused; undefined for what is no purchase, or had no definite answer. */
	charge?: Charge;
	lostAttempt?: string;
}

async function sendOnce(item: ItemContext, request: MutationRequest, json: Record<string, unknown> | undefined, origin: string): Promise<Sent> {
	const { ctx, itemIndex } = item;
	const slot = slotOf(item, request);
	const bytes = json ? Buffer.from(canonicalJson(json)) : request.raw!.bytes;
	const contentType = json ? 'application/json' : request.raw!.contentType;
	const key = purchaseKey(item, request, bytes, origin);
	const method = request.method ?? 'POST';
	const paying = item.spends && method === 'POST';
	// As an AI tool: refused here, before anything is sent, unless a person reviews the call or it fits the allowance.
	const admitted = paying && item.toolSpending ? admitToolPurchase(ctx, item.toolSpending, item.keyStore, { key, price: priceOf(json) }, itemIndex) : undefined;
	// An earlier try of this node run sent this very request and got no answer: a replay now may be of that try's purchase.
	const unansweredBefore = paying && purchasesIn(item.keyStore).some((purchase) => purchase.key === key && purchase.state === 'unanswered');
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
	const lostAttempt = result.lostAttempt
		? `this run's first attempt got no answer (${result.lostAttempt})`
		: unansweredBefore
			? 'an earlier try of this node (in this execution, or in the one it retries) got no answer'
			: undefined;
	const { outcome } = result;
	const charge: Charge | undefined = !paying
		? undefined
		: outcome.route === 'success'
			? chargeOf({ replayed: outcome.replayed, attemptLostBefore: unansweredBefore || result.uncertainAttempts > 0 })
			: outcome.route === 'error'
				? undefined
				: 'none';
	if (item.spends) {
		const purchase = purchaseResult(result);
		if (admitted) settleToolPurchase(item.keyStore, admitted, charge === 'charged' || charge === 'charged_or_replayed' || purchase.kind === 'unanswered');
		recordPurchase(item.keyStore, slot, key, purchase);
		logPurchase(ctx, slot, key, purchase, charge, item.service.maskText);
		if (logged) notePurchaseResult(ctx, key, purchase);
	}
	return { outcome, key, json, ...(charge ? { charge } : {}), ...(lostAttempt && charge === 'charged_or_replayed' ? { lostAttempt } : {}) };
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
function logPurchase(ctx: IExecuteFunctions, slot: KeySlot, key: string, purchase: PurchaseResult, charge: Charge | undefined, mask: (text: string) => string): void {
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
		const said = charge && charge !== 'none' ? charge : 'charged';
		ctx.logger.info(`Deck Generator: ${CHARGE_LOG[said]}, taskId ${purchase.taskId ?? '(none in the answer)'} ${where}`, {
			...meta,
			taskId: purchase.taskId,
			charge: said,
			replayed: said === 'replayed',
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
	/** A purchase the service answered or refused: what it did to the credits (shared/charge.ts). */
	charged?: ChargeFacts & { charge: Charge };
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
			...(options.charged ? purchaseFields(item, options.charged, body, options.key, outcome.requestId) : outcome.replayed ? { replayed: true, message: REPLAYED_UPLOAD_MESSAGE } : {}),
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
		...(options.charged ? { charge: options.charged.charge } : {}),
		...options.extra,
		...(options.request ? { request: options.request as IDataObject } : {}),
	};
	return { output: outputIndexFor(outcome, item.split), json };
}

/**
 * What a Success item of a purchase says about it: `charge` and its sentence, `replayed` (true only when the
 * purchase was made before this node run), and `purchase`, the facts every later reader of the deck needs to
 * tell a deck just bought from an id nobody bought (shared/purchaseFacts.ts), also kept by the process for the
 * readers that get no item.
 */
function purchaseFields(item: ItemContext, charged: ChargeFacts & { charge: Charge }, body: Record<string, unknown>, key: string | undefined, requestId: string | undefined): IDataObject {
	const fields: IDataObject = { charge: charged.charge, replayed: charged.charge === 'replayed', message: chargeMessage(charged.charge, charged) };
	const taskId = body.taskId;
	if (typeof taskId === 'string' && taskId && key) {
		const purchase: PurchaseFacts = { taskId, idempotencyKey: key, ...(requestId ? { requestId } : {}), confirmedAt: new Date().toISOString() };
		rememberPurchase(item.service.credentialId, purchase);
		fields.purchase = purchase as unknown as IDataObject;
	}
	return fields;
}
