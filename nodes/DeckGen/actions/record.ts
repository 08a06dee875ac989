/**
 * Record Without Sending (issue 44): a spending item's purchase, written down instead of sent.
 *
 * A community node cannot write anything durable before a purchase: n8n 2.41 serves its data-table
 * proxy to its own Data Table nodes only, and an execution's custom and static data reach the
 * database only when the main saves the execution. So the workflow writes the purchase itself: the
 * node outputs the record it would send (the path, the Idempotency-Key a send derives, the body as
 * the very bytes sent, and the check), shaped as the journal's row; n8n's Data Table node inserts it;
 * Recover Purchase sends it from the row. Every later send of the row is a replay.
 */
import { NodeOperationError, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';

import { canonicalJson } from '../../shared/idempotency';
import { journalRow } from '../../shared/purchaseRecord';
import { purchaseRecordOf } from '../../shared/n8n/purchaseLog';
import type { EmittedItem } from '../../shared/n8n/item';
import { purchaseKey } from './keyedSend';
import type { ItemContext, MutationRequest } from './request';

export interface RecordedRequest {
	operation: string;
	path: string;
	/** The body as a send would put it on the wire (canonical JSON); none for a multipart upload. */
	bytes?: Buffer;
	idempotencyKey: string;
	maxCredits?: number;
}

/** The journal's row for this item (output Success, `outcome: "recorded"`); nothing is sent. */
export function recordedItem(ctx: IExecuteFunctions, itemIndex: number, request: RecordedRequest): EmittedItem {
	if (!request.bytes) {
		throw new NodeOperationError(ctx.getNode(), 'Record Without Sending applies to a purchase with a JSON body; nothing was sent', { itemIndex });
	}
	if (request.maxCredits) {
		// A recorded purchase is sent exactly as recorded, by whichever run sends it: a price re-sent within
		// Max Credits would be a second request nobody wrote down.
		throw new NodeOperationError(ctx.getNode(), 'Record Without Sending records one price: Max Credits cannot apply; nothing was sent', {
			itemIndex,
			description:
				'A recorded purchase is sent exactly as it was written down, so a changed price cannot be re-sent from it (it goes to Client Action, nothing charged). Set Expected Credits to your price and Max Credits to 0.',
		});
	}
	const body = JSON.parse(request.bytes.toString('utf8')) as Record<string, unknown>;
	const record = purchaseRecordOf(ctx, { method: 'POST', path: request.path, idempotencyKey: request.idempotencyKey, body }, { operation: request.operation, item: itemIndex });
	return { output: 0, json: journalRow(record) as unknown as IDataObject };
}

/**
 * Record Without Sending (issue 44): the purchase this item would send, as the journal's row, with the
 * key and the bytes a send would use (./keyedSend.ts purchaseKey), shaped by recordedItem above. Nothing is sent.
 */
export function recordWithoutSending(item: ItemContext, request: MutationRequest, origin: string): EmittedItem {
	const bytes = request.json ? Buffer.from(canonicalJson(request.json)) : undefined;
	const key = bytes ? purchaseKey(item, request, request.json, bytes, origin) : '';
	return recordedItem(item.ctx, item.itemIndex, { operation: request.operation, path: request.path, bytes, idempotencyKey: key, maxCredits: request.options.maxCredits });
}
