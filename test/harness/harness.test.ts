/**
 * Proves the harness against n8n-core's real WorkflowExecute with the harness's own test
 * nodes (test/harness/nodes): credentials applied by the credential type's generic
 * `authenticate` block, node settings (Retry On Fail, On Error outputs, Always Output Data),
 * parameter expressions, n8n's "retry execution" from saved data, cancelling, and logs.
 */
import { existsSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

import type {
	ICredentialType,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	IDataObject,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import {
	type RunResult,
	type WorkflowJson,
	connections,
	harnessEvents,
	loadedNodeTypeNames,
	node,
	runWorkflow,
	testCredentials,
} from './index';

/** Same shape as the package's credential; the harness uses credentials/ when it exists. */
const deckGenApiFallback: ICredentialType = {
	name: 'deckGenApi',
	displayName: 'Deck Generation API',
	properties: [
		{ displayName: 'API Key', name: 'apiKey', type: 'string', typeOptions: { password: true }, default: '' },
		{ displayName: 'Base URL', name: 'baseUrl', type: 'string', default: 'https://api.example.invalid' },
	],
	authenticate: {
		type: 'generic',
		properties: { headers: { Authorization: '=Bearer {{$credentials.apiKey}}' } },
	},
};

const API_KEY = 'dg_test_5f1c0e9b7a2d4c8e';

interface Received {
	method: string;
	path: string;
	authorization?: string;
	apiKeyHeader?: string;
}

/** A tiny service: /v1/ok answers 200, /v1/fail 500, /v1/flaky?id=X&fail=N fails N times. */
function startServer() {
	const received: Received[] = [];
	const flakyCounts = new Map<string, number>();
	const server = http.createServer((req, res) => {
		const url = new URL(req.url ?? '/', 'http://localhost');
		received.push({
			method: req.method ?? '',
			path: url.pathname,
			authorization: req.headers.authorization,
			apiKeyHeader: req.headers['x-api-key'] as string | undefined,
		});
		const send = (status: number, body: IDataObject) => {
			res.writeHead(status, { 'content-type': 'application/json' });
			res.end(JSON.stringify(body));
		};
		req.resume();
		req.on('end', () => {
			if (url.pathname === '/v1/ok') return send(200, { ok: true, path: url.pathname });
			if (url.pathname === '/v1/fail') return send(500, { title: 'boom' });
			if (url.pathname === '/v1/flaky') {
				const id = url.searchParams.get('id') ?? '';
				const count = (flakyCounts.get(id) ?? 0) + 1;
				flakyCounts.set(id, count);
				return count <= Number(url.searchParams.get('fail') ?? 1)
					? send(500, { title: 'try again', attempt: count })
					: send(200, { ok: true, attempt: count });
			}
			return send(404, { title: 'not found' });
		});
	});
	return new Promise<{ baseUrl: string; received: Received[]; close: () => Promise<void> }>((resolve) => {
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address() as AddressInfo;
			resolve({
				baseUrl: `http://127.0.0.1:${port}`,
				received,
				close: async () => await new Promise<void>((done) => server.close(() => done())),
			});
		});
	});
}

let service: Awaited<ReturnType<typeof startServer>>;
beforeAll(async () => {
	service = await startServer();
});
afterAll(async () => {
	await service.close();
});
beforeEach(() => {
	service.received.length = 0;
});

const credentials = () => ({ deckGenApi: { apiKey: API_KEY, baseUrl: service.baseUrl } });
const common = () => ({ credentials: credentials(), fallbackCredentialTypes: [deckGenApiFallback] });

const probe = (name: string, url: string, extra: Parameters<typeof node>[3] = {}) =>
	node(name, 'CUSTOM.harnessHttpProbe', { url, method: 'GET' }, extra);

function expectNoSecret(result: RunResult) {
	expect(result.logs.length).toBeGreaterThan(0);
	for (const line of result.logs) expect(line).not.toContain(API_KEY);
	expect(JSON.stringify(result.runExecutionData)).not.toContain(API_KEY);
}

