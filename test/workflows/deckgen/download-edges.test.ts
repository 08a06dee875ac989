/**
 * Deck → Download from a URL, against real loopback servers standing in for storage and CDNs
 * that behave at the edges: a body sent chunked with no Content-Length above the size cap, a
 * redirect loop, and a relative Location on another origin's file server.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { start, type Simulator } from '../../simulator';
import { continueErrorOutput, jsonOf, loadWorkflow, runWith } from './fixture';

describe('Deck → Download from a URL at the edges', () => {
	let sim: Simulator;
	let server: http.Server;
	let base = '';
	const seen: Array<{ path: string; authorization: boolean }> = [];
	beforeAll(async () => {
		sim = await start({ seed: 75, clock: { manual: true } });
		server = http.createServer((req, res): void => {
			seen.push({ path: req.url ?? '', authorization: req.headers.authorization !== undefined });
			if (req.url === '/big.pptx') {
				// chunked: no Content-Length, 2 MB in 64 KB chunks
				res.writeHead(200, { 'content-type': 'application/octet-stream' });
				const chunk = Buffer.alloc(64 * 1024, 0x20);
				let sent = 0;
				const more = () => {
					while (sent < 32) {
						sent++;
						if (!res.write(chunk)) return void res.once('drain', more);
					}
					res.end();
				};
				res.on('error', () => undefined);
				more();
				return;
			}
			if (req.url?.startsWith('/loop')) {
				res.writeHead(302, { location: `/loop${seen.length}` });
				res.end();
				return;
			}
			if (req.url === '/moved/deck.pdf') {
				res.writeHead(301, { location: '../files/deck.pdf' });
				res.end();
				return;
			}
			if (req.url === '/files/deck.pdf') {
				const body = Buffer.from('%PDF-1.7 small deck');
				res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': String(body.length) });
				res.end(body);
				return;
			}
			res.writeHead(404);
			res.end();
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	});
	afterAll(async () => {
		server.closeAllConnections();
		await new Promise<void>((resolve) => server.close(() => resolve()));
		await sim.close();
	});

	const download = async (url: string, extra: Record<string, unknown> = {}) =>
		await runWith(sim, continueErrorOutput(loadWorkflow('download')), sim.keys.personal, [{ url, ...extra }]);

	test('no Content-Length: the size cap still holds, counted while reading', async () => {
		const result = await download(`${base}/big.pptx`, { maxMb: 1 });
		const [error] = jsonOf(result.output('Errors'));
		expect(error.error).toMatchObject({ message: expect.stringMatching(/is larger than that, above Max Download Size \(1\.0 MB\); nothing was kept/) });
	});

	test('a redirect loop ends with a clear error after a few hops', async () => {
		const before = seen.length;
		const result = await download(`${base}/loop`);
		const [error] = jsonOf(result.output('Errors'));
		expect(error.error).toMatchObject({ message: expect.stringMatching(/more than 5 redirects/) });
		expect(seen.length - before).toBe(6);
	});

	test('a relative Location is resolved against the answering URL; another origin gets no key', async () => {
		const before = seen.length;
		const result = await download(`${base}/moved/deck.pdf`);
		const [item] = result.output('Success');
		expect(item.json).toMatchObject({ fileName: 'deck.pdf', mimeType: 'application/pdf', fileSize: 19 });
		expect(seen.slice(before)).toEqual([
			{ path: '/moved/deck.pdf', authorization: false },
			{ path: '/files/deck.pdf', authorization: false },
		]);
	});
});
