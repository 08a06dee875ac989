/**
 * `npm run soak -- --spends N [--json FILE] [--seed S] [--parallel P]`
 *
 * Spends money through real workflows (n8n-core in-process, test/harness) against the simulator under
 * a seeded fault plan, the way a busy n8n would, and checks that nothing is lost and nothing is
 * charged twice:
 *
 * - Create, Revise, Translate, Generate Video and Custom Request POST, in batches of BATCH items, one
 *   execution per batch, the node's Concurrency 4, n8n's Retry On Fail on;
 * - every fault kind of the simulator on every POST (answers dropped after and before the commit,
 *   500, 503 as a problem and as plain JSON, the edge's plain 429 and a bucket's problem 429,
 *   slow answers; `already_in_progress` 409s come from redeliveries that collide with a slow original),
 *   at a rate that makes some executions still fail after Retry On Fail;
 * - the executions-list retry (the harness's retry-from-saved-execution) of every execution that
 *   ended in error, until it succeeds (at most MAX_RETRIES times);
 * - webhook-style redeliveries: some batches carry a delivery id as the Idempotency Key and are
 *   delivered twice, concurrently.
 *
 * Invariants:
 * - as saved: every execution that ended in error, before it is retried, names every deck its batch
 *   bought so far (by taskId, or by key for a request whose answer was lost);
 * - at the end, against the simulator's ledger: no spend charged twice, no deck charged twice for the
 *   same operation, every input item on a defined output (0 lost), the API key in no output, error or
 *   log line.
 * Several executions run at once, so which request draws which fault depends on timing: the
 * invariants are strict, and the seed is printed so a failure can be replayed.
 */
import { writeFileSync } from 'node:fs';

import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { connections, node, runWorkflow, type RunResult, type WorkflowJson } from '../harness';
import { start, type Charge, type FaultRule, type RequestRecord, type Simulator } from '../simulator';

const DECK = 'Deck Generator';
/** Items per execution. */
const BATCH = 10;
/** Executions-list retries of one failed execution before its unfinished items count as lost. */
const MAX_RETRIES = 8;
/** One batch in REDELIVERY_EVERY of Create and Custom Request is delivered twice, with the key override. */
const REDELIVERY_EVERY = 3;

type Operation = 'create' | 'revise' | 'translate' | 'video' | 'custom';
const OPERATIONS: Operation[] = ['create', 'revise', 'translate', 'video', 'custom'];

/** Every POST: about 40% of them draw a fault (first matching rule that fires, in this order). */
const FAULTS: FaultRule[] = [
	{ method: 'POST', kind: 'drop-after-commit', probability: 0.07 },
	{ method: 'POST', kind: 'drop-before-commit', probability: 0.04 },
	{ method: 'POST', kind: 'status500', probability: 0.05 },
	{ method: 'POST', kind: 'status503', shape: 'problem', probability: 0.05 },
	{ method: 'POST', kind: 'status503', shape: 'plain', probability: 0.03 },
	{ method: 'POST', kind: 'status429', shape: 'plain', probability: 0.04 },
	{ method: 'POST', kind: 'status429', shape: 'problem', probability: 0.05 },
	{ method: 'POST', kind: 'latency', latencyMs: 25, probability: 0.08 },
];

interface Args {
	spends: number;
	json?: string;
	seed: number;
	parallel: number;
}

