/**
 * A deck just bought, on the n8n side (../purchaseFacts.ts has the why): the grace option every reader of a
 * deck's status offers, where a reader finds the deck's purchase (its input item, else this process's recent
 * purchases, for an AI tool's call that gets no item), and what Get Status and Download make of a 404.
 */
import { NodeApiError, type IDataObject, type IExecuteFunctions, type INodeProperties, type JsonObject } from 'n8n-workflow';

import type { ServiceFailure } from '../problem';
import { DEFAULT_NOT_FOUND_GRACE_MS, notFoundAfterPurchase, purchaseFactsOf, type PurchaseFacts } from '../purchaseFacts';
import { goneAfterPurchase, notVisibleYetNote } from '../purchaseSentences';
import { recentPurchase } from '../recentPurchases';
import { toNodeApiError } from './errors';

export const notFoundGraceOption: INodeProperties = {
	displayName: 'Grace for a Deck Just Bought (Seconds)',
	name: 'notFoundGraceSeconds',
	type: 'number',
	typeOptions: { minValue: 0 },
	// DEFAULT_NOT_FOUND_GRACE_MS in seconds (a literal for n8n's lint; test/unit/purchase-facts.test.ts checks they agree)
	default: 300,
	description:
		'How long a deck whose purchase the input item names (Create’s purchase member) may answer 404 Not Found before it is reported as failed: a service can take a moment to show a deck just bought. Within it the deck counts as still running, and statusNote says so. An ID nobody bought here fails at its first 404, whatever this says.',
};

/** The grace in ms, from the Options collection as an item reads it. */
export function notFoundGraceMsOf(options: { notFoundGraceSeconds?: unknown }): number {
	const seconds = Number(options.notFoundGraceSeconds);
	return options.notFoundGraceSeconds !== undefined && options.notFoundGraceSeconds !== '' && Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : DEFAULT_NOT_FOUND_GRACE_MS;
}

/** The purchase of this deck: on the input item (Create's `purchase`, carried through Wait and loops), else remembered by this process. */
export function knownPurchase(ctx: IExecuteFunctions, itemIndex: number, taskId: string, credentialId: string): PurchaseFacts | undefined {
	return purchaseFactsOf(ctx.getInputData()[itemIndex]?.json, taskId) ?? recentPurchase(credentialId, taskId);
}

/**
 * Get Status's and Download's reading of a 404 for a deck whose purchase is known: within the grace, the item
 * of a deck not visible yet (Get Status answers it on Success as still running; Download has nothing to fetch
 * yet and says why); after it, an error that names the purchase and what to do. Undefined: no purchase known,
 * or not a 404 (the error as it came).
 */
export function readNotFound(
	ctx: IExecuteFunctions,
	itemIndex: number,
	taskId: string,
	failure: ServiceFailure,
	purchase: PurchaseFacts | undefined,
	graceMs: number,
): { notVisibleYet: IDataObject; error?: undefined } | { error: NodeApiError; notVisibleYet?: undefined } | undefined {
	if (failure.status !== 404 || !purchase) return undefined;
	const found = notFoundAfterPurchase(purchase, graceMs, Date.now());
	if (found.withinGrace) {
		return {
			notVisibleYet: {
				taskId,
				state: 'running',
				statusWord: null,
				notVisibleYet: true,
				statusNote: notVisibleYetNote(taskId, found),
				purchase: purchase as unknown as IDataObject,
				...(failure.requestId ? { requestId: failure.requestId } : {}),
			},
		};
	}
	const error = toNodeApiError(ctx.getNode(), failure, itemIndex);
	const { message, description } = goneAfterPurchase(taskId, found);
	error.message = message;
	error.description = [description, failure.requestId ? `Request id of the last read: ${failure.requestId}` : undefined].filter(Boolean).join(' ');
	error.context.purchase = purchase as unknown as JsonObject;
	error.context.idempotencyKey = purchase.idempotencyKey;
	return { error };
}