describe('credentials and expressions', () => {
	test('httpRequestWithAuthentication sends the header built from the generic authenticate block', async () => {
		const workflow: WorkflowJson = {
			nodes: [
				node('Start', 'n8n-nodes-base.manualTrigger'),
				// Parameter with expressions, resolved per item by n8n-workflow's legacy engine.
				probe('Probe', `={{ $json.base }}/v1/{{ $json.route }}`),
				node('Done', 'n8n-nodes-base.noOp'),
			],
			connections: connections([
				['Start', 'Probe'],
				['Probe', 'Done'],
			]),
		};
		const result = await runWorkflow(workflow, {
			...common(),
			inputItems: [{ json: { base: service.baseUrl, route: 'ok' } }],
		});

		expect(result.status).toBe('success');
		expect(result.finished).toBe(true);
		expect(service.received).toEqual([
			{ method: 'GET', path: '/v1/ok', authorization: `Bearer ${API_KEY}`, apiKeyHeader: undefined },
		]);
		expect(result.output('Done')).toEqual([
			{
				json: {
					statusCode: 200,
					body: { ok: true, path: '/v1/ok' },
					calls: [{ executionId: result.executionId, mode: 'manual', itemIndex: 0 }],
				},
				pairedItem: { item: 0 },
			},
		]);
		expect(result.nodeExecutionOrder).toEqual(['Start', 'Probe', 'Done']);
		expectNoSecret(result);
	});

	test('the authenticate block is resolved as an expression, not hard-coded', async () => {
		const reversing: ICredentialType = {
			...deckGenApiFallback,
			authenticate: {
				type: 'generic',
				properties: {
					headers: { 'X-Api-Key': '={{ $credentials.apiKey.split("").reverse().join("") }}' },
				},
			},
		};
		const result = await runWorkflow(
			{
				nodes: [node('Start', 'n8n-nodes-base.manualTrigger'), probe('Probe', `${service.baseUrl}/v1/ok`)],
				connections: connections([['Start', 'Probe']]),
			},
			{ credentials: credentials(), credentialTypes: [reversing] },
		);
		expect(result.status).toBe('success');
		expect(service.received[0].authorization).toBeUndefined();
		expect(service.received[0].apiKeyHeader).toBe(API_KEY.split('').reverse().join(''));
	});

	test('without credentials n8n refuses, and a transport error leaks no key', async () => {
		const workflow: WorkflowJson = {
			nodes: [node('Start', 'n8n-nodes-base.manualTrigger'), probe('Probe', 'http://127.0.0.1:1/v1/ok')],
			connections: connections([['Start', 'Probe']]),
		};
		const missing = await runWorkflow(workflow, { fallbackCredentialTypes: [deckGenApiFallback] });
		expect(missing.status).toBe('error');
		expect(String((missing.nodeError('Probe') as Error).message)).toMatch(/credentials/i);

		const refused = await runWorkflow(workflow, common());
		expect(refused.status).toBe('error');
		expect(refused.nodeError('Probe')).toBeDefined();
		expectNoSecret(refused);
	});
});

