/**
 * A status record read once (issue 43): every value it holds, each with the path a person would paste into
 * Status Word Path or File Link Path, and what it looks like (a link, a word, a flag, a number, text), and every
 * object it holds with how it is reached (through envelopes only, or through a part of the job: a sub-task, an
 * input, one export format). The judgement (judge.ts) asks it for the record's links, for the state word at any
 * depth when nothing shallower gives one, for what moved between two reads, and for the paths to suggest when
 * the built-in reading finds no word or no file. It is built from the answer with its JSON strings read through
 * (record.ts expandJsonStrings), in document order, with bounds: a record is a service's answer, not a dataset.
 */
import { displayUrl } from '../download';
import { isDeliverable, mayBeTheFile, urlOf, type FoundLink } from '../links';
import { BESIDE_THE_DECK, declaresPreview, ENUM_LIKE, ENVELOPE_PARTS, ENVELOPE_WORDS, isPartMember, memberKey, NOT_A_STATE, ownWord, PLAIN_ENVELOPES, wordRank } from './members';
import { classify, normalise, type StatusWords } from './vocabulary';

export type LeafKind = 'link' | 'word' | 'flag' | 'number' | 'text' | 'empty';

export interface Leaf {
	/** As Status Word Path and File Link Path take it: `result.default.status`, `data.files[0].url`. */
	path: string;
	/** The member it is under (a list's own name for its entries). */
	name: string;
	value: string | number | boolean | null;
	kind: LeafKind;
	/** Objects and lists above it: 0 for a member of the answer itself. */
	depth: number;
	/** A link's absolute address (a root-relative one resolved against the status URL). */
	url?: string;
	/** Reached through envelopes only, as Place.envelope. */
	envelope: boolean;
}

export interface Place {
	/** '' for the answer itself. */
	path: string;
	value: Record<string, unknown>;
	depth: number;
	/**
	 * Reached from the answer through envelopes only (objects, and lists of one entry), never through a part of
	 * the job (members.ts PART_MEMBERS: a sub-task, an input file, a preview, a payment, an attempt; or a list of
	 * several entries): where the job's own record may sit.
	 */
	envelope: boolean;
	/**
	 * Reached through names that plainly wrap the record only (members.ts PLAIN_ENVELOPES below the answer's own
	 * members), never through a list: a word here is plainly the deck's; elsewhere it is read but not believed
	 * alone (record.ts `Located.weak`).
	 */
	plain: boolean;
}

export interface RecordIndex {
	leaves: Leaf[];
	/** Every object, the answer first, shallowest first. */
	places: Place[];
	/** Every link, in document order, with its path (as links.ts findLinks reads them). */
	links: FoundLink[];
	/** The paths of the links inside an entry that says it is a preview (members.ts declaresPreview): never the deck. */
	previewLinks: Set<string>;
	/** The record is longer than the reading reads (MAX_VISITS values): how many values it read before it stopped. */
	cut?: number;
}

const MAX_DEPTH = 8;
/**
 * Bounds on the work, not on what is seen (issue 50, point 3: a finished record with 500 slides before its
 * download link was never completed): past MAX_LEAVES values the index keeps only the links (every one, so the
 * deck's file is found however late it comes) and the word members; past MAX_VISITS values it stops, and says so
 * (`cut`), for the note.
 */
const MAX_LEAVES = 2_000;
const MAX_VISITS = 200_000;

function kindOf(value: string | number | boolean | null, url: string | undefined): LeafKind {
	if (value === null || value === '') return 'empty';
	if (typeof value === 'boolean') return 'flag';
	if (typeof value === 'number') return 'number';
	if (url) return 'link';
	return value.length <= 48 && ENUM_LIKE.test(value.trim()) ? 'word' : 'text';
}

