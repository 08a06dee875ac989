/**
 * Issue 49: never a second purchase, whatever the price, the sender or the timing, and every sentence about
 * credits true. Each test failed on the main before it: a re-priced purchase bought again when the price moved
 * back (retry, redelivery with the delivery id as key, Recover with the first logged line); two executions of
 * one purchase both saying they paid; a replay told as "bought 5 min ago"; a Custom Request without a price
 * told "(0 credits)"; Recover stopped during its retries throwing a TypeError; a percent-encoded `..` passing
 * the path guard. The simulator's ledger says what was really charged. Both orders a service may check a
 * spending POST in (the key first, or the price first: test/simulator/profile.ts `priceCheck`) are run here,
 * in every profile.
 */
import { checkOf, PURCHASE_MARKER, purchaseLogLine, purchaseRecord, readLoggedPurchase } from '../../../nodes/shared/purchaseRecord';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { connections, node, runWorkflow, type RunResult, type WorkflowJson } from '../../harness';
import { start, type Simulator } from '../../simulator';
import { brief, continueErrorOutput, DECK_NODE, jsonOf, loadWorkflow, patchNode, runWith } from './fixture';

const OUTPUTS = ['Success', 'Checkout', 'Client Action', 'Errors'];

/** The Create workflow with the node's own retries fast, on the error output. */
const createWorkflow = (id: string): WorkflowJson => {
	const base = loadWorkflow('create');
	const deck = base.nodes.find((n) => n.name === DECK_NODE)!;
	return continueErrorOutput({ ...patchNode(base, DECK_NODE, { parameters: { options: { ...(deck.parameters.options as object), maxRetryWaitSeconds: 0.01 } } as never }), id });
};

/** Start → Deck Generator (`parameters`, version 1.1) → Success, Checkout, Client Action, Errors. */
function deckWorkflow(id: string, parameters: Record<string, unknown>, settings: Record<string, unknown> = { onError: 'continueErrorOutput' }): WorkflowJson {
	return {
		id,
		nodes: [
			node('Start', 'n8n-nodes-base.manualTrigger'),
			{ ...node(DECK_NODE, 'n8n-nodes-deckgen.deckGen', parameters as never), typeVersion: 1.1, ...settings },
			...OUTPUTS.map((name) => node(name, 'n8n-nodes-base.noOp')),
		],
		connections: connections([['Start', DECK_NODE], ...OUTPUTS.map((name, index) => [DECK_NODE, name, index] as [string, string, number])]),
		settings: { executionOrder: 'v1' },
	} as WorkflowJson;
}

const recoverLine = () => deckWorkflow('wf-49-recover', { resource: 'deck', operation: 'recover', loggedPurchase: '={{ $json.line }}', options: { maxRetryWaitSeconds: 0.01 } });
const successOf = (result: RunResult) => jsonOf(result.output(DECK_NODE, 0) ?? []);
const errorsOf = (result: RunResult) => jsonOf(result.output(DECK_NODE, 3) ?? []);
const sendingLines = (result: RunResult) => result.logs.filter((line) => line.includes(PURCHASE_MARKER)).map((line) => line.replace(/^info: /, ''));

