/**
 * links.ts and download.ts: finding a deck's links wherever a status body puts them, picking the
 * file, and the one rule for where the API key may go.
 */
import {
	downloadRefusalHint,
	fileFacts,
	fileNameFromDisposition,
	mayCarryCredential,
	redirectTarget,
	sameOriginHop,
} from '../../nodes/shared/download';
import { actionLink, bestDeckFile, describeLinks, findLinks } from '../../nodes/shared/links';
import { judgeStatus } from '../../nodes/shared/status';

const PPTX = 'https://files.example/decks/t1/deck.pptx?X-Amz-Signature=abc';
const PDF = 'https://files.example/decks/t1/deck.pdf?X-Amz-Signature=def';

describe('findLinks', () => {
	it('finds every http(s) URL with its JSON path, nested and in arrays, and nothing else', () => {
		const body = {
			taskId: 't1',
			status: 'done',
			files: { pptx: PPTX, pdf: PDF },
			export: { url: 'http://127.0.0.1:9/x.pptx', format: 'pptx' },
			outputs: [{ kind: 'pdf', href: PDF }],
			_links: { status: '/v1/decks/t1/status' },
			note: 'see https://docs.example inline text',
			mail: 'mailto:a@b.example',
		};
		expect(findLinks(body)).toEqual([
			{ path: 'files.pptx', url: PPTX },
			{ path: 'files.pdf', url: PDF },
			{ path: 'export.url', url: 'http://127.0.0.1:9/x.pptx' },
			{ path: 'outputs[0].href', url: PDF },
		]);
	});

	it('a body without links gives none, and no deckUrl', () => {
		expect(describeLinks(findLinks({ status: 'running', progress: 40 }), undefined)).toEqual({ links: [] });
	});

	it('says what each link is: the deck, a preview, the app page, the API, another file', () => {
		const body = {
			deckUrl: PPTX,
			pdf: PDF,
			thumbnail: 'https://cdn.example/t1.png',
			webUrl: 'https://app.example/decks/t1',
			urls: { stream: 'https://api.example/v1/stream/t1' },
			input_document: 'https://files.example/uploads/brief.docx',
		};
		expect(describeLinks(findLinks(body), PPTX)).toEqual({
			links: [
				{ path: 'deckUrl', url: PPTX, kind: 'deck' },
				{ path: 'pdf', url: PDF, kind: 'file' },
				{ path: 'thumbnail', url: 'https://cdn.example/t1.png', kind: 'preview' },
				{ path: 'webUrl', url: 'https://app.example/decks/t1', kind: 'page' },
				{ path: 'urls.stream', url: 'https://api.example/v1/stream/t1', kind: 'api' },
				{ path: 'input_document', url: 'https://files.example/uploads/brief.docx', kind: 'file' },
			],
			deckUrl: PPTX,
			pageUrl: 'https://app.example/decks/t1',
			previewUrl: 'https://cdn.example/t1.png',
		});
	});
});

