import { updateDisplayOptions, type INodeProperties } from 'n8n-workflow';

import { describeLinks, putDeckLinks } from '../../../shared/links';
import { judgeDeckStatus } from '../../../shared/n8n/deckStatus';
import { knownPurchase, notFoundGraceMsOf, notFoundGraceOption, readNotFound } from '../../../shared/n8n/justBought';
import { readingOptions, readReading, type ReadingSettings } from '../../../shared/n8n/reading';
import { stateFields } from '../../../shared/status';
import { statusRequest } from '../../../shared/transport';
import { callOptions, readOptions, readTaskId, taskIdField, optionsCollection } from '../common';
import type { Operation } from '../node.type';
import { sendRead, type ItemContext } from '../send';

const properties: INodeProperties[] = [
	taskIdField,
	optionsCollection([...callOptions, ...readingOptions, notFoundGraceOption]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['deck'], operation: ['getStatus'] } },
	properties,
);

/**
 * `GET /v1/decks/{taskId}/status`: every field the service returns, plus our `state`
 * (running | succeeded | failed | unknown) judged from the whole record (shared/status judgeStatus, with the
 * deck's file checked where only the file can say: `statusNote` where word and record disagree,
 * `failureReason` on a failure), `links` (every http(s) URL in the body with its path and what it is) and
 * `deckUrl` (the deck's file, on a completed deck only), `pageUrl` and `previewUrl` where the record has them.
 * A 404 of a deck whose purchase is known, within its grace, is a deck not visible yet: on Success, still running,
 * with `notVisibleYet` and a `statusNote`; after the grace, an error naming the purchase.
 */
export async function execute(item: ItemContext) {
	const taskId = readTaskId(item.ctx, item.itemIndex);
	const options = item.ctx.getNodeParameter('options', item.itemIndex, {}) as ReadingSettings & { notFoundGraceSeconds?: unknown };
	const reading = readReading(options);
	return await sendRead(item, {
		path: statusRequest(taskId).path,
		jobRecordOf: taskId,
		retry: readOptions(item.ctx, item.itemIndex).retry,
		// a deck just bought may not be visible yet (shared/purchaseFacts.ts)
		readFailure: (failure) =>
			readNotFound(item.ctx, item.itemIndex, taskId, failure, knownPurchase(item.ctx, item.itemIndex, taskId, item.service.credentialId), notFoundGraceMsOf(options)),
		decorate: async (body, httpStatus) => {
			const judgement = await judgeDeckStatus(item.ctx, item.service.baseUrl, taskId, { body, httpStatus }, reading, { itemIndex: item.itemIndex, credentialId: item.service.credentialId });
			const json: Record<string, unknown> = { taskId, ...stateFields(body, judgement) };
			// The service's own `links` / `deckUrl`, if it sends such members, stay as serviceLinks / serviceDeckUrl.
			putDeckLinks(json, describeLinks(judgement.links, judgement.deckUrl), body, 'service');
			return json;
		},
	});
}

export const getStatus: Operation = { description, execute, spends: false };
