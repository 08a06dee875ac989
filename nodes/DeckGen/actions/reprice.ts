/**
 * The price is not the purchase (issue 49). Every price of one purchase goes out under one key (the key leaves
 * `expected_credits` out: ../../shared/idempotency.ts purchaseHashOf): a 409 price_drift within Max Credits is
 * re-sent at the live price under the first request's key (the refusal wrote nothing), and a later send at any
 * price either replays the purchase or is refused with 409 idempotency_key_reused, never bought a second time.
 */
import { isConflictOf, livePriceOf, type Outcome } from '../../shared/outcome';
import { heldPriceOf, rememberHeldPrice } from '../../shared/heldPrices';
import type { ServiceFailure } from '../../shared/problem';
import { toNodeApiError } from '../../shared/n8n/errors';
import { sendOnce, statedPriceOf, type Sent } from './keyedSend';
import type { ItemContext, MutationRequest } from './request';

/**
 * The request sent at its price: once, and again at the live price after a 409 price_drift within Max Credits,
 * or at the price the service holds the key with (../../shared/heldPrices.ts) after a 409 idempotency_key_reused,
 * always under the same key. `repricedFrom`: the price first sent, when another was sent after it.
 */
export async function sendAtItsPrice(item: ItemContext, request: MutationRequest, origin: string): Promise<{ sent: Sent; repricedFrom?: number }> {
	let sent = await sendOnce(item, request, request.json, origin);
	let repricedFrom: number | undefined;

	const ceiling = request.options.maxCredits;
	if (request.json && sent.outcome.outcome === 'price_drift') {
		const live = livePriceOf(sent.outcome.failure);
		if (ceiling !== undefined && live !== undefined && live <= ceiling) {
			repricedFrom = request.json.expected_credits as number;
			// the same purchase at the live price, under the same key (an Idempotency Key of the user's too)
			sent = await sendOnce(item, request, { ...request.json, expected_credits: live }, origin, sent.key);
		}
	}
	const held = heldPriceOf(item.service.credentialId, sent.key);
	if (request.json && !request.asRecorded && isPriced(sent.json) && held !== undefined && held !== sent.json?.expected_credits && isKeyReused(sent.outcome)) {
		// the service holds this purchase's key with the body at `held`: sent at that price it is replayed. Safe
		// whatever the price: a stored key never buys again. Anything but the replay (a service that checks the
		// price first refuses a price no longer live) leaves the refusal that says what happened.
		const replay = await sendOnce(item, request, { ...request.json, expected_credits: held }, origin, sent.key);
		if (replay.outcome.route === 'success') {
			repricedFrom ??= request.json.expected_credits as number;
			sent = replay;
		}
	}
	const sentPrice = statedPriceOf(sent.json);
	if (sent.outcome.route === 'success' && sentPrice !== undefined) rememberHeldPrice(item.service.credentialId, sent.key, sentPrice);
	return { sent, ...(repricedFrom !== undefined ? { repricedFrom } : {}) };
}

export const isPriced = (json: Record<string, unknown> | undefined) => statedPriceOf(json) !== undefined;

export const isKeyReused = (outcome: Outcome): outcome is Extract<Outcome, { route: 'error' }> => outcome.route === 'error' && isConflictOf(outcome.failure, 'idempotency_key_reused');

/**
 * A priced purchase whose key the service holds with another body. Every price of one purchase goes out under
 * one key (idempotency.ts purchaseHashOf), so an earlier run bought this very purchase at another price; with an
 * Idempotency Key of the user's, that key may also have been given to another request. Nothing is bought now,
 * and the deck is not lost.
 */
export function boughtAtAnotherPrice(item: ItemContext, failure: ServiceFailure, sent: { key: string; json?: Record<string, unknown> }, usersKey: boolean): Error {
	const error = toNodeApiError(item.ctx.getNode(), failure, item.itemIndex);
	error.message = 'This purchase was already made, when the live price was another: nothing was bought now';
	error.description =
		`The service holds Idempotency-Key ${sent.key} with another body than this one at ${String(sent.json?.expected_credits)} credits: ` +
		`an earlier run bought this purchase when the live price was another${usersKey ? ' (or your Idempotency Key was given to another request)' : ''}. ` +
		`It is not lost and is not bought twice: Deck Generator → Recover Purchase with the line n8n logged for Idempotency-Key ${sent.key} at the price it was bought (the last one sent) gets it back without a charge. ` +
		`To buy another deck on purpose, set a new Purchase Reference.${failure.requestId ? ` Request id: ${failure.requestId}` : ''}`;
	error.context.idempotencyKey = sent.key;
	return error;
}
