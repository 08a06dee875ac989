/**
 * Sending one item's request and turning the outcome into the item the node emits. Every operation ends here, in
 * this order: the key's origin, Record Without Sending, the request sent at its price (./reprice.ts, each body
 * under its key: ./keyedSend.ts), then the item (./emit.ts). The item's context and requests: ./request.ts.
 */
import { NodeOperationError } from 'n8n-workflow';

import { endpointHint, endpointPath, endpointPathProblem, ENDPOINTS, type EndpointName } from '../../shared/endpoints';
import { originHash } from '../../shared/idempotency';
import { withFormLabels, type FormLabels } from '../../shared/formLabels';
import { triggerItemsOf } from '../../shared/n8n/origin';
import type { EmittedItem } from '../../shared/n8n/item';
import { readExpectedCredits, readOptions, readTaskId } from './common';
import { emit } from './emit';
import { statedPriceOf } from './keyedSend';
import { recordWithoutSending } from './record';
import { boughtAtAnotherPrice, isKeyReused, isPriced, sendAtItsPrice } from './reprice';
import type { ItemContext, MutationRequest, ReadRequest } from './request';

export type { ItemContext, MutationRequest, ReadRequest } from './request';

export async function sendRead(item: ItemContext, request: ReadRequest): Promise<EmittedItem> {
	const { outcome } = await item.service.call({ method: 'GET', path: request.path, ...(request.jobRecordOf !== undefined ? { jobRecordOf: request.jobRecordOf } : {}) }, request.retry);
	if (outcome.route === 'success' && request.decorate) return emit(item, { ...outcome, body: await request.decorate(outcome.body, outcome.status) }, {});
	const read = outcome.route === 'error' ? request.readFailure?.(outcome.failure) : undefined;
	if (read?.error) throw read.error;
	if (read?.notVisibleYet) return { output: 0, json: { outcome: 'success', ...read.notVisibleYet } };
	return emit(item, outcome, {});
}

/**
 * A POST with its idempotency key, sent at its price (./reprice.ts: a 409 price_drift within Max Credits is
 * re-sent at the live price under the same key), then the item.
 */
export async function sendMutation(item: ItemContext, request: MutationRequest): Promise<EmittedItem> {
	// The same for every body this item sends (a price re-sent after drift included): computed once,
	// and only when the key is derived (an Idempotency Key of the user's makes it unused; following
	// the pairedItem lineage to the trigger costs a few milliseconds of an n8n worker per item).
	const origin = request.options.idempotencyKey ? '' : originHash(triggerItemsOf(item.ctx, item.itemIndex), request.options.purchaseReference);
	if (request.options.recordOnly) return recordWithoutSending(item, request, origin);
	const { sent, repricedFrom } = await sendAtItsPrice(item, request, origin);

	let { outcome } = sent;
	if (outcome.route === 'error' && request.formLabels) {
		outcome = { ...outcome, failure: withFormLabels(outcome.failure, request.formLabels) };
	}
	const pathHint =
		outcome.route === 'error' && request.endpoint
			? endpointHint(request.endpoint, item.service.endpointPaths[request.endpoint], outcome.failure.status, request.method ?? 'POST')
			: undefined;

	if (isPriced(sent.json) && isKeyReused(outcome)) {
		throw boughtAtAnotherPrice(item, outcome.failure, sent, request.options.idempotencyKey !== undefined && request.options.idempotencyKey !== '');
	}
	return emit(item, outcome, {
		decorate: request.decorate,
		requiredMember: request.requiredMember,
		key: sent.key,
		extra: {
			idempotencyKey: sent.key,
			...(repricedFrom !== undefined ? { repricedFrom } : {}),
		},
		charged: sent.charge && { charge: sent.charge, operation: request.operation, price: statedPriceOf(sent.json), repricedFrom, lostAttempt: sent.lostAttempt },
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
