/**
 * A validation refusal (400/422) names the body fields as the API spells them (`core_message`,
 * `["body","slide_count"]`); a person filled a form whose labels say "Core Message", "Slide Count".
 * This puts the form's labels into the refusal's field list and its text, and keeps the service's
 * own name beside each field (`serviceField`) for a workflow that reads it.
 */
import type { FieldError, ServiceFailure } from './problem';

/** Body field (as the API names it) → the label on the operation's form. */
export type FormLabels = Readonly<Record<string, string>>;

/** Field paths that name the whole body rather than one field (the framework's model-level errors). */
const WHOLE_BODY = new Set(['body', '(body)', '']);

function escape(name: string): string {
	return name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Every API name in `text` spelled as its label (whole words only). */
function relabelText(text: string, labels: FormLabels): string {
	const names = Object.keys(labels).sort((a, b) => b.length - a.length);
	if (!names.length) return text;
	const pattern = new RegExp(`(?<![A-Za-z0-9_])(${names.map(escape).join('|')})(?![A-Za-z0-9_])`, 'g');
	return text.replace(pattern, (name) => labels[name]);
}

/** Labels of the API names a text mentions, in the order the form has them. */
function mentioned(text: string, labels: FormLabels): string[] {
	return Object.entries(labels)
		.filter(([name]) => new RegExp(`(?<![A-Za-z0-9_])${escape(name)}(?![A-Za-z0-9_])`).test(text))
		.map(([, label]) => label);
}

function relabelField(field: FieldError, labels: FormLabels): FieldError {
	const [head, ...rest] = field.field.split('.');
	const message = relabelText(field.message, labels);
	let label: string | undefined;
	if (labels[head] !== undefined) {
		// `material_ids.1`: the second entry of Material IDs.
		const index = rest.length === 1 && /^\d+$/.test(rest[0]) ? Number(rest[0]) : undefined;
		label = index !== undefined ? `${labels[head]} (entry ${index + 1})` : [labels[head], ...rest].join('.');
	} else if (WHOLE_BODY.has(field.field)) {
		// "one of core_message or title is required": the fields the rule is about.
		const named = mentioned(field.message, labels);
		if (named.length) label = named.join(', ');
	}
	if (label === undefined && message === field.message) return field;
	return { ...field, field: label ?? field.field, message, serviceField: field.serviceField ?? field.field };
}

/** The refusal with the form's labels; any other failure as it is. */
export function withFormLabels(failure: ServiceFailure, labels: FormLabels): ServiceFailure {
	if (failure.code !== 'validation_failed') return failure;
	const fields = failure.fields.map((field) => relabelField(field, labels));
	const listed = (list: FieldError[]) => list.map((f) => `${f.field}: ${f.message}`).join('; ');
	// A detail that is the field list itself (the framework's shape, and problems that spell it so) is
	// written again from the relabelled list; any other detail gets the labels in its words.
	const detail = failure.fields.length && failure.detail === listed(failure.fields) ? listed(fields) : relabelText(failure.detail, labels);
	return { ...failure, fields, detail };
}
