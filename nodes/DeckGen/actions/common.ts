/**
 * Fields and parameter readers shared by several operations: the task id, the price, the
 * spending options, typed values from expressions, and list values that may come as an array
 * from an expression or as text.
 */
import { NodeOperationError, type IExecuteFunctions, type INodeProperties } from 'n8n-workflow';

import { NOT_GIVEN, toBoolean, toWholeNumber, type Coerced } from '../../shared/coerce';
import { isFilled, readListValue } from '../../shared/lists';
import { missingTaskId, taskIdParameter } from '../../shared/n8n/taskId';
import { valueAtPath } from '../../shared/path';
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
	// true for every Max Credits (issue 49.5): above 0, the refusal at 0 is re-sent at the live price and bought
	hint: 'Price unknown? Send 0 with Max Credits 0: the refusal on Client Action (price_drift) carries the live price, and nothing is charged. With Max Credits above 0, the node buys at the live price if it is within Max Credits.',
};

const maxCredits: INodeProperties = {
	displayName: 'Max Credits',
	name: 'maxCredits',
	type: 'number',
	typeOptions: { minValue: 0, numberPrecision: 0 },
	default: 0,
	description:
		'Ceiling for a changed price. When the service reports a different live price at or below this number, the node re-sends once with it; above it, the item goes to Client Action. 0 means never re-send.',
};

/** Next to Expected Credits on every spending operation, with how to buy at the live price. */
export const maxCreditsField: INodeProperties = {
	...maxCredits,
	hint: 'To buy at whatever the live price is, up to X: set Expected Credits to 0 and Max Credits to X. The first answer is a free price_drift refusal carrying the live price; the node then re-sends once with it.',
};

export interface SpendOptions {
	maxCredits?: number;
	idempotencyKey?: string;
	/** Mixed into the derived key: a new value buys the same brief again (see idempotency.ts). */
	purchaseReference?: string;
	/** Record Without Sending (./record.ts): output the purchase as a journal row; nothing is sent. */
	recordOnly?: boolean;
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

export const idempotencyKeyOption: INodeProperties = {
	displayName: 'Idempotency Key',
	name: 'idempotencyKey',
	type: 'string',
	default: '',
	description:
		'Leave empty: the node derives the key from the workflow, this node, the item\'s position, its brief and the trigger data it came from, so a retry or re-run never buys twice. Set it (e.g. to a webhook delivery ID) to name the purchase yourself: the same value never buys twice.',
};

/** The one field that buys the same brief again on purpose, where the derived key would replay it. */
export const purchaseReferenceOption: INodeProperties = {
	displayName: 'Purchase Reference',
	name: 'purchaseReference',
	type: 'string',
	default: '',
	placeholder: 'e.g. {{ $now.toISODate() }}',
	description:
		'Leave empty: the same brief from the same trigger data is bought once, and any retry, redelivery or re-run replays that purchase (nothing charged). Set a new value to buy the same brief again on purpose, e.g. {{ $now.toISODate() }} for at most one a day. A value that changes with every execution buys in every execution, a retried one included.',
};

/** Issue 44: the purchase as a journal row, sent later from the row by Recover Purchase (./record.ts). */
export const recordOnlyOption: INodeProperties = {
	displayName: 'Record Without Sending',
	name: 'recordOnly',
	type: 'boolean',
	default: false,
	description:
		'Whether to output the purchase this item would send instead of sending it (nothing is bought): a row for a purchase journal in n8n’s Data Table, with outcome "recorded", the path, the Idempotency-Key a send uses, the body as sent and its check. Deck → Recover Purchase (Purchase From: Journal Row) then sends it; every later send of the row replays it.',
};

/**
 * Options of the spending operations, whose Max Credits sits next to Expected Credits. Workflows
 * saved by 0.1 kept it here: n8n drops a saved option its node no longer declares, so it stays
 * declared, shown on version 1 nodes only (a value that is read is never invisible), and Max
 * Credits on the form wins over it.
 */
export const spendOptions: INodeProperties[] = [
	...callOptions,
	idempotencyKeyOption,
	purchaseReferenceOption,
	recordOnlyOption,
	{
		displayName: 'Max Credits (Saved by 0.1)',
		name: 'maxCredits',
		type: 'number',
		typeOptions: { minValue: 0, numberPrecision: 0 },
		default: 0,
		description:
			'Set by a workflow saved with version 0.1, and still read while Max Credits on the form is 0. Move the value to Max Credits above and remove this option.',
		displayOptions: { show: { '@version': [1] } },
	},
];

/** Custom Request has no Expected Credits field (the body carries it), so Max Credits is an option. */
export const customRequestOptions: INodeProperties[] = [
	...callOptions,
	idempotencyKeyOption,
	purchaseReferenceOption,
	recordOnlyOption,
	maxCredits,
];

/** The operation's "Options" collection, its options in alphabetical order as n8n lists them. */
export function optionsCollection(options: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [...options].sort((a, b) => a.displayName.localeCompare(b.displayName)),
	};
}

