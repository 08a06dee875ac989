import { updateDisplayOptions, type INodeProperties } from 'n8n-workflow';

import { deckLinks, putDeckLinks } from '../../../shared/links';
import { readStatusWords, statusWordOptions, type StatusWordSettings } from '../../../shared/n8n/statusWords';
import { hintOnce } from '../../../shared/n8n/hints';
import { unknownWordHint, withState } from '../../../shared/status';
import { deckPath } from '../../../shared/transport';
import { callOptions, readOptions, readTaskId, taskIdField, optionsCollection } from '../common';
import type { Operation } from '../node.type';
import { sendRead, type ItemContext } from '../send';

const properties: INodeProperties[] = [
	taskIdField,
	optionsCollection([...callOptions, ...statusWordOptions]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['deck'], operation: ['getStatus'] } },
	properties,
);

/**
 * `GET /v1/decks/{taskId}/status`: every field the service returns, plus our `state`
 * (running | succeeded | failed | unknown) judged from the whole record (shared/status.ts
 * judgeStatus: `statusNote` where word and record disagree, `failureReason` on a failure), `links`
 * (every http(s) URL in the body with its path) and `deckUrl` (the most likely deck file).
 */
export async function execute(item: ItemContext) {
	const taskId = readTaskId(item.ctx, item.itemIndex);
	const words = readStatusWords(item.ctx.getNodeParameter('options', item.itemIndex, {}) as StatusWordSettings);
	const statusUrl = `${item.service.baseUrl}${deckPath(taskId, 'status')}`;
	return await sendRead(item, {
		path: deckPath(taskId, 'status'),
		retry: readOptions(item.ctx, item.itemIndex).retry,
		decorate: (body, httpStatus) => {
			const { fields, judgement } = withState(body, { words, resolveAgainst: statusUrl, httpStatus });
			const json: Record<string, unknown> = { taskId, ...fields };
			// a word on no list is said in the output pane too, with the list that settles it
			if (judgement.state === 'unknown' && judgement.wordState === 'unknown' && judgement.word !== undefined) {
				hintOnce(item.ctx, { message: unknownWordHint(judgement.word, 1), type: 'warning', location: 'outputPane' });
			}
			// The service's own `links` / `deckUrl`, if it sends such members, stay as serviceLinks / serviceDeckUrl.
			putDeckLinks(json, deckLinks(body, statusUrl), body, 'service');
			return json;
		},
	});
}

export const getStatus: Operation = { description, execute, spends: false };
