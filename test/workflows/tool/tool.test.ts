/**
 * The nodes as AI tools, through the tool nodes of the MCP example workflow
 * (test/workflows/examples/mcp-agent-tools.json): descriptions a model can act on, one answer
 * shape on output 0 for everything the service decides, messages in the tool's argument names,
 * the link to hand a person, and the Wait node checking once.
 */
import { TOOL_DESCRIPTIONS, WAIT_TOOL_DESCRIPTION } from '../../../nodes/shared/n8n/tool';
import { start, type Simulator } from '../../simulator';
import { AGENT_EXAMPLE, callTool, deckGenTool, deckGenWaitTool, exampleTool, exampleWorkflow, REVIEW_NODE, toolDescriptionOf } from './tool';

const brief = (extra: Record<string, unknown> = {}) => ({
	expectedCredits: 10,
	title: 'Q3 review',
	coreMessage: 'We grew 20% and will keep growing',
	audience: 'The board',
	slideCount: 10,
	confirmSlideSurcharge: false,
	purchaseReference: '',
	...extra,
});

const sameOrigin = (a: string, b: string) => new URL(a).origin === new URL(b).origin;

describe('tool descriptions', () => {
	test('each operation of the tool variant describes price, polling and answers; the user may replace it', () => {
		const create = toolDescriptionOf(exampleTool('Create Deck'));
		expect(create).toBe(TOOL_DESCRIPTIONS['deck.create']);
		expect(create).toMatch(/SPENDS CREDITS/);
		expect(create).toMatch(/expectedCredits is the price/);
		expect(create).toMatch(/price_drift with the live price/);
		expect(create).toMatch(/10 to 35 minutes/);
		expect(create).toMatch(/Get Status/);
		expect(create).toMatch(/every 5 seconds/);
		expect(create).toMatch(/once a minute/);
		expect(create).toMatch(/succeeded or failed/);
		expect(create).toMatch(/normal answer/);

		const status = toolDescriptionOf(exampleTool('Get Deck Status'));
		expect(status).toBe(TOOL_DESCRIPTIONS['deck.getStatus']);
		expect(status).toMatch(/Spends nothing/);
		expect(status).toMatch(/deckUrl/);
		expect(toolDescriptionOf(exampleTool('Get Credits'))).toBe(TOOL_DESCRIPTIONS['account.getCredits']);
		const wait = toolDescriptionOf(exampleTool('Check Deck'));
		expect(wait).toBe(WAIT_TOOL_DESCRIPTION);
		expect(wait).toMatch(/never waits/);

		// Every operation has its own, and the user's text wins (n8n's "Description" field).
		for (const [key, text] of Object.entries(TOOL_DESCRIPTIONS)) {
			const [resource, operation] = key.split('.');
			expect(toolDescriptionOf({ ...exampleTool('Get Credits'), parameters: { resource, operation } })).toBe(text);
		}
		expect(toolDescriptionOf(exampleTool('Create Deck', { toolDescription: 'Buy one deck for the sales team.' }))).toBe(
			'Buy one deck for the sales team.',
		);
	});

	test('n8n adds no description field of its own, and the plain nodes do not show ours', () => {
		// n8n's convertNodeToAiTool adds "Description" and "Set Automatically" only when the node
		// declares no toolDescription; "Set Automatically" would say "Create a deck in Deck Generator".
		for (const tool of [deckGenTool, deckGenWaitTool]) {
			expect(tool.description.properties.some((p) => p.name === 'toolDescription')).toBe(true);
			expect(tool.description.properties.some((p) => p.name === 'descriptionType')).toBe(false);
		}
		const plain = exampleWorkflow().nodes.find((n) => n.name === 'Create Deck')!;
		const { NodeHelpers } = jest.requireActual<typeof import('n8n-workflow')>('n8n-workflow');
		const { DeckGen } = jest.requireActual<typeof import('../../../nodes/DeckGen/DeckGen.node')>('../../../nodes/DeckGen/DeckGen.node');
		const base = new DeckGen().description;
		const filled = NodeHelpers.getNodeParameters(base.properties, { ...plain.parameters, toolDescription: undefined }, true, false, plain, base);
		expect(filled?.toolDescription).toBeUndefined();
	});
});

