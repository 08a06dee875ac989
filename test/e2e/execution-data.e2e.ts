/**
 * What waiting for a deck leaves in n8n's execution history, in a real n8n: this package's
 * Create → Wait against the loop a user builds by hand (HTTP Request → Wait 5 s → HTTP Request →
 * IF, back to Wait), for the same deck.
 *
 * Time is compressed so the run takes seconds: the simulator's clock runs SPEED× fast, a deck takes
 * DECK_SIM_MS of sim time, and both the user's Wait and the node's Poll Interval are the contract's
 * 5 sim seconds. The loop's stored bytes and node runs grow with every poll, ours do not; both are
 * extrapolated to a 30-minute deck polled every 5 s (360 polls) and compared: ours must be at least
 * 50× smaller on both. Prints `E2E execution-data <flavor>: ...`.
 *
 * Run: DECKGEN_E2E_FLAVORS=v2 npm run test:e2e -- test/e2e/execution-data.e2e.ts
 */
import { randomUUID } from 'crypto';

import { start, type Simulator } from '../simulator';
import { ensureBuilt, REPO } from './fixtures/build';
import { CREDENTIAL_TYPE, PACKAGE } from './fixtures/examples';
import { ensureN8n, type Flavor, e2eFlavors } from './n8n-install';
import { closeHttpClients, startN8n, type N8nInstance, type WorkflowJson } from './n8n-instance';

const flavors: Flavor[] = e2eFlavors();

const SPEED = 20;
const POLL_SIM_MS = 5_000;
const POLL_REAL_S = POLL_SIM_MS / SPEED / 1_000;
/** 80 sim seconds: about sixteen polls, four seconds of real time (room for a slow machine to make three). */
const DECK_SIM_MS = 80_000;
const POLLS_IN_30_MINUTES = (30 * 60_000) / POLL_SIM_MS;
const PRICE = 10;

type Json = Record<string, any>;

interface Stored {
	/** The execution's data as n8n stores it (the flatted string of `GET /rest/executions/:id`). */
	bytes: number;
	/** Node runs in the stored run data. */
	runs: number;
	/** Status reads the simulator answered for this deck. */
	polls: number;
	/** Stored bytes and runs of the nodes that run once per poll (the loop only). */
	perPoll?: { bytes: number; runs: number };
}

/** Node runs and the JSON size of each node's stored runs. */
function runsOf(runData: Json): Map<string, { runs: number; bytes: number }> {
	const result = new Map<string, { runs: number; bytes: number }>();
	for (const [name, runs] of Object.entries(runData ?? {})) result.set(name, { runs: (runs as unknown[]).length, bytes: JSON.stringify(runs).length });
	return result;
}

function position(i: number): [number, number] {
	return [i * 220, 0];
}

