/**
 * One body sent under its Idempotency-Key, and what it did to a purchase: the key (derived here only, for a send
 * and for a purchase recorded without sending), the AI tool's allowance asked before it goes, the line logged
 * before a byte is sent, the execution's record of the purchase, and its `charge` (../../shared/charge.ts).
 */
import { chargeOf, type Charge } from '../../shared/charge';
import type { CallResult } from '../../shared/client';
import {
	canonicalJson,
	IDEMPOTENCY_HEADER,
	idempotencyKeyFor,
	purchaseHashOf,
	purchasesIn,
	recordPurchase,
	sha256Hex,
	type KeySlot,
	type PurchaseResult,
} from '../../shared/idempotency';
import { isConflictOf, type Outcome } from '../../shared/outcome';
import { announcePurchase, logPurchase, notePurchaseResult } from '../../shared/n8n/purchaseLog';
import { admitToolPurchase, settleToolPurchase } from '../../shared/n8n/toolSpending';
import type { ItemContext, MutationRequest } from './request';

/** One body sent under its key, and, for a purchase, what it did to the credits (shared/charge.ts). */
export interface Sent {
	outcome: Outcome;
	key: string;
	json: Record<string, unknown> | undefined;
	/** A purchase the service answered (2xx) or refused; undefined for what is no purchase, or had no definite answer. */
	charge?: Charge;
	lostAttempt?: string;
}

export async function sendOnce(item: ItemContext, request: MutationRequest, json: Record<string, unknown> | undefined, origin: string, knownKey?: string): Promise<Sent> {
	const { ctx, itemIndex } = item;
	const slot = slotOf(item, request);
	const bytes = json ? Buffer.from(canonicalJson(json)) : request.raw!.bytes;
	const contentType = json ? 'application/json' : request.raw!.contentType;
	const key = knownKey ?? purchaseKey(item, request, json, bytes, origin);
	const method = request.method ?? 'POST';
	const paying = item.spends && method === 'POST';
	// As an AI tool: refused here, before anything is sent, unless a person reviews the call or it fits the allowance.
	const admitted = paying && item.toolSpending ? admitToolPurchase(ctx, item.toolSpending, item.keyStore, { key, price: statedPriceOf(json) ?? 0 }, itemIndex) : undefined;
	// An earlier try of this node run sent this very request and got no answer: a replay now may be of that try's purchase.
	// (Not when it was unanswered only because another request held the key: that request's purchase is not this run's.)
	const unansweredBefore = paying && purchasesIn(item.keyStore).some((purchase) => purchase.key === key && purchase.state === 'unanswered' && !purchase.heldElsewhere);
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
		// a purchase another request holds the key of is that request's: not this call's to count
		if (admitted) settleToolPurchase(item.keyStore, admitted, charge === 'charged' || charge === 'charged_or_replayed' || (purchase.kind === 'unanswered' && !purchase.heldElsewhere));
		recordPurchase(item.keyStore, slot, key, purchase);
		logPurchase(ctx, slot, key, purchase, charge, item.service.maskText);
		if (logged) notePurchaseResult(ctx, key, purchase);
	}
	return { outcome, key, json, ...(charge ? { charge } : {}), ...(lostAttempt && charge === 'charged_or_replayed' ? { lostAttempt } : {}) };
}

const slotOf = (item: ItemContext, request: MutationRequest): KeySlot => ({ operation: request.operation, runIndex: item.runIndex, itemIndex: item.itemIndex });

/**
 * The Idempotency-Key of the purchase `bytes` make (../../shared/idempotency.ts): derived here only, for a send
 * and for a purchase recorded without sending. A JSON body's key leaves its price out (purchaseHashOf).
 */
export function purchaseKey(item: ItemContext, request: MutationRequest, json: Record<string, unknown> | undefined, bytes: Buffer, origin: string): string {
	const scope = { workflowId: String(item.ctx.getWorkflow().id ?? ''), nodeId: item.ctx.getNode().id, origin };
	const bodyHash = sha256Hex(bytes);
	return idempotencyKeyFor(item.keyStore, scope, slotOf(item, request), json ? purchaseHashOf(json) : bodyHash, request.options.idempotencyKey, bodyHash);
}

/** The price a spending body agrees to (`expected_credits`); undefined for a body that states none (a Custom Request may not). */
export function statedPriceOf(json: Record<string, unknown> | undefined): number | undefined {
	const price = json?.expected_credits;
	return typeof price === 'number' && Number.isFinite(price) && price >= 0 ? price : undefined;
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
	if (definiteRefusal && !(response.status === 409 && isConflictOf(outcome.failure, 'already_in_progress'))) return { kind: 'refused' };
	if (result.uncertainAttempts > 0) return { kind: 'unanswered' };
	// only another request's attempt may have made it (409 already_in_progress): named, but not as this run's
	return result.heldElsewhere > 0 ? { kind: 'unanswered', heldElsewhere: true } : { kind: 'notCommitted' };
}