describe('as an AI tool', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await start({ seed: 18, clock: { manual: true } });
	});
	afterAll(async () => await sim.close());

	test('Create answers with the taskId and when to ask again; an identical call with the same Idempotency Key says it is the deck bought earlier', async () => {
		const { key } = sim.control.createAccount({ balance: 100, subscriber: true });
		const node = exampleTool('Create Deck', { options: { idempotencyKey: 'delivery-18-a' } });
		const first = await callTool(sim, node, brief(), key);
		expect(first.result.status).toBe('success');
		expect(first.elsewhere).toBe(0);
		const [bought] = first.answer;
		expect(bought).toMatchObject({ outcome: 'success', taskId: expect.any(String) });
		expect(bought).toMatchObject({ charge: 'charged', replayed: false });
		expect(bought.message).toMatch(new RegExp(`^Deck ${String(bought.taskId)}: Bought: the service charged this deck \\(10 credits\\)\\. It is not ready yet`));
		expect(bought.message).toMatch(/call Get Status with taskId/);
		expect(bought.message).toMatch(/never more often than every 5 seconds/);

		const again = await callTool(sim, node, brief(), key);
		expect(again.answer[0]).toMatchObject({ outcome: 'success', taskId: bought.taskId, charge: 'replayed', replayed: true });
		expect(String(again.answer[0].message)).toMatch(/^Deck \S+: This deck was bought before this run \(at \S+Z\), with the same Idempotency-Key: the service replayed that purchase and charged nothing now\./);
		expect(sim.control.balanceOf(key)).toBe(90);
	});

	test('the key policy as a tool: an identical call replays, a new purchaseReference or a changed argument buys another', async () => {
		const { key } = sim.control.createAccount({ balance: 100, subscriber: true });
		const node = exampleTool('Create Deck');
		const bought = (await callTool(sim, node, brief(), key)).answer[0];
		const again = (await callTool(sim, node, brief(), key)).answer[0];
		expect(again).toMatchObject({ taskId: bought.taskId, charge: 'replayed', replayed: true });
		expect(String(again.message)).toMatch(/This deck was bought before this run \(at \S+Z\), with the same Idempotency-Key: the service replayed that purchase and charged nothing now\./);
		expect(sim.control.balanceOf(key)).toBe(90);

		const another = (await callTool(sim, node, brief({ purchaseReference: 'second copy' }), key)).answer[0];
		expect(another.taskId).not.toBe(bought.taskId);
		expect(another).toMatchObject({ charge: 'charged', replayed: false });
		const changed = (await callTool(sim, node, brief({ title: 'Q4 review' }), key)).answer[0];
		expect(changed.taskId).not.toBe(bought.taskId);
		expect(sim.control.balanceOf(key)).toBe(70);
	});

	test('a price that differs: price_drift names expectedCredits and the live price; nothing is charged', async () => {
		const { key } = sim.control.createAccount({ balance: 100, subscriber: true });
		const { answer, elsewhere, result } = await callTool(sim, exampleTool('Create Deck'), brief({ expectedCredits: 3 }), key);
		expect(result.status).toBe('success');
		expect(elsewhere).toBe(0);
		expect(answer[0]).toMatchObject({ outcome: 'price_drift', credits: 10, expectedCredits: 3 });
		expect(answer[0].message).toMatch(/live price is 10 credits, not the 3 sent as expectedCredits/);
		expect(answer[0].message).toMatch(/call again with expectedCredits 10/);
		expect(answer[0].message).not.toMatch(/Expected Credits|Max Credits/);
		expect(sim.control.balanceOf(key)).toBe(100);

		// A price the workflow fixes is not the model's to change: the message says a person must.
		const fixed = await callTool(sim, exampleTool('Create Deck', { expectedCredits: 3 }), brief(), key);
		expect(fixed.answer[0]).toMatchObject({ outcome: 'price_drift', credits: 10 });
		expect(fixed.answer[0].message).toMatch(/fixed in the workflow \(Expected Credits\): only a person can change it/);
	});

	test('a surcharge: only a person may accept it; the reviewed agent’s Create says how to ask again confirming it, the MCP example’s cannot confirm one at all', async () => {
		const { key } = sim.control.createAccount({ balance: 200, subscriber: true });
		// the AI Agent example: confirmSlideSurcharge is the model's argument, and n8n's human review holds every call
		const reviewed = exampleTool('Create Deck', {}, AGENT_EXAMPLE);
		const { answer } = await callTool(sim, reviewed, brief({ slideCount: 20, expectedCredits: 10 }), key, REVIEW_NODE);
		expect(answer[0]).toMatchObject({ outcome: 'client_action', cta: 'confirm_slide_surcharge', credits: 20 });
		const message = String(answer[0].message);
		expect(message).toMatch(/Only the person who pays may accept a surcharge/);
		expect(message).toMatch(/where a person reviews every call of this tool before it runs \(n8n's human review\), call again and the reviewer decides/);
		expect(message).toMatch(/call Create again with the same arguments, confirmSlideSurcharge true and expectedCredits 20/);
		expect(message).not.toMatch(/Confirm Slide Surcharge/);

		// the MCP example: the confirmation is fixed off, whatever a client sends
		const fixed = exampleTool('Create Deck');
		expect(fixed.parameters.confirmSlideSurcharge).toBe(false);
		const refused = await callTool(sim, fixed, brief({ slideCount: 20, expectedCredits: 20, confirmSlideSurcharge: true }), key);
		expect(refused.answer[0]).toMatchObject({ outcome: 'client_action', cta: 'confirm_slide_surcharge' });
		expect(refused.answer[0].message).toMatch(/This tool cannot confirm a surcharge/);
		expect(sim.control.balanceOf(key)).toBe(200);

		// the reviewed call, once the reviewer approved it: the flag and the price buy it
		const confirmed = await callTool(sim, reviewed, brief({ slideCount: 20, expectedCredits: 20, confirmSlideSurcharge: true }), key, REVIEW_NODE);
		expect(confirmed.answer[0]).toMatchObject({ outcome: 'success' });
		expect(sim.control.balanceOf(key)).toBe(180);
	});

	test('out of credits: a checkout answer on output 0 that a person must act on', async () => {
		const { answer, elsewhere } = await callTool(sim, exampleTool('Create Deck'), brief(), sim.keys.broke);
		expect(elsewhere).toBe(0);
		expect(answer[0]).toMatchObject({ outcome: 'checkout', cta: 'top_up' });
		expect(answer[0].message).toMatch(/Buy credits/);
		expect(answer[0].message).toMatch(/Only a person can do this/);
	});

	test('every failure the service decides is an answer with outcome, message and the next step, never a thrown error', async () => {
		const status = exampleTool('Get Deck Status');
		const unknown = await callTool(sim, status, { taskId: 'task_does_not_exist' });
		expect(unknown.result.status).toBe('success');
		expect(unknown.answer[0]).toMatchObject({ outcome: 'error', code: 'not_found', status: 404, requestId: expect.any(String) });
		expect(unknown.answer[0].message).toMatch(/use the taskId that Create returned/);

		const revoked = await callTool(sim, exampleTool('Get Credits'), {}, sim.keys.revoked);
		expect(revoked.result.status).toBe('success');
		expect(revoked.answer[0]).toMatchObject({ outcome: 'error', code: 'unauthorized', status: 401 });
		expect(revoked.answer[0].message).toMatch(/Only a person can fix it/);

		const narrow = await callTool(sim, exampleTool('Get Credits'), {}, sim.keys.narrow);
		expect(narrow.answer[0]).toMatchObject({ outcome: 'error', code: 'forbidden', status: 403, reason: 'insufficient_scope' });
		expect(narrow.answer[0].message).toMatch(/credits:read/);
		expect(narrow.answer[0].message).toMatch(/calling again does not help/);

		sim.control.setFaults([{ kind: 'status500', path: '/v1/credits' }]);
		try {
			const failing = await callTool(sim, exampleTool('Get Credits'), {});
			expect(failing.result.status).toBe('success');
			expect(failing.answer[0]).toMatchObject({ outcome: 'error', code: 'internal_error', status: 500 });
			expect(failing.answer[0].message).toMatch(/Call again in a few minutes/);
			expect(failing.answer[0].message).toMatch(/Request id: /);
		} finally {
			sim.control.setFaults([]);
		}
	});

	test('a bad argument is an answer naming the argument, and nothing is sent', async () => {
		const before = sim.ledger.requests.length;
		const { answer, result } = await callTool(sim, exampleTool('Create Deck'), brief({ slideCount: 'twelve' }));
		expect(result.status).toBe('success');
		expect(answer[0]).toMatchObject({ outcome: 'error' });
		expect(answer[0].message).toMatch(/slideCount must be a whole number/);
		expect(answer[0].message).not.toMatch(/Slide Count/);
		expect(sim.ledger.requests.length).toBe(before);
	});

	test('Get Status: running says when to ask again; done hands over deckUrl and whether it needs signing in', async () => {
		const { key } = sim.control.createAccount({ balance: 100, subscriber: true });
		const created = await callTool(sim, exampleTool('Create Deck'), brief(), key);
		const taskId = String(created.answer[0].taskId);
		const running = await callTool(sim, exampleTool('Get Deck Status'), { taskId }, key);
		expect(running.answer[0]).toMatchObject({ outcome: 'success', state: 'running', taskId });
		expect(running.answer[0].message).toMatch(/still being generated/);
		expect(running.answer[0].message).toMatch(/about once a minute/);

		sim.control.advance(40 * 60_000);
		const done = await callTool(sim, exampleTool('Get Deck Status'), { taskId }, key);
		const [answer] = done.answer;
		expect(answer).toMatchObject({ outcome: 'success', state: 'succeeded', deckUrl: expect.any(String) });
		const needsSignIn = sameOrigin(String(answer.deckUrl), sim.url);
		expect(answer.deckUrlNeedsSignIn).toBe(needsSignIn);
		expect(answer.message).toContain(String(answer.deckUrl));
		expect(answer.message).toMatch(needsSignIn ? /needs signing in to the service/ : /no sign-in/);

		// Download as a tool: the file stays in the workflow, the answer says which link to give.
		const download = await callTool(sim, { ...exampleTool('Get Deck Status'), parameters: { resource: 'deck', operation: 'download', taskId: '={{ $fromAI("taskId") }}' } }, { taskId }, key);
		expect(download.answer[0]).toMatchObject({ outcome: 'success', deckUrl: answer.deckUrl });
		expect(download.answer[0].message).toMatch(/n8n does not pass files/);
	});

	test('the Wait node as a tool checks once whatever its mode, says when to ask again, and answers an unknown or missing taskId', async () => {
		const { key } = sim.control.createAccount({ balance: 100, subscriber: true });
		const created = await callTool(sim, exampleTool('Create Deck'), brief(), key);
		const taskId = String(created.answer[0].taskId);
		const reads = () => sim.ledger.requests.filter((r) => r.path === `/v1/decks/${taskId}/status`).length;

		const waitUntilDone = exampleTool('Check Deck', { mode: 'waitUntilDone', options: { maxWaitMinutes: 60, pollIntervalSeconds: 0.01 } });
		const before = reads();
		const running = await callTool(sim, waitUntilDone, { taskId }, key);
		expect(reads() - before).toBe(1);
		expect(running.elsewhere).toBe(0);
		expect(running.answer[0]).toMatchObject({ outcome: 'still_running', state: 'running', taskId });
		expect(running.answer[0].message).toMatch(/ask again about once a minute/);

		sim.control.advance(40 * 60_000);
		const done = await callTool(sim, exampleTool('Check Deck'), { taskId }, key);
		expect(done.answer[0]).toMatchObject({ outcome: 'completed', state: 'succeeded', deckUrlNeedsSignIn: expect.any(Boolean) });
		expect(done.answer[0].message).toMatch(/is ready\.( .*\.)? Hand the person this link/);

		const unknown = await callTool(sim, exampleTool('Check Deck'), { taskId: 'task_nope' }, key);
		expect(unknown.result.status).toBe('success');
		expect(unknown.answer[0]).toMatchObject({ outcome: 'failed', code: 'not_found' });
		expect(unknown.answer[0].message).toMatch(/use the taskId that Create returned/);

		const missing = await callTool(sim, exampleTool('Check Deck'), {});
		expect(missing.result.status).toBe('success');
		expect(missing.answer[0]).toMatchObject({ outcome: 'failed', code: 'missing_task_id' });
	});
});

