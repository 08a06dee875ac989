import { NodeOperationError, updateDisplayOptions, type INodeProperties } from 'n8n-workflow';

import { servicePathProblem } from '../../../shared/endpoints';
import { customRequestOptions, optionsCollection, readOptions, wholeNumberOf } from '../common';
import type { Operation } from '../node.type';
import { sendMutation, sendRead, type ItemContext } from '../send';

const properties: INodeProperties[] = [
	{
		displayName: 'Method',
		name: 'method',
		type: 'options',
		options: [
			{ name: 'GET', value: 'GET' },
			{ name: 'POST', value: 'POST' },
		],
		default: 'GET',
		description: 'The service only has GET and POST',
	},
	{
		displayName: 'Path',
		name: 'path',
		type: 'string',
		default: '/v1/',
		required: true,
		placeholder: '/v1/decks/tsk_123/status',
		description: 'Path under the base URL, starting with /v1/',
	},
	{
		displayName: 'Body',
		name: 'body',
		type: 'json',
		default: '{}',
		displayOptions: { show: { method: ['POST'] } },
		description:
			'JSON body. Include expected_credits for a spending call; the Idempotency-Key header is added for you.',
	},
	optionsCollection(customRequestOptions),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['custom'], operation: ['request'] } },
	properties,
);

/** Paths the service can have: `/v1/...`, no traversal, no scheme or host. */
const PATH_PATTERN = /^\/v1\/[A-Za-z0-9._~%!$&'()*+,;=:@/-]*(\?[^#\s]*)?$/;

function readPath(item: ItemContext): string {
	const path = String(item.ctx.getNodeParameter('path', item.itemIndex, '')).trim();
	const problem = PATH_PATTERN.test(path) ? servicePathProblem(path) : 'must start with /v1/ and hold only the characters of a URL path';
	if (problem) {
		throw new NodeOperationError(item.ctx.getNode(), `Path "${path}" is not a service path`, {
			itemIndex: item.itemIndex,
			description: `The path ${problem}. Give a path under the base URL that starts with /v1/, e.g. /v1/credits; nothing was sent.`,
		});
	}
	return path;
}

const EXPECTED_CREDITS_IN_BODY = {
	label: 'Body → expected_credits',
	fix: 'Give expected_credits in the body as a whole number of credits (0 or more), e.g. {"expected_credits": 10}.',
};

function readBody(item: ItemContext): Record<string, unknown> {
	const raw = item.ctx.getNodeParameter('body', item.itemIndex, '{}') as unknown;
	let body = raw;
	if (typeof raw === 'string') {
		try {
			body = raw.trim() ? JSON.parse(raw) : {};
		} catch {
			throw new NodeOperationError(item.ctx.getNode(), 'Body is not valid JSON', {
				itemIndex: item.itemIndex,
				description: 'Give the body as a JSON object, e.g. {"expected_credits": 10}.',
			});
		}
	}
	if (!body || typeof body !== 'object' || Array.isArray(body)) {
		throw new NodeOperationError(item.ctx.getNode(), 'Body must be a JSON object', { itemIndex: item.itemIndex });
	}
	const json = body as Record<string, unknown>;
	// The contract types expected_credits on every spending call: "14" from an expression goes as 14.
	if ('expected_credits' in json) {
		const credits = wholeNumberOf(item.ctx, item.itemIndex, EXPECTED_CREDITS_IN_BODY, json.expected_credits);
		if (credits === undefined) {
			throw new NodeOperationError(item.ctx.getNode(), 'Body → expected_credits is empty', {
				itemIndex: item.itemIndex,
				description: `${EXPECTED_CREDITS_IN_BODY.fix} Nothing was sent.`,
			});
		}
		json.expected_credits = credits;
	}
	return json;
}

/**
 * Any `/v1` operation, including ones advertised later, with the same authentication,
 * idempotency keys, retries and outcome routing as the named operations.
 */
export async function execute(item: ItemContext) {
	const path = readPath(item);
	const options = readOptions(item.ctx, item.itemIndex);
	if (item.ctx.getNodeParameter('method', item.itemIndex, 'GET') === 'GET') {
		if (options.recordOnly) {
			throw new NodeOperationError(item.ctx.getNode(), 'Record Without Sending applies to a POST: a GET buys nothing to record; nothing was sent', {
				itemIndex: item.itemIndex,
				description: 'Set Method to POST for a spending call, or remove the option.',
			});
		}
		return await sendRead(item, { path, retry: options.retry });
	}
	return await sendMutation(item, { operation: 'custom.request', path, json: readBody(item), options });
}

export const request: Operation = { description, execute, spends: true };