describe.each(flavors)('execution data per deck in real n8n %s: package vs hand-built loop', (flavor) => {
	let sim: Simulator;
	let n8n: N8nInstance;
	let deckGen: { id: string; name: string };
	let headerAuth: { id: string; name: string };

	beforeAll(async () => {
		ensureBuilt();
		await ensureN8n(flavor);
		sim = await start({ seed: 9, clock: { speed: SPEED }, deckDurationMs: [DECK_SIM_MS, DECK_SIM_MS], limits: { maxConcurrentDecks: 100 } });
		n8n = await startN8n({ flavor, packageDir: REPO });
		deckGen = await n8n.createCredential({ name: 'Deck Generator (simulator)', type: CREDENTIAL_TYPE, data: { apiKey: sim.keys.personal, baseUrl: sim.url } });
		// What a user without the package would use: a Header Auth credential on HTTP Request nodes.
		headerAuth = await n8n.createCredential({
			name: 'Deck service header',
			type: 'httpHeaderAuth',
			data: { name: 'Authorization', value: `Bearer ${sim.keys.personal}` },
		});
	});

	afterAll(async () => {
		await n8n?.stop();
		await sim?.close();
		await closeHttpClients();
	});

	/** Runs a workflow by hand, once, and reads what n8n stored for it. */
	async function runAndMeasure(workflow: WorkflowJson, pollNodes: string[] = []): Promise<Stored> {
		const before = sim.ledger.requests.filter((r) => r.path.endsWith('/status')).length;
		const id = await n8n.importWorkflow(workflow);
		const execution = await n8n.runManually(id, { timeoutMs: 60_000 });
		expect(execution.status).toBe('success');
		const raw = await n8n.rest.get(`/rest/executions/${execution.id}`);
		const stored = typeof raw.data === 'string' ? raw.data : JSON.stringify(raw.data);
		const nodes = runsOf(execution.data.resultData.runData);
		const polls = sim.ledger.requests.filter((r) => r.path.endsWith('/status')).length - before;
		const result: Stored = { bytes: Buffer.byteLength(stored), runs: [...nodes.values()].reduce((sum, node) => sum + node.runs, 0), polls };
		if (pollNodes.length) {
			const inLoop = pollNodes.map((name) => nodes.get(name)!);
			const rounds = inLoop[0].runs;
			const allJson = [...nodes.values()].reduce((sum, node) => sum + node.bytes, 0);
			// The stored string is the run data plus n8n's own envelope: share it out by JSON size.
			const loopShare = inLoop.reduce((sum, node) => sum + node.bytes, 0) / allJson;
			result.perPoll = { bytes: (result.bytes * loopShare) / rounds, runs: inLoop.reduce((sum, node) => sum + node.runs, 0) / rounds };
		}
		return result;
	}

	const trigger = { id: randomUUID(), name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: position(0), parameters: {} };
	const header = () => ({ httpHeaderAuth: { id: headerAuth.id, name: headerAuth.name } });

	function handBuiltLoop(): WorkflowJson {
		return {
			name: `Hand-built status loop (${flavor})`,
			nodes: [
				trigger,
				{
					id: randomUUID(),
					name: 'Create deck',
					type: 'n8n-nodes-base.httpRequest',
					typeVersion: 4.2,
					position: position(1),
					credentials: header(),
					parameters: {
						method: 'POST',
						url: `${sim.url}/v1/decks`,
						authentication: 'genericCredentialType',
						genericAuthType: 'httpHeaderAuth',
						sendHeaders: true,
						headerParameters: { parameters: [{ name: 'Idempotency-Key', value: '={{ $execution.id }}-deck' }] },
						sendBody: true,
						specifyBody: 'json',
						jsonBody: JSON.stringify({ title: 'Q3 review', core_message: 'Growth is back', expected_credits: PRICE }),
						options: {},
					},
				},
				{
					id: randomUUID(),
					name: 'Wait 5 s',
					type: 'n8n-nodes-base.wait',
					typeVersion: 1.1,
					position: position(2),
					webhookId: randomUUID(),
					parameters: { resume: 'timeInterval', amount: POLL_REAL_S, unit: 'seconds' },
				},
				{
					id: randomUUID(),
					name: 'Get status',
					type: 'n8n-nodes-base.httpRequest',
					typeVersion: 4.2,
					position: position(3),
					credentials: header(),
					parameters: {
						method: 'GET',
						url: `=${sim.url}/v1/decks/{{ $json.taskId }}/status`,
						authentication: 'genericCredentialType',
						genericAuthType: 'httpHeaderAuth',
						options: {},
					},
				},
				{
					id: randomUUID(),
					name: 'Done?',
					type: 'n8n-nodes-base.if',
					typeVersion: 2,
					position: position(4),
					parameters: {
						conditions: {
							options: { caseSensitive: true, leftValue: '', typeValidation: 'strict' },
							conditions: [{ id: randomUUID(), leftValue: '={{ $json.status }}', rightValue: 'completed', operator: { type: 'string', operation: 'equals' } }],
							combinator: 'and',
						},
						options: {},
					},
				},
				{ id: randomUUID(), name: 'Deck ready', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: position(5), parameters: {} },
			],
			connections: {
				Start: { main: [[{ node: 'Create deck', type: 'main', index: 0 }]] },
				'Create deck': { main: [[{ node: 'Wait 5 s', type: 'main', index: 0 }]] },
				'Wait 5 s': { main: [[{ node: 'Get status', type: 'main', index: 0 }]] },
				'Get status': { main: [[{ node: 'Done?', type: 'main', index: 0 }]] },
				'Done?': { main: [[{ node: 'Deck ready', type: 'main', index: 0 }], [{ node: 'Wait 5 s', type: 'main', index: 0 }]] },
			},
			settings: { executionOrder: 'v1' },
		};
	}

	function withPackage(): WorkflowJson {
		const credentials = { [CREDENTIAL_TYPE]: { id: deckGen.id, name: deckGen.name } };
		return {
			name: `Deck Generator Create and Wait (${flavor})`,
			nodes: [
				trigger,
				{
					id: randomUUID(),
					name: 'Create',
					type: `${PACKAGE}.deckGen`,
					typeVersion: 1,
					position: position(1),
					credentials,
					parameters: { resource: 'deck', operation: 'create', expectedCredits: PRICE, title: 'Q3 review', coreMessage: 'Growth is back' },
				},
				{
					id: randomUUID(),
					name: 'Wait for Deck',
					type: `${PACKAGE}.deckGenWait`,
					typeVersion: 1,
					position: position(2),
					credentials,
					parameters: { mode: 'waitUntilDone', taskIdField: 'taskId', options: { pollIntervalSeconds: POLL_REAL_S, maxWaitMinutes: 5 } },
				},
			],
			connections: {
				Start: { main: [[{ node: 'Create', type: 'main', index: 0 }]] },
				Create: { main: [[{ node: 'Wait for Deck', type: 'main', index: 0 }]] },
			},
			settings: { executionOrder: 'v1' },
		};
	}

	test('the package stores at least 50x fewer bytes and node runs per deck than the hand-built loop, for a 30-minute deck', async () => {
		const loop = await runAndMeasure(handBuiltLoop(), ['Wait 5 s', 'Get status', 'Done?']);
		const ours = await runAndMeasure(withPackage());

		// Both read the deck until it finished (n8n's own time per loop round makes the loop's rounds
		// a little longer than 5 sim s, so it may poll a few times fewer).
		expect(loop.polls).toBeGreaterThanOrEqual(3);
		expect(ours.polls).toBeGreaterThanOrEqual(3);
		expect(loop.perPoll!.runs).toBe(3);

		// A 30-minute deck: the loop's per-poll part repeats 360 times; ours does not grow with polls.
		const extraPolls = POLLS_IN_30_MINUTES - loop.polls;
		const loop30 = { bytes: loop.bytes + extraPolls * loop.perPoll!.bytes, runs: loop.runs + extraPolls * loop.perPoll!.runs };
		const ratio = { bytes: loop30.bytes / ours.bytes, runs: loop30.runs / ours.runs };
		console.log(
			`E2E execution-data ${flavor}: measured (deck ${DECK_SIM_MS / 1_000} sim s, ${loop.polls} polls): loop ${loop.bytes} B / ${loop.runs} node runs, ` +
				`package ${ours.bytes} B / ${ours.runs} node runs (${ours.polls} polls). ` +
				`30-minute deck at 5 s polls: loop ${(loop30.bytes / 1_024).toFixed(1)} KB / ${Math.round(loop30.runs)} node runs, ` +
				`package ${(ours.bytes / 1_024).toFixed(1)} KB / ${ours.runs} node runs: ${ratio.bytes.toFixed(0)}x fewer bytes, ${ratio.runs.toFixed(0)}x fewer runs`,
		);
		expect(ratio.bytes).toBeGreaterThanOrEqual(50);
		expect(ratio.runs).toBeGreaterThanOrEqual(50);
		// The one deck was bought once by each workflow.
		expect(sim.ledger.charges).toHaveLength(2);
	});
});
