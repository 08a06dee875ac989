/**
 * `npm run demo`: the showcase workflow (three briefs → Get Credits, Create, Wait, outcomes) run
 * by n8n's own engine in-process, against the embedded simulator on a compressed clock, or
 * against a real deployment with --base-url and --api-key (or DECKGEN_BASE_URL, DECKGEN_API_KEY).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INodeExecutionData } from 'n8n-workflow';

import { runWorkflow, type RunResult, type WorkflowJson } from '../harness';
import { start, type Simulator } from '../simulator';

/** Sim-ms per real ms: a 10-35 minute deck takes 5-17.5 seconds. */
const SPEED = 120;
const CONTRACT_INTERVAL_SECONDS = 5;

interface DemoArgs {
	baseUrl?: string;
	apiKey?: string;
}

function parseArgs(argv: string[]): DemoArgs {
	const args: DemoArgs = { baseUrl: process.env.DECKGEN_BASE_URL, apiKey: process.env.DECKGEN_API_KEY };
	for (let i = 0; i < argv.length; i++) {
		const [flag, inline] = argv[i].split('=', 2);
		const value = () => inline ?? argv[++i];
		if (flag === '--base-url') args.baseUrl = value();
		else if (flag === '--api-key') args.apiKey = value();
		else if (flag === '--help' || flag === '-h') {
			console.log('usage: npm run demo [-- --base-url URL --api-key KEY]');
			process.exit(0);
		} else throw new Error(`unknown argument ${argv[i]} (try --help)`);
	}
	if (Boolean(args.baseUrl) !== Boolean(args.apiKey)) {
		throw new Error('give both --base-url and --api-key (or DECKGEN_BASE_URL and DECKGEN_API_KEY), or neither for the simulator');
	}
	return args;
}

const BRIEFS = [
	{
		request_id: 'demo-brief-1',
		title: 'Q3 results for the board',
		core_message: 'Revenue grew 20% while costs stayed flat',
		audience: 'Board of directors',
		slide_count: 12,
		expected_credits: 10,
	},
	{
		request_id: 'demo-brief-2',
		title: 'Onboarding: our first week',
		core_message: 'Everything a new colleague needs on day one',
		audience: 'New hires',
		slide_count: 8,
		expected_credits: 10,
	},
	{
		// Above the free slide cap: the service asks for a surcharge, and the node routes the item
		// to Client Action for a person to approve instead of buying it on its own.
		request_id: 'demo-brief-3',
		title: 'Product deep dive',
		core_message: 'Every feature, in depth',
		audience: 'Sales team',
		slide_count: 24,
		expected_credits: 10,
	},
];

function loadShowcase(pollIntervalSeconds: number): WorkflowJson {
	const workflow = JSON.parse(readFileSync(join(__dirname, 'showcase.workflow.json'), 'utf8')) as WorkflowJson;
	const wait = workflow.nodes.find((n) => n.type.endsWith('deckGenWait'))!;
	wait.parameters.options = { ...(wait.parameters.options as object), pollIntervalSeconds };
	return workflow;
}

/** One line per deck while the Wait node polls, read from the simulator's side. */
function watchProgress(sim: Simulator): () => void {
	const tty = process.stdout.isTTY;
	let lastPrint = 0;
	let drawn = 0;
	const timer = setInterval(() => {
		const decks = sim.ledger.charges.filter((c) => c.operation === 'create');
		if (!decks.length) return;
		const lines = decks.map((charge, index) => {
			const deck = sim.control.deck(charge.taskId);
			const progress = Math.round(deck?.progress ?? 0);
			const bar = '█'.repeat(Math.round(progress / 5)).padEnd(20, '░');
			return `  deck ${index + 1} ${charge.taskId.padEnd(28)} ${bar} ${String(progress).padStart(3)}% ${deck?.phase ?? ''}`;
		});
		if (tty) {
			if (drawn) process.stdout.write(`\x1b[${drawn}A`);
			process.stdout.write(lines.map((line) => `${line}\x1b[K`).join('\n') + '\n');
			drawn = lines.length;
		} else if (Date.now() - lastPrint > 2_000) {
			lastPrint = Date.now();
			console.log(lines.join('\n'));
		}
	}, 200);
	return () => clearInterval(timer);
}

