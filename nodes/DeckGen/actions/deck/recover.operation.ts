import { NodeOperationError, updateDisplayOptions, type INodeProperties, type NodeError } from 'n8n-workflow';

import { provesNeverBought } from '../../../shared/charge';
import { callOptions, optionsCollection, readOptions } from '../common';
import { CancelledError } from '../../../shared/client';
import type { EmittedItem } from '../../../shared/n8n/item';
import { PURCHASE_MARKER, readJournalRow, readLoggedPurchase, titleOf, type JournalReading, type PurchaseRecord } from '../../../shared/purchaseRecord';
import { journalItem, journalSimplifyOption } from '../journal';
import type { Operation } from '../node.type';
import { sendMutation, type ItemContext } from '../send';

/**
 * Recover Purchase (issue 33): a purchase n8n lost the execution of, sent again exactly as n8n's log
 * recorded it before it was first sent (../../../shared/purchaseRecord.ts): the same path, the same
 * Idempotency-Key, the byte-identical body. The service replays it and answers with its taskId;
 * nothing is charged. If the first request never reached the service, this buys the deck now, for
 * the first time, and once: the key makes every further try a replay.
 */
const properties: INodeProperties[] = [
	{
		displayName:
			'Sends, byte for byte, a purchase recorded before it was sent: a line n8n logged ("Deck Generator: sending purchase …") or a purchase journal’s row (Record Without Sending). The service replays it: you get the deck’s taskId and pay nothing. Only if it never received the purchase does this buy it, now and once.',
		name: 'recoverNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Purchase From',
		name: 'purchaseFrom',
		type: 'options',
		options: [
			{
				name: 'Journal Row (Input Item)',
				value: 'row',
				description:
					'The input item is a row of a purchase journal (n8n’s Data Table) that Record Without Sending wrote: its columns are the record. No expression to run.',
			},
			{
				name: 'Logged Line',
				value: 'line',
				description: 'The line n8n logged before the purchase was sent, pasted or from an expression',
			},
		],
		default: 'line',
	},
	{
		displayName: 'Logged Purchase',
		name: 'loggedPurchase',
		type: 'string',
		typeOptions: { rows: 4 },
		default: '',
		required: true,
		placeholder: `Deck Generator: sending purchase "Q3 review" with Idempotency-Key … ${PURCHASE_MARKER} {…}`,
		description:
			'The whole line n8n’s log has for the purchase, copied unchanged (as n8n prints it, or the whole JSON record when n8n logs JSON). One purchase per item. A line changed after it was logged is refused before anything is sent.',
		displayOptions: { show: { purchaseFrom: ['line'] } },
	},
	optionsCollection([...callOptions, journalSimplifyOption]),
];

export const description = updateDisplayOptions({ show: { resource: ['deck'], operation: ['recover'] } }, properties);

const where = (record: PurchaseRecord) =>
	`execution ${record.executionId || '(unknown)'} of workflow ${record.workflowId || '(unsaved)'}, node ${JSON.stringify(record.node)}, item ${record.item}`;

/**
 * The one line a person reads on a recovered item: what the service did to the credits (shared/charge.ts), told
 * of the logged purchase. A service that marks no replays answers one like a new purchase: said where it matters.
 */
function recoveredMessage(record: PurchaseRecord, charge: unknown): string {
	switch (charge) {
		case 'replayed':
			return `The service replayed the purchase of ${where(record)}: this is that deck. It was charged when first sent; nothing was charged now.`;
		case 'charged_or_replayed':
			return (
				`The service holds the purchase of ${where(record)}: this is that deck, charged once. This recovery's first attempt got no answer and the retry was answered as a replay, ` +
				`so it was charged either when first sent or by that lost attempt (if the first request never reached the service); not twice.`
			);
		default:
			return (
				`The service answered the purchase of ${where(record)} as a new one: it had not received it then, so it was bought now, for the first time, and charged. ` +
				`(A service that does not mark its replays answers every replay this way; then it was charged when first sent and not now.) Sending the same line again never buys twice.`
			);
	}
}

/**
 * The error as it came, and, for a 409 idempotency_key_reused, why a whole and unchanged line can
 * meet it and what to do. Any other error (a 422 naming fields, a 401, retries exhausted) says
 * what fixes it already.
 */
