/**
 * The one link finder, for every answer. The contract shows neither the status response's fields
 * nor the shape of a 402 option, so no member name is assumed: every http(s) URL anywhere in a body
 * is found with its JSON path (`deckUrl`, `files.pdf`, `export.url`, `result.download_url`,
 * `files[0].url`; a 402 option's `url`, `href`, `link.url`, `_links.checkout.href`), and the link a
 * person needs is picked by what its name and path say: the deck file in a status (`bestDeckFile`),
 * the way forward in a refusal (`actionLink`).
 */

export interface FoundLink {
	/** JSON path of the member, e.g. `files.pdf` or `files[0].url`. */
	path: string;
	url: string;
}

const MAX_DEPTH = 8;

/**
 * Every http(s) URL string member of a status body, in document order, with its JSON path. With
 * `resolveAgainst` (the URL the body was read from), a root-relative path such as
 * `/v1/decks/t/files/deck.pptx` is a link too, made absolute: the status fields are not shown, and
 * a service may give its own files by path.
 */
export function findLinks(body: unknown, resolveAgainst?: string): FoundLink[] {
	const found: FoundLink[] = [];
	const visit = (value: unknown, path: string, depth: number): void => {
		if (typeof value === 'string') {
			const url = path ? urlOf(value, resolveAgainst) : undefined;
			if (url) found.push({ path, url });
			return;
		}
		if (depth >= MAX_DEPTH || !value || typeof value !== 'object') return;
		if (Array.isArray(value)) {
			value.forEach((entry, index) => visit(entry, `${path}[${index}]`, depth + 1));
			return;
		}
		for (const [name, member] of Object.entries(value as Record<string, unknown>)) {
			visit(member, path ? `${path}.${name}` : name, depth + 1);
		}
	};
	visit(body, '', 0);
	return found;
}

/** The link a text is: an http(s) URL, or with `resolveAgainst` a root-relative path made absolute; else undefined. */
export function urlOf(text: string, resolveAgainst?: string): string | undefined {
	const trimmed = text.trim();
	if (isHttpUrl(trimmed)) return trimmed;
	return resolveAgainst && ROOT_RELATIVE.test(trimmed) ? absolute(trimmed, resolveAgainst) : undefined;
}

/** `/path…`, not `//host` (a scheme-relative URL names another host) and not a bare `/`. */
const ROOT_RELATIVE = /^\/[^/\s][^\s]*$/;

/**
 * A root-relative path made absolute against the URL the body was read from. A path under `/v1/` is
 * an API path, and the contract makes every address relative to the Base URL: behind a gateway
 * prefix (`https://host/api`, read from `https://host/api/v1/decks/t/status`) it keeps the prefix
 * (`https://host/api/v1/decks/t/files/deck.pptx`); any other path is on the host's root.
 */
function absolute(path: string, base: string): string | undefined {
	try {
		const prefix = path.startsWith('/v1/') ? /^(.*?)\/v1\//.exec(new URL(base).pathname)?.[1] ?? '' : '';
		const url = new URL(`${prefix}${path}`, base);
		return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : undefined;
	} catch {
		return undefined;
	}
}

