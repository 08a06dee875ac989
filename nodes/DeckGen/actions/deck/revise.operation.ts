import { updateDisplayOptions, type INodeProperties } from 'n8n-workflow';

import { expectedCreditsField, maxCreditsField, optionsCollection, spendOptions, taskIdField } from '../common';
import type { Operation } from '../node.type';
import { spendOnDeck, type ItemContext } from '../send';

const properties: INodeProperties[] = [
	taskIdField,
	{
		displayName: 'Instructions',
		name: 'instructions',
		type: 'string',
		typeOptions: { rows: 4 },
		default: '',
		required: true,
		description: 'What to change in the deck',
	},
	{
		...expectedCreditsField,
		description:
			'The price you agreed to, in credits (the included revision round costs 0). The service refuses, and charges nothing, when the live price differs.',
	},
	maxCreditsField,
	optionsCollection(spendOptions),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['deck'], operation: ['revise'] } },
	properties,
);

/**
 * `POST /v1/decks/{taskId}/revisions` or the credential's Revise Path (our reading of an advertised
 * tool the contract does not detail): a new version of the deck. Past the included round it is bought (`buy_revision`); at
 * `max_versions` the service refuses with version_cap_reached (Client Action: start a new deck).
 */
export async function execute(item: ItemContext) {
	const instructions = String(item.ctx.getNodeParameter('instructions', item.itemIndex, '')).trim();
	return await spendOnDeck(item, 'deck.revise', 'revisions', { instructions }, { instructions: 'Instructions' });
}

export const revise: Operation = { description, execute, spends: true };
