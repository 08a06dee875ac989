// Strict JSON bodies, refused in the web framework's native 422 shape (pydantic/FastAPI style):
// {"detail":[{"type","loc":["body",...],"msg","input"}]}. Unknown fields are refused, never ignored.
import type { ValidationIssue } from './problem';

export type Field =
	| { kind: 'string'; minLength?: number; pattern?: RegExp }
	| { kind: 'integer'; ge?: number; le?: number }
	| { kind: 'boolean' }
	| { kind: 'stringList'; minItems?: number; maxItems?: number; item: { minLength?: number; pattern?: RegExp }; unique?: boolean }
	| { kind: 'integerList'; maxItems?: number };

export interface Schema {
	fields: Record<string, Field>;
	required: string[];
	/** Cross-field rule run when every field is valid; returns issues (pydantic's model validator). */
	check?: (value: Record<string, unknown>) => ValidationIssue[];
}

export type Parsed = { ok: true; value: Record<string, unknown> } | { ok: false; issues: ValidationIssue[] };

export const LANGUAGE = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

function isJsonType(contentType: string | undefined): boolean {
	const mime = (contentType ?? '').split(';')[0].trim().toLowerCase();
	return mime === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(mime);
}

export function parseJsonBody(raw: Buffer, contentType: string | undefined, schema: Schema): Parsed {
	const text = raw.toString('utf8');
	if (!isJsonType(contentType)) {
		return {
			ok: false,
			issues: [{ type: 'model_attributes_type', loc: ['body'], msg: 'Input should be a valid dictionary or object to extract fields from (send Content-Type: application/json)', input: text }],
		};
	}
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch (err) {
		const pos = /position (\d+)/.exec(String((err as Error).message));
		return {
			ok: false,
			issues: [{ type: 'json_invalid', loc: ['body', pos ? Number(pos[1]) : 0], msg: 'JSON decode error', input: {}, ctx: { error: (err as Error).message } }],
		};
	}
	return validateObject(value, schema);
}

export function validateObject(value: unknown, schema: Schema): Parsed {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) {
		return { ok: false, issues: [{ type: 'model_attributes_type', loc: ['body'], msg: 'Input should be a valid dictionary or object to extract fields from', input: value }] };
	}
	const body = value as Record<string, unknown>;
	const issues: ValidationIssue[] = [];
	for (const name of schema.required) {
		if (!(name in body)) issues.push({ type: 'missing', loc: ['body', name], msg: 'Field required', input: body });
	}
	for (const [name, v] of Object.entries(body)) {
		const field = schema.fields[name];
		if (!field) {
			issues.push({ type: 'extra_forbidden', loc: ['body', name], msg: 'Extra inputs are not permitted', input: v });
			continue;
		}
		issues.push(...checkField(field, v, ['body', name]));
	}
	if (issues.length === 0 && schema.check) issues.push(...schema.check(body));
	return issues.length ? { ok: false, issues } : { ok: true, value: body };
}

function checkString(v: unknown, loc: Array<string | number>, minLength?: number, pattern?: RegExp): ValidationIssue[] {
	if (typeof v !== 'string') return [{ type: 'string_type', loc, msg: 'Input should be a valid string', input: v }];
	if (minLength !== undefined && v.length < minLength) {
		return [{ type: 'string_too_short', loc, msg: `String should have at least ${minLength} character${minLength === 1 ? '' : 's'}`, input: v, ctx: { min_length: minLength } }];
	}
	if (pattern && !pattern.test(v)) {
		return [{ type: 'string_pattern_mismatch', loc, msg: `String should match pattern '${pattern.source}'`, input: v, ctx: { pattern: pattern.source } }];
	}
	return [];
}