describe('node settings', () => {
	test('Retry On Fail re-executes the node inside the same execution', async () => {
		const workflow: WorkflowJson = {
			nodes: [
				node('Start', 'n8n-nodes-base.manualTrigger'),
				probe('Probe', `${service.baseUrl}/v1/flaky?id=retry-on-fail&fail=2`, {
					retryOnFail: true,
					maxTries: 3,
					// n8n treats 0 as "use the default 1000 ms" (`waitBetweenTries || 1000`): use 1.
					waitBetweenTries: 1,
				}),
			],
			connections: connections([['Start', 'Probe']]),
		};
		const result = await runWorkflow(workflow, common());

		expect(result.status).toBe('success');
		expect(service.received.map((r) => r.path)).toEqual(['/v1/flaky', '/v1/flaky', '/v1/flaky']);
		expect(result.runCount('Probe')).toBe(1);
		const [item] = result.output('Probe');
		expect(item.json.body).toEqual({ ok: true, attempt: 3 });
		// The node execution context is kept between tries of one execution.
		expect(item.json.calls).toHaveLength(3);
	});

	test('waitBetweenTries: 0 waits n8n\'s default 1000 ms (n8n-core `|| 1000`)', async () => {
		const workflow: WorkflowJson = {
			nodes: [
				node('Start', 'n8n-nodes-base.manualTrigger'),
				probe('Probe', `${service.baseUrl}/v1/flaky?id=zero-wait&fail=1`, {
					retryOnFail: true,
					maxTries: 2,
					waitBetweenTries: 0,
				}),
			],
			connections: connections([['Start', 'Probe']]),
		};
		const started = Date.now();
		const result = await runWorkflow(workflow, common());
		expect(result.status).toBe('success');
		expect(Date.now() - started).toBeGreaterThanOrEqual(950);
	});

	test('continueErrorOutput routes failed items to the error output, paired with their input', async () => {
		const workflow: WorkflowJson = {
			nodes: [
				node('Start', 'n8n-nodes-base.manualTrigger'),
				probe('Probe', `=${service.baseUrl}/v1/{{ $json.route }}`, { onError: 'continueErrorOutput' }),
				node('Succeeded', 'n8n-nodes-base.noOp'),
				node('Failed', 'n8n-nodes-base.noOp'),
			],
			connections: connections([
				['Start', 'Probe'],
				['Probe', 'Succeeded', 0],
				['Probe', 'Failed', 1],
			]),
		};
		const result = await runWorkflow(workflow, {
			...common(),
			inputItems: [{ json: { id: 'a', route: 'ok' } }, { json: { id: 'b', route: 'fail' } }],
		});

		expect(result.status).toBe('success');
		const [success, errors] = result.outputs('Probe');
		expect(success).toHaveLength(1);
		expect(success[0].pairedItem).toEqual({ item: 0 });
		expect(errors).toEqual([
			{
				// n8n merges the paired input item's json into the error item.
				json: { id: 'b', route: 'fail', error: 'The service answered 500' },
				pairedItem: { item: 1 },
			},
		]);
		expect(result.output('Failed')).toHaveLength(1);
		expect(result.output('Succeeded')).toHaveLength(1);
	});

	test('continueRegularOutput keeps the error item on the main output', async () => {
		const workflow: WorkflowJson = {
			nodes: [
				node('Start', 'n8n-nodes-base.manualTrigger'),
				probe('Probe', `${service.baseUrl}/v1/fail`, { onError: 'continueRegularOutput' }),
				node('Next', 'n8n-nodes-base.noOp'),
			],
			connections: connections([
				['Start', 'Probe'],
				['Probe', 'Next'],
			]),
		};
		const result = await runWorkflow(workflow, common());
		expect(result.status).toBe('success');
		expect(result.outputs('Probe')).toHaveLength(1);
		expect(result.output('Next')).toEqual([
			{ json: { error: 'The service answered 500' }, pairedItem: { item: 0 } },
		]);
	});

	test('a node that throws with continueRegularOutput records the error and passes its input on', async () => {
		const result = await runWorkflow({
			nodes: [
				node('Start', 'n8n-nodes-base.manualTrigger'),
				node('Throw', 'CUSTOM.harnessThrow', { shouldThrow: true }, { onError: 'continueRegularOutput' }),
				node('Next', 'n8n-nodes-base.noOp'),
			],
			connections: connections([
				['Start', 'Throw'],
				['Throw', 'Next'],
			]),
		}, { inputItems: [{ json: { x: 1 } }] });
		expect(result.status).toBe('success');
		// n8n keeps the error on the node's run and still continues with the input items.
		expect((result.nodeError('Throw') as Error).message).toBe('Harness Throw failed');
		expect(result.output('Next')).toEqual([{ json: { x: 1 }, pairedItem: { item: 0 } }]);
	});

	test('alwaysOutputData emits an empty item when a node returns none', async () => {
		const dropAll: INodeType = {
			description: {
				displayName: 'Drop All',
				name: 'dropAll',
				group: ['transform'],
				version: 1,
				description: '',
				defaults: { name: 'Drop All' },
				inputs: [NodeConnectionTypes.Main],
				outputs: [NodeConnectionTypes.Main],
				properties: [],
			},
			async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
				return [[]];
			},
		};
		const workflow = (alwaysOutputData: boolean): WorkflowJson => ({
			nodes: [
				node('Start', 'n8n-nodes-base.manualTrigger'),
				node('Drop', 'CUSTOM.dropAll', {}, { alwaysOutputData }),
				node('Next', 'n8n-nodes-base.noOp'),
			],
			connections: connections([
				['Start', 'Drop'],
				['Drop', 'Next'],
			]),
		});
		const nodeTypes = { 'CUSTOM.dropAll': dropAll };

		const without = await runWorkflow(workflow(false), { nodeTypes });
		expect(without.runCount('Next')).toBe(0);

		const withData = await runWorkflow(workflow(true), { nodeTypes });
		expect(withData.output('Drop')).toEqual([{ json: {}, pairedItem: [{ item: 0, input: 0 }] }]);
		expect(withData.runCount('Next')).toBe(1);
	});

	test('pinned data is used in manual mode only, as in n8n', async () => {
		const workflow: WorkflowJson = {
			nodes: [
				node('Start', 'n8n-nodes-base.manualTrigger'),
				probe('Probe', `${service.baseUrl}/v1/ok`),
				node('Next', 'n8n-nodes-base.noOp'),
			],
			connections: connections([
				['Start', 'Probe'],
				['Probe', 'Next'],
			]),
			pinData: { Probe: [{ json: { pinned: true } }] },
		};
		const manual = await runWorkflow(workflow, common());
		expect(manual.output('Next')).toEqual([{ json: { pinned: true }, pairedItem: { item: 0 } }]);
		expect(service.received).toHaveLength(0);

		const production = await runWorkflow(workflow, { ...common(), mode: 'trigger' });
		expect(production.output('Next')[0].json.statusCode).toBe(200);
		expect(production.output('Next')[0].json.calls).toEqual([
			{ executionId: production.executionId, mode: 'trigger', itemIndex: 0 },
		]);
		expect(service.received).toHaveLength(1);
	});
});

