import { updateDisplayOptions, type INodeProperties } from 'n8n-workflow';

import { expectedCreditsField, maxCreditsField, optionsCollection, spendOptions, taskIdField } from '../common';
import type { Operation } from '../node.type';
import { spendOnDeck, type ItemContext } from '../send';

const properties: INodeProperties[] = [
	taskIdField,
	expectedCreditsField,
	maxCreditsField,
	optionsCollection(spendOptions),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['deck'], operation: ['generateVideo'] } },
	properties,
);

/**
 * `POST /v1/decks/{taskId}/video` (or the credential's Generate Video Path): a video of the deck, behind a paywall that names itself by
 * `code` rather than `cta` (routed as top_up). Where the deployment has not shipped it yet the
 * service answers 501, reported as "not available yet" on Client Action, never retried.
 */
export async function execute(item: ItemContext) {
	return await spendOnDeck(item, 'deck.generateVideo', 'video', {});
}

export const generateVideo: Operation = { description, execute, spends: true };
