/**
 * Fetching a finished deck file: the rules, without n8n. One place decides where the credential
 * may go (style.md, habit 13): the API key is sent only to a URL whose origin is the Base URL's
 * origin. A presigned storage link, any other host, and every hop of a redirect that leaves the
 * Base URL's origin get no credential; redirects are followed here, hop by hop, so each hop is
 * judged again (n8n's own redirect handling would carry the credential across origins).
 */

import { isPlainHttpElsewhere } from './secrecy';

/** Redirect hops followed before giving up. */
export const MAX_REDIRECTS = 5;

export const DEFAULT_MAX_DOWNLOAD_MB = 100;

/**
 * Whether the API key may be sent to `url`: only to the Base URL's own origin, and never over plain
 * http:// to another machine unless the credential allows plain HTTP (secrecy.ts).
 */
export function mayCarryCredential(url: string, baseUrl: string, allowPlainHttp = false): boolean {
	const origin = originOf(url);
	return origin !== undefined && origin === originOf(baseUrl) && (allowPlainHttp || !isPlainHttpElsewhere(url));
}

function originOf(url: string): string | undefined {
	try {
		const parsed = new URL(url);
		return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : undefined;
	} catch {
		return undefined;
	}
}

/** The next URL of a redirect answer, resolved against the URL that answered; undefined if it is not one. */
export function redirectTarget(status: number, headers: Record<string, string>, from: string): string | undefined {
	if (![301, 302, 303, 307, 308].includes(status)) return undefined;
	const location = headers.location;
	if (!location) return undefined;
	try {
		return new URL(location, from).toString();
	} catch {
		return undefined;
	}
}

/** Where a followed redirect sends the request next, and with which method. */
export interface Hop {
	url: string;
	/** 301/302/303 after anything but GET: the next request is a GET without a body, as HTTP clients do. */
	asGet: boolean;
}

/**
 * For the service's own requests (not downloads): the next hop, when the answer redirects within
 * the Base URL's origin (so the key may follow) and fewer than MAX_REDIRECTS hops were made. A
 * 307/308 keeps the method and body; a 301/302/303 after a POST is read with a GET (the usual
 * "303 See Other" after an accepted POST). Any other redirect is not followed: its `location` is
 * made absolute in `headers`, so the failure message can say where it pointed.
 */
export function sameOriginHop(
	status: number,
	headers: Record<string, string>,
	from: string,
	baseUrl: string,
	method: string,
	hops: number,
	allowPlainHttp = false,
): Hop | undefined {
	const target = redirectTarget(status, headers, from);
	if (target === undefined) return undefined;
	if (hops < MAX_REDIRECTS && mayCarryCredential(target, baseUrl, allowPlainHttp)) {
		return { url: target, asGet: method.toUpperCase() !== 'GET' && status !== 307 && status !== 308 };
	}
	headers.location = target;
	return undefined;
}

const TYPE_BY_EXTENSION: Record<string, string> = {
	pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
	ppt: 'application/vnd.ms-powerpoint',
	pdf: 'application/pdf',
	odp: 'application/vnd.oasis.opendocument.presentation',
	zip: 'application/zip',
	mp4: 'video/mp4',
	png: 'image/png',
	jpg: 'image/jpeg',
	jpeg: 'image/jpeg',
	html: 'text/html',
};

const EXTENSION_BY_TYPE: Record<string, string> = Object.fromEntries(
	Object.entries(TYPE_BY_EXTENSION).map(([extension, type]) => [type, extension]),
);

/** `filename*=UTF-8''…` (RFC 6266 / 5987) first, then `filename="…"`. */
export function fileNameFromDisposition(disposition: string | undefined): string | undefined {
	if (!disposition) return undefined;
	const extended = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(disposition);
	if (extended) {
		try {
			return safeName(decodeURIComponent(extended[2].trim()));
		} catch {
			// fall through to the plain form
		}
	}
	const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]+))/i.exec(disposition);
	const name = plain?.[1]?.replace(/\\(.)/g, '$1') ?? plain?.[2]?.trim();
	return name ? safeName(name) : undefined;
}

