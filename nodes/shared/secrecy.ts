/**
 * Keeping the API key secret from what the service sends back, and off plain HTTP to another
 * machine. Framework-free: the response readers (the node transport, the download, the credential
 * test) run every answer through `keyMasker` before anything reads it, so no text that came from
 * the service (problem detail and title, a 422 `msg`, a plain-text or HTML body, a status or upload
 * body passed on as an item, a header quoted in a message) can carry the key into an item, an
 * error, a log line or saved execution data. New operations get it for free: they only ever see
 * masked answers.
 */
import type { ServiceResponse } from './transport';

/** What stands where the service's text had the key. */
export const KEY_MASK = '[API key]';

/** Appended to a service message that quoted the key, so a reader knows why it reads oddly. */
export const KEY_MASKED_NOTE = '(key masked)';

/**
 * A run of at least this many consecutive characters of the key is masked too: a service that
 * quotes most of a key ("hk_…9f3a1c") gives most of it away. A shorter part (a prefix such as
 * `dg_live_`, the last four characters) identifies a key without revealing it.
 */
export const KEY_FRAGMENT_LENGTH = 16;

export interface KeyMasker {
	/** Whether there is a key to mask (an empty credential masks nothing). */
	readonly active: boolean;
	/** The text with the key masked in every form below. */
	text(value: string): string;
	/** A parsed value (item JSON, a problem body) with every string and member name masked. */
	value<T>(value: T): T;
	headers(headers: Record<string, string>): Record<string, string>;
	/** An answer as the core may read it: its body (text, JSON) and headers masked; the status kept. */
	response<R extends ServiceResponse>(response: R): R;
}

/**
 * The forms a body may carry the key in: as sent, JSON-escaped (with or without `\/`),
 * percent-encoded (upper and lower hex, `+` for a space), HTML-escaped, and base64 / base64url of
 * the key on its own. Longest first, so a longer form is replaced before a shorter one inside it.
 */
export function keyForms(apiKey: string): string[] {
	const forms = new Set<string>();
	for (const key of new Set([apiKey, apiKey.trim()])) {
		if (!key) continue;
		const json = JSON.stringify(key).slice(1, -1);
		const percent = encodeURIComponent(key);
		const base64 = Buffer.from(key, 'utf8').toString('base64');
		for (const form of [
			key,
			json,
			json.replace(/\//g, '\\/'),
			asciiJson(json),
			percent,
			percent.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase()),
			percent.replace(/%20/g, '+'),
			encodeURI(key),
			key.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;'),
			base64,
			base64.replace(/=+$/, ''),
			base64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''),
		]) {
			if (form) forms.add(form);
		}
	}
	return [...forms].sort((a, b) => b.length - a.length);
}

/** JSON text with every non-ASCII character as `\uXXXX`, as some serialisers write it. */
function asciiJson(json: string): string {
	return json.replace(/[\u007f-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export function keyMasker(apiKey: unknown): KeyMasker {
	const key = typeof apiKey === 'string' ? apiKey : apiKey === undefined || apiKey === null ? '' : String(apiKey);
	if (!key.trim()) return NO_KEY;
	const forms = keyForms(key);
	const plain = key.trim();

	const text = (value: string): string => {
		if (!value) return value;
		let out = value;
		for (const form of forms) if (out.includes(form)) out = out.split(form).join(KEY_MASK);
		return maskFragments(out, plain);
	};
	const walk = (value: unknown): unknown => {
		if (typeof value === 'string') return text(value);
		if (Array.isArray(value)) return value.map(walk);
		if (value && typeof value === 'object' && !Buffer.isBuffer(value)) {
			return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([name, member]) => [text(name), walk(member)]));
		}
		return value;
	};
	const body = (raw: string): string => {
		const masked = text(raw);
		// A JSON body may also spell the key with \u escapes anywhere; then its parsed strings are masked
		// and the body written again. A body without the key (the usual case) is returned as it came.
		if (masked === raw && !raw.includes('\\u')) return raw;
		const trimmed = raw.trimStart();
		if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
			try {
				const parsed: unknown = JSON.parse(raw);
				const walked = JSON.stringify(walk(parsed));
				return masked === raw && walked === JSON.stringify(parsed) ? raw : walked;
			} catch {
				// not JSON after all: the text form below
			}
		}
		return masked;
	};
	const headers = (values: Record<string, string>): Record<string, string> => {
		const out: Record<string, string> = {};
		for (const [name, value] of Object.entries(values)) out[name] = text(value);
		return out;
	};
	return {
		active: true,
		text,
		value: <T>(value: T) => walk(value) as T,
		headers,
		response: <R extends ServiceResponse>(response: R) => ({ ...response, headers: headers(response.headers), text: body(response.text) }),
	};
}