describe.each(['after-key', 'before-key'] as const)('Issue 49: a service that checks the %s', (priceCheck) => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await start({ seed: 49, clock: { manual: true }, limits: { maxConcurrentDecks: 1000, retryAfterMs: 5 }, choices: { priceCheck } });
	});
	afterAll(async () => await sim.close());
	afterEach(() => {
		sim.control.setFaults([]);
		sim.control.setPrice({ create: 10 });
	});

	const account = () => sim.control.createAccount({ balance: 1000, subscriber: true });
	const chargesOf = (principalId: string) => sim.ledger.charges.filter((charge) => charge.principalId === principalId);

	describe('1. the price is not the purchase', () => {
		test('8 sent, 10 live, Max Credits 15: bought at 10; the price back at 8, a retry, a redelivery and Recover with the first line never buy again', async () => {
			const { key, principalId } = account();
			const workflow = createWorkflow(`wf-49-reprice-${priceCheck}`);
			const input = [brief({ title: `Re-priced (${priceCheck})`, expected_credits: 8, max_credits: 15 })];
			const made = await runWith(sim, workflow, key, input);
			const [first] = successOf(made);
			expect(first).toMatchObject({ charge: 'charged', repricedFrom: 8 });
			// both prices went out under one key: the refused one wrote nothing
			const lines = sendingLines(made);
			expect(lines).toHaveLength(2);
			const [atEight, atTen] = lines.map((line) => {
				const read = readLoggedPurchase(line);
				if (!read.ok) throw new Error(read.message);
				return read.record;
			});
			expect([atEight.body.expected_credits, atTen.body.expected_credits]).toEqual([8, 10]);
			expect(atEight.idempotencyKey).toBe(first.idempotencyKey);
			expect(atTen.idempotencyKey).toBe(first.idempotencyKey);

			sim.control.setPrice({ create: 8 });
			// a retry, an editor re-run, an identical redelivery: the same trigger data at the first price
			for (let attempt = 0; attempt < 2; attempt++) {
				const again = await runWith(sim, workflow, key, input);
				const [replayed] = successOf(again);
				if (replayed) {
					// the key was looked up first and this process knows the price it holds: sent at 10, replayed
					expect(replayed).toMatchObject({ taskId: first.taskId, charge: 'replayed', idempotencyKey: first.idempotencyKey });
				} else {
					const [error] = errorsOf(again);
					expect(error.error).toMatchObject({ message: 'This purchase was already made, when the live price was another: nothing was bought now', idempotencyKey: first.idempotencyKey });
				}
			}
			expect(chargesOf(principalId)).toHaveLength(1);

			// Recover Purchase with the line logged first (at 8): refused, and told which line to paste
			const recovered = await runWith(sim, recoverLine(), key, [{ line: lines[0] }]);
			const [refused] = errorsOf(recovered);
			expect((refused.error as { message: string }).message).toBe(`The service holds another request under Idempotency-Key ${String(first.idempotencyKey)}: nothing was bought`);
			expect(String(refused.message)).toContain('the other line with this Idempotency-Key');
			expect(chargesOf(principalId)).toHaveLength(1);
		});

		test("with the Idempotency Key option (a delivery id), the re-send goes out under the user's key, and the same delivery at the old price buys nothing", async () => {
			const { key, principalId } = account();
			const delivery = `delivery-49-${priceCheck}`;
			const input = [brief({ title: `Delivered (${priceCheck})`, expected_credits: 8, max_credits: 15, delivery_id: delivery })];
			const from = sim.ledger.requests.length;
			const [first] = successOf(await runWith(sim, createWorkflow('wf-49-delivery'), key, input));
			expect(first).toMatchObject({ charge: 'charged', repricedFrom: 8, idempotencyKey: delivery });
			expect(sim.ledger.requests.slice(from).filter((r) => r.method === 'POST').map((r) => r.idempotencyKey)).toEqual([delivery, delivery]);
			sim.control.setPrice({ create: 8 });
			await runWith(sim, createWorkflow('wf-49-delivery'), key, input);
			expect(chargesOf(principalId)).toHaveLength(1);
		});
	});

	test('2. two executions of one purchase at the same moment: one is charged, the other is told it replayed that purchase', async () => {
		// its own simulator: a 409 already_in_progress asks for 50 ms, so the node's retries outlast the first request
		const held = await start({ seed: 492, clock: { manual: true }, limits: { maxConcurrentDecks: 1000, retryAfterMs: 50 }, choices: { priceCheck } });
		try {
			const { key, principalId } = held.control.createAccount({ balance: 1000, subscriber: true });
			// the first request to arrive holds the key for a while; the other meets 409 already_in_progress, then the replay
			held.control.setFaults([{ method: 'POST', path: '/v1/decks', kind: 'latency', latencyMs: 120, times: 1 }]);
			const base = loadWorkflow('create');
			const options = base.nodes.find((n) => n.name === DECK_NODE)!.parameters.options as object;
			const workflow = continueErrorOutput({ ...patchNode(base, DECK_NODE, { parameters: { options: { ...options, maxRetryWaitSeconds: 1 } } as never }), id: 'wf-49-twice' });
			const input = [brief({ title: `Delivered twice at once (${priceCheck})` })];
			const results = await Promise.all([runWith(held, workflow, key, input), runWith(held, workflow, key, input)]);
			const items = results.map((result) => successOf(result)[0]);
			expect(held.ledger.charges.filter((charge) => charge.principalId === principalId)).toHaveLength(1);
			// they did meet: one was told another request held the key
			expect(held.ledger.requests.filter((r) => r.method === 'POST').map((r) => r.status)).toContain(409);
			expect(items.map((item) => item.charge).sort()).toEqual(['charged', 'replayed']);
			const replayed = items.find((item) => item.charge === 'replayed')!;
			expect(replayed.message).toMatch(/^This deck was bought before this run/);
			expect(replayed.message).not.toMatch(/got no answer|most likely made the purchase/);
		} finally {
			await held.close();
		}
	});

	test('3. a replay of a purchase this process never saw keeps no false time: "when is not known", and the 404 grace says so', async () => {
		const { key, principalId } = account();
		const input = [brief({ title: `Bought elsewhere (${priceCheck})`, delivery_id: `elsewhere-${priceCheck}` })];
		// the exact request the node would send, written down without sending, then sent by someone else (another worker)
		const recorded = patchNode(createWorkflow('wf-49-elsewhere'), DECK_NODE, {
			parameters: { options: { ...(loadWorkflow('create').nodes.find((n) => n.name === DECK_NODE)!.parameters.options as object), recordOnly: true } } as never,
		});
		const [row] = successOf(await runWith(sim, recorded, key, input));
		const response = await fetch(`${sim.url}${String(row.path)}`, {
			method: 'POST',
			headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', 'Idempotency-Key': String(row.idempotencyKey) },
			body: String(row.body),
		});
		expect(response.status).toBeLessThan(300);
		expect(chargesOf(principalId)).toHaveLength(1);

		const [item] = successOf(await runWith(sim, createWorkflow('wf-49-elsewhere'), key, input));
		expect(item).toMatchObject({ charge: 'replayed', replayed: true });
		expect(item.message).toBe('This deck was bought before this run (when is not known), with the same Idempotency-Key: the service replayed that purchase and charged nothing now.');
		const purchase = item.purchase as Record<string, unknown>;
		expect(purchase.confirmedAt).toBeUndefined();
		expect(Date.parse(String(purchase.replayedAt))).not.toBeNaN();
		expect(chargesOf(principalId)).toHaveLength(1);

		// Get Status meets a 404 (the service's replica lags): within the grace, said without a false time
		sim.control.setReadLag({ reads: 100 });
		try {
			const status = await runWith(sim, deckWorkflow('wf-49-status', { resource: 'deck', operation: 'getStatus', taskId: '={{ $json.taskId }}' }), key, [item]);
			const [visible] = successOf(status);
			expect(visible).toMatchObject({ notVisibleYet: true, state: 'running' });
			expect(String(visible.statusNote)).toMatch(/was bought before this run; when is not known \(the service replayed its purchase \d+ s ago\)/);
			expect(String(visible.statusNote)).not.toMatch(/was bought \d+ s ago/);
		} finally {
			sim.control.setReadLag(undefined);
		}
	});
});

