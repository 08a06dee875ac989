/**
 * n8n's own AI Agent buying decks, every purchase held for a person (issue 32): the example
 * test/workflows/examples/ai-agent-review.json in a real n8n 2.41.1 with the package installed as a
 * community package, published with its chat made public (step 4 of its note), and nothing in it
 * replaced:
 *
 * - the OpenAI Chat Model node talks to a stand-in for OpenAI's API on loopback (./fixtures/model.ts:
 *   the Responses API, which the node uses by default, answering with scripted tool calls as a model
 *   would, chosen by the chat message);
 * - the review is n8n's Send Email review tool (`n8n-nodes-base.emailSendHitlTool`), its SMTP
 *   credential pointed at a mail server on loopback (./fixtures/smtp.ts) that the test reads; the test
 *   follows the mail's Approve or Decline link as a person's click would (a browser's User-Agent:
 *   n8n ignores link previews and bots);
 * - the chat is the public chat's own protocol: POST to the chat URL, then the chat's WebSocket, on
 *   which the agent's answer arrives;
 * - the service is the simulator over HTTP, whose ledger counts the charges.
 *
 * One n8n start, four conversations: a purchase approved (bought once, the answer names its taskId), one
 * declined (nothing sent to the service; the model is told), one that meets the slide surcharge (the tool
 * answers that it needs approval, the model asks again confirming it, the reviewer sees that, approves,
 * bought once at that price), and the free tools (no review at all). The API key is in no mail, no
 * request to the model, no log line and no saved execution.
 *
 * Safe by default (issue 38), in two more workflows made from the example: its Create Deck and a
 * Recover Purchase tool connected straight to the AI Agent (no review, Buy Without Review off: each
 * refuses, nothing reaches the service, the model is told a person must review, the run carries the
 * hint); Create Deck straight on the agent with Buy Without Review on and a limit of 15 credits (two
 * calls in one conversation: the first bought, the second refused before it is sent), and Recover
 * Purchase behind a review of its own (approved: the lost purchase bought once).
 *
 * 2.x only inside (human review of tool calls exists from n8n 2.6; 1.x has none), whatever
 * DECKGEN_E2E_FLAVORS says. Prints `E2E agent-review v2: …` with what each part took.
 *
 * Run: DECKGEN_E2E_FLAVORS=v2 npx jest --selectProjects reference --roots test/e2e --testMatch '**\/agent-review.e2e.ts' --testPathIgnorePatterns /node_modules/ --testTimeout 600000 --runInBand
 */
import { randomUUID } from 'crypto';
import { WebSocket } from 'undici';
import { purchaseLogLine, purchaseRecord } from '../../nodes/shared/purchaseRecord';
import { REVIEW_REQUIRED_MESSAGE } from '../../nodes/shared/n8n/toolSpending';
import { start, type Simulator } from '../simulator';
import { ensureBuilt, REPO } from './fixtures/build';
import { AGENT_EXAMPLE, CREDENTIAL_TYPE, loadExample } from './fixtures/examples';
import { startModel, type Model, type ModelRequest, type Reply } from './fixtures/model';
import { startSmtp, type Mail, type Smtp } from './fixtures/smtp';
import { e2eFlavors, type Flavor } from './n8n-install';
import { closeHttpClients, n8nFetch, N8nInstance, startN8n, type WorkflowJson } from './n8n-instance';

const flavors: Flavor[] = e2eFlavors(['v2']).filter((f) => f === 'v2');
// 2.x only: with DECKGEN_E2E_FLAVORS=v1 the suite is reported as skipped (jest refuses an empty .each)
const describeFlavors = flavors.length ? describe.each(flavors) : describe.skip.each(['v2' as Flavor]);

const CHAT_TRIGGER = '@n8n/n8n-nodes-langchain.chatTrigger';
const REVIEW = 'Review purchase by email';
const RECOVERY_REVIEW = 'Review recovery by email';
/** a person's browser: n8n's send-and-wait page answers bots and link previews (no User-Agent) with nothing */
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';
const SMTP_LOGIN = { user: 'n8n-reviews', password: 'smtp-e2e-password' };

type Json = Record<string, any>;

