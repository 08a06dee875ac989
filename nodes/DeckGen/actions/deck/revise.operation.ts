import { updateDisplayOptions, type INodeProperties } from 'n8n-workflow';

import { deckPath, expectedCreditsField, readExpectedCredits, readOptions, readTaskId, spendOptions, taskIdField, optionsCollection } from '../common';
import type { Operation } from '../node.type';
import { sendMutation, type ItemContext } from '../send';

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
	optionsCollection(spendOptions),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['deck'], operation: ['revise'] } },
	properties,
);

/**
 * `POST /v1/decks/{taskId}/revisions` (our reading of an advertised tool the contract does not
 * detail): a new version of the deck. Past the included round it is bought (`buy_revision`); at
 * `max_versions` the service refuses with version_cap_reached (Client Action: start a new deck).
 */
export async function execute(item: ItemContext) {
	const { ctx, itemIndex } = item;
	const taskId = readTaskId(ctx, itemIndex);
	const instructions = String(ctx.getNodeParameter('instructions', itemIndex, '')).trim();
	return await sendMutation(item, {
		operation: 'deck.revise',
		path: deckPath(taskId, 'revisions'),
		json: { instructions, expected_credits: readExpectedCredits(ctx, itemIndex) },
		options: readOptions(ctx, itemIndex),
		decorate: (body) => ({ taskId, ...body }),
	});
}

export const revise: Operation = { description, execute, spends: true };