/** The last segment of the URL's path (a presigned URL's query is not part of the name). */
export function fileNameFromUrl(url: string): string | undefined {
	try {
		const segment = new URL(url).pathname.split('/').filter(Boolean).pop();
		return segment ? safeName(decodeURIComponent(segment)) : undefined;
	} catch {
		return undefined;
	}
}

/** No directories, no control characters: a name n8n and mail clients can use as it is. */
function safeName(name: string): string | undefined {
	const cleaned = name.replace(/[\u0000-\u001f\u007f]/g, '').split(/[\\/]/).pop()?.trim();
	return cleaned && cleaned !== '.' && cleaned !== '..' ? cleaned : undefined;
}

export interface FileFacts {
	fileName: string;
	mimeType: string;
}

/**
 * File name and type from the answer's `Content-Disposition` and `Content-Type`, else from the
 * URL. A generic type (`application/octet-stream`, `binary/octet-stream`) is replaced by what the
 * name's extension says; a name without an extension gets one from the type.
 */
export function fileFacts(headers: Record<string, string>, url: string, fallbackName = 'deck'): FileFacts {
	const declared = (headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
	const generic = declared === '' || /octet-stream$/.test(declared);
	let fileName = fileNameFromDisposition(headers['content-disposition']) ?? fileNameFromUrl(url) ?? fallbackName;
	const extension = /\.([a-z0-9]{1,8})$/i.exec(fileName)?.[1]?.toLowerCase();
	const mimeType = generic ? (extension && TYPE_BY_EXTENSION[extension]) || 'application/octet-stream' : declared;
	if (!extension && EXTENSION_BY_TYPE[mimeType]) fileName = `${fileName}.${EXTENSION_BY_TYPE[mimeType]}`;
	return { fileName, mimeType };
}

export function bytesOfMb(megabytes: number | undefined): number {
	const mb = typeof megabytes === 'number' && Number.isFinite(megabytes) && megabytes > 0 ? megabytes : DEFAULT_MAX_DOWNLOAD_MB;
	return Math.floor(mb * 1024 * 1024);
}

export function describeSize(bytes: number): string {
	return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;
}

/**
 * What to do about a refused download, by status and by whether the request carried the key
 * (a link on the Base URL's origin) or not (presigned storage, another host). A 401 on a link
 * without the key says what is true: the link's host is not the Base URL's, so the key was not
 * sent; that host may be the service itself under another name (`localhost` for `127.0.0.1`, an
 * internal name), which reading the status again does not change, so that fix comes first.
 */
export function downloadRefusalHint(status: number, carriedKey: boolean, url?: string, baseUrl?: string): string {
	if (status === 401) {
		if (carriedKey) return "The service refused the API key for this file: check the credential's key (a revoked or rotated key answers 401).";
		const link = url !== undefined ? originOf(url) : undefined;
		const base = baseUrl !== undefined ? originOf(baseUrl) : undefined;
		if (link === undefined || base === undefined) {
			return 'The file host wants its own sign-in, and the API key is never sent off the Base URL: read the deck status again for a fresh (presigned) link.';
		}
		return `The link is on ${link}, not on the Base URL's ${base}, so the API key was not sent with it (it goes only to the Base URL's origin). If ${link} is the service itself under another name, set the credential's Base URL to ${link}; if it is a file host, the link itself must carry its access (a presigned link): read the deck status again for a fresh one.`;
	}
	if (status === 403) {
		return carriedKey
			? 'The API key may not read this file: its scopes must allow reading decks (the error detail names what is missing).'
			: 'A presigned link may have expired: read the deck status again for a fresh link, then download.';
	}
	if (status === 404 || status === 410) return 'The file is not (or no longer) there: read the deck status again for a fresh link, then download.';
	if (status === 429 || status >= 500) return 'The file host is busy or failing: try the download again later; the deck itself is not affected.';
	return 'Check the link (Download Link Path) and read the deck status again; the deck itself is not affected.';
}

/** A URL fit for messages and items: the presigned query (a capability) is not repeated. */
export function displayUrl(url: string): string {
	try {
		const parsed = new URL(url);
		return `${parsed.origin}${parsed.pathname}`;
	} catch {
		return url;
	}
}