describe('Issue 49: the smaller ones', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await start({ seed: 4949, clock: { manual: true }, limits: { maxConcurrentDecks: 1000, retryAfterMs: 5 } });
	});
	afterAll(async () => await sim.close());
	afterEach(() => sim.control.setFaults([]));

	test('4. a Custom Request POST that states no price says what the node knows, never "(0 credits)"', async () => {
		// a deployment's operation that takes no expected_credits and answers 201 with a taskId (the contract shows
		// other operations without their shape: Custom Request reaches them)
		const server = createServer((req, res) => {
			req.resume();
			req.on('end', () => {
				res.writeHead(201, { 'content-type': 'application/json' });
				res.end(JSON.stringify({ taskId: 'tsk_unpriced' }));
			});
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		try {
			const result = await runWorkflow(loadWorkflow('custom-request'), {
				credentials: { deckGenApi: { apiKey: 'sk_test_unpriced_0123456789', baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` } },
				inputItems: [{ json: { method: 'POST', path: '/v1/decks/tsk_1/extras', body: { instructions: 'More charts' } } }],
			});
			const [item] = successOf(result);
			expect(item).toMatchObject({ charge: 'charged', taskId: 'tsk_unpriced' });
			expect(item.message).toBe(
				'Bought: the service accepted this purchase as a new one (not a replay); the request stated no price (no expected_credits), so what it charged is not known here.',
			);
			expect(String(item.message)).not.toMatch(/\(\d+ credits?\)/);
		} finally {
			await new Promise<void>((resolve) => server.close(() => resolve()));
		}
	});

	test.each([
		['stopped', {}],
		['stopped under Continue (using error output)', { onError: 'continueErrorOutput' }],
	])('Recover Purchase (Journal Row) %s while it retries a 503: the cancellation, never a TypeError', async (_case, settings) => {
		const { key } = sim.control.createAccount({ balance: 1000, subscriber: true });
		const recorded = patchNode(createWorkflow('wf-49-row'), DECK_NODE, {
			parameters: { options: { ...(loadWorkflow('create').nodes.find((n) => n.name === DECK_NODE)!.parameters.options as object), recordOnly: true } } as never,
		});
		const [row] = successOf(await runWith(sim, recorded, key, [brief({ title: `Row ${String(_case)}` })]));
		sim.control.setFaults([{ method: 'POST', path: '/v1/decks', kind: 'status503', times: 1000 }]);
		const stop = new AbortController();
		const sendRow = deckWorkflow('wf-49-send-row', { resource: 'deck', operation: 'recover', purchaseFrom: 'row', options: { maxRetryWaitSeconds: 0.05 } }, settings);
		const before = sim.control.faultsInjected().status503 ?? 0;
		const running = runWith(sim, sendRow, key, [{ id: 7, ...row }], { signal: stop.signal });
		while ((sim.control.faultsInjected().status503 ?? 0) < before + 2) await new Promise((r) => setTimeout(r, 5));
		stop.abort();
		const result = await running;
		expect(result.status).toBe('canceled');
		expect(JSON.stringify(result.runExecutionData)).not.toContain("Cannot set properties of undefined");
		expect(errorsOf(result)).toEqual([]);
	});

	test.each(['/v1/%2e%2e/admin/keys', '/v1/%2E%2e/admin', '/v1/decks/.%2e/.%2E/admin', '/v1/a/%2e/../../admin'])(
		'a logged line, a journal row and a Custom Request with the path %s are refused before anything is sent',
		async (path) => {
			const { key } = sim.control.createAccount({ balance: 1000, subscriber: true });
			const request = { method: 'POST' as const, path, idempotencyKey: 'k-49-path', body: { title: 'x', expected_credits: 10 } };
			const record = purchaseRecord(request, { operation: 'deck.create', workflowId: 'wf', executionId: '1', node: DECK_NODE, item: 0 });
			expect(record.check).toBe(checkOf(request));
			const from = sim.ledger.requests.length;
			const line = await runWith(sim, recoverLine(), key, [{ line: purchaseLogLine(record) }]);
			expect(String((errorsOf(line)[0].error as { message: string }).message)).toMatch(/"path" .* is not a service path under \/v1\/; nothing was sent/);
			const row = await runWith(sim, deckWorkflow('wf-49-row-path', { resource: 'deck', operation: 'recover', purchaseFrom: 'row' }), key, [
				{ id: 1, idempotencyKey: record.idempotencyKey, path, body: JSON.stringify(record.body), check: record.check, operation: 'deck.create', workflowId: 'wf', executionId: '1', node: DECK_NODE, item: 0 },
			]);
			expect(String((errorsOf(row)[0].error as { message: string }).message)).toMatch(/is not a service path under \/v1\//);
			const custom = await runWith(sim, continueErrorOutput(loadWorkflow('custom-request')), key, [{ method: 'GET', path }]);
			expect(String((errorsOf(custom)[0].error as { message: string }).message)).toBe(`Path "${path}" is not a service path`);
			expect(sim.ledger.requests.slice(from)).toEqual([]);
		},
	);
});
