/**
 * The node's outputs and which one an outcome goes to. Operations whose answers include a 402
 * (the spending ones and Custom Request): Success, Checkout, Client Action; with "One Output per
 * Payment Option" (parameter `splitOutputsByCta`): Success, one output per cta, Other Option,
 * Other Action. From node version 1.1 the others (Get Credits, Get Status, Download, Upload) have
 * Success only; version 1 (workflows saved by 0.1 and 0.2) keeps three outputs on every operation,
 * because n8n appends its error output after ours and a saved connection names it by its index.
 */
import { isKnownCta, SPLIT_CTAS } from '../../shared/cta';
import type { Outcome } from '../../shared/outcome';

export const OUTPUT = { success: 0, checkout: 1, clientAction: 2 } as const;

/**
 * The operations a 402 (or another answer for a person) can come back from: they have the
 * Checkout and Client Action outputs and the split switch. Operation values are unique across
 * resources, so the operation alone names them.
 */
export const PAYMENT_OPERATIONS = ['create', 'recover', 'revise', 'translate', 'generateVideo', 'request'] as const;

/**
 * Short enough to read on the canvas next to eleven handles (n8n cuts a longer label); the
 * item's `cta` and `message` carry the full words.
 */
const CTA_OUTPUT_NAMES: Record<string, string> = {
	unlock_or_subscribe: 'Unlock',
	top_up: 'Top Up',
	manage_decks: 'Manage Decks',
	upgrade_for_slides: 'More Slides',
	confirm_slide_surcharge: 'Surcharge',
	subscribe_for_translation: 'Subscribe',
	translation_top_up: 'Lang. Top Up',
	buy_revision: 'Buy Revision',
};

export const SINGLE_OUTPUT_NAMES = ['Success'];
export const DEFAULT_OUTPUT_NAMES = ['Success', 'Checkout', 'Client Action'];
export const SPLIT_OUTPUT_NAMES = [
	'Success',
	...SPLIT_CTAS.map((cta) => CTA_OUTPUT_NAMES[cta]),
	'Other Option',
	'Other Action',
];

const UNKNOWN_CTA_OUTPUT = 1 + SPLIT_CTAS.length;
const OTHER_CLIENT_ACTION_OUTPUT = UNKNOWN_CTA_OUTPUT + 1;

/** The node version from which outputs follow the operation. */
export const OUTPUTS_PER_OPERATION_VERSION = 1.1;

/** Whether the node (of this version, on this operation) has the Checkout and Client Action outputs. */
export function hasPaymentOutputs(operation: string, nodeVersion: number): boolean {
	return nodeVersion < OUTPUTS_PER_OPERATION_VERSION || (PAYMENT_OPERATIONS as readonly string[]).includes(operation);
}

/** The output names, as the outputs expression gives them in the editor. */
export function outputNames(operation: string, nodeVersion: number, split: boolean): string[] {
	if (!hasPaymentOutputs(operation, nodeVersion)) return SINGLE_OUTPUT_NAMES;
	return split ? SPLIT_OUTPUT_NAMES : DEFAULT_OUTPUT_NAMES;
}

export function outputIndexFor(outcome: Outcome, split: boolean): number {
	if (outcome.route === 'success' || outcome.route === 'error') return OUTPUT.success;
	if (!split) return outcome.route === 'checkout' ? OUTPUT.checkout : OUTPUT.clientAction;
	if (outcome.cta === undefined) return OTHER_CLIENT_ACTION_OUTPUT;
	if (!isKnownCta(outcome.cta)) return UNKNOWN_CTA_OUTPUT;
	return 1 + SPLIT_CTAS.indexOf(outcome.cta);
}

/**
 * The `outputs` expression n8n evaluates in the editor and at run time; it must be
 * self-contained, so the operation list and the name lists are inlined as JSON.
 */
export const OUTPUTS_EXPRESSION: `={{${string}}}` = `={{ ($nodeVersion < ${OUTPUTS_PER_OPERATION_VERSION} || ${JSON.stringify(PAYMENT_OPERATIONS)}.includes($parameter.operation) ? ($parameter.splitOutputsByCta ? ${JSON.stringify(
	SPLIT_OUTPUT_NAMES,
)} : ${JSON.stringify(DEFAULT_OUTPUT_NAMES)}) : ${JSON.stringify(SINGLE_OUTPUT_NAMES)}).map((displayName) => ({ type: 'main', displayName })) }}`;
