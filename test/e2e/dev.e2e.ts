/**
 * `npm run dev`'s set-up (test/dev/dev.ts startDev: simulator, Slack/email stand-in, real n8n with the
 * built package, credential, every example imported runnable) runs every example file of
 * test/workflows/examples to its end: what a person sees after `npm run dev` before wiring real accounts.
 * Only the clocks are faster than in `npm run dev` (decks of 10-35 min take 0.1-0.35 s, n8n Wait nodes 1 s).
 * Then the two examples that loop (at-scale, recover-purchase) on a deck the simulator never finishes: each
 * leaves its loop on the node that says so, with the deck's taskId, once Check Deck's Max Wait has passed.
 *
 * Run: npm run test:e2e  (DECKGEN_E2E_FLAVORS=v2 to run one flavor)
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import * as fs from 'fs';
import * as path from 'path';
import { DEFAULT_ARGS, devPatch, startDev, type DevSession, type DevWorkflow } from '../dev/dev';
import { ensureBuilt } from './fixtures/build';
import { submitDeckForm } from './fixtures/at-scale';
import { ensureWebhookAuth, EXAMPLES_DIR, loadExample, prepareExample, RECOVERY_EXAMPLE, SCALE_EXAMPLE, WEBHOOK_AUTH_HEADERS } from './fixtures/examples';
import type { SinkRecord } from './fixtures/sink';
import { Flavor, e2eFlavors } from './n8n-install';
import { closeHttpClients, ExecutionDetail, freePort } from './n8n-instance';

const flavors: Flavor[] = e2eFlavors(['v2']);
/** the examples of the purchase journal (issue 44), whose rows are checked too */
const JOURNAL_FILES = ['at-scale-journal.json', 'purchase-sweeper.json'];
const FILES = fs
	.readdirSync(EXAMPLES_DIR)
	.filter((f) => f.endsWith('.json'))
	.sort();

type Json = Record<string, any>;

/** What each example must have delivered to the stand-in (node name -> kind and attachments), besides ending in success. */
const DELIVERS: Record<string, Array<{ node: string; kind: SinkRecord['kind']; attachments?: number }>> = {
	'webhook-to-slack.json': [
		{ node: 'Slack: deck ready', kind: 'sink', attachments: 1 },
		{ node: 'Email: deck ready', kind: 'sink', attachments: 1 },
	],
	'weekly-report.json': [{ node: 'Email the deck', kind: 'sink', attachments: 1 }],
	'surcharge-approval.json': [
		{ node: 'Ask for approval in Slack', kind: 'approval' },
		{ node: 'Slack: deck ready', kind: 'sink', attachments: 1 },
	],
	'materials.json': [{ node: 'q3-results.pdf', kind: 'file' }],
	'at-scale.json': [{ node: 'Slack: deck file', kind: 'sink', attachments: 1 }],
	// run on the sample line dev pastes (a purchase that never reached the simulator: bought once here)
	'recover-purchase.json': [{ node: 'Slack: recovered deck', kind: 'sink', attachments: 1 }],
	// an MCP client drives it (below); nothing goes to Slack or email
	'mcp-agent-tools.json': [],
	// a form submission (below): recorded in the journal, sent from the row, delivered by this execution
	'at-scale-journal.json': [{ node: 'Slack: deck file', kind: 'sink', attachments: 1 }],
	// run on the row dev puts in the journal (a purchase whose execution was lost before it was sent: bought once here)
	'purchase-sweeper.json': [{ node: 'Slack: deck file', kind: 'sink', attachments: 1 }],
};

/**
 * Examples `npm run dev` imports but cannot run by itself, and why: the AI agent's chat model is the
 * person's own (agent-review.e2e.ts runs that example with a stand-in model and this mail server).
 */
const NOT_RUN_HERE: Record<string, string> = {
	'ai-agent-review.json': 'needs a chat model',
};

afterAll(async () => {
	await closeHttpClients();
});

