/**
 * Values whose type the contract states (`slide_count` and `expected_credits` integers,
 * `confirm_slide_surcharge` boolean), read from whatever an expression produced. A webhook or
 * form brings them as text ("14", "true"); a strict service refuses text where it wants a number,
 * so they are turned into their type here, and anything that is not one is refused before any
 * request is sent. Fields whose type the contract leaves open never come through here.
 */

/** Nothing given: the field is left out of the request. */
export const NOT_GIVEN = Symbol('not given');

export type Coerced<T> = { ok: true; value: T | typeof NOT_GIVEN } | { ok: false; got: string };

function isBlank(value: unknown): boolean {
	return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

function shown(value: unknown): string {
	if (typeof value === 'string') return `"${value}"`;
	if (typeof value !== 'object') return String(value);
	try {
		return JSON.stringify(value) ?? String(value);
	} catch {
		return String(value);
	}
}

/**
 * A whole number at or above `min`: a number, or text that is exactly one ("14", " 14 ", "14.0"
 * is not). `14.5`, `"abc"`, `true` or a number below `min` are refused.
 */
export function toWholeNumber(value: unknown, min = 0): Coerced<number> {
	if (isBlank(value)) return { ok: true, value: NOT_GIVEN };
	let number: number | undefined;
	if (typeof value === 'number') number = value;
	else if (typeof value === 'string' && /^\s*[+-]?\d+\s*$/.test(value)) number = Number(value);
	if (number === undefined || !Number.isSafeInteger(number) || number < min) return { ok: false, got: shown(value) };
	return { ok: true, value: number };
}

/** A boolean: `true`/`false`, or the text "true"/"false" in any case. Anything else is refused. */
export function toBoolean(value: unknown): Coerced<boolean> {
	if (isBlank(value)) return { ok: true, value: NOT_GIVEN };
	if (typeof value === 'boolean') return { ok: true, value };
	if (typeof value === 'string') {
		const text = value.trim().toLowerCase();
		if (text === 'true') return { ok: true, value: true };
		if (text === 'false') return { ok: true, value: false };
	}
	return { ok: false, got: shown(value) };
}
