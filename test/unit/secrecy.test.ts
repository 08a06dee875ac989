/**
 * The key masker every response reader applies (nodes/shared/secrecy.ts) and the plain-HTTP rule:
 * the key in any form a service may write it is masked, everything else is left byte for byte;
 * a Base URL of plain http:// to another machine is refused unless the credential allows it.
 */
import { baseUrlProblem } from '../../nodes/shared/credentialCheck';
import { parseFailure } from '../../nodes/shared/problem';
import {
	isLoopbackHost,
	isPlainHttpElsewhere,
	KEY_MASK,
	KEY_MASKED_NOTE,
	keyMasker,
	noteMasked,
	plainHttpRefusal,
} from '../../nodes/shared/secrecy';

const KEY = 'dg_live_9f3a1c77b2e04d5a8c6e1f0b3d2a4c6e';
const ODD = 'dg_live_a"b\\c/d+e f%g&h<i>é';

describe('keyMasker: the key in every form a body may carry it', () => {
	const mask = keyMasker(KEY);
	const odd = keyMasker(ODD);

	it.each<[string, string, string]>([
		['as sent', `The API key ${KEY} was revoked.`, `The API key ${KEY_MASK} was revoked.`],
		['twice, and at the edges', `${KEY}${KEY} ${KEY}`, `${KEY_MASK}${KEY_MASK} ${KEY_MASK}`],
		['base64', `token ${Buffer.from(KEY).toString('base64')}`, `token ${KEY_MASK}`],
		['most of it (16 characters or more)', `key …${KEY.slice(-20)} revoked`, `key …${KEY_MASK} revoked`],
		['its first 16 characters and more', `key ${KEY.slice(0, 24)}…`, `key ${KEY_MASK}…`],
	])('%s', (_name, text, expected) => {
		expect(mask.text(text)).toBe(expected);
	});

	it('a short part (a prefix, the last four) identifies a key without revealing it, and stays', () => {
		const text = `key dg_live_… ending in ${KEY.slice(-4)}, prefix ${KEY.slice(0, 15)}`;
		expect(mask.text(text)).toBe(text);
	});

	it.each<[string, string]>([
		['JSON-escaped', JSON.stringify(ODD).slice(1, -1)],
		['JSON-escaped with \\/', JSON.stringify(ODD).slice(1, -1).replace(/\//g, '\\/')],
		['percent-encoded', encodeURIComponent(ODD)],
		['percent-encoded, lower-case hex', encodeURIComponent(ODD).replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase())],
		['form-encoded (+ for a space)', encodeURIComponent(ODD).replace(/%20/g, '+')],
		['HTML-escaped', ODD.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')],
		['base64url', Buffer.from(ODD).toString('base64url')],
	])('a key that needs escaping, %s', (_name, form) => {
		expect(odd.text(`before ${form} after`)).toBe(`before ${KEY_MASK} after`);
	});

	it('a JSON body stays JSON with the same members, the key masked wherever it was (also in \\u escapes)', () => {
		const unicode = JSON.stringify(ODD).slice(1, -1).replace(/[a-z]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`);
		const text = `{"detail":"The key ${JSON.stringify(ODD).slice(1, -1)} was revoked","nested":{"list":["${unicode}"]},"${encodeURIComponent(ODD)}":1,"credits":12}`;
		const masked = odd.response({ status: 401, headers: {}, text });
		const body = JSON.parse(masked.text);
		expect(body).toEqual({ detail: `The key ${KEY_MASK} was revoked`, nested: { list: [KEY_MASK] }, [KEY_MASK]: 1, credits: 12 });
		expect(masked.text).not.toContain('\\u00');
	});

	it('a body and headers without the key are returned exactly as they came', () => {
		const response = { status: 200, headers: { 'x-request-id': 'req_1' }, text: '{ "credits" : 12, "name":"Q3 \\u00fcber" }' };
		const masked = mask.response(response);
		expect(masked.text).toBe(response.text);
		expect(masked.headers).toEqual(response.headers);
	});

	it('headers: WWW-Authenticate, a file name, a Location', () => {
		expect(
			mask.headers({
				'www-authenticate': `Bearer realm="deckgen", error_description="key ${KEY} revoked"`,
				'content-disposition': `attachment; filename*=UTF-8''${KEY}-deck.pptx`,
				location: `https://elsewhere.example/?k=${KEY}`,
				'x-request-id': 'req_2',
			}),
		).toEqual({
			'www-authenticate': `Bearer realm="deckgen", error_description="key ${KEY_MASK} revoked"`,
			'content-disposition': `attachment; filename*=UTF-8''${KEY_MASK}-deck.pptx`,
			location: `https://elsewhere.example/?k=${KEY_MASK}`,
			'x-request-id': 'req_2',
		});
	});

	it('the key as pasted with surrounding spaces is masked trimmed too', () => {
		expect(keyMasker(`  ${KEY}\n`).text(`key ${KEY}.`)).toBe(`key ${KEY_MASK}.`);
	});

	it('no key, nothing masked', () => {
		expect(keyMasker('').text('anything')).toBe('anything');
		expect(keyMasker(undefined).active).toBe(false);
	});

	it('a failure whose detail quoted the key says so, and keeps its message', () => {
		const response = mask.response({
			status: 401,
			headers: {},
			text: JSON.stringify({ code: 'unauthorized', retryable: false, detail: `The API key ${KEY} was revoked.` }),
		});
		expect(parseFailure(response).detail).toBe(`The API key ${KEY_MASK} was revoked. ${KEY_MASKED_NOTE}`);
		const plain = parseFailure(mask.response({ status: 429, headers: {}, text: `Too Many Requests for ${KEY}\n` }));
		expect(plain.detail).toBe(`Too Many Requests for ${KEY_MASK} ${KEY_MASKED_NOTE}`);
		expect(noteMasked('nothing masked')).toBe('nothing masked');
		expect(noteMasked(`${KEY_MASK} ${KEY_MASKED_NOTE}`)).toBe(`${KEY_MASK} ${KEY_MASKED_NOTE}`);
	});
});

