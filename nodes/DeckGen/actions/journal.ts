/**
 * Recover Purchase from a journal row (issue 44): every item it emits names the row it was read from
 * (`rowId`, the Data Table's row id), so the workflow can mark that row whatever came of it: a
 * delivered deck (the id rides along through Deck Generator Wait), a refusal on Checkout or Client
 * Action, an error item (`error.rowId`, set in recover.operation.ts). Simplify keeps a recovered
 * deck's item as small as Create's, for the Check Once loop that waits on it.
 */
import type { INodeProperties } from 'n8n-workflow';

import type { EmittedItem } from '../../shared/n8n/item';
import { simplifiedPurchase } from './deck/create.operation';
import { OUTPUT } from './outputs';

export const journalSimplifyOption: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: false,
	description:
		'Whether a recovered deck’s item keeps only what Create’s Simplify keeps (taskId, outcome and what it cost), its title and the journal row’s ID instead of the whole answer and the message. Keeps the data n8n stores small when a Check Once loop waits on it. Refusals (Checkout, Client Action) are never simplified.',
};

/** What a simplified recovered deck keeps besides Create's: the deck's title and the row it was read from. */
const RECOVERED_EXTRA_FIELDS = ['title', 'rowId'] as const;

export function journalItem(emitted: EmittedItem, rowId: number | string | undefined, simplify: boolean): EmittedItem {
	const json = rowId === undefined ? emitted.json : { ...emitted.json, rowId };
	if (!simplify || emitted.output !== OUTPUT.success || json.outcome !== 'success') return { ...emitted, json };
	return { ...emitted, json: simplifiedPurchase(json, RECOVERED_EXTRA_FIELDS) };
}
