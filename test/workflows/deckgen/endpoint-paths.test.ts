/**
 * Issue 26, point 2: every endpoint the contract does not show can be reached. The contract names no
 * path for the upload, the revisions, the translations or the video; a deployment that serves them
 * elsewhere (the simulator's `paths` choice) is reached through the credential's path fields, and
 * without them the 404 names the field to set. Overrides are checked before anything is sent.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { runWorkflow, testCredentials, type RunResult, type WorkflowJson } from '../../harness';
import { exampleTool, TOOL_NODE_TYPES, toolCallWorkflow } from '../tool/tool';
import { start, type Simulator } from '../../simulator';
import { assertNoKeyLeak, brief, continueErrorOutput, jsonOf, loadWorkflow } from './fixture';

const PDF = Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const pdfItem = (json: IDataObject = {}): INodeExecutionData => ({
	json,
	binary: { data: { data: PDF.toString('base64'), mimeType: 'application/pdf', fileName: 'brief.pdf' } },
});

/** A deployment that serves every open path somewhere else. */
const MOVED = {
	materials: '/v1/files',
	revisions: '/v1/decks/{taskId}/versions',
	translations: '/v1/translations/{taskId}',
	video: '/v1/decks/{taskId}/videos',
};

type Paths = Partial<Record<'materialsPath' | 'revisionsPath' | 'translationsPath' | 'videoPath', string>>;

async function run(sim: Simulator, workflow: WorkflowJson, key: string, inputs: INodeExecutionData[], paths: Paths = {}, baseUrl = sim.url): Promise<RunResult> {
	const result = await runWorkflow(workflow, { credentials: { deckGenApi: { apiKey: key, baseUrl, ...paths } }, inputItems: inputs });
	assertNoKeyLeak(sim, result, [key]);
	return result;
}

const requestsTo = (sim: Simulator, from: number) => sim.ledger.requests.slice(from).map((r) => `${r.method} ${r.path} ${r.status}`);

