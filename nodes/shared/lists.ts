/**
 * List fields of a purchase (Material IDs, Additional Languages, Translate's Languages): an array
 * from an expression, a JSON array, or comma-separated text. A list that is part of the brief must
 * arrive whole: a value that is set but comes out as nothing (`{{ $json.materialId }}` on an item
 * without one) or with empty entries would buy the deck without part of what was asked for, so it
 * is refused before anything is sent, never dropped.
 */

export type ListReading =
	/** Nothing given at all: the field is left out. */
	| { kind: 'absent' }
	| { kind: 'list'; values: unknown[] }
	/** Set, but evaluated to nothing (undefined, null, empty text, an empty array). */
	| { kind: 'empty'; got: string }
	/** Some entries are empty (undefined, null, blank text); `positions` are 1-based. */
	| { kind: 'emptyEntries'; got: string; positions: number[] }
	| { kind: 'invalidJson'; got: string };

function shown(value: unknown): string {
	if (value === undefined) return 'undefined';
	if (typeof value === 'string') return `"${value.length > 80 ? `${value.slice(0, 80)}…` : value}"`;
	try {
		const text = JSON.stringify(value) ?? String(value);
		return text.length > 80 ? `${text.slice(0, 80)}…` : text;
	} catch {
		return String(value);
	}
}

const isEmptyEntry = (entry: unknown) => entry === undefined || entry === null || (typeof entry === 'string' && entry.trim() === '');

/**
 * Reads a list value. `set` says whether the user filled the field (a literal or an expression):
 * only then is an empty result an error rather than "not given".
 */
export function readListValue(value: unknown, set: boolean): ListReading {
	let entries: unknown[];
	if (Array.isArray(value)) entries = value;
	else if (typeof value === 'string' && value.trim().startsWith('[')) {
		try {
			const parsed = JSON.parse(value.trim()) as unknown;
			if (!Array.isArray(parsed)) return { kind: 'invalidJson', got: shown(value) };
			entries = parsed;
		} catch {
			return { kind: 'invalidJson', got: shown(value) };
		}
	} else if (typeof value === 'string') {
		entries = value.trim() === '' ? [] : value.trim().split(/\s*[,\n]\s*/);
	} else if (value === undefined || value === null) entries = [];
	else entries = [value];

	if (entries.length === 0) return set ? { kind: 'empty', got: shown(value) } : { kind: 'absent' };
	const positions = entries.flatMap((entry, index) => (isEmptyEntry(entry) ? [index + 1] : []));
	if (positions.length) return { kind: 'emptyEntries', got: shown(value), positions };
	return { kind: 'list', values: entries.map((entry) => (typeof entry === 'string' ? entry.trim() : entry)) };
}

/** Whether a raw (unevaluated) parameter was filled: an expression or a non-empty literal. */
export function isFilled(raw: unknown): boolean {
	if (raw === undefined || raw === null) return false;
	if (typeof raw === 'string') return raw.trim() !== '' && raw.trim() !== '=';
	return !(Array.isArray(raw) && raw.length === 0);
}
