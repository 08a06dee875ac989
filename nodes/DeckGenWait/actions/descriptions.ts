/** The Wait node's panel: Mode, Task ID (by version, and as a tool), Options, and as a tool its description. */
import type { INodeProperties } from 'n8n-workflow';

import { downloadOptions } from '../../shared/n8n/download';
import { notFoundGraceOption } from '../../shared/n8n/justBought';
import { readingOption } from '../../shared/n8n/reading';
import { toolDescriptionProperty, WAIT_TOOL_DESCRIPTION } from '../../shared/n8n/tool';

/** The node version whose Task ID is an expression (`taskId`) rather than a field path (`taskIdField`). */
export const TASK_ID_EXPRESSION_VERSION = 1.1;

/** A download option, offered only while Download File is on (a sibling in the same Options). */
function onlyWithDownloadFile(option: INodeProperties): INodeProperties {
	return { ...option, displayOptions: { show: { downloadFile: [true] } } };
}

export const properties: INodeProperties[] = [
	{
		displayName: 'Mode',
		name: 'mode',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'Check Once',
				value: 'checkOnce',
				description:
					'Read each deck’s status once and route it; loop back through a Wait node for very long or very many decks',
			},
			{
				name: 'Wait Until Done',
				value: 'waitUntilDone',
				description: 'Poll every deck until it finishes or Max Wait passes',
			},
		],
		default: 'waitUntilDone',
	},
	{
		displayName: 'Task ID',
		name: 'taskId',
		type: 'string',
		default: '={{ $json.taskId }}',
		required: true,
		displayOptions: { show: { '@version': [{ _cnd: { gte: TASK_ID_EXPRESSION_VERSION } }], '@tool': [false] } },
		description:
			'The taskId returned by Deck Generator → Create. The default reads it from the input item, as Get Status and Download do; point the expression elsewhere when it is nested.',
	},
	{
		displayName: 'Task ID Field',
		name: 'taskIdField',
		type: 'string',
		default: 'taskId',
		required: true,
		placeholder: 'e.g. taskId or deck.taskId',
		displayOptions: { show: { '@version': [{ _cnd: { lt: TASK_ID_EXPRESSION_VERSION } }], '@tool': [false] } },
		description:
			'Name of the input field holding the deck’s task ID, as Deck Generator → Create returns it; dots reach into nested fields',
	},
	// As an AI tool the model passes the task id itself, and the node checks once (a tool call
	// cannot wait 10 to 35 minutes): shared/n8n/tool.ts.
	{
		displayName: 'Task ID',
		name: 'taskId',
		type: 'string',
		default: "={{ $fromAI('taskId', 'The taskId that Create returned', 'string') }}",
		required: true,
		displayOptions: { show: { '@tool': [true] } },
		description: 'The deck to check: the model fills it (the $fromAI key is the tool argument’s name). As a tool the node always checks once, whatever the Mode.',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			onlyWithDownloadFile(downloadOptions[0]),
			{
				displayName: 'Download File',
				name: 'downloadFile',
				type: 'boolean',
				default: false,
				description:
					'Whether to download each completed deck’s file into the item’s binary data, so Email and Slack nodes can attach it. On: Binary Property and Max Download Size can be added; File Link Path says which link is the file.',
			},
			readingOption.failedWords,
			readingOption.failureReasonPath,
			readingOption.downloadLink,
			notFoundGraceOption,
			onlyWithDownloadFile(downloadOptions[1]),
			{
				// One parameter for both modes, so switching modes keeps the value. Check Once counts it from the item
				// (its purchase, else its first check), so a loop through n8n's Wait node can end on it.
				displayName: 'Max Wait (Minutes)',
				name: 'maxWaitMinutes',
				type: 'number',
				typeOptions: { minValue: 0 },
				default: 60,
				description:
					'Wait Until Done: how long to keep polling, a hard bound (no retry or rate-limit pause goes past it); decks not finished by then go to Still Running with their last status, so a later run can resume them. Check Once: how long a loop should wait, counted from the deck’s purchase (the item’s purchase, from Create), else from the first check that saw it (waitingSince); a deck still running after it goes to Still Running with pastMaxWait true and a statusNote saying so: end the loop there with an IF node on pastMaxWait.',
			},
			{
				displayName: 'Poll Interval (Seconds)',
				name: 'pollIntervalSeconds',
				type: 'number',
				// No numberPrecision: the editor shows 5, not 5.000, and a test may still set 0.01.
				typeOptions: { minValue: 0.001 },
				default: 5,
				displayOptions: { show: { '/mode': ['waitUntilDone'] } },
				description: 'Time between two status reads of one deck',
				hint: 'The service asks for 5 seconds. A lower value only applies when the credential’s Base URL is loopback (tests); otherwise 5 is used.',
			},
			readingOption.runningWords,
			{
				displayName: 'Simplify',
				name: 'simplify',
				type: 'boolean',
				default: false,
				description:
					'Whether to return only what the next step needs (taskId, status, state, outcome, deckUrl; the file when downloaded, whose name, type and size are in its binary metadata; the reason on Failed; a purchase journal’s rowId and idempotencyKey) instead of the input’s fields, the whole status answer and its links. Keeps the data n8n stores small in a Check Once loop.',
			},
			readingOption.statusWordPath,
			readingOption.succeededWords,
		],
	},
	// last, as on Deck Generator (shared/n8n/tool.ts appends it there)
	toolDescriptionProperty(WAIT_TOOL_DESCRIPTION),
];

