import { NodeOperationError, updateDisplayOptions, type IDataObject, type INodeProperties } from 'n8n-workflow';

import {
	expectedCreditsField,
	maxCreditsField,
	optionsCollection,
	readBoolean,
	readExpectedCredits,
	readList,
	readOptions,
	readWholeNumber,
	spendOptions,
	type TypedField,
} from '../common';
import { BRIEF_MEMBERS, briefFromObject, type BriefSource } from '../../../shared/brief';
import { valueAtPath } from '../../../shared/path';
import type { FormLabels } from '../../../shared/formLabels';
import type { Operation } from '../node.type';
import { sendMutation, type ItemContext } from '../send';

/**
 * Simplify (issue 22): a Success item keeps only what the next step needs. In a Check Once loop n8n
 * stores Create's item in every saved execution until the deck is done; the full answer (price,
 * version, key, request id) is there for whoever wants it, with the option off (the default).
 */
const simplifyOption: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: false,
	description:
		'Whether a bought deck’s item keeps only taskId, outcome, charge, purchase (its Idempotency-Key, request ID and time, which Deck Generator Wait reads), and replayed and repricedFrom when they apply, instead of the whole answer and the message. Keeps the data n8n stores small when a Check Once loop waits on it. Refusals (Checkout, Client Action) are never simplified.',
};

/** What a simplified Success item keeps, when present: the deck, what it cost, and its purchase (for the Wait node's 404 grace). Recover Purchase's Simplify keeps them too, through simplifiedPurchase (../journal.ts). */
const SIMPLE_FIELDS = ['taskId', 'outcome', 'charge', 'replayed', 'repricedFrom', 'purchase'] as const;

/**
 * The form reads as a person thinks about a deck: what it is about (the brief), then what it may
 * cost, then the rest. Only fields the user fills are sent.
 */
const properties: INodeProperties[] = [
	{
		displayName:
			'Running this node buys a deck. The same brief from the same trigger data is bought once: running it again replays that purchase and charges nothing. To try the nodes after it without calling the service, pin its output.',
		name: 'purchaseNotice',
		type: 'notice',
		default: '',
	},
	{
		// The contract leaves it to the service which creation fields are required.
		displayName:
			'Which fields the service requires is up to the service: it may ask for a Title or a Core Message (or more). A refusal names the fields as this form does.',
		name: 'requiredFieldsNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Brief From',
		name: 'briefFrom',
		type: 'options',
		options: [
			{
				name: 'Fields Below',
				value: 'fields',
				description: 'Title, Core Message, Audience, Slide Count and Additional Fields on this form, each mapped as you like',
			},
			{
				name: 'Input Item',
				value: 'input',
				description:
					'One object on the input item (e.g. a Webhook’s body) whose members are named as in the API (core_message) or as on this form (coreMessage). No expressions to run: lighter for an n8n worker at thousands of decks.',
			},
		],
		default: 'fields',
	},
	{
		displayName: 'Input Field With Brief',
		name: 'briefField',
		type: 'string',
		default: 'body',
		placeholder: 'body',
		description:
			'Dot path of the object that holds the brief on each input item: body for a Webhook, empty for the item itself. Read: title, core_message, audience, slide_count, deck_class, notes, context, material_ids, output_language, additional_languages. The price and Confirm Slide Surcharge stay on this form; other members are not sent.',
		displayOptions: { show: { briefFrom: ['input'] } },
	},
	{
		displayName: 'Title',
		name: 'title',
		type: 'string',
		default: '',
		description: 'Title of the deck',
		displayOptions: { show: { briefFrom: ['fields'] } },
	},
	{
		displayName: 'Core Message',
		name: 'coreMessage',
		type: 'string',
		typeOptions: { rows: 3 },
		default: '',
		description: 'The central message of the deck',
		displayOptions: { show: { briefFrom: ['fields'] } },
	},
	{
		displayName: 'Audience',
		name: 'audience',
		type: 'string',
		default: '',
		description: 'Free text describing who the deck is for',
		displayOptions: { show: { briefFrom: ['fields'] } },
	},
	{
		displayName: 'Slide Count',
		name: 'slideCount',
		type: 'number',
		typeOptions: { minValue: 0, numberPrecision: 0 },
		default: 0,
		description:
			'Number of slides. Above the free slide cap the service may answer with Client Action (upgrade or confirm a surcharge).',
		hint: '0: not sent, the service decides',
		displayOptions: { show: { briefFrom: ['fields'] } },
	},
	{ ...expectedCreditsField },
	maxCreditsField,
	{
		displayName: 'Confirm Slide Surcharge',
		name: 'confirmSlideSurcharge',
		type: 'boolean',
		default: false,
		description:
			'Whether to accept the higher price for slides above the free cap. Turn on only after whoever pays has seen and accepted that price; the node never sets it by itself.',
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: { show: { briefFrom: ['fields'] } },
		options: [
			{
				displayName: 'Additional Languages',
				name: 'additionalLanguages',
				type: 'string',
				default: '',
				description:
					'Copies in more languages: comma-separated, or an expression returning an array. Subscriber-only at launch.',
			},
			{
				displayName: 'Context',
				name: 'context',
				type: 'string',
				typeOptions: { rows: 3 },
				default: '',
				description: 'Background for the deck, passed to the service as given',
			},
			{
				displayName: 'Deck Class',
				name: 'deckClass',
				type: 'string',
				default: '',
				description: 'Kind of deck, passed to the service as given',
			},
			{
				displayName: 'Material IDs',
				name: 'materialIds',
				type: 'string',
				default: '',
				description:
					'IDs of uploaded materials: comma-separated, or an expression returning an array, e.g. from Material → Upload',
			},
			{
				displayName: 'Notes',
				name: 'notes',
				type: 'string',
				typeOptions: { rows: 3 },
				default: '',
				description: 'Notes for the deck, passed to the service as given',
			},
			{
				displayName: 'Output Language',
				name: 'outputLanguage',
				type: 'string',
				default: '',
				description: 'Language of the deck, passed to the service as given (e.g. en)',
			},
			// Where Slide Count was before it moved onto the form: still read from workflows saved
			// then (n8n drops a saved value its node no longer declares). Shown on those nodes only
			// (version 1), so a value that is sent is never invisible; a new node never offers it.
			{
				displayName: 'Slide Count (Saved by 0.1)',
				name: 'slideCount',
				type: 'number',
				typeOptions: { minValue: 0, numberPrecision: 0 },
				default: 0,
				description:
					'Set by a workflow saved with version 0.1, and still sent while Slide Count on the form is 0. Move the value to Slide Count above and remove this field.',
				displayOptions: { show: { '@version': [1] } },
			},
		],
	},
	optionsCollection([...spendOptions, simplifyOption]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['deck'], operation: ['create'] } },
	properties,
);

