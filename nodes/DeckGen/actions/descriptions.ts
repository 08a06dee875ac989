/** The resource and operation pickers, and every operation's own fields. */
import type { INodeProperties } from 'n8n-workflow';

import { OUTPUTS_PER_OPERATION_VERSION, PAYMENT_OPERATIONS } from './outputs';
import { deckGenToolDescriptionProperties } from '../../shared/n8n/tool';
import { toolSpendingProperties } from '../../shared/n8n/toolSpending';
import { operations } from './router';

export const resourceProperty: INodeProperties = {
	displayName: 'Resource',
	name: 'resource',
	type: 'options',
	noDataExpression: true,
	options: [
		{ name: 'Account', value: 'account' },
		{ name: 'Custom Request', value: 'custom' },
		{ name: 'Deck', value: 'deck' },
		{ name: 'Material', value: 'material' },
	],
	default: 'deck',
};

const operationPickers: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['account'] } },
		options: [
			{
				name: 'Get Credits',
				value: 'getCredits',
				description: 'Read the credit balance and who the key belongs to (spends nothing)',
				action: 'Get credits',
			},
		],
		default: 'getCredits',
	},
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['deck'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description: 'Buy a new deck from a brief; returns its taskId at once',
				action: 'Create a deck',
			},
			{
				name: 'Download',
				value: 'download',
				description: 'Fetch a finished deck’s file as binary data, to attach in Email or Slack',
				action: 'Download a deck',
			},
			{
				name: 'Generate Video',
				value: 'generateVideo',
				description: 'Buy a video of a finished deck',
				action: 'Generate a video of a deck',
			},
			{
				name: 'Get Status',
				value: 'getStatus',
				description: 'Read the current status of a deck',
				action: 'Get the status of a deck',
			},
			{
				name: 'Recover Purchase',
				value: 'recover',
				description: 'Send a purchase recorded before it was sent (a line n8n logged, or a purchase journal’s row): the deck back, never bought twice',
				action: 'Recover a recorded purchase',
			},
			{
				name: 'Revise',
				value: 'revise',
				description: 'Ask for a new version of a finished deck',
				action: 'Revise a deck',
			},
			{
				name: 'Translate',
				value: 'translate',
				description: 'Add copies of a deck in more languages',
				action: 'Translate a deck',
			},
		],
		default: 'create',
	},
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['material'] } },
		options: [
			{
				name: 'Upload',
				value: 'upload',
				description: 'Upload a file to use as material for a deck',
				action: 'Upload a material',
			},
		],
		default: 'upload',
	},
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['custom'] } },
		options: [
			{
				name: 'Request',
				value: 'request',
				description: 'Call any /v1 path with the same authentication, keys, retries and routing',
				action: 'Send a custom request',
			},
		],
		default: 'request',
	},
];

/**
 * Shown only where a 402 can come back. The parameter keeps its name (`splitOutputsByCta`) so that
 * saved workflows keep their outputs; the words say what it does without the API's "cta".
 */
const splitOutputsSwitch: INodeProperties = {
	displayName: 'One Output per Payment Option',
	name: 'splitOutputsByCta',
	type: 'boolean',
	default: false,
	description:
		'Whether to give each way out of a refused payment (top up, unlock, surcharge, …) its own output instead of grouping them into Checkout and Client Action',
};

/**
 * Version 1 has the payment outputs on every operation (outputs.ts), so the switch too. Not on the
 * AI-tool variant: there every item goes to output 0, so the switch would change nothing (the
 * editor's end-to-end test showed it there; test/e2e/editor.e2e.ts).
 */
const splitOutputsProperties: INodeProperties[] = [
	{
		...splitOutputsSwitch,
		displayOptions: { show: { '@version': [{ _cnd: { lt: OUTPUTS_PER_OPERATION_VERSION } }] }, hide: { '@tool': [true] } },
	},
	{
		...splitOutputsSwitch,
		displayOptions: {
			show: { '@version': [{ _cnd: { gte: OUTPUTS_PER_OPERATION_VERSION } }], operation: [...PAYMENT_OPERATIONS] },
			hide: { '@tool': [true] },
		},
	},
];

const operationProperties = Object.values(operations).flatMap((byOperation) =>
	Object.values(byOperation).flatMap((operation) => operation.description),
);
const isOptions = (property: INodeProperties) => property.name === 'options';

/**
 * As an AI tool, what may spend without a person's review (shared/n8n/toolSpending.ts): the deck
 * operations that spend, and a Custom Request that POSTs.
 */
const spendingDeckOperations = Object.entries(operations.deck).flatMap(([name, operation]) => (operation.spends ? [name] : []));
const toolSpending = [
	toolSpendingProperties({ resource: ['deck'], operation: spendingDeckOperations }),
	toolSpendingProperties({ resource: ['custom'], operation: ['request'], method: ['POST'] }),
];

/**
 * Each operation's fields (as a paying tool, the review notice first), then the split switch, then
 * (as a paying tool) Buy Without Review, then the operations' Options (last, as in n8n's own nodes).
 */
export const properties: INodeProperties[] = [
	resourceProperty,
	...operationPickers,
	...toolSpending.map((p) => p.notice),
	...operationProperties.filter((property) => !isOptions(property)),
	...splitOutputsProperties,
	...toolSpending.flatMap((p) => p.fields),
	...operationProperties.filter(isOptions),
	// The tool variant's description of each operation (shown only there; shared/n8n/tool.ts).
	...deckGenToolDescriptionProperties(),
];