describe('bestDeckFile: the deck file, not a page about it', () => {
	it.each<[string, Record<string, unknown>, string | undefined]>([
		['deckUrl', { deckUrl: PPTX }, PPTX],
		['files: {pptx, pdf}', { files: { pdf: PDF, pptx: PPTX } }, PPTX],
		['export.url', { webUrl: 'https://app.example/decks/t1', export: { url: 'https://s.example/o/abc' } }, 'https://s.example/o/abc'],
		['result.download_url', { result: { download_url: 'https://s.example/o/1' }, preview_url: 'https://cdn.example/t1.png' }, 'https://s.example/o/1'],
		['a pdf beats a video and a thumbnail', { videoUrl: 'https://app.example/v.mp4', thumbnail: 'https://cdn.example/t.png', pdf_url: PDF }, PDF],
		// deckUrl is the deck or nothing: a page of the app is not the deck, even when it is the only link
		['only a page: none', { webUrl: 'https://app.example/decks/t1' }, undefined],
	])('%s', (_name, body, expected) => {
		expect(bestDeckFile(findLinks(body))?.url).toBe(expected);
	});

	it('File Link Path: a path into the record picks that link as the deck, through lists and JSON strings; a path to nothing picks none', () => {
		const body = { status: 'completed', files: { pptx: PPTX, pdf: PDF }, result: { resultJson: JSON.stringify({ resultUrls: [PDF] }) } };
		expect(judgeStatus(body).deckUrl).toBe(PPTX);
		expect(judgeStatus(body, { paths: { file: ' files.pdf ' } }).deckUrl).toBe(PDF);
		expect(judgeStatus(body, { paths: { file: 'result.resultJson.resultUrls[0]' } }).deckUrl).toBe(PDF);
		const missed = judgeStatus(body, { paths: { file: 'files.docx' } });
		expect(missed.deckUrl).toBeUndefined();
		expect(missed.note).toContain('File Link Path "files.docx" matches nothing in this record; its members: status, files, files.pptx, files.pdf, result, result.resultJson.');
	});
});

describe('mayCarryCredential: the key goes only to the Base URL origin', () => {
	it.each<[string, string, boolean]>([
		['https://api.example/v1/decks/t/files/deck.pptx', 'https://api.example', true],
		['https://api.example:443/x', 'https://api.example/', true],
		['http://api.example/x', 'https://api.example', false],
		['https://api.example:8443/x', 'https://api.example', false],
		['https://files.api.example/x', 'https://api.example', false],
		['https://api.example.evil.example/x', 'https://api.example', false],
		['http://127.0.0.1:4011/x', 'http://127.0.0.1:4010', false],
		['ftp://api.example/x', 'ftp://api.example', false],
		['not a url', 'https://api.example', false],
		['http://127.0.0.1:4010/x', 'http://127.0.0.1:4010/', true],
		['https://API.Example/x', 'https://api.example', true],
		['https://user:pw@api.example/x', 'https://api.example', true],
		['https://api.example@evil.example/x', 'https://api.example', false],
		['https://evil.example/x', 'https://user:pw@api.example', false],
	])('%s with Base URL %s: %s', (url, base, expected) => {
		expect(mayCarryCredential(url, base)).toBe(expected);
	});

	// Plain http:// to another machine carries the key only when the credential allows plain HTTP.
	it.each<[string, string, boolean, boolean]>([
		['http://api.example:80/x', 'http://api.example', false, false],
		['http://api.example/x', 'http://api.example/v1/', false, false],
		['http://10.0.0.5/x', 'http://10.0.0.5', false, false],
		['http://api.example:80/x', 'http://api.example', true, true],
		['http://api.example/x', 'http://api.example/v1/', true, true],
		['http://localhost:4010/x', 'http://localhost:4010', false, true],
		['http://[::1]:4010/x', 'http://[::1]:4010', false, true],
		['http://127.0.0.1.evil.example/x', 'http://127.0.0.1.evil.example', false, false],
		['http://evil.example/x', 'http://api.example', true, false],
	])('%s with Base URL %s, Allow Plain HTTP %s: %s', (url, base, allowPlainHttp, expected) => {
		expect(mayCarryCredential(url, base, allowPlainHttp)).toBe(expected);
	});

	it('a redirect target is resolved against the URL that answered', () => {
		expect(redirectTarget(302, { location: '/o/1' }, 'https://api.example/v1/x')).toBe('https://api.example/o/1');
		expect(redirectTarget(307, { location: 'https://s.example/o' }, 'https://api.example/v1/x')).toBe('https://s.example/o');
		expect(redirectTarget(200, { location: 'https://s.example/o' }, 'https://api.example/v1/x')).toBeUndefined();
	});
});

