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
import { brief, DECK_NODE, jsonOf, loadWorkflow, runWith } from './fixture';

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
		const error = result.nodeError(DECK_NODE) as { message?: string; description?: string } | undefined;
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

/**
 * A create answered "303 See Other" to the deck's status on the API's own origin (a legal async
 * pattern: the contract does not show the success code). The node reads the status with a GET
 * and the key, and the deck comes out with its taskId; a retry of the execution replays.
 */
describe('a create answered 303 See Other on the Base URL origin', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await start({ seed: 72, clock: { manual: true }, choices: { createStatus: 303 } });
	});
	afterAll(async () => await sim.close());

	test('the deck and its taskId reach Success; one charge; the status was read with the key', async () => {
		const result = await runWith(sim, loadWorkflow('create'), sim.keys.personal, [brief()]);
		expect(result.status).toBe('success');
		const [deck] = jsonOf(result.output('Success'));
		expect(deck).toMatchObject({ outcome: 'success', taskId: expect.stringMatching(/^tsk_/) });
		expect(sim.ledger.chargesFor(deck.idempotencyKey as string)).toHaveLength(1);
		const tail = sim.ledger.requests.slice(-2).map((r) => `${r.method} ${r.path} ${r.status}`);
		expect(tail).toEqual(['POST /v1/decks 303', `GET /v1/decks/${String(deck.taskId)}/status 200`]);
	});
});

describe('a create answered 303 See Other to another origin', () => {
	let sim: Simulator;
	let front: http.Server;
	let frontUrl = '';
	beforeAll(async () => {
		sim = await start({ seed: 76, clock: { manual: true } });
		// A gateway in front of the service that answers the purchase with a 303 to another host.
		front = http.createServer((_req, res) => {
			res.writeHead(303, { location: `${sim.storage.url}/receipts/1` });
			res.end();
		});
		await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
		frontUrl = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
	});
	afterAll(async () => {
		front.closeAllConnections();
		await new Promise<void>((resolve) => front.close(() => resolve()));
		await sim.close();
	});

	test('not followed, and the error names the purchase as one that may have been bought, with its key', async () => {
		const result = await runWith({ ...sim, url: frontUrl } as Simulator, loadWorkflow('create'), sim.keys.personal, [brief()]);
		const error = result.nodeError(DECK_NODE) as { message: string; description: string; context: Record<string, unknown> };
		expect(error.message).toMatch(/redirected to/);
		expect(error.description).toMatch(/may have been bought; retrying the execution replays it without a second charge/);
		expect(error.context).toMatchObject({ mayHaveBeenBought: true, idempotencyKey: expect.any(String) });
		expect(sim.storage.requests.some((r) => r.authorization)).toBe(false);
	});
});