describe('a replay in an ordinary workflow', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await start({ seed: 19, clock: { manual: true } });
	});
	afterAll(async () => await sim.close());

	test('the item says it is the deck bought before this run and nothing was charged now', async () => {
		const { loadWorkflow, runWith, jsonOf, brief: createBrief } = await import('../deckgen/fixture');
		const { key } = sim.control.createAccount({ balance: 100, subscriber: true });
		const order = createBrief({ delivery_id: 'delivery-ordinary-1' });
		const first = jsonOf((await runWith(sim, loadWorkflow('create'), key, [order])).output('Success'));
		expect(first[0]).toMatchObject({ charge: 'charged', replayed: false, message: 'Bought: the service charged this deck (10 credits).' });
		const again = jsonOf((await runWith(sim, loadWorkflow('create'), key, [order])).output('Success'));
		expect(again[0]).toMatchObject({
			taskId: first[0].taskId,
			charge: 'replayed',
			replayed: true,
			// the first purchase's time, which this process knows (issue 49)
			message: `This deck was bought before this run (at ${String((first[0].purchase as { confirmedAt: string }).confirmedAt)}), with the same Idempotency-Key: the service replayed that purchase and charged nothing now.`,
		});
		expect(sim.control.balanceOf(key)).toBe(90);
	});
});
