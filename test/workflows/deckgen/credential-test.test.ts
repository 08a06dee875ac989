/**
 * The credential's Test button, run as n8n runs a node's credential test method (harness
 * `testCredentials`: n8n's lookup of `testedBy`, n8n-core's CredentialTestContext and its request
 * helper) against the simulator: each refusal the contract names reads as its own case.
 */
import { DeckGen } from '../../../nodes/DeckGen/DeckGen.node';
import { DeckGenWait } from '../../../nodes/DeckGenWait/DeckGenWait.node';
import { CREDENTIAL_TEST_METHOD } from '../../../nodes/shared/n8n/credentialTest';
import { DeckGenApi } from '../../../credentials/DeckGenApi.credentials';
import { credentialVerdict } from '../../../nodes/shared/credentialCheck';
import { runWorkflow, testCredentials } from '../../harness';
import { brief, loadWorkflow } from './fixture';
import { start, type Simulator } from '../../simulator';

describe('Credential test (Test button) against the simulator', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await start({ seed: 11, clock: { manual: true } });
	});
	afterAll(async () => await sim.close());

	const press = async (apiKey: string, baseUrl = sim.url) => {
		const result = await testCredentials('deckGenApi', { apiKey, baseUrl });
		// the key is never part of what a person reads
		expect(result.message).not.toContain(apiKey);
		return result;
	};
	const requestsSince = (from: number) => sim.ledger.requests.slice(from).map((r) => `${r.method} ${r.path} ${r.status}`);

	test('a good key: OK, one GET /v1/credits, nothing spent (a trailing slash on the Base URL is fine)', async () => {
		const before = sim.ledger.requests.length;
		expect(await press(sim.keys.personal, `${sim.url}/`)).toEqual({
			status: 'OK',
			message: 'Connection successful: the service accepted the key (the test spent nothing).',
		});
		expect(requestsSince(before)).toEqual(['GET /v1/credits 200']);
		expect(sim.ledger.charges).toHaveLength(0);
	});

	test('401: wrong or revoked key', async () => {
		for (const key of [sim.keys.revoked, 'dg_live_not_a_key']) {
			expect(await press(key)).toEqual({
				status: 'Error',
				message:
					'401: the API key is wrong or revoked. Paste the key again; if it was lost or revoked, mint a new one in the account settings (API and MCP).',
			});
		}
	});

	test('403 not_enrolled: no retry helps; support with the request id', async () => {
		const result = await press(sim.keys.notEnrolled);
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(
			/^403 not_enrolled: the account is not switched on for the API yet \(access rolls out in waves\)\. No retry helps and the key needs no change: it works the moment the account is enrolled\. If this lasts beyond a day, contact support with request id \S+\.$/,
		);
		const requestId = sim.ledger.requests.at(-1)!.requestId!;
		expect(result.message).toContain(`request id ${requestId}.`);
	});

	test('403 insufficient_scope names the <resource>:<action> from the answer', async () => {
		expect(await press(sim.keys.narrow)).toEqual({
			status: 'Error',
			message:
				'403 insufficient_scope: the key lacks credits:read (actions it grants on credits: none). Scopes live on the key: mint a new key that includes credits:read; signing in again does not help. The key may still work for the other operations (Create needs decks:spend, Get Status and the Wait node decks:read): only this test and Get Credits read the balance.',
		});
		const { key } = sim.control.createAccount({ scopes: ['credits:spend', 'decks:read'] });
		expect((await press(key)).message).toMatch(/^403 insufficient_scope: the key lacks credits:read \(actions it grants on credits: spend\)\./);
	});

	test('403 for credits:read says the key may still work elsewhere, and it does: the same key creates a deck', async () => {
		const { key } = sim.control.createAccount({ balance: 50, scopes: ['decks:spend', 'decks:read'] });
		expect((await press(key)).message).toMatch(/lacks credits:read .* The key may still work for the other operations/);
		const before = sim.ledger.charges.length;
		const result = await runWorkflow(loadWorkflow('create'), {
			credentials: { deckGenApi: { apiKey: key, baseUrl: sim.url } },
			inputItems: [{ json: brief() }],
		});
		expect(result.output('Success').map((item) => item.json.outcome)).toEqual(['success']);
		expect(sim.ledger.charges.length - before).toBe(1);
	});

	test('a refusal of another scope does not say so', async () => {
		const refusal = credentialVerdict(
			{
				status: 403,
				headers: { 'content-type': 'application/problem+json' },
				text: JSON.stringify({ code: 'forbidden', reason: 'insufficient_scope', retryable: false, requiredResource: 'decks', requiredAction: 'read', grantedActions: [] }),
			},
			sim.url,
		);
		expect(refusal.message).toMatch(/^403 insufficient_scope: the key lacks decks:read/);
		expect(refusal.message).not.toMatch(/may still work/);
	});

	test('403 unrecognized_scope lists the scopes that could not be read', async () => {
		expect(await press(sim.keys.unrecognized)).toEqual({
			status: 'Error',
			message:
				"403 unrecognized_scope: none of the key's scopes could be read (decks.write, *), so the key is refused. Mint a new key whose scopes are spelled <resource>:<action>, with resources credits, decks, materials and actions read, spend, write.",
		});
	});

	test('503 (operator switch, or the database behind it): retry, do not mint a new key', async () => {
		sim.control.setSurface('disabled');
		try {
			const result = await press(sim.keys.personal);
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(
				/^503: the service is unavailable right now\. Test again in a moment \(it asks for \d+ s\); the key is not the problem, so do not mint a new one\. \(request id \S+\)$/,
			);
		} finally {
			sim.control.setSurface('on');
		}
		sim.control.setDatabase('down');
		try {
			expect((await press(sim.keys.personal)).message).toMatch(
				/^503: the service is unavailable right now\. Test again in a moment; the key is not the problem, so do not mint a new one\./,
			);
		} finally {
			sim.control.setDatabase('up');
		}
	});

	test('a Base URL ending in /v1 is named as such, before anything is sent', async () => {
		const before = sim.ledger.requests.length;
		for (const baseUrl of [`${sim.url}/v1`, `${sim.url}/v1/`, `${sim.url}/V1`]) {
			expect(await press(sim.keys.personal, baseUrl)).toEqual({
				status: 'Error',
				message: `The Base URL ends in /v1. Enter the service root without /v1 (e.g. ${sim.url}); the nodes add /v1 to every path themselves.`,
			});
		}
		// Behind a path prefix, the suggested root keeps it.
		expect(await press(sim.keys.personal, `${sim.url}/api/v1/`)).toEqual({
			status: 'Error',
			message: `The Base URL ends in /v1. Enter the service root without /v1 (e.g. ${sim.url}/api); the nodes add /v1 to every path themselves.`,
		});
		expect(sim.ledger.requests.length - before).toBe(0);
	});

	test('another path prefix: a 404 says where nothing answered; no server: says it got no answer', async () => {
		expect(await press(sim.keys.personal, `${sim.url}/api`)).toMatchObject({
			status: 'Error',
			message: expect.stringMatching(
				new RegExp(`^404: nothing answers at ${sim.url}/api/v1/credits\\. Check that the Base URL is the service root \\(without /v1\\)\\.`),
			),
		});
		expect(await press(sim.keys.personal, 'http://127.0.0.1:9')).toMatchObject({
			status: 'Error',
			message: expect.stringMatching(/^No answer from http:\/\/127\.0\.0\.1:9 \(.*ECONNREFUSED.*\)\. Check the Base URL and that n8n can reach it\.$/),
		});
		// The credential's Base URL starts empty (there is no address everyone shares): Test says so, sends nothing.
		expect(new DeckGenApi().properties.find((p) => p.name === 'baseUrl')).toMatchObject({ default: '', required: true });
		const before = sim.ledger.requests.length;
		expect(await press(sim.keys.personal, '')).toEqual({
			status: 'Error',
			message: 'The Base URL is empty. Enter the root address of the service’s API (without /v1), as your provider gives it with the API key.',
		});
		expect(sim.ledger.requests.length).toBe(before);
		expect(await press(sim.keys.personal, 'api.deckgen.example')).toEqual({
			status: 'Error',
			message: 'The Base URL "api.deckgen.example" is not an address. Enter the service root, e.g. https://api.deckgen.example.',
		});
	});
});

describe('How n8n finds the test', () => {
	test('both nodes name the method with testedBy and have it; the credential has no declarative test (it would win)', () => {
		expect((new DeckGenApi() as { test?: unknown }).test).toBeUndefined();
		for (const node of [new DeckGen(), new DeckGenWait()]) {
			expect(node.description.credentials).toEqual([{ name: 'deckGenApi', required: true, testedBy: CREDENTIAL_TEST_METHOD }]);
			expect(typeof node.methods.credentialTest[CREDENTIAL_TEST_METHOD]).toBe('function');
		}
	});
});
