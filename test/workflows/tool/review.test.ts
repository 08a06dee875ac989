/**
 * Safe by default (issue 38): as an AI tool, an operation that spends buys only where a person
 * reviews its calls (n8n's human review) or where the workflow's owner switched on Buy Without
 * Review, up to a Credit Limit per Execution. Every paying operation (Create, Revise, Translate,
 * Generate Video, Recover Purchase, a POST Custom Request) against the simulator's ledger: refused
 * before anything is sent, with the model's answer word for word and the run's hint; within the
 * limit bought, past it refused, the limit counting every call of the node in one execution (its
 * execution context); the free tools and the regular operations unchanged. The real review node in a
 * real n8n is test/e2e/agent-review.e2e.ts.
 */
import type { IDataObject, INode } from 'n8n-workflow';

import { purchaseLogLine, purchaseRecord } from '../../../nodes/shared/purchaseRecord';
import { runWorkflow, type RunResult, type WorkflowJson } from '../../harness';
import { start, type Simulator } from '../../simulator';
import { credentialFor, servedPath } from '../credential';
import { assertNoKeyLeak, brief as createBrief, DECK_NODE, jsonOf, loadWorkflow, runWith } from '../deckgen/fixture';
import { AGENT_EXAMPLE, callTool, exampleTool, REVIEW_NODE, TOOL_NODE_TYPES, toolCallWorkflow } from './tool';

/** What the model is told when no person reviews the call and the allowance is off, word for word. */
const REVIEW_REQUIRED =
	'Nothing was bought and nothing was charged. This workflow lets an AI agent buy only after a person reviews the call, and no person reviews this tool’s calls, so calling again gives the same answer. Tell the person what you wanted to buy and why, with its price in credits: a person can buy it, or change the workflow so that a person reviews this tool’s calls.';

/** The run's execution hint (n8n's output pane) when a call was refused for want of a review. */
const REVIEW_HINT =
	'Bought nothing: no person reviews this tool’s calls. Put n8n’s human review between this tool and the agent (hover the connection, click +, add a review step), or turn on Buy Without Review with a Credit Limit per Execution.';

const deckBrief = (extra: Record<string, unknown> = {}) => ({
	expectedCredits: 10,
	title: 'Q3 review',
	coreMessage: 'We grew 20% and will keep growing',
	audience: 'The board',
	slideCount: 10,
	purchaseReference: '',
	...extra,
});

const fromAI = (name: string) => `={{ $fromAI('${name}') }}`;

/** The MCP example's Create Deck with the allowance as given (off unless said). */
const createTool = (allowance: INode['parameters'] = { buyWithoutReview: false }) => exampleTool('Create Deck', allowance);

/**
 * Create Deck reading its arguments from the item (`$json`), for several calls in one execution: n8n's
 * `$fromAI` reads the item of the run's own index (in n8n every tool call is a run of its own, its
 * arguments set up for it), which a test's second run or second item does not have.
 */
const createFromItem = (allowance: Record<string, unknown>, extra: INode['parameters'] = {}) =>
	exampleTool('Create Deck', {
		title: '={{ $json.title }}',
		coreMessage: '={{ $json.coreMessage }}',
		audience: '={{ $json.audience }}',
		slideCount: '={{ $json.slideCount }}',
		expectedCredits: '={{ $json.expectedCredits }}',
		options: {},
		...allowance,
		...extra,
	} as INode['parameters']);

/** A tool node of the spending operations other than Create, its arguments the model's. */
function tool(name: string, parameters: INode['parameters']): INode {
	return { ...exampleTool('Get Credits'), id: `id-${name}`, name, parameters };
}

const reviseTool = (extra: INode['parameters'] = {}) =>
	tool('Revise Deck', { resource: 'deck', operation: 'revise', taskId: fromAI('taskId'), instructions: fromAI('instructions'), expectedCredits: fromAI('expectedCredits'), ...extra });
const translateTool = (extra: INode['parameters'] = {}) =>
	tool('Translate Deck', { resource: 'deck', operation: 'translate', taskId: fromAI('taskId'), languages: fromAI('languages'), expectedCredits: fromAI('expectedCredits'), ...extra });
const videoTool = (extra: INode['parameters'] = {}) =>
	tool('Deck Video', { resource: 'deck', operation: 'generateVideo', taskId: fromAI('taskId'), expectedCredits: fromAI('expectedCredits'), ...extra });
