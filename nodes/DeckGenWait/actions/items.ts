/**
 * What each item of a batch looks like, in one place: the item of a deck's report (`itemFor`, with
 * why it failed), the item of an input without a task id, and Simplify.
 */
import type { IDataObject, INodeExecutionData, NodeOperationError } from 'n8n-workflow';

import { describeLinks, putDeckLinks } from '../../shared/links';
import { failureDescription, failureMessage } from '../../shared/n8n/errors';
import { errorJson } from '../../shared/n8n/item';
import { DEFAULT_MAX_WAIT_MS, type DeckReport, type DeckSpec } from '../../shared/poller';
import { goneAfterPurchase, notVisibleYetNote, spanInWords } from '../../shared/purchaseSentences';
import { recordSaid } from '../../shared/status';
import type { ServiceFailure } from '../../shared/problem';
import type { Placed, WaitOptions } from './node.type';

/**
 * Check Once's bound (issue 45): since when the item's deck has been waited for, and for how long it may be.
 * From its purchase (the item's `purchase`, from Create), else the item's own `waitingSince` (an earlier check of
 * this deck set it), else now: the checks of a loop are separate runs, so the item carries it.
 */
export interface LoopBound {
	waitingSince: string;
	from: 'purchase' | 'first check';
	maxWaitMs: number;
	checkedAt: number;
}

export function loopBound(input: IDataObject, spec: DeckSpec, options: WaitOptions, checkedAt: number): LoopBound {
	const maxWaitMs = options.maxWaitMinutes !== undefined ? options.maxWaitMinutes * 60_000 : DEFAULT_MAX_WAIT_MS;
	// a replay whose purchase time is not known counts from its first check, as an item without a purchase
	if (spec.purchase?.confirmedAt) return { waitingSince: spec.purchase.confirmedAt, from: 'purchase', maxWaitMs, checkedAt };
	const carried = input.taskId === spec.taskId && typeof input.waitingSince === 'string' && !Number.isNaN(Date.parse(input.waitingSince)) ? input.waitingSince : undefined;
	if (carried) return { waitingSince: carried, from: 'first check', maxWaitMs, checkedAt };
	return { waitingSince: new Date(checkedAt).toISOString(), from: 'first check', maxWaitMs, checkedAt };
}

/** A still-running deck past its loop's bound: said in its note, and `pastMaxWait` for the IF that ends the loop. */
function pastBoundNote(bound: LoopBound, waitedMs: number): string {
	const since = bound.from === 'purchase' ? 'its purchase was confirmed' : 'it was first checked';
	return `Still running ${spanInWords(waitedMs)} after ${since} (${bound.waitingSince}), past Max Wait (${spanInWords(bound.maxWaitMs)}): pastMaxWait is true, so a loop can end here. The deck may still finish; Get Status with its taskId tells later, at no cost.`;
}
import { OUTPUT_OF } from './outputs';

/**
 * An input without a task id: the package's error item (as runner.ts). n8n keeps this JSON as it
 * is, and moves it to the error output when On Error is "continue (using error output)".
 */
export function missingTaskIdItem(error: NodeOperationError & { field: string }, index: number): INodeExecutionData {
	return {
		json: errorJson(error.message, error.description, { outcome: 'failed', code: 'missing_task_id', field: error.field }),
		pairedItem: { item: index },
	};
}

export function itemFor(
	input: INodeExecutionData,
	index: number,
	report: DeckReport,
	body: Record<string, unknown> | undefined,
	bound?: LoopBound,
): INodeExecutionData {
	// the links the judgement found (root-relative ones resolved on the service), and the deck's file it handed over
	const found = body && report.judgement ? describeLinks(report.judgement.links, report.judgement.deckUrl) : undefined;
	const waitedMs = bound ? bound.checkedAt - Date.parse(bound.waitingSince) : 0;
	const pastMaxWait = !!bound && report.outcome === 'still_running' && waitedMs >= bound.maxWaitMs;
	// where word and record disagree (the failure reason itself is the Failed item's `detail`), a deck just bought not
	// visible yet, and a loop's bound passed
	const notes = [
		report.notFound?.withinGrace && report.outcome === 'still_running' ? notVisibleYetNote(report.taskId, report.notFound) : report.judgement?.note,
		pastMaxWait && bound ? pastBoundNote(bound, waitedMs) : undefined,
	].filter(Boolean);
	const ours: IDataObject = {
		outcome: report.outcome,
		taskId: report.taskId,
		state: report.state,
		...(found?.deckUrl ? { deckUrl: found.deckUrl } : {}),
		status: report.status ?? null,
		...(notes.length ? { statusNote: notes.join(' ') } : {}),
		// what the loop's next check and its IF read (a finished deck leaves the loop: it needs neither); counted from
		// the purchase, the item's own purchase says since when
		...(bound && report.outcome === 'still_running' ? { ...(bound.from === 'purchase' ? {} : { waitingSince: bound.waitingSince }), pastMaxWait } : {}),
		// a failure word with no reason, for the loop's next check to confirm (issue 50)
		...(report.outcome === 'still_running' && report.judgement?.failureToConfirm !== undefined ? { failureToConfirm: report.judgement.failureToConfirm } : {}),
		elapsedSeconds: Math.round(report.elapsedMs / 100) / 10,
		polls: report.polls,
		...(found ? { links: found.links as unknown as IDataObject[] } : {}),
		statusBody: (body as IDataObject | undefined) ?? null,
	};
	// The node's own fields lead the item (what happened, to which deck), the input's follow; ours win.
	const json: IDataObject = { ...ours, ...input.json, ...ours };
	// the check before's failure to confirm is this check's to carry on, or to drop
	if (ours.failureToConfirm === undefined) delete json.failureToConfirm;
	// The input item's own `links` / `deckUrl` stay as inputLinks / inputDeckUrl, the service's as serviceLinks / serviceDeckUrl.
	if (found && body) {
		putDeckLinks(json, found, input.json, 'input');
		putDeckLinks(json, found, body, 'service');
	}
	if (report.requestId) json.requestId = report.requestId;
	if (report.outcome === 'failed' && report.notFound && report.failure) Object.assign(json, serviceFailureFields(report.taskId, report.failure), goneFields(report));
	else if (report.outcome === 'failed') Object.assign(json, report.failure ? serviceFailureFields(report.taskId, report.failure) : deckFailureFields(report));
	else if (report.failure) json.lastError = serviceFailureFields(report.taskId, report.failure);
	return { json, binary: input.binary, pairedItem: { item: index } };
}

