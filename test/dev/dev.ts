/**
 * Body of `npm run dev` (the caller builds the package first): a real n8n in the browser with our
 * built package installed the way a user's n8n installs it, wired to the reference simulator, every
 * example workflow imported and runnable as it is.
 *
 *   npm run dev [-- --port 5678 --sim-port 4010 --speed 60 --seed 1 --flavor v2|v1 --user-folder DIR
 *                   --examples DIR --wait-cap 20 --as-shipped --verbose]
 *   (`npm run dev --port 5679` works too: npm keeps that flag for itself, so its value is read back here)
 *
 * 1. ensures the pinned n8n is installed (cached in ~/.cache/n8n-nodes-deckgen, see test/e2e/n8n-install.ts)
 * 2. starts the simulator (test/simulator), a stand-in for Slack and email (test/e2e/fixtures/sink.ts) and
 *    a mail server (test/e2e/fixtures/smtp.ts, for n8n's email review of an AI agent's purchases) on 127.0.0.1
 * 3. starts n8n on 127.0.0.1 with this repository's built package (package.json + dist/) installed as a
 *    community package, owner account set up
 * 4. creates a `deckGenApi` credential { apiKey: personal demo key, baseUrl: simulator }
 * 5. imports every test/workflows/examples/*.json (or --examples DIR) runnable, the way the e2e runs them
 *    (test/e2e/fixtures/examples.ts): the Deck Generator credential bound to the simulator, Slack and Send
 *    Email nodes swapped for HTTP Request nodes posting to the stand-in (which prints what would have been
 *    sent), Slack's send-and-wait approving at once, a sample PDF URL served by the stand-in, n8n Wait nodes
 *    cut to --wait-cap seconds; workflows that start from a Webhook are published; an email review (the AI
 *    agent example) sends to the mail server, which prints each mail with its Approve and Decline links (the
 *    agent's chat model is the person's own: its OpenAI credential is left to pick). --as-shipped imports
 *    the files unchanged instead (real Slack/email nodes, their credentials to pick).
 * 6. prints the editor URL, the login, how to run each example and the demo keys, and stays up until Ctrl-C
 *
 * By default n8n's user folder is a fresh temp folder removed on exit; --user-folder keeps one
 * between runs (workflows already there by name are not imported again).
 */
import { randomBytes } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { ensureWebhookAuth, prepareExample, WEBHOOK_AUTH_HEADERS } from '../e2e/fixtures/examples';
import { bindJournalTable, ensureJournalTable, sweeperDeadlinePatch, type JournalTable } from '../e2e/fixtures/journal';
import { startSink, type Sink, type SinkRecord } from '../e2e/fixtures/sink';
import { startSmtp, type Mail, type Smtp } from '../e2e/fixtures/smtp';
import { ensureN8n, Flavor } from '../e2e/n8n-install';
import { N8nInstance, startN8n, WorkflowJson } from '../e2e/n8n-instance';
import { DEMO_KEY_DESCRIPTIONS, start, type Simulator } from '../simulator';
import { journalRow, purchaseLogLine, purchaseRecord, type PurchaseRecord } from '../../nodes/shared/purchaseRecord';

const REPO = path.resolve(__dirname, '..', '..');
const DEFAULT_EXAMPLES = path.join(REPO, 'test', 'workflows', 'examples');
const CREDENTIAL_TYPE = 'deckGenApi';

export interface DevArgs {
	port: number;
	simPort: number;
	speed: number;
	seed: number;
	flavor: Flavor;
	userFolder?: string;
	examples: string;
	verbose: boolean;
	/** import the examples unchanged (real Slack and email nodes) instead of runnable with the stand-ins */
	asShipped: boolean;
	/** the longest an n8n Wait node of an example waits here, seconds (the at-scale loop's 5 minutes) */
	waitCapSeconds: number;
	/** the Deck Generator Wait node's Poll Interval here, seconds (honoured on the loopback simulator) */
	pollSeconds: number;
}

export const DEFAULT_ARGS: DevArgs = {
	port: 5678,
	simPort: 4010,
	speed: 60,
	seed: 1,
	flavor: 'v2',
	examples: DEFAULT_EXAMPLES,
	verbose: false,
	asShipped: false,
	waitCapSeconds: 20,
	pollSeconds: 1,
};

const USAGE =
	'usage: npm run dev [-- --port 5678 --sim-port 4010 --speed 60 --seed 1 --flavor v2|v1 --user-folder DIR --examples DIR --wait-cap 20 --as-shipped --verbose]';