describe('retry execution from saved data', () => {
	const failingProbeWorkflow = (): WorkflowJson => ({
		nodes: [
			node('Start', 'n8n-nodes-base.manualTrigger'),
			probe('Probe', `${service.baseUrl}/v1/flaky?id=retry-execution&fail=1`),
			node('Done', 'n8n-nodes-base.noOp'),
		],
		connections: connections([
			['Start', 'Probe'],
			['Probe', 'Done'],
		]),
	});

	test('the failed node runs again and sees the node context its failed run saved', async () => {
		const first = await runWorkflow(failingProbeWorkflow(), {
			...common(),
			mode: 'trigger',
			inputItems: [{ json: { order: 42 } }],
		});
		expect(first.status).toBe('error');
		expect(first.error?.message).toBe('The service answered 500');
		expect(first.runExecutionData.resultData.lastNodeExecuted).toBe('Probe');
		expect(first.runExecutionData.executionData?.contextData['node:Probe']).toEqual({
			calls: [{ executionId: first.executionId, mode: 'trigger', itemIndex: 0 }],
		});

		// What n8n saved (a JSON copy) is all the retry gets.
		const saved = JSON.parse(JSON.stringify(first)) as RunResult;
		const retry = await runWorkflow(failingProbeWorkflow(), { ...common(), previousRun: saved });

		expect(retry.status).toBe('success');
		expect(retry.mode).toBe('retry');
		// n8n's retry is a new execution that points at the one it retries.
		expect(retry.executionId).not.toBe(first.executionId);
		expect(retry.retryOf).toBe(first.executionId);
		// Earlier nodes are not run again; their data is the first run's.
		expect(retry.nodeExecutionOrder).toEqual(['Probe', 'Done']);
		expect(retry.runData.Start).toEqual(first.runExecutionData.resultData.runData.Start);
		// The failed run was replaced, not appended.
		expect(retry.runCount('Probe')).toBe(1);
		expect(retry.output('Done')[0].json.calls).toEqual([
			{ executionId: first.executionId, mode: 'trigger', itemIndex: 0 },
			{ executionId: retry.executionId, mode: 'retry', itemIndex: 0 },
		]);
		expect(retry.output('Done')[0].pairedItem).toEqual({ item: 0 });
		expect(service.received).toHaveLength(2);
	});

	test('a retry can be run under the same execution id, and a later failing node is retried alone', async () => {
		const workflow = (shouldThrow: boolean): WorkflowJson => ({
			nodes: [
				node('Start', 'n8n-nodes-base.manualTrigger'),
				probe('Probe', `${service.baseUrl}/v1/ok`),
				node('Check', 'CUSTOM.harnessThrow', { shouldThrow, message: 'check failed' }),
				node('Done', 'n8n-nodes-base.noOp'),
			],
			connections: connections([
				['Start', 'Probe'],
				['Probe', 'Check'],
				['Check', 'Done'],
			]),
		});
		const first = await runWorkflow(workflow(true), common());
		expect(first.status).toBe('error');
		expect((first.nodeError('Check') as Error).message).toBe('check failed');
		expect(first.runCount('Done')).toBe(0);

		// Retry with the fixed workflow (n8n: "retry with currently saved workflow").
		const retry = await runWorkflow(workflow(false), {
			...common(),
			previousRun: first,
			executionId: first.executionId,
		});
		expect(retry.status).toBe('success');
		expect(retry.executionId).toBe(first.executionId);
		expect(retry.nodeExecutionOrder).toEqual(['Check', 'Done']);
		expect(service.received).toHaveLength(1); // the probe was not called again
		expect(retry.output('Done')[0].json.statusCode).toBe(200);
	});

	test('a successful execution cannot be retried', async () => {
		const ok = await runWorkflow(
			{ nodes: [node('Start', 'n8n-nodes-base.manualTrigger')], connections: {} },
			{},
		);
		expect(ok.status).toBe('success');
		const workflow: WorkflowJson = { nodes: [node('Start', 'n8n-nodes-base.manualTrigger')], connections: {} };
		await expect(runWorkflow(workflow, { previousRun: ok })).rejects.toThrow(
			'The execution succeeded, so it cannot be retried.',
		);
	});
});

