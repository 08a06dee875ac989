import { NodeOperationError, updateDisplayOptions, type IDataObject, type INodeProperties } from 'n8n-workflow';

import { displayUrl } from '../../../shared/download';
import { deckLinks, putDeckLinks } from '../../../shared/links';
import { downloadDeckFile, downloadFile, downloadOptions, fileFields, readDownloadSettings, type DownloadedFile } from '../../../shared/n8n/download';
import { toNodeApiError } from '../../../shared/n8n/errors';
import { readStatusWords, statusWordOptions, type StatusWordSettings } from '../../../shared/n8n/statusWords';
import { judgeStatus } from '../../../shared/status';
import { deckPath } from '../../../shared/transport';
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
	optionsCollection([...callOptions, ...downloadOptions, ...statusWordOptions]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['deck'], operation: ['download'] } },
	properties,
);

/**
 * The finished deck as n8n binary data, for Email and Slack nodes to attach. From a task id the
 * status is read and the link picked (deckUrl, or the Download Link path); from a URL it is
 * fetched as it is. Either way the key goes only to the Base URL's origin (shared/download.ts).
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
		const result = await service.call({ method: 'GET', path: deckPath(taskId, 'status') }, readOptions(ctx, itemIndex).retry);
		if (result.outcome.route !== 'success') {
			if (result.outcome.route === 'error') throw toNodeApiError(ctx.getNode(), result.outcome.failure, itemIndex, `Reading the status of deck ${taskId}`);
			throw new NodeOperationError(ctx.getNode(), `Reading the status of deck ${taskId}: ${result.outcome.failure.detail}`, { itemIndex });
		}
		const body = result.outcome.body;
		const statusUrl = `${service.baseUrl}${deckPath(taskId, 'status')}`;
		const judgement = judgeStatus(body, { words: readStatusWords(options as StatusWordSettings), resolveAgainst: statusUrl, httpStatus: result.outcome.status });
		const found = deckLinks(body, statusUrl);
		Object.assign(json, { taskId, status: judgement.word ?? null });
		putDeckLinks(json, found, input?.json, 'input');
		if (judgement.state !== 'succeeded') {
			const failed = judgement.state === 'failed';
			const said = `${failed ? 'failed' : 'is not finished'} (status "${judgement.word ?? ''}"${judgement.failureReason ? `; ${judgement.failureReason}` : ''})`;
			throw new NodeOperationError(ctx.getNode(), `Deck ${taskId} ${said}; nothing to download${failed ? '' : ' yet'}`, {
				itemIndex,
				description: [
					judgement.note,
					failed ? 'Start a new deck.' : 'Wait for it with Deck Generator Wait (which can download the file itself), then download.',
				].filter(Boolean).join(' '),
			});
		}
		const fetched = await downloadDeckFile(ctx, service.baseUrl, found, settings, itemIndex);
		if (fetched.missing !== undefined) {
			throw new NodeOperationError(ctx.getNode(), `Deck ${taskId} has no link ${fetched.missing}`, {
				itemIndex,
				description: `Links in its status: ${fetched.paths}. Set Download Link Path to one of them, or leave it empty for deckUrl.`,
			});
		}
		({ url, file } = fetched);
	}

	return {
		output: 0,
		json: { ...json, outcome: 'success', ...fileFields(file), downloadedFrom: displayUrl(url) },
		binary: { ...input?.binary, [settings.binaryPropertyName]: file.binary },
	};
}

export const download: Operation = { description, execute, spends: false };