function portNumber(flag: string, v: string): number {
	const n = Number(v);
	if (!Number.isInteger(n) || n < 1 || n > 65535) throw new Error(`${flag} must be a port number (1-65535), not "${v}"`);
	return n;
}

/**
 * The command line, and `env` for npm's own reading of `npm run dev --port 5679`: npm takes `--port` as one of
 * its settings (npm_config_port, "true" when the value came as the next word, which then reaches us as a lone
 * argument; the value itself with `--port=5679`).
 */
export function parseArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): DevArgs {
	const a: DevArgs = { ...DEFAULT_ARGS };
	const npmPort = env.npm_config_port;
	let portGiven = false;
	for (let i = 0; i < argv.length; i++) {
		const [flag, inline] = argv[i].split('=', 2);
		const value = () => {
			const v = inline ?? argv[++i];
			if (v === undefined) throw new Error(`${flag} needs a value`);
			return v;
		};
		if (flag === '--port') {
			a.port = portNumber('--port', value());
			portGiven = true;
		} else if (flag === '--sim-port') a.simPort = portNumber('--sim-port', value());
		else if (flag === '--speed') a.speed = Number(value());
		else if (flag === '--seed') a.seed = Number(value());
		else if (flag === '--flavor') a.flavor = value() as Flavor;
		else if (flag === '--user-folder') a.userFolder = path.resolve(value());
		else if (flag === '--examples') a.examples = path.resolve(value());
		else if (flag === '--wait-cap') a.waitCapSeconds = Number(value());
		else if (flag === '--as-shipped') a.asShipped = true;
		else if (flag === '--verbose' || flag === '-v') a.verbose = true;
		else if (flag === '--help' || flag === '-h') {
			console.log(USAGE);
			process.exit(0);
		} else if (npmPort === 'true' && !portGiven && /^\d+$/.test(argv[i])) {
			a.port = portNumber('--port', argv[i]);
			portGiven = true;
		} else throw new Error(`unknown argument ${argv[i]} (try --help)`);
	}
	if (!portGiven && npmPort && npmPort !== 'true') a.port = portNumber('--port', npmPort);
	if (a.flavor !== 'v2' && a.flavor !== 'v1') throw new Error(`--flavor must be v2 or v1, not ${a.flavor}`);
	if (!(a.waitCapSeconds > 0)) throw new Error(`--wait-cap must be a number of seconds above 0, not ${a.waitCapSeconds}`);
	return a;
}

/** Point every deckGenApi credential reference at the credential we created. */
export function bindCredential(wf: WorkflowJson, cred: { id: string; name: string }): WorkflowJson {
	return {
		...wf,
		nodes: wf.nodes.map((n) => (n.credentials && n.credentials[CREDENTIAL_TYPE] ? { ...n, credentials: { ...n.credentials, [CREDENTIAL_TYPE]: { id: cred.id, name: cred.name } } } : n)),
	};
}

const UNIT_SECONDS: Record<string, number> = { seconds: 1, minutes: 60, hours: 3600, days: 86400 };

/** A purchase that never reached the simulator (sending it buys it, once), as a recovery example would find it. */
function samplePurchase(title: string, keyPrefix: string): PurchaseRecord {
	const body = { audience: 'Sales team', core_message: 'Why the new plan wins', expected_credits: 10, title };
	return purchaseRecord(
		{ method: 'POST', path: '/v1/decks', idempotencyKey: `${keyPrefix}-${randomBytes(6).toString('hex')}`, body },
		{ operation: 'deck.create', workflowId: 'dev', executionId: '1', node: 'Create Deck', item: 0 },
	);
}

/**
 * A line as n8n's log has it before a purchase is sent (nodes/shared/purchaseRecord.ts), for the recovery
 * example to run on here: a purchase that never reached the simulator, so recovering it buys it once.
 */
export function sampleLoggedPurchase(): string {
	return purchaseLogLine(samplePurchase('Launch plan (recovered)', 'dev-recovery'));
}

/**
 * A row of the purchase journal whose execution was lost before it sent the purchase (issue 44), for the
 * sweeper example to find here: it buys that deck, once, and delivers it.
 */
export function sampleJournalRow(): Record<string, unknown> {
	return { ...journalRow(samplePurchase('Launch plan (swept)', 'dev-sweep')) };
}

