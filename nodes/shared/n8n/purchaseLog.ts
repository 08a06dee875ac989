/**
 * Where a purchase is written before it is sent, so that it survives whatever n8n does to the
 * execution (issue 33; the record and its line: ../purchaseRecord.ts):
 *
 * - n8n's log, one line at info (n8n's default level), in every mode: the only place that holds a
 *   purchase whose worker died while it was in flight (nothing of the execution is saved then).
 * - The execution's custom data (`this.customData`), one entry per node naming its run's purchases
 *   (title, Idempotency-Key, taskId once answered). n8n saves it with the execution (at a wait, at
 *   the end, with progress saving after each node) into its own table, which queue mode's stalled-job
 *   handling does not touch when it replaces the execution's data with the error (docs/at-scale.md).
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { CHARGE_LOG, type Charge } from '../charge';
import { MAY_HAVE_BEEN_BOUGHT, type KeySlot, type PurchaseResult } from '../idempotency';
import { purchaseLogLine, purchaseRecord, titleOf, type PurchaseOrigin, type PurchaseRecord, type PurchaseRequest } from '../purchaseRecord';

/** n8n keeps a custom data value up to 512 characters (n8n-core `setWorkflowExecutionMetadata`). */
const CUSTOM_DATA_VALUE_MAX = 512;
const TITLE_MAX = 60;

/** The custom data key of a node: n8n allows letters, digits and underscores, up to 50 characters. */
export function customDataKeyFor(nodeName: string): string {
	return `deckgen_${nodeName.replace(/[^\p{L}\p{N}\p{M}_]/gu, '_')}`.slice(0, 50);
}

/** A purchase as the custom data names it; `shownKey` and `title` as masked for the log line. */
type Noted = { shownKey: string; title?: string; state: 'sending' | 'bought' | 'unanswered'; taskId?: string };

/** Each node run's purchases (n8n gives every node run its own context object). */
const notedByRun = new WeakMap<IExecuteFunctions, Map<string /* key */, Noted>>();

function describe(noted: Noted): string {
	const title = noted.title ? JSON.stringify(noted.title.length > TITLE_MAX ? `${noted.title.slice(0, TITLE_MAX)}…` : noted.title) : '(no title)';
	const where =
		noted.state === 'bought'
			? `taskId ${noted.taskId ?? '(none in the answer)'}`
			: noted.state === 'unanswered'
				? 'no definite answer: may have been bought'
				: 'sent, no answer yet';
	return `${title} (Idempotency-Key ${noted.shownKey}): ${where}`;
}

function writeCustomData(ctx: IExecuteFunctions, noted: Map<string, Noted>): void {
	const entries = [...noted.values()].map(describe);
	let value = entries.length ? entries.join(' | ') : 'nothing bought';
	for (let shown = entries.length - 1; value.length > CUSTOM_DATA_VALUE_MAX && shown > 0; shown--) {
		value = `${entries.slice(0, shown).join(' | ')} | and ${entries.length - shown} more in n8n's log`;
	}
	try {
		ctx.customData.set(customDataKeyFor(ctx.getNode().name), value.slice(0, CUSTOM_DATA_VALUE_MAX));
	} catch {
		// No execution data to write to (an AI tool's call), or n8n refused the value: the log line stands.
	}
}

function note(ctx: IExecuteFunctions, key: string, update: Noted): void {
	let noted = notedByRun.get(ctx);
	if (!noted) notedByRun.set(ctx, (noted = new Map()));
	if (noted.get(key)?.state === 'bought' && update.state !== 'bought') return;
	noted.set(key, update);
	writeCustomData(ctx, noted);
}

/** The record of a purchase this node run sends (or records without sending: issue 44), where it is made. */
export function purchaseRecordOf(ctx: IExecuteFunctions, request: PurchaseRequest, origin: Omit<PurchaseOrigin, 'workflowId' | 'executionId' | 'node'>): PurchaseRecord {
	return purchaseRecord(request, {
		...origin,
		workflowId: String(ctx.getWorkflow().id ?? ''),
		executionId: String(ctx.getExecutionId() ?? ''),
		node: ctx.getNode().name,
	});
}

/**
 * Before a spending request is sent: the log line with the whole record (the key masked out, should
 * the brief quote it), and the execution's custom data.
 */
export function announcePurchase(ctx: IExecuteFunctions, request: PurchaseRequest, origin: Omit<PurchaseOrigin, 'workflowId' | 'executionId' | 'node'>, mask: (text: string) => string): void {
	const record = purchaseRecordOf(ctx, request, origin);
	const title = titleOf(request.body);
	ctx.logger.info(mask(purchaseLogLine(record)), {
		workflowId: record.workflowId,
		executionId: record.executionId,
		node: record.node,
		operation: record.operation,
		itemIndex: record.item,
		idempotencyKey: mask(record.idempotencyKey),
		...(title ? { title: mask(title) } : {}),
	});
	note(ctx, request.idempotencyKey, { shownKey: mask(request.idempotencyKey), title: title && mask(title), state: 'sending' });
}

/**
 * After the answer: the custom data says what came of it. A refusal, or a request the service
 * cannot have committed, bought nothing: forgotten.
 */
export function notePurchaseResult(ctx: IExecuteFunctions, key: string, result: PurchaseResult): void {
	const noted = notedByRun.get(ctx);
	const known = noted?.get(key);
	if (!noted || !known) return;
	if (result.kind === 'bought') note(ctx, key, { ...known, state: 'bought', taskId: result.taskId });
	else if (result.kind === 'unanswered') note(ctx, key, { ...known, state: 'unanswered' });
	else if (known.state === 'sending') {
		noted.delete(key);
		writeCustomData(ctx, noted);
	}
}

/**
 * What came of every purchase goes to n8n's log when its answer is in (the line written before it
 * was sent is above), so that an administrator can find the decks after
 * any crash, whatever the execution saved. Never the API key: only ids n8n and the service gave,
 * and the idempotency key (which replays, never buys).
 */
export function logPurchase(ctx: IExecuteFunctions, slot: KeySlot, key: string, purchase: PurchaseResult, charge: Charge | undefined, mask: (text: string) => string): void {
	if (purchase.kind !== 'bought' && purchase.kind !== 'unanswered') return;
	const meta = {
		workflowId: ctx.getWorkflow().id ?? '',
		executionId: ctx.getExecutionId(),
		node: ctx.getNode().name,
		operation: slot.operation,
		itemIndex: slot.itemIndex,
		runIndex: slot.runIndex,
		idempotencyKey: mask(key),
	};
	// In the message itself: n8n's default console format prints the message alone.
	const where = `(Idempotency-Key ${mask(key)}; workflow ${meta.workflowId || '(unsaved)'}, execution ${meta.executionId}, node ${JSON.stringify(meta.node)}, item ${slot.itemIndex})`;
	if (purchase.kind === 'bought') {
		const said = charge && charge !== 'none' ? charge : 'charged';
		ctx.logger.info(`Deck Generator: ${CHARGE_LOG[said]}, taskId ${purchase.taskId ?? '(none in the answer)'} ${where}`, {
			...meta,
			taskId: purchase.taskId,
			charge: said,
			replayed: said === 'replayed',
		});
	} else {
		ctx.logger.warn(`Deck Generator: purchase sent without a definite answer: it ${MAY_HAVE_BEEN_BOUGHT} ${where}`, meta);
	}
}