describe('plain HTTP: the key never crosses the network in clear', () => {
	it.each<[string, boolean]>([
		['localhost', true],
		['LOCALHOST', true],
		['127.0.0.1', true],
		['127.255.3.4', true],
		['[::1]', true],
		['::1', true],
		['::ffff:7f00:1', true],
		['127.0.0.1.evil.example', false],
		['127.evil.example', false],
		['localhost.evil.example', false],
		['10.0.0.5', false],
		['192.168.1.10', false],
		['0.0.0.0', false],
		['api.deckgen.example', false],
	])('%s is this machine: %s', (host, expected) => {
		expect(isLoopbackHost(host)).toBe(expected);
	});

	it.each<[string, boolean]>([
		['http://deckgen.invalid', true],
		['http://10.0.0.5:8080', true],
		['HTTP://api.deckgen.example', true],
		['http://127.1', false],
		['http://localhost:4010', false],
		['http://[::1]:4010', false],
		['https://api.deckgen.example', false],
		['not a url', false],
	])('%s is plain http elsewhere: %s', (url, expected) => {
		expect(isPlainHttpElsewhere(url)).toBe(expected);
	});

	it('refused unless Allow Plain HTTP is on; the message names the Base URL, the fix and the opt-in', () => {
		const refusal = plainHttpRefusal('http://deckgen.invalid', false);
		expect(refusal).toBe(
			'The credential\'s Base URL "http://deckgen.invalid" is plain http:// to another machine, so the API key would cross the network in clear (anyone on the path could read it and spend its credits); nothing was sent. Change the Base URL to https:// (e.g. https://deckgen.invalid), or, only on a network you trust, switch on "Allow Plain HTTP" in the credential.',
		);
		expect(plainHttpRefusal('http://deckgen.invalid', undefined)).toBe(refusal);
		expect(plainHttpRefusal('http://deckgen.invalid', 'true')).toBe(refusal);
		expect(plainHttpRefusal('http://deckgen.invalid', true)).toBeUndefined();
		expect(plainHttpRefusal('http://127.0.0.1:4010', false)).toBeUndefined();
		expect(plainHttpRefusal('https://api.deckgen.example', false)).toBeUndefined();
	});

	it('the credential Test’s Base URL check says the same', () => {
		expect(baseUrlProblem('http://10.0.0.5:8080')).toBe(plainHttpRefusal('http://10.0.0.5:8080', false));
		expect(baseUrlProblem('http://10.0.0.5:8080', true)).toBeUndefined();
		expect(baseUrlProblem('http://localhost:4010')).toBeUndefined();
	});
});
