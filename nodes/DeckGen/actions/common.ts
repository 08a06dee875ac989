/**
 * Fields and parameter readers shared by several operations: the task id, the price, the
 * spending options, and list values that may come as an array from an expression or as text.
 */
import { NodeOperationError, type IExecuteFunctions, type INodeProperties } from 'n8n-workflow';

import { DEFAULT_RETRY_SETTINGS, type RetrySettings } from '../../shared/retry';

export const taskIdField: INodeProperties = {
	displayName: 'Task ID',
	name: 'taskId',
	type: 'string',
	default: '={{ $json.taskId }}',
	required: true,
	description: 'The taskId returned by Create',
};

export const expectedCreditsField: INodeProperties = {
	displayName: 'Expected Credits',
	name: 'expectedCredits',
	type: 'number',
	typeOptions: { minValue: 0, numberPrecision: 0 },
	default: 0,
	required: true,
	description:
		'The price you agreed to, in credits. The service refuses (and charges nothing) when the live price differs; see Max Credits.',
};

export interface SpendOptions {
	maxCredits?: number;
	idempotencyKey?: string;
	retry: Partial<RetrySettings>;
	concurrency: number;
}

/** Options every call has (retries, concurrency). */
export const callOptions: INodeProperties[] = [
	{
		displayName: 'Concurrency',
		name: 'concurrency',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 32 },
		default: 4,
		description:
			'How many items are sent at once. On a 429 every request of the credential pauses for as long as the service asks.',
	},
	{
		displayName: 'Max Retry Wait (Seconds)',
		name: 'maxRetryWaitSeconds',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: 60,
		description:
			'The longest single wait the node takes before retrying (rate limits, 503s). A longer wait asked by the service ends the item with the time it resets at.',
	},
];

/** Options of calls that spend credits. */
export const spendOptions: INodeProperties[] = [
	...callOptions,
	{
		displayName: 'Idempotency Key',
		name: 'idempotencyKey',
		type: 'string',
		default: '',
		description:
			'Leave empty: the node keeps one key per item across retries of the execution. Set it (e.g. to a webhook delivery ID) so that the same delivery never buys twice, even across executions.',
	},
	{
		displayName: 'Max Credits',
		name: 'maxCredits',
		type: 'number',
		typeOptions: { minValue: 0, numberPrecision: 0 },
		default: 0,
		description:
			'Ceiling for a changed price. When the service reports a different live price at or below this number, the node re-sends once with it; above it, the item goes to Client Action. 0 means never re-send.',
	},
];

/** The operation's "Options" collection. */
export function optionsCollection(options: INodeProperties[]): INodeProperties {
	return { displayName: 'Options', name: 'options', type: 'collection', placeholder: 'Add option', default: {}, options };
}

export function readOptions(ctx: IExecuteFunctions, itemIndex: number): SpendOptions {
	const options = ctx.getNodeParameter('options', itemIndex, {}) as {
		maxCredits?: number;
		idempotencyKey?: string;
		maxRetryWaitSeconds?: number;
		concurrency?: number;
	};
	const idempotencyKey = typeof options.idempotencyKey === 'string' ? options.idempotencyKey.trim() : '';
	return {
		maxCredits: options.maxCredits && options.maxCredits > 0 ? options.maxCredits : undefined,
		idempotencyKey: idempotencyKey || undefined,
		retry: {
			maxRetryWaitMs: (options.maxRetryWaitSeconds ?? DEFAULT_RETRY_SETTINGS.maxRetryWaitMs / 1000) * 1000,
		},
		concurrency: options.concurrency ?? 4,
	};
}

/** A list parameter: an array from an expression, a JSON array, or comma/newline separated text. */
export function readList(ctx: IExecuteFunctions, name: string, itemIndex: number): unknown[] | undefined {
	const value = ctx.getNodeParameter(name, itemIndex, undefined) as unknown;
	if (value === undefined || value === null || value === '') return undefined;
	if (Array.isArray(value)) return value;
	if (typeof value === 'string') {
		const text = value.trim();
		if (text.startsWith('[')) {
			try {
				const parsed = JSON.parse(text) as unknown;
				if (Array.isArray(parsed)) return parsed;
			} catch {
				throw new NodeOperationError(ctx.getNode(), `"${name}" looks like a JSON array but is not valid JSON`, {
					itemIndex,
					description: 'Give a JSON array such as ["mat_1", "mat_2"], an expression that returns an array, or comma-separated values.',
				});
			}
		}
		const entries = text
			.split(/[,\n]/)
			.map((entry) => entry.trim())
			.filter(Boolean);
		return entries.length ? entries : undefined;
	}
	return [value];
}

export function readTaskId(ctx: IExecuteFunctions, itemIndex: number): string {
	const taskId = String(ctx.getNodeParameter('taskId', itemIndex, '') ?? '').trim();
	if (!taskId) {
		throw new NodeOperationError(ctx.getNode(), 'Task ID is empty', {
			itemIndex,
			description: 'Set "Task ID" to the taskId that Create returned, e.g. {{ $json.taskId }}.',
		});
	}
	return taskId;
}

export function readExpectedCredits(ctx: IExecuteFunctions, itemIndex: number): number {
	const value = ctx.getNodeParameter('expectedCredits', itemIndex) as unknown;
	const credits = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	if (typeof credits !== 'number' || !Number.isInteger(credits) || credits < 0) {
		throw new NodeOperationError(ctx.getNode(), `Expected Credits must be a whole number of credits, got "${String(value)}"`, {
			itemIndex,
			description: 'Set "Expected Credits" to the price you agreed to (a whole number, 0 or more).',
		});
	}
	return credits;
}
