/**
 * The built n8n-nodes-deckgen package inside a real n8n, on both pinned versions (2.41.1 on Node 24,
 * 1.123.81 on Node 20), against the reference simulator over loopback:
 *
 * - n8n loads the package as a community package without warnings, and lists Deck Generator,
 *   Deck Generator Wait, their AI-tool variants and the credential, icons served;
 * - the four example workflows of test/workflows/examples import (REST and CLI) with no parameter
 *   issues, and run: weekly report (manual run from its Schedule Trigger), materials (CLI
 *   `execute --id`, PDF served on loopback), surcharge approval (Client Action -> approval -> Create
 *   confirmed), webhook -> Slack (activated, called over HTTP, redelivered: one deck);
 * - a retry from the executions list (`POST /rest/executions/:id/retry`, loadWorkflow false and true)
 *   charges once per deck, whether Create itself failed after buying for other items or a later
 *   node failed;
 * - the API key appears nowhere in n8n's output, its user folder (database included) or the saved
 *   executions.
 *
 * Slack and email nodes are swapped for HTTP Request nodes posting to a loopback sink, and Slack's
 * send-and-wait for an approving pass-through (see fixtures/examples.ts). One simulator, one sink and
 * one n8n per flavor, reused by every test of that flavor. The package must be built (npm run build);
 * a stale dist/ is rebuilt first.
 *
 * Run: npm run test:e2e  (DECKGEN_E2E_FLAVORS=v2 to run one flavor)
 */
import * as fs from 'fs';
import * as path from 'path';
import { createRequire } from 'module';
import { PROFILES, start, type Simulator } from '../simulator';
import { ensureN8n, Flavor, e2eFlavors } from './n8n-install';
import { closeHttpClients, ExecutionDetail, n8nFetch, N8nInstance, startN8n, WorkflowJson } from './n8n-instance';
import { CREDENTIAL_TYPE, ensureWebhookAuth, EXAMPLE_FILES, loadExample, PACKAGE, prepareExample, WEBHOOK_AUTH_HEADERS, type ExampleFile } from './fixtures/examples';
import { ensureBuilt, REPO } from './fixtures/build';
import { startSink, type Sink } from './fixtures/sink';