/** The record's index: its leaves and links in document order, its objects shallowest first. */
export function indexRecord(view: Record<string, unknown>, resolveAgainst?: string): RecordIndex {
	const leaves: Leaf[] = [];
	const places: Place[] = [];
	const previewLinks = new Set<string>();
	let visits = 0;
	let cut: number | undefined;
	const visit = (value: unknown, path: string, name: string, depth: number, envelope: boolean, plain: boolean, preview = false): void => {
		if (++visits > MAX_VISITS) {
			cut ??= MAX_VISITS;
			return;
		}
		if (value === null || typeof value !== 'object') {
			if (!path || value === undefined || typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint') return;
			const leafValue = value as string | number | boolean | null;
			const url = typeof leafValue === 'string' ? urlOf(leafValue, resolveAgainst) : undefined;
			// past MAX_LEAVES only what can decide is kept: the links, and the words under a word member
			if (leaves.length >= MAX_LEAVES && !url && wordRank(name) === undefined) return;
			leaves.push({ path, name, value: leafValue, kind: kindOf(leafValue, url), depth, envelope, ...(url ? { url } : {}) });
			if (url && preview) previewLinks.add(path);
			return;
		}
		if (depth >= MAX_DEPTH) return;
		if (Array.isArray(value)) {
			// a list's one entry may be the record (AWS Batch's `jobs[0]`); several entries are parts
			value.forEach((entry, index) => visit(entry, `${path}[${index}]`, name, depth + 1, envelope && value.length === 1, false, preview));
			return;
		}
		const record = value as Record<string, unknown>;
		places.push({ path, value: record, depth, envelope, plain: envelope && plain });
		const inPreview = preview || declaresPreview(record);
		for (const [member, inner] of Object.entries(record)) {
			// a part of the job is no envelope, but for the parts that may hold the whole record (DashScope's `output`);
			// a text under a step's or a file's name is a member of this object (`stage: "generating"`), not a part,
			// while one under a name beside the deck (`preview: "https://…/cover.png"`) stays that part's
			const part = isPartMember(member) && !ENVELOPE_PARTS.test(member) && ((inner !== null && typeof inner === 'object') || BESIDE_THE_DECK.test(member));
			visit(inner, path ? `${path}.${member}` : member, member, depth + 1, envelope && !part, plain && (depth === 0 || PLAIN_ENVELOPES.test(member)), inPreview);
		}
	};
	visit(view, '', '', 0, true, true);
	places.sort((a, b) => a.depth - b.depth);
	const links = leaves.flatMap((leaf) => (leaf.url ? [{ path: leaf.path, url: leaf.url }] : []));
	return { leaves, places, links, previewLinks, ...(cut ? { cut } : {}) };
}

/**
 * The state word at any depth (Cloudflare's `result.default.status`, a GraphQL answer's `data.node.status`), for a
 * record whose answer and first envelope give none: the plainest word member (status, state, …) of the shallowest
 * object reached through envelopes only, two or more levels down, whose text is a word of the vocabulary.
 */
export function deepWord(index: RecordIndex, words: StatusWords): { place: Place; word: string; path: string; weak: boolean } | undefined {
	for (const place of index.places) {
		if (place.depth < 2 || !place.envelope) continue;
		const found = ownWord(place.value);
		if (!found?.text || !ENUM_LIKE.test(found.word.trim()) || ENVELOPE_WORDS.has(normalise(found.word))) continue;
		const reading = classify(found.word, words);
		if (reading.state === 'unknown' && !reading.endsInSuccess) continue;
		return { place, word: found.word, path: `${place.path}.${found.path}`, weak: !place.plain };
	}
	return undefined;
}

/** A path to paste, with what is there now. */
export interface Suggestion {
	path: string;
	value: string;
}

const SUGGESTED = 3;

/**
 * Where this record's state word could be, for Status Word Path: its enum-like values (one to four words, no
 * prose), those under a member named for a state first (status, state, phase…), then those that read as a word
 * of the vocabulary, then (`broad`: the record has no word at all) any other; shallowest first within each;
 * never a word under a part of the job (a slide's, a payment's: members.ts PART_MEMBERS),
 * never a member about something else (a title, an id, a type), an envelope's word about the request, nor the
 * word already read (`read`).
 */
export function wordSuggestions(index: RecordIndex, words: StatusWords, read: string | undefined, broad: boolean): Suggestion[] {
	const rank = (leaf: Leaf): number | undefined => {
		if (leaf.kind !== 'word' || !leaf.envelope || leaf.path === read || NOT_A_STATE.test(memberKey(leaf.name)) || ENVELOPE_WORDS.has(normalise(String(leaf.value)))) return undefined;
		if (wordRank(leaf.name) !== undefined) return 0;
		const reading = classify(String(leaf.value), words);
		if (reading.state !== 'unknown' || reading.endsInSuccess) return 1;
		// any other value, only where the record has no word at all; never one under a part of the job (a slide's,
		// a payment's, an attempt's word is about that part, never the deck's: issue 50)
		return broad ? 2 : undefined;
	};
	return index.leaves
		.map((leaf, order) => ({ leaf, order, rank: rank(leaf) }))
		.filter((candidate): candidate is { leaf: Leaf; order: number; rank: number } => candidate.rank !== undefined)
		.sort((a, b) => a.rank - b.rank || a.leaf.depth - b.leaf.depth || a.order - b.order)
		.slice(0, SUGGESTED)
		.map(({ leaf }) => ({ path: portablePath(index, leaf.path), value: String(leaf.value) }));
}

/**
 * A word on no list under a member named for a state, reached through envelopes only (`result.default.status:
 * "wrapped_up"`), for a record whose reading found no word: what the service did say, and where (issue 50 B13),
 * rather than "no status word". Never a part's word (a slide's, an attempt's).
 */
export function unlistedWord(index: RecordIndex, words: StatusWords): Suggestion | undefined {
	const leaf = index.leaves.find(
		(candidate) =>
			candidate.kind === 'word' &&
			candidate.envelope &&
			wordRank(candidate.name) !== undefined &&
			!ENVELOPE_WORDS.has(normalise(String(candidate.value))) &&
			classify(String(candidate.value), words).state === 'unknown',
	);
	return leaf && { path: portablePath(index, leaf.path), value: String(leaf.value) };
}

/** A member name that is an identifier (`tsk_123`, `8f2c…`, `1234567`): a letter-and-digit or digit run, no word. */
const ID_LIKE = /^(?:(?=[^.]*\d)[A-Za-z0-9_-]{6,}|\d{4,})$/;

/**
 * A path that works for every deck (issue 50 B12): a member named after this deck's id, the only member of its
 * object (`statuses.tsk_123.status`, a map keyed by the deck's id), as `*` (`statuses.*.status`), which the path
 * options read as any one member.
 */
function portablePath(index: RecordIndex, path: string): string {
	const steps = path.split('.');
	return steps
		.map((step, at) => {
			const name = /^[^[]*/.exec(step)?.[0] ?? step;
			if (at === 0 || !ID_LIKE.test(name)) return step;
			const parent = index.places.find((place) => place.path === steps.slice(0, at).join('.'));
			return parent && Object.keys(parent.value).length === 1 ? `*${step.slice(name.length)}` : step;
		})
		.join('.');
}

/**
 * Where this record's deck file could be, for File Link Path: its links, a deliverable first (one that names a
 * file, a download or an export), never a preview, a page of the service's app or an API address.
 */
export function fileSuggestions(index: RecordIndex): Suggestion[] {
	const candidates = index.links.filter((link) => mayBeTheFile(link) && !index.previewLinks.has(link.path));
	return [...candidates.filter((link) => isDeliverable(link)), ...candidates.filter((link) => !isDeliverable(link))]
		.slice(0, SUGGESTED)
		.map((link) => ({ path: portablePath(index, link.path), value: displayUrl(link.url) }));
}

/** `Status Word Path \`result.default.status\` is "inprogress"`: one suggestion as the note and the hint write it. */
export function suggestionText(option: string, suggestion: Suggestion): string {
	const value = suggestion.value.length > 90 ? `${suggestion.value.slice(0, 87)}…` : suggestion.value;
	return `${option} \`${suggestion.path}\` is ${JSON.stringify(value)}`;
}

/** The members of a record that move while a job runs (its word, its `done`, its links, its progress), as one text. */
export function fingerprintOf(index: RecordIndex, parts: { word?: string; done?: boolean; progress?: string }): string {
	const links = index.links.map((link) => `${link.path}=${link.url.split('?')[0]}`).join(',');
	return `${parts.word ?? ''}\u0000${parts.done ?? ''}\u0000${parts.progress ?? ''}\u0000${links}`;
}