describe('a deployment that serves the open paths elsewhere', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await start({ seed: 261, clock: { manual: true }, choices: { paths: MOVED } });
		sim.control.setUnshipped([]);
	});
	afterAll(async () => await sim.close());

	describe('Material → Upload', () => {
		test('with Upload Path /v1/files the file is uploaded there (two items)', async () => {
			const { key } = sim.control.createAccount({ balance: 100, subscriber: true });
			const before = sim.ledger.requests.length;
			const result = await run(sim, loadWorkflow('upload'), key, [pdfItem(), pdfItem({ n: 2 })], { materialsPath: '/v1/files' });
			const uploaded = jsonOf(result.output('Success'));
			expect(uploaded).toHaveLength(2);
			for (const item of uploaded) expect(item).toMatchObject({ outcome: 'success', materialId: expect.any(String) });
			expect(requestsTo(sim, before)).toEqual([expect.stringMatching(/^POST \/v1\/files 20\d$/), expect.stringMatching(/^POST \/v1\/files 20\d$/)]);
		});

		test('without it, the 404 on /v1/materials names Upload Path in the credential (not a missing deck)', async () => {
			const { key } = sim.control.createAccount({ balance: 100, subscriber: true });
			const result = await run(sim, continueErrorOutput(loadWorkflow('upload')), key, [pdfItem(), pdfItem()]);
			const errors = jsonOf(result.output('Errors'));
			expect(errors).toHaveLength(2);
			for (const item of errors) {
				const error = item.error as IDataObject;
				expect(error).toMatchObject({ code: 'not_found', status: 404, endpointSetting: 'Upload Path' });
				expect(error.message).toMatch(/nothing at \/v1\/materials \(see the credential's Upload Path\)/);
				expect(item.message).toMatch(/set it as Upload Path in the Deck Generator credential/);
				expect(item.message).not.toMatch(/No such deck/);
			}
			expect(result.output('Errors').map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		});

		test('without Continue, the execution fails with that message', async () => {
			const { key } = sim.control.createAccount({ balance: 100, subscriber: true });
			const result = await run(sim, loadWorkflow('upload'), key, [pdfItem()]);
			expect(result.status).toBe('error');
			const error = result.nodeError('Deck Generator') as Error & { description?: string };
			expect(error.message).toMatch(/Upload Path/);
			expect(error.description).toMatch(/Upload Path in the Deck Generator credential/);
		});
	});

	describe.each([
		{ operation: 'Revise', workflow: 'revise', field: 'revisionsPath', label: 'Revise Path', path: MOVED.revisions, usual: 'revisions', input: { instructions: 'Shorter', expected_credits: 0 } },
		{ operation: 'Translate', workflow: 'translate', field: 'translationsPath', label: 'Translate Path', path: MOVED.translations, usual: 'translations', input: { languages: ['de'], expected_credits: 5 } },
		{ operation: 'Generate Video', workflow: 'generate-video', field: 'videoPath', label: 'Generate Video Path', path: MOVED.video, usual: 'video', input: { expected_credits: 20 } },
	])('Deck → $operation', ({ workflow, field, label, path, usual, input }) => {
		test(`with ${label} ${path} it is bought there, {taskId} filled in`, async () => {
			const { key } = sim.control.createAccount({ balance: 100, subscriber: true });
			const taskId = sim.control.seedDeck({ key, durationMs: 0 });
			const before = sim.ledger.requests.length;
			const result = await run(sim, loadWorkflow(workflow), key, [{ json: { taskId, ...input } }], { [field]: path });
			expect(jsonOf(result.output('Success'))).toEqual([expect.objectContaining({ outcome: 'success', taskId })]);
			expect(requestsTo(sim, before)).toEqual([expect.stringMatching(new RegExp(`^POST ${path.replace('{taskId}', taskId)} 20\\d$`))]);
		});

		test(`without it, the 404 on /v1/decks/{taskId}/${usual} names ${label} as well as the deck`, async () => {
			const { key } = sim.control.createAccount({ balance: 100, subscriber: true });
			const taskId = sim.control.seedDeck({ key, durationMs: 0 });
			const result = await run(sim, continueErrorOutput(loadWorkflow(workflow)), key, [{ json: { taskId, ...input } }]);
			const [item] = jsonOf(result.output('Errors'));
			expect(item.error).toMatchObject({ code: 'not_found', status: 404, endpointSetting: label });
			expect((item.error as IDataObject).message).toContain(`nothing at /v1/decks/${taskId}/${usual} (see the credential's ${label})`);
			expect(item.message).toContain(`set it as ${label} in the Deck Generator credential (with {taskId} where the deck's id goes)`);
			expect(item.message).toMatch(/or there is no such deck for this credential/);
			expect(sim.control.balanceOf(key)).toBe(100);
		});
	});

	test('Custom Request stays the escape hatch: the moved revisions path, with the same key and idempotency', async () => {
		const { key } = sim.control.createAccount({ balance: 100, subscriber: true });
		const taskId = sim.control.seedDeck({ key, durationMs: 0 });
		const result = await run(sim, loadWorkflow('custom-request'), key, [
			{ json: { method: 'POST', path: `/v1/decks/${taskId}/versions`, body: { instructions: 'Shorter', expected_credits: 0 } } },
		]);
		expect(jsonOf(result.output('Success'))).toEqual([expect.objectContaining({ outcome: 'success', taskId })]);
	});

	test('as an AI tool, the 404 on the usual revisions path tells the model a person must set Revise Path', async () => {
		const { key } = sim.control.createAccount({ balance: 100, subscriber: true });
		const taskId = sim.control.seedDeck({ key, durationMs: 0 });
		const node = {
			...exampleTool('Get Deck Status'),
			name: 'Revise Deck',
			// connected to no review: allowed to buy on its own, or it would send nothing (issue 38)
			parameters: { resource: 'deck', operation: 'revise', taskId: "={{ $fromAI('taskId') }}", instructions: "={{ $fromAI('instructions') }}", expectedCredits: 0, buyWithoutReview: true, creditLimitPerExecution: 10 },
		};
		const result = await runWorkflow(toolCallWorkflow(node), {
			credentials: { deckGenApi: { apiKey: key, baseUrl: sim.url } },
			inputItems: [{ json: { taskId, instructions: 'Shorter' } }],
			nodeTypes: TOOL_NODE_TYPES,
		});
		assertNoKeyLeak(sim, result, [key]);
		const [answer] = jsonOf(result.output(node.name));
		expect(answer).toMatchObject({ outcome: 'error', code: 'not_found', endpointSetting: 'Revise Path' });
		expect(answer.message).toMatch(/only a person can fix that, in the Deck Generator credential's Revise Path field/);
	});

	test('a 405 on an overridden path says the path does not take POST and names the field (Allow read)', async () => {
		const { key } = sim.control.createAccount({ balance: 100, subscriber: true });
		const taskId = sim.control.seedDeck({ key, durationMs: 0 });
		// A person who copied the status path: it takes GET only.
		const result = await run(sim, continueErrorOutput(loadWorkflow('revise')), key, [{ json: { taskId, instructions: 'x', expected_credits: 0 } }], {
			revisionsPath: '/v1/decks/{taskId}/status',
		});
		const [item] = jsonOf(result.output('Errors'));
		expect(item.error).toMatchObject({ code: 'method_not_allowed', status: 405, endpointSetting: 'Revise Path' });
		expect((item.error as IDataObject).message).toMatch(/not taken at \/v1\/decks\/tsk_\w+\/status \(see the credential's Revise Path\)/);
		expect(item.message).toMatch(/does not take POST at the Revise Path set in the Deck Generator credential \(\/v1\/decks\/\{taskId\}\/status\)\. Correct Revise Path/);
	});

	test('a Base URL with a path prefix and a trailing slash: /v1/… goes after the prefix', async () => {
		// The simulator at /api/ behind a prefix-stripping proxy is beyond this test; what it proves is the URL the
		// nodes build: https://host/api/ + /v1/files = https://host/api/v1/files, which the simulator answers 404 as
		// an unknown path, named with the setting.
		const { key } = sim.control.createAccount({ balance: 100, subscriber: true });
		const before = sim.ledger.requests.length;
		const result = await run(sim, continueErrorOutput(loadWorkflow('upload')), key, [pdfItem()], { materialsPath: '/v1/files' }, `${sim.url}/api/`);
		expect(requestsTo(sim, before)).toEqual(['POST /api/v1/files 404']);
		expect(jsonOf(result.output('Errors'))[0].error).toMatchObject({ status: 404, endpointSetting: 'Upload Path' });
	});
});

describe('a path override that cannot be right is refused before anything is sent', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await start({ seed: 262, clock: { manual: true } });
	});
	afterAll(async () => await sim.close());

	test.each([
		['materialsPath', 'files', /Upload Path "files" must start with \/v1\//],
		['materialsPath', '/api/files', /must start with \/v1\//],
		['materialsPath', 'https://evil.example/v1/files', /is an address/],
		['materialsPath', '//evil.example/v1/files', /is an address/],
		['materialsPath', '/v1/../admin', /must not hold \. or \.\. segments/],
		['materialsPath', '/v1/%2e%2e/admin', /encoded dots and slashes/],
		['materialsPath', '/v1/files?tenant=1', /without \? or #/],
		['materialsPath', '/v1/files/{taskId}', /names no deck/],
		['revisionsPath', '/v1/revisions', /must hold \{taskId\} exactly once/],
		['revisionsPath', '/v1/decks/{task_id}/revisions', /the only placeholder is \{taskId\}/],
		['videoPath', '/v1//decks/{taskId}/video', /empty segment/],
	])('%s = %s', async (field, value, message) => {
		const { key } = sim.control.createAccount({ balance: 100, subscriber: true });
		const taskId = sim.control.seedDeck({ key, durationMs: 0 });
		const workflow = field === 'materialsPath' ? 'upload' : field === 'revisionsPath' ? 'revise' : 'generate-video';
		const input = field === 'materialsPath' ? pdfItem() : { json: { taskId, instructions: 'x', expected_credits: 0 } };
		const before = sim.ledger.requests.length;
		const result = await run(sim, continueErrorOutput(loadWorkflow(workflow)), key, [input], { [field]: value });
		const [item] = jsonOf(result.output('Errors'));
		expect((item.error as IDataObject).message).toMatch(message);
		expect((item.error as IDataObject).message).toMatch(/Open the Deck Generator credential and fix/);
		expect(sim.ledger.requests.length).toBe(before);
		// The credential's Test says the same at Save.
		expect(await testCredentials('deckGenApi', { apiKey: key, baseUrl: sim.url, [field]: value })).toEqual({
			status: 'Error',
			message: expect.stringMatching(message),
		});
	});

	test('a good override passes the Test (which reads /v1/credits only)', async () => {
		const { key } = sim.control.createAccount({ balance: 100, subscriber: true });
		expect(await testCredentials('deckGenApi', { apiKey: key, baseUrl: sim.url, ...{ materialsPath: ' /v1/files/ ', revisionsPath: '/v1/decks/{taskId}/versions' } })).toMatchObject({ status: 'OK' });
	});
});

/**
 * A deployment behind a gateway that serves the API under a path prefix (https://host/api/v1/…), stripping
 * the prefix before the service; `redirects` answers a path with a 308 to another, as a deployment that
 * moved an endpoint and kept the old path as a redirect does.
 */
function prefixGateway(target: string, redirects: Record<string, string> = {}): Promise<{ url: string; server: Server }> {
	const server = createServer((req, res) => {
		const path = String(req.url);
		if (redirects[path]) {
			res.writeHead(308, { location: redirects[path] });
			res.end();
			return;
		}
		if (!path.startsWith('/api/')) {
			res.writeHead(404, { 'content-type': 'text/html' });
			res.end('<h1>404</h1>');
			return;
		}
		const upstream = new URL(path.slice('/api'.length), target);
		const forward = httpRequest(upstream, { method: req.method, headers: { ...req.headers, host: upstream.host } }, (answer) => {
			res.writeHead(answer.statusCode ?? 502, answer.headers);
			answer.pipe(res);
		});
		req.pipe(forward);
	});
	return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server })));
}

