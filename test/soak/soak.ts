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
 * - purchases committed and then answered 500 or 503, followed by more 500, 503 and 429 for the same
 *   request until the node's retries and n8n's Retry On Fail run out; answers dropped after the commit
 *   followed by 503s or 429s (issue 15);
 * - n8n crashing (a restart): some executions die during Create or right after it, and what is left
 *   is the execution as n8n saves it by default and amends on restart (test/harness/crash.ts): the
 *   trigger data, no node context, no output, an artificial item for every finished node;
 * - the executions-list retry (the harness's retry-from-saved-execution) of every execution that
 *   ended in error or crashed, until it succeeds (at most MAX_RETRIES times); a retry may crash too;
 * - webhook-style redeliveries: some batches carry a delivery id as the Idempotency Key and are
 *   delivered twice, concurrently.
 *
 * Invariants:
 * - as saved: every execution that ended in error, before it is retried, names every deck its batch
 *   bought so far (by taskId, or by key as "may have been bought"), except decks whose request an
 *   execution that crashed had sent (n8n kept nothing of it; its purchases are in n8n's log);
 * - in the end: every deck a batch bought is named (taskId, or key as "may have been bought") by an
 *   output item or a saved error of one of the batch's executions (crashed ones and retries included);
 * - at the end, against the simulator's ledger: no spend charged twice, no deck charged twice for the
 *   same operation, every input item on a defined output (0 lost), the API key in no output, error or
 *   log line.
 * Several executions run at once, so which request draws which fault depends on timing: the
 * invariants are strict, and the seed is printed so a failure can be replayed.
 */
import { writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { connections, node, runWorkflow, type RunResult, type WorkflowJson } from '../harness';
import { start, type Charge, type FaultRule, type FaultStep, type RequestRecord, type Simulator } from '../simulator';
import { createRng, type Rng } from '../simulator/rng';

const DECK = 'Deck Generator';
/** Items per execution. */
const BATCH = 10;
/** Executions-list retries of executions that ended in error before a batch's unfinished items count as lost (a crashed one is always retried). */
const MAX_RETRIES = 8;
/** One batch in REDELIVERY_EVERY of Create and Custom Request is delivered twice, with the key override. */
const REDELIVERY_EVERY = 3;

type Operation = 'create' | 'revise' | 'translate' | 'video' | 'custom';
const OPERATIONS: Operation[] = ['create', 'revise', 'translate', 'video', 'custom'];

const s500: FaultStep = { kind: 'status500' };
const s503: FaultStep = { kind: 'status503', shape: 'problem' };
const s503plain: FaultStep = { kind: 'status503', shape: 'plain' };
const edge429: FaultStep = { kind: 'status429', shape: 'plain' };
const bucket429: FaultStep = { kind: 'status429', shape: 'problem' };
const times = (n: number, step: FaultStep): FaultStep[] => Array.from({ length: n }, () => step);

/**
 * Issue 15: a purchase the service committed whose request then ends without a definite answer.
 * With the soak's settings the node sends a request at most 6 times, a 500 twice, an edge 429 once
 * (its whole-second Retry-After is above Max Retry Wait), and n8n's Retry On Fail runs the node twice:
 * the sequences below outlast one try, both tries, or reach into the executions-list retry.
 */
const AFTER_COMMIT: FaultRule[] = [
	// 500 after the commit, one more 500: the call gives up; Retry On Fail's second try replays it.
	{ method: 'POST', kind: 'status500', afterCommit: true, probability: 0.001, followedBy: [s500] },
	// 500 after the commit, then 500, then six 503s: both tries of the node end on a 5xx.
	{ method: 'POST', kind: 'status500', afterCommit: true, probability: 0.001, followedBy: [s500, ...times(6, s503)] },
	// 503 after the commit, five plain 503s, then the edge's 429: both tries end without an answer.
	{ method: 'POST', kind: 'status503', afterCommit: true, probability: 0.001, followedBy: [...times(5, s503plain), edge429] },
	// 500 after the commit, 503s, 429s, then 500s again: into the executions-list retry.
	{ method: 'POST', kind: 'status500', afterCommit: true, probability: 0.001, followedBy: [...times(5, s503), edge429, s500, s500] },
	// The answer dropped after the commit, then 503s and the edge's 429 as the last answers.
	{ method: 'POST', kind: 'drop-after-commit', probability: 0.001, followedBy: [...times(5, s503), edge429] },
	// The answer dropped after the commit, then 429s (bucket, edge) as the last answers.
	{ method: 'POST', kind: 'drop-after-commit', probability: 0.001, followedBy: [...times(5, bucket429), edge429] },
];

/**
 * n8n crashing during an execution (a restart), per execution, initial or retry: during Create
 * (once the service has seen a random number of the batch's requests) or right after it (when the
 * next node starts, so Create's recovered run is one artificial item and the retry runs it as run
 * index 1).
 */
const CRASH_DURING_CREATE = 0.07;
const CRASH_AFTER_CREATE = 0.07;

/** Every POST: about 40% of them draw a fault (first matching rule that fires, in this order). */
const FAULTS: FaultRule[] = [
	...AFTER_COMMIT,
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
	/** Executions n8n crashed during Create, and right after it. */
	crashedDuringCreate: number;
	crashedAfterCreate: number;
	/** Charges an execution that ended in error did not name, as saved. */
	unnamedAtSave: number;
	/** Input items on no output of their batch's final execution. */
	unfinished: number;
	keyLeaks: number;
	violations: string[];
}

interface SavedError {
	context?: {
		purchasedTaskIds?: string[];
		unansweredPurchases?: Array<{ idempotencyKey: string }>;
		idempotencyKey?: string;
		mayHaveBeenBought?: boolean;
	};
}

/**
 * What a saved execution names: decks (taskId) on its outputs or in its error, and the keys of
 * requests it says "may have been bought" (in its error, or on an error item).
 */
function namedBy(result: RunResult): { taskIds: Set<string>; keys: Set<string> } {
	const saved = result.runExecutionData as {
		resultData: {
			runData: Record<string, Array<{ data?: { main?: Array<INodeExecutionData[] | null> }; error?: SavedError }>>;
		};
	};
	const taskIds = new Set<string>();
	const keys = new Set<string>();
	for (const run of saved.resultData.runData[DECK] ?? []) {
		for (const items of run.data?.main ?? []) {
			for (const item of items ?? []) {
				if (typeof item.json.taskId === 'string') taskIds.add(item.json.taskId);
				const error = (item.json.error ?? item.json) as SavedError['context'];
				if (error?.mayHaveBeenBought && typeof error.idempotencyKey === 'string') keys.add(error.idempotencyKey);
			}
		}
		const context = run.error?.context;
		for (const taskId of context?.purchasedTaskIds ?? []) taskIds.add(taskId);
		for (const lost of context?.unansweredPurchases ?? []) keys.add(lost.idempotencyKey);
		if (context?.mayHaveBeenBought && context.idempotencyKey) keys.add(context.idempotencyKey);
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
		crashedDuringCreate: 0,
		crashedAfterCreate: 0,
		unnamedAtSave: 0,
		unfinished: 0,
		keyLeaks: 0,
		violations: [],
	};
	private readonly secrets: string[];
	private readonly unnamedCharges = new Set<string>();
	private readonly crashes: Rng;
	private readonly watch: RequestWatch;

	constructor(
		private readonly sim: Simulator,
		private readonly seed: number,
	) {
		this.secrets = Object.values(sim.keys);
		this.crashes = createRng(seed, 'soak-crashes');
		this.watch = new RequestWatch(sim);
	}

	close(): void {
		this.watch.close();
	}

	async runBatch(batchIndex: number, firstSpend: number, size: number): Promise<void> {
		const operation = OPERATIONS[batchIndex % OPERATIONS.length];
		const account = this.sim.control.createAccount({ balance: 1_000_000_000, subscriber: true });
		this.secrets.push(account.key);
		const redelivered = (operation === 'create' || operation === 'custom') && Math.floor(batchIndex / OPERATIONS.length) % REDELIVERY_EVERY === 0;
		const inputs = Array.from({ length: size }, (_, i) => this.spendItem(operation, account.key, firstSpend + i, redelivered));
		const workflow = workflowFor(operation);
		const credentials = { deckGenApi: { apiKey: account.key, baseUrl: this.sim.url } };

		const batch: Batch = { principalId: account.principalId, size, history: [], sentBeforeCrash: new Set() };
		// A lineage is one delivery and its executions-list retries; a redelivered batch has two, run at once.
		const lineages: RunResult[] = await Promise.all(
			Array.from({ length: redelivered ? 2 : 1 }, async () => await this.execute(workflow, batch, { credentials, inputItems: inputs })),
		);
		if (redelivered) this.tally.redeliveries++;

		const where = `batch ${batchIndex} (${operation})`;
		// A crash is n8n's doing, not the workflow's: its retry does not count against MAX_RETRIES.
		const errorRetries = lineages.map(() => 0);
		for (let round = 0; ; round++) {
			// As saved, before any further retry: every deck this batch bought is named somewhere.
			this.checkNamed(batch, lineages, `${where} round ${round}`);
			const failed = lineages
				.map((result, i) => ({ result, i }))
				.filter(({ result, i }) => result.status === 'crashed' || (result.status === 'error' && errorRetries[i] < MAX_RETRIES));
			if (!failed.length) break;
			await Promise.all(
				failed.map(async ({ result, i }) => {
					this.tally.retries++;
					if (result.status === 'error') errorRetries[i]++;
					lineages[i] = await this.execute(workflow, batch, { credentials, previousRun: result, mode: 'retry' });
				}),
			);
		}
		this.checkNamedInTheEnd(batch, where);

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

	/** One execution, which n8n may crash (CRASH_DURING_CREATE, CRASH_AFTER_CREATE). */
	private async execute(workflow: WorkflowJson, batch: Batch, options: Parameters<typeof runWorkflow>[1]): Promise<RunResult> {
		const draw = this.crashes.next();
		let crash: NonNullable<Parameters<typeof runWorkflow>[1]>['crash'];
		let stopWatching = () => {};
		if (draw < CRASH_DURING_CREATE) {
			// Killed once the service has seen the m-th request of the batch's account since the start.
			const kill = new AbortController();
			stopWatching = this.watch.after(batch.principalId, this.crashes.int(1, batch.size), () => kill.abort());
			crash = { signal: kill.signal };
		} else if (draw < CRASH_DURING_CREATE + CRASH_AFTER_CREATE) {
			crash = { atNodeStart: 'Success' };
		}
		let result: RunResult;
		try {
			result = await runWorkflow(workflow, { ...options, crash });
		} finally {
			stopWatching();
		}
		batch.history.push(result);
		this.tally.executions++;
		if (result.status === 'error') this.tally.erroredAfterRetryOnFail++;
		if (result.status === 'crashed') {
			if (crash?.signal) this.tally.crashedDuringCreate++;
			else this.tally.crashedAfterCreate++;
			// n8n kept nothing of what this execution bought, and a request that reached the service
			// before the crash may be committed after it; a retry must name them (checkNamedInTheEnd).
			// The restart takes a moment: every request sent before the crash has arrived by then.
			await sleep(50);
			for (const request of this.sim.ledger.requests) {
				if (request.principalId === batch.principalId && request.idempotencyKey) batch.sentBeforeCrash.add(request.idempotencyKey);
			}
		}
		this.checkLeaks(result);
		return result;
	}

	private chargesOf(batch: Batch): Charge[] {
		return this.sim.ledger.charges.filter((charge) => charge.principalId === batch.principalId);
	}

	private checkNamed(batch: Batch, lineages: RunResult[], where: string): void {
		if (lineages.every((result) => result.status !== 'error')) return;
		const named = namedByAll(lineages);
		for (const charge of this.chargesOf(batch)) {
			if (batch.sentBeforeCrash.has(charge.idempotencyKey)) continue;
			if (named.taskIds.has(charge.taskId) || named.keys.has(charge.idempotencyKey)) continue;
			this.tally.unnamedAtSave++;
			this.unnamed(charge, `${where}: deck ${charge.taskId} (${charge.operation}) was bought but the saved execution names it nowhere (${this.answersTo(charge)})`);
		}
	}

	/** Every deck the batch bought is named by one of its executions: an output item or a saved error. */
	private checkNamedInTheEnd(batch: Batch, where: string): void {
		const named = namedByAll(batch.history);
		for (const charge of this.chargesOf(batch)) {
			if (named.taskIds.has(charge.taskId) || named.keys.has(charge.idempotencyKey)) continue;
			const crashed = batch.sentBeforeCrash.has(charge.idempotencyKey) ? 'sent before a crash; ' : '';
			this.unnamed(charge, `${where}: deck ${charge.taskId} (${charge.operation}) was bought but none of its ${batch.history.length} executions names it (${crashed}${this.answersTo(charge)})`);
		}
	}

	/** What the requests with the charge's key were answered, for a violation's message. */
	private answersTo(charge: Charge): string {
		const answers = this.sim.ledger.requests
			.filter((r) => r.idempotencyKey === charge.idempotencyKey)
			.map((r) => `${r.status || 'no answer'}${r.faultAfterCommit ? ' after commit' : ''}`);
		return `its key was answered: ${answers.join(', ')}`;
	}

	private unnamed(charge: Charge, violation: string): void {
		if (this.unnamedCharges.has(charge.chargeId)) return;
		this.unnamedCharges.add(charge.chargeId);
		this.tally.violations.push(violation);
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

	/** Charges named nowhere: as saved before a retry, or by any execution of their batch (counted once each). */
	namedNowhere(): number {
		return this.unnamedCharges.size;
	}
}

interface Batch {
	principalId: string;
	size: number;
	/** Every execution of the batch: deliveries, crashed ones and retries. */
	history: RunResult[];
	/** Idempotency keys the service had received when one of the batch's executions crashed. */
	sentBeforeCrash: Set<string>;
}

function namedByAll(results: RunResult[]): { taskIds: Set<string>; keys: Set<string> } {
	const taskIds = new Set<string>();
	const keys = new Set<string>();
	for (const result of results) {
		const named = namedBy(result);
		named.taskIds.forEach((t) => taskIds.add(t));
		named.keys.forEach((k) => keys.add(k));
	}
	return { taskIds, keys };
}

/**
 * Calls back once the service has seen the n-th request of an account (past authentication) from
 * now on: the moment a crash during Create strikes. Reads the simulator's ledger every 2 ms.
 */
class RequestWatch {
	private seen = 0;
	private readonly watchers = new Set<{ principalId: string; left: number; fire: () => void }>();
	private readonly timer: NodeJS.Timeout;

	constructor(private readonly sim: Simulator) {
		this.seen = sim.ledger.requests.length;
		this.timer = setInterval(() => this.poll(), 2);
	}

	after(principalId: string, n: number, fire: () => void): () => void {
		this.poll();
		const watcher = { principalId, left: n, fire };
		this.watchers.add(watcher);
		return () => this.watchers.delete(watcher);
	}

	private poll(): void {
		const { requests } = this.sim.ledger;
		for (; this.seen < requests.length; this.seen++) {
			const principalId = requests[this.seen].principalId;
			if (!principalId) continue;
			for (const watcher of this.watchers) {
				if (watcher.principalId !== principalId || --watcher.left > 0) continue;
				this.watchers.delete(watcher);
				watcher.fire();
			}
		}
	}

	close(): void {
		clearInterval(this.timer);
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

/**
 * Faults by kind, as the simulator injected them, plus the 409 conflicts (already_in_progress from a
 * redelivery meeting a slow original; a deck busy with a second purchase made under a new key). A
 * 500/503 after the commit and the faults that followed one for the same request have rows of their own.
 */
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
	counts['500 after commit'] = 0;
	counts['503 after commit'] = 0;
	counts['same request again: 5xx, 429'] = 0;
	counts['409 conflict'] = 0;
	for (const record of requests) {
		if (record.faultFollowUp) {
			counts['same request again: 5xx, 429']++;
		} else if (record.faultAfterCommit) {
			counts[`${record.fault === 'status500' ? 500 : 503} after commit`]++;
		} else if (record.fault) {
			const shaped = record.fault === 'status503' || record.fault === 'status429' ? `${record.fault} ${record.faultShape ?? 'problem'}` : record.fault;
			counts[label[shaped] ?? shaped] = (counts[label[shaped] ?? shaped] ?? 0) + 1;
		} else if (record.status === 409) {
			counts['409 conflict']++;
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
		soak.close();
		await sim.close();
	}

	const { tally } = soak;
	const double = doubleCharges(sim.ledger.charges, sim.ledger.requests);
	const faults = faultsByKind(sim.ledger.requests);
	const namedNowhere = soak.namedNowhere();
	const lost = namedNowhere + tally.unfinished;
	const wallSeconds = Math.round((Date.now() - started) / 100) / 10;
	const totalFaults = Object.values(faults).reduce((a, b) => a + b, 0);
	const posts = sim.ledger.requests.filter((r) => r.method === 'POST').length;

	const rows: Array<[string, string]> = [
		['spends', String(args.spends)],
		['requests', `${sim.ledger.requests.length} (POST ${posts})`],
		['faults', `${totalFaults} (${((100 * totalFaults) / Math.max(1, posts)).toFixed(1)}% of requests)`],
		...Object.entries(faults).map(([kind, count]): [string, string] => [`  ${kind}`, String(count)]),
		['n8n crashed (restart, retry)', `${tally.crashedDuringCreate + tally.crashedAfterCreate}`],
		['  during Create', String(tally.crashedDuringCreate)],
		['  after Create', String(tally.crashedAfterCreate)],
		['executions', `${tally.executions} (redelivered batches ${tally.redeliveries}, executions-list retries ${tally.retries})`],
		['ended in error after Retry On Fail', String(tally.erroredAfterRetryOnFail)],
		['charges', String(sim.ledger.charges.length)],
		['double charges', String(double.count)],
		['named nowhere', String(namedNowhere)],
		['unfinished items', String(tally.unfinished)],
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
			namedNowhere,
			unfinished: tally.unfinished,
			lost,
			keyLeaks: tally.keyLeaks,
			faults,
			executions: tally.executions,
			retries: tally.retries,
			redeliveries: tally.redeliveries,
			erroredAfterRetryOnFail: tally.erroredAfterRetryOnFail,
			crashedDuringCreate: tally.crashedDuringCreate,
			crashedAfterCreate: tally.crashedAfterCreate,
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
	// The point of the fault rates: every check must have had something to check.
	const unexercised = [
		tally.erroredAfterRetryOnFail === 0 && 'no execution ended in error after Retry On Fail (the saved errors)',
		tally.crashedDuringCreate === 0 && 'no crash during Create',
		tally.crashedAfterCreate === 0 && 'no crash after Create',
		faults['500 after commit'] + faults['503 after commit'] === 0 && 'no 5xx after a commit',
	].filter((reason): reason is string => typeof reason === 'string');
	if (unexercised.length) {
		console.log(`\nFAILED: the fault plan no longer tests everything: ${unexercised.join('; ')}`);
		process.exitCode = 1;
		return;
	}
	console.log('\nPASSED: every bought deck charged once and named, nothing lost, no key leaked');
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
