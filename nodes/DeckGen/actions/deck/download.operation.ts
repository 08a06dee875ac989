import { NodeOperationError, updateDisplayOptions, type IDataObject, type INodeProperties } from 'n8n-workflow';

import { displayUrl } from '../../../shared/download';
import { describeLinks, putDeckLinks } from '../../../shared/links';
import { judgeDeckStatus } from '../../../shared/n8n/deckStatus';
import { recordSaid } from '../../../shared/status';
import { downloadDeckFile, downloadFile, downloadOptions, fileFields, readDownloadSettings, type DownloadedFile } from '../../../shared/n8n/download';
import { toNodeApiError } from '../../../shared/n8n/errors';
import { readingOptions, readReading, type ReadingSettings } from '../../../shared/n8n/reading';
import { knownPurchase, notFoundGraceMsOf, notFoundGraceOption, readNotFound } from '../../../shared/n8n/justBought';
import { statusRequest } from '../../../shared/transport';
import { callOptions, optionsCollection, readOptions, readTaskId, taskIdField } from '../common';
import type { Operation } from '../node.type';
import type { ItemContext } from '../send';

const properties: INodeProperties[] = [
	{
		displayName: 'Download From',
		name: 'source',
		type: 'options',
		options: [
			{ name: 'Task ID', value: 'taskId', description: 'Read the deck’s status and download its file' },
			{ name: 'URL', value: 'url', description: 'Download a link you already have, e.g. deckUrl' },
		],
		default: 'taskId',
	},
	{ ...taskIdField, displayOptions: { show: { source: ['taskId'] } } },
	{
		displayName: 'URL',
		name: 'url',
		type: 'string',
		default: '={{ $json.deckUrl }}',
		required: true,
		displayOptions: { show: { source: ['url'] } },
		description: 'The file’s link. The API key is sent only when the link is on the credential’s Base URL; any other host gets no credential.',
	},
	optionsCollection([...callOptions, ...downloadOptions, ...readingOptions, notFoundGraceOption]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['deck'], operation: ['download'] } },
	properties,
);

/**
 * The finished deck as n8n binary data, for Email and Slack nodes to attach. From a task id the
 * status is read and judged as Get Status judges it, and the deck's file (deckUrl, or the link at File
 * Link Path) fetched and checked to be the deck; from a URL it is fetched as it is. Either way the key
 * goes only to the Base URL's origin (shared/download.ts).
 */
export async function execute(item: ItemContext) {
	const { ctx, itemIndex, service } = item;
	const options = ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const settings = readDownloadSettings(options);
	const source = ctx.getNodeParameter('source', itemIndex, 'taskId') as string;
	const input = ctx.getInputData()[itemIndex];
	// The input item's fields go on (e.g. the requester's address for the next Email node).
	const json: IDataObject = { ...input?.json };
	let url: string;
	let file: DownloadedFile;

	if (source === 'url') {
		url = String(ctx.getNodeParameter('url', itemIndex, '') ?? '').trim();
		if (!/^https?:\/\//i.test(url)) {
			throw new NodeOperationError(ctx.getNode(), `URL must be an http(s) link, got "${url}"`, {
				itemIndex,
				description: 'Set URL to the deck’s link, e.g. {{ $json.deckUrl }} from Deck Generator Wait or Get Status.',
			});
		}
		file = await downloadFile(ctx, service.baseUrl, url, settings.maxBytes, itemIndex);
	} else {
		const taskId = readTaskId(ctx, itemIndex);
		const result = await service.call(statusRequest(taskId), readOptions(ctx, itemIndex).retry);
		if (result.outcome.route !== 'success') {
			if (result.outcome.route === 'error') {
				// a deck just bought may not be visible yet (shared/purchaseFacts.ts): nothing to download yet, or gone
				const read = readNotFound(ctx, itemIndex, taskId, result.outcome.failure, knownPurchase(ctx, itemIndex, taskId, service.credentialId), notFoundGraceMsOf(options));
				if (read?.error) throw read.error;
				if (read?.notVisibleYet) {
					throw new NodeOperationError(ctx.getNode(), `Deck ${taskId} is not finished; nothing to download yet`, {
						itemIndex,
						description: `${String(read.notVisibleYet.statusNote)} Wait for it with Deck Generator Wait (which can download the file itself), then download.`,
					});
				}
				throw toNodeApiError(ctx.getNode(), result.outcome.failure, itemIndex, `Reading the status of deck ${taskId}`);
			}
			throw new NodeOperationError(ctx.getNode(), `Reading the status of deck ${taskId}: ${result.outcome.failure.detail}`, { itemIndex });
		}
		const judgement = await judgeDeckStatus(ctx, service.baseUrl, taskId, { body: result.outcome.body, httpStatus: result.outcome.status }, readReading(options as ReadingSettings), { itemIndex, credentialId: service.credentialId });
		Object.assign(json, { taskId, status: judgement.word ?? null });
		// an earlier read's failure to confirm was this read's to confirm (a failed deck ends here with an error)
		delete json.failureToConfirm;
		putDeckLinks(json, describeLinks(judgement.links, judgement.deckUrl), input?.json, 'input');
		if (judgement.state !== 'succeeded') {
			const failed = judgement.state === 'failed';
			const why = [judgement.failureReason, judgement.fileMissing && `its file: ${judgement.fileMissing}`].filter(Boolean).join('; ');
			const said = `${failed ? 'failed' : 'is not finished'} (${recordSaid(judgement)}${why ? `; ${why}` : ''})`;
			throw new NodeOperationError(ctx.getNode(), `Deck ${taskId} ${said}; nothing to download${failed ? '' : ' yet'}`, {
				itemIndex,
				description: [
					judgement.note,
					failed ? 'Start a new deck.' : 'Wait for it with Deck Generator Wait (which can download the file itself), then download.',
				].filter(Boolean).join(' '),
			});
		}
		if (!judgement.deckUrl) {
			const paths = judgement.links.map((link) => link.path).join(', ') || 'none';
			throw new NodeOperationError(ctx.getNode(), `Deck ${taskId} is finished but its status gives no link to its file`, {
				itemIndex,
				description: `Links in its status: ${paths}. Set File Link Path to where the record gives the deck’s file.`,
			});
		}
		url = judgement.deckUrl;
		file = await downloadDeckFile(ctx, service.baseUrl, url, settings.maxBytes, itemIndex);
	}

	return {
		output: 0,
		json: { ...json, outcome: 'success', ...fileFields(file), downloadedFrom: displayUrl(url) },
		binary: { ...input?.binary, [settings.binaryPropertyName]: file.binary },
	};
}

export const download: Operation = { description, execute, spends: false };