/** What the reviewer reads: the review node's Message, for the arguments the held call carries. */
function reviewText(o: { title: string; slides: number; price: number; surcharge: boolean }): string {
	return [
		'The AI agent wants to buy a slide deck. Nothing is bought unless you approve.',
		'',
		`Deck: ${JSON.stringify(o.title)}`,
		`Slides: ${o.slides}`,
		`Price: ${o.price} credits`,
		`Surcharge: ${o.surcharge ? 'YES, approving confirms a surcharge for slides above the free cap; the price above includes it' : 'none (if the service asks for one, nothing is bought and you are asked again)'}`,
		'',
		'Approve buys this deck at this price. Decline, and nothing is bought or charged.',
	].join('\n');
}

interface Brief {
	title: string;
	coreMessage: string;
	audience: string;
	slideCount: number;
	expectedCredits: number;
}

const itemsOf = (output: string): Json[] => {
	try {
		const parsed = JSON.parse(output);
		return Array.isArray(parsed) ? parsed : [parsed];
	} catch {
		return [];
	}
};

/**
 * A model that buys what the person asked for, as the workflow's system message tells it: Create Deck
 * with the brief; on a surcharge, once more confirming it at the price the tool named; then it says what
 * happened, naming the taskId.
 */
const buyer =
	(brief: Brief) =>
	(r: ModelRequest): Reply => {
		const createDeck = (extra: Json = {}): Reply => ({
			calls: [{ name: 'Create_Deck', args: { toolParameters: { ...brief, confirmSlideSurcharge: false, ...extra }, hitlParameters: {} } }],
		});
		const last = r.results.at(-1);
		if (!last) return createDeck();
		if (/rejected the tool call/.test(last.output)) return { text: `The purchase of "${brief.title}" was declined by the reviewer: nothing was bought.` };
		const [answer] = itemsOf(last.output);
		if (answer?.outcome === 'success') return { text: `Bought "${brief.title}": taskId ${answer.taskId}. It takes 10 to 35 minutes.` };
		const surchargesAsked = r.results.filter((x) => itemsOf(x.output)[0]?.cta === 'confirm_slide_surcharge').length;
		if (answer?.cta === 'confirm_slide_surcharge' && surchargesAsked === 1) return createDeck({ confirmSlideSurcharge: true, expectedCredits: answer.credits });
		return { text: `Not bought: ${String(answer?.message ?? last.output)}` };
	};

const BOARD: Brief = { title: 'Board update', coreMessage: 'Revenue grew 20% and churn fell', audience: 'The board', slideCount: 10, expectedCredits: 10 };
const SALES: Brief = { title: 'Sales kickoff', coreMessage: 'Three bets for next year', audience: 'The sales team', slideCount: 12, expectedCredits: 10 };
const ANNUAL: Brief = { title: 'Annual review', coreMessage: 'A record year, and what comes next', audience: 'Shareholders', slideCount: 24, expectedCredits: 10 };

const SAY = {
	board: 'Please buy the deck "Board update" for the board, 10 slides, 10 credits.',
	sales: 'Please buy the deck "Sales kickoff" for the sales team, 12 slides, 10 credits.',
	annual: 'Please buy the deck "Annual review" for our shareholders with 24 slides.',
	status: 'How many credits do I have left, and how is deck',
	direct: 'Please buy the deck "Investor letter" for our investors, 10 slides, 10 credits.',
	twoDecks: 'Please buy two decks, "Team north" and "Team south", 10 slides each, 10 credits each.',
	recover: 'Please recover this purchase n8n lost:',
};

/** A purchase n8n logged and never sent (the request never reached the service): recovering it buys it, once. */
const LOST = purchaseLogLine(
	purchaseRecord(
		{
			method: 'POST',
			path: '/v1/decks',
			idempotencyKey: '6a1f0c52-3b8e-4d2a-9e71-38c0ffee0038',
			body: { title: 'Lost in a crash', core_message: 'The deck a dead worker never bought', audience: 'The board', slide_count: 10, expected_credits: 10 },
		},
		{ operation: 'deck.create', item: 0, workflowId: 'wf-crashed', executionId: '4711', node: 'Create Deck' },
	),
);