/** The brief an item came from: its own request, or its taskId traced back through Create. */
function titleOf(json: Record<string, unknown>, result: RunResult): string {
	const request = json.request as Record<string, unknown> | undefined;
	if (request?.title) return String(request.title);
	const created = result.runCount('Create Deck') ? result.output('Create Deck') : [];
	const match = created.find((item) => item.json.taskId === json.taskId);
	const index = (match?.pairedItem as { item?: number } | undefined)?.item;
	return index === undefined ? '' : BRIEFS[index].title;
}

function summarise(item: INodeExecutionData, result: RunResult): string {
	const json = item.json as Record<string, unknown>;
	const parts = [`"${titleOf(json, result)}"`];
	if (json.taskId) parts.push(String(json.taskId));
	if (json.cta) parts.push(`cta=${String(json.cta)}`);
	if (json.status) parts.push(`status=${String(json.status)}`);
	if (json.elapsedSeconds !== undefined) parts.push(`after ${String(json.elapsedSeconds)} s`);
	if (json.message) parts.push(String(json.message));
	return parts.filter(Boolean).join(' | ');
}

function printTable(result: RunResult, workflow: WorkflowJson): void {
	const outcomes = workflow.nodes.filter((n) => n.type === 'n8n-nodes-base.noOp').map((n) => n.name);
	const width = Math.max(...outcomes.map((name) => name.length));
	console.log('\nItems per output');
	console.log(`  ${'output'.padEnd(width)}  items`);
	for (const name of outcomes) {
		const items = result.runCount(name) ? result.output(name) : [];
		console.log(`  ${name.padEnd(width)}  ${String(items.length).padStart(5)}`);
		for (const item of items) console.log(`  ${' '.repeat(width)}    - ${summarise(item, result)}`);
	}
}

async function main(): Promise<void> {
	const args = parseArgs(process.argv.slice(2));
	const started = Date.now();
	let sim: Simulator | undefined;
	let baseUrl = args.baseUrl;
	let apiKey = args.apiKey;
	if (!baseUrl) {
		sim = await start({ seed: 42, clock: { speed: SPEED }, deckDurationMs: [10 * 60_000, 35 * 60_000] });
		baseUrl = sim.url;
		apiKey = sim.keys.personal;
		console.log(`Embedded simulator at ${sim.url} (clock ×${SPEED}: a 10-35 minute deck takes 5-17 s)`);
	} else {
		console.log(`Running against ${baseUrl}`);
	}
	const interval = sim ? CONTRACT_INTERVAL_SECONDS / SPEED : CONTRACT_INTERVAL_SECONDS;
	const workflow = loadShowcase(interval);
	console.log(`Showcase: ${BRIEFS.length} briefs → Get Credits, Create, Wait (poll every ${interval.toFixed(3)} s)\n`);

	const stopWatching = sim ? watchProgress(sim) : () => {};
	try {
		const result = await runWorkflow(workflow, {
			credentials: { deckGenApi: { apiKey, baseUrl } },
			inputItems: BRIEFS.map((json) => ({ json })),
			mode: 'manual',
		});
		stopWatching();
		const credits = result.runCount('Get Credits') ? result.output('Get Credits')[0]?.json : undefined;
		if (credits) console.log(`\nCredits before: ${String(credits.credits)} (${String(credits.wallet)} wallet)`);
		if (result.status !== 'success') {
			console.error(`\nThe workflow ended with status ${result.status}: ${result.error?.message ?? ''}`);
			process.exitCode = 1;
		}
		printTable(result, workflow);
		if (sim) {
			const charged = sim.ledger.charges.reduce((sum, c) => sum + c.credits, 0);
			console.log(`\nCharged: ${sim.ledger.charges.length} decks, ${charged} credits. Done in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
		}
	} finally {
		stopWatching();
		await sim?.close();
	}
}

main().catch((error: Error) => {
	console.error(error.message);
	process.exit(1);
});