export function readOptions(ctx: IExecuteFunctions, itemIndex: number): SpendOptions {
	const options = ctx.getNodeParameter('options', itemIndex, {}) as {
		idempotencyKey?: string;
		purchaseReference?: unknown;
		maxRetryWaitSeconds?: number;
		concurrency?: number;
		recordOnly?: unknown;
	};
	const idempotencyKey = typeof options.idempotencyKey === 'string' ? options.idempotencyKey.trim() : '';
	return {
		maxCredits: readMaxCredits(ctx, itemIndex),
		idempotencyKey: idempotencyKey || undefined,
		purchaseReference: options.purchaseReference === undefined ? undefined : String(options.purchaseReference).trim() || undefined,
		...(options.recordOnly === true ? { recordOnly: true } : {}),
		retry: {
			maxRetryWaitMs: (options.maxRetryWaitSeconds ?? DEFAULT_RETRY_SETTINGS.maxRetryWaitMs / 1000) * 1000,
		},
		concurrency: options.concurrency ?? 4,
	};
}

/** A field whose type the contract states, as the form names it and how to fix it. */
export interface TypedField {
	/** The parameter, dotted inside a collection (e.g. `additionalFields.slideCount`). */
	parameter: string;
	/** The form label, which the error names. */
	label: string;
	/** What to set instead. */
	fix: string;
}

function refuse(ctx: IExecuteFunctions, itemIndex: number, field: Omit<TypedField, 'parameter'>, expected: string, got: string): never {
	throw new NodeOperationError(ctx.getNode(), `${field.label} must be ${expected}, got ${got}`, {
		itemIndex,
		description: `${field.fix} An expression may return it as text ("14", "true"). Nothing was sent.`,
	});
}

function typed<T>(ctx: IExecuteFunctions, itemIndex: number, field: Omit<TypedField, 'parameter'>, expected: string, coerced: Coerced<T>) {
	if (!coerced.ok) refuse(ctx, itemIndex, field, expected, coerced.got);
	return coerced.value === NOT_GIVEN ? undefined : coerced.value;
}

/** A whole number at or above `min`, from a number or numeric text; undefined when empty. */
export function readWholeNumber(
	ctx: IExecuteFunctions,
	itemIndex: number,
	field: TypedField,
	min = 0,
): number | undefined {
	const value = ctx.getNodeParameter(field.parameter, itemIndex, null) as unknown;
	return wholeNumberOf(ctx, itemIndex, field, value, min);
}

/** `value` (read by the caller, e.g. from a JSON body) as a whole number at or above `min`. */
export function wholeNumberOf(
	ctx: IExecuteFunctions,
	itemIndex: number,
	field: Omit<TypedField, 'parameter'>,
	value: unknown,
	min = 0,
): number | undefined {
	return typed(ctx, itemIndex, field, `a whole number of ${min} or more`, toWholeNumber(value, min));
}

