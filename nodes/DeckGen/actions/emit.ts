/**
 * The item the node emits for one answer: Success with the service's body (and, for a purchase, what it did to
 * the credits and the facts every later reader of the deck needs), Checkout or Client Action with the refusal's
 * facts, or the error n8n shows (naming a request that went out and whose answer was lost).
 */
import { NodeApiError, type IDataObject, type JsonObject } from 'n8n-workflow';

import { chargeMessage, type Charge, type ChargeFacts } from '../../shared/charge';
import { ENDPOINTS, type EndpointName } from '../../shared/endpoints';
import { MAY_HAVE_BEEN_BOUGHT, purchasesIn } from '../../shared/idempotency';
import { refusalFields, REPLAYED_UPLOAD_MESSAGE, type Outcome } from '../../shared/outcome';
import { purchaseFactsNow, purchaseFactsOf } from '../../shared/purchaseFacts';
import { recentPurchase, rememberPurchase } from '../../shared/recentPurchases';
import { toNodeApiError } from '../../shared/n8n/errors';
import type { EmittedItem } from '../../shared/n8n/item';
import { outputIndexFor } from './outputs';
import type { ItemContext } from './request';

export interface EmitOptions {
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

export function emit(item: ItemContext, outcome: Outcome, options: EmitOptions): EmittedItem {
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
	const replayed = charged.charge === 'replayed';
	const taskId = body.taskId;
	const purchase =
		typeof taskId === 'string' && taskId && key
			? purchaseFactsNow(
					{ taskId, idempotencyKey: key, requestId, replayed },
					// a replay keeps the first purchase's time where the node knows it: its item, or this process
					replayed ? (purchaseFactsOf(item.ctx.getInputData()[item.itemIndex]?.json, taskId) ?? recentPurchase(item.service.credentialId, taskId)) : undefined,
				)
			: undefined;
	const facts = replayed ? { ...charged, boughtAt: purchase?.confirmedAt ?? null } : charged;
	const fields: IDataObject = { charge: charged.charge, replayed, message: chargeMessage(charged.charge, facts) };
	if (purchase) {
		rememberPurchase(item.service.credentialId, purchase);
		fields.purchase = purchase as unknown as IDataObject;
	}
	return fields;
}
