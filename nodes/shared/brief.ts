/**
 * Create's "Brief From: Input Item" (issue 22): the brief is one object on the input item (a
 * webhook's `body`, a sheet row), read member by member, with no expression. In n8n 2.x every
 * expression runs in an isolate, a few milliseconds of a worker each; at thousands of decks the
 * four or five expressions that map a brief field by field are a visible part of the worker's CPU.
 *
 * Members are named as in the API (`core_message`) or as on the form (`coreMessage`). The price
 * (`expected_credits`) and the surcharge confirmation are never read from an item: they are the
 * workflow's decision and stay on the form, whatever a sender puts in its body. Other members (a
 * delivery id, who asked) are not sent: the service refuses unknown fields.
 */
import { toWholeNumber } from './coerce';
import { readListValue } from './lists';

type Kind = 'text' | 'wholeNumber' | 'asGiven' | 'list';

interface BriefMember {
	/** The API's name, sent. */
	field: string;
	/** The form's name for it, accepted too. */
	alias?: string;
	kind: Kind;
}

export const BRIEF_MEMBERS: readonly BriefMember[] = [
	{ field: 'title', kind: 'text' },
	{ field: 'core_message', alias: 'coreMessage', kind: 'text' },
	{ field: 'audience', kind: 'text' },
	{ field: 'slide_count', alias: 'slideCount', kind: 'wholeNumber' },
	{ field: 'deck_class', alias: 'deckClass', kind: 'asGiven' },
	{ field: 'notes', kind: 'asGiven' },
	{ field: 'context', kind: 'asGiven' },
	{ field: 'material_ids', alias: 'materialIds', kind: 'list' },
	{ field: 'output_language', alias: 'outputLanguage', kind: 'asGiven' },
	{ field: 'additional_languages', alias: 'additionalLanguages', kind: 'list' },
];

/** Where the brief is on the item: a dot path ('' for the item itself), and how messages name it. */
export interface BriefSource {
	path: string;
	where: string;
}

export type BriefReading =
	| { ok: true; body: Record<string, unknown> }
	| { ok: false; message: string; description: string };

const shown = (value: unknown) => {
	const text = typeof value === 'string' ? `"${value}"` : (JSON.stringify(value) ?? String(value));
	return text.length > 80 ? `${text.slice(0, 80)}…` : text;
};

/**
 * The creation body's brief from `source` (the object at `where` on the item). Refuses, before
 * anything is sent, what would buy a different deck than the one asked for: no object there, none
 * of the brief's members, a member given twice with different values, a member of the wrong type,
 * a list that is set but empty or has empty entries.
 */
export function briefFromObject(source: unknown, where: string): BriefReading {
	const fix = `Point "Input Field With Brief" at the object that holds title, core_message (or coreMessage), audience, …, or switch "Brief From" to Fields Below.`;
	if (!source || typeof source !== 'object' || Array.isArray(source)) {
		return { ok: false, message: `The input item has no brief object at ${where} (got ${source === undefined ? 'nothing' : shown(source)}); nothing was sent`, description: fix };
	}
	const object = source as Record<string, unknown>;
	const body: Record<string, unknown> = {};
	let found = 0;
	for (const member of BRIEF_MEMBERS) {
		const given = [member.field, member.alias].filter((name): name is string => !!name && object[name] !== undefined);
		if (!given.length) continue;
		found++;
		if (given.length === 2 && JSON.stringify(object[given[0]]) !== JSON.stringify(object[given[1]])) {
			return {
				ok: false,
				message: `The brief at ${where} gives ${given[0]} and ${given[1]} with different values; nothing was sent`,
				description: `Send one of them (${member.field} is the API's name, ${member.alias} the form's).`,
			};
		}
		const name = `${where}.${given[0]}`;
		const value = object[given[0]];
		const refused = (expected: string, description: string): BriefReading => ({
			ok: false,
			message: `${name} must be ${expected}, got ${shown(value)}; nothing was sent`,
			description,
		});
		switch (member.kind) {
			case 'text': {
				if (value === null) break;
				if (typeof value === 'object') return refused('text', `Send ${given[0]} as a string.`);
				const text = String(value).trim();
				if (text) body[member.field] = text;
				break;
			}
			case 'wholeNumber': {
				const number = toWholeNumber(value, 0);
				if (!number.ok) return refused('a whole number of 0 or more', `Send ${given[0]} as a number of slides, e.g. 12 (0 or leaving it out lets the service decide).`);
				if (typeof number.value === 'number' && number.value > 0) body[member.field] = number.value;
				break;
			}
			case 'asGiven':
				if (value !== null && value !== '') body[member.field] = value;
				break;
			case 'list': {
				const reading = readListValue(value, true);
				if (reading.kind === 'list') body[member.field] = reading.values;
				else if (reading.kind === 'invalidJson') return refused('a list', `Send ${given[0]} as an array, or as comma-separated text.`);
				else if (reading.kind === 'empty' || reading.kind === 'emptyEntries') {
					return refused(
						'a list without empty entries',
						`Sending it would buy the deck without part of its ${given[0]}. Leave the member out to send none on purpose.`,
					);
				}
				break;
			}
		}
	}
	if (!found) {
		const members = Object.keys(object);
		return {
			ok: false,
			message: `The object at ${where} has none of the brief's fields (it has ${members.length ? members.slice(0, 8).join(', ') : 'no members'}); nothing was sent`,
			description: fix,
		};
	}
	return { ok: true, body };
}