describe('a deployment under a path prefix (Base URL https://host/api)', () => {
	let sim: Simulator;
	let gateway: { url: string; server: Server };
	beforeAll(async () => {
		sim = await start({ seed: 263, clock: { manual: true }, choices: { paths: { materials: '/v1/files' } } });
		gateway = await prefixGateway(sim.url, { '/api/v1/materials': '/api/v1/files' });
	});
	afterAll(async () => {
		await new Promise<void>((resolve) => gateway.server.close(() => resolve()));
		await sim.close();
	});

	test.each([
		['the prefix', (url: string) => `${url}/api`],
		['a trailing slash', (url: string) => `${url}/api/`],
		['spaces around it', (url: string) => `  ${url}/api/ `],
	])('with %s: /v1/… goes after the prefix for Create, Get Status and Upload (Upload Path set)', async (_what, baseUrl) => {
		const { key } = sim.control.createAccount({ balance: 100, subscriber: true });
		const before = sim.ledger.requests.length;
		const created = await run(sim, loadWorkflow('create'), key, [{ json: brief() }], {}, baseUrl(gateway.url));
		const [deck] = jsonOf(created.output('Success'));
		expect(deck.taskId).toEqual(expect.any(String));
		const status = await run(sim, loadWorkflow('get-status'), key, [{ json: { taskId: String(deck.taskId) } }], {}, baseUrl(gateway.url));
		expect(jsonOf(status.output('Success'))).toEqual([expect.objectContaining({ outcome: 'success', taskId: deck.taskId })]);
		const uploaded = await run(sim, loadWorkflow('upload'), key, [pdfItem()], { materialsPath: '/v1/files' }, baseUrl(gateway.url));
		expect(jsonOf(uploaded.output('Success'))).toEqual([expect.objectContaining({ outcome: 'success' })]);
		expect(requestsTo(sim, before).map((r) => r.replace(/tsk_\w+/, '{taskId}'))).toEqual([
			expect.stringMatching(/^POST \/v1\/decks 20\d$/),
			'GET /v1/decks/{taskId}/status 200',
			expect.stringMatching(/^POST \/v1\/files 20\d$/),
		]);
	});

	test('a gateway\'s own 404 (HTML, not problem+json) on the upload path also names Upload Path', async () => {
		const { key } = sim.control.createAccount({ balance: 100, subscriber: true });
		const result = await run(sim, continueErrorOutput(loadWorkflow('upload')), key, [pdfItem()], { materialsPath: '/v1/uploads' }, `${gateway.url}/other`);
		const [item] = jsonOf(result.output('Errors'));
		expect(item.error).toMatchObject({ status: 404, endpointSetting: 'Upload Path' });
		expect(item.message).toMatch(/Nothing answers POST at the Upload Path set in the Deck Generator credential \(\/v1\/uploads\)\. Correct Upload Path/);
	});

	test('the Test button reads /v1/credits after the prefix too', async () => {
		const { key } = sim.control.createAccount({ balance: 100, subscriber: true });
		expect(await testCredentials('deckGenApi', { apiKey: key, baseUrl: `${gateway.url}/api/`, materialsPath: '/v1/files' })).toMatchObject({ status: 'OK' });
	});

	test('an old path kept as a 308 to the new one: Upload without Upload Path follows it (same origin, body and key kept)', async () => {
		const { key } = sim.control.createAccount({ balance: 100, subscriber: true });
		const before = sim.ledger.requests.length;
		const result = await run(sim, loadWorkflow('upload'), key, [pdfItem(), pdfItem()], {}, `${gateway.url}/api`);
		expect(jsonOf(result.output('Success'))).toHaveLength(2);
		expect(requestsTo(sim, before)).toEqual([expect.stringMatching(/^POST \/v1\/files 20\d$/), expect.stringMatching(/^POST \/v1\/files 20\d$/)]);
		expect(sim.ledger.requests.slice(before).every((r) => r.idempotencyKey)).toBe(true);
	});
});

