/**
 * Issue 15, in a real n8n: "it never buys twice, whatever n8n does". The table, rerun with the
 * workflow as a user builds it (./fixtures/user-workflow.ts: Webhook → Split Out → Create, no
 * Idempotency Key option → Wait, Wait Until Done → No Operation; default workflow settings, so n8n
 * does NOT save execution progress), n8n 2.41.1 in regular mode on SQLite, three briefs per request:
 *
 * - SIGKILL while the Wait node polls; n8n restarted on the same database (same user folder, so the
 *   same encryption key); the execution is `crashed`; Retry from the executions list
 *   (`POST /rest/executions/:id/retry`), `loadWorkflow` false, then true: charges = decks (3) and each
 *   retry's Completed output carries the decks bought before the crash.
 * - SIGTERM (a deploy, `docker restart`) during Wait Until Done, with n8n's graceful-shutdown timeout
 *   running out: the same. N8N_GRACEFUL_SHUTDOWN_TIMEOUT is 3 s here instead of the default 30 s, only
 *   to keep the test short: what matters is that the deck outlasts it (the decks took 2
 *   minutes against the default 30 s).
 * - SIGKILL with the workflow setting "Save execution progress" on: the Retry resumes at the Wait
 *   node and buys nothing.
 * - The editor: a run from the test webhook, then *Execute step* on the Wait node with Create's data
 *   gone (`POST /rest/workflows/:id/run` with `runData` lacking Create and `destinationNode` the Wait
 *   node, what the editor sends); n8n runs the parent that has no data (Create) again: no second
 *   purchase. Then the same with no run data at all (a page reload): n8n starts from the trigger, which
 *   waits for the test event; the same event again buys nothing either.
 *
 * What n8n 2.41.1 does, from its sources: a regular-mode main saves an execution's data at its start,
 * at a wait and at its end (more only with "save execution progress", `save-execution-progress`), so a
 * process that dies mid-run leaves the start state; at the next start the event log names the
 * unfinished execution and `ExecutionRecoveryService` marks it `crashed`, giving every node that
 * finished an artificial item (`ARTIFICIAL_TASK_DATA`), Create's output among them. Retry
 * (`ExecutionService.retry`) runs the saved `nodeExecutionStack` again under a new execution id (from
 * the trigger here), `loadWorkflow: true` only swapping in the saved workflow. On SIGTERM
 * (`BaseCommand.onTerminationSignal`) n8n waits for running executions (`ActiveExecutions.shutdown`)
 * and exits after N8N_GRACEFUL_SHUTDOWN_TIMEOUT seconds whatever is still running, unsaved. A manual
 * run with `runData` and a `destinationNode` (`WorkflowExecutionService.executeManually`) is a partial
 * execution when a root reachable from the destination has run data; it starts at the nodes without
 * data whose parents have some; with no run data it becomes a full run from the trigger (a Webhook
 * trigger answers `{ waitingForWebhook: true }` and waits for the test event).
 *
 * Each row prints `E2E restart v2: <row>: charges X for Y decks, retry completed Z`. About 4-5 minutes
 * (three n8n starts). Queue mode (a worker killed after Create answered) is in queue.e2e.ts, on its
 * stack. n8n 1.123 is not run here: see test/e2e/README.md.
 *
 * Run: DECKGEN_E2E_FLAVORS=v2 npx jest --selectProjects reference --roots test/e2e --testMatch '**\/restart.e2e.ts' \
 *   --testPathIgnorePatterns /node_modules/ --testTimeout 600000 --runInBand
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

import { start, type Simulator } from '../simulator';
import { ensureBuilt, REPO } from './fixtures/build';
import { CREDENTIAL_TYPE } from './fixtures/examples';
import {
	briefs,
	chargesSince,
	completedTaskIds,
	CREATE_NODE,
	createRequestsSince,
	itemsOut,
	SPLIT_NODE,
	statusReads,
	userBuiltWorkflow,
	WAIT_NODE,
	WEBHOOK_NODE,
} from './fixtures/user-workflow';
import { ensureN8n, e2eFlavors } from './n8n-install';
import { closeHttpClients, startN8n, type ExecutionDetail, type N8nInstance } from './n8n-instance';
import { signalGroup } from './owned-process';

const flavors = e2eFlavors();
const describeV2 = flavors.includes('v2') ? describe : describe.skip;

/**
 * Simulator clock: decks of 90-120 sim seconds take 15-20 s, several polls of the Wait node (5 s apart).
 * The decks of a request that is to crash are also held "generating" (a status override) until n8n has
 * restarted, so that however slow the machine, every deck is still generating when n8n dies; decks a
 * retry buys are not held.
 */
