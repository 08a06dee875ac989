/**
 * The Deck Generator nodes as an MCP server, driven the way an agent drives them: a real n8n
 * (2.41.1, and 1.123.81, whose MCP Server Trigger v2 speaks Streamable HTTP as well) with the package installed as a community package, the example workflow
 * test/workflows/examples/mcp-agent-tools.json (MCP Server Trigger v2 with Bearer Auth, the Deck
 * Generator tools and the Wait tool) imported and published, and the official MCP SDK client
 * (`@modelcontextprotocol/sdk`, Streamable HTTP) against it, the credential on the simulator.
 *
 * It lists the tools (their descriptions carry the price and polling rules; numbers are numbers
 * in the schemas), calls Get Credits, Create, polls to completion with Get Status and Check Deck,
 * meets a 402 surcharge (which this tool cannot confirm: the example fixes the confirmation off, as no
 * n8n review can sit in front of an MCP client), a price drift and a 404 as answers (not errors), repeats an identical
 * Create (one purchase: the deck bought earlier, nothing charged, also from a new session), buys
 * again with a new purchaseReference, and checks every call answered under 60 s (the SDK's
 * default limit) and the API key in no result, log line or saved execution.
 *
 * Safe by default (issue 38): the example's Create Deck buys without n8n's review (no review can sit in
 * front of an MCP client) up to 20 credits; a call above that is refused before it is sent, and three
 * decks of 10 over several calls are bought (each MCP call is an execution of its own). The same workflow
 * with Buy Without Review off, at another path: Create Deck buys nothing and tells the client a person
 * must review (on 1.123 too, which has no review at all).
 *
 * Run: DECKGEN_E2E_FLAVORS=v2 npx jest --selectProjects reference --roots test/e2e --testMatch '**\/mcp.e2e.ts' --testPathIgnorePatterns /node_modules/ --testTimeout 600000 --runInBand
 */
import * as fs from 'fs';
import * as path from 'path';
import { randomBytes, randomUUID } from 'crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { start, type Simulator } from '../simulator';
import { ensureN8n, e2eFlavors } from './n8n-install';
import { closeHttpClients, N8nInstance, startN8n, WorkflowJson } from './n8n-instance';
import { ensureBuilt, REPO } from './fixtures/build';
import { REVIEW_REQUIRED_MESSAGE } from '../../nodes/shared/n8n/toolSpending';

const flavors = e2eFlavors(['v2']);
const EXAMPLE = path.join(REPO, 'test', 'workflows', 'examples', 'mcp-agent-tools.json');
const CALL_LIMIT_MS = 60_000;

type Json = Record<string, any>;

const report: Json = {};
afterAll(async () => {
	await closeHttpClients();
	console.log(`E2E_MCP_REPORT ${JSON.stringify(report)}`);
});

