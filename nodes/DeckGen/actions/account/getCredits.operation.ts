import { updateDisplayOptions, type INodeProperties } from 'n8n-workflow';

import { callOptions, readOptions, optionsCollection } from '../common';
import type { Operation } from '../node.type';
import { sendRead, type ItemContext } from '../send';

const properties: INodeProperties[] = [
	optionsCollection(callOptions),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['account'], operation: ['getCredits'] } },
	properties,
);

/** `GET /v1/credits`: the balance and who the key belongs to. Spends nothing. */
export async function execute(item: ItemContext) {
	return await sendRead(item, { path: '/v1/credits', retry: readOptions(item.ctx, item.itemIndex).retry });
}

export const getCredits: Operation = { description, execute, spends: false };
