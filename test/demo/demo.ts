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

/** Sim-ms per real ms: a 10-35 minute deck takes 5-17.5 seconds (printed rounded, 5-18 s). */
export const SPEED = 120;

/** What the demo prints of its clock; README.md quotes it for the default speed (test/unit/docs-claims.test.ts). */
export function clockLine(speed: number): string {
	return `clock ×${speed}: a 10-35 minute deck takes ${(600 / speed).toFixed(0)}-${(2100 / speed).toFixed(0)} s`;
}

/** Where the demo prints: the terminal, or a test's collector. */
export interface DemoOutput {
	isTTY: boolean;
	write(text: string): void;
}
const stdout: DemoOutput = { isTTY: Boolean(process.stdout.isTTY), write: (text) => process.stdout.write(text) };
const CONTRACT_INTERVAL_SECONDS = 5;

export interface DemoArgs {
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

/**
 * One line per deck while the Wait node polls, read from the simulator's side: redrawn in place on a
 * terminal, every 2 s otherwise. The returned stop() draws the decks once more as they ended, so the last
 * bars shown are the final ones (a deck the Wait node saw completed shows 100 %, not its last redraw).
 */
export function watchProgress(sim: Simulator, out: DemoOutput = stdout): () => void {
	let lastPrint = 0;
	let drawn = 0;
	let stopped = false;
	const draw = (final: boolean) => {
		const decks = sim.ledger.charges.filter((c) => c.operation === 'create');
		if (!decks.length) return;
		const lines = decks.map((charge, index) => {
			const deck = sim.control.deck(charge.taskId);
			const progress = Math.round(deck?.progress ?? 0);
			const bar = '█'.repeat(Math.round(progress / 5)).padEnd(20, '░');
			return `  deck ${index + 1} ${charge.taskId.padEnd(28)} ${bar} ${String(progress).padStart(3)}% ${deck?.phase ?? ''}`;
		});
		if (out.isTTY) {
			if (drawn) out.write(`\x1b[${drawn}A`);
			out.write(lines.map((line) => `${line}\x1b[K`).join('\n') + '\n');
			drawn = lines.length;
		} else if (final || Date.now() - lastPrint > 2_000) {
			lastPrint = Date.now();
			out.write(lines.join('\n') + '\n');
		}
	};
	const timer = setInterval(() => draw(false), 200);
	return () => {
		clearInterval(timer);
		if (!stopped) draw(true);
		stopped = true;
	};
}

/** What the demo says about its Wait node's poll interval: the contract's 5 s, on whichever clock runs. */
export function pollLine(speed: number | undefined): string {
	if (!speed) return `poll every ${CONTRACT_INTERVAL_SECONDS} s`;
	return `poll every ${CONTRACT_INTERVAL_SECONDS} s of the simulator's clock, ${(CONTRACT_INTERVAL_SECONDS / speed).toFixed(3)} s real at ×${speed}`;
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

function printTable(result: RunResult, workflow: WorkflowJson, log: (line: string) => void): void {
	const outcomes = workflow.nodes.filter((n) => n.type === 'n8n-nodes-base.noOp').map((n) => n.name);
	const width = Math.max(...outcomes.map((name) => name.length));
	log('\nItems per output');
	log(`  ${'output'.padEnd(width)}  items`);
	for (const name of outcomes) {
		const items = result.runCount(name) ? result.output(name) : [];
		log(`  ${name.padEnd(width)}  ${String(items.length).padStart(5)}`);
		for (const item of items) log(`  ${' '.repeat(width)}    - ${summarise(item, result)}`);
	}
}

/** The demo: against the embedded simulator at `speed` (default ×120), or `args.baseUrl`. Resolves to the run's status. */
export async function runDemo(args: DemoArgs, o: { speed?: number; out?: DemoOutput } = {}): Promise<RunResult['status']> {
	const out = o.out ?? stdout;
	const log = (line: string) => out.write(`${line}\n`);
	const speed = o.speed ?? SPEED;
	const started = Date.now();
	let sim: Simulator | undefined;
	let baseUrl = args.baseUrl;
	let apiKey = args.apiKey;
	if (!baseUrl) {
		sim = await start({ seed: 42, clock: { speed }, deckDurationMs: [10 * 60_000, 35 * 60_000] });
		baseUrl = sim.url;
		apiKey = sim.keys.personal;
		log(`Embedded simulator at ${sim.url} (${clockLine(speed)})`);
	} else {
		log(`Running against ${baseUrl}`);
	}
	const interval = sim ? CONTRACT_INTERVAL_SECONDS / speed : CONTRACT_INTERVAL_SECONDS;
	const workflow = loadShowcase(interval);
	log(`Showcase: ${BRIEFS.length} briefs → Get Credits, Create, Wait (${pollLine(sim ? speed : undefined)})\n`);

	const stopWatching = sim ? watchProgress(sim, out) : () => {};
	try {
		const result = await runWorkflow(workflow, {
			credentials: { deckGenApi: { apiKey, baseUrl } },
			inputItems: BRIEFS.map((json) => ({ json })),
			mode: 'manual',
		});
		stopWatching();
		const credits = result.runCount('Get Credits') ? result.output('Get Credits')[0]?.json : undefined;
		if (credits) log(`\nCredits before: ${String(credits.credits)} (${String(credits.wallet)} wallet)`);
		if (result.status !== 'success') log(`\nThe workflow ended with status ${result.status}: ${result.error?.message ?? ''}`);
		printTable(result, workflow, log);
		if (sim) {
			const charged = sim.ledger.charges.reduce((sum, c) => sum + c.credits, 0);
			log(`\nCharged: ${sim.ledger.charges.length} decks, ${charged} credits. Done in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
		}
		return result.status;
	} finally {
		stopWatching();
		await sim?.close();
	}
}

if (require.main === module) {
	runDemo(parseArgs(process.argv.slice(2)))
		.then((status) => {
			if (status !== 'success') process.exitCode = 1;
		})
		.catch((error: Error) => {
			console.error(error.message);
			process.exit(1);
		});
}