const recoverTool = (extra: INode['parameters'] = {}) => tool('Recover Deck', { resource: 'deck', operation: 'recover', loggedPurchase: fromAI('loggedPurchase'), ...extra });
const customTool = (method: 'GET' | 'POST', extra: INode['parameters'] = {}) =>
	tool('Custom Call', { resource: 'custom', operation: 'request', method, path: fromAI('path'), ...(method === 'POST' ? { body: fromAI('body') } : {}), ...extra });

/** A purchase n8n logged but never sent (its request never reached the service): recovering it buys it, once. */
function loggedCreate(title: string): string {
	const idempotencyKey = `b2c0a7e4-38f1-4c1a-9d7e-${Buffer.from(title).toString('hex').padEnd(12, '0').slice(0, 12)}`;
	return purchaseLogLine(
		purchaseRecord(
			{ method: 'POST', path: '/v1/decks', idempotencyKey, body: { title, core_message: 'Lost in a crash', audience: 'The board', slide_count: 10, expected_credits: 10 } },
			{ operation: 'deck.create', item: 0, workflowId: 'wf-lost', executionId: '4711', node: 'Create Deck' },
		),
	);
}

const hintsOf = (result: RunResult, node: string): string[] =>
	(result.runData[node] ?? []).flatMap((run) => ((run as { hints?: Array<{ message: string }> }).hints ?? []).map((hint) => hint.message));

/**
 * One execution in which the tool node runs twice (two nodes hand it the arguments, as two calls of
 * an agent in one conversation run it twice), or once with every argument set as an item side by side.
 */
