/**
 * The key goes only to the Base URL's origin, also when the Base URL answers with a redirect (a
 * moved service, a host that sends every path to a login page elsewhere, http → https). n8n's
 * request helpers follow redirects and put the credential back on every hop, other hosts included;
 * the nodes' requests and the credential test must not follow a redirect off the Base URL's origin,
 * and must say where it pointed.
 * The Base URL here is a real loopback server that answers every request with a 302 to the
 * simulator's storage stand-in (another origin), which records whether an Authorization header
 * arrived.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { testCredentials } from '../../harness';
import { start, type Simulator } from '../../simulator';
import { DECK_NODE, loadWorkflow, runWith } from './fixture';

describe('a Base URL that redirects to another origin', () => {
	let sim: Simulator;
	let moved: http.Server;
	let movedUrl = '';
	beforeAll(async () => {
		sim = await start({ seed: 71, clock: { manual: true } });
		moved = http.createServer((req, res) => {
			res.writeHead(302, { location: `${sim.storage.url}/elsewhere${req.url ?? '/'}` });
			res.end();
		});
		await new Promise<void>((resolve) => moved.listen(0, '127.0.0.1', resolve));
		movedUrl = `http://127.0.0.1:${(moved.address() as AddressInfo).port}`;
	});
	afterAll(async () => {
		moved.closeAllConnections();
		await new Promise<void>((resolve) => moved.close(() => resolve()));
		await sim.close();
	});

	const keyReachedOtherOrigin = (since: number) => sim.storage.requests.slice(since).some((request) => request.authorization);

	test('a node request: no hop to the other origin carries the key; the error names the redirect', async () => {
		const before = sim.storage.requests.length;
		const workflow = loadWorkflow('get-status');
		const result = await runWith({ ...sim, url: movedUrl } as Simulator, workflow, sim.keys.personal, [{ taskId: 'tsk_moved' }]);
		expect(keyReachedOtherOrigin(before)).toBe(false);
		expect(sim.storage.requests.length).toBe(before);
		const error = result.nodeError(DECK_NODE);
		expect(error?.message ?? '').toMatch(/redirect/i);
		expect(`${error?.message} ${error?.description}`).toContain(new URL(sim.storage.url).origin);
	});

	test('the credential test: the key is not sent on; the message says where the Base URL points', async () => {
		const before = sim.storage.requests.length;
		const result = await testCredentials('deckGenApi', { apiKey: sim.keys.personal, baseUrl: movedUrl });
		expect(keyReachedOtherOrigin(before)).toBe(false);
		expect(sim.storage.requests.length).toBe(before);
		expect(result.status).toBe('Error');
		expect(result.message).toContain(new URL(sim.storage.url).origin);
		expect(result.message).toMatch(/redirect/i);
		expect(result.message).not.toContain(sim.keys.personal);
	});
});