/** A boolean, from true/false or the text "true"/"false"; undefined when empty. */
export function readBoolean(ctx: IExecuteFunctions, itemIndex: number, field: TypedField): boolean | undefined {
	const value = ctx.getNodeParameter(field.parameter, itemIndex, null) as unknown;
	return typed(ctx, itemIndex, field, 'true or false', toBoolean(value));
}

const EXPECTED_CREDITS: TypedField = {
	parameter: 'expectedCredits',
	label: 'Expected Credits',
	fix: 'Set "Expected Credits" to the price you agreed to, a whole number of credits (0 or more).',
};

export function readExpectedCredits(ctx: IExecuteFunctions, itemIndex: number): number {
	const credits = readWholeNumber(ctx, itemIndex, EXPECTED_CREDITS);
	if (credits === undefined) refuse(ctx, itemIndex, EXPECTED_CREDITS, 'a whole number of 0 or more', 'nothing');
	return credits;
}

/**
 * The price ceiling: Max Credits next to Expected Credits, else (workflows saved before it moved
 * there, and Custom Request) Options → Max Credits. 0 or empty: never re-send.
 */
export function readMaxCredits(ctx: IExecuteFunctions, itemIndex: number): number | undefined {
	const fix = 'Set "Max Credits" to the most you accept to pay after a price change, a whole number of credits (0: never re-send).';
	const onForm = readWholeNumber(ctx, itemIndex, { parameter: 'maxCredits', label: 'Max Credits', fix });
	if (onForm) return onForm;
	const saved = readWholeNumber(ctx, itemIndex, { parameter: 'options.maxCredits', label: 'Max Credits', fix });
	return saved || undefined;
}

/**
 * A list parameter: an array from an expression, a JSON array, or comma/newline separated text.
 * Filled but empty, or with empty entries, stops the item naming the field (shared/lists.ts).
 */
export function readList(ctx: IExecuteFunctions, name: string, itemIndex: number, label: string): unknown[] | undefined {
	const raw = valueAtPath(ctx.getNode().parameters, name);
	if (raw === undefined) return undefined;
	const reading = readListValue(ctx.getNodeParameter(name, itemIndex, undefined) as unknown, isFilled(raw));
	const expression = typeof raw === 'string' && raw.startsWith('=') ? ` (${raw.slice(1).trim().slice(0, 100)})` : '';
	switch (reading.kind) {
		case 'absent':
			return undefined;
		case 'list':
			return reading.values;
		case 'invalidJson':
			throw new NodeOperationError(ctx.getNode(), `${label} looks like a JSON array but is not valid JSON, got ${reading.got}`, {
				itemIndex,
				description: 'Give a JSON array such as ["mat_1", "mat_2"], an expression that returns an array, or comma-separated values.',
			});
		case 'empty':
			throw new NodeOperationError(ctx.getNode(), `${label} is set but evaluated to nothing (got ${reading.got}); nothing was sent`, {
				itemIndex,
				description: `Sending it empty would buy the deck without its ${label}. Check the value${expression}: the field it reads may be missing on this item (e.g. an Upload without materialId). Remove the field to send none on purpose.`,
			});
		case 'emptyEntries':
			throw new NodeOperationError(
				ctx.getNode(),
				`${label} has ${reading.positions.length === 1 ? 'an empty entry' : 'empty entries'} (${reading.positions.length === 1 ? 'entry' : 'entries'} ${reading.positions.join(', ')} of ${reading.got}); nothing was sent`,
				{
					itemIndex,
					description: `Sending the rest would buy the deck without part of its ${label}. Check the value${expression}: an entry it reads is missing on this item.`,
				},
			);
	}
}

/** The item's Task ID (shared/n8n/taskId.ts, as the Wait node reads it); an item without one fails, naming the field. */
export function readTaskId(ctx: IExecuteFunctions, itemIndex: number): string {
	const taskId = taskIdParameter(ctx, itemIndex);
	if (taskId === undefined) throw missingTaskId(ctx, itemIndex);
	return taskId;
}