const NO_KEY: KeyMasker = {
	active: false,
	text: (value) => value,
	value: (value) => value,
	headers: (headers) => headers,
	response: (response) => response,
};

/** Masks every run of KEY_FRAGMENT_LENGTH or more consecutive characters of the key. */
function maskFragments(value: string, key: string): string {
	if (key.length <= KEY_FRAGMENT_LENGTH || value.length < KEY_FRAGMENT_LENGTH) return value;
	const ranges: Array<[number, number]> = [];
	for (let i = 0; i + KEY_FRAGMENT_LENGTH <= key.length; i++) {
		const window = key.slice(i, i + KEY_FRAGMENT_LENGTH);
		for (let at = value.indexOf(window); at !== -1; at = value.indexOf(window, at + 1)) {
			let start = at;
			let end = at + KEY_FRAGMENT_LENGTH;
			for (let k = i; start > 0 && k > 0 && value[start - 1] === key[k - 1]; k--) start--;
			for (let k = i + KEY_FRAGMENT_LENGTH; end < value.length && k < key.length && value[end] === key[k]; k++) end++;
			ranges.push([start, end]);
		}
	}
	if (!ranges.length) return value;
	ranges.sort((a, b) => a[0] - b[0]);
	let out = '';
	let from = 0;
	for (const [start, end] of ranges) {
		if (end <= from) continue;
		out += value.slice(from, Math.max(from, start)) + (start >= from ? KEY_MASK : '');
		from = end;
	}
	return out + value.slice(from);
}

/** A service message that had the key in it says so, rather than reading oddly or being dropped. */
export function noteMasked(message: string): string {
	return message.includes(KEY_MASK) && !message.includes(KEY_MASKED_NOTE) ? `${message} ${KEY_MASKED_NOTE}` : message;
}

/** This machine: 127.0.0.0/8, ::1 (also as an IPv4-mapped address) and `localhost`. */
export function isLoopbackHost(hostname: string): boolean {
	const host = hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
	if (host === 'localhost' || host === '::1' || host === '0:0:0:0:0:0:0:1') return true;
	if (/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)) return true;
	// The WHATWG parser writes ::ffff:127.0.0.1 as ::ffff:7f00:1.
	return /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(host);
}

/** Whether `url` is plain http:// to a host other than this machine (where the key would go in clear). */
export function isPlainHttpElsewhere(url: string): boolean {
	try {
		const parsed = new URL(url);
		return parsed.protocol === 'http:' && !isLoopbackHost(parsed.hostname);
	} catch {
		return false;
	}
}

/**
 * Why the credential's Base URL may not carry the key, said before anything is sent: plain
 * http:// to another machine, without the credential's explicit Allow Plain HTTP.
 */
export function plainHttpRefusal(baseUrl: string, allowPlainHttp: unknown): string | undefined {
	if (allowPlainHttp === true || !isPlainHttpElsewhere(baseUrl)) return undefined;
	const https = baseUrl.replace(/^http:/i, 'https:');
	return `The credential's Base URL "${baseUrl}" is plain http:// to another machine, so the API key would cross the network in clear (anyone on the path could read it and spend its credits); nothing was sent. Change the Base URL to https:// (e.g. ${https}), or, only on a network you trust, switch on "Allow Plain HTTP" in the credential.`;
}
