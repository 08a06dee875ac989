import { updateDisplayOptions, type INodeProperties } from 'n8n-workflow';

import { deckLinks, putDeckLinks } from '../../../shared/links';
import { withState } from '../../../shared/status';
import { deckPath } from '../../../shared/transport';
import { callOptions, readOptions, readTaskId, taskIdField, optionsCollection } from '../common';
import type { Operation } from '../node.type';
import { sendRead, type ItemContext } from '../send';

const properties: INodeProperties[] = [
	taskIdField,
	optionsCollection(callOptions),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['deck'], operation: ['getStatus'] } },
	properties,
);

/**
 * `GET /v1/decks/{taskId}/status`: every field the service returns, plus our `state`
 * (running | succeeded | failed | unknown) from the default status map, `links` (every http(s)
 * URL in the body with its path) and `deckUrl` (the most likely deck file).
 */
export async function execute(item: ItemContext) {
	const taskId = readTaskId(item.ctx, item.itemIndex);
	return await sendRead(item, {
		path: deckPath(taskId, 'status'),
		retry: readOptions(item.ctx, item.itemIndex).retry,
		decorate: (body) => {
			const json: Record<string, unknown> = { taskId, ...withState(body) };
			// The service's own `links` / `deckUrl`, if it sends such members, stay as serviceLinks / serviceDeckUrl.
			putDeckLinks(json, deckLinks(body, `${item.service.baseUrl}${deckPath(taskId, 'status')}`), body, 'service');
			return json;
		},
	});
}

export const getStatus: Operation = { description, execute, spends: false };