function isHttpUrl(text: string): boolean {
	const trimmed = text.trim();
	if (!/^https?:\/\//i.test(trimmed)) return false;
	try {
		new URL(trimmed);
		return true;
	} catch {
		return false;
	}
}

/** A file name or address ending in an image format: a preview, a thumbnail, a slide picture, never the deck. */
const IMAGE_FILE = /\.(png|jpe?g|webp|gif|svg|heic|heif|avif|bmp|tiff?|ico)(?:$|[?#])/i;

/** Words that name a preview of the deck: never the deck itself. */
const PREVIEW_WORDS = /preview|thumbnail|thumb|poster|image/i;

/**
 * `status` names the API's status address (`status_url`, `urls.status`, `/v1/decks/t/status`), never `statuses`: a
 * map of records by id (`statuses.<id>.videos[0].url`) holds the files themselves (issue 50 B10).
 */
const STATUS_WORD = 'status(?!es)';

/** Words for things about a deck that are not its file: a preview (PREVIEW_WORDS), a page of the app, the status, help. */
const NOT_THE_FILE = new RegExp(
	`${PREVIEW_WORDS.source}|avatar|logo|icon|web_?url|app_?url|(?<!cr)edit|viewer|embed|share|self|${STATUS_WORD}|callback|webhook|stream|cancel|logs?\\b|docs?\\b|help`,
	'i',
);

/**
 * What a link's path and URL say about it: words for the deck file raise it, words for pages that
 * are not the file (a preview, a thumbnail, an image, the app's page, the status itself, a video)
 * lower it. Earlier entries of a body win ties, so the service's own order decides between equals.
 */
const SIGNALS: Array<[RegExp, number]> = [
	[/pptx|powerpoint|presentation/i, 60],
	[/\bpdf\b|[._/]pdf\b|pdf_?url|_pdf|\.pdf/i, 45],
	[/download|export|file|result|output|artifact/i, 30],
	[/deck|slides?/i, 20],
	[/url|href|link/i, 5],
	[NOT_THE_FILE, -60],
	[/video|mp4/i, -40],
];

/** What names the deck's own file: its format (pptx, pdf, key, odp) or a download or export of it. */
const DECK_FILE = /pptx?\b|\.pptx?|powerpoint|\bpdf\b|[._/]pdf\b|pdf_?url|_pdf|\.(key|odp)\b|download|export/i;

function score(link: FoundLink, signals: Array<[RegExp, number]> = SIGNALS): number {
	const pathname = pathnameOf(link.url);
	const text = `${link.path} ${pathname}`;
	const sum = signals.reduce((total, [pattern, weight]) => (pattern.test(text) ? total + weight : total), 0);
	// an image file is a preview whatever its member is called (`output[0]`, `files.cover`)
	return signals === SIGNALS && IMAGE_FILE.test(pathname) ? sum - 100 : sum;
}

/**
 * Whether a link is the deck to hand over, not only a page about it: its path or address names the
 * file (pptx, pdf, presentation), a download, export, file, result or output, or the deck or slides,
 * and nothing that makes it a preview, an image, a status or the app's page (SIGNALS). A bare `url`
 * is not enough. `strict` (the word says the deck is still being made, or failed): only a link that
 * names the deck's file format or a download/export, since services put previews and intermediate
 * files in `output` before the end, and keep other links beside a failure.
 */
export function isDeliverable(link: FoundLink, strict = false): boolean {
	return score(link) >= 20 && (!strict || DECK_FILE.test(`${link.path} ${pathnameOf(link.url)}`));
}

/** Whether a text that is not a link (a storage key, a file name) names a preview or an image. */
export function isPreviewText(text: string): boolean {
	return IMAGE_FILE.test(text) || PREVIEW_WORDS.test(text);
}

/** Whether a text names the deck's own file: its format, or a download or export of it. */
export function namesDeckFile(text: string): boolean {
	return DECK_FILE.test(text);
}

function pathnameOf(url: string): string {
	try {
		return new URL(url).pathname;
	} catch {
		return '';
	}
}

/**
 * The deck's file among a record's links: the best by what its name and path say (pptx before pdf, a download
 * before a bare url) of those that are a deliverable (`isDeliverable`, with `strict` as there); never a preview
 * or an image. Undefined when none is.
 */
export function bestDeckFile(links: FoundLink[], strict = false): FoundLink | undefined {
	return bestBy(links.filter((link) => isDeliverable(link, strict) && !isPreviewLink(link)), SIGNALS);
}

/** A preview: an image file, or a link whose name says preview, thumbnail or image. */
function isPreviewLink(link: FoundLink): boolean {
	return IMAGE_FILE.test(pathnameOf(link.url)) || PREVIEW_WORDS.test(link.path);
}

/** What makes a link in a refusal the way forward (checkout, subscription, settings) or only documentation. */
const ACTION_SIGNALS: Array<[RegExp, number]> = [
	[/checkout|pay|purchase|buy|billing|subscri|upgrade|top_?up|credits?|pricing|plan|unlock|account|settings|manage|next/i, 30],
	[/url|href|link/i, 5],
	[/docs?\b|help|errors?\b|problems?\b|self|status/i, -40],
];

/** Members of a problem body that are about the problem, not a way forward (RFC 9457 `type`, `instance`). */
const PROBLEM_ONLY = new Set(['type', 'instance']);

/** Every link of a refusal's body with its JSON path, but the problem's own `type` and `instance`. */
export function refusalLinks(body: unknown): FoundLink[] {
	return findLinks(body).filter((link) => !PROBLEM_ONLY.has(link.path));
}

/**
 * The link a person should follow after a refusal (a 402), with the label beside it: the first
 * option, in the service's order, that carries a link anywhere inside it; else the body's own best
 * link outside its options (HAL `_links`, `checkoutUrl`), never the problem's `type` or `instance`.
 * That last one must look like a way forward, unless `anyLink` (a failure's body: a help page helps).
 */
export function actionLink(body: unknown, anyLink = false): { url: string; path: string; label?: string } | undefined {
	if (!body || typeof body !== 'object') return undefined;
	const record = body as Record<string, unknown>;
	const options = Array.isArray(record.options) ? record.options : [];
	for (const [index, option] of options.entries()) {
		const best = bestBy(findLinks(option), ACTION_SIGNALS);
		if (best) return { url: best.url, path: `options[${index}].${best.path}`, label: labelOf(option) };
	}
	const own = refusalLinks(record).filter((link) => !link.path.startsWith('options['));
	const best = bestBy(own, ACTION_SIGNALS);
	return best && (anyLink || score(best, ACTION_SIGNALS) > 0) ? { url: best.url, path: best.path } : undefined;
}

function bestBy(links: FoundLink[], signals: Array<[RegExp, number]>): FoundLink | undefined {
	let best: { link: FoundLink; score: number } | undefined;
	for (const link of links) {
		const value = score(link, signals);
		if (!best || value > best.score) best = { link, score: value };
	}
	return best?.link;
}

/** An option's words for a person: `label`, `title`, `name` or `text`. */
function labelOf(option: unknown): string | undefined {
	if (!option || typeof option !== 'object') return undefined;
	const record = option as Record<string, unknown>;
	const label = [record.label, record.title, record.name, record.text].find((value) => typeof value === 'string' && value.trim() !== '');
	return label as string | undefined;
}

/**
 * The link at a File Link Path (the user's statement of where the deck's file is): the text there, if it is a
 * link (root-relative ones resolved as findLinks does), else the best link inside what is there (an object or a
 * list: its first deck file, else its first link).
 */
export function linkAt(value: unknown, path: string, resolveAgainst?: string): FoundLink | undefined {
	if (typeof value === 'string') {
		const url = urlOf(value, resolveAgainst);
		return url ? { path, url } : undefined;
	}
	const inside = findLinks(value, resolveAgainst);
	const best = inside.find((link) => isDeliverable(link)) ?? inside[0];
	return best && { path: best.path.startsWith('[') ? `${path}${best.path}` : `${path}.${best.path}`, url: best.url };
}

/**
 * What a link is, said on each entry of an item's `links`: `deck` (the deck's file, deckUrl), `preview` (an
 * image of it), `page` (a page of the service's app: viewer, editor, share), `api` (the status, a stream, a
 * callback), `file` (another file: a second format, an input document, an intermediate file), `other`.
 */
export type LinkKind = 'deck' | 'preview' | 'page' | 'api' | 'file' | 'other';

export interface DescribedLink extends FoundLink {
	kind: LinkKind;
}

/** Words for a page of the service's app, not a file. */
const PAGE_WORDS = /web_?url|app_?url|page|(?<!cr)edit|viewer|view_?url|embed|share|dashboard|console|gamma_?url|open_?url/i;

/** Words for the API's own addresses: the status itself, a stream, a callback. */
const API_WORDS = new RegExp(`self|${STATUS_WORD}|callback|webhook|stream|cancel|logs?\\b|\\bget\\b|urls\\.get|poll`, 'i');

const HAS_EXTENSION = /\.[a-z0-9]{2,5}$/i;

function kindOf(link: FoundLink): Exclude<LinkKind, 'deck'> {
	if (isPreviewLink(link)) return 'preview';
	if (PAGE_WORDS.test(link.path)) return 'page';
	if (API_WORDS.test(link.path)) return 'api';
	const pathname = pathnameOf(link.url);
	if (HAS_EXTENSION.test(pathname) || isDeliverable(link)) return 'file';
	return 'other';
}

/** Whether a link may be the deck's file, as far as its name and address say: not a preview, a page of the app, nor an API address. */
export function mayBeTheFile(link: FoundLink): boolean {
	const kind = kindOf(link);
	return kind === 'file' || kind === 'other';
}

/** The links an item carries: every link with what it is, deckUrl (the deck's file, or absent), and the app's page and a preview where the record has them. */
export interface DeckLinkFields {
	links: DescribedLink[];
	deckUrl?: string;
	pageUrl?: string;
	previewUrl?: string;
}

/**
 * `links`, `deckUrl`, `pageUrl` and `previewUrl` as the nodes put them on an item, from the links the judgement
 * found and the deck's file it handed over (`deckUrl`: only a completed deck's file, never a page or a preview).
 */
export function describeLinks(links: FoundLink[], deckUrl: string | undefined): DeckLinkFields {
	const described = links.map((link): DescribedLink => ({ ...link, kind: deckUrl !== undefined && link.url === deckUrl ? 'deck' : kindOf(link) }));
	const fields: DeckLinkFields = { links: described };
	if (deckUrl !== undefined) fields.deckUrl = deckUrl;
	const page = described.find((link) => link.kind === 'page');
	if (page) fields.pageUrl = page.url;
	const preview = described.find((link) => link.kind === 'preview');
	if (preview) fields.previewUrl = preview.url;
	return fields;
}

/** A list as the nodes make it (`[{path, url}]`): one a Deck Generator node put on an earlier item. */
function isLinkList(value: unknown): boolean {
	return (
		Array.isArray(value) &&
		value.every((entry) => entry && typeof entry === 'object' && typeof (entry as FoundLink).path === 'string' && typeof (entry as FoundLink).url === 'string')
	);
}

function sameJson(a: unknown, b: unknown): boolean {
	return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Puts our `links`, `deckUrl`, `pageUrl` and `previewUrl` on an item without losing what was there under those
 * names: a different value that `source` had (the service's status answer, `prefix` "service"; the input item,
 * `prefix` "input") stays beside ours as `serviceDeckUrl`, `inputLinks`, …, as `serviceState` keeps the
 * service's `state`. Values a Deck Generator node put there itself (a `[{path, url}]` list and the deckUrl
 * beside it) are simply replaced. Where we have none (no deck file yet), the member goes: `deckUrl` is the
 * deck's file or nothing.
 */
export function putDeckLinks(
	item: Record<string, unknown>,
	found: { links: FoundLink[]; deckUrl?: string; pageUrl?: string; previewUrl?: string },
	source: Record<string, unknown> | undefined,
	prefix: 'service' | 'input',
): void {
	const fromUs = isLinkList(source?.links);
	for (const member of ['links', 'deckUrl', 'pageUrl', 'previewUrl'] as const) {
		const ours = found[member];
		const theirs = source?.[member];
		if (theirs !== undefined && !fromUs && !sameJson(theirs, ours)) item[`${prefix}${member[0].toUpperCase()}${member.slice(1)}`] = theirs;
		// deckUrl is the deck's file or absent: a service's or an earlier item's value never stands in for ours
		if (ours === undefined) delete item[member];
		else item[member] = ours;
	}
}