describe.each(flavors)('the Deck Generator tools through n8n %s MCP Server Trigger', (flavor) => {
	let sim: Simulator;
	let n8n: N8nInstance;
	let apiKey: string;
	let workflowId: string;
	const token = `mcp-e2e-${randomBytes(12).toString('hex')}`;
	const clients: Client[] = [];
	/** Every tool answer's text, to look for the key in. */
	const texts: string[] = [];
	const durations: Array<{ tool: string; ms: number }> = [];
	const r: Json = {};
	report[flavor] = r;

	/** A client of the example (path `deckgen`), or of its copy with Buy Without Review off (`deckgen-unreviewed`). */
	const connect = async (path = 'deckgen'): Promise<Client> => {
		const client = new Client({ name: 'deckgen-e2e', version: '1.0.0' });
		const transport = new StreamableHTTPClientTransport(new URL(`${n8n.baseUrl}/mcp/${path}`), {
			requestInit: { headers: { Authorization: `Bearer ${token}` } },
		});
		await client.connect(transport);
		clients.push(client);
		return client;
	};

	/** One tool call; the answer is n8n's JSON of the tool's output-0 items. */
	const call = async (client: Client, tool: string, args: Json): Promise<{ isError: boolean; items: Json[]; text: string }> => {
		const t = Date.now();
		const result = (await client.callTool({ name: tool, arguments: args })) as { isError?: boolean; content: Array<{ type: string; text?: string }> };
		const ms = Date.now() - t;
		durations.push({ tool, ms });
		expect(ms).toBeLessThan(CALL_LIMIT_MS);
		const text = result.content.map((c) => c.text ?? '').join('\n');
		texts.push(text);
		let items: Json[] = [];
		try {
			const parsed = JSON.parse(text);
			items = Array.isArray(parsed) ? parsed : [parsed];
		} catch {
			/* an error text: isError says so */
		}
		return { isError: Boolean(result.isError), items, text };
	};

	const brief = (extra: Json = {}) => ({
		expectedCredits: 10,
		title: 'Board update',
		coreMessage: 'Revenue grew 20% and churn fell',
		audience: 'The board',
		slideCount: 10,
		purchaseReference: '',
		...extra,
	});

	beforeAll(async () => {
		ensureBuilt();
		const install = await ensureN8n(flavor);
		r.n8n = install.version;
		sim = await start({ seed: 18, clock: { speed: 60_000 }, limits: { retryAfterMs: 20, maxConcurrentDecks: 100 } });
		apiKey = sim.keys.personal;
		n8n = await startN8n({ flavor, packageDir: REPO, env: { N8N_LOG_LEVEL: 'debug' } });
		const deckCredential = await n8n.createCredential({ name: 'Deck Generator (simulator)', type: 'deckGenApi', data: { apiKey, baseUrl: sim.url } });
		const bearer = await n8n.createCredential({ name: 'MCP clients (bearer token)', type: 'httpBearerAuth', data: { token } });
		const example = JSON.parse(fs.readFileSync(EXAMPLE, 'utf8')) as WorkflowJson;
		example.nodes = example.nodes.map((node) => {
			if (node.credentials?.deckGenApi) return { ...node, credentials: { deckGenApi: { id: deckCredential.id, name: deckCredential.name } } };
			if (node.credentials?.httpBearerAuth) return { ...node, credentials: { httpBearerAuth: { id: bearer.id, name: bearer.name } } };
			return node;
		});
		workflowId = await n8n.importWorkflow(example);
		await n8n.activate(workflowId);
		// the same tools with Create Deck's Buy Without Review off, at another path
		const unreviewed = JSON.parse(JSON.stringify(example)) as WorkflowJson;
		unreviewed.name = `${example.name} (Buy Without Review off)`;
		for (const node of unreviewed.nodes) {
			if (node.name === 'Create Deck') node.parameters = { ...node.parameters, buyWithoutReview: false };
			if (node.type === '@n8n/n8n-nodes-langchain.mcpTrigger') Object.assign(node, { webhookId: randomUUID(), parameters: { ...node.parameters, path: 'deckgen-unreviewed' } });
		}
		await n8n.activate(await n8n.importWorkflow(unreviewed));
	});

	afterAll(async () => {
		for (const client of clients) await client.close().catch(() => undefined);
		r.durations = durations;
		r.maxCallMs = Math.max(0, ...durations.map((d) => d.ms));
		r.charges = sim?.ledger.charges.length;
		await n8n?.stop();
		await sim?.close();
	});

	test('a client without the bearer token is refused', async () => {
		const response = await fetch(`${n8n.baseUrl}/mcp/deckgen`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
			body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }),
		});
		await response.arrayBuffer();
		expect([401, 403]).toContain(response.status);
	});

	test('tools are listed with descriptions that carry the price and polling rules, and numbers as numbers', async () => {
		const client = await connect();
		const { tools } = await client.listTools();
		const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
		r.tools = tools.map((t) => t.name);
		expect(Object.keys(byName).sort()).toEqual(['Check_Deck', 'Create_Deck', 'Get_Credits', 'Get_Deck_Status']);

		const create = byName.Create_Deck;
		expect(create.description).toMatch(/SPENDS CREDITS/);
		expect(create.description).toMatch(/expectedCredits is the price/);
		expect(create.description).toMatch(/price_drift with the live price/);
		expect(create.description).toMatch(/10 to 35 minutes/);
		expect(create.description).toMatch(/never more often than every 5 seconds/);
		expect(create.description).toMatch(/succeeded or failed/);
		expect(create.description).toMatch(/normal answer/);
		const properties = (create.inputSchema as Json).properties;
		expect(properties.expectedCredits.type).toBe('number');
		expect(properties.slideCount.type).toBe('number');
		// n8n's human review cannot sit in front of an MCP client: the surcharge is no argument of the tool
		expect(properties.confirmSlideSurcharge).toBeUndefined();
		expect(properties.title.type).toBe('string');

		for (const name of ['Get_Deck_Status', 'Check_Deck']) {
			expect(byName[name].description).toMatch(/Spends nothing/);
			expect(byName[name].description).toMatch(/about once a minute/);
			expect(byName[name].description).toMatch(/deckUrl/);
			expect((byName[name].inputSchema as Json).properties.taskId.type).toBe('string');
		}
		expect(byName.Get_Credits.description).toMatch(/Spends nothing/);
	});

	test('Get Credits, Create, then polling to completion; the deck link says whether it needs signing in', async () => {
		const client = await connect();
		const credits = await call(client, 'Get_Credits', {});
		expect(credits.isError).toBe(false);
		expect(credits.items[0]).toMatchObject({ outcome: 'success' });

		const created = await call(client, 'Create_Deck', brief());
		expect(created.isError).toBe(false);
		const [deck] = created.items;
		expect(deck).toMatchObject({ outcome: 'success', taskId: expect.any(String) });
		expect(deck.message).toMatch(/call Get Status with taskId/);
		r.taskId = deck.taskId;

		let status: Json = {};
		for (let poll = 0; poll < 50; poll++) {
			status = (await call(client, 'Get_Deck_Status', { taskId: deck.taskId })).items[0];
			if (status.state === 'succeeded' || status.state === 'failed') break;
			await new Promise((res) => setTimeout(res, 200));
		}
		expect(status).toMatchObject({ outcome: 'success', state: 'succeeded', deckUrl: expect.any(String), deckUrlNeedsSignIn: true });
		expect(status.message).toContain(status.deckUrl);
		expect(status.message).toMatch(/needs signing in/);

		const checked = await call(client, 'Check_Deck', { taskId: deck.taskId });
		expect(checked.items[0]).toMatchObject({ outcome: 'completed', state: 'succeeded', deckUrl: status.deckUrl });
		expect(checked.items[0].message).toMatch(/Hand the person this link/);
	});

	test('a 402 surcharge, a price drift and a 404 are answers with outcome and message, nothing charged', async () => {
		const client = await connect();
		const charges = sim.ledger.charges.length;

		const surcharge = await call(client, 'Create_Deck', brief({ slideCount: 20, title: 'Long deck' }));
		expect(surcharge.isError).toBe(false);
		expect(surcharge.items[0]).toMatchObject({ outcome: 'client_action', cta: 'confirm_slide_surcharge' });
		expect(surcharge.items[0].message).toMatch(/Only the person who pays may accept a surcharge/);
		expect(surcharge.items[0].message).toMatch(/This tool cannot confirm a surcharge/);

		const drift = await call(client, 'Create_Deck', brief({ expectedCredits: 3, title: 'Cheap deck' }));
		expect(drift.isError).toBe(false);
		expect(drift.items[0]).toMatchObject({ outcome: 'price_drift', credits: 10, expectedCredits: 3 });
		expect(drift.items[0].message).toMatch(/call again with expectedCredits 10/);

		const unknown = await call(client, 'Get_Deck_Status', { taskId: 'task_not_there' });
		expect(unknown.isError).toBe(false);
		expect(unknown.items[0]).toMatchObject({ outcome: 'error', code: 'not_found', status: 404 });
		expect(unknown.items[0].message).toMatch(/use the taskId that Create returned/);

		const unknownCheck = await call(client, 'Check_Deck', { taskId: 'task_not_there' });
		expect(unknownCheck.isError).toBe(false);
		expect(unknownCheck.items[0]).toMatchObject({ outcome: 'failed', code: 'not_found' });

		expect(sim.ledger.charges.length).toBe(charges);
	});

	test('an identical Create is one purchase (also from a new session); a new purchaseReference or a changed argument buys another', async () => {
		const first = await connect();
		const order = brief({ title: 'Quarterly plan' });
		const bought = (await call(first, 'Create_Deck', order)).items[0];
		expect(bought).toMatchObject({ outcome: 'success' });
		const charges = sim.ledger.charges.length;

		const again = (await call(first, 'Create_Deck', order)).items[0];
		expect(again).toMatchObject({ outcome: 'success', taskId: bought.taskId, replayed: true });
		expect(again).toMatchObject({ charge: 'replayed' });
		// the first purchase's time where this n8n process knows it (issue 49), else "when is not known"
		expect(again.message).toMatch(/This deck was bought before this run \((at \S+Z|when is not known)\), with the same Idempotency-Key: the service replayed that purchase and charged nothing now\./);
		const fromNewSession = (await call(await connect(), 'Create_Deck', order)).items[0];
		expect(fromNewSession).toMatchObject({ taskId: bought.taskId, replayed: true });
		expect(sim.ledger.charges.length).toBe(charges);

		const another = (await call(first, 'Create_Deck', { ...order, purchaseReference: 'second copy' })).items[0];
		expect(another).toMatchObject({ outcome: 'success' });
		expect(another.taskId).not.toBe(bought.taskId);
		expect(another).toMatchObject({ charge: 'charged', replayed: false });
		// three decks of 10 in all, past the example's 20 credits without review: each MCP call is an execution of its own
		const changed = (await call(first, 'Create_Deck', { ...order, audience: 'The sales team' })).items[0];
		expect(changed).toMatchObject({ outcome: 'success' });
		expect(changed.taskId).not.toBe(bought.taskId);
		expect(sim.ledger.charges.length).toBe(charges + 2);
	});

	test('without review: Buy Without Review off buys nothing and says a person must review; on, a call above its 20 credits is refused before it is sent', async () => {
		const posts = () => sim.ledger.requests.filter((q) => q.method === 'POST').length;
		const before = { posts: posts(), charges: sim.ledger.charges.length };

		const unreviewed = await call(await connect('deckgen-unreviewed'), 'Create_Deck', brief({ title: 'Nobody reviews this' }));
		expect(unreviewed.isError).toBe(false);
		expect(unreviewed.items).toEqual([{ outcome: 'review_required', message: REVIEW_REQUIRED_MESSAGE }]);

		const dear = await call(await connect(), 'Create_Deck', brief({ title: 'A dear deck', expectedCredits: 30 }));
		expect(dear.isError).toBe(false);
		expect(dear.items[0]).toMatchObject({ outcome: 'credit_limit_reached', expectedCredits: 30, creditLimitPerExecution: 20, spentWithoutReview: 0 });
		expect(dear.items[0].message).toMatch(/^Nothing was bought and nothing was charged\. This workflow lets an AI agent buy without a person's review only up to 20 credits/);

		expect({ posts: posts(), charges: sim.ledger.charges.length }).toEqual(before);
		r.withoutReview = { unreviewed: unreviewed.items[0].outcome, aboveLimit: dear.items[0].outcome };
	});

	test('the API key is in no tool answer, log line or saved execution', async () => {
		const executions = await n8n.listExecutions({ workflowId, limit: 100 });
		r.executions = executions.length;
		expect(executions.length).toBeGreaterThan(0);
		const saved = await Promise.all(executions.map((e) => n8n.getExecution(String(e.id))));
		const everything = [texts.join('\n'), n8n.logs, JSON.stringify(saved)].join('\n');
		expect(everything.includes(apiKey)).toBe(false);
		expect(texts.join('\n').includes(token)).toBe(false);
	});
});