function explained(error: NodeError, record: PurchaseRecord): NodeError {
	if (!String(error.context?.reason ?? '').includes('idempotency_key_reused')) return error;
	error.message = `The service holds another request under Idempotency-Key ${record.idempotencyKey}: nothing was bought`;
	error.description =
		`The logged line is whole and unchanged, but the service stored a different body under its key: the same purchase was bought at another price ` +
		`(every price of one purchase goes out under one key; the price was re-sent within Max Credits), or an Idempotency Key of yours was given to two different requests. ` +
		`Look in the log for the other line with this Idempotency-Key (the one at the price it was bought, usually logged right after this one) and recover that one: it replays the deck without a charge. ${error.description ?? ''}`.trim();
	return error;
}

export async function execute(item: ItemContext) {
	const { ctx, itemIndex } = item;
	const fromRow = ctx.getNodeParameter('purchaseFrom', itemIndex, 'line') === 'row';
	const reading: JournalReading = fromRow ? readJournalRow(ctx.getInputData()[itemIndex]?.json) : readLoggedPurchase(ctx.getNodeParameter('loggedPurchase', itemIndex, '') as unknown);
	const { rowId } = reading;
	if (!reading.ok) {
		// the key as the row holds it, edited or not: the workflow marks the row by it
		const rowKey = fromRow ? (ctx.getInputData()[itemIndex]?.json as { idempotencyKey?: unknown } | undefined)?.idempotencyKey : undefined;
		throw withRow(new NodeOperationError(ctx.getNode(), reading.message, { itemIndex, description: reading.description }), rowId, typeof rowKey === 'string' && rowKey ? rowKey : undefined, false);
	}
	const row = { rowId, idempotencyKey: reading.record.idempotencyKey };
	try {
		return journalItem(await recovered(item, reading.record), row, ctx.getNodeParameter('options.simplify', itemIndex, false) === true);
	} catch (error) {
		throw withRow(error as NodeError, rowId, reading.record.idempotencyKey, true);
	}
}

/**
 * The row a failed send was read from, on the error item too (`error.rowId`, and `error.idempotencyKey`: the
 * purchase's, or the row's own where the record could not be read), and whether the answer proves the purchase never bought
 * (`error.neverBought`, shared/charge.ts): a journal marks the purchase's rows by it (docs/at-scale.md). A row
 * that could not be read (edited, cut) was sent by nobody now, but may have been by its first run: not proof.
 * A key the service holds with another body is said of the row, not of a logged line.
 */
function withRow(error: NodeError, rowId: number | string | undefined, idempotencyKey: string | undefined, sent: boolean): NodeError {
	// a cancellation (or anything that is not n8n's error) goes on as it is: the runner knows it by its class
	if (!(error instanceof Error) || typeof (error as Partial<NodeError>).context !== 'object' || error instanceof CancelledError) return error;
	error.context.neverBought = sent && provesNeverBought(error.context);
	if (idempotencyKey !== undefined) error.context.idempotencyKey = idempotencyKey;
	if (rowId === undefined) return error;
	error.context.rowId = rowId;
	if (String(error.context?.reason ?? '').includes('idempotency_key_reused')) {
		error.description =
			`Journal row ${rowId} is whole and unchanged, but the service stored a different body under its Idempotency-Key: another purchase used the same key, ` +
			`and this row's purchase was not bought under it. The row cannot be sent as it is: mark it refused.`;
	}
	return error;
}

async function recovered(item: ItemContext, record: PurchaseRecord): Promise<EmittedItem> {
	const { ctx, itemIndex } = item;
	const { retry, concurrency } = readOptions(ctx, itemIndex);
	const title = titleOf(record.body);
	let emitted: EmittedItem;
	try {
		emitted = await sendMutation(item, {
			operation: record.operation,
			path: record.path,
			json: record.body,
			// The logged key, and no re-send at another price: a recovery never changes the request.
			options: { idempotencyKey: record.idempotencyKey, retry, concurrency },
			requiredMember: record.operation === 'deck.create' ? 'taskId' : undefined,
			asRecorded: true,
		});
	} catch (error) {
		throw explained(error as NodeError, record);
	}
	if (emitted.json.outcome !== 'success') return emitted;
	return {
		...emitted,
		json: {
			...emitted.json,
			...(title ? { title } : {}),
			recoveredFrom: { workflowId: record.workflowId, executionId: record.executionId, node: record.node, item: record.item },
			message: recoveredMessage(record, emitted.json.charge),
		},
	};
}

export const recover: Operation = { description, execute, spends: true };
