/**
 * The harness's crash (RunOptions.crash, crash.ts): n8n 2.41.1 killed during an execution with the
 * default settings, restarted (crash recovery amends the row from the event log), and the execution
 * retried from the executions list.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import type { ICredentialType } from 'n8n-workflow';

import { ARTIFICIAL_TASK_DATA } from './crash';
import { type WorkflowJson, connections, harnessEvents, node, runWorkflow } from './index';

const deckGenApiFallback: ICredentialType = {
	name: 'deckGenApi',
	displayName: 'Deck Generation API',
	properties: [
		{ displayName: 'API Key', name: 'apiKey', type: 'string', typeOptions: { password: true }, default: '' },
		{ displayName: 'Base URL', name: 'baseUrl', type: 'string', default: 'https://api.example.invalid' },
	],
	authenticate: { type: 'generic', properties: { headers: { Authorization: '=Bearer {{$credentials.apiKey}}' } } },
};

let server: http.Server;
let baseUrl = '';
let received = 0;
beforeAll(async () => {
	server = http.createServer((req, res) => {
		received++;
		req.resume();
		req.on('end', () => {
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end('{"ok":true}');
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => await new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
	received = 0;
});

const common = () => ({ credentials: { deckGenApi: { apiKey: 'k', baseUrl } }, fallbackCredentialTypes: [deckGenApiFallback] });
const inputItems = [{ json: { order: 7 } }];

describe('crash (n8n killed during the execution, default settings)', () => {
	const probeWorkflow = (): WorkflowJson => ({
		nodes: [
			node('Start', 'n8n-nodes-base.manualTrigger'),
			node('Probe', 'CUSTOM.harnessHttpProbe', { url: `${baseUrl}/v1/ok`, method: 'GET' }),
			node('After', 'n8n-nodes-base.noOp'),
		],
		connections: connections([
			['Start', 'Probe'],
			['Probe', 'After'],
		]),
	});

	test('after a node finished: it holds one artificial item, nothing it wrote survives, and the retry runs it again as run index 1', async () => {
		const crashed = await runWorkflow(probeWorkflow(), { ...common(), mode: 'webhook', inputItems, crash: { atNodeStart: 'After' } });
		expect(received).toBe(1);
		expect(crashed.status).toBe('crashed');
		expect(crashed.finished).toBe(false);
		const saved = crashed.runExecutionData;
		expect(saved.resultData.runData.Start[0].data).toEqual(JSON.parse(JSON.stringify(ARTIFICIAL_TASK_DATA)));
		expect(saved.resultData.runData.Probe[0]).toMatchObject({ executionStatus: 'success', data: { main: [[{ json: { isArtificialRecoveredEventItem: true } }]] } });
		expect(saved.resultData.runData.After[0]).toMatchObject({ executionStatus: 'crashed', error: { message: 'Execution stopped at this node' } });
		expect(saved.resultData.lastNodeExecuted).toBe('After');
		expect(saved.resultData.error?.message).toBe('Workflow did not finish, possible out-of-memory issue');
		// The node context the probe wrote was never saved; the stack is the one the execution began with.
		expect(saved.executionData?.contextData).toEqual({});
		expect(saved.executionData?.nodeExecutionStack.map((e) => [e.node.name, e.data.main[0]])).toEqual([['Start', inputItems]]);

		const retry = await runWorkflow(probeWorkflow(), { ...common(), previousRun: JSON.parse(JSON.stringify(crashed)) });
		expect(retry.status).toBe('success');
		expect(retry.executionId).not.toBe(crashed.executionId);
		expect(retry.retryOf).toBe(crashed.executionId);
		expect(retry.nodeExecutionOrder).toEqual(['Start', 'Probe', 'After']);
		// Run 0 is recovery's artificial item; the probe ran as run index 1 and saw no earlier call.
		expect(retry.runCount('Probe')).toBe(2);
		expect(retry.output('Probe', 0, 0)).toEqual([{ json: { isArtificialRecoveredEventItem: true } }]);
		expect(retry.output('After')[0].json.calls).toEqual([{ executionId: retry.executionId, mode: 'retry', itemIndex: 0 }]);
		expect(received).toBe(2);
	});

	test('during a node (signal): it gets a crashed run, which the retry drops, and it runs again as run index 0', async () => {
		const sleepWorkflow = (ms: number): WorkflowJson => ({
			nodes: [node('Start', 'n8n-nodes-base.manualTrigger'), node('Sleep', 'CUSTOM.harnessSleep', { ms }), node('After', 'n8n-nodes-base.noOp')],
			connections: connections([
				['Start', 'Sleep'],
				['Sleep', 'After'],
			]),
		});
		const kill = new AbortController();
		harnessEvents.once('sleep:start', () => kill.abort());
		const started = Date.now();
		const crashed = await runWorkflow(sleepWorkflow(30_000), { inputItems, crash: { signal: kill.signal } });
		expect(Date.now() - started).toBeLessThan(5_000);
		expect(crashed.status).toBe('crashed');
		const { runData } = crashed.runExecutionData.resultData;
		expect(Object.keys(runData).sort()).toEqual(['Sleep', 'Start']);
		expect(runData.Sleep[0].executionStatus).toBe('crashed');
		expect(crashed.runExecutionData.resultData.lastNodeExecuted).toBe('Sleep');

		const retry = await runWorkflow(sleepWorkflow(0), { previousRun: crashed });
		expect(retry.status).toBe('success');
		expect(retry.runCount('Start')).toBe(2);
		expect(retry.runCount('Sleep')).toBe(1);
		expect(retry.output('After')).toEqual([{ json: { order: 7, slept: 0 }, pairedItem: { item: 0 } }]);
	});

	test('without a crash the option changes nothing', async () => {
		const result = await runWorkflow(probeWorkflow(), { ...common(), inputItems, crash: { atNodeStart: 'Nowhere' } });
		expect(result.status).toBe('success');
		expect(result.output('After')).toHaveLength(1);
	});
});