/**
 * What an example needs besides the stand-ins to run here, per node: a PDF fetched from a sample URL is
 * fetched from the stand-in instead (same file name), an n8n Wait node waits at most `waitCapSeconds`,
 * so does the sweeper's deadline (a journal row not changed for 60 minutes), and the recovery example's
 * empty *Paste logged lines* gets a sample line.
 */
export function devPatch(wf: WorkflowJson, sinkUrl: string, waitCapSeconds: number): Record<string, Record<string, unknown>> {
	const patch: Record<string, Record<string, unknown>> = { ...sweeperDeadlinePatch(wf, waitCapSeconds) };
	for (const node of wf.nodes) {
		const p = node.parameters ?? {};
		const pasted = (p.assignments as { assignments?: Array<{ name: string; value: unknown }> } | undefined)?.assignments;
		if (node.type === 'n8n-nodes-base.set' && pasted?.length === 1 && pasted[0].name === 'lines' && pasted[0].value === '') {
			patch[node.name] = { assignments: { assignments: [{ ...pasted[0], value: sampleLoggedPurchase() }] } };
		}
		if (node.type === 'n8n-nodes-base.httpRequest' && typeof p.url === 'string' && !p.url.startsWith('=') && /\.pdf$/i.test(new URL(p.url).pathname)) {
			patch[node.name] = { url: `${sinkUrl}/files/${path.posix.basename(new URL(p.url).pathname)}` };
		}
		if (node.type === 'n8n-nodes-base.wait' && p.resume === 'timeInterval') {
			const seconds = Number(p.amount ?? 1) * (UNIT_SECONDS[String(p.unit ?? 'hours')] ?? 3600);
			if (seconds > waitCapSeconds) patch[node.name] = { amount: waitCapSeconds, unit: 'seconds' };
		}
	}
	return patch;
}

/** What a review mail says and where its buttons lead, as the reviewer would read it. */
export function describeMail(mail: Mail): string {
	const links = mail.links.map((l) => `\n           ${l.label}: ${l.url}`).join('');
	return `[stand-in] mail to ${mail.to.join(', ')}, "${mail.subject}"\n           ${mail.text.split('\n').slice(0, 12).join('\n           ')}${links}`;
}

/** One line for what an example sent to the stand-in, as Slack or the mailbox would have received it. */
export function describeRecord(r: SinkRecord): string {
	const b = (r.body ?? {}) as Record<string, any>;
	const files = ((b.attachments ?? []) as Array<{ filename?: string; data: Buffer }>)
		.map((a) => ` + ${a.filename ?? 'file'} (${Math.max(1, Math.round(a.data.length / 1024))} KB)`)
		.join('');
	const oneLine = (v: unknown) => String(v ?? '').replace(/\s*\n\s*/g, ' / ').slice(0, 160);
	if (r.kind === 'file') return `[stand-in] served the sample file ${r.name}`;
	if (r.kind === 'approval') return `[stand-in] ${r.name}: Slack ${b.channel} asked "${oneLine(b.text)}" -> answered Approve`;
	if (b.to !== undefined) return `[stand-in] ${r.name}: email to ${b.to}, "${oneLine(b.subject)}"${files}`;
	if (b.initialComment !== undefined) return `[stand-in] ${r.name}: Slack ${b.channel} file upload "${oneLine(b.initialComment)}"${files}`;
	return `[stand-in] ${r.name}: Slack ${b.channel}: ${oneLine(b.text)}`;
}

export interface DevWorkflow {
	file: string;
	name: string;
	id: string;
	/** already in the user folder by name (not imported again) */
	existed: boolean;
	/** published (webhook examples, runnable imports only) */
	active: boolean;
	/** the paths its Webhook nodes listen on */
	webhookPaths: string[];
	/** the paths its MCP Server Triggers listen on (`/mcp/<path>`, Bearer Auth with the session's `mcpToken`) */
	mcpPaths: string[];
	/** the paths its Form Triggers listen on (`/form/<path>`) */
	formPaths: string[];
	/** it starts from a Chat Trigger (the AI agent example: runs with the person's own chat model) */
	chat: boolean;
}

export interface DevSession {
	args: DevArgs;
	n8n: N8nInstance;
	sim: Simulator;
	sink: Sink;
	/** the mail server an email review sends to (the SMTP credential the examples' reviews are bound to) */
	smtp: Smtp;
	credential: { id: string; name: string };
	/** the purchase journal's Data Table (issue 44), with one sample row for the sweeper example */
	journal: JournalTable;
	workflows: DevWorkflow[];
	/** the token of the Bearer Auth credential bound to the MCP Server Triggers */
	mcpToken: string;
	stop(): Promise<void>;
}

