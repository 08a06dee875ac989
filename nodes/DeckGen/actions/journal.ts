/**
 * Recover Purchase from a journal row (issue 44): every item it emits names the row it was read from
 * (`rowId`, the Data Table's row id) and its purchase's `idempotencyKey`, so the workflow can mark that
 * purchase's rows whatever came of it: a delivered deck (both ride along through Deck Generator Wait), a
 * refusal on Checkout or Client Action, an error item (`error.rowId`, `error.idempotencyKey`, set in
 * recover.operation.ts). The journal claims by the key, not the row id (issue 51: two executions of one
 * purchase that check the journal at the same instant write two rows, and one claim must take both). A
 * refusal says whether it proves the purchase never bought (`neverBought`, shared/charge.ts). Simplify keeps
 * a recovered deck's item as small as Create's, for the Check Once loop that waits on it.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { provesNeverBought } from '../../shared/charge';
import type { EmittedItem } from '../../shared/n8n/item';
import { simplifiedPurchase } from './deck/create.operation';
import { OUTPUT } from './outputs';

export const journalSimplifyOption: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: false,
	description:
		'Whether a recovered deck’s item keeps only what Create’s Simplify keeps (taskId, outcome and what it cost), its title, the journal row’s ID and the purchase’s Idempotency-Key instead of the whole answer and the message. Keeps the data n8n stores small when a Check Once loop waits on it. Refusals (Checkout, Client Action) are never simplified.',
};

/** What a simplified recovered deck keeps besides Create's: the deck's title and the row it was read from. */
const RECOVERED_EXTRA_FIELDS = ['title', 'rowId', 'idempotencyKey'] as const;

/** The row a recovered purchase was read from: its id, where it has one, and the purchase's key. */
export interface JournalRowRef {
	rowId?: number | string;
	idempotencyKey: string;
}

export function journalItem(emitted: EmittedItem, row: JournalRowRef, simplify: boolean): EmittedItem {
	const refused = emitted.output !== OUTPUT.success;
	const json: IDataObject = {
		...emitted.json,
		...(row.rowId === undefined ? {} : { rowId: row.rowId }),
		idempotencyKey: row.idempotencyKey,
		...(refused ? { neverBought: provesNeverBought(emitted.json) } : {}),
	};
	if (!simplify || refused || json.outcome !== 'success') return { ...emitted, json };
	return { ...emitted, json: simplifiedPurchase(json, RECOVERED_EXTRA_FIELDS) };
}