describe('a deployment under a path prefix that gives its files as root-relative API paths', () => {
	// The service does not know the gateway's prefix: its links say /v1/decks/…/files/…; the contract makes
	// every address relative to the Base URL, so the nodes read them under the prefix (issue 26, beyond its four).
	let sim: Simulator;
	let gateway: { url: string; server: Server };
	beforeAll(async () => {
		sim = await start({ seed: 264, clock: { manual: true }, choices: { fileLinks: 'api-relative', resultLinks: 'files', statusLinks: 'none' } });
		gateway = await prefixGateway(sim.url);
	});
	afterAll(async () => {
		await new Promise<void>((resolve) => gateway.server.close(() => resolve()));
		await sim.close();
	});

	test('Get Status links them under the prefix, and Download fetches the file through it with the key', async () => {
		const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 0, outcome: 'succeeded' });
		const baseUrl = `${gateway.url}/api`;
		const status = await run(sim, loadWorkflow('get-status'), sim.keys.personal, [{ json: { taskId } }], {}, baseUrl);
		const [read] = jsonOf(status.output('Success'));
		expect(read).toMatchObject({ state: 'succeeded', deckUrl: `${baseUrl}/v1/decks/${taskId}/files/deck.pptx` });

		const downloaded = await run(sim, loadWorkflow('download'), sim.keys.personal, [{ json: { taskId } }], {}, baseUrl);
		const [file] = downloaded.output('Success');
		expect(file.json).toMatchObject({ outcome: 'success', taskId, fileName: expect.stringMatching(/\.pptx$/) });
		expect(sim.ledger.requests.filter((r) => r.path === `/v1/decks/${taskId}/files/deck.pptx`).map((r) => r.keyId)).toEqual([expect.any(String)]);
	});
});