const MCP_TRIGGER = '@n8n/n8n-nodes-langchain.mcpTrigger';
const FORM_TRIGGER = 'n8n-nodes-base.formTrigger';
const CHAT_TRIGGER = '@n8n/n8n-nodes-langchain.chatTrigger';

/**
 * Points every credential reference of these types at the one dev created: Bearer Auth (an MCP Server
 * Trigger's), SMTP (an email review's; the Send Email nodes become HTTP Requests to the stand-in), Header
 * Auth (a Webhook's).
 */
function bindCredentials(wf: WorkflowJson, made: Record<string, { id: string; name: string }>): WorkflowJson {
	return {
		...wf,
		nodes: wf.nodes.map((n) => {
			const types = Object.keys(n.credentials ?? {}).filter((type) => made[type]);
			if (!types.length) return n;
			return { ...n, credentials: { ...n.credentials, ...Object.fromEntries(types.map((type) => [type, { id: made[type].id, name: made[type].name }])) } };
		}),
	};
}

async function importExamples(
	n8n: N8nInstance,
	args: DevArgs,
	sink: Sink,
	cred: { id: string; name: string },
	made: Record<string, { id: string; name: string }>,
	journal: JournalTable,
): Promise<DevWorkflow[]> {
	if (!fs.existsSync(args.examples)) return [];
	const existing = new Map<string, string>();
	const list = await n8n.rest.get<Array<{ id: string; name: string }> | { data: Array<{ id: string; name: string }> }>('/rest/workflows');
	for (const w of Array.isArray(list) ? list : list.data ?? []) existing.set(w.name, w.id);
	const out: DevWorkflow[] = [];
	for (const file of fs.readdirSync(args.examples).filter((f) => f.endsWith('.json')).sort()) {
		const read = JSON.parse(fs.readFileSync(path.join(args.examples, file), 'utf8')) as WorkflowJson;
		// n8n 1.123's Data table node picks a table from the list (by id) only: the journal's, as a person would
		const wf = args.flavor === 'v1' ? bindJournalTable(read, journal) : read;
		wf.name ||= path.basename(file, '.json');
		const webhookPaths = wf.nodes.filter((n) => n.type === 'n8n-nodes-base.webhook').map((n) => String(n.parameters?.path ?? ''));
		const mcpPaths = wf.nodes.filter((n) => n.type === MCP_TRIGGER).map((n) => String(n.parameters?.path ?? ''));
		const formPaths = wf.nodes.filter((n) => n.type === FORM_TRIGGER).map((n) => String((n.parameters?.options as { path?: unknown } | undefined)?.path ?? n.webhookId ?? ''));
		const chat = wf.nodes.some((n) => n.type === CHAT_TRIGGER);
		const known = existing.get(wf.name);
		if (known) {
			out.push({ file, name: wf.name, id: known, existed: true, active: false, webhookPaths, mcpPaths, formPaths, chat });
			continue;
		}
		try {
			const runnable = args.asShipped
				? bindCredential(wf, cred)
				: prepareExample(bindCredentials(wf, made), {
						credential: cred,
						sinkUrl: sink.url,
						sinkPrefix: path.basename(file, '.json'),
						webhookAuth: made.httpHeaderAuth,
						pollIntervalSeconds: args.pollSeconds,
						patch: devPatch(wf, sink.url, args.waitCapSeconds),
					});
			const id = await n8n.importWorkflow(runnable);
			const active = !args.asShipped && webhookPaths.length + mcpPaths.length + formPaths.length > 0;
			if (active) await n8n.activate(id);
			out.push({ file, name: wf.name, id, existed: false, active, webhookPaths, mcpPaths, formPaths, chat });
		} catch (e) {
			console.error(`  ! could not import ${file}: ${(e as Error).message}`);
		}
	}
	return out;
}

/**
 * Everything `npm run dev` starts, up and ready: the simulator, the stand-in, n8n with the package, the
 * credential and the examples. The e2e (test/e2e/dev.e2e.ts) runs every example in exactly this set-up.
 */
