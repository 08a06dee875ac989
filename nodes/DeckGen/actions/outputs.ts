/**
 * The node's outputs and which one an outcome goes to. Default: Success, Checkout, Client Action.
 * With "Split Outputs by CTA": Success, one output per cta, Unknown CTA, Other Client Action.
 * n8n appends its error output after these when the user picks "continue (using error output)".
 */
import { isKnownCta, SPLIT_CTAS } from '../../shared/cta';
import type { Outcome } from '../../shared/outcome';

export const OUTPUT = { success: 0, checkout: 1, clientAction: 2 } as const;

const CTA_OUTPUT_NAMES: Record<string, string> = {
	unlock_or_subscribe: 'Unlock or Subscribe',
	top_up: 'Top Up',
	manage_decks: 'Manage Decks',
	upgrade_for_slides: 'Upgrade for Slides',
	confirm_slide_surcharge: 'Confirm Slide Surcharge',
	subscribe_for_translation: 'Subscribe for Translation',
	translation_top_up: 'Translation Top Up',
	buy_revision: 'Buy Revision',
};

export const DEFAULT_OUTPUT_NAMES = ['Success', 'Checkout', 'Client Action'];
export const SPLIT_OUTPUT_NAMES = [
	'Success',
	...SPLIT_CTAS.map((cta) => CTA_OUTPUT_NAMES[cta]),
	'Unknown CTA',
	'Other Client Action',
];

const UNKNOWN_CTA_OUTPUT = 1 + SPLIT_CTAS.length;
const OTHER_CLIENT_ACTION_OUTPUT = UNKNOWN_CTA_OUTPUT + 1;

export function outputCount(split: boolean): number {
	return split ? SPLIT_OUTPUT_NAMES.length : DEFAULT_OUTPUT_NAMES.length;
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
 * self-contained, so the name lists are inlined as JSON.
 */
export const OUTPUTS_EXPRESSION: `={{${string}}}` = `={{ ($parameter.splitOutputsByCta ? ${JSON.stringify(
	SPLIT_OUTPUT_NAMES,
)} : ${JSON.stringify(DEFAULT_OUTPUT_NAMES)}).map((displayName) => ({ type: 'main', displayName })) }}`;