const flavors: Flavor[] = e2eFlavors();
const DECK = `${PACKAGE}.deckGen`;
const WAIT = `${PACKAGE}.deckGenWait`;
const ANSI = /\x1b\[[0-9;]*m/g;

type Json = Record<string, any>;

/** Items (json) of one output of one node's run in an execution's run data. */
function itemsOf(runData: Json, node: string, output = 0, run = 0): Json[] {
	return (runData?.[node]?.[run]?.data?.main?.[output] ?? []).map((i: { json: Json }) => i.json);
}

const report: Record<string, Json> = {};

afterAll(async () => {
	await closeHttpClients();
	console.log(`E2E_DECKGEN_REPORT ${JSON.stringify(report)}`);
});

describe.each(flavors)('n8n-nodes-deckgen in real n8n %s', (flavor) => {
	let sim: Simulator;
	let sink: Sink;
	let n8n: N8nInstance;
	let credential: { id: string; name: string };
	/** the webhook examples' Header Auth credential (issue 49.7) */
	let webhookAuth: { id: string; name: string };
	let apiKey: string;
	const workflows: string[] = [];
	/** what the CLI printed (it prints whole executions) */
	const cliOutput: string[] = [];
	const timings: Record<string, number> = {};
	const r: Json = { timings };
	report[flavor] = r;
	let t0 = Date.now();

	const timed = (name: string, fn: () => Promise<void>) => async () => {
		const t = Date.now();
		try {
			await fn();
		} finally {
			timings[name] = (Date.now() - t) / 1000;
		}
	};

	const importPrepared = async (file: ExampleFile, patch?: Record<string, Record<string, unknown>>) => {
		const wf = prepareExample(loadExample(file), { credential, webhookAuth, sinkUrl: sink.url, patch, nameSuffix: ' (e2e)', sinkPrefix: path.basename(file, '.json') });
		const id = await n8n.importWorkflow(wf);
		workflows.push(id);
		return id;
	};

	const importJson = async (wf: WorkflowJson) => {
		const id = await n8n.importWorkflow(wf);
		workflows.push(id);
		return id;
	};

	/** The executions a webhook call started: waits for `count` new ones and for each to finish. */
	const newExecutions = async (workflowId: string, known: Set<string>, count: number): Promise<ExecutionDetail[]> => {
		const deadline = Date.now() + 60_000;
		for (;;) {
			const fresh = (await n8n.listExecutions({ workflowId })).filter((e) => !known.has(String(e.id)));
			if (fresh.length >= count) {
				const done = await Promise.all(fresh.map((e) => n8n.waitForExecution(String(e.id), { timeoutMs: 60_000 })));
				return done.sort((a, b) => Number(a.id) - Number(b.id));
			}
			if (Date.now() > deadline) throw new Error(`expected ${count} new executions of ${workflowId}, got ${fresh.length}`);
			await new Promise((res) => setTimeout(res, 100));
		}
	};

	/** The email's attachment is the deck file itself: the bytes the service serves at deckUrl, under its name. */
	const expectDeckAttached = async (mail: Json, done: Json) => {
		const served = await fetch(done.deckUrl, { headers: { authorization: `Bearer ${apiKey}` } });
		expect(served.status).toBe(200);
		const bytes = Buffer.from(await served.arrayBuffer());
		expect(mail.attachments).toHaveLength(1);
		const [attachment] = mail.attachments;
		expect(attachment.filename).toBe(`deck-${done.taskId}-v1.pptx`);
		expect(attachment.contentType).toMatch(/presentationml/);
		expect(attachment.data.length).toBe(bytes.length);
		expect(attachment.data.equals(bytes)).toBe(true);
	};

	beforeAll(async () => {
		t0 = Date.now();
		ensureBuilt();
		const install = await ensureN8n(flavor);
		r.n8n = install.version;
		r.node = install.nodeVersion;
		sim = await start({
			seed: flavor === 'v2' ? 2 : 1,
			// a 10-35 min deck takes 10-35 ms
			clock: { speed: 60_000 },
			limits: { retryAfterMs: 20, maxConcurrentDecks: 100 },
		});
		sink = await startSink();
		apiKey = sim.keys.personal;
		n8n = await startN8n({ flavor, packageDir: REPO, env: { N8N_LOG_LEVEL: 'debug' } });
		r.startupSeconds = n8n.startupSeconds;
		credential = await n8n.createCredential({ name: 'Deck Generator (simulator)', type: CREDENTIAL_TYPE, data: { apiKey, baseUrl: sim.url } });
		webhookAuth = await ensureWebhookAuth(n8n);
	});

	afterAll(async () => {
		const charges = sim?.ledger.charges ?? [];
		r.workflows = workflows.length;
		r.executions = n8n ? (await n8n.listExecutions({ limit: 100 }).catch(() => [])).length : 0;
		r.charges = charges.length;
		r.decks = new Set(charges.map((c) => c.taskId)).size;
		r.credits = charges.reduce((sum, c) => sum + c.credits, 0);
		r.simRequests = sim?.ledger.requests.length ?? 0;
		r.sinkRequests = sink?.records.length ?? 0;
		r.totalSeconds = (Date.now() - t0) / 1000;
		if (n8n) {
			const keep = path.join(require('os').tmpdir(), `deckgen-e2e-deckgen-${flavor}.log`);
			fs.writeFileSync(keep, n8n.logs);
			r.log = keep;
			await n8n.stop();
		}
		await Promise.allSettled([sim?.close(), sink?.close()]);
		console.log(
			`E2E deckgen ${flavor} (n8n ${r.n8n}, Node ${r.node}): ${r.workflows} workflows, ${r.executions} executions, ` +
				`${r.charges} charges for ${r.decks} decks (${r.credits} credits), ${r.simRequests} service requests, ${r.sinkRequests} sink requests; ` +
				`startup ${Number(r.startupSeconds).toFixed(1)} s, total ${Number(r.totalSeconds).toFixed(1)} s; ` +
				Object.entries(timings)
					.map(([k, v]) => `${k} ${v.toFixed(1)} s`)
					.join(', '),
		);
	});

	it(
		'loads the package without warnings; lists both nodes, their tool variants and the credential with icons',
		timed('load', async () => {
			const logs = n8n.logs.replace(ANSI, '');
			// positive proof (debug level): n8n's loader read our package
			expect(logs).toMatch(/Loaded all credentials and nodes from n8n-nodes-deckgen\s*\{\s*"credentials":\s*1,\s*"nodes":\s*2/);
			// (n8n's own paths contain the cache folder ~/.cache/n8n-nodes-deckgen: not about the package)
			const cacheRoot = path.dirname(n8n.install.dir);
			const ours = n8n.warnings().filter((l) => /deckgen|deck generator|community|n8n-nodes-/i.test(l.replace(ANSI, '').split(cacheRoot).join('<cache>')));
			// the only package-related lines are debug-level loader and module lines
			expect(ours.filter((l) => !/\bdebug\b/.test(l.replace(ANSI, '')))).toEqual([]);
			// and every warn/error line of the startup is about this sandbox (no network, no Python, fresh database)
			const sandbox = /Migrations in progress|Python task runner|api\.n8n\.io|^\S+\s+warn\s*$/;
			const levelled = logs.split('\n').filter((l) => /^\d{2}:\d{2}:\d{2}\.\d+\s+(warn|error)\b/.test(l));
			expect(levelled.filter((l) => !sandbox.test(l))).toEqual([]);

			const types = await n8n.nodeTypes();
			const byName = new Map(types.map((t) => [t.name, t as Json]));
			for (const name of [DECK, WAIT, `${DECK}Tool`, `${WAIT}Tool`]) expect(byName.has(name)).toBe(true);
			expect(byName.get(DECK)!.displayName).toBe('Deck Generator');
			expect(byName.get(WAIT)!.displayName).toBe('Deck Generator Wait');
			// the main node's outputs are an expression on $parameter; the wait node's a fixed list
			expect(String(byName.get(DECK)!.outputs)).toMatch(/^=\{\{.*\$parameter\.splitOutputsByCta/);
			expect(byName.get(WAIT)!.outputs).toEqual(['Completed', 'Failed', 'Still Running'].map((displayName) => ({ type: 'main', displayName })));
			// no outputNames: the tool variant would keep them and label its tool connection "Completed"
			expect(byName.get(WAIT)!.outputNames).toBeUndefined();
			expect(byName.get(`${WAIT}Tool`)!.outputNames).toBeUndefined();
			expect(byName.get(`${DECK}Tool`)!.outputs).toEqual(['ai_tool']);
			expect(byName.get(`${WAIT}Tool`)!.outputs).toEqual(['ai_tool']);

			const creds = await n8n.credentialTypes();
			const cred = creds.find((c) => c.name === CREDENTIAL_TYPE) as Json | undefined;
			expect(cred?.displayName).toBe('Deck Generator API');
			expect(cred?.supportedNodes).toEqual(expect.arrayContaining([DECK, WAIT]));

			const icons = [
				...Object.values(byName.get(DECK)!.iconUrl as Json),
				...Object.values(byName.get(WAIT)!.iconUrl as Json),
				...Object.values(cred!.iconUrl as Json),
			] as string[];
			expect(icons).toHaveLength(6);
			for (const icon of icons) {
				const res = await n8nFetch(`${n8n.baseUrl}/${icon}`);
				const body = await res.text();
				expect({ icon, status: res.status, type: res.headers.get('content-type') }).toEqual({ icon, status: 200, type: expect.stringMatching(/^image\/svg\+xml/) });
				expect(body).toMatch(/<svg[\s>]/);
			}
			r.nodeTypes = [DECK, WAIT, `${DECK}Tool`, `${WAIT}Tool`];
		}),
	);

	it(
		"the credential's Test button: GET /v1/credits with the key; each refusal reads as its own case, on both versions",
		timed('credentialTest', async () => {
			const test = (key: string, baseUrl = `${sim.url}/`) =>
				n8n.rest.post('/rest/credentials/test', { credentials: { id: credential.id, name: credential.name, type: CREDENTIAL_TYPE, data: { apiKey: key, baseUrl } } });
			const before = sim.ledger.requests.length;
			expect(await test(apiKey)).toMatchObject({ status: 'OK', message: 'Connection successful: the service accepted the key (the test spent nothing).' });
			// the trailing slash of the Base URL was dropped, the key was accepted
			expect(sim.ledger.requests.slice(before).map((q) => `${q.method} ${q.path} ${q.status}`)).toEqual(['GET /v1/credits 200']);
			// What a person reads under the credential: the node's credential test method (testedBy), which
			// n8n 1.x and 2.x both call and show as it is, naming the exact case.
			const refusals: Json = {};
			for (const name of ['revoked', 'notEnrolled', 'narrow', 'unrecognized'] as const) {
				const key = sim.keys[name];
				const answer = await test(key);
				expect(answer.status).toBe('Error');
				expect(JSON.stringify(answer)).not.toContain(key);
				refusals[name] = answer.message;
			}
			r.credentialTestRefusals = refusals;
			expect(refusals.revoked).toBe(
				'401: the API key is wrong or revoked. Paste the key again; if it was lost or revoked, mint a new one in the account settings (API and MCP).',
			);
			expect(refusals.notEnrolled).toMatch(
				/^403 not_enrolled: the account is not switched on for the API yet \(access rolls out in waves\)\. No retry helps and the key needs no change: it works the moment the account is enrolled\. If this lasts beyond a day, contact support with request id \S+\.$/,
			);
			expect(refusals.narrow).toBe(
				'403 insufficient_scope: the key lacks credits:read (actions it grants on credits: none). Scopes live on the key: mint a new key that includes credits:read; signing in again does not help. The key may still work for the other operations (Create needs decks:spend, Get Status and the Wait node decks:read): only this test and Get Credits read the balance.',
			);
			expect(refusals.unrecognized).toBe(
				"403 unrecognized_scope: none of the key's scopes could be read (decks.write, *), so the key is refused. Mint a new key whose scopes are spelled <resource>:<action>, with resources credits, decks, materials and actions read, spend, write.",
			);
			sim.control.setSurface('disabled');
			try {
				const unavailable = await test(apiKey);
				expect(unavailable.status).toBe('Error');
				expect(unavailable.message).toMatch(/^503: the service is unavailable right now\. Test again in a moment \(it asks for \d+ s\); the key is not the problem, so do not mint a new one\./);
				refusals.unavailable = unavailable.message;
			} finally {
				sim.control.setSurface('on');
			}
			const sent = sim.ledger.requests.length;
			const v1 = await test(apiKey, `${sim.url}/v1`);
			expect(v1).toMatchObject({
				status: 'Error',
				message: `The Base URL ends in /v1. Enter the service root without /v1 (e.g. ${sim.url}); the nodes add /v1 to every path themselves.`,
			});
			expect(sim.ledger.requests.length).toBe(sent);
			expect(new Set(sim.ledger.requests.slice(before + 1).map((q) => `${q.method} ${q.path}`))).toEqual(new Set(['GET /v1/credits']));
			expect(sim.ledger.charges).toHaveLength(0);
		}),
	);

	it(
		'imports every example unchanged (REST and CLI) and finds no parameter issues in any node',
		timed('import', async () => {
			// the instance's own n8n-workflow computes the issues the editor shows on a node
			const { NodeHelpers } = createRequire(path.join(n8n.install.dir, 'node_modules', 'n8n', 'package.json'))('n8n-workflow');
			const types = (await n8n.nodeTypes()) as Json[];
			const typeOf = (name: string, version: number) =>
				types.find((t) => t.name === name && (Array.isArray(t.version) ? t.version.includes(version) : t.version === version));
			const issues: Json = {};
			for (const file of EXAMPLE_FILES) {
				const wf = loadExample(file);
				const id = await importJson({ ...wf, name: `${wf.name} (as shipped)` });
				const saved = await n8n.getWorkflow(id);
				expect(saved.nodes).toHaveLength(wf.nodes.length);
				for (const node of saved.nodes as Json[]) {
					const type = typeOf(node.type, node.typeVersion);
					if (!type) {
						issues[`${file}: ${node.name}`] = `unknown type ${node.type}@${node.typeVersion}`;
						continue;
					}
					// the example's parameters are kept as written
					expect(node.parameters).toEqual(wf.nodes.find((n) => n.name === node.name)!.parameters);
					const parameters = NodeHelpers.getNodeParameters(type.properties, node.parameters, true, false, node, type);
					const found = NodeHelpers.getNodeParametersIssues(type.properties, { ...node, parameters }, type);
					if (found) issues[`${file}: ${node.name}`] = found;
				}
			}
			expect(issues).toEqual({});
			const viaCli = await n8n.importWorkflow({ ...loadExample('webhook-to-slack.json'), name: 'Deck request webhook (CLI import)' }, { via: 'cli' });
			workflows.push(viaCli);
			expect((await n8n.getWorkflow(viaCli)).nodes.map((n: Json) => n.type)).toEqual(expect.arrayContaining([DECK, WAIT]));
		}),
	);

	it(
		'weekly report: Schedule Trigger -> Create -> Wait (Download File) -> the deck is emailed, attached, with its link',
		timed('weekly', async () => {
			const id = await importPrepared('weekly-report.json');
			const exec = await n8n.runManually(id, { triggerNode: 'Every Monday 08:00', timeoutMs: 120_000 });
			const rd = exec.data.resultData.runData;
			expect({ status: exec.status, error: exec.data.resultData.error?.message }).toEqual({ status: 'success', error: undefined });
			const [created] = itemsOf(rd, 'Create Report Deck');
			expect(created).toMatchObject({ outcome: 'success', taskId: expect.stringMatching(/^tsk_/), idempotencyKey: expect.any(String) });
			const [done] = itemsOf(rd, 'Wait for Report', 0);
			expect(done).toMatchObject({ taskId: created.taskId, state: 'succeeded', outcome: 'completed', deckUrl: expect.stringContaining(created.taskId) });
			const [mail] = sink.of('sink', 'weekly-report/Email the deck');
			expect(mail.body).toMatchObject({ to: 'team@example.com', subject: expect.stringMatching(/^Weekly report deck, week \d{4}-\d{2}$/) });
			// the file, not its link: a link on the service's own origin asks for the API key
			expect(mail.body.text).not.toContain(done.deckUrl);
			await expectDeckAttached(mail.body, done);
			expect(sink.of('sink', 'weekly-report/Email: report needs attention')).toHaveLength(0);
			expect(sim.ledger.charges.filter((c) => c.taskId === created.taskId)).toHaveLength(1);
		}),
	);

	it(
		'materials: HTTP Request downloads a PDF -> Upload -> Create with its materialId (CLI execute --id)',
		timed('materials', async () => {
			const id = await importPrepared('materials.json', { 'Download PDF': { url: `${sink.url}/files/q3-results.pdf` } });
			const res = await n8n.executeViaCli(id, { timeoutMs: 180_000, env: { N8N_LOG_LEVEL: 'info' } });
			cliOutput.push(res.stdout, res.stderr);
			expect({ ok: res.ok, error: res.error }).toEqual({ ok: true, error: undefined });
			const rd = res.run.data.resultData.runData;
			const [uploaded] = itemsOf(rd, 'Upload Material');
			expect(uploaded).toMatchObject({ outcome: 'success', materialId: expect.any(String), filename: 'q3-results.pdf', contentType: 'application/pdf', size: sink.pdf.length });
			const created = itemsOf(rd, 'Create Deck');
			expect(created).toHaveLength(1);
			expect(created[0]).toMatchObject({ outcome: 'success', taskId: expect.stringMatching(/^tsk_/) });
			expect(sink.of('file', 'q3-results.pdf')).toHaveLength(1);
			// the deck request carried the material: the service accepted material_ids of this principal
			const posts = sim.ledger.requests.filter((q) => q.method === 'POST' && q.path === '/v1/materials');
			expect(posts.map((q) => q.status)).toContain(201);
			expect(sim.ledger.charges.filter((c) => c.taskId === created[0].taskId)).toHaveLength(1);
			const exec = await n8n.getExecution(res.executionId!);
			expect(exec.mode).toBe('cli');
		}),
	);

	it(
		'surcharge approval: Client Action (confirm_slide_surcharge) -> approval step -> Create confirmed at the approved price',
		timed('surcharge', async () => {
			const before = sim.ledger.charges.length;
			const id = await importPrepared('surcharge-approval.json');
			const exec = await n8n.runManually(id, { timeoutMs: 120_000 });
			const rd = exec.data.resultData.runData;
			expect({ status: exec.status, error: exec.data.resultData.error?.message }).toEqual({ status: 'success', error: undefined });

			// first Create: nothing bought, the item waits for a person on Client Action
			expect(itemsOf(rd, 'Create Deck', 0)).toHaveLength(0);
			const [refused] = itemsOf(rd, 'Create Deck', 2);
			const price = sim.control.prices();
			const surcharged = price.create + (24 - 15) * price.slideSurcharge;
			expect(refused).toMatchObject({ cta: 'confirm_slide_surcharge', credits: surcharged, request: { slide_count: 24, expected_credits: 10 } });
			expect(refused).not.toHaveProperty('taskId');
			// it reached the approval step (Slack send-and-wait, here the approving pass-through)
			const [toApprove] = itemsOf(rd, 'Surcharge to approve?', 0);
			expect(toApprove).toMatchObject({ cta: 'confirm_slide_surcharge', credits: surcharged });
			const [asked] = sink.of('approval', 'surcharge-approval/Ask for approval in Slack');
			expect(asked.body.channel).toBe('#deck-approvals');
			expect(asked.body.text).toContain(`costs ${surcharged} credits instead of 10`);
			expect(itemsOf(rd, 'Approved?', 0)).toHaveLength(1);

			// second Create: confirmed, at the approved price, bought once
			const [bought] = itemsOf(rd, 'Create Deck (surcharge approved)', 0);
			expect(bought).toMatchObject({ outcome: 'success', taskId: expect.stringMatching(/^tsk_/) });
			const charges = sim.ledger.charges.slice(before);
			expect(charges.map((c) => ({ taskId: c.taskId, credits: c.credits }))).toEqual([{ taskId: bought.taskId, credits: surcharged }]);
			const [done] = itemsOf(rd, 'Wait for Deck', 0);
			expect(done).toMatchObject({ taskId: bought.taskId, state: 'succeeded' });
			const [ready] = sink.of('sink', 'surcharge-approval/Slack: deck ready');
			// Slack's file upload takes a channel ID (issue 52.4): the example's placeholder, which a person replaces from the list
			expect(ready.body).toMatchObject({ channel: 'C0APPROVALS', initialComment: `:white_check_mark: "Annual review 2025" is ready (task ${done.taskId}).` });
			await expectDeckAttached(ready.body, done);
			expect(sink.of('sink', 'surcharge-approval/Slack: deck needs attention')).toHaveLength(0);
			expect(sink.of('sink', 'surcharge-approval/Slack: surcharge declined')).toHaveLength(0);
		}),
	);

	it(
		'webhook -> Slack: 403 without the Header Auth token; with it, 202 at once, the deck created, waited for and delivered; a redelivery buys nothing and delivers nothing again',
		timed('webhook', async () => {
			const id = await importPrepared('webhook-to-slack.json');
			await n8n.activate(id);
			const known = new Set<string>();
			const brief = {
				title: `Launch plan (${flavor})`,
				coreMessage: 'Why the new plan wins',
				audience: 'Sales team',
				slideCount: 8,
				requesterEmail: 'requester@example.com',
			};
			const deliveryId = `delivery-${flavor}-${Date.now()}`;
			// issue 49.7: the webhook spends, so it asks for its Header Auth token; without it nothing runs
			const charges0 = sim.ledger.charges.length;
			const stranger = await n8n.runWebhook({ path: 'deck-request', body: brief, headers: { 'x-delivery-id': `${deliveryId}-stranger` } });
			expect(stranger.status).toBe(403);
			const wrong = await n8n.runWebhook({ path: 'deck-request', body: brief, headers: { 'X-Webhook-Token': 'guessed', 'x-delivery-id': `${deliveryId}-stranger` } });
			expect(wrong.status).toBe(403);

			const first = await n8n.runWebhook({ path: 'deck-request', body: brief, headers: { ...WEBHOOK_AUTH_HEADERS, 'x-delivery-id': deliveryId } });
			expect(first.status).toBe(202);
			const [exec1] = await newExecutions(id, known, 1);
			known.add(String(exec1.id));
			expect({ status: exec1.status, mode: exec1.mode, error: exec1.data.resultData.error?.message }).toEqual({ status: 'success', mode: 'webhook', error: undefined });
			const rd1 = exec1.data.resultData.runData;
			const [created] = itemsOf(rd1, 'Create Deck');
			expect(created).toMatchObject({ outcome: 'success', taskId: expect.stringMatching(/^tsk_/), charge: 'charged', replayed: false });
			const [done] = itemsOf(rd1, 'Wait for Deck', 0);
			expect(done).toMatchObject({ taskId: created.taskId, state: 'succeeded', outcome: 'completed' });
			// Slack gets the file, not a link that asks for the API key, in the channel picked from the list (an ID, issue 52.4)
			const ready = sink.of('sink', 'webhook-to-slack/Slack: deck ready');
			expect(ready).toHaveLength(1);
			expect(ready[0].body).toMatchObject({ channel: 'C0DECKS0000', initialComment: `:white_check_mark: Your deck "${brief.title}" is ready (task ${created.taskId}).` });
			await expectDeckAttached(ready[0].body, done);
			// the requester's email carries the deck itself, as the Wait node downloaded it
			const [mailed] = sink.of('sink', 'webhook-to-slack/Email: deck ready');
			expect(mailed.body).toMatchObject({ to: brief.requesterEmail, subject: `Your deck "${brief.title}" is ready` });
			await expectDeckAttached(mailed.body, done);

			// the same delivery again (the sender did not see our 202): the service replays, and nothing is posted or mailed again (issue 52.5)
			const second = await n8n.runWebhook({ path: 'deck-request', body: brief, headers: { ...WEBHOOK_AUTH_HEADERS, 'x-delivery-id': deliveryId } });
			expect(second.status).toBe(202);
			const [exec2] = await newExecutions(id, known, 1);
			known.add(String(exec2.id));
			expect(exec2.status).toBe('success');
			const [again] = itemsOf(exec2.data.resultData.runData, 'Create Deck');
			expect(again).toMatchObject({ outcome: 'success', taskId: created.taskId, charge: 'replayed', replayed: true, idempotencyKey: created.idempotencyKey });
			expect(itemsOf(exec2.data.resultData.runData, 'Wait for Deck', 0)).toEqual([]);
			expect(sink.of('sink', 'webhook-to-slack/Slack: deck ready')).toHaveLength(1);
			expect(sink.of('sink', 'webhook-to-slack/Email: deck ready')).toHaveLength(1);
			const [notice] = sink.of('sink', 'webhook-to-slack/Slack: request delivered again');
			expect(notice.body).toMatchObject({ channel: '#decks', text: expect.stringContaining(`task ${created.taskId}, nothing charged`) });
			expect(sim.ledger.charges.filter((c) => c.taskId === created.taskId)).toHaveLength(1);

			// the delivery id may come in the body instead of the header
			const bodyDelivery = `${deliveryId}-body`;
			await n8n.runWebhook({ path: 'deck-request', body: { ...brief, deliveryId: bodyDelivery }, headers: WEBHOOK_AUTH_HEADERS });
			await n8n.runWebhook({ path: 'deck-request', body: { ...brief, deliveryId: bodyDelivery }, headers: WEBHOOK_AUTH_HEADERS });
			const both = await newExecutions(id, known, 2);
			for (const e of both) known.add(String(e.id));
			const outcomes = both.map((e) => ({
				status: e.status,
				error: e.data.resultData.error?.message,
				created: itemsOf(e.data.resultData.runData, 'Create Deck').map((c) => ({ taskId: c.taskId, outcome: c.outcome })),
				other: [1, 2].flatMap((o) => itemsOf(e.data.resultData.runData, 'Create Deck', o)),
			}));
			const taskId = outcomes[0].created[0]?.taskId;
			expect(taskId).toMatch(/^tsk_/);
			expect(taskId).not.toBe(created.taskId);
			expect(outcomes).toEqual([0, 1].map(() => ({ status: 'success', error: undefined, created: [{ taskId, outcome: 'success' }], other: [] })));
			expect(sim.ledger.charges.filter((c) => c.taskId === taskId)).toHaveLength(1);
			// the two strangers' requests bought nothing: two decks, two charges
			expect(sim.ledger.charges.length - charges0).toBe(2);
			await n8n.deactivate(id);
			r.webhookExecutions = 4;
		}),
	);

	it(
		'webhook -> Slack, issue 49.6: the same request delivered twice with other per-delivery headers (timestamp, trace id, signature) and no delivery id: one charge, the second says it is a replay',
		timed('webhookRedelivery', async () => {
			const id = await importPrepared('webhook-to-slack.json');
			await n8n.activate(id);
			const known = new Set<string>((await n8n.listExecutions({ workflowId: id })).map((e) => String(e.id)));
			const brief = { title: `Board update (${flavor}, ${Date.now()})`, coreMessage: 'The quarter in one page', audience: 'Board', slideCount: 6, requesterEmail: 'board@example.com' };
			const perDelivery = (attempt: number) => ({
				...WEBHOOK_AUTH_HEADERS,
				'x-request-start': String(Date.now() + attempt),
				traceparent: `00-${String(attempt).padStart(32, '0')}-00f067aa0ba902b7-01`,
				'x-signature': `sha256=${String(attempt).repeat(64).slice(0, 64)}`,
			});
			const charges0 = sim.ledger.charges.length;
			expect((await n8n.runWebhook({ path: 'deck-request', body: brief, headers: perDelivery(1) })).status).toBe(202);
			const [exec1] = await newExecutions(id, known, 1);
			known.add(String(exec1.id));
			expect((await n8n.runWebhook({ path: 'deck-request', body: brief, headers: perDelivery(2) })).status).toBe(202);
			const [exec2] = await newExecutions(id, known, 1);
			const [bought] = itemsOf(exec1.data.resultData.runData, 'Create Deck');
			const [replay] = itemsOf(exec2.data.resultData.runData, 'Create Deck');
			expect(bought).toMatchObject({ outcome: 'success', charge: 'charged', replayed: false });
			expect(replay).toMatchObject({ outcome: 'success', taskId: bought.taskId, charge: 'replayed', replayed: true, message: expect.stringMatching(/replay/i) });
			expect(sim.ledger.charges.length - charges0).toBe(1);
			expect(itemsOf(exec2.data.resultData.runData, 'Bought by an earlier delivery?', 0)).toHaveLength(1);
			await n8n.deactivate(id);
		}),
	);

	const noOp = (name: string, id: string) => ({ id, name, type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [600, 0], parameters: {} });
	const createNode = (name: string, id: string, cred: { id: string; name: string }, parameters: Json, node: Json = {}) => ({
		id,
		name,
		type: DECK,
		typeVersion: 1,
		position: [300, 0],
		parameters: { resource: 'deck', operation: 'create', expectedCredits: 10, title: 'Outputs test', additionalFields: {}, options: {}, ...parameters },
		credentials: { [CREDENTIAL_TYPE]: cred },
		...node,
	});
	const startNode = { id: 'c0000000-0000-4000-8000-000000000001', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} };

	it(
		'Split Outputs by CTA: the $parameter outputs expression gives 11 outputs at run time, a 402 top_up lands on Top Up',
		timed('splitOutputs', async () => {
			// a subscriber with no credits: Create ends on 402 top_up
			const broke = await n8n.createCredential({ name: 'Deck Generator (no credits)', type: CREDENTIAL_TYPE, data: { apiKey: sim.keys.broke, baseUrl: sim.url } });
			const wfId = await importJson({
				name: 'Split outputs (e2e)',
				nodes: [startNode, createNode('Create (split by cta)', 'c0000000-0000-4000-8000-000000000002', broke, { splitOutputsByCta: true }), noOp('Top Up', 'c0000000-0000-4000-8000-000000000003')],
				connections: {
					Start: { main: [[{ node: 'Create (split by cta)', type: 'main', index: 0 }]] },
					// Success, Unlock or Subscribe, Top Up (2), ...
					'Create (split by cta)': { main: [[], [], [{ node: 'Top Up', type: 'main', index: 0 }]] },
				},
				settings: { executionOrder: 'v1' },
			});
			const exec = await n8n.runManually(wfId, { timeoutMs: 120_000 });
			const rd = exec.data.resultData.runData;
			expect({ status: exec.status, error: exec.data.resultData.error?.message }).toEqual({ status: 'success', error: undefined });
			expect(rd['Create (split by cta)'][0].data.main).toHaveLength(11);
			expect(itemsOf(rd, 'Top Up')).toEqual([expect.objectContaining({ outcome: 'checkout', cta: 'top_up', message: expect.any(String) })]);
		}),
	);

	it(
		'node version 1.1: the outputs expression gives Get Credits only Success at run time, so the error output is the second',
		timed('outputsPerOperation', async () => {
			const wfId = await importJson({
				name: 'Outputs per operation (e2e)',
				nodes: [
					startNode,
					{
						id: 'c0000000-0000-4000-8000-000000000007',
						name: 'Get Credits',
						type: DECK,
						typeVersion: 1.1,
						position: [300, 0],
						parameters: { resource: 'account', operation: 'getCredits', options: {} },
						credentials: { [CREDENTIAL_TYPE]: credential },
						onError: 'continueErrorOutput',
					},
					noOp('Balance', 'c0000000-0000-4000-8000-000000000008'),
				],
				connections: {
					Start: { main: [[{ node: 'Get Credits', type: 'main', index: 0 }]] },
					'Get Credits': { main: [[{ node: 'Balance', type: 'main', index: 0 }], []] },
				},
				settings: { executionOrder: 'v1' },
			});
			const exec = await n8n.runManually(wfId, { timeoutMs: 120_000 });
			const rd = exec.data.resultData.runData;
			expect({ status: exec.status, error: exec.data.resultData.error?.message }).toEqual({ status: 'success', error: undefined });
			// Success, then n8n's error output: no Checkout or Client Action on an operation that cannot pay
			expect(rd['Get Credits'][0].data.main).toHaveLength(2);
			expect(itemsOf(rd, 'Balance')).toEqual([expect.objectContaining({ outcome: 'success' })]);
		}),
	);

	it(
		"reads a real service's record by the three paths a user sets (kie.ai: File Link Path through a JSON string) in Get Status, Download and both Wait modes",
		timed('readingPaths', async () => {
			// kie.ai's record: the word under data.state, the files only inside the JSON string data.resultJson
			const kie = await start({ seed: flavor === 'v2' ? 39 : 40, clock: { manual: true }, choices: { service: 'kieai' } });
			try {
				const finished = kie.control.seedDeck({ key: kie.keys.personal, durationMs: 60_000, outcome: 'succeeded' });
				const failed = kie.control.seedDeck({ key: kie.keys.personal, durationMs: 60_000, outcome: 'failed' });
				kie.control.advance(120_000);
				const kieCredential = await n8n.createCredential({ name: 'Deck Generator (kie.ai shape)', type: CREDENTIAL_TYPE, data: { apiKey: kie.keys.personal, baseUrl: kie.url } });
				// as a person copies them from the service's documentation: `data.` in front, a list entry inside the JSON string
				const paths = { statusWordPath: 'data.state', downloadLink: 'data.resultJson.resultUrls[1]', failureReasonPath: 'data.failCode' };
				const deckNode = (name: string, id: string, operation: string, y: number) => ({
					id, name, type: DECK, typeVersion: 1.1, position: [300, y],
					parameters: { resource: 'deck', operation, taskId: '={{ $json.taskId }}', options: paths },
					credentials: { [CREDENTIAL_TYPE]: kieCredential },
					onError: 'continueRegularOutput',
				});
				const waitNode = (name: string, id: string, mode: string, y: number) => ({
					id, name, type: WAIT, typeVersion: 1.1, position: [300, y],
					parameters: { mode, taskId: '={{ $json.taskId }}', options: { ...paths, downloadFile: true, pollIntervalSeconds: 0.05, maxWaitMinutes: 0.05 } },
					credentials: { [CREDENTIAL_TYPE]: kieCredential },
				});
				const fanOut = ['Get Status', 'Download', 'Check Once', 'Wait Until Done'].map((node) => ({ node, type: 'main', index: 0 }));
				const wfId = await importJson({
					name: 'Reading paths (e2e)',
					nodes: [
						startNode,
						{ id: 'd0000000-0000-4000-8000-000000000001', name: 'Decks', type: 'n8n-nodes-base.code', typeVersion: 2, position: [150, 0], parameters: { jsCode: `return [{ json: { taskId: '${finished}' } }, { json: { taskId: '${failed}' } }];` } },
						deckNode('Get Status', 'd0000000-0000-4000-8000-000000000002', 'getStatus', -200),
						deckNode('Download', 'd0000000-0000-4000-8000-000000000003', 'download', 0),
						waitNode('Check Once', 'd0000000-0000-4000-8000-000000000004', 'checkOnce', 200),
						waitNode('Wait Until Done', 'd0000000-0000-4000-8000-000000000005', 'waitUntilDone', 400),
					],
					connections: { Start: { main: [[{ node: 'Decks', type: 'main', index: 0 }]] }, Decks: { main: [fanOut] } },
					settings: { executionOrder: 'v1' },
				});
				const exec = await n8n.runManually(wfId, { timeoutMs: 120_000 });
				const rd = exec.data.resultData.runData;
				expect({ status: exec.status, error: exec.data.resultData.error?.message }).toEqual({ status: 'success', error: undefined });
				const [done, refused] = itemsOf(rd, 'Get Status');
				expect(done).toMatchObject({ taskId: finished, state: 'succeeded', statusWord: 'success', deckUrl: expect.stringMatching(/\.pdf$/) });
				expect(refused).toMatchObject({ taskId: failed, state: 'failed', failureReason: '501' });
				// the pdf at the path, by its bytes, in Download and in both Wait modes' Download File
				const binaryOf = (node: string, output: number) => rd[node][0].data.main[output][0].binary?.data;
				expect(itemsOf(rd, 'Download')[0]).toMatchObject({ taskId: finished, fileName: expect.stringMatching(/\.pdf$/), mimeType: 'application/pdf' });
				for (const node of ['Check Once', 'Wait Until Done']) {
					expect(itemsOf(rd, node, 0)).toEqual([expect.objectContaining({ taskId: finished, outcome: 'completed', deckUrl: done.deckUrl })]);
					expect(binaryOf(node, 0)).toMatchObject({ mimeType: 'application/pdf' });
					expect(itemsOf(rd, node, 1)).toEqual([expect.objectContaining({ taskId: failed, outcome: 'failed', detail: '501' })]);
				}
			} finally {
				await kie.close();
			}
		}),
	);

	it(
		'issue 43: with no path set, records two envelopes down (Cloudflare) and with no word at all (Remotion) read right in Get Status, Download and both Wait modes; a record it cannot read names the path to paste, and that path pasted reads it',
		timed('deepRecords', async () => {
			// each service with one finished and one failed deck, read by the built-in reading alone (no path options)
			const services = ['cloudflare', 'remotion'] as const;
			const sims: Simulator[] = [];
			try {
				const nodes: Json[] = [startNode];
				const connections: Json = { Start: { main: [[]] } };
				const decks: Record<string, { finished: string; failed: string }> = {};
				for (const [i, service] of services.entries()) {
					const sim = await start({ seed: (flavor === 'v2' ? 430 : 431) + i, clock: { manual: true }, choices: { service } });
					sims.push(sim);
					const finished = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 60_000, outcome: 'succeeded' });
					const failed = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 60_000, outcome: 'failed' });
					sim.control.advance(120_000);
					decks[service] = { finished, failed };
					const credential = await n8n.createCredential({ name: `Deck Generator (${service} shape)`, type: CREDENTIAL_TYPE, data: { apiKey: sim.keys.personal, baseUrl: sim.url } });
					const source = `${service} decks`;
					nodes.push({ id: `e4300000-0000-4000-8000-00000000000${i}`, name: source, type: 'n8n-nodes-base.code', typeVersion: 2, position: [150, i * 800], parameters: { jsCode: `return [{ json: { taskId: '${finished}' } }, { json: { taskId: '${failed}' } }];` } });
					connections.Start.main[0].push({ node: source, type: 'main', index: 0 });
					const readers = [
						{ name: `${service} Get Status`, type: DECK, parameters: { resource: 'deck', operation: 'getStatus', taskId: '={{ $json.taskId }}' }, onError: 'continueRegularOutput' },
						{ name: `${service} Download`, type: DECK, parameters: { resource: 'deck', operation: 'download', taskId: '={{ $json.taskId }}' }, onError: 'continueRegularOutput' },
						{ name: `${service} Check Once`, type: WAIT, parameters: { mode: 'checkOnce', taskId: '={{ $json.taskId }}', options: { downloadFile: true } } },
						{ name: `${service} Wait Until Done`, type: WAIT, parameters: { mode: 'waitUntilDone', taskId: '={{ $json.taskId }}', options: { downloadFile: true, pollIntervalSeconds: 0.05, maxWaitMinutes: 0.05 } } },
					];
					connections[source] = { main: [readers.map((r) => ({ node: r.name, type: 'main', index: 0 }))] };
					readers.forEach((r, j) => nodes.push({ id: `e4300000-0000-4000-8000-0000000001${i}${j}`, typeVersion: 1.1, position: [300, i * 800 + j * 200], credentials: { [CREDENTIAL_TYPE]: credential }, ...r }));
				}
				// a record the built-in reading cannot read: no status word where it looks, the reference profile's words
				// under `result.main.stage` (no state member's name, inside a result member); then the path pasted
				const words = PROFILES.reference.statusWords;
				const unreadable = await start({ seed: flavor === 'v2' ? 432 : 433, clock: { manual: true }, choices: { omitStatusWord: true, statusExtras: (deck) => ({ result: { main: { stage: words[deck.phase] } } }) } });
				sims.push(unreadable);
				const running = unreadable.control.seedDeck({ key: unreadable.keys.personal, durationMs: 30 * 60_000 });
				unreadable.control.advance(10 * 60_000);
				unreadable.control.holdDeck(running, true);
				const unreadableCredential = await n8n.createCredential({ name: 'Deck Generator (a record to read)', type: CREDENTIAL_TYPE, data: { apiKey: unreadable.keys.personal, baseUrl: unreadable.url } });
				const getStatus = (name: string, id: string, y: number, options: Json) => ({ id, name, type: DECK, typeVersion: 1.1, position: [300, y], parameters: { resource: 'deck', operation: 'getStatus', taskId: '={{ $json.taskId }}', options }, credentials: { [CREDENTIAL_TYPE]: unreadableCredential } });
				nodes.push(
					{ id: 'e4300000-0000-4000-8000-000000000009', name: 'Unreadable deck', type: 'n8n-nodes-base.code', typeVersion: 2, position: [150, 1600], parameters: { jsCode: `return [{ json: { taskId: '${running}' } }];` } },
					getStatus('Unreadable Get Status', 'e4300000-0000-4000-8000-000000000209', 1600, {}),
					getStatus('Pasted Get Status', 'e4300000-0000-4000-8000-000000000210', 1800, { statusWordPath: 'result.main.stage' }),
				);
				connections.Start.main[0].push({ node: 'Unreadable deck', type: 'main', index: 0 });
				connections['Unreadable deck'] = { main: [['Unreadable Get Status', 'Pasted Get Status'].map((node) => ({ node, type: 'main', index: 0 }))] };
				const wfId = await importJson({ name: 'Deep records (e2e)', nodes, connections, settings: { executionOrder: 'v1' } });
				const exec = await n8n.runManually(wfId, { timeoutMs: 120_000 });
				const rd = exec.data.resultData.runData;
				expect({ status: exec.status, error: exec.data.resultData.error?.message }).toEqual({ status: 'success', error: undefined });
				for (const service of services) {
					const { finished, failed } = decks[service];
					// Cloudflare's failed variant says `error` with no reason (a word that may be a stage: issue 50, point 5):
					// one read says running and names the word to confirm; a later read fails it. Remotion's failure has its reason.
					const bareWord = service === 'cloudflare';
					const [done, refused] = itemsOf(rd, `${service} Get Status`);
					expect(done).toMatchObject({ taskId: finished, state: 'succeeded', deckUrl: expect.stringMatching(/^https?:/) });
					expect(refused).toMatchObject(bareWord ? { taskId: failed, state: 'running', failureToConfirm: 'error' } : { taskId: failed, state: 'failed' });
					const [file, notFile] = itemsOf(rd, `${service} Download`);
					expect(file).toMatchObject({ taskId: finished, mimeType: expect.stringMatching(/presentation/) });
					// a failed deck says what its record said, never an empty word; one to confirm is not finished, no file
					expect(JSON.stringify(notFile.error)).toMatch(bareWord ? /not finished/ : /failed/);
					expect(JSON.stringify(notFile)).not.toContain('status \\"\\"');
					for (const node of [`${service} Check Once`, `${service} Wait Until Done`]) {
						expect(itemsOf(rd, node, 0)).toEqual([expect.objectContaining({ taskId: finished, outcome: 'completed', deckUrl: done.deckUrl })]);
						expect(rd[node][0].data.main[0][0].binary?.data).toBeDefined();
						if (bareWord && node.endsWith('Check Once')) {
							// Check Once reads once: Still Running, with the word for the loop's next check to confirm
							expect(itemsOf(rd, node, 2)).toEqual([expect.objectContaining({ taskId: failed, failureToConfirm: 'error' })]);
							continue;
						}
						expect(itemsOf(rd, node, 1)).toEqual([expect.objectContaining({ taskId: failed, outcome: 'failed' })]);
						expect(JSON.stringify(itemsOf(rd, node, 1))).not.toContain('status \\"\\"');
					}
				}
				// Remotion's failure is read from its flag and its errors, and says so
				expect(String(itemsOf(rd, 'remotion Wait Until Done', 1)[0].error ?? '')).toMatch(/no status word; failure read from/);
				// the record it cannot read (state unknown) names, at the first read, the path to paste and its value;
				// that path set, the same record reads as running and nothing more is suggested
				const suggestion = 'Status Word Path `result.main.stage` is "generating"';
				const [unread] = itemsOf(rd, 'Unreadable Get Status');
				expect(unread).toMatchObject({ taskId: running, state: 'unknown', statusNote: expect.stringContaining(`To read this record, set one of these in the options: ${suggestion}`) });
				const [pasted] = itemsOf(rd, 'Pasted Get Status');
				expect(pasted).toMatchObject({ taskId: running, state: 'running', statusWord: 'generating' });
				expect(String(pasted.statusNote ?? '')).not.toContain('set one of these');
				r.deepRecords = { services: [...services], unreadableNote: String(unread.statusNote).slice(0, 300) };
			} finally {
				for (const sim of sims) await sim.close();
			}
		}),
	);

	// n8n 1.123 moves an item to the error output only when its json is exactly { error } or
	// { error, message } (2.x also allows details): our error items are { error: {facts}, message }.
	it(
		"On Error -> continue (using error output): a 422 item lands on n8n's error output, after our three",
		timed('errorOutput', async () => {
			const wfId = await importJson({
				name: 'Error output (e2e)',
				nodes: [
					startNode,
					createNode('Create (error output)', 'c0000000-0000-4000-8000-000000000004', credential, { additionalFields: { slideCount: 500 } }, { onError: 'continueErrorOutput' }),
					noOp('Fix the brief', 'c0000000-0000-4000-8000-000000000005'),
					noOp('Deck bought', 'c0000000-0000-4000-8000-000000000006'),
				],
				connections: {
					Start: { main: [[{ node: 'Create (error output)', type: 'main', index: 0 }]] },
					// Success, Checkout, Client Action, then n8n's Error (3)
					'Create (error output)': { main: [[{ node: 'Deck bought', type: 'main', index: 0 }], [], [], [{ node: 'Fix the brief', type: 'main', index: 0 }]] },
				},
				settings: { executionOrder: 'v1' },
			});
			const exec = await n8n.runManually(wfId, { timeoutMs: 120_000 });
			const rd = exec.data.resultData.runData;
			expect({ status: exec.status, error: exec.data.resultData.error?.message }).toEqual({ status: 'success', error: undefined });
			expect(rd['Create (error output)'][0].data.main).toHaveLength(4);
			expect(itemsOf(rd, 'Deck bought')).toEqual([]);
			expect(itemsOf(rd, 'Fix the brief')).toEqual([
				expect.objectContaining({
					// the service said slide_count; the item names the form's label
					error: expect.objectContaining({ message: expect.stringMatching(/Slide Count.*422/), code: 'validation_failed' }),
					message: expect.stringMatching(/Fix these fields: Slide Count/),
				}),
			]);
		}),
	);

	/** Manual Trigger -> 3 briefs -> Create (one at a time) -> Success -> POST to a downstream system. */
	const retryWorkflow = (label: string): WorkflowJson => ({
		name: `Retry ${label} (e2e)`,
		nodes: [
			{ id: 'b0000000-0000-4000-8000-000000000001', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
			{
				id: 'b0000000-0000-4000-8000-000000000002',
				name: 'Briefs',
				type: 'n8n-nodes-base.code',
				typeVersion: 2,
				position: [220, 0],
				parameters: {
					jsCode: `return ['A', 'B', 'C'].map((x) => ({ json: { title: '${label} deck ' + x, coreMessage: 'Retry test ' + x } }));`,
				},
			},
			{
				id: 'b0000000-0000-4000-8000-000000000003',
				name: 'Create Deck',
				type: DECK,
				typeVersion: 1,
				position: [440, 0],
				parameters: {
					resource: 'deck',
					operation: 'create',
					expectedCredits: 10,
					title: '={{ $json.title }}',
					coreMessage: '={{ $json.coreMessage }}',
					additionalFields: {},
					options: { concurrency: 1 },
				},
				credentials: { [CREDENTIAL_TYPE]: credential },
			},
			{
				id: 'b0000000-0000-4000-8000-000000000004',
				name: 'Notify CRM',
				type: 'n8n-nodes-base.httpRequest',
				typeVersion: 4.2,
				position: [660, 0],
				parameters: {
					method: 'POST',
					url: `${sink.url}/flaky/crm`,
					sendBody: true,
					specifyBody: 'keypair',
					bodyParameters: { parameters: [{ name: 'taskId', value: '={{ $json.taskId }}' }] },
					options: {},
				},
			},
		],
		connections: {
			Start: { main: [[{ node: 'Briefs', type: 'main', index: 0 }]] },
			Briefs: { main: [[{ node: 'Create Deck', type: 'main', index: 0 }]] },
			'Create Deck': { main: [[{ node: 'Notify CRM', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	});

	for (const loadWorkflow of [false, true]) {
		it(
			`retry from the executions list (loadWorkflow ${loadWorkflow}) after Create failed for one item: one charge per deck`,
			timed(`retryCreate${loadWorkflow ? 'Load' : 'Snapshot'}`, async () => {
				const id = await importJson(retryWorkflow(`create-fails-${loadWorkflow}`));
				const before = sim.ledger.charges.length;
				// items A and B are bought; C meets a 500 twice (retried once) and fails the node
				sim.control.setFaults([
					{ method: 'POST', path: '/v1/decks', kind: 'latency', latencyMs: 1, times: 2 },
					{ method: 'POST', path: '/v1/decks', kind: 'status500', times: 2 },
				]);
				const failed = await n8n.runManually(id, { timeoutMs: 120_000 });
				sim.control.setFaults([]);
				expect(failed.status).toBe('error');
				const error = failed.data.resultData.error;
				expect(error?.node?.name ?? failed.data.resultData.lastNodeExecuted).toBe('Create Deck');
				const boughtFirst = sim.ledger.charges.slice(before);
				expect(boughtFirst).toHaveLength(2);
				// the error names the decks the run bought
				for (const c of boughtFirst) expect(error.description).toContain(c.taskId);

				const retried = await n8n.retryExecution(String(failed.id), { loadWorkflow });
				const exec = retried.execution!;
				expect({ status: exec.status, mode: exec.mode, retryOf: String(exec.retryOf), error: exec.data.resultData.error?.message }).toEqual({
					status: 'success',
					mode: 'retry',
					retryOf: String(failed.id),
					error: undefined,
				});
				const created = itemsOf(exec.data.resultData.runData, 'Create Deck');
				expect(created).toHaveLength(3);
				// A and B replayed the original purchases (same taskIds), C bought now
				expect(created.slice(0, 2).map((c) => ({ taskId: c.taskId, replayed: c.replayed }))).toEqual(boughtFirst.map((c) => ({ taskId: c.taskId, replayed: true })));
				expect(created[2]).toMatchObject({ outcome: 'success', taskId: expect.stringMatching(/^tsk_/) });
				expect(created[2]).toMatchObject({ charge: 'charged', replayed: false });
				const all = sim.ledger.charges.slice(before);
				expect(all).toHaveLength(3);
				expect(new Set(all.map((c) => c.taskId))).toEqual(new Set(created.map((c) => c.taskId)));
				expect(itemsOf(exec.data.resultData.runData, 'Notify CRM')).toHaveLength(3);
			}),
		);
	}

	it(
		'retry from the executions list after a later node failed (loadWorkflow false, then true): no new charge, same taskIds',
		timed('retryDownstream', async () => {
			const id = await importJson(retryWorkflow('downstream-fails'));
			const before = sim.ledger.charges.length;
			sink.flaky.failing = true;
			const failed = await n8n.runManually(id, { timeoutMs: 120_000 });
			expect(failed.status).toBe('error');
			expect(failed.data.resultData.lastNodeExecuted).toBe('Notify CRM');
			const bought = itemsOf(failed.data.resultData.runData, 'Create Deck');
			expect(bought).toHaveLength(3);
			expect(sim.ledger.charges.slice(before)).toHaveLength(3);

			// still failing downstream: the retry fails again, and buys nothing
			const stillFailing = await n8n.retryExecution(String(failed.id), { loadWorkflow: false });
			expect(stillFailing.execution?.status).toBe('error');
			expect(sim.ledger.charges.slice(before)).toHaveLength(3);

			sink.flaky.failing = false;
			for (const loadWorkflow of [false, true]) {
				const { execution } = await n8n.retryExecution(String(failed.id), { loadWorkflow });
				expect(execution?.status).toBe('success');
				expect(itemsOf(execution!.data.resultData.runData, 'Create Deck').map((c) => c.taskId)).toEqual(bought.map((c) => c.taskId));
				expect(itemsOf(execution!.data.resultData.runData, 'Notify CRM')).toHaveLength(3);
			}
			expect(sim.ledger.charges.slice(before)).toHaveLength(3);
		}),
	);

	it(
		'issue 42: Create → Wait Until Done against a service whose reads lag and that loses an answer after buying: every deck Completed, charged once, and each item says what it cost',
		timed('justBought', async () => {
			const wf: WorkflowJson = {
				name: 'Just bought, not visible yet (e2e)',
				nodes: [
					{ id: 'c0000000-0000-4000-8000-000000000001', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
					{
						id: 'c0000000-0000-4000-8000-000000000002',
						name: 'Briefs',
						type: 'n8n-nodes-base.code',
						typeVersion: 2,
						position: [220, 0],
						parameters: { jsCode: `return ['A', 'B', 'C'].map((x) => ({ json: { title: 'Lagging deck ' + x + ' ${flavor}', coreMessage: 'Replica lag ' + x } }));` },
					},
					{
						id: 'c0000000-0000-4000-8000-000000000003',
						name: 'Create Deck',
						type: DECK,
						typeVersion: 1.1,
						position: [440, 0],
						parameters: { resource: 'deck', operation: 'create', expectedCredits: 10, title: '={{ $json.title }}', coreMessage: '={{ $json.coreMessage }}', options: { concurrency: 1 } },
						credentials: { [CREDENTIAL_TYPE]: credential },
					},
					{
						id: 'c0000000-0000-4000-8000-000000000004',
						name: 'Wait for Deck',
						type: WAIT,
						typeVersion: 1.1,
						position: [660, 0],
						// a loopback Base URL may be polled faster than the contract's 5 s
						parameters: { mode: 'waitUntilDone', options: { pollIntervalSeconds: 0.05, maxWaitMinutes: 2 } },
						credentials: { [CREDENTIAL_TYPE]: credential },
					},
				],
				connections: {
					Start: { main: [[{ node: 'Briefs', type: 'main', index: 0 }]] },
					Briefs: { main: [[{ node: 'Create Deck', type: 'main', index: 0 }]] },
					'Create Deck': { main: [[{ node: 'Wait for Deck', type: 'main', index: 0 }]] },
				},
				settings: { executionOrder: 'v1' },
			};
			const id = await importJson(wf);
			const before = sim.ledger.charges.length;
			// every deck answers 404 to its first five status reads; the first purchase's answer is dropped after it was charged
			sim.control.setReadLag({ reads: 5 });
			sim.control.setFaults([{ method: 'POST', path: '/v1/decks', kind: 'drop-after-commit', times: 1 }]);
			try {
				const exec = await n8n.runManually(id, { timeoutMs: 120_000 });
				expect(exec.status).toBe('success');
				const runData = exec.data.resultData.runData;
				const created = itemsOf(runData, 'Create Deck');
				expect(created.map((c) => c.charge)).toEqual(['charged_or_replayed', 'charged', 'charged']);
				expect(created[0].message).toMatch(/^Charged once \(10 credits\): this run's first attempt got no answer/);
				expect(created.every((c) => c.replayed === false && c.purchase?.taskId === c.taskId)).toBe(true);
				const completed = itemsOf(runData, 'Wait for Deck', 0);
				expect(itemsOf(runData, 'Wait for Deck', 1)).toEqual([]);
				expect(completed.map((c) => c.taskId)).toEqual(created.map((c) => c.taskId));
				const charges = sim.ledger.charges.slice(before);
				expect(charges.map((c) => c.taskId).sort()).toEqual(created.map((c) => c.taskId).sort());
				for (const deck of created) {
					const reads = sim.ledger.requests.filter((q) => q.path === `/v1/decks/${deck.taskId}/status`).map((q) => q.status);
					expect(reads.slice(0, 5)).toEqual([404, 404, 404, 404, 404]);
				}
				r.justBought = { decks: created.length, charges: charges.length };
			} finally {
				sim.control.setReadLag(undefined);
				sim.control.setFaults([]);
			}
		}),
	);

	it(
		'the API key is nowhere: n8n output (server and CLI), user folder (database included), saved executions and workflows',
		timed('secrecy', async () => {
			expect(apiKey).toMatch(/^dg_live_/);
			// the key did reach the service (so there was something to leak)
			expect(sim.ledger.requests.length).toBeGreaterThan(0);
			const leaks: string[] = [];
			if (n8n.logs.includes(apiKey)) leaks.push('n8n output');
			if (cliOutput.some((o) => o.includes(apiKey))) leaks.push('n8n execute (CLI) output');
			const walk = (dir: string) => {
				for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
					const p = path.join(dir, e.name);
					if (e.isDirectory()) {
						if (p.endsWith(path.join('.n8n', 'nodes'))) continue; // the installed package itself
						walk(p);
					} else if (e.isFile() && fs.readFileSync(p).includes(apiKey)) leaks.push(path.relative(n8n.userFolder, p));
				}
			};
			walk(n8n.userFolder);
			const executions = await n8n.listExecutions({ limit: 100 });
			expect(executions.length).toBeGreaterThanOrEqual(10);
			for (const e of executions) {
				const raw = JSON.stringify(await n8n.rest.request('GET', `/rest/executions/${e.id}`, undefined, { raw: true }));
				if (raw.includes(apiKey)) leaks.push(`execution ${e.id}`);
			}
			for (const id of workflows) {
				if (JSON.stringify(await n8n.getWorkflow(id)).includes(apiKey)) leaks.push(`workflow ${id}`);
			}
			expect(leaks).toEqual([]);
			r.secrecyScanned = { executions: executions.length, workflows: workflows.length };
		}),
	);
});
