/**
 * The API key stays secret in a real n8n (2.41.1 and 1.123.81) whatever the service sends back: the
 * simulator runs with `echoKey`, naming the presented key in every text it answers. Create → Wait
 * (Wait Until Done, then Check Once with a revoked key), Get Credits with a revoked and with a mistyped
 * key, Create with a mistyped key on the error output, and the credential Test run inside n8n; every
 * saved execution is read back through n8n's REST API and, with n8n's output at debug level, scanned
 * for the key in every form (as sent, JSON-escaped, percent-encoded, base64, its last 16 characters).
 * The masked text must be there (the service did name the key), the key must not. Also: a Base URL of
 * plain http:// to another machine is refused before anything is sent.
 *
 * Run: npm run test:e2e  (DECKGEN_E2E_FLAVORS=v2 to run one flavor)
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

import { start, type Simulator } from '../simulator';
import { ensureBuilt, REPO } from './fixtures/build';
import { CREDENTIAL_TYPE, PACKAGE } from './fixtures/examples';
import { ensureN8n, Flavor, e2eFlavors } from './n8n-install';
import { closeHttpClients, N8nInstance, startN8n, WorkflowJson } from './n8n-instance';

const flavors: Flavor[] = e2eFlavors(['v2']);
const DECK = `${PACKAGE}.deckGen`;
const WAIT = `${PACKAGE}.deckGenWait`;
// What the package writes where the service's text had the key (nodes/shared/secrecy.ts).
const KEY_MASK = '[API key]';
const KEY_MASKED_NOTE = '(key masked)';
/** A mistyped key that needs escaping in JSON and in a URL. */
const MISTYPED = 'dg_live_mis"typed\\key/with+plus%25&amp<x>';

type Json = Record<string, any>;

/** The key in every form n8n or the service could write it (JSON twice: REST answers hold JSON strings). */
function forms(key: string): string[] {
	const json = JSON.stringify(key).slice(1, -1);
	return [key, json, JSON.stringify(json).slice(1, -1), encodeURIComponent(key), Buffer.from(key).toString('base64').replace(/=+$/, ''), key.slice(-16)];
}

function leaksIn(text: string, keys: string[]): string[] {
	return keys.flatMap((key) => forms(key).filter((form) => text.includes(form)).map((form) => `${key.slice(0, 12)}… as ${JSON.stringify(form.slice(0, 24))}`));
}

afterAll(async () => {
	await closeHttpClients();
});