describe('file name and type: headers first, else the URL', () => {
	it('Content-Disposition, plain and RFC 5987, never a directory', () => {
		expect(fileNameFromDisposition('attachment; filename="Q3 review.pptx"')).toBe('Q3 review.pptx');
		expect(fileNameFromDisposition("attachment; filename*=UTF-8''Gr%C3%BC%C3%9Fe.pdf; filename=\"x.pdf\"")).toBe('Grüße.pdf');
		expect(fileNameFromDisposition('attachment; filename="../../etc/passwd"')).toBe('passwd');
		expect(fileNameFromDisposition('inline')).toBeUndefined();
	});

	it.each<[string, Record<string, string>, string, { fileName: string; mimeType: string }]>([
		['headers say it', { 'content-type': 'application/pdf', 'content-disposition': 'attachment; filename="a.pdf"' }, 'https://x.example/dl?id=1', { fileName: 'a.pdf', mimeType: 'application/pdf' }],
		['octet-stream, name from the URL path (query ignored)', { 'content-type': 'binary/octet-stream' }, PPTX, { fileName: 'deck.pptx', mimeType: 'application/vnd.openxmlformats-officedocument.presentationml.presentation' }],
		['a type and a name without extension', { 'content-type': 'application/pdf' }, 'https://s.example/o/abc123', { fileName: 'abc123.pdf', mimeType: 'application/pdf' }],
		['nothing at all', {}, 'https://s.example/', { fileName: 'deck', mimeType: 'application/octet-stream' }],
	])('%s', (_name, headers, url, expected) => {
		expect(fileFacts(headers, url)).toEqual(expected);
	});
});

describe('sameOriginHop: API requests follow a redirect only within the Base URL origin', () => {
	const base = 'https://api.example/root';
	const from = 'https://api.example/root/v1/decks/t/status';
	it.each<[string, number, string, string, number, { url: string; asGet: boolean } | undefined, string]>([
		['same origin, GET', 302, '/root/v1/decks/t/status2', 'GET', 0, { url: 'https://api.example/root/v1/decks/t/status2', asGet: false }, '/root/v1/decks/t/status2'],
		['same origin, POST 307 keeps its method and body', 307, 'https://api.example/x', 'POST', 0, { url: 'https://api.example/x', asGet: false }, 'https://api.example/x'],
		['same origin, POST 303 See Other is read with a GET', 303, '/x', 'POST', 0, { url: 'https://api.example/x', asGet: true }, '/x'],
		['another origin', 301, 'https://login.example/', 'GET', 0, undefined, 'https://login.example/'],
		['https to http on the same host', 301, 'http://api.example/x', 'GET', 0, undefined, 'http://api.example/x'],
		['too many hops', 302, '/y', 'GET', 5, undefined, 'https://api.example/y'],
	])('%s', (_name, status, location, method, hops, next, locationAfter) => {
		const headers: Record<string, string> = { location };
		expect(sameOriginHop(status, headers, from, base, method, hops)).toEqual(next);
		expect(headers.location).toBe(locationAfter);
	});

	it('not a redirect: nothing', () => {
		expect(sameOriginHop(200, { location: '/x' }, from, base, 'GET', 0)).toBeUndefined();
	});
});

describe('findLinks with the URL the status was read from: root-relative paths are links', () => {
	const from = 'https://api.example/root/v1/decks/t1/status';
	// (an API path under the Base URL's prefix since issue 26: the contract makes every address relative to it)
	it('resolves /v1/ paths under the Base URL; ignores //hosts, a bare /, text with spaces, and relative paths without a base', () => {
		const body = {
			files: { pptx: '/v1/decks/t1/files/deck.pptx' },
			other: '//evil.example/x.pptx',
			root: '/',
			note: '/ not a path',
			absolute: 'https://cdn.example/deck.pdf',
		};
		expect(findLinks(body, from)).toEqual([
			{ path: 'files.pptx', url: 'https://api.example/root/v1/decks/t1/files/deck.pptx' },
			{ path: 'absolute', url: 'https://cdn.example/deck.pdf' },
		]);
		expect(findLinks(body)).toEqual([{ path: 'absolute', url: 'https://cdn.example/deck.pdf' }]);
	});
});

