/**
 * Running the Deck Generator's workflow files against the simulator, with the checks every run
 * must pass: no API key anywhere in what n8n saves or logs.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

import type { INode, INodeExecutionData } from 'n8n-workflow';

import { runWorkflow, type RunOptions, type RunResult, type WorkflowJson } from '../../harness';
import type { Simulator } from '../../simulator';
import { credentialFor } from '../credential';

export const DECK_NODE = 'Deck Generator';

export function loadWorkflow(name: string): WorkflowJson {
	return JSON.parse(readFileSync(join(__dirname, `${name}.workflow.json`), 'utf8')) as WorkflowJson;
}

/** A copy of the workflow with a node's fields (settings such as onError, or parameters) changed. */
export function patchNode(
	workflow: WorkflowJson,
	nodeName: string,
	patch: Partial<INode> & { parameters?: INode['parameters'] },
): WorkflowJson {
	const copy = JSON.parse(JSON.stringify(workflow)) as WorkflowJson;
	const target = copy.nodes.find((n) => n.name === nodeName);
	if (!target) throw new Error(`no node ${nodeName}`);
	const { parameters, ...rest } = patch;
	Object.assign(target, rest);
	if (parameters) target.parameters = { ...target.parameters, ...parameters };
	return copy;
}

/**
 * A copy of a Create workflow whose Material IDs and Additional Languages (or the ones named) read
 * `material_ids` and `additional_languages` from the item. Only where a test sends them: a list field
 * that is set but comes out empty stops the item (it would buy the deck without part of its brief).
 */
export function withListFields(
	workflow: WorkflowJson,
	fields: Array<'materialIds' | 'additionalLanguages'> = ['materialIds', 'additionalLanguages'],
): WorkflowJson {
	const copy = JSON.parse(JSON.stringify(workflow)) as WorkflowJson;
	const target = copy.nodes.find((n) => n.name === DECK_NODE);
	if (!target) throw new Error(`no node ${DECK_NODE}`);
	const expressions = { materialIds: '={{ $json.material_ids }}', additionalLanguages: '={{ $json.additional_languages }}' };
	target.parameters.additionalFields = {
		...(target.parameters.additionalFields as object),
		...Object.fromEntries(fields.map((field) => [field, expressions[field]])),
	};
	return copy;
}

export const continueErrorOutput = (workflow: WorkflowJson) =>
	patchNode(workflow, DECK_NODE, { onError: 'continueErrorOutput' });

/** Every key string the simulator knows, to prove none of them leaks. */
export function allKeys(sim: Simulator): string[] {
	return Object.values(sim.keys);
}

export function assertNoKeyLeak(sim: Simulator, result: RunResult, extraKeys: string[] = []): void {
	const saved = JSON.stringify(result.runExecutionData);
	const logs = result.logs.join('\n');
	const errorText = result.error ? JSON.stringify(result.error) + String((result.error as Error).stack ?? '') : '';
	for (const key of [...allKeys(sim), ...extraKeys]) {
		expect(saved.includes(key)).toBe(false);
		expect(logs.includes(key)).toBe(false);
		expect(errorText.includes(key)).toBe(false);
	}
}

export async function runWith(
	sim: Simulator,
	workflow: WorkflowJson,
	key: string,
	inputs: Array<Record<string, unknown>> | INodeExecutionData[],
	options: Omit<RunOptions, 'credentials' | 'inputItems'> = {},
): Promise<RunResult> {
	const inputItems = (inputs as Array<Record<string, unknown>>).map((input) =>
		'json' in input && typeof input.json === 'object' ? (input as unknown as INodeExecutionData) : { json: input },
	) as INodeExecutionData[];
	const result = await runWorkflow(workflow, {
		...options,
		credentials: { deckGenApi: credentialFor(sim, key, { accountUrl: 'https://app.deckgen.example/account' }) },
		inputItems,
	});
	assertNoKeyLeak(sim, result, [key]);
	return result;
}

export function jsonOf(items: INodeExecutionData[]): Array<Record<string, unknown>> {
	return items.map((item) => item.json as Record<string, unknown>);
}

/**
 * A brief every profile accepts: profile B requires title, audience and slide_count (the
 * contract does not say which creation fields are required), so all of them are filled.
 */
export const brief = (extra: Record<string, unknown> = {}) => ({
	title: 'Q3 review',
	core_message: 'We grew 20% and will keep growing',
	audience: 'The board',
	slide_count: 10,
	expected_credits: 10,
	...extra,
});

/** Create's parameters as a user sets them to buy the `brief()` of the trigger item (`$json`), no Idempotency Key. */
export const createFromBrief = (extra: Record<string, unknown> = {}) => ({
	resource: 'deck',
	operation: 'create',
	title: '={{ $json.title }}',
	coreMessage: '={{ $json.core_message }}',
	audience: '={{ $json.audience }}',
	slideCount: '={{ $json.slide_count }}',
	expectedCredits: '={{ $json.expected_credits }}',
	...extra,
});

/**
 * For a describe block: every plain-HTTP request goes through HTTP_PROXY, a listener here that answers
 * 401, so whatever a node sends to a Base URL no one may contact (`http://deckgen.invalid`) is seen.
 * The returned list holds what arrived in the current test.
 */
export function recordPlainHttp(): Array<{ url?: string; authorization?: string }> {
	let proxy: Server;
	const seen: Array<{ url?: string; authorization?: string }> = [];
	const saved = { HTTP_PROXY: process.env.HTTP_PROXY, http_proxy: process.env.http_proxy, NO_PROXY: process.env.NO_PROXY, no_proxy: process.env.no_proxy };
	beforeAll(async () => {
		proxy = createServer((req, res) => {
			seen.push({ url: req.url, authorization: req.headers.authorization });
			res.writeHead(401, { 'content-type': 'application/problem+json' });
			res.end(JSON.stringify({ code: 'unauthorized', retryable: false, detail: 'seen by the listener' }));
		});
		await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
		process.env.HTTP_PROXY = process.env.http_proxy = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
		delete process.env.NO_PROXY;
		delete process.env.no_proxy;
	});
	afterAll(async () => {
		for (const [name, value] of Object.entries(saved)) {
			if (value === undefined) delete process.env[name];
			else process.env[name] = value;
		}
		await new Promise<void>((resolve) => proxy.close(() => resolve()));
	});
	beforeEach(() => {
		seen.length = 0;
	});
	return seen;
}
