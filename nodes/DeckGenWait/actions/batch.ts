/**
 * The node's execute, one batch. Every item's task id is read first (a bad item fails fast, not
 * after an hour), its mode (a typed lookup, as the main node's router) says what the poller should
 * do with it, one poller run waits for all of them, and each report becomes an item on its output:
 * shaped (items.ts), its file downloaded (download.ts), simplified, or answered to a model.
 */
import { NodeOperationError, type IExecuteFunctions, type INodeExecutionData } from 'n8n-workflow';

import { CancelledError } from '../../shared/client';
import { errorJson } from '../../shared/n8n/item';
import { isToolCall } from '../../shared/n8n/runner';
import { CREDENTIAL_REFUSED, isLoopback, serviceOrRefusal } from '../../shared/n8n/service';
import { checkDeckFile } from '../../shared/n8n/download';
import { addReadingHints, failureToConfirmOf, statusUrlOf } from '../../shared/n8n/deckStatus';
import { knownPurchase, notFoundGraceMsOf } from '../../shared/n8n/justBought';
import { readReading } from '../../shared/n8n/reading';
import { waitToolAnswer } from '../../shared/n8n/tool';
import { pollDecks, type DeckReport } from '../../shared/poller';
import { statusRequest } from '../../shared/transport';
import { noteUnconfirmedFailure } from '../../shared/unconfirmedFailures';
import { checkOnce } from './checkOnce.mode';
import { downloadCompleted } from './download';
import { itemFor, loopBound, missingTaskIdItem, simplifyItems } from './items';
import type { Mode, Placed, WaitMode, WaitOptions, Waiting } from './node.type';
import { OUTPUT_NAMES, OUTPUT_OF } from './outputs';
import { readTaskId, toolTaskId } from './taskId';
import { waitUntilDone } from './waitUntilDone.mode';

export const modes: Record<Mode, WaitMode> = { waitUntilDone, checkOnce };