export async function startDev(args: DevArgs, log: (line: string) => void = console.log): Promise<DevSession> {
	const pkg = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8'));
	const missing = [...(pkg.n8n?.nodes ?? []), ...(pkg.n8n?.credentials ?? [])].filter((f: string) => !fs.existsSync(path.join(REPO, f)));
	if (missing.length) throw new Error(`the package is not built (missing ${missing.join(', ')}): run npm run build first`);

	log(`[dev] n8n ${args.flavor}: checking the install ...`);
	await ensureN8n(args.flavor);

	const sim = await start({ port: args.simPort, seed: args.seed, clock: { speed: args.speed } });
	log(`[dev] simulator on ${sim.url} (seed ${args.seed}, clock x${args.speed})`);
	const sink = await startSink({ onRecord: (r) => log(describeRecord(r)) });
	const mailLogin = { user: 'n8n-dev', password: randomBytes(12).toString('hex') };
	const smtp = await startSmtp(mailLogin, (mail) => log(describeMail(mail)));
	let n8n: N8nInstance | undefined;
	try {
		log(`[dev] starting n8n on http://127.0.0.1:${args.port} with ${pkg.name}@${pkg.version} ...`);
		// the purchase journal's claim needs a pooled SQLite: n8n 1.x's default (pool size 0) shares one connection (docs/at-scale.md)
		n8n = await startN8n({ flavor: args.flavor, port: args.port, packageDir: REPO, userFolder: args.userFolder, echo: args.verbose, env: { DB_SQLITE_POOL_SIZE: '3' } });
		const credential = await n8n.upsertCredential({ name: 'Deck Generator (simulator)', type: CREDENTIAL_TYPE, data: { apiKey: sim.keys.personal, baseUrl: sim.url } });
		// the MCP example's trigger asks for a Bearer Auth credential: one with a token of this session
		const mcpToken = `dev-${randomBytes(12).toString('hex')}`;
		const bearer = await n8n.upsertCredential({ name: 'MCP clients (dev bearer token)', type: 'httpBearerAuth', data: { token: mcpToken } });
		const mail = await n8n.upsertCredential({ name: 'SMTP (dev mail stand-in)', type: 'smtp', data: { ...mailLogin, host: '127.0.0.1', port: smtp.port, secure: false } });
		// the purchase journal's table (as the sweeper's Set up creates it), with a row whose execution was lost
		// before it sent the purchase, for the sweeper example to deliver
		const journal = await ensureJournalTable(n8n);
		if ((await journal.rows()).length === 0) await journal.insert([sampleJournalRow()]);
		// the webhook examples' Header Auth (issue 49.7): the printed curl lines send its header
		const webhookAuth = await ensureWebhookAuth(n8n);
		const workflows = await importExamples(n8n, args, sink, credential, { httpBearerAuth: bearer, smtp: mail, httpHeaderAuth: webhookAuth }, journal);
		const running = n8n;
		return {
			args,
			n8n: running,
			sim,
			sink,
			smtp,
			credential,
			journal,
			workflows,
			mcpToken,
			stop: async () => {
				await Promise.allSettled([running.stop(), sim.close(), sink.close(), smtp.close()]);
			},
		};
	} catch (e) {
		await Promise.allSettled([n8n?.stop(), sim.close(), sink.close(), smtp.close()]);
		throw e;
	}
}

/** How to run one example in the dev set-up. */
function howToRun(n8n: N8nInstance, w: DevWorkflow, asShipped: boolean, mcpToken: string): string {
	if (asShipped) return 'as shipped: pick Slack/SMTP credentials to run it';
	if (w.chat) return 'pick your OpenAI credential on "OpenAI Chat Model", then Open chat; each review mail is printed below with its Approve and Decline links';
	if (w.active && w.mcpPaths.length) {
		return w.mcpPaths.map((p) => `MCP client (Streamable HTTP): ${n8n.baseUrl}/mcp/${p}  with header Authorization: Bearer ${mcpToken}`).join('\n          ');
	}
	if (w.active && w.formPaths.length) return w.formPaths.map((p) => `open ${n8n.baseUrl}/form/${p} in a browser and submit a brief`).join('\n          ');
	if (w.active && w.webhookPaths.length) {
		const brief = { title: 'Launch plan', coreMessage: 'Why the new plan wins', audience: 'Sales team', slideCount: 8, requesterEmail: 'you@example.com' };
		const auth = Object.entries(WEBHOOK_AUTH_HEADERS).map(([name, value]) => ` -H '${name}: ${value}'`).join('');
		return w.webhookPaths
			// a delivery id of its own per webhook: two examples sent one id would be one purchase, replayed by the second
			.map((p) => `curl -X POST ${n8n.baseUrl}/webhook/${p} -H 'content-type: application/json'${auth} -H 'x-delivery-id: ${p}-1' -d '${JSON.stringify(brief)}'`)
			.join('\n          ');
	}
	return 'open it and click Execute workflow';
}

