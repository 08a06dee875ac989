/**
 * The API key appears in no output item, error (message, description, context, stack), log line
 * or console output, whatever the outcome: success, checkout, every failure, no response at all.
 * (Every other workflow test checks outputs and logs too, through `runWith`.)
 *
 * The second half runs every operation of both nodes against a careless service (the simulator's
 * `echoKey`), which names the presented key in every text it answers: the key must still appear
 * nowhere, in no form, while the masked text shows that it did come back.
 */
import { inspect } from 'node:util';

import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { KEY_MASK, KEY_MASKED_NOTE, plainHttpRefusal } from '../../../nodes/shared/secrecy';
import { runWorkflow, testCredentials, type RunResult, type WorkflowJson } from '../../harness';
import { start, type Simulator } from '../../simulator';
import { TOOL_NODE_TYPES } from '../tool/tool';
import { loadWorkflow as loadWaitWorkflow, WAIT_NODE } from '../wait/run';
import { brief, continueErrorOutput, DECK_NODE, loadWorkflow, patchNode, recordPlainHttp } from './fixture';

// Whatever n8n or the node prints goes through here too.
const printed: string[] = [];
const writes = { out: process.stdout.write.bind(process.stdout), err: process.stderr.write.bind(process.stderr) };
beforeAll(() => {
	process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
		printed.push(String(chunk));
		return writes.out(chunk as string, ...(rest as []));
	}) as typeof process.stdout.write;
	process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
		printed.push(String(chunk));
		return writes.err(chunk as string, ...(rest as []));
	}) as typeof process.stderr.write;
});
afterAll(() => {
	process.stdout.write = writes.out;
	process.stderr.write = writes.err;
});

/** All a run leaves behind: saved execution data, outputs, log lines, errors (with stacks), console output. */
function everything(result: RunResult, node: string): string {
	const error = result.nodeError(node);
	return [
		JSON.stringify(result.runExecutionData),
		JSON.stringify(result.outputs(node)),
		result.logs.join('\n'),
		error ? inspect(error, { depth: 10 }) : '',
		error instanceof Error ? String(error.stack) : '',
		result.error ? inspect(result.error, { depth: 10 }) : '',
		printed.join(''),
	].join('\n');
}

describe('the API key never leaks', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await start({ seed: 5, clock: { manual: true } });
	});
	afterAll(async () => await sim.close());

	const scenarios: Array<[string, () => { key: string; baseUrl?: string }, boolean]> = [
		['success', () => ({ key: sim.keys.personal }), true],
		['checkout', () => ({ key: sim.keys.broke }), true],
		['401 revoked key (continue on fail)', () => ({ key: sim.keys.revoked }), true],
		['401 revoked key (node fails)', () => ({ key: sim.keys.revoked }), false],
		['403 scope (node fails)', () => ({ key: sim.keys.narrow }), false],
		['no response: nothing listens (node fails)', () => ({ key: sim.keys.personal, baseUrl: 'http://127.0.0.1:9' }), false],
		['no response: nothing listens (continue on fail)', () => ({ key: sim.keys.personal, baseUrl: 'http://127.0.0.1:9' }), true],
	];

	test.each(scenarios)('%s', async (_name, scenario, continueOnFail) => {
		const { key, baseUrl } = scenario();
		const base = loadWorkflow('create');
		const deck = base.nodes.find((n) => n.name === DECK_NODE)!;
		deck.parameters.options = { ...(deck.parameters.options as object), maxRetryWaitSeconds: 0 };
		const workflow = continueOnFail ? continueErrorOutput(base) : base;
		printed.length = 0;

		const result = await runWorkflow(workflow, {
			credentials: { deckGenApi: { apiKey: key, baseUrl: baseUrl ?? sim.url } },
			inputItems: [{ json: brief() }],
		});

		const text = everything(result, DECK_NODE);
		// The scenario did what it says, so the absence below means something.
		if (continueOnFail) expect(result.status).toBe('success');
		else expect(result.status).toBe('error');
		expect(text.length).toBeGreaterThan(200);
		expect(text).not.toContain(key);
		// Not even a recognisable part of it.
		expect(text).not.toContain(key.slice(-16));
	});
});