describe('waiting executions', () => {
	test('an execution put to wait resumes under the same id, past the waiting node', async () => {
		const waitNode: INodeType = {
			description: {
				displayName: 'Wait Probe',
				name: 'waitProbe',
				group: ['transform'],
				version: 1,
				description: '',
				defaults: { name: 'Wait Probe' },
				inputs: [NodeConnectionTypes.Main],
				outputs: [NodeConnectionTypes.Main],
				properties: [],
			},
			async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
				await this.putExecutionToWait(new Date(Date.now() + 60 * 60_000));
				return [this.getInputData()];
			},
		};
		const workflow: WorkflowJson = {
			nodes: [
				node('Start', 'n8n-nodes-base.manualTrigger'),
				node('Wait', 'CUSTOM.waitProbe'),
				node('After', 'n8n-nodes-base.noOp'),
			],
			connections: connections([
				['Start', 'Wait'],
				['Wait', 'After'],
			]),
		};
		const nodeTypes = { 'CUSTOM.waitProbe': waitNode };
		const first = await runWorkflow(workflow, { nodeTypes, mode: 'webhook', inputItems: [{ json: { n: 1 } }] });
		expect(first.status).toBe('waiting');
		expect(first.runCount('After')).toBe(0);

		const resumed = await runWorkflow(workflow, { nodeTypes, previousRun: first });
		expect(resumed.status).toBe('success');
		expect(resumed.executionId).toBe(first.executionId);
		expect(resumed.mode).toBe('webhook');
		expect(resumed.output('After')).toEqual([{ json: { n: 1 }, pairedItem: { item: 0 } }]);
	});
});