function parseArgs(argv: string[]): Args {
	const value = (name: string): string | undefined => {
		const i = argv.indexOf(`--${name}`);
		if (i < 0) return undefined;
		const v = argv[i + 1];
		if (v === undefined || v.startsWith('--')) throw new Error(`--${name} needs a value`);
		return v;
	};
	const int = (name: string, fallback: number): number => {
		const raw = value(name);
		if (raw === undefined) return fallback;
		const n = Number(raw.replace(/[,_]/g, ''));
		if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive whole number, got ${raw}`);
		return n;
	};
	return {
		spends: int('spends', 1000),
		json: value('json'),
		seed: int('seed', 1 + Math.floor(Math.random() * 2 ** 31)),
		parallel: int('parallel', 4),
	};
}

/** The one workflow of a batch: Start → Deck Generator (Retry On Fail) → one No Op per output. */
function workflowFor(operation: Operation): WorkflowJson {
	const options = {
		concurrency: 4,
		// Milliseconds where the service would ask for seconds (the simulator's hints are 5 ms), so a
		// run is fast; a longer wait asked for (the edge 429's whole-second Retry-After) fails the item.
		maxRetryWaitSeconds: 0.05,
		idempotencyKey: "={{ $json.delivery_id || '' }}",
	};
	const byOperation: Record<Operation, Record<string, unknown>> = {
		create: {
			resource: 'deck',
			operation: 'create',
			title: '={{ $json.title }}',
			coreMessage: '={{ $json.core_message }}',
			expectedCredits: '={{ $json.expected_credits }}',
		},
		revise: {
			resource: 'deck',
			operation: 'revise',
			taskId: '={{ $json.taskId }}',
			instructions: '={{ $json.instructions }}',
			expectedCredits: '={{ $json.expected_credits }}',
		},
		translate: {
			resource: 'deck',
			operation: 'translate',
			taskId: '={{ $json.taskId }}',
			languages: '={{ $json.languages }}',
			expectedCredits: '={{ $json.expected_credits }}',
		},
		video: {
			resource: 'deck',
			operation: 'generateVideo',
			taskId: '={{ $json.taskId }}',
			expectedCredits: '={{ $json.expected_credits }}',
		},
		custom: {
			resource: 'custom',
			operation: 'request',
			method: 'POST',
			path: '/v1/decks',
			body: '={{ JSON.stringify({ title: $json.title, core_message: $json.core_message, expected_credits: $json.expected_credits }) }}',
		},
	};
	return {
		nodes: [
			node('Start', 'n8n-nodes-base.manualTrigger'),
			node(DECK, 'n8n-nodes-deckgen.deckGen', { ...byOperation[operation], options } as never, {
				retryOnFail: true,
				maxTries: 2,
				waitBetweenTries: 1,
			}),
			node('Success', 'n8n-nodes-base.noOp'),
			node('Checkout', 'n8n-nodes-base.noOp'),
			node('Client Action', 'n8n-nodes-base.noOp'),
		],
		connections: connections([
			['Start', DECK],
			[DECK, 'Success', 0],
			[DECK, 'Checkout', 1],
			[DECK, 'Client Action', 2],
		]),
		settings: { executionOrder: 'v1' },
	};
}

interface Tally {
	executions: number;
	retries: number;
	redeliveries: number;
	/** Executions that ended in error although n8n's Retry On Fail was on. */
	erroredAfterRetryOnFail: number;
	/** Charges an execution that ended in error did not name, as saved. */
	unnamedAtSave: number;
	/** Input items on no output of their batch's final execution. */
	unfinished: number;
	keyLeaks: number;
	violations: string[];
}

/** What a saved execution names: decks (taskId) on its outputs or in its error, and keys of unanswered requests. */
function namedBy(result: RunResult): { taskIds: Set<string>; keys: Set<string> } {
	const saved = result.runExecutionData as {
		resultData: {
			runData: Record<
				string,
				Array<{
					data?: { main?: Array<INodeExecutionData[] | null> };
					error?: { context?: { purchasedTaskIds?: string[]; unansweredPurchases?: Array<{ idempotencyKey: string }> } };
				}>
			>;
		};
	};
	const taskIds = new Set<string>();
	const keys = new Set<string>();
	for (const run of saved.resultData.runData[DECK] ?? []) {
		for (const item of run.data?.main?.[0] ?? []) {
			if (typeof item.json.taskId === 'string') taskIds.add(item.json.taskId);
		}
		for (const taskId of run.error?.context?.purchasedTaskIds ?? []) taskIds.add(taskId);
		for (const lost of run.error?.context?.unansweredPurchases ?? []) keys.add(lost.idempotencyKey);
	}
	return { taskIds, keys };
}

function itemsOnOutputs(result: RunResult): Set<number> {
	const landed = new Set<number>();
	for (const items of result.outputs(DECK)) {
		for (const item of items) {
			const paired = item.pairedItem as { item: number } | undefined;
			if (paired) landed.add(paired.item);
		}
	}
	return landed;
}

class Soak {
	readonly tally: Tally = {
		executions: 0,
		retries: 0,
		redeliveries: 0,
		erroredAfterRetryOnFail: 0,
		unnamedAtSave: 0,
		unfinished: 0,
		keyLeaks: 0,
		violations: [],
	};
	private readonly secrets: string[];
	private readonly unnamedCharges = new Set<string>();

	constructor(
		private readonly sim: Simulator,
		private readonly seed: number,
	) {
		this.secrets = Object.values(sim.keys);
	}

	async runBatch(batchIndex: number, firstSpend: number, size: number): Promise<void> {
		const operation = OPERATIONS[batchIndex % OPERATIONS.length];
		const account = this.sim.control.createAccount({ balance: 1_000_000_000, subscriber: true });
		this.secrets.push(account.key);
		const redelivered = (operation === 'create' || operation === 'custom') && Math.floor(batchIndex / OPERATIONS.length) % REDELIVERY_EVERY === 0;
		const inputs = Array.from({ length: size }, (_, i) => this.spendItem(operation, account.key, firstSpend + i, redelivered));
		const workflow = workflowFor(operation);
		const credentials = { deckGenApi: { apiKey: account.key, baseUrl: this.sim.url } };

		// A lineage is one delivery and its executions-list retries; a redelivered batch has two, run at once.
		const lineages: RunResult[] = await Promise.all(
			Array.from({ length: redelivered ? 2 : 1 }, async () => await this.execute(workflow, { credentials, inputItems: inputs })),
		);
		if (redelivered) this.tally.redeliveries++;

		for (let round = 0; ; round++) {
			// As saved, before any further retry: every deck this batch bought is named somewhere.
			this.checkNamed(account.principalId, lineages, `batch ${batchIndex} (${operation}) round ${round}`);
			const failed = lineages.map((result, i) => ({ result, i })).filter(({ result }) => result.status === 'error');
			if (!failed.length || round >= MAX_RETRIES) break;
			await Promise.all(
				failed.map(async ({ result, i }) => {
					this.tally.retries++;
					lineages[i] = await this.execute(workflow, { credentials, previousRun: result, mode: 'retry' });
				}),
			);
		}

		for (const result of lineages) {
			const landed = itemsOnOutputs(result);
			const missing = inputs.length - landed.size;
			if (missing > 0) {
				this.tally.unfinished += missing;
				this.tally.violations.push(
					`batch ${batchIndex} (${operation}): ${missing} item(s) on no output after ${MAX_RETRIES} retries (execution ${result.executionId}, ${result.status})`,
				);
			}
		}
	}

	private spendItem(operation: Operation, key: string, spend: number, redelivered: boolean): { json: IDataObject } {
		const delivery = redelivered ? { delivery_id: `delivery-${this.seed}-${spend}` } : {};
		switch (operation) {
			case 'create':
			case 'custom':
				return { json: { title: `Soak ${this.seed} spend ${spend}`, core_message: 'Nothing lost, nothing twice', expected_credits: 10, ...delivery } };
			case 'revise':
				return { json: { taskId: this.deckFor(key), instructions: `Revision for spend ${spend}`, expected_credits: 8 } };
			case 'translate':
				return { json: { taskId: this.deckFor(key), languages: ['de'], expected_credits: 5 } };
			case 'video':
				return { json: { taskId: this.deckFor(key), expected_credits: 20 } };
		}
	}

	/** A finished deck of the batch's account, one per spend, so each deck is spent on once. */
	private deckFor(key: string): string {
		return this.sim.control.seedDeck({ key, durationMs: 0 });
	}

	private async execute(workflow: WorkflowJson, options: Parameters<typeof runWorkflow>[1]): Promise<RunResult> {
		const result = await runWorkflow(workflow, options);
		this.tally.executions++;
		if (result.status === 'error') this.tally.erroredAfterRetryOnFail++;
		this.checkLeaks(result);
		return result;
	}

	private checkNamed(principalId: string, lineages: RunResult[], where: string): void {
		if (lineages.every((result) => result.status !== 'error')) return;
		const taskIds = new Set<string>();
		const keys = new Set<string>();
		for (const result of lineages) {
			const named = namedBy(result);
			named.taskIds.forEach((t) => taskIds.add(t));
			named.keys.forEach((k) => keys.add(k));
		}
		for (const charge of this.sim.ledger.charges) {
			if (charge.principalId !== principalId) continue;
			if (taskIds.has(charge.taskId) || keys.has(charge.idempotencyKey)) continue;
			this.tally.unnamedAtSave++;
			if (!this.unnamedCharges.has(charge.chargeId)) {
				this.unnamedCharges.add(charge.chargeId);
				this.tally.violations.push(`${where}: deck ${charge.taskId} (${charge.operation}) was bought but the saved execution names it nowhere`);
			}
		}
	}

	private checkLeaks(result: RunResult): void {
		const error = result.error as (Error & { stack?: string }) | undefined;
		const texts = [JSON.stringify(result.runExecutionData), result.logs.join('\n'), error ? `${JSON.stringify(error)} ${error.message} ${error.stack ?? ''}` : ''];
		for (const secret of this.secrets) {
			if (texts.some((text) => text.includes(secret))) {
				this.tally.keyLeaks++;
				this.tally.violations.push(`execution ${result.executionId}: an API key appears in its output, error or logs`);
				return;
			}
		}
	}

	/** Lost charges: bought but named nowhere in the executions as they were saved (counted once each). */
	lostCharges(): number {
		return this.unnamedCharges.size;
	}
}

/** Charges beyond the first for one spend (same request: path and body) or for one deck and operation. */
function doubleCharges(charges: readonly Charge[], requests: readonly RequestRecord[]): { count: number; examples: string[] } {
	const requestOfKey = new Map<string, RequestRecord>();
	for (const record of requests) {
		if (record.idempotencyKey && record.bodySha256 && !requestOfKey.has(record.idempotencyKey)) requestOfKey.set(record.idempotencyKey, record);
	}
	const seenSpend = new Map<string, Charge>();
	const seenDeck = new Map<string, Charge>();
	const doubles = new Set<string>();
	const examples: string[] = [];
	for (const charge of charges) {
		const request = requestOfKey.get(charge.idempotencyKey);
		const spend = request ? `${request.path} ${request.bodySha256}` : `key ${charge.idempotencyKey}`;
		const deck = `${charge.operation} ${charge.taskId}`;
		for (const [seen, identity] of [
			[seenSpend, spend],
			[seenDeck, deck],
		] as const) {
			const first = seen.get(identity);
			if (first && !doubles.has(charge.chargeId)) {
				doubles.add(charge.chargeId);
				if (examples.length < 10) examples.push(`${identity}: charged by keys ${first.idempotencyKey} and ${charge.idempotencyKey}`);
			}
			if (!first) seen.set(identity, charge);
		}
	}
	return { count: doubles.size, examples };
}

/** Faults by kind, as the simulator injected them, plus the 409 already_in_progress answers. */
function faultsByKind(requests: readonly RequestRecord[]): Record<string, number> {
	const label: Record<string, string> = {
		'drop-after-commit': 'drop after commit',
		'drop-before-commit': 'drop before commit',
		status500: '500',
		'status503 problem': '503 problem',
		'status503 plain': '503 plain',
		'status429 plain': '429 edge',
		'status429 problem': '429 bucket',
		latency: 'slow answer',
	};
	const counts: Record<string, number> = Object.fromEntries(Object.values(label).map((name) => [name, 0]));
	counts['409 already_in_progress'] = 0;
	for (const record of requests) {
		if (record.fault) {
			const shaped = record.fault === 'status503' || record.fault === 'status429' ? `${record.fault} ${record.faultShape ?? 'problem'}` : record.fault;
			counts[label[shaped] ?? shaped] = (counts[label[shaped] ?? shaped] ?? 0) + 1;
		} else if (record.status === 409) {
			counts['409 already_in_progress']++;
		}
	}
	return counts;
}

async function main(): Promise<void> {
	const args = parseArgs(process.argv.slice(2));
	const replay = `npm run soak -- --spends ${args.spends} --seed ${args.seed} --parallel ${args.parallel}`;
	console.log(`soak: ${args.spends} spends, seed ${args.seed} (replay: ${replay})`);
	const started = Date.now();

	const sim = await start({
		seed: args.seed,
		clock: { manual: true },
		// Hints of 5 ms instead of seconds; no real bucket or deck limit gets in the way of volume.
		limits: { retryAfterMs: 5, maxConcurrentDecks: 1_000_000_000 },
		unshipped: [],
		faults: FAULTS,
	});
	// Every revision is paid (none included), so each one is a charge the ledger can show.
	sim.control.setPrice({ includedRevisions: 0 });
	const soak = new Soak(sim, args.seed);

	try {
		const batches = Math.ceil(args.spends / BATCH);
		let nextBatch = 0;
		let lastReport = Date.now();
		const worker = async () => {
			while (nextBatch < batches) {
				const batch = nextBatch++;
				const first = batch * BATCH;
				await soak.runBatch(batch, first, Math.min(BATCH, args.spends - first));
				if (Date.now() - lastReport > 15_000) {
					lastReport = Date.now();
					console.log(`  ${Math.min(args.spends, (batch + 1) * BATCH)} / ${args.spends} spends, ${Math.round((Date.now() - started) / 1000)} s`);
				}
			}
		};
		await Promise.all(Array.from({ length: args.parallel }, worker));
	} finally {
		await sim.close();
	}

	const { tally } = soak;
	const double = doubleCharges(sim.ledger.charges, sim.ledger.requests);
	const faults = faultsByKind(sim.ledger.requests);
	const lost = soak.lostCharges() + tally.unfinished;
	const wallSeconds = Math.round((Date.now() - started) / 100) / 10;
	const totalFaults = Object.values(faults).reduce((a, b) => a + b, 0);
	const posts = sim.ledger.requests.filter((r) => r.method === 'POST').length;

	const rows: Array<[string, string]> = [
		['spends', String(args.spends)],
		['requests', `${sim.ledger.requests.length} (POST ${posts})`],
		['faults', `${totalFaults} (${((100 * totalFaults) / Math.max(1, posts)).toFixed(1)}% of requests)`],
		...Object.entries(faults).map(([kind, count]): [string, string] => [`  ${kind}`, String(count)]),
		['executions', `${tally.executions} (redelivered batches ${tally.redeliveries}, executions-list retries ${tally.retries})`],
		['ended in error after Retry On Fail', String(tally.erroredAfterRetryOnFail)],
		['charges', String(sim.ledger.charges.length)],
		['double charges', String(double.count)],
		['lost', String(lost)],
		['leaks', String(tally.keyLeaks)],
		['wall', `${wallSeconds} s`],
	];
	const width = Math.max(...rows.map(([name]) => name.length));
	console.log('');
	for (const [name, value] of rows) console.log(`${name.padEnd(width)}  ${value}`);
	console.log(`seed ${args.seed}`);

	const violations = [...tally.violations, ...double.examples.map((e) => `double charge: ${e}`)];
	if (args.json) {
		const report = {
			seed: args.seed,
			spends: args.spends,
			requests: sim.ledger.requests.length,
			charges: sim.ledger.charges.length,
			doubleCharges: double.count,
			lost,
			keyLeaks: tally.keyLeaks,
			faults,
			executions: tally.executions,
			retries: tally.retries,
			redeliveries: tally.redeliveries,
			erroredAfterRetryOnFail: tally.erroredAfterRetryOnFail,
			wallSeconds,
			violations: violations.slice(0, 100),
		};
		writeFileSync(args.json, JSON.stringify(report, null, 2) + '\n');
	}
	if (double.count || lost || tally.keyLeaks || violations.length) {
		console.log(`\nFAILED (${violations.length} violations; replay: ${replay}):`);
		for (const line of violations.slice(0, 20)) console.log(`  ${line}`);
		process.exitCode = 1;
		return;
	}
	if (tally.erroredAfterRetryOnFail === 0) {
		// The point of the fault rate: the saved-execution check must have had something to check.
		console.log('\nFAILED: no execution ended in error after Retry On Fail; the fault plan no longer tests the saved errors');
		process.exitCode = 1;
		return;
	}
	console.log('\nPASSED: every bought deck charged once, nothing lost, no key leaked');
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