async function twoCalls(sim: Simulator, node: INode, args: Array<Record<string, unknown>>, key: string, how: 'two runs' | 'side by side'): Promise<{ result: RunResult; answers: Array<Record<string, unknown>> }> {
	const workflow: WorkflowJson =
		how === 'two runs'
			? {
					nodes: [
						{ id: 't', name: 'Agent', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
						{ id: 'a', name: 'First call', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [200, 0], parameters: {} },
						{ id: 'b', name: 'Second call', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [200, 200], parameters: {} },
						{ ...node, position: [400, 0] },
					],
					connections: {
						Agent: { main: [[{ node: 'First call', type: 'main', index: 0 }, { node: 'Second call', type: 'main', index: 0 }]] },
						'First call': { main: [[{ node: node.name, type: 'main', index: 0 }]] },
						'Second call': { main: [[{ node: node.name, type: 'main', index: 0 }]] },
					},
					settings: { executionOrder: 'v1' },
				}
			: {
					nodes: [
						{ id: 't', name: 'Agent', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
						{ ...node, position: [200, 0] },
					],
					connections: { Agent: { main: [[{ node: node.name, type: 'main', index: 0 }]] } },
					settings: { executionOrder: 'v1' },
				};
	const result = await runWorkflow(workflow, {
		credentials: { deckGenApi: credentialFor(sim, key) },
		// two runs: each gets the first argument set ($runIndex tells them apart); side by side: all of them
		inputItems: (how === 'two runs' ? args.slice(0, 1) : args).map((json) => ({ json: json as IDataObject })),
		nodeTypes: TOOL_NODE_TYPES,
	});
	assertNoKeyLeak(sim, result, [key]);
	expect(result.status).toBe('success');
	const answers = (result.runData[node.name] ?? []).flatMap((_, run) => jsonOf(result.output(node.name, 0, run)));
	return { result, answers };
}

describe('a paying tool needs a person, or the owner’s allowance', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await start({ seed: 38, clock: { manual: true } });
	});
	afterAll(async () => await sim.close());

	const posts = () => sim.ledger.requests.filter((r) => r.method === 'POST').length;

	test('no review, no allowance: every paying operation buys nothing, sends nothing, and tells the model to ask a person', async () => {
		const { key } = sim.control.createAccount({ balance: 100, subscriber: true });
		const taskId = sim.control.seedDeck({ key, durationMs: 0, outcome: 'succeeded' });
		const calls: Array<[string, INode, Record<string, unknown>]> = [
			['Create', createTool(), deckBrief()],
			['Revise', reviseTool(), { taskId, instructions: 'Shorter', expectedCredits: 0 }],
			['Translate', translateTool(), { taskId, languages: 'de', expectedCredits: 5 }],
			['Generate Video', videoTool(), { taskId, expectedCredits: 20 }],
			['Recover Purchase', recoverTool(), { loggedPurchase: loggedCreate('Lost deck') }],
			['Custom Request POST', customTool('POST'), { path: `/v1/decks/${taskId}/video`, body: { expected_credits: 20 } }],
		];
		const before = { posts: posts(), charges: sim.ledger.charges.length };
		for (const [operation, node, args] of calls) {
			const { answer, elsewhere, result } = await callTool(sim, node, args, key);
			expect({ operation, status: result.status, elsewhere, answer }).toEqual({
				operation,
				status: 'success',
				elsewhere: 0,
				answer: [{ outcome: 'review_required', message: REVIEW_REQUIRED }],
			});
			expect(hintsOf(result, node.name)).toEqual([REVIEW_HINT]);
			expect(result.logs.some((line) => line.includes(`the tool "${node.name}" bought nothing: no person reviews its calls`))).toBe(true);
		}
		expect({ posts: posts(), charges: sim.ledger.charges.length, balance: sim.control.balanceOf(key) }).toEqual({ ...before, balance: 100 });
		console.log(`review.test: ${calls.length} paying tools without review: ${calls.length} × review_required, ${posts() - before.posts} requests sent, ${sim.ledger.charges.length - before.charges} charges`);
	});

	test('what spends nothing is unchanged: Get Credits, Get Status, Download, a GET Custom Request, and a tool call that fails before sending', async () => {
		const { key } = sim.control.createAccount({ balance: 100, subscriber: true });
		const taskId = sim.control.seedDeck({ key, durationMs: 0, outcome: 'succeeded' });
		const credits = await callTool(sim, exampleTool('Get Credits'), {}, key);
		expect(credits.answer[0]).toMatchObject({ outcome: 'success' });
		const status = await callTool(sim, exampleTool('Get Deck Status'), { taskId }, key);
		expect(status.answer[0]).toMatchObject({ outcome: 'success', state: 'succeeded' });
		const download = await callTool(sim, tool('Download Deck', { resource: 'deck', operation: 'download', taskId: fromAI('taskId') }), { taskId }, key);
		expect(download.answer[0]).toMatchObject({ outcome: 'success', deckUrl: expect.any(String) });
		const get = await callTool(sim, customTool('GET'), { path: '/v1/credits' }, key);
		expect(get.answer[0]).toMatchObject({ outcome: 'success' });
		// a bad argument is refused as before (nothing would be sent either way)
		const bad = await callTool(sim, createTool(), deckBrief({ slideCount: 'twelve' }), key);
		expect(bad.answer[0]).toMatchObject({ outcome: 'error' });
		expect(String(bad.answer[0].message)).toMatch(/slideCount must be a whole number/);
		for (const [call, node] of [[credits, 'Get Credits'], [status, 'Get Deck Status'], [download, 'Download Deck'], [get, 'Custom Call'], [bad, 'Create Deck']] as const) {
			expect({ node, hints: hintsOf(call.result, node) }).toEqual({ node, hints: [] });
		}
		expect(sim.control.balanceOf(key)).toBe(100);
	});

	test('behind n8n’s review (the call’s source is the review node the tool is connected into), it buys with the allowance off', async () => {
		const { key } = sim.control.createAccount({ balance: 100, subscriber: true });
		const reviewed = exampleTool('Create Deck', {}, AGENT_EXAMPLE);
		expect(reviewed.parameters.buyWithoutReview).toBeUndefined();
		const { answer, result } = await callTool(sim, reviewed, deckBrief({ title: 'Reviewed deck' }), key, REVIEW_NODE);
		expect(answer[0]).toMatchObject({ outcome: 'success', taskId: expect.any(String) });
		expect(hintsOf(result, reviewed.name)).toEqual([]);
		expect(sim.control.balanceOf(key)).toBe(90);
		// the same node with no review in front of it: nothing
		const direct = await callTool(sim, reviewed, deckBrief({ title: 'Unreviewed deck' }), key);
		expect(direct.answer).toEqual([{ outcome: 'review_required', message: REVIEW_REQUIRED }]);

		// run after the agent itself, which it is connected into as a tool: the agent also takes a chat model, so no review
		const agent = toolCallWorkflow(reviewed, 'AI Agent');
		agent.nodes.push({ id: 'model', name: 'Chat Model', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [0, 200], parameters: {} });
		agent.connections['Chat Model'] = { ai_languageModel: [[{ node: 'AI Agent', type: 'ai_languageModel', index: 0 }]] };
		const fromAgent = await runWorkflow(agent, {
			credentials: { deckGenApi: credentialFor(sim, key) },
			inputItems: [{ json: deckBrief({ title: 'Straight from the agent' }) }],
			nodeTypes: TOOL_NODE_TYPES,
		});
		expect(jsonOf(fromAgent.output(reviewed.name))).toEqual([{ outcome: 'review_required', message: REVIEW_REQUIRED }]);
		expect(sim.control.balanceOf(key)).toBe(90);
	});

	test('the allowance: two calls of one execution add up; the one that would pass the limit is refused before it is sent', async () => {
		const { key } = sim.control.createAccount({ balance: 100, subscriber: true });
		// each run buys its own deck: the purchase reference names the run
		const node = createFromItem({ buyWithoutReview: true, creditLimitPerExecution: 15 }, { options: { purchaseReference: '={{ "call " + $runIndex }}' } });
		const before = posts();
		const { answers, result } = await twoCalls(sim, node, [deckBrief()], key, 'two runs');
		expect(result.runCount(node.name)).toBe(2);
		expect(answers[0]).toMatchObject({ outcome: 'success', taskId: expect.any(String) });
		expect(answers[1]).toEqual({
			outcome: 'credit_limit_reached',
			expectedCredits: 10,
			creditLimitPerExecution: 15,
			spentWithoutReview: 10,
			message:
				"Nothing was bought and nothing was charged. This workflow lets an AI agent buy without a person's review only up to 15 credits in one run of the workflow, all calls of this tool together: 10 are spent or on their way, and this call would cost 10. Tell the person what you wanted to buy and why, with its price in credits: only a person can buy more.",
		});
		expect(hintsOf(result, node.name)).toEqual(['Bought nothing: a call at 10 credits would pass this tool’s Credit Limit per Execution (15 credits, 10 spent or on their way).']);
		expect(posts() - before).toBe(1);
		expect(sim.control.balanceOf(key)).toBe(90);

		// the limit is per execution: the next one starts from nothing
		const next = await callTool(sim, node, deckBrief({ title: 'Next execution' }), key);
		expect(next.answer[0]).toMatchObject({ outcome: 'success' });
		expect(sim.control.balanceOf(key)).toBe(80);
		console.log(`review.test: limit 15, two calls of 10 in one execution: ${answers.map((a) => a.outcome).join(', ')}; requests sent ${posts() - before} (over both executions)`);
	});

	test('the allowance counts what was charged: a refused price gives its credits back, the same purchase again is not counted twice, items side by side cannot pass it together', async () => {
		const { key } = sim.control.createAccount({ balance: 100, subscriber: true });
		// run 0 offers 3 credits (price_drift: nothing charged), run 1 the live price: both within a limit of 10
		const drifting = createFromItem({ buyWithoutReview: true, creditLimitPerExecution: 10 }, { expectedCredits: '={{ $runIndex === 0 ? 3 : 10 }}' });
		const drift = await twoCalls(sim, drifting, [deckBrief({ title: 'Drifting' })], key, 'two runs');
		expect(drift.answers.map((a) => a.outcome)).toEqual(['price_drift', 'success']);
		expect(sim.control.balanceOf(key)).toBe(90);

		// run 1 repeats run 0's call: the service replays it, charging nothing, and the limit of 10 still has room for it
		const again = createFromItem({ buyWithoutReview: true, creditLimitPerExecution: 10 });
		const replay = await twoCalls(sim, again, [deckBrief({ title: 'Bought once' })], key, 'two runs');
		expect(replay.answers).toEqual([expect.objectContaining({ outcome: 'success' }), expect.objectContaining({ outcome: 'success', replayed: true, taskId: replay.answers[0].taskId })]);
		expect(sim.control.balanceOf(key)).toBe(80);

		// three different decks at once (Concurrency 4), a limit of 25: two fit, the third is refused
		const before = posts();
		const sideBySide = await twoCalls(sim, again, ['One', 'Two', 'Three'].map((title) => deckBrief({ title })), key, 'side by side');
		expect(sideBySide.answers.map((a) => a.outcome).sort()).toEqual(['credit_limit_reached', 'credit_limit_reached', 'success']);
		expect(posts() - before).toBe(1);
		const limit25 = createFromItem({ buyWithoutReview: true, creditLimitPerExecution: 25 });
		const three = await twoCalls(sim, limit25, ['Four', 'Five', 'Six'].map((title) => deckBrief({ title })), key, 'side by side');
		expect(three.answers.map((a) => a.outcome).sort()).toEqual(['credit_limit_reached', 'success', 'success']);
		expect(sim.control.balanceOf(key)).toBe(50);
	});

	test('issue 49: a purchase another execution holds the key of (409 already_in_progress, then the replay) is not counted against this execution\'s limit', async () => {
		// its own simulator: a 409 already_in_progress asks for 50 ms, so the tool's retries outlast the other request
		const held = await start({ seed: 3849, clock: { manual: true }, limits: { retryAfterMs: 50 } });
		try {
			const { key, principalId } = held.control.createAccount({ balance: 100, subscriber: true });
			// run 0 of either execution is one purchase (the same key), run 1 another deck
			const node = createFromItem({ buyWithoutReview: true, creditLimitPerExecution: 10 }, { options: { idempotencyKey: '={{ "held-deck-" + $runIndex }}', maxRetryWaitSeconds: 1 } });
			held.control.setFaults([{ method: 'POST', path: '/v1/decks', kind: 'latency', latencyMs: 150, times: 1 }]);
			const other = callTool(held, node, deckBrief({ title: 'Held elsewhere' }), key);
			while (held.ledger.requests.filter((r) => r.method === 'POST').length === 0) await new Promise((resolve) => setTimeout(resolve, 2));
			const { answers } = await twoCalls(held, node, [deckBrief({ title: 'Held elsewhere' })], key, 'two runs');
			const first = (await other).answer[0];
			expect(first).toMatchObject({ outcome: 'success', charge: 'charged' });
			expect(held.ledger.requests.filter((r) => r.method === 'POST').map((r) => r.status)).toContain(409);
			// this execution's run 0 is told it replayed the other's purchase; its limit of 10 still buys run 1's deck
			expect(answers[0]).toMatchObject({ outcome: 'success', charge: 'replayed', taskId: first.taskId });
			expect(answers[1]).toMatchObject({ outcome: 'success', charge: 'charged' });
			expect(held.ledger.charges.filter((charge) => charge.principalId === principalId)).toHaveLength(2);
		} finally {
			await held.close();
		}
	});

	test('Recover Purchase and a POST Custom Request: the same rule', async () => {
		const { key } = sim.control.createAccount({ balance: 100, subscriber: true });
		const taskId = sim.control.seedDeck({ key, durationMs: 0, outcome: 'succeeded' });
		const line = loggedCreate('Recovered deck');

		// above the limit: refused before anything is sent (a recovery may buy the deck for the first time)
		const before = posts();
		const tooLow = await callTool(sim, recoverTool({ buyWithoutReview: true, creditLimitPerExecution: 5 }), { loggedPurchase: line }, key);
		expect(tooLow.answer[0]).toMatchObject({ outcome: 'credit_limit_reached', expectedCredits: 10, creditLimitPerExecution: 5, spentWithoutReview: 0 });
		expect(posts()).toBe(before);
		// within it: the purchase n8n lost is bought now, once
		const recovered = await callTool(sim, recoverTool({ buyWithoutReview: true, creditLimitPerExecution: 10 }), { loggedPurchase: line }, key);
		expect(recovered.answer[0]).toMatchObject({ outcome: 'success', taskId: expect.any(String), title: 'Recovered deck' });
		expect(sim.control.balanceOf(key)).toBe(90);
		// behind a review, with the allowance off: sent again, replayed, nothing charged
		const reviewed = await callTool(sim, recoverTool(), { loggedPurchase: line }, key, REVIEW_NODE);
		expect(reviewed.answer[0]).toMatchObject({ outcome: 'success', taskId: recovered.answer[0].taskId, replayed: true });

		const translation = (limit: number) => customTool('POST', { buyWithoutReview: true, creditLimitPerExecution: limit });
		const args = { path: servedPath(sim, 'translations').replace('{taskId}', taskId), body: { languages: ['de'], expected_credits: 5 } };
		const sent = posts();
		const refused = await callTool(sim, translation(4), args, key);
		expect(refused.answer[0]).toMatchObject({ outcome: 'credit_limit_reached', expectedCredits: 5, creditLimitPerExecution: 4, spentWithoutReview: 0 });
		expect(posts()).toBe(sent);
		const bought = await callTool(sim, translation(5), args, key);
		expect(bought.answer[0]).toMatchObject({ outcome: 'success' });
		expect(sim.control.balanceOf(key)).toBe(85);
		expect(sim.ledger.charges.filter((c) => c.taskId === taskId).map((c) => [c.operation, c.credits])).toEqual([['translation', 5]]);
	});

	test('the regular node (not a tool) is unchanged: it buys with no review and no allowance', async () => {
		const { key } = sim.control.createAccount({ balance: 100, subscriber: true });
		const result = await runWith(sim, loadWorkflow('create'), key, [createBrief()]);
		expect(jsonOf(result.output(DECK_NODE))[0]).toMatchObject({ outcome: 'success', taskId: expect.any(String) });
		expect(hintsOf(result, DECK_NODE)).toEqual([]);
		expect(sim.control.balanceOf(key)).toBe(90);
	});
});