export async function batch(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const node = this.getNode();
	// As an AI tool only output 0 reaches the model; `outcome` says what happened.
	const singleOutput = isToolCall(this);
	const found = await serviceOrRefusal(this, singleOutput || this.continueOnFail());
	if ('refusal' in found) {
		// A credential that cannot be used: every item on Failed as an error item (as one without a task id).
		const { message, description } = found.refusal;
		const refused: INodeExecutionData[][] = OUTPUT_NAMES.map(() => []);
		refused[singleOutput ? 0 : OUTPUT_OF.failed] = items.map((_item, index) => {
			const json = errorJson(message, description, { outcome: 'failed', code: CREDENTIAL_REFUSED });
			return { json: singleOutput ? waitToolAnswer(node, json, '') : json, pairedItem: { item: index } };
		});
		return refused;
	}
	const { service } = found;
	const loopback = isLoopback(service.baseUrl);

	const placed: Placed = new Array(items.length);
	const waiting: Waiting[] = [];

	// Every item is checked before any waiting starts: a bad item fails fast, not after an hour.
	for (let index = 0; index < items.length; index++) {
		const { taskId, error } = singleOutput ? toolTaskId(this, index) : readTaskId(this, index, items[index].json);
		if (error) {
			// As a tool a missing task id is an answer to the model, not a failed execution.
			if (!this.continueOnFail() && !singleOutput) throw error;
			placed[index] = { output: OUTPUT_OF.failed, item: missingTaskIdItem(error, index) };
			continue;
		}
		// As a tool the node checks once: a tool call cannot wait 10 to 35 minutes.
		const mode = singleOutput ? 'checkOnce' : (this.getNodeParameter('mode', index, 'waitUntilDone') as Mode);
		const options = this.getNodeParameter('options', index, {}) as WaitOptions;
		const spec = modes[mode].deckSpec(taskId, options, readReading(options), loopback);
		// a deck this workflow just bought may answer 404 for a moment (shared/purchaseFacts.ts)
		const purchase = knownPurchase(this, index, taskId, service.credentialId);
		// a failure word with no reason that the check before read: this read confirms it (a Check Once loop, issue 50)
		const failureToConfirm = failureToConfirmOf(this, index, taskId, service.credentialId);
		const toConfirm = failureToConfirm !== undefined ? { failureToConfirm } : {};
		waiting.push({ index, mode, options, spec: { ...spec, ...(purchase ? { purchase } : {}), notFoundGraceMs: notFoundGraceMsOf(options), ...toConfirm } });
	}

	for (const mode of new Set(waiting.map((entry) => entry.mode))) {
		modes[mode].announce?.(this, waiting.filter((entry) => entry.mode === mode).map((entry) => entry.options), loopback);
	}

	let reports: DeckReport[];
	try {
		reports = await pollDecks(
			waiting.map((entry) => entry.spec),
			{
				fetchStatus: async (taskId, deadline) =>
					await service.call(statusRequest(taskId), undefined, deadline),
				sleep: service.sleep,
				signal: service.signal,
				gate: service.gate,
				// root-relative links in a status answer are on the service (judgeStatus, as Get Status)
				statusUrl: (taskId) => statusUrlOf(service.baseUrl, taskId),
				// said while the wait goes on (the log), not only at Max Wait
				onReadingNote: (taskId, note) => this.logger.warn(`Deck Generator Wait: deck ${taskId}: ${note}`),
				// a link is no deck until its file is there (status/judge.ts fileToCheck)
				checkFile: async (url) => await checkDeckFile(this, service.baseUrl, url),
			},
		);
	} catch (error) {
		if (error instanceof CancelledError) throw new NodeOperationError(node, 'The execution was cancelled');
		throw new NodeOperationError(node, error as Error);
	}

	addReadingHints(this, reports.map((report) => ({ taskId: report.taskId, judgement: report.judgement, unknownWord: report.unknownWord?.word })));
	// a failure word with no reason left to confirm, for this process's next read of the deck (a tool's next call)
	for (const report of new Set(reports)) if (report.polls > 0) noteUnconfirmedFailure(service.credentialId, report.taskId, report.judgement?.failureToConfirm);

	const used = new Set<DeckReport>();
	const optionsByIndex = new Map<number, WaitOptions>();
	const checkedAt = Date.now();
	waiting.forEach(({ index, mode, options, spec }, n) => {
		const report = reports[n];
		// Items naming the same deck share a report; each gets its own copy of the body.
		const body = used.has(report) && report.body ? structuredClone(report.body) : report.body;
		used.add(report);
		optionsByIndex.set(index, options);
		// Check Once's bound is counted from the item (a loop's checks are separate runs), never as a tool (it answers a model)
		const bound = mode === 'checkOnce' && !singleOutput ? loopBound(items[index].json, spec, options, checkedAt) : undefined;
		placed[index] = { output: OUTPUT_OF[report.outcome], item: itemFor(items[index], index, report, body, bound) };
	});
	// Each item's options as it read them above (an item without a task id is neither downloaded nor simplified).
	const optionsOf = (index: number) => optionsByIndex.get(index) ?? {};
	await downloadCompleted(this, service.baseUrl, placed, optionsOf);
	simplifyItems(optionsOf, placed);

	const outputs: INodeExecutionData[][] = OUTPUT_NAMES.map(() => []);
	for (const entry of placed) {
		if (!entry) continue;
		if (singleOutput) entry.item.json = waitToolAnswer(node, entry.item.json, service.baseUrl);
		outputs[singleOutput ? 0 : entry.output].push(entry.item);
	}

	const requests = [...used].reduce((sum, report) => sum + report.requests, 0);
	this.logger.debug(
		`Deck Generator Wait: ${items.length} items, ${outputs[0].length} completed, ${outputs[1].length} failed, ${outputs[2].length} still running, ${requests} status requests`,
	);
	return outputs;
}