/** Parameter name → body field, for the fields passed through as given. */
const PASSED_AS_GIVEN = {
	deckClass: 'deck_class',
	notes: 'notes',
	context: 'context',
	outputLanguage: 'output_language',
} as const;

/** Body field → the label on this form, so that a 400/422 names the fields as the form does. */
export const CREATE_FORM_LABELS: FormLabels = {
	title: 'Title',
	core_message: 'Core Message',
	audience: 'Audience',
	slide_count: 'Slide Count',
	expected_credits: 'Expected Credits',
	confirm_slide_surcharge: 'Confirm Slide Surcharge',
	deck_class: 'Deck Class',
	notes: 'Notes',
	context: 'Context',
	material_ids: 'Material IDs',
	output_language: 'Output Language',
	additional_languages: 'Additional Languages',
};

const SLIDE_COUNT_FIX = 'Set "Slide Count" to a whole number of slides, e.g. 12 (0 leaves it out).';
const SLIDE_COUNT: TypedField = { parameter: 'slideCount', label: 'Slide Count', fix: SLIDE_COUNT_FIX };
const SAVED_SLIDE_COUNT: TypedField = { parameter: 'additionalFields.slideCount', label: 'Slide Count', fix: SLIDE_COUNT_FIX };
const CONFIRM_SURCHARGE: TypedField = {
	parameter: 'confirmSlideSurcharge',
	label: 'Confirm Slide Surcharge',
	fix: 'Set "Confirm Slide Surcharge" to true only after whoever pays accepted the higher price, else false.',
};

/** Slide Count on the form wins; a workflow saved before it moved there has it under Additional Fields. */
function readSlideCount(item: ItemContext): number | undefined {
	const onForm = readWholeNumber(item.ctx, item.itemIndex, SLIDE_COUNT);
	if (onForm) return onForm;
	return readWholeNumber(item.ctx, item.itemIndex, SAVED_SLIDE_COUNT) || undefined;
}

/** With Brief From: Input Item, where the brief is on the item: a dot path, and how messages name it. */
function briefSource(item: ItemContext): BriefSource | undefined {
	if (item.ctx.getNodeParameter('briefFrom', item.itemIndex, 'fields') !== 'input') return undefined;
	const path = String(item.ctx.getNodeParameter('briefField', item.itemIndex, '') ?? '').trim().replace(/^\$json\.?/, '');
	return { path, where: path ? `$json.${path}` : '$json' };
}