describe('against a service that names the key in everything it says (simulator echoKey)', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await start({ seed: 23, clock: { manual: true }, echoKey: true, limits: { maxConcurrentDecks: 1000 } });
	});
	afterAll(async () => await sim.close());

	/** A mistyped key that needs escaping in JSON, in a URL and in HTML. */
	const MISTYPED = 'dg_live_mis"typed\\key/with+plus%25&amp<x>';
	const PDF = Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

	/** The key in every form the service or n8n could write it, and its last 16 characters. */
	const forms = (key: string) => [
		key,
		JSON.stringify(key).slice(1, -1),
		JSON.stringify(JSON.stringify(key)).slice(1, -1),
		encodeURIComponent(key),
		Buffer.from(key).toString('base64').replace(/=+$/, ''),
		key.slice(-16),
	];

	function expectSecret(text: string, key: string, masked = true): void {
		expect(text.length).toBeGreaterThan(200);
		for (const form of forms(key)) expect(text).not.toContain(form);
		// The service did name the key (the simulator is not polite), and the reader masked it.
		if (masked) expect(text).toContain(KEY_MASK);
	}

	const accountKey = () => sim.control.createAccount({ balance: 200, subscriber: true }).key;

	async function run(
		workflow: WorkflowJson,
		key: string,
		inputs: Array<Record<string, unknown>>,
		node = DECK_NODE,
		{ masked = true, ...extra }: Parameters<typeof runWorkflow>[1] & { masked?: boolean } = {},
	) {
		printed.length = 0;
		const result = await runWorkflow(workflow, {
			...extra,
			credentials: { deckGenApi: { apiKey: key, baseUrl: sim.url } },
			inputItems: inputs.map((input) => ('binary' in input ? input : { json: input })) as INodeExecutionData[],
		});
		expectSecret(everything(result, node), key, masked);
		return result;
	}
	const errorsOf = (result: RunResult) => result.output('Errors').map((item) => item.json as { error: { message: string }; message?: string });
	const withOption = (workflow: WorkflowJson, options: Record<string, unknown>) => {
		const deck = workflow.nodes.find((n) => n.name === DECK_NODE)!;
		return patchNode(workflow, DECK_NODE, { parameters: { options: { ...(deck.parameters.options as IDataObject), ...options } as never } });
	};

	test('the simulator does name the key, in the body and in WWW-Authenticate', async () => {
		const answer = await fetch(`${sim.url}/v1/credits`, { headers: { authorization: `Bearer ${sim.keys.revoked}` } });
		expect(answer.headers.get('www-authenticate')).toContain(sim.keys.revoked);
		expect(await answer.text()).toContain(sim.keys.revoked);
	});

	test('Get Credits: the answer passes through with the key masked', async () => {
		const result = await run(loadWorkflow('get-credits'), accountKey(), [{}]);
		const [item] = result.output('Success');
		expect(String(item.json.notice)).toContain(KEY_MASK);
		expect(JSON.stringify(item.json)).toMatch(/200/);
	});

	test.each([
		['revoked key, node fails', () => sim.keys.revoked, false],
		['revoked key, error output', () => sim.keys.revoked, true],
		['mistyped key that needs escaping, node fails', () => MISTYPED, false],
		['mistyped key that needs escaping, error output', () => MISTYPED, true],
	])('Get Credits with a %s: the 401 message says the key was masked', async (_name, key, errorOutput) => {
		const workflow = loadWorkflow('get-credits');
		const result = await run(errorOutput ? continueErrorOutput(workflow) : workflow, key(), [{}]);
		const message = errorOutput ? errorsOf(result)[0].error.message : String((result.nodeError(DECK_NODE) as Error | undefined)?.message);
		expect(message).toContain(KEY_MASKED_NOTE);
		expect(message).toMatch(/401 unauthorized/);
	});

	test('Create: success, checkout (402 option labels) and a revoked key', async () => {
		const workflow = continueErrorOutput(loadWorkflow('create'));
		const bought = await run(workflow, accountKey(), [brief()]);
		expect(bought.output('Success')[0].json).toMatchObject({ outcome: 'success', taskId: expect.any(String) });

		const checkout = await run(workflow, sim.keys.broke, [brief()]);
		const [offer] = checkout.output('Checkout');
		expect(JSON.stringify(offer.json.options)).toContain(KEY_MASK);

		const refused = await run(workflow, sim.keys.revoked, [brief()]);
		expect(errorsOf(refused)[0].error.message).toContain(KEY_MASKED_NOTE);
	});

	test('Create: the body-size layer’s HTML 413 and the edge’s plain-text 429', async () => {
		const workflow = withOption(continueErrorOutput(loadWorkflow('create')), { maxRetryWaitSeconds: 0 });
		sim.control.setLimits({ jsonBodyBytes: 20 });
		try {
			const tooLarge = await run(workflow, accountKey(), [brief()]);
			expect(errorsOf(tooLarge)[0].error.message).toMatch(/413/);
		} finally {
			sim.control.setLimits({ jsonBodyBytes: 64 * 1024 });
		}
		sim.control.setFaults([{ kind: 'status429', shape: 'plain' }]);
		try {
			const limited = await run(workflow, accountKey(), [brief()]);
			expect(errorsOf(limited)[0].error.message).toMatch(/429/);
		} finally {
			sim.control.setFaults([]);
		}
	});

	test('Custom Request: a success, a 422 (its msg), and the database’s plain 503', async () => {
		const key = accountKey();
		const workflow = withOption(continueErrorOutput(loadWorkflow('custom-request')), { maxRetryWaitSeconds: 0 });
		const result = await run(workflow, key, [
			{ method: 'GET', path: '/v1/credits' },
			{ method: 'POST', path: '/v1/decks', body: { title: 'Custom', slide_count: 'many', expected_credits: 10 } },
		]);
		expect(result.output('Success')[0].json.notice).toEqual(expect.stringContaining(KEY_MASK));
		const [invalid] = errorsOf(result);
		expect(invalid.error.message).toContain(KEY_MASKED_NOTE);
		expect(JSON.stringify(invalid.error)).toMatch(/slide_count/);

		sim.control.setFaults([{ kind: 'status503', shape: 'plain' }]);
		try {
			const down = await run(workflow, key, [{ method: 'GET', path: '/v1/credits' }]);
			expect(errorsOf(down)[0].error.message).toMatch(/503/);
		} finally {
			sim.control.setFaults([]);
		}
	});

	test('Get Status: the status body reaches the item masked', async () => {
		const key = accountKey();
		const taskId = sim.control.seedDeck({ key, durationMs: 0, outcome: 'succeeded' });
		const result = await run(loadWorkflow('get-status'), key, [{ taskId }]);
		expect(result.output('Success')[0].json).toMatchObject({ taskId, state: 'succeeded', notice: expect.stringContaining(KEY_MASK) });
	});

	test('Upload: the upload record reaches the item masked', async () => {
		const result = await run(loadWorkflow('upload'), accountKey(), [
			{ json: {}, binary: { data: { data: PDF.toString('base64'), mimeType: 'application/pdf', fileName: 'brief.pdf' } } },
		]);
		expect(result.output('Success')[0].json).toMatchObject({ materialId: expect.stringMatching(/^mat_/), notice: expect.stringContaining(KEY_MASK) });
	});

	test('Download by task id and by a link: the file’s bytes as served, its name and every refusal masked', async () => {
		const key = accountKey();
		const taskId = sim.control.seedDeck({ key, durationMs: 0, outcome: 'succeeded' });
		const workflow = continueErrorOutput(loadWorkflow('download'));
		// The item keeps the status's links, not its other text; the reference profile names the file with the key.
		const byTask = await run(workflow, key, [{ taskId }], DECK_NODE, { masked: sim.profile.fileDisposition });
		const [file] = byTask.output('Success');
		const bytes = Buffer.from(file.binary!.data.data, 'base64');
		expect(bytes.toString('latin1')).toContain(taskId);
		expect(bytes.length).toBe(4096);
		const link = String(file.json.deckUrl);

		const byLink = await run(workflow, key, [{ url: link }, { url: `${sim.url}/v1/decks/tsk_nothing_here/files/deck.pptx` }]);
		expect(Buffer.from(byLink.output('Success')[0].binary!.data.data, 'base64').equals(bytes)).toBe(true);
		expect(errorsOf(byLink)[0].error.message).toMatch(/Could not download/);
	});

	test('Revise, Translate and Generate Video (its 501)', async () => {
		const key = accountKey();
		const taskId = sim.control.seedDeck({ key, durationMs: 0 });
		const revised = await run(loadWorkflow('revise'), key, [{ taskId, instructions: 'Shorter intro', expected_credits: 0 }]);
		expect(revised.output('Success')[0].json).toMatchObject({ outcome: 'success', notice: expect.stringContaining(KEY_MASK) });
		sim.control.advance(60 * 60_000);
		const translated = await run(loadWorkflow('translate'), key, [{ taskId, languages: ['de'], expected_credits: 5 }]);
		expect(JSON.stringify(translated.outputs(DECK_NODE))).toContain(KEY_MASK);
		const video = await run(loadWorkflow('generate-video'), key, [{ taskId, expected_credits: 20 }]);
		const [item] = video.output('Client Action');
		expect(item.json).toMatchObject({ outcome: 'not_available_yet' });
		expect(JSON.stringify(item.json)).toContain(KEY_MASK);
	});

	test.each([
		['Check Once', 'check-once'],
		['Wait Until Done', 'wait-until-done'],
	])('the Wait node, %s: a finished deck’s status and a revoked key’s refusal', async (_name, name) => {
		const key = accountKey();
		const taskId = sim.control.seedDeck({ key, durationMs: 0, outcome: 'succeeded' });
		const done = await run(loadWaitWorkflow(name), key, [{ taskId }], WAIT_NODE);
		const [completed] = done.output(WAIT_NODE, 0);
		expect(completed.json).toMatchObject({ taskId, outcome: 'completed' });
		expect(JSON.stringify(completed.json)).toContain(KEY_MASK);

		const refused = await run(loadWaitWorkflow(name), sim.keys.revoked, [{ taskId }], WAIT_NODE);
		const failed = refused.output(WAIT_NODE, 1);
		expect(JSON.stringify(failed.length ? failed : (refused.nodeError(WAIT_NODE) as Error | undefined)?.message)).toContain(KEY_MASKED_NOTE);
	});

	test('as an AI tool: both nodes, a success and a refusal, on output 0', async () => {
		const tool = (workflow: WorkflowJson, node: string, type: string) => {
			const copy = JSON.parse(JSON.stringify(workflow)) as WorkflowJson;
			const found = copy.nodes.find((n) => n.name === node)!;
			found.type = type;
			// connected to no review: allowed to buy on its own, or a purchase would never reach the service (issue 38)
			if (type.endsWith('deckGenTool')) found.parameters = { ...found.parameters, buyWithoutReview: true, creditLimitPerExecution: 100 };
			return copy;
		};
		// as n8n's loader makes them: their type names end in Tool (what the tool-only fields are shown for)
		const nodeTypes = TOOL_NODE_TYPES;
		const deckTool = tool(continueErrorOutput(loadWorkflow('create')), DECK_NODE, 'n8n-nodes-deckgen.deckGenTool');
		const broke = await run(deckTool, sim.keys.broke, [brief()], DECK_NODE, { nodeTypes });
		expect(broke.output(DECK_NODE, 0)[0].json).toMatchObject({ outcome: 'checkout' });
		await run(deckTool, sim.keys.revoked, [brief()], DECK_NODE, { nodeTypes });

		const key = accountKey();
		const taskId = sim.control.seedDeck({ key, durationMs: 0, outcome: 'succeeded' });
		const waitTool = tool(loadWaitWorkflow('check-once'), WAIT_NODE, 'n8n-nodes-deckgen.deckGenWaitTool');
		const done = await run(waitTool, key, [{ taskId }], WAIT_NODE, { nodeTypes });
		expect(done.output(WAIT_NODE, 0)[0].json).toMatchObject({ taskId });
		await run(waitTool, sim.keys.revoked, [{ taskId }], WAIT_NODE, { nodeTypes });
	});

	test.each([
		['a good key', () => sim.keys.personal, 'OK'],
		['a revoked key', () => sim.keys.revoked, 'Error'],
		['a mistyped key that needs escaping', () => MISTYPED, 'Error'],
		['a key without the scope', () => sim.keys.narrow, 'Error'],
	])('the credential Test with %s says nothing of the key', async (_name, key, status) => {
		const result = await testCredentials('deckGenApi', { apiKey: key(), baseUrl: sim.url });
		expect(result.status).toBe(status);
		for (const form of forms(key())) expect(result.message).not.toContain(form);
	});

	test('the credential Test shows the edge’s plain-text 429 with the key masked', async () => {
		sim.control.setFaults([{ kind: 'status429', shape: 'plain' }]);
		try {
			const result = await testCredentials('deckGenApi', { apiKey: sim.keys.personal, baseUrl: sim.url });
			expect(result.status).toBe('Error');
			// The edge's page (text/plain, or profile B's JSON), quoted as it came with the key masked and said so.
			expect(result.message).toMatch(/^429 rate_limited: .*(Too Many Requests|API rate limit exceeded) \(presented key: \[API key\]\)/);
			expect(result.message).toContain(KEY_MASKED_NOTE);
			for (const form of forms(sim.keys.personal)) expect(result.message).not.toContain(form);
		} finally {
			sim.control.setFaults([]);
		}
	});
});