/** A model that calls `tool` once with `args` (wrapped as n8n wraps a reviewed tool's), then says what it answered. */
const once =
	(tool: string, args: Json, reviewed: boolean) =>
	(r: ModelRequest): Reply => {
		const last = r.results.at(-1);
		if (!last) return { calls: [{ name: tool, args: reviewed ? { toolParameters: args, hitlParameters: {} } : args }] };
		const [answer] = itemsOf(last.output);
		if (answer?.outcome === 'success') return { text: `Done: taskId ${answer.taskId}.` };
		return { text: `Not done: ${String(answer?.message ?? last.output)}` };
	};

const deckArgs = (title: string) => ({ title, coreMessage: 'What the person asked for', audience: 'The team', slideCount: 10, expectedCredits: 10, confirmSlideSurcharge: false });

const SCRIPTS: Record<string, (r: ModelRequest) => Reply> = {
	[SAY.board]: buyer(BOARD),
	[SAY.sales]: buyer(SALES),
	[SAY.annual]: buyer(ANNUAL),
	// the free tools, all three in one turn, then a summary
	[SAY.status]: (r) => {
		const taskId = /tsk_[0-9a-f]+/.exec(r.user)?.[0] ?? '';
		if (!r.results.length) return { calls: [{ name: 'Get_Credits', args: {} }, { name: 'Get_Deck_Status', args: { taskId } }, { name: 'Check_Deck', args: { taskId } }] };
		const [credits, status, check] = ['Get_Credits', 'Get_Deck_Status', 'Check_Deck'].map((name) => itemsOf(r.results.find((x) => x.name === name)?.output ?? '')[0] ?? {});
		return { text: `You have ${credits.credits} credits. Deck ${taskId} is ${status.state} (checked: ${check.state}).` };
	},
	[SAY.direct]: once('Create_Deck', deckArgs('Investor letter'), false),
	// two purchases one after the other in one conversation (one execution), then what came of each
	[SAY.twoDecks]: (r) => {
		if (r.results.length < 2) return { calls: [{ name: 'Create_Deck', args: deckArgs(r.results.length ? 'Team south' : 'Team north') }] };
		return { text: r.results.map((x) => String(itemsOf(x.output)[0]?.outcome)).join(', ') };
	},
	[SAY.recover]: (r) => {
		const reviewed = r.tools.find((t) => t.name === 'Recover_Purchase')?.parameters?.properties?.toolParameters !== undefined;
		return once('Recover_Purchase', { loggedPurchase: r.user.slice(r.user.indexOf(SAY.recover) + SAY.recover.length).trim() }, reviewed)(r);
	},
};

type Node = WorkflowJson['nodes'][number];

/** A Recover Purchase tool as a person adds one to the agent (issue 33's operation, as an AI tool). */
function recoverTool(example: WorkflowJson): Node {
	const create = example.nodes.find((node) => node.name === 'Create Deck')!;
	return {
		...create,
		id: 'e2e-recover-purchase',
		name: 'Recover Purchase',
		position: [1120, 540],
		parameters: {
			resource: 'deck',
			operation: 'recover',
			loggedPurchase: "={{ $fromAI('loggedPurchase', 'The whole line n8n logged before the purchase was sent, unchanged', 'string') }}",
			options: {},
		},
	};
}

/** The example made again with its own chat and mail links (two workflows may not share a webhook). */
function copyOf(example: WorkflowJson, name: string, change: (nodes: Node[]) => Node[], connections: WorkflowJson['connections']): WorkflowJson {
	const nodes = change(JSON.parse(JSON.stringify(example.nodes)) as Node[]).map((node) => (node.webhookId ? { ...node, webhookId: randomUUID() } : node));
	return { ...example, name, nodes, connections: { ...example.connections, ...connections } };
}

const toAgent = { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] };

/** The example's Create Deck, and a Recover Purchase tool, connected straight to the AI Agent: no review, Buy Without Review off. */
function straightOnTheAgent(example: WorkflowJson): WorkflowJson {
	const workflow = copyOf(example, 'e2e: paying tools straight on the agent', (nodes) => [...nodes.filter((node) => node.name !== REVIEW), recoverTool(example)], {
		'Create Deck': toAgent,
		'Recover Purchase': toAgent,
	});
	delete workflow.connections[REVIEW];
	return workflow;
}

/**
 * Create Deck straight on the AI Agent with Buy Without Review on, up to 15 credits an execution; Recover
 * Purchase behind an email review of its own, the example's review node made to show the logged line.
 */