/** A 400/422 names a field as the user gave it: on the form, or as a member of the input's brief. */
function formLabelsOf(source: BriefSource | undefined): FormLabels {
	if (!source) return CREATE_FORM_LABELS;
	return { ...CREATE_FORM_LABELS, ...Object.fromEntries(BRIEF_MEMBERS.map((member) => [member.field, `${source.where}.${member.field}`])) };
}

/**
 * The creation body: only what the user filled, and never a field the contract does not list
 * (the service refuses unknown fields with 422). The fields the contract types (`slide_count`,
 * `expected_credits`, `confirm_slide_surcharge`) are sent as their type, whatever text an
 * expression produced; the others exactly as given.
 */
export function buildCreateBody(item: ItemContext, source: BriefSource | undefined): Record<string, unknown> {
	const { ctx, itemIndex } = item;
	const body: Record<string, unknown> = { expected_credits: readExpectedCredits(ctx, itemIndex) };
	// Never set by the node itself: only a user's explicit true (after approval) sends it.
	if (readBoolean(ctx, itemIndex, CONFIRM_SURCHARGE) === true) body.confirm_slide_surcharge = true;
	if (source) {
		const reading = briefFromObject(valueAtPath(ctx.getInputData()[itemIndex]?.json, source.path), source.where);
		if (!reading.ok) throw new NodeOperationError(ctx.getNode(), reading.message, { itemIndex, description: reading.description });
		return { ...reading.body, ...body };
	}
	// Each parameter is read once: in n8n 2.x every read of an expression runs it again in an isolate.
	for (const [parameter, field] of [['title', 'title'], ['coreMessage', 'core_message'], ['audience', 'audience']] as const) {
		const value = String(ctx.getNodeParameter(parameter, itemIndex, '') ?? '').trim();
		if (value) body[field] = value;
	}
	const slideCount = readSlideCount(item);
	if (slideCount !== undefined) body.slide_count = slideCount;

	const additional = ctx.getNodeParameter('additionalFields', itemIndex, {}) as Record<string, unknown>;
	for (const [parameter, field] of Object.entries(PASSED_AS_GIVEN)) {
		const value = additional[parameter];
		if (value !== undefined && value !== '') body[field] = value;
	}
	// Read whether or not the value came out: a field that is filled but evaluates to nothing stops the item.
	const materialIds = readList(ctx, 'additionalFields.materialIds', itemIndex, 'Material IDs');
	if (materialIds) body.material_ids = materialIds;
	const languages = readList(ctx, 'additionalFields.additionalLanguages', itemIndex, 'Additional Languages');
	if (languages) body.additional_languages = languages;
	return body;
}

/** `POST /v1/decks`: buys a deck. Answers at once with its `taskId`; the deck is not ready yet. */
export async function execute(item: ItemContext) {
	const source = briefSource(item);
	const emitted = await sendMutation(item, {
		operation: 'deck.create',
		path: '/v1/decks',
		json: buildCreateBody(item, source),
		options: readOptions(item.ctx, item.itemIndex),
		requiredMember: 'taskId',
		formLabels: formLabelsOf(source),
	});
	if (emitted.json.outcome !== 'success' || item.ctx.getNodeParameter('options.simplify', item.itemIndex, false) !== true) return emitted;
	return { ...emitted, json: simplifiedPurchase(emitted.json) };
}

/**
 * A bought deck's item as Simplify keeps it (SIMPLE_FIELDS and `extra`), as small as it stays useful, since n8n
 * stores it again at every node and wait of a Check Once loop: `replayed` only when true (`charge` says the
 * rest), and `purchase` without its taskId, the item's own (shared/purchaseFacts.ts binds it to the item's).
 */
export function simplifiedPurchase(json: IDataObject, extra: readonly string[] = []): IDataObject {
	const simple: IDataObject = {};
	for (const field of [...SIMPLE_FIELDS, ...extra]) if (json[field] !== undefined) simple[field] = json[field];
	if (simple.replayed === false) delete simple.replayed;
	if (simple.purchase && typeof simple.purchase === 'object' && (simple.purchase as IDataObject).taskId === simple.taskId) {
		const { taskId: _theItems, ...purchase } = simple.purchase as IDataObject;
		simple.purchase = purchase;
	}
	return simple;
}

export const create: Operation = { description, execute, spends: true };