/**
 * What a simplified item keeps, in this order: the deck, its link, the file, why it failed or was not
 * read, and the purchase journal's row it came from (Recover Purchase's `rowId`: issue 44) and its
 * purchase's key (`idempotencyKey`, by which the journal claims it: issue 51).
 */
const SIMPLE_FIELDS = [
	'taskId', 'status', 'state', 'statusNote', 'outcome', 'deckUrl',
	// what a Check Once loop needs from one check to the next: the purchase (the 404 grace) and the bound
	'purchase', 'waitingSince', 'pastMaxWait', 'failureToConfirm',
	'fileName', 'mimeType', 'fileSize', 'downloadError',
	'error', 'detail', 'code', 'httpCode', 'reason', 'description', 'requestId', 'lastError',
	'rowId', 'idempotencyKey',
] as const;

/** Repeated by the binary's own metadata when the file is attached. */
const FILE_METADATA_FIELDS = new Set<string>(['fileName', 'mimeType', 'fileSize']);

/**
 * Simplify: each item keeps SIMPLE_FIELDS only (after the download, which may read `links`). A
 * Completed item's requestId goes too: only a failure needs it for support.
 */
export function simplifyItems(optionsOf: (index: number) => WaitOptions, placed: Placed): void {
	placed.forEach((entry, index) => {
		// an item that never had a task id is the package's error item ({error, message}): left whole
		if (!entry || entry.item.json.taskId === undefined || optionsOf(index).simplify !== true) return;
		const full = entry.item.json;
		const keep = entry.output === OUTPUT_OF.failed || full.lastError !== undefined;
		const json: IDataObject = {};
		const fileAttached = Object.keys(entry.item.binary ?? {}).length > 0;
		for (const field of SIMPLE_FIELDS) {
			if (full[field] === undefined || (field === 'requestId' && !keep)) continue;
			// the purchase's key rides along only for a journal's row (its claim goes by the key), not on every purchase
			if (field === 'idempotencyKey' && full.rowId === undefined) continue;
			// the attached file's metadata already says them, in every saved execution too
			if (fileAttached && FILE_METADATA_FIELDS.has(field)) continue;
			json[field] = full[field];
		}
		entry.item.json = json;
	});
}

/** A deck bought here that the service still does not show after the grace: its purchase named, and what to do. */
function goneFields(report: DeckReport): IDataObject {
	const { message, description } = goneAfterPurchase(report.taskId, report.notFound!);
	return { error: message, description, purchase: report.notFound!.purchase as unknown as IDataObject };
}

/** The service refused the read (404, 401, 403, ...): its own words, code and request id. */
function serviceFailureFields(taskId: string, failure: ServiceFailure): IDataObject {
	const fields: IDataObject = {
		error: `Deck ${taskId}: ${failureMessage(failure)}`,
		detail: failure.detail,
		code: failure.code,
		httpCode: failure.status,
	};
	if (failure.reason) fields.reason = failure.reason;
	const description = failureDescription(failure);
	if (description) fields.description = description;
	if (failure.requestId) fields.requestId = failure.requestId;
	return fields;
}

/**
 * The deck itself ended failed: say so with the failure reason of its record (judgeStatus, which also
 * reads a status message, never an envelope's "Success" about the request).
 */
function deckFailureFields(report: DeckReport): IDataObject {
	const explained = report.judgement?.failureReason || undefined;
	const said = recordSaid(report.judgement ?? { word: report.status });
	return {
		error: `Deck ${report.taskId} failed (${said})${explained ? `: ${explained}` : ''}`,
		detail: explained ?? (report.status ? `The service reported the status "${report.status}"` : `The record says the deck failed (${said})`),
		...(explained ? { failureReason: explained } : {}),
		code: report.judgement?.failureCode ?? 'deck_failed',
	};
}