describe('binary data', () => {
	const binaryNodes: Record<string, INodeType> = {
		'CUSTOM.makeFile': {
			description: {
				displayName: 'Make File',
				name: 'makeFile',
				group: ['transform'],
				version: 1,
				description: '',
				defaults: { name: 'Make File' },
				inputs: [NodeConnectionTypes.Main],
				outputs: [NodeConnectionTypes.Main],
				properties: [],
			},
			async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
				const binary = await this.helpers.prepareBinaryData(Buffer.from('slide deck'), 'deck.txt', 'text/plain');
				return [[{ json: {}, binary: { data: binary }, pairedItem: { item: 0 } }]];
			},
		},
		'CUSTOM.readFile': {
			description: {
				displayName: 'Read File',
				name: 'readFile',
				group: ['transform'],
				version: 1,
				description: '',
				defaults: { name: 'Read File' },
				inputs: [NodeConnectionTypes.Main],
				outputs: [NodeConnectionTypes.Main],
				properties: [],
			},
			async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
				const buffer = await this.helpers.getBinaryDataBuffer(0, 'data');
				return [[{ json: { text: buffer.toString('utf8') }, pairedItem: { item: 0 } }]];
			},
		},
	};
	const workflow: WorkflowJson = {
		nodes: [
			node('Start', 'n8n-nodes-base.manualTrigger'),
			node('Make', 'CUSTOM.makeFile'),
			node('Read', 'CUSTOM.readFile'),
		],
		connections: connections([
			['Start', 'Make'],
			['Make', 'Read'],
		]),
	};

	test.each(['default', 'filesystem'] as const)('%s mode stores and reads back binary data', async (binaryDataMode) => {
		const result = await runWorkflow(workflow, { nodeTypes: binaryNodes, binaryDataMode });
		expect(result.status).toBe('success');
		const binary = result.output('Make')[0].binary!.data;
		expect(binary).toMatchObject({ fileName: 'deck.txt', mimeType: 'text/plain' });
		if (binaryDataMode === 'default') {
			expect(Buffer.from(binary.data, 'base64').toString()).toBe('slide deck');
			expect(binary.id).toBeUndefined();
		} else {
			expect(binary.id).toMatch(/^filesystem-v2:/);
		}
		expect(result.output('Read')[0].json.text).toBe('slide deck');
	});
});

describe('cancelling', () => {
	const sleepWorkflow = (ms: number, settings: WorkflowJson['settings'] = {}): WorkflowJson => ({
		nodes: [
			node('Start', 'n8n-nodes-base.manualTrigger'),
			node('Sleep', 'CUSTOM.harnessSleep', { ms }),
			node('After', 'n8n-nodes-base.noOp'),
		],
		connections: connections([
			['Start', 'Sleep'],
			['Sleep', 'After'],
		]),
		settings,
	});

	test('aborting the signal stops the execution and aborts getExecutionCancelSignal()', async () => {
		const controller = new AbortController();
		const ended = new Promise<{ aborted: boolean; signalAborted: boolean }>((resolve) =>
			harnessEvents.once('sleep:end', resolve),
		);
		harnessEvents.once('sleep:start', () => controller.abort());

		const started = Date.now();
		const result = await runWorkflow(sleepWorkflow(30_000), { signal: controller.signal });

		expect(Date.now() - started).toBeLessThan(5_000);
		expect(await ended).toEqual({ aborted: true, signalAborted: true });
		expect(result.status).toBe('canceled');
		expect(result.finished).toBe(false);
		expect((result.nodeError('Sleep') as Error).message).toBe('Sleep was cancelled');
		expect(result.runCount('After')).toBe(0);
	});

	test('a signal aborted before the start cancels before any node runs', async () => {
		const controller = new AbortController();
		controller.abort();
		const result = await runWorkflow(sleepWorkflow(30_000), { signal: controller.signal });
		expect(result.status).toBe('canceled');
		expect(result.nodeExecutionOrder).toEqual([]);
	});

	test('settings.executionTimeout cancels a running execution', async () => {
		const started = Date.now();
		const result = await runWorkflow(sleepWorkflow(30_000, { executionTimeout: 1 }));
		expect(Date.now() - started).toBeLessThan(5_000);
		expect(result.status).toBe('canceled');
		expect(result.runCount('After')).toBe(0);
	});
});