function checkField(field: Field, v: unknown, loc: Array<string | number>): ValidationIssue[] {
	switch (field.kind) {
		case 'string':
			return checkString(v, loc, field.minLength, field.pattern);
		case 'boolean':
			return typeof v === 'boolean' ? [] : [{ type: 'bool_type', loc, msg: 'Input should be a valid boolean', input: v }];
		case 'integer': {
			if (typeof v !== 'number' || !Number.isFinite(v)) return [{ type: 'int_type', loc, msg: 'Input should be a valid integer', input: v }];
			if (!Number.isInteger(v)) {
				return [{ type: 'int_from_float', loc, msg: 'Input should be a valid integer, got a number with a fractional part', input: v }];
			}
			if (field.ge !== undefined && v < field.ge) {
				return [{ type: 'greater_than_equal', loc, msg: `Input should be greater than or equal to ${field.ge}`, input: v, ctx: { ge: field.ge } }];
			}
			if (field.le !== undefined && v > field.le) {
				return [{ type: 'less_than_equal', loc, msg: `Input should be less than or equal to ${field.le}`, input: v, ctx: { le: field.le } }];
			}
			return [];
		}
		case 'stringList': {
			if (!Array.isArray(v)) return [{ type: 'list_type', loc, msg: 'Input should be a valid list', input: v }];
			if (field.minItems !== undefined && v.length < field.minItems) {
				return [{ type: 'too_short', loc, msg: `List should have at least ${field.minItems} item after validation, not ${v.length}`, input: v, ctx: { field_type: 'List', min_length: field.minItems, actual_length: v.length } }];
			}
			if (field.maxItems !== undefined && v.length > field.maxItems) {
				return [{ type: 'too_long', loc, msg: `List should have at most ${field.maxItems} items after validation, not ${v.length}`, input: v, ctx: { field_type: 'List', max_length: field.maxItems, actual_length: v.length } }];
			}
			const issues = v.flatMap((item, i) => checkString(item, [...loc, i], field.item.minLength, field.item.pattern));
			if (issues.length === 0 && field.unique && new Set(v).size !== v.length) {
				issues.push({ type: 'value_error', loc, msg: 'Value error, items must be unique', input: v });
			}
			return issues;
		}
		case 'integerList': {
			if (!Array.isArray(v)) return [{ type: 'list_type', loc, msg: 'Input should be a valid list', input: v }];
			if (field.maxItems !== undefined && v.length > field.maxItems) {
				return [{ type: 'too_long', loc, msg: `List should have at most ${field.maxItems} items after validation, not ${v.length}`, input: v, ctx: { field_type: 'List', max_length: field.maxItems, actual_length: v.length } }];
			}
			// Strict, as pydantic's StrictInt: "4711" is not 4711.
			return v.flatMap((item, i) =>
				Number.isSafeInteger(item) ? [] : [{ type: 'int_type', loc: [...loc, i], msg: 'Input should be a valid integer', input: item }],
			);
		}
	}
}

// Creation body. deck_class, notes and context are free strings; material_ids are ids from POST /v1/materials;
// languages are BCP 47-like tags. Required: expected_credits, and core_message or title.
export const CREATE_DECK: Schema = {
	fields: {
		deck_class: { kind: 'string', minLength: 1 },
		audience: { kind: 'string' },
		core_message: { kind: 'string', minLength: 1 },
		title: { kind: 'string', minLength: 1 },
		slide_count: { kind: 'integer', ge: 1, le: 100 },
		notes: { kind: 'string' },
		context: { kind: 'string' },
		material_ids: { kind: 'stringList', maxItems: 20, item: { minLength: 1 } },
		output_language: { kind: 'string', pattern: LANGUAGE },
		additional_languages: { kind: 'stringList', maxItems: 10, item: { pattern: LANGUAGE }, unique: true },
		confirm_slide_surcharge: { kind: 'boolean' },
		expected_credits: { kind: 'integer', ge: 0 },
	},
	required: ['expected_credits'],
	check: (body) =>
		body.core_message === undefined && body.title === undefined
			? [{ type: 'value_error', loc: ['body'], msg: 'Value error, one of core_message or title is required', input: body }]
			: [],
};

export const CREATE_REVISION: Schema = {
	fields: {
		instructions: { kind: 'string', minLength: 1 },
		expected_credits: { kind: 'integer', ge: 0 },
	},
	required: ['instructions', 'expected_credits'],
};

export const CREATE_TRANSLATION: Schema = {
	fields: {
		languages: { kind: 'stringList', minItems: 1, maxItems: 10, item: { pattern: LANGUAGE }, unique: true },
		expected_credits: { kind: 'integer', ge: 0 },
	},
	required: ['languages', 'expected_credits'],
};

export const CREATE_VIDEO: Schema = {
	fields: { expected_credits: { kind: 'integer', ge: 0 } },
	required: ['expected_credits'],
};