function withAllowance(example: WorkflowJson): WorkflowJson {
	const workflow = copyOf(
		example,
		'e2e: Create Deck buys without review up to 15 credits, Recover Purchase reviewed',
		(nodes) => [
			...nodes.map((node) => {
				if (node.name === 'Create Deck') return { ...node, parameters: { ...node.parameters, buyWithoutReview: true, creditLimitPerExecution: 15 } };
				if (node.name !== REVIEW) return node;
				return {
					...node,
					name: RECOVERY_REVIEW,
					parameters: {
						...node.parameters,
						subject: 'Recover a purchase n8n lost?',
						message: '=The AI agent wants to send again a purchase n8n logged and lost. If the service never received it, approving buys it now, once.\n\n{{ $tool.parameters.loggedPurchase }}',
					},
				};
			}),
			recoverTool(example),
		],
		{ 'Create Deck': toAgent, [RECOVERY_REVIEW]: toAgent, 'Recover Purchase': { ai_tool: [[{ node: RECOVERY_REVIEW, type: 'ai_tool', index: 0 }]] } },
	);
	delete workflow.connections[REVIEW];
	return workflow;
}

describeFlavors('an AI Agent buys decks only through a person’s review, in real n8n %s', (flavor) => {
	let sim: Simulator;
	let smtp: Smtp;
	let model: Model;
	let n8n: N8nInstance;
	let chatUrl = '';
	/** the chats of the two workflows made from the example (issue 38) */
	let directChatUrl = '';
	let allowanceChatUrl = '';
	const executionIds: string[] = [];
	/** the open chats' sockets and timers, closed when the suite ends */
	const hangUps: Array<() => void> = [];
	const seconds: Record<string, number> = {};
	const started = Date.now();
	/** the deck bought in the first conversation, asked about in the last */
	let boardTaskId = '';

	const decksPosted = () => sim.ledger.requests.filter((r) => r.method === 'POST' && r.path === '/v1/decks').length;

	/** A chat message, as the public chat sends it; resolves with the agent's answer in the chat. */
	const chat = async (text: string, sessionId: string, url = chatUrl): Promise<{ executionId: string; answer: Promise<string> }> => {
		const response = await n8nFetch(url, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ action: 'sendMessage', sessionId, chatInput: text }),
		});
		const body = (await response.json()) as Json;
		expect({ status: response.status, body }).toEqual({ status: 200, body: { executionStarted: true, executionId: expect.any(String), resumeToken: expect.any(String) } });
		executionIds.push(body.executionId);
		// the chat's WebSocket: n8n pushes the agent's answer there once the execution gets to it
		const socket = new WebSocket(`${n8n.baseUrl.replace(/^http/, 'ws')}/chat?sessionId=${sessionId}&executionId=${body.executionId}&isPublic=true&token=${body.resumeToken}`);
		let timer: NodeJS.Timeout | undefined;
		const hangUp = () => {
			clearTimeout(timer);
			socket.close();
		};
		hangUps.push(hangUp);
		const answer = new Promise<string>((resolve, reject) => {
			timer = setTimeout(() => reject(new Error(`no answer in the chat within 90 s (execution ${body.executionId})`)), 90_000);
			socket.addEventListener('message', (event) => {
				const data = String(event.data);
				if (data === 'n8n|heartbeat') return socket.send('n8n|heartbeat-ack');
				if (data.startsWith('n8n|')) return;
				hangUp();
				resolve(data);
			});
		});
		// a test that fails before it reads the answer leaves it unread, not unhandled
		answer.catch(() => undefined);
		return { executionId: body.executionId, answer };
	};

	/** A person's click on a link of the mail. */
	const click = async (url: string): Promise<number> => {
		const response = await n8nFetch(url, { headers: { 'user-agent': BROWSER, accept: 'text/html' } });
		await response.arrayBuffer();
		return response.status;
	};

	const link = (mail: Mail, label: string) => {
		const found = mail.links.find((l) => l.label === label);
		if (!found) throw new Error(`the mail has no "${label}" link: ${JSON.stringify(mail.links)}`);
		return found.url;
	};

	/** The last request the model got in the conversation that began with `said`. */
	const lastRequest = (said: string) => model.requests.filter((r) => r.user === said).at(-1)!;

	/**
	 * The execution saved as waiting for its `nth` review. n8n sends the mail before it saves the execution as
	 * waiting: a click in between is refused (409, "running already"); a person is never that fast.
	 */
	const heldForReview = async (executionId: string, nth: number, review = REVIEW) => {
		const deadline = Date.now() + 30_000;
		for (;;) {
			const execution = await n8n.getExecution(executionId);
			if (execution.status === 'waiting' && (execution.data?.resultData?.runData?.[review]?.length ?? 0) >= nth) return;
			if (Date.now() > deadline) throw new Error(`execution ${executionId} is ${execution.status}, not waiting for review ${nth}`);
			await new Promise((resolve) => setTimeout(resolve, 200));
		}
	};

	const finished = async (executionId: string) => {
		const execution = await n8n.waitForExecution(executionId, { timeoutMs: 60_000 });
		expect({ executionId, status: execution.status, error: execution.data?.resultData?.error?.message }).toEqual({ executionId, status: 'success', error: undefined });
		return execution;
	};

	/** The node each run of `node` came after, as n8n saved the execution. */
	const sourcesOf = (execution: Json, node: string): string[] =>
		(execution.data?.resultData?.runData?.[node] ?? []).map((run: Json) => String(run.source?.[0]?.previousNode));

	const timed = async <T>(name: string, run: () => Promise<T>): Promise<T> => {
		const t = Date.now();
		try {
			return await run();
		} finally {
			seconds[name] = (Date.now() - t) / 1000;
		}
	};

	beforeAll(async () => {
		ensureBuilt();
		sim = await start({ seed: 32, clock: { speed: 60 } });
		smtp = await startSmtp(SMTP_LOGIN);
		model = await startModel(SCRIPTS);
		n8n = await startN8n({ flavor, packageDir: REPO });
		seconds.n8nStart = n8n.startupSeconds;

		const deckGen = await n8n.createCredential({ name: 'Deck Generator (simulator)', type: CREDENTIAL_TYPE, data: { apiKey: sim.keys.personal, baseUrl: sim.url } });
		const openAi = await n8n.createCredential({ name: 'OpenAI (stand-in)', type: 'openAiApi', data: { apiKey: 'sk-e2e-not-a-real-key', url: model.url } });
		const mail = await n8n.createCredential({ name: 'SMTP (stand-in)', type: 'smtp', data: { ...SMTP_LOGIN, host: '127.0.0.1', port: smtp.port, secure: false } });
		const bound: Record<string, { id: string; name: string }> = { [CREDENTIAL_TYPE]: deckGen, openAiApi: openAi, smtp: mail };
		/** Imported with the credentials bound and its chat public (step 4 of the note), published; its chat's URL. */
		const publish = async (workflow: WorkflowJson): Promise<{ id: string; url: string }> => {
			const ready: WorkflowJson = {
				...workflow,
				nodes: workflow.nodes.map((node) => {
					const credentials = node.credentials
						? Object.fromEntries(Object.keys(node.credentials).map((type) => [type, { id: bound[type].id, name: bound[type].name }]))
						: undefined;
					// step 4 of the note: Make Chat Publicly Available (Hosted Chat, no authentication)
					const parameters = node.type === CHAT_TRIGGER ? { ...node.parameters, public: true, mode: 'hostedChat', authentication: 'none' } : node.parameters;
					return { ...node, parameters, ...(credentials ? { credentials } : {}) };
				}),
			};
			const id = await n8n.importWorkflow(ready);
			await n8n.activate(id);
			const trigger = ready.nodes.find((node) => node.type === CHAT_TRIGGER)!;
			return { id, url: `${n8n.baseUrl}/webhook/${trigger.webhookId}/chat` };
		};
		const example = loadExample(AGENT_EXAMPLE);
		chatUrl = (await publish(example)).url;
		directChatUrl = (await publish(straightOnTheAgent(example))).url;
		allowanceChatUrl = (await publish(withAllowance(example))).url;
	}, 600_000);

	afterAll(async () => {
		hangUps.forEach((hangUp) => hangUp());
		await n8n?.stop();
		await Promise.allSettled([sim?.close(), smtp?.close(), model?.close()]);
		await closeHttpClients();
		seconds.total = (Date.now() - started) / 1000;
		console.log(`E2E agent-review ${flavor}: ${Object.entries(seconds).map(([k, v]) => `${k} ${v.toFixed(1)} s`).join(', ')}; charges ${sim?.ledger.charges.map((c) => c.credits).join(' + ')}`);
	});

	test('approved: the review mail shows what the held call buys; only the click buys it, once; the answer names its taskId', async () =>
		timed('approve', async () => {
			const { executionId, answer } = await chat(SAY.board, 'session-board');
			const mail = await smtp.next();

			// what the model was offered: Create Deck behind the review (its arguments wrapped by n8n), the free tools as they are
			const offered = Object.fromEntries(model.requests[0].tools.map((tool) => [tool.name, Object.keys(tool.parameters.properties ?? {}).sort()]));
			expect(offered).toEqual({
				Create_Deck: ['hitlParameters', 'toolParameters'],
				Get_Credits: [],
				Get_Deck_Status: ['taskId'],
				Check_Deck: ['taskId'],
			});
			expect(model.requests[0].api).toBe('responses');

			expect(mail.to).toEqual(['approver@example.com']);
			expect(mail.subject).toBe('Approve 10 credits for the deck "Board update"?');
			expect(mail.text).toContain(reviewText({ title: 'Board update', slides: 10, price: 10, surcharge: false }));
			expect(mail.links.map((l) => l.label)).toEqual(['Decline', 'Approve purchase']);
			// held: nothing reached the service before the click
			expect(decksPosted()).toBe(0);
			expect(sim.ledger.charges).toHaveLength(0);

			await heldForReview(executionId, 1);
			expect(await click(link(mail, 'Approve purchase'))).toBe(200);
			const said = await answer;
			const execution = await finished(executionId);
			// what tells the tool a person approved (nodes/shared/n8n/toolSpending.ts): n8n ran it after the review node
			expect(sourcesOf(execution, 'Create Deck')).toEqual([REVIEW]);
			expect(sim.ledger.charges).toHaveLength(1);
			const [charge] = sim.ledger.charges;
			expect(charge).toMatchObject({ operation: 'create', credits: 10 });
			expect(decksPosted()).toBe(1);
			expect(said).toBe(`Bought "Board update": taskId ${charge.taskId}. It takes 10 to 35 minutes.`);
			// the tool's own answer reached the model (n8n's review kept it)
			const [result] = lastRequest(SAY.board).results;
			expect(result.name).toBe('Create_Deck');
			expect(itemsOf(result.output)[0]).toMatchObject({ outcome: 'success', taskId: charge.taskId });
			boardTaskId = charge.taskId;
		}));

	test('declined: nothing is sent to the service or charged, and the model is told the person declined; a forged approval is refused', async () =>
		timed('decline', async () => {
			const posted = decksPosted();
			const charges = sim.ledger.charges.length;
			const { executionId, answer } = await chat(SAY.sales, 'session-sales');
			const mail = await smtp.next();
			expect(mail.text).toContain(reviewText({ title: 'Sales kickoff', slides: 12, price: 10, surcharge: false }));

			await heldForReview(executionId, 1);
			// the Decline link turned into an approval: its signature no longer matches, n8n refuses it
			const forged = link(mail, 'Decline').replace('approved=false', 'approved=true');
			expect(await click(forged)).toBe(401);

			expect(await click(link(mail, 'Decline'))).toBe(200);
			expect(await answer).toBe('The purchase of "Sales kickoff" was declined by the reviewer: nothing was bought.');
			await finished(executionId);
			expect(decksPosted()).toBe(posted);
			expect(sim.ledger.charges).toHaveLength(charges);
			const [result] = lastRequest(SAY.sales).results;
			expect(result.name).toBe('Create_Deck');
			expect(result.output).toMatch(/User rejected the tool call to Create Deck/);
		}));

	test('a surcharge: the tool answers that it needs approval (nothing charged), the model asks again confirming it, the reviewer sees that, approves, bought once at that price', async () =>
		timed('surcharge', async () => {
			const charges = sim.ledger.charges.length;
			const { executionId, answer } = await chat(SAY.annual, 'session-annual');

			// the first call, as the model made it: 24 slides at 10 credits, no surcharge confirmed
			const first = await smtp.next();
			expect(first.text).toContain(reviewText({ title: 'Annual review', slides: 24, price: 10, surcharge: false }));
			await heldForReview(executionId, 1);
			expect(await click(link(first, 'Approve purchase'))).toBe(200);

			// the service asked for the surcharge: nothing charged; the model asks again, confirming it at the price named
			const second = await smtp.next();
			const refused = itemsOf(lastRequest(SAY.annual).results[0].output)[0];
			expect(refused).toMatchObject({ outcome: 'client_action', cta: 'confirm_slide_surcharge', credits: 28 });
			expect(refused.message).toMatch(/confirmSlideSurcharge true and expectedCredits 28/);
			expect(sim.ledger.charges).toHaveLength(charges);
			expect(second.subject).toBe('Approve 28 credits for the deck "Annual review"?');
			expect(second.text).toContain(reviewText({ title: 'Annual review', slides: 24, price: 28, surcharge: true }));

			await heldForReview(executionId, 2);
			expect(await click(link(second, 'Approve purchase'))).toBe(200);
			const said = await answer;
			await finished(executionId);
			expect(sim.ledger.charges).toHaveLength(charges + 1);
			const charge = sim.ledger.charges.at(-1)!;
			expect(charge).toMatchObject({ operation: 'create', credits: 28 });
			expect(said).toBe(`Bought "Annual review": taskId ${charge.taskId}. It takes 10 to 35 minutes.`);
		}));

	test('the free tools run with no review: Get Credits, Get Deck Status and Check Deck answer at once, no mail, nothing charged', async () =>
		timed('freeTools', async () => {
			const charges = sim.ledger.charges.length;
			const mails = smtp.mails.length;
			const said = `${SAY.status} ${boardTaskId}?`;
			const { executionId, answer } = await chat(said, 'session-status');
			const text = await answer;
			await finished(executionId);
			const results = lastRequest(said).results;
			expect(results.map((r) => r.name).sort()).toEqual(['Check_Deck', 'Get_Credits', 'Get_Deck_Status']);
			const byName = Object.fromEntries(results.map((r) => [r.name, itemsOf(r.output)[0]]));
			expect(byName.Get_Credits).toMatchObject({ outcome: 'success', credits: expect.any(Number) });
			expect(byName.Get_Deck_Status).toMatchObject({ outcome: 'success', taskId: boardTaskId, state: expect.stringMatching(/^(running|succeeded)$/) });
			expect(byName.Check_Deck).toMatchObject({ taskId: boardTaskId, state: byName.Get_Deck_Status.state });
			expect(text).toBe(`You have ${byName.Get_Credits.credits} credits. Deck ${boardTaskId} is ${byName.Get_Deck_Status.state} (checked: ${byName.Check_Deck.state}).`);
			expect(smtp.mails).toHaveLength(mails);
			expect(sim.ledger.charges).toHaveLength(charges);
		}));

	const posts = () => sim.ledger.requests.filter((r) => r.method === 'POST').length;
	const hintsOf = (execution: Json, node: string): string[] =>
		(execution.data?.resultData?.runData?.[node] ?? []).flatMap((run: Json) => (run.hints ?? []).map((hint: Json) => String(hint.message)));

	test('straight on the agent, with no review: Create Deck and Recover Purchase buy nothing, nothing reaches the service, the model is told a person must review', async () =>
		timed('noReview', async () => {
			const before = { posts: posts(), charges: sim.ledger.charges.length, mails: smtp.mails.length };

			const buy = await chat(SAY.direct, 'session-direct', directChatUrl);
			const said = await buy.answer;
			const bought = await finished(buy.executionId);
			const request = lastRequest(SAY.direct);
			// offered as it is (no review wraps its arguments), called by the model, refused
			expect(Object.keys(request.tools.find((t) => t.name === 'Create_Deck')!.parameters.properties).sort()).toEqual(['audience', 'confirmSlideSurcharge', 'coreMessage', 'expectedCredits', 'slideCount', 'title']);
			expect(request.results.map((r) => [r.name, itemsOf(r.output)])).toEqual([['Create_Deck', [{ outcome: 'review_required', message: REVIEW_REQUIRED_MESSAGE }]]]);
			expect(said).toBe(`Not done: ${REVIEW_REQUIRED_MESSAGE}`);
			// n8n ran it after the agent itself, not after a review
			expect(sourcesOf(bought, 'Create Deck')).toEqual(['AI Agent']);
			// the output pane of the run that refused says why
			expect(hintsOf(bought, 'Create Deck')).toEqual([expect.stringMatching(/^Bought nothing: no person reviews this tool’s calls\. Put n8n’s human review between this tool and the agent/)]);

			const recover = await chat(`${SAY.recover} ${LOST}`, 'session-recover-direct', directChatUrl);
			const told = await recover.answer;
			const recovered = await finished(recover.executionId);
			expect(lastRequest(`${SAY.recover} ${LOST}`).results.map((r) => [r.name, itemsOf(r.output)])).toEqual([['Recover_Purchase', [{ outcome: 'review_required', message: REVIEW_REQUIRED_MESSAGE }]]]);
			expect(told).toBe(`Not done: ${REVIEW_REQUIRED_MESSAGE}`);
			expect(hintsOf(recovered, 'Recover Purchase')).toHaveLength(1);

			expect({ posts: posts(), charges: sim.ledger.charges.length, mails: smtp.mails.length }).toEqual(before);
		}));

	test('Buy Without Review with a limit of 15 credits: in one conversation the first deck is bought, the second refused before it is sent', async () =>
		timed('allowance', async () => {
			const before = { posts: posts(), charges: sim.ledger.charges.length, mails: smtp.mails.length };
			const { executionId, answer } = await chat(SAY.twoDecks, 'session-allowance', allowanceChatUrl);
			const said = await answer;
			await finished(executionId);
			const [first, second] = lastRequest(SAY.twoDecks).results.map((r) => itemsOf(r.output)[0]);
			expect(first).toMatchObject({ outcome: 'success', taskId: expect.any(String) });
			expect(second).toEqual({
				outcome: 'credit_limit_reached',
				expectedCredits: 10,
				creditLimitPerExecution: 15,
				spentWithoutReview: 10,
				message: expect.stringMatching(/^Nothing was bought and nothing was charged\. This workflow lets an AI agent buy without a person's review only up to 15 credits in one run of the workflow/),
			});
			expect(said).toBe('success, credit_limit_reached');
			expect(sim.ledger.charges.slice(before.charges)).toEqual([expect.objectContaining({ operation: 'create', credits: 10, taskId: first.taskId })]);
			expect({ posts: posts(), mails: smtp.mails.length }).toEqual({ posts: before.posts + 1, mails: before.mails });
		}));

	test('Recover Purchase behind a review of its own: the mail shows the logged line; approved, the purchase n8n lost is sent once and bought', async () =>
		timed('recoverReviewed', async () => {
			const charges = sim.ledger.charges.length;
			const before = posts();
			const said = `${SAY.recover} ${LOST}`;
			const { executionId, answer } = await chat(said, 'session-recover-reviewed', allowanceChatUrl);
			const mail = await smtp.next();
			expect(mail.subject).toBe('Recover a purchase n8n lost?');
			expect(mail.text).toContain('Deck Generator: sending purchase "Lost in a crash" with Idempotency-Key 6a1f0c52-3b8e-4d2a-9e71-38c0ffee0038');
			expect(posts()).toBe(before);

			await heldForReview(executionId, 1, RECOVERY_REVIEW);
			expect(await click(link(mail, 'Approve purchase'))).toBe(200);
			const told = await answer;
			await finished(executionId);
			expect(sim.ledger.charges.slice(charges)).toEqual([expect.objectContaining({ operation: 'create', credits: 10, idempotencyKey: '6a1f0c52-3b8e-4d2a-9e71-38c0ffee0038' })]);
			expect(told).toBe(`Done: taskId ${sim.ledger.charges.at(-1)!.taskId}.`);
		}));

	test('the API key is in no mail, no request to the model, no log line and no saved execution', async () => {
		const apiKey = sim.keys.personal;
		const saved = await Promise.all(executionIds.map((id) => n8n.getExecution(id)));
		expect(saved).toHaveLength(8);
		const everything = [JSON.stringify(smtp.mails), JSON.stringify(model.requests.map((r) => r.body)), n8n.logs, JSON.stringify(saved)].join('\n');
		expect(everything.includes(apiKey)).toBe(false);
		// the ledger holds only what a reviewer approved (the board deck, 10; the annual review with its surcharge, 28; the
		// recovered purchase, 10) and what the allowance let through (one deck of 10)
		expect(sim.ledger.charges.map((c) => c.credits)).toEqual([10, 28, 10, 10]);
		expect(smtp.untaken()).toEqual([]);
	});
});