describe('loading', () => {
	test('package nodes and credentials are loaded from source when they exist', async () => {
		const result = await runWorkflow(
			{ nodes: [node('Start', 'n8n-nodes-base.manualTrigger')], connections: {} },
			{ fallbackCredentialTypes: [deckGenApiFallback] },
		);
		const root = path.resolve(__dirname, '../..');
		const credentialExists = existsSync(path.join(root, 'credentials/DeckGenApi.credentials.ts'));
		expect(result.loaded.credentials).toEqual(
			credentialExists ? ['credentials/DeckGenApi.credentials.ts'] : [],
		);
		const names = await loadedNodeTypeNames();
		for (const [file, name] of [
			['nodes/DeckGen/DeckGen.node.ts', 'deckGen'],
			['nodes/DeckGenWait/DeckGenWait.node.ts', 'deckGenWait'],
		]) {
			const exists = existsSync(path.join(root, file));
			expect(names.includes(`CUSTOM.${name}`)).toBe(exists);
			expect(names.includes(`n8n-nodes-deckgen.${name}`)).toBe(exists);
		}
		expect(names).toEqual(
			expect.arrayContaining(['n8n-nodes-base.manualTrigger', 'n8n-nodes-base.noOp', 'CUSTOM.harnessThrow']),
		);
	});

	test('an unknown node type is refused, as n8n\'s NodeTypes does', async () => {
		await expect(
			runWorkflow({
				nodes: [node('Start', 'n8n-nodes-base.manualTrigger'), node('X', 'CUSTOM.doesNotExist')],
				connections: connections([['Start', 'X']]),
			}),
		).rejects.toThrow('Unrecognized node type: CUSTOM.doesNotExist');
	});
});

describe('credential test (Test button)', () => {
	const probeCredential = (extra: Partial<ICredentialType> = {}): ICredentialType => ({
		...deckGenApiFallback,
		name: 'harnessProbeApi',
		...extra,
	});
	const testedNode = (testedBy: string | undefined, method?: INodeType['methods']): INodeType => ({
		description: {
			displayName: 'Tested',
			name: 'tested',
			group: ['transform'],
			version: 1,
			description: '',
			defaults: {},
			inputs: [NodeConnectionTypes.Main],
			outputs: [NodeConnectionTypes.Main],
			credentials: [{ name: 'harnessProbeApi', required: true, ...(testedBy ? { testedBy } : {}) }],
			properties: [],
		},
		methods: method,
	});

	test("calls the node method named by testedBy with n8n's context and the data with defaults filled", async () => {
		const result = await testCredentials(
			'harnessProbeApi',
			{ apiKey: 'k' },
			{
				credentialTypes: [probeCredential()],
				nodeTypes: {
					'CUSTOM.tested': testedNode('probeTest', {
						credentialTest: {
							async probeTest(credential) {
								const helperIsN8ns = typeof this.helpers.request === 'function';
								return { status: 'OK', message: `${String(credential.data?.baseUrl)} ${helperIsN8ns}` };
							},
						},
					}),
				},
			},
		);
		expect(result).toEqual({ status: 'OK', message: 'https://api.example.invalid true' });
	});

	test("a declarative test on the credential wins in n8n, so the harness refuses to run the node's method", async () => {
		const credential = probeCredential({ test: { request: { url: '/v1/credits' } } });
		await expect(
			testCredentials('harnessProbeApi', { apiKey: 'k' }, { credentialTypes: [credential], nodeTypes: { 'CUSTOM.tested': testedNode('probeTest', { credentialTest: {} }) } }),
		).rejects.toThrow(/declarative test/);
	});

	test("no test anywhere: n8n's own answer", async () => {
		const result = await testCredentials('harnessProbeApi', { apiKey: 'k' }, { credentialTypes: [probeCredential()], nodeTypes: { 'CUSTOM.tested': testedNode(undefined) } });
		expect(result).toEqual({ status: 'Error', message: 'No testing function found for this credential.' });
	});
});
