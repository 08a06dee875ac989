import { NodeOperationError, updateDisplayOptions, type INodeProperties } from 'n8n-workflow';

import { expectedCreditsField, maxCreditsField, optionsCollection, readList, spendOptions, taskIdField } from '../common';
import type { Operation } from '../node.type';
import { spendOnDeck, type ItemContext } from '../send';

const properties: INodeProperties[] = [
	taskIdField,
	{
		displayName: 'Languages',
		name: 'languages',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'de, fr',
		description: 'Languages to add: comma-separated, or an expression returning an array',
	},
	expectedCreditsField,
	maxCreditsField,
	optionsCollection(spendOptions),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['deck'], operation: ['translate'] } },
	properties,
);

/**
 * `POST /v1/decks/{taskId}/translations` (or the credential's Translate Path): copies in more languages. Subscriber-only at launch
 * (`subscribe_for_translation`); a subscriber short of credits gets `translation_top_up`.
 */
export async function execute(item: ItemContext) {
	const { ctx, itemIndex } = item;
	const languages = readList(ctx, 'languages', itemIndex, 'Languages');
	if (!languages?.length) {
		throw new NodeOperationError(ctx.getNode(), 'Languages is empty', {
			itemIndex,
			description: 'Set "Languages" to one or more language codes, e.g. de, fr.',
		});
	}
	return await spendOnDeck(item, 'deck.translate', 'translations', { languages }, { languages: 'Languages' });
}

export const translate: Operation = { description, execute, spends: true };