const SIM_SPEED = 6;
const DECK_SIM_MS: [number, number] = [90_000, 120_000];
const DECKS = 3;
const GRACEFUL_SHUTDOWN_SECONDS = 3;
const ENV = { N8N_GRACEFUL_SHUTDOWN_TIMEOUT: String(GRACEFUL_SHUTDOWN_SECONDS) };
const RUN_TIMEOUT_MS = 120_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Json = Record<string, any>;

function alive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}

describeV2('issue 15 in real n8n v2 (2.41.1, regular mode, SQLite): restarts, crashes, retries and editor re-runs never buy twice', () => {
	let sim: Simulator;
	let n8n: N8nInstance;
	let userFolder: string;
	const workflows: Record<'plain' | 'saved' | 'editor', string> = { plain: '', saved: '', editor: '' };
	const paths = { plain: 'issue15-plain', saved: 'issue15-saved', editor: 'issue15-editor' };
	const report: Json = {};

	beforeAll(async () => {
		ensureBuilt();
		await ensureN8n('v2');
		sim = await start({ seed: 15, clock: { speed: SIM_SPEED }, deckDurationMs: DECK_SIM_MS, limits: { maxConcurrentDecks: 100, retryAfterMs: 20 } });
		userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'deckgen-n8n-restart-'));
		n8n = await startN8n({ flavor: 'v2', packageDir: REPO, userFolder, env: ENV });
		report.startupSeconds = [n8n.startupSeconds];
		const credential = await n8n.createCredential({ name: 'Deck Generator (simulator)', type: CREDENTIAL_TYPE, data: { apiKey: sim.keys.personal, baseUrl: sim.url } });
		const make = (key: keyof typeof workflows, settings?: Json) =>
			n8n.importWorkflow(userBuiltWorkflow({ name: `Issue 15 ${key} (e2e)`, path: paths[key], credential, nodeTypePrefix: n8n.nodeTypePrefix, settings, idPrefix: `f15${key}` }));
		workflows.plain = await make('plain');
		workflows.saved = await make('saved', { saveExecutionProgress: true });
		workflows.editor = await make('editor');
		await n8n.activate(workflows.plain);
		await n8n.activate(workflows.saved);
	});

	afterAll(async () => {
		await n8n?.stop();
		await sim?.close();
		await closeHttpClients();
		if (userFolder) fs.rmSync(userFolder, { recursive: true, force: true });
		console.log(`E2E_RESTART_REPORT ${JSON.stringify(report)}`);
	});

	const line = (row: string, charges: number, decks: number, completed: string) => {
		const text = `E2E restart v2: ${row}: charges ${charges} for ${decks} decks, retry completed ${completed}`;
		console.log(text);
		(report.rows ??= []).push(text);
	};

	/** Where a request stands in the simulator's ledger: what comes after it is the request's. */
	const mark = () => ({ charges: sim.ledger.charges.length, requests: sim.ledger.requests.length });

	const held = new Set<string>();
	const hold = (taskId: string) => {
		held.add(taskId);
		sim.control.holdDeck(taskId, true);
	};
	/** Lets held decks end: each then reports its own state (done by now: 15-20 s each). */
	const release = (taskIds: string[]) => {
		for (const taskId of taskIds) sim.control.holdDeck(taskId, false);
	};

	/** A webhook call with `label`'s briefs; resolves with its execution once the Wait node has read every deck's status. */
	async function fireAndReachWait(workflow: keyof typeof workflows, label: string): Promise<{ executionId: string; taskIds: string[]; at: ReturnType<typeof mark> }> {
		const at = mark();
		const known = new Set((await n8n.listExecutions({ workflowId: workflows[workflow] })).map((e) => String(e.id)));
		const answer = await n8n.runWebhook({ path: paths[workflow], body: { briefs: briefs(label) } });
		expect(answer.status).toBe(200);
		const deadline = Date.now() + RUN_TIMEOUT_MS;
		for (;;) {
			const taskIds = chargesSince(sim, at.charges).map((c) => c.taskId);
			const fresh = (await n8n.listExecutions({ workflowId: workflows[workflow] })).filter((e) => !known.has(String(e.id)));
			// the decks are held running (holdDeck: the word and the record) until the test lets them end (after the restart): a slow machine cannot finish them before the crash
			if (taskIds.length === DECKS) for (const taskId of taskIds) if (!held.has(taskId)) hold(taskId);
			if (fresh.length === 1 && taskIds.length === DECKS && statusReads(sim, taskIds).every((n) => n >= 1)) {
				// still polling: no deck is done yet, the execution is running
				expect({ label, status: fresh[0].status }).toEqual({ label, status: 'running' });
				return { executionId: String(fresh[0].id), taskIds, at };
			}
			if (Date.now() > deadline) throw new Error(`${label}: the Wait node did not poll the decks: ${taskIds.length} charged, executions ${JSON.stringify(fresh)}\n${n8n.logs.split('\n').slice(-30).join('\n')}`);
			await sleep(200);
		}
	}

	/**
	 * Ends n8n as `signal` would: SIGKILL the whole process group (an OOM kill of the container), or
	 * SIGTERM to n8n's main process only (what `docker stop`/`restart` sends to PID 1), and waits for it
	 * to be gone. Then starts n8n again on the same user folder (database, encryption key, installed
	 * package) and port.
	 */
	async function crashAndRestart(signal: 'SIGKILL' | 'SIGTERM'): Promise<{ exitSeconds: number; logs: string }> {
		const old = n8n;
		const t = Date.now();
		if (signal === 'SIGKILL') signalGroup(old.pid, 'SIGKILL');
		else process.kill(old.pid, 'SIGTERM');
		while (alive(old.pid)) {
			if (Date.now() - t > 60_000) throw new Error(`n8n (pid ${old.pid}) still running 60 s after ${signal}`);
			await sleep(50);
		}
		const exitSeconds = (Date.now() - t) / 1000;
		const logs = old.logs;
		await old.stop(); // what is left of its process group (the task runner); the user folder is ours, kept
		n8n = await startN8n({ flavor: 'v2', userFolder, port: old.port, brokerPort: old.brokerPort, env: ENV });
		report.startupSeconds.push(n8n.startupSeconds);
		return { exitSeconds, logs };
	}

	/** Retry from the executions list, as the list's Retry menu does; resolves with the finished retry. */
	async function retry(executionId: string, loadWorkflow: boolean): Promise<ExecutionDetail> {
		const { execution } = await n8n.retryExecution(executionId, { loadWorkflow });
		if (!execution) throw new Error(`retry of ${executionId} (loadWorkflow ${loadWorkflow}) started no execution`);
		return execution;
	}

	interface RetryRow {
		loadWorkflow: boolean;
		status: string;
		retryOf: string;
		completed: string[];
		createRan: boolean;
		createRequests: number;
		/** task ids charged while this retry ran */
		newCharges: string[];
		/** Create's items in the retry, as `replayed` says (true: the service replayed the purchase) */
		createReplayed: unknown[];
	}

	/** Both retries of a crashed execution, one after the other, with what each bought and delivered. */
	async function retryBoth(executionId: string): Promise<RetryRow[]> {
		const rows: RetryRow[] = [];
		for (const loadWorkflow of [false, true]) {
			const before = mark();
			const e = await retry(executionId, loadWorkflow);
			const creates = e.data.resultData.runData[CREATE_NODE] as Json[] | undefined;
			rows.push({
				loadWorkflow,
				status: e.status,
				retryOf: String(e.retryOf),
				completed: completedTaskIds(e),
				// the retry ran Create when Create has a run newer than the saved ones
				createRan: (creates ?? []).some((r) => (r.startTime ?? 0) >= Date.parse(e.startedAt ?? '') - 1_000),
				createRequests: createRequestsSince(sim, before.requests),
				newCharges: chargesSince(sim, before.charges).map((c) => c.taskId),
				createReplayed: itemsOut(e, CREATE_NODE).map((j) => j.replayed),
			});
		}
		return rows;
	}

	const sorted = (a: string[]) => [...a].sort();

	/** A crash row: the crashed execution's retries bought nothing and delivered the decks bought before the crash. */
	function expectOneChargePerDeck(row: string, executionId: string, bought: string[], retries: RetryRow[]) {
		let charges = bought.length;
		for (const r of retries) {
			charges += r.newCharges.length;
			line(`${row}, Retry loadWorkflow ${r.loadWorkflow}`, charges, DECKS, `${r.status}, ${r.completed.length} decks on Completed, ${r.completed.filter((t) => bought.includes(t)).length} of them bought before the crash`);
		}
		expect({ row, charges: [...bought, ...retries.flatMap((r) => r.newCharges)].length }).toEqual({ row, charges: DECKS });
		for (const r of retries) {
			expect({ loadWorkflow: r.loadWorkflow, status: r.status, retryOf: r.retryOf }).toEqual({ loadWorkflow: r.loadWorkflow, status: 'success', retryOf: executionId });
			expect({ loadWorkflow: r.loadWorkflow, completed: sorted(r.completed) }).toEqual({ loadWorkflow: r.loadWorkflow, completed: sorted(bought) });
			// Create ran again and the service replayed each purchase
			expect({ loadWorkflow: r.loadWorkflow, createRan: r.createRan, createReplayed: r.createReplayed }).toEqual({ loadWorkflow: r.loadWorkflow, createRan: true, createReplayed: bought.map(() => true) });
		}
	}

	/** Each purchase was logged by the n8n that made it (info level), so an administrator finds the decks after the crash. */
	function expectNamedInLog(logs: string, taskIds: string[]) {
		expect(taskIds.filter((taskId) => !new RegExp(`purchase made, taskId ${taskId}`).test(logs))).toEqual([]);
	}

	const killed: Json = {};

	it('SIGKILL while the Wait node polls (default settings): crashed after the restart; Retry with loadWorkflow false and true: one charge per deck, the decks bought before the crash on Completed', async () => {
		const plain = await fireAndReachWait('plain', 'SIGKILL');
		const saved = await fireAndReachWait('saved', 'SIGKILL, progress saved');
		const { exitSeconds, logs } = await crashAndRestart('SIGKILL');
		Object.assign(killed, { plain, saved, exitSeconds });
		expectNamedInLog(logs, [...plain.taskIds, ...saved.taskIds]);
		release([...plain.taskIds, ...saved.taskIds]);

		const crashedPlain = await n8n.getExecution(plain.executionId);
		const crashedSaved = await n8n.getExecution(saved.executionId);
		killed.savedCreate = itemsOut(crashedSaved, CREATE_NODE).map((j) => j.taskId);
		killed.savedStatus = crashedSaved.status;
		report.sigkill = { plainStatus: crashedPlain.status, plainCreateSaved: itemsOut(crashedPlain, CREATE_NODE), savedStatus: crashedSaved.status, savedCreate: killed.savedCreate };
		expect(crashedPlain.status).toBe('crashed');
		// without saved progress n8n kept nothing of Create's answers: what recovery left is not a deck
		expect(itemsOut(crashedPlain, CREATE_NODE).map((j) => j.taskId).filter(Boolean)).toEqual([]);

		// the progress-saved one first (the next test asserts it): its retries must buy nothing
		killed.savedRetries = await retryBoth(saved.executionId);

		const retries = await retryBoth(plain.executionId);
		report.sigkill.retries = retries;
		expectOneChargePerDeck('SIGKILL, default settings', plain.executionId, plain.taskIds, retries);
	});

	it('SIGKILL with "Save execution progress" on: the Retry resumes at the Wait node and buys nothing', () => {
		expect(killed.savedRetries).toBeDefined();
		const rows = killed.savedRetries as RetryRow[];
		let charges = (killed.saved.taskIds as string[]).length;
		for (const r of rows) {
			charges += r.newCharges.length;
			line(`SIGKILL, save execution progress, Retry loadWorkflow ${r.loadWorkflow}`, charges, DECKS, `${r.status}, ${r.completed.length} decks on Completed, ${r.createRequests} Create requests`);
		}
		expect(killed.savedStatus).toBe('crashed');
		expect(sorted(killed.savedCreate)).toEqual(sorted(killed.saved.taskIds));
		for (const r of rows) {
			expect({ loadWorkflow: r.loadWorkflow, status: r.status, createRan: r.createRan, createRequests: r.createRequests }).toEqual({
				loadWorkflow: r.loadWorkflow,
				status: 'success',
				createRan: false,
				createRequests: 0,
			});
			expect(sorted(r.completed)).toEqual(sorted(killed.saved.taskIds));
		}
	});

	it(`SIGTERM during Wait Until Done, graceful-shutdown timeout (${GRACEFUL_SHUTDOWN_SECONDS} s) runs out: crashed; Retry with loadWorkflow false and true: one charge per deck`, async () => {
		const run = await fireAndReachWait('plain', 'SIGTERM');
		const { exitSeconds, logs } = await crashAndRestart('SIGTERM');
		report.sigterm = { exitSeconds };
		release(run.taskIds);
		// n8n waited for the execution, then gave up at the timeout (not at once, not after the deck)
		expect(logs).toMatch(new RegExp(`Shutdown timed out after ${GRACEFUL_SHUTDOWN_SECONDS} seconds`));
		expect(exitSeconds).toBeGreaterThanOrEqual(GRACEFUL_SHUTDOWN_SECONDS - 0.5);
		expectNamedInLog(logs, run.taskIds);
		const crashed = await n8n.getExecution(run.executionId);
		report.sigterm.status = crashed.status;
		expect(crashed.status).toBe('crashed');
		const retries = await retryBoth(run.executionId);
		report.sigterm.retries = retries;
		expectOneChargePerDeck(`SIGTERM, graceful shutdown ${GRACEFUL_SHUTDOWN_SECONDS} s`, run.executionId, run.taskIds, retries);
	});

	it('the editor: Execute step on the Wait node with Create\'s data gone, then with no run data at all, buys nothing again', async () => {
		const id = workflows.editor;
		const body = { briefs: briefs('editor') };
		const at = mark();
		const known = new Set((await n8n.listExecutions({ workflowId: id })).map((e) => String(e.id)));
		const newExecution = async () => {
			const deadline = Date.now() + 30_000;
			for (;;) {
				const fresh = (await n8n.listExecutions({ workflowId: id })).filter((e) => !known.has(String(e.id)));
				if (fresh[0]) {
					known.add(String(fresh[0].id));
					return String(fresh[0].id);
				}
				if (Date.now() > deadline) throw new Error('the test event started no execution');
				await sleep(200);
			}
		};
		/** "Execute workflow" / "Execute step" with a Webhook trigger: n8n waits for the test event, which then runs. */
		const viaTestEvent = async (payload: Json) => {
			const started = await n8n.rest.post(`/rest/workflows/${id}/run`, payload);
			expect(started).toEqual({ waitingForWebhook: true });
			const answer = await n8n.runWebhook({ path: paths.editor, body, test: true });
			expect(answer.status).toBe(200);
			return n8n.waitForExecution(await newExecution(), { timeoutMs: RUN_TIMEOUT_MS });
		};

		// a first run from the test event, as a user building the workflow does
		const first = await viaTestEvent({ triggerToStartFrom: { name: WEBHOOK_NODE } });
		expect(first.status).toBe('success');
		const bought = chargesSince(sim, at.charges).map((c) => c.taskId);
		expect(sorted(completedTaskIds(first))).toEqual(sorted(bought));

		// Execute step on the Wait node, with the trigger's and Split Out's data but Create's gone
		const rd = first.data.resultData.runData;
		const partialRun = await n8n.rest.post(`/rest/workflows/${id}/run`, {
			runData: { [WEBHOOK_NODE]: rd[WEBHOOK_NODE], [SPLIT_NODE]: rd[SPLIT_NODE] },
			destinationNode: { nodeName: WAIT_NODE, mode: 'inclusive' },
			dirtyNodeNames: [],
		});
		expect(partialRun.executionId).toBeDefined();
		known.add(String(partialRun.executionId));
		const partial = await n8n.waitForExecution(String(partialRun.executionId), { timeoutMs: RUN_TIMEOUT_MS });
		const partialRan = Object.keys(partial.data.resultData.runData);
		const afterPartial = chargesSince(sim, at.charges).map((c) => c.taskId);
		line('editor, Execute step on Wait with Create\'s data gone', afterPartial.length, DECKS, `${partial.status}, ${completedTaskIds(partial).length} decks on Completed, ran ${partialRan.join(', ')}`);

		// after a page reload (no run data at all): n8n runs from the trigger, the same test event again
		const reloaded = await viaTestEvent({ runData: {}, destinationNode: { nodeName: WAIT_NODE, mode: 'inclusive' }, dirtyNodeNames: [] });
		const afterReload = chargesSince(sim, at.charges).map((c) => c.taskId);
		line('editor, Execute step on Wait after a reload, same test event', afterReload.length, DECKS, `${reloaded.status}, ${completedTaskIds(reloaded).length} decks on Completed`);
		report.editor = { partialRan, partialStatus: partial.status, reloadedStatus: reloaded.status, charges: afterReload.length };

		// n8n ran the parent that had no data (Create) again...
		expect(partialRan).toEqual(expect.arrayContaining([CREATE_NODE, WAIT_NODE]));
		expect(partial.status).toBe('success');
		// ...which replayed the purchases: no new deck, the same decks on Completed
		expect(sorted(afterPartial)).toEqual(sorted(bought));
		expect(sorted(completedTaskIds(partial))).toEqual(sorted(bought));
		expect(itemsOut(partial, CREATE_NODE).map((j) => j.replayed)).toEqual(bought.map(() => true));
		expect(reloaded.status).toBe('success');
		expect(sorted(afterReload)).toEqual(sorted(bought));
		expect(sorted(completedTaskIds(reloaded))).toEqual(sorted(bought));
	});
});