describe('no key over plain HTTP to another machine', () => {
	// A Base URL no one may contact: .invalid never resolves (RFC 6761). Every plain-HTTP request goes
	// through HTTP_PROXY, a listener here, so whatever the node sends to it is seen.
	const BASE_URL = 'http://deckgen.invalid';
	const seen = recordPlainHttp();

	const KEY = 'dg_live_plain_http_secret_0123456789';
	const credentials = (allowPlainHttp?: boolean) => ({ deckGenApi: { apiKey: KEY, baseUrl: BASE_URL, ...(allowPlainHttp === undefined ? {} : { allowPlainHttp }) } });

	test.each([
		['Deck Generator', () => loadWorkflow('get-credits'), DECK_NODE],
		['Deck Generator Wait', () => loadWaitWorkflow('check-once'), WAIT_NODE],
	])('%s: refused before anything is sent, naming the Base URL field and the fix', async (_name, workflow, node) => {
		const result = await runWorkflow(workflow(), { credentials: credentials(), inputItems: [{ json: { taskId: 'tsk_1' } }] });
		expect(result.status).toBe('error');
		const error = result.nodeError(node) as Error & { description?: string };
		expect(error.message).toMatch(/^The credential's Base URL "http:\/\/deckgen\.invalid" is plain http:\/\/ to another machine/);
		expect(error.message).toMatch(/Change the Base URL to https:\/\/.*"Allow Plain HTTP"/);
		expect(error.description).toMatch(/Base URL field.*Allow Plain HTTP field/);
		expect(seen).toEqual([]);
		expect(everything(result, node)).not.toContain(KEY);
	});

	test('with Allow Plain HTTP on, the request does go (so the refusal above is what stopped it)', async () => {
		const result = await runWorkflow(loadWorkflow('get-credits'), { credentials: credentials(true), inputItems: [{ json: {} }] });
		expect(result.status).toBe('error');
		expect(seen).toEqual([{ url: `${BASE_URL}/v1/credits`, authorization: `Bearer ${KEY}` }]);
	});

	test('the credential Test says the same, and sends nothing', async () => {
		const refused = await testCredentials('deckGenApi', { apiKey: KEY, baseUrl: BASE_URL });
		expect(refused).toEqual({ status: 'Error', message: plainHttpRefusal(BASE_URL, false) });
		expect(seen).toEqual([]);
		const allowed = await testCredentials('deckGenApi', { apiKey: KEY, baseUrl: BASE_URL, allowPlainHttp: true });
		expect(allowed.status).toBe('Error');
		expect(seen).toHaveLength(1);
	});
});