describe('downloadRefusalHint', () => {
	it('names the fix for the status and for where the key went', () => {
		expect(downloadRefusalHint(401, true)).toMatch(/credential's key/);
		expect(downloadRefusalHint(401, false)).toMatch(/never sent off the Base URL/);
		expect(downloadRefusalHint(403, true)).toMatch(/scopes/);
		expect(downloadRefusalHint(403, false)).toMatch(/presigned link may have expired/);
		expect(downloadRefusalHint(404, false)).toMatch(/fresh link/);
		expect(downloadRefusalHint(503, true)).toMatch(/try the download again later/);
		expect(downloadRefusalHint(429, false)).toMatch(/again later/);
		// Only the busy answers say "later": a refusal is not fixed by waiting.
		for (const status of [400, 401, 403, 404, 410]) expect(downloadRefusalHint(status, true)).not.toMatch(/later/);
	});
});

describe('actionLink: the way forward of a refusal, wherever the service put its link', () => {
	const CHECKOUT = 'https://app.example/checkout/credits?pack=100';
	it.each<[string, Record<string, unknown>, string]>([
		['url', { url: CHECKOUT, label: 'Buy 100 credits' }, 'options[0].url'],
		['href', { href: CHECKOUT, label: 'Buy 100 credits' }, 'options[0].href'],
		['link.url', { link: { url: CHECKOUT }, label: 'Buy 100 credits' }, 'options[0].link.url'],
		['HAL _links', { _links: { checkout: { href: CHECKOUT } }, title: 'Buy 100 credits' }, 'options[0]._links.checkout.href'],
	])('an option with its link under %s', (_, option, path) => {
		expect(actionLink({ options: [option, { url: 'https://app.example/other' }] })).toEqual({ url: CHECKOUT, path, label: 'Buy 100 credits' });
	});

	it('the first option that has a link, in the service order; a help link inside it loses to the checkout', () => {
		const body = { options: ['top_up', { label: 'Buy', links: { help: 'https://docs.example/help', pay: CHECKOUT } }] };
		expect(actionLink(body)).toEqual({ url: CHECKOUT, path: 'options[1].links.pay', label: 'Buy' });
	});

	it('options without links: the body own link (HAL), never the problem type or instance', () => {
		const body = { type: 'https://docs.example/errors#insufficient_credits', instance: 'https://api.example/req/1', options: ['top_up'], _links: { top_up: { href: CHECKOUT } } };
		expect(actionLink(body)).toEqual({ url: CHECKOUT, path: '_links.top_up.href' });
		expect(actionLink({ type: 'https://docs.example/errors#x', options: ['top_up'] })).toBeUndefined();
	});

	it('a documentation link is no way forward unless any link will do (a failure body)', () => {
		const body = { type: 'https://docs.example/errors#forbidden', links: { help: 'https://docs.example/enrolment' } };
		expect(actionLink(body)).toBeUndefined();
		expect(actionLink(body, true)).toEqual({ url: 'https://docs.example/enrolment', path: 'links.help' });
	});
});

describe('root-relative API paths behind a gateway prefix keep the Base URL path', () => {
	it('a /v1/ path resolves under the prefix; another path on the host root', () => {
		const from = 'https://host.example/api/v1/decks/t-1/status';
		expect(findLinks({ file: '/v1/decks/t-1/files/deck.pptx', page: '/app/decks/t-1' }, from)).toEqual([
			{ path: 'file', url: 'https://host.example/api/v1/decks/t-1/files/deck.pptx' },
			{ path: 'page', url: 'https://host.example/app/decks/t-1' },
		]);
		expect(findLinks({ file: '/v1/decks/t-1/files/deck.pptx' }, 'https://host.example/v1/decks/t-1/status')).toEqual([
			{ path: 'file', url: 'https://host.example/v1/decks/t-1/files/deck.pptx' },
		]);
	});
});