async function main(): Promise<void> {
	const args = parseArgs(process.argv.slice(2));
	const t0 = Date.now();
	let session: DevSession | undefined;
	let shuttingDown = false;
	const shutdown = async (code: number) => {
		if (shuttingDown) return;
		shuttingDown = true;
		console.log('\n[dev] stopping n8n, the simulator and the stand-in ...');
		await session?.stop();
		process.exit(code);
	};
	process.on('SIGINT', () => void shutdown(0));
	process.on('SIGTERM', () => void shutdown(0));

	try {
		session = await startDev(args);
		const { n8n, sim, sink, credential, workflows } = session;
		const pkg = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8'));
		const types = (await n8n.nodeTypes()).map((t) => t.name).filter((n) => n.startsWith(`${pkg.name}.`));
		if (types.length === 0) console.warn(`[dev] ! n8n lists no ${pkg.name}.* node types: see ${path.join(n8n.userFolder, 'n8n.log')}`);

		const line = '-'.repeat(72);
		console.log(`\n${line}`);
		console.log(`n8n ${n8n.version} is up in ${((Date.now() - t0) / 1000).toFixed(0)}s (startup ${n8n.startupSeconds.toFixed(0)}s)\n`);
		console.log(`  Editor:    ${n8n.baseUrl}`);
		console.log(`  Login:     ${n8n.owner.email}`);
		console.log(`  Password:  ${n8n.owner.password}`);
		console.log(`  Nodes:     ${types.join(', ') || '(none loaded!)'}`);
		console.log(`  Credential "${credential.name}" (${CREDENTIAL_TYPE}) -> ${sim.url} with the personal key`);
		console.log(`  Workflows: ${workflows.length === 0 ? `none (no ${path.relative(REPO, args.examples)}/*.json)` : ''}`);
		for (const w of workflows) {
			console.log(`    ${n8n.baseUrl}/workflow/${w.id}  ${w.name}${w.existed ? ' (already there)' : ''}`);
			if (!w.existed) console.log(`        run: ${howToRun(n8n, w, args.asShipped, session.mcpToken)}`);
		}
		if (!args.asShipped) {
			console.log(`\n  Stand-in:  ${sink.url}  Slack and email nodes post here instead (HTTP Request nodes of the same name);`);
			console.log('             each message is printed below as [stand-in] lines. Slack approvals answer Approve at once.');
			console.log(`             An email review's mail goes to the mail server on port ${session.smtp.port}, printed the same way with its links.`);
			console.log(`             n8n Wait nodes wait at most ${args.waitCapSeconds} s here (--wait-cap).`);
		}
		console.log(`\n  Simulator: ${sim.url}  (clock x${args.speed}: a 10-35 min deck takes ${(600 / args.speed).toFixed(0)}-${(2100 / args.speed).toFixed(0)} s)`);
		console.log('  Demo keys (paste one into the credential to see its outcome):');
		const keys = sim.keys as unknown as Record<string, string>;
		for (const [name, key] of Object.entries(keys)) {
			const what = (DEMO_KEY_DESCRIPTIONS as Record<string, string>)[name] ?? '';
			console.log(`    ${name.padEnd(22)} ${key}  ${what}`);
		}
		console.log(`\n  n8n log:   ${path.join(n8n.userFolder, 'n8n.log')}${args.userFolder ? '' : ' (temp folder, removed on exit)'}`);
		console.log(`${line}\nCtrl-C to stop.`);

		// stay up; if n8n dies, say so and leave
		for (;;) {
			await new Promise((r) => setTimeout(r, 2000));
			try {
				process.kill(n8n.pid, 0);
			} catch {
				console.error(`[dev] n8n exited. Last lines:\n${n8n.logs.split('\n').slice(-30).join('\n')}`);
				await shutdown(1);
			}
		}
	} catch (e) {
		console.error(`[dev] ${(e as Error).message}`);
		await shutdown(1);
	}
}

if (require.main === module) {
	main().catch((e) => {
		console.error(e instanceof Error ? e.message : e);
		process.exit(1);
	});
}
