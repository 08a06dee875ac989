/**
 * The API key appears in no output item, error (message, description, context, stack), log line
 * or console output, whatever the outcome: success, checkout, every failure, no response at all.
 * (Every other workflow test checks outputs and logs too, through `runWith`.)
 */
import { inspect } from 'node:util';

import { runWorkflow } from '../../harness';
import { start, type Simulator } from '../../simulator';
import { brief, continueErrorOutput, DECK_NODE, loadWorkflow } from './fixture';

describe('the API key never leaks', () => {
	let sim: Simulator;
	const printed: string[] = [];
	const writes = { out: process.stdout.write.bind(process.stdout), err: process.stderr.write.bind(process.stderr) };

	beforeAll(async () => {
		sim = await start({ seed: 5, clock: { manual: true } });
		// Whatever n8n or the node prints goes through here too.
		process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
			printed.push(String(chunk));
			return writes.out(chunk as string, ...(rest as []));
		}) as typeof process.stdout.write;
		process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
			printed.push(String(chunk));
			return writes.err(chunk as string, ...(rest as []));
		}) as typeof process.stderr.write;
	});
	afterAll(async () => {
		process.stdout.write = writes.out;
		process.stderr.write = writes.err;
		await sim.close();
	});

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

		const error = result.nodeError(DECK_NODE);
		const everything = [
			JSON.stringify(result.runExecutionData),
			JSON.stringify(result.outputs(DECK_NODE)),
			result.logs.join('\n'),
			error ? inspect(error, { depth: 10 }) : '',
			error instanceof Error ? String(error.stack) : '',
			result.error ? inspect(result.error, { depth: 10 }) : '',
			printed.join(''),
		].join('\n');
		// The scenario did what it says, so the absence below means something.
		if (continueOnFail) expect(result.status).toBe('success');
		else expect(result.status).toBe('error');
		expect(everything.length).toBeGreaterThan(200);
		expect(everything).not.toContain(key);
		// Not even a recognisable part of it.
		expect(everything).not.toContain(key.slice(-16));
	});
});
