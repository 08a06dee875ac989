import { NodeOperationError, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';

import { CancelledError } from '../../shared/client';
import { downloadDeckFile, fileFields, readDownloadSettings } from '../../shared/n8n/download';
import type { Placed, WaitOptions } from './node.type';
import { OUTPUT_OF } from './outputs';

/**
 * Download File: each Completed item's file into its binary data, a few at a time, as Deck →
 * Download fetches it (`downloadDeckFile`: the bytes must be the deck). A download that fails leaves the
 * item on Completed (the deck is done and paid for) with `downloadError` and no file, so the task id and
 * links still reach the next node; a link that gave something else than the deck loses its deckUrl too.
 */
export async function downloadCompleted(
	ctx: IExecuteFunctions,
	baseUrl: string,
	placed: Placed,
	optionsOf: (index: number) => WaitOptions,
): Promise<void> {
	const jobs = placed
		.map((entry, index) => ({ entry, index }))
		.filter(({ entry, index }) => entry?.output === OUTPUT_OF.completed && optionsOf(index).downloadFile === true);
	let next = 0;
	const worker = async () => {
		while (next < jobs.length) {
			const { entry, index } = jobs[next++];
			const item = entry!.item;
			const settings = readDownloadSettings(optionsOf(index));
			const json = item.json as IDataObject & { links?: Array<{ path: string }>; deckUrl?: string };
			try {
				if (!json.deckUrl) {
					const paths = (json.links ?? []).map((link) => link.path).join(', ') || 'none';
					throw new NodeOperationError(ctx.getNode(), `Deck ${String(json.taskId)} has no link to its file (links: ${paths})`, {
						description: 'Set File Link Path to where the record gives the deck’s file.',
					});
				}
				const file = await downloadDeckFile(ctx, baseUrl, json.deckUrl, settings.maxBytes, index);
				item.binary = { ...item.binary, [settings.binaryPropertyName]: file.binary };
				Object.assign(json, fileFields(file));
			} catch (error) {
				if (error instanceof CancelledError) throw new NodeOperationError(ctx.getNode(), 'The execution was cancelled');
				const nodeError = error as NodeOperationError;
				json.downloadError = { message: nodeError.message, ...(nodeError.description ? { description: nodeError.description } : {}) };
				// what the link gave is not the deck: deckUrl is the deck's file or nothing
				if (nodeError.context?.notTheDeck !== undefined) delete json.deckUrl;
				ctx.logger.warn(`Deck Generator Wait: download failed for deck ${String(json.taskId)}: ${nodeError.message}`);
			}
		}
	};
	await Promise.all(Array.from({ length: Math.min(4, jobs.length) }, worker));
}