describe.each(flavors)('npm run dev (n8n %s): every example runs with the stand-ins', (flavor) => {
	let dev: DevSession;
	const lines: string[] = [];

	beforeAll(async () => {
		ensureBuilt();
		dev = await startDev(
			{ ...DEFAULT_ARGS, flavor, port: await freePort(), simPort: 0, speed: 6000, waitCapSeconds: 1, pollSeconds: 0.05, examples: EXAMPLES_DIR },
			(line) => lines.push(line),
		);
	});

	afterAll(async () => {
		await dev?.stop();
	});

	/** the executions of `w` a webhook call started, each finished */
	const webhookExecutions = async (w: DevWorkflow, count: number): Promise<ExecutionDetail[]> => {
		const deadline = Date.now() + 90_000;
		for (;;) {
			const list = await dev.n8n.listExecutions({ workflowId: w.id });
			if (list.length >= count) return Promise.all(list.map((e) => dev.n8n.waitForExecution(String(e.id), { timeoutMs: 90_000 })));
			if (Date.now() > deadline) throw new Error(`expected ${count} executions of ${w.name}, got ${list.length}`);
			await new Promise((r) => setTimeout(r, 100));
		}
	};

	test('imports every example file, runnable: no Slack or email node left, the credential bound, webhooks published', async () => {
		expect(dev.workflows.map((w) => w.file)).toEqual(FILES);
		for (const w of dev.workflows) {
			const saved = await dev.n8n.getWorkflow(w.id);
			const types = (saved.nodes as Json[]).map((n) => n.type);
			expect({ file: w.file, left: types.filter((t) => t === 'n8n-nodes-base.slack' || t === 'n8n-nodes-base.emailSend') }).toEqual({ file: w.file, left: [] });
			for (const n of (saved.nodes as Json[]).filter((n) => n.credentials?.deckGenApi)) expect(n.credentials.deckGenApi.id).toBe(dev.credential.id);
			expect(w.active).toBe(w.webhookPaths.length + w.mcpPaths.length + w.formPaths.length > 0);
		}
	});

	test.each(FILES.filter((f) => NOT_RUN_HERE[f]))('%s is imported with its review sending to the mail server (runs with your own chat model)', async (file) => {
		const w = dev.workflows.find((x) => x.file === file)!;
		const saved = await dev.n8n.getWorkflow(w.id);
		const reviews = (saved.nodes as Json[]).filter((n) => String(n.type).endsWith('HitlTool'));
		expect(reviews.length).toBeGreaterThan(0);
		for (const review of reviews) expect(review.credentials?.smtp?.name).toBe('SMTP (dev mail stand-in)');
		expect(w.chat).toBe(true);
	});

	test.each(FILES.filter((f) => !NOT_RUN_HERE[f]))('%s runs to its end and delivers to the stand-in', async (file) => {
		expect(DELIVERS[file]).toBeDefined();
		const w = dev.workflows.find((x) => x.file === file)!;
		const before = dev.sim.ledger.charges.length;
		let executions: ExecutionDetail[];
		if (w.mcpPaths.length) {
			// what the printed line tells a person to do: an MCP client on /mcp/<path> with the session's token
			const client = new Client({ name: 'deckgen-dev-e2e', version: '1.0.0' });
			await client.connect(
				new StreamableHTTPClientTransport(new URL(`${dev.n8n.baseUrl}/mcp/${w.mcpPaths[0]}`), { requestInit: { headers: { Authorization: `Bearer ${dev.mcpToken}` } } }),
			);
			try {
				const brief = { title: `Launch plan (${file})`, coreMessage: 'Why the new plan wins', audience: 'Sales team', slideCount: 8, expectedCredits: 10 };
				const answer = (await client.callTool({ name: 'Create_Deck', arguments: brief })) as { isError?: boolean; content: Array<{ text?: string }> };
				expect({ isError: Boolean(answer.isError), text: answer.content.map((c) => c.text ?? '').join('') }).toEqual({ isError: false, text: expect.stringMatching(/"outcome":\s*"success"/) });
			} finally {
				await client.close().catch(() => undefined);
			}
			executions = await webhookExecutions(w, 1);
		} else if (w.formPaths.length) {
			// what the printed line tells a person to do: open the form and submit a brief
			expect(await submitDeckForm(dev.n8n, `Launch plan (${file})`, w.formPaths[0])).toBeLessThan(300);
			executions = await webhookExecutions(w, 1);
		} else if (w.webhookPaths.length) {
			const answer = await dev.n8n.runWebhook({
				path: w.webhookPaths[0],
				headers: { ...WEBHOOK_AUTH_HEADERS, 'x-delivery-id': `dev-e2e-${flavor}-${file}` },
				body: { title: `Launch plan (${file})`, coreMessage: 'Why the new plan wins', audience: 'Sales team', slideCount: 8, requesterEmail: 'you@example.com' },
			});
			expect(answer.status).toBeLessThan(300);
			executions = await webhookExecutions(w, 1);
		} else {
			const saved = await dev.n8n.getWorkflow(w.id);
			const trigger = (saved.nodes as Json[]).find((n) => /trigger/i.test(n.type))!;
			executions = [await dev.n8n.runManually(w.id, { triggerNode: trigger.name, timeoutMs: 120_000 })];
		}
		for (const e of executions) expect({ file, status: e.status, error: e.data.resultData.error?.message }).toEqual({ file, status: 'success', error: undefined });
		// it bought one deck (the surcharge example after its approval)
		expect(dev.sim.ledger.charges.length - before).toBe(1);
		if (JOURNAL_FILES.includes(file)) {
			// the journal (issue 44): the example's own row, and the sweeper's sample row, delivered and marked
			const rows = await dev.journal.rows();
			const title = file === 'purchase-sweeper.json' ? 'Launch plan (swept)' : `Launch plan (${file})`;
			expect(rows.filter((row) => row.title === title)).toEqual([expect.objectContaining({ outcome: 'delivered', taskId: dev.sim.ledger.charges[before].taskId })]);
		}

		const prefix = path.basename(file, '.json');
		for (const d of DELIVERS[file]) {
			const name = d.kind === 'file' ? d.node : `${prefix}/${d.node}`;
			const got = dev.sink.of(d.kind, name);
			expect({ file, name, count: got.length }).toEqual({ file, name, count: 1 });
			if (d.attachments) expect(got[0].body.attachments).toHaveLength(d.attachments);
			// and `npm run dev` printed it
			expect(lines.some((l) => l.startsWith('[stand-in]') && l.includes(name))).toBe(true);
		}
	});
	/**
	 * A deck the simulator never finishes (held as running from the moment it is charged, before the first
	 * check reads it), in a copy of the example whose Check Deck has a Max Wait of 6 s: the loop goes round
	 * (Wait 1 s here) until the deck is past it, then leaves on the message that says so (at-scale: "Slack: deck not
	 * delivered", its one message for every deck not delivered; recover-purchase: "Slack: deck not done in time"), with its taskId.
	 */
	test.each([SCALE_EXAMPLE, RECOVERY_EXAMPLE] as const)('%s: a deck that never finishes leaves the loop on the message that says so, with its taskId, once Max Wait has passed', async (file) => {
		const BOUND_SECONDS = 6;
		const prefix = `${path.basename(file, '.json')}-bound`;
		const example = loadExample(file);
		const check = example.nodes.find((n) => n.name === 'Check Deck')!;
		const webhook = example.nodes.find((n) => n.type === 'n8n-nodes-base.webhook');
		const wf = prepareExample(example, {
			credential: dev.credential,
			webhookAuth: await ensureWebhookAuth(dev.n8n),
			sinkUrl: dev.sink.url,
			sinkPrefix: prefix,
			nameSuffix: ' (loop bound e2e)',
			patch: {
				...devPatch(example, dev.sink.url, 1),
				'Check Deck': { options: { ...(check.parameters.options as object), maxWaitMinutes: BOUND_SECONDS / 60 } },
				...(webhook ? { [webhook.name]: { ...webhook.parameters, path: prefix } } : {}),
			},
		});
		if (webhook) wf.nodes = wf.nodes.map((n) => (n.name === webhook.name ? { ...n, webhookId: `${prefix}-webhook` } : n));
		const id = await dev.n8n.importWorkflow(wf);
		// hold every deck this run buys as running, from its charge on: it never finishes
		const before = dev.sim.ledger.charges.length;
		const held = new Set<string>();
		const hold = setInterval(() => {
			for (const charge of dev.sim.ledger.charges.slice(before)) {
				if (held.has(charge.taskId)) continue;
				dev.sim.control.holdDeck(charge.taskId, true);
				held.add(charge.taskId);
			}
		}, 2);
		let execution: ExecutionDetail;
		try {
			if (webhook) {
				await dev.n8n.activate(id);
				const answer = await dev.n8n.runWebhook({ path: prefix, headers: { ...WEBHOOK_AUTH_HEADERS, 'x-delivery-id': `${prefix}-${flavor}` }, body: { title: 'A deck that never finishes', coreMessage: 'Held by the simulator', audience: 'The loop' } });
				expect(answer.status).toBeLessThan(300);
				[execution] = await webhookExecutions({ id } as DevWorkflow, 1);
			} else {
				execution = await dev.n8n.runManually(id, { triggerNode: 'Start', timeoutMs: 120_000 });
			}
		} finally {
			clearInterval(hold);
			if (webhook) await dev.n8n.deactivate(id);
			for (const taskId of held) dev.sim.control.holdDeck(taskId, false);
		}
		expect({ status: execution.status, error: execution.data.resultData.error?.message }).toEqual({ status: 'success', error: undefined });
		// one deck bought, never finished
		expect([...held]).toHaveLength(1);
		const [taskId] = held;
		const runData = execution.data.resultData.runData as Record<string, Array<{ data?: { main?: Array<Array<{ json: Json }> | null> } }>>;
		// the loop went round, then out on the bound: Past Max Wait? true once, false before it
		const verdicts = (runData['Past Max Wait?'] ?? []).map((run) => [0, 1].map((o) => run.data?.main?.[o]?.length ?? 0));
		expect(verdicts.at(-1)).toEqual([1, 0]);
		expect(verdicts.slice(0, -1).every(([yes, no]) => yes === 0 && no === 1)).toBe(true);
		expect(verdicts.length).toBeGreaterThan(1);
		const [past] = runData['Past Max Wait?'].at(-1)!.data!.main![0]!;
		expect(past.json).toMatchObject({ outcome: 'still_running', taskId, pastMaxWait: true, statusNote: expect.stringMatching(/past Max Wait/) });
		// said where a person sees it, with the taskId; nothing delivered as done
		const said = dev.sink.of('sink', `${prefix}/${file === SCALE_EXAMPLE ? 'Slack: deck not delivered' : 'Slack: deck not done in time'}`);
		expect(said).toHaveLength(1);
		expect(String(said[0].body.text)).toContain(file === SCALE_EXAMPLE ? `(task ${taskId}) is not done within Max Wait` : `(task ${taskId}) is not done within Check Deck's Max Wait`);
		expect(String(said[0].body.text)).toContain('past Max Wait');
		expect(dev.sink.of('sink', `${prefix}/${file === SCALE_EXAMPLE ? 'Slack: deck file' : 'Slack: recovered deck'}`)).toHaveLength(0);
		// within the bound: out once Max Wait had passed, and no later than one more round of the loop after it
		const seconds = (Date.parse(String(execution.stoppedAt)) - Date.parse(String(execution.startedAt))) / 1000;
		expect(seconds).toBeGreaterThanOrEqual(BOUND_SECONDS);
		expect(seconds).toBeLessThan(BOUND_SECONDS + 15);
	});
});