describe.each(flavors)('the API key stays secret in real n8n %s against a service that names it', (flavor) => {
	let sim: Simulator;
	let n8n: N8nInstance;
	const credentials: Record<'good' | 'revoked' | 'mistyped' | 'plainHttp', { id: string; name: string }> = {} as never;
	const executionIds: string[] = [];
	let keys: string[] = [];

	beforeAll(async () => {
		ensureBuilt();
		await ensureN8n(flavor);
		sim = await start({
			seed: flavor === 'v2' ? 32 : 31,
			// a 10-35 min deck takes 10-35 ms
			clock: { speed: 60_000 },
			limits: { retryAfterMs: 20, maxConcurrentDecks: 100 },
			echoKey: true,
		});
		keys = [sim.keys.personal, sim.keys.revoked, MISTYPED];
		n8n = await startN8n({ flavor, packageDir: REPO, env: { N8N_LOG_LEVEL: 'debug' } });
		const make = (name: string, data: Json) => n8n.createCredential({ name, type: CREDENTIAL_TYPE, data });
		credentials.good = await make('Deck Generator', { apiKey: sim.keys.personal, baseUrl: sim.url });
		credentials.revoked = await make('Deck Generator (revoked)', { apiKey: sim.keys.revoked, baseUrl: sim.url });
		credentials.mistyped = await make('Deck Generator (mistyped)', { apiKey: MISTYPED, baseUrl: sim.url });
		credentials.plainHttp = await make('Deck Generator (plain http)', { apiKey: sim.keys.personal, baseUrl: 'http://deckgen.invalid' });
	});

	afterAll(async () => {
		if (n8n) {
			fs.writeFileSync(path.join(os.tmpdir(), `deckgen-e2e-secrecy-${flavor}.log`), n8n.logs);
			await n8n.stop();
		}
		await sim?.close();
	});

	const start0 = { id: 'e0000000-0000-4000-8000-000000000001', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} };
	const deckNode = (name: string, id: string, credential: keyof typeof credentials, parameters: Json, node: Json = {}) => ({
		id,
		name,
		type: DECK,
		typeVersion: 1,
		position: [250, 0],
		parameters,
		credentials: { [CREDENTIAL_TYPE]: credentials[credential] },
		...node,
	});
	const run = async (workflow: WorkflowJson) => {
		const id = await n8n.importWorkflow({ settings: { executionOrder: 'v1' }, ...workflow });
		const execution = await n8n.runManually(id, { timeoutMs: 120_000 });
		executionIds.push(execution.id);
		return execution;
	};
	const runData = (execution: Json, node: string, output = 0): Json[] =>
		(execution.data.resultData.runData?.[node]?.[0]?.data?.main?.[output] ?? []).map((item: { json: Json }) => item.json);
	const create = { resource: 'deck', operation: 'create', expectedCredits: 10, title: 'Secrecy e2e', coreMessage: 'Nothing leaks', audience: 'The board', additionalFields: { slideCount: 10 }, options: {} };

	it('Create → Wait Until Done → Check Once with a revoked key: items masked, the deck bought once', async () => {
		const before = sim.ledger.charges.length;
		const execution = await run({
			name: 'Secrecy: Create → Wait (e2e)',
			nodes: [
				start0,
				deckNode('Create', 'e0000000-0000-4000-8000-000000000002', 'good', create),
				{
					id: 'e0000000-0000-4000-8000-000000000003',
					name: 'Wait Until Done',
					type: WAIT,
					typeVersion: 1,
					position: [500, 0],
					parameters: { mode: 'waitUntilDone', taskIdField: 'taskId', options: { pollIntervalSeconds: 0.01, maxWaitMinutes: 1 } },
					credentials: { [CREDENTIAL_TYPE]: credentials.good },
				},
				{
					id: 'e0000000-0000-4000-8000-000000000004',
					name: 'Check Once (revoked key)',
					type: WAIT,
					typeVersion: 1,
					position: [750, 0],
					parameters: { mode: 'checkOnce', taskIdField: 'taskId', options: {} },
					credentials: { [CREDENTIAL_TYPE]: credentials.revoked },
					onError: 'continueRegularOutput',
				},
			],
			connections: {
				Start: { main: [[{ node: 'Create', type: 'main', index: 0 }]] },
				Create: { main: [[{ node: 'Wait Until Done', type: 'main', index: 0 }]] },
				'Wait Until Done': { main: [[{ node: 'Check Once (revoked key)', type: 'main', index: 0 }]] },
			},
		});
		expect({ status: execution.status, error: execution.data.resultData.error?.message }).toEqual({ status: 'success', error: undefined });
		const [bought] = runData(execution, 'Create');
		expect(bought).toMatchObject({ outcome: 'success', taskId: expect.any(String) });
		expect(String(bought.notice)).toContain(KEY_MASK);
		const [completed] = runData(execution, 'Wait Until Done');
		expect(completed).toMatchObject({ outcome: 'completed', taskId: bought.taskId });
		expect(JSON.stringify(completed)).toContain(KEY_MASK);
		const checked = [0, 1, 2].flatMap((output) => runData(execution, 'Check Once (revoked key)', output));
		expect(JSON.stringify(checked)).toContain(KEY_MASKED_NOTE);
		expect(sim.ledger.charges.slice(before)).toHaveLength(1);
	});

	it('Get Credits with a revoked and with a mistyped key: the node error says the key was masked', async () => {
		for (const credential of ['revoked', 'mistyped'] as const) {
			const execution = await run({
				name: `Secrecy: Get Credits (${credential}) (e2e)`,
				nodes: [start0, deckNode('Get Credits', 'e0000000-0000-4000-8000-000000000005', credential, { resource: 'account', operation: 'getCredits' })],
				connections: { Start: { main: [[{ node: 'Get Credits', type: 'main', index: 0 }]] } },
			});
			expect(execution.status).toBe('error');
			expect(execution.data.resultData.error?.message).toMatch(/401 unauthorized/);
			expect(execution.data.resultData.error?.message).toContain(KEY_MASKED_NOTE);
		}
	});

	it('Create with a mistyped key on the error output: the error item says the key was masked', async () => {
		const execution = await run({
			name: 'Secrecy: Create error output (e2e)',
			nodes: [start0, deckNode('Create', 'e0000000-0000-4000-8000-000000000006', 'mistyped', create, { onError: 'continueErrorOutput' })],
			connections: { Start: { main: [[{ node: 'Create', type: 'main', index: 0 }]] } },
		});
		expect(execution.status).toBe('success');
		const [failed] = runData(execution, 'Create', 3);
		expect(failed.error).toMatchObject({ code: 'unauthorized', message: expect.stringContaining(KEY_MASKED_NOTE) });
	});

	it('the credential Test inside n8n names no key', async () => {
		for (const apiKey of keys) {
			const result = await n8n.rest.post('/rest/credentials/test', {
				credentials: { id: credentials.good.id, name: credentials.good.name, type: CREDENTIAL_TYPE, data: { apiKey, baseUrl: sim.url } },
			});
			expect(leaksIn(JSON.stringify(result), [apiKey])).toEqual([]);
		}
	});

	it('a Base URL of plain http:// to another machine is refused before anything is sent', async () => {
		const requests = sim.ledger.requests.length;
		const execution = await run({
			name: 'Secrecy: plain http (e2e)',
			nodes: [start0, deckNode('Get Credits', 'e0000000-0000-4000-8000-000000000007', 'plainHttp', { resource: 'account', operation: 'getCredits' })],
			connections: { Start: { main: [[{ node: 'Get Credits', type: 'main', index: 0 }]] } },
		});
		expect(execution.status).toBe('error');
		expect(execution.data.resultData.error?.message).toMatch(/Base URL "http:\/\/deckgen\.invalid" is plain http:\/\/ to another machine.*Allow Plain HTTP/);
		expect(sim.ledger.requests.length).toBe(requests);
	});

	it('no key in any form in the saved executions (read back through the REST API) or in n8n’s debug log', async () => {
		expect(executionIds.length).toBeGreaterThanOrEqual(5);
		// the service did name the keys it was shown
		expect(sim.ledger.requests.length).toBeGreaterThan(5);
		const leaks: string[] = [];
		let masked = 0;
		for (const id of executionIds) {
			const raw = JSON.stringify(await n8n.rest.request('GET', `/rest/executions/${id}`, undefined, { raw: true }));
			if (raw.includes(KEY_MASK)) masked++;
			leaks.push(...leaksIn(raw, keys).map((leak) => `execution ${id}: ${leak}`));
		}
		// n8n's output at debug level, the log a person with server access reads
		expect(n8n.logs).toMatch(/\bdebug\b/i);
		leaks.push(...leaksIn(n8n.logs, keys).map((leak) => `n8n log: ${leak}`));
		expect(leaks).toEqual([]);
		expect(masked).toBeGreaterThanOrEqual(4);
	});
});
