/**
 * Issue 33: a purchase is written where it survives before it is sent (one line of n8n's log at
 * info, and the execution's custom data), and Deck → Recover Purchase gets the deck back from that
 * line without paying again. Here in n8n's engine in-process, n8n's logger captured; in a real
 * queue-mode n8n with workers killed: test/e2e/queue.e2e.ts.
 */
import { sha256Hex } from '../../../nodes/shared/idempotency';
import { PURCHASE_MARKER, purchaseLogLine, purchaseRecord, readLoggedPurchase } from '../../../nodes/shared/purchaseRecord';
import { customDataKeyFor } from '../../../nodes/shared/n8n/purchaseLog';
import { connections, node, runWorkflow, type RunResult, type WorkflowJson } from '../../harness';
import { credentialFor } from '../credential';
import { start, type Simulator } from '../../simulator';
import { brief, continueErrorOutput, DECK_NODE, jsonOf, loadWorkflow, runWith } from './fixture';

const OUTPUTS = ['Success', 'Checkout', 'Client Action', 'Errors'];

/** Start → Deck → Recover Purchase (the line from `$json.line`) → Success, Checkout, Client Action, Errors. */
function recoverWorkflow(): WorkflowJson {
	return continueErrorOutput({
		nodes: [
			node('Start', 'n8n-nodes-base.manualTrigger'),
			{
				...node(DECK_NODE, 'n8n-nodes-deckgen.deckGen', { resource: 'deck', operation: 'recover', loggedPurchase: '={{ $json.line }}', options: { maxRetryWaitSeconds: 0 } } as never),
				typeVersion: 1.1,
			},
			...OUTPUTS.map((name) => node(name, 'n8n-nodes-base.noOp')),
		],
		connections: connections([['Start', DECK_NODE], ...OUTPUTS.map((name, index) => [DECK_NODE, name, index] as [string, string, number])]),
		settings: { executionOrder: 'v1' },
	});
}

/** The lines written before a purchase was sent, as n8n's logger got them (`info: <message> {metadata}`). */
const sendingLines = (result: RunResult) => result.logs.filter((line) => line.includes(PURCHASE_MARKER));
const createPosts = (sim: Simulator, from = 0) => sim.ledger.requests.slice(from).filter((r) => r.method === 'POST' && r.path === '/v1/decks');

describe('Issue 33: every purchase is logged before it is sent, and Recover Purchase gets it back without paying twice', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await start({ seed: 33, clock: { manual: true }, limits: { maxConcurrentDecks: 1000 } });
	});
	afterAll(async () => await sim.close());
	afterEach(() => sim.control.setFaults([]));

	test('one info line per purchase, before the answer: title, Idempotency-Key, workflow and execution ids, the body as sent; the custom data names each', async () => {
		const { key } = sim.control.createAccount({ balance: 1000, subscriber: true });
		const from = sim.ledger.requests.length;
		const result = await runWith(sim, { ...loadWorkflow('create'), id: 'wf-33' }, key, [brief({ title: 'Q3 "review"\nfor the board' }), brief({ title: 'Q4 plan' })]);

		expect(result.status).toBe('success');
		const items = jsonOf(result.output(DECK_NODE, 0));
		expect(items).toHaveLength(2);
		const lines = sendingLines(result);
		expect(lines).toHaveLength(2);
		for (const [i, item] of items.entries()) {
			const line = lines.find((l) => l.includes(`Idempotency-Key ${String(item.idempotencyKey)} `))!;
			// at n8n's default level, one line (the title's quote and line break JSON-escaped), written before the answer's line
			expect(line.startsWith('info: Deck Generator: sending purchase ')).toBe(true);
			expect(line.includes('\n')).toBe(false);
			expect(result.logs.indexOf(line)).toBeLessThan(result.logs.findIndex((l) => l.includes(`purchase made, taskId ${String(item.taskId)}`)));
			expect(line).toContain(i === 0 ? '"Q3 \\"review\\"\\nfor the board"' : '"Q4 plan"');
			expect(line).toContain(`(workflow wf-33, execution ${result.executionId}, node "${DECK_NODE}", item ${i})`);
			// the record is the request as sent, byte for byte
			const reading = readLoggedPurchase(line);
			if (!reading.ok) throw new Error(reading.message);
			expect(reading.record).toMatchObject({ method: 'POST', path: '/v1/decks', idempotencyKey: item.idempotencyKey, workflowId: 'wf-33', executionId: result.executionId, item: i, operation: 'deck.create' });
			const sent = createPosts(sim, from).find((r) => r.idempotencyKey === item.idempotencyKey)!;
			expect(sha256Hex(JSON.stringify(reading.record.body))).toBe(sent.bodySha256);
		}
		// the custom data, saved with the execution wherever n8n saves it
		const metadata = (result.runExecutionData as { resultData: { metadata?: Record<string, string> } }).resultData.metadata ?? {};
		const named = metadata[customDataKeyFor(DECK_NODE)];
		for (const item of items) expect(named).toContain(`(Idempotency-Key ${String(item.idempotencyKey)}): taskId ${String(item.taskId)}`);
		expect(named).toContain('"Q4 plan"');
	});

	test('a purchase in flight when the execution is lost: the line is all there is; Recover Purchase gets its taskId back, replayed, one charge', async () => {
		const { key } = sim.control.createAccount({ balance: 1000, subscriber: true });
		// the service holds the request; the execution is stopped meanwhile (a worker killed): no answer reaches n8n
		const held = sim.control.faultsInjected().latency ?? 0;
		sim.control.setFaults([{ method: 'POST', path: '/v1/decks', kind: 'latency', latencyMs: 300, times: 1 }]);
		const stop = new AbortController();
		const running = runWith(sim, loadWorkflow('create'), key, [brief({ title: 'Lost in flight' })], { signal: stop.signal });
		while ((sim.control.faultsInjected().latency ?? 0) === held) await new Promise((r) => setTimeout(r, 5));
		stop.abort();
		const lost = await running;
		expect(lost.status).toBe('canceled');
		expect(lost.output(DECK_NODE, 0)).toEqual([]);
		const [line] = sendingLines(lost);
		expect(line).toContain('"Lost in flight"');
		// the service completes the purchase nobody saw the answer of
		const keyOf = readLoggedPurchase(line);
		if (!keyOf.ok) throw new Error(keyOf.message);
		const idempotencyKey = keyOf.record.idempotencyKey;
		while (sim.ledger.chargesFor(idempotencyKey).length === 0) await new Promise((r) => setTimeout(r, 20));
		const [charge] = sim.ledger.chargesFor(idempotencyKey);

		const from = sim.ledger.requests.length;
		const recovered = await runWith(sim, recoverWorkflow(), key, [{ line }]);
		const [item] = jsonOf(recovered.output(DECK_NODE, 0));
		expect(item).toMatchObject({ outcome: 'success', taskId: charge.taskId, idempotencyKey, title: 'Lost in flight', recoveredFrom: { executionId: lost.executionId, node: DECK_NODE, item: 0 } });
		expect(item.message).toMatch(item.replayed ? /^The service replayed the purchase of execution/ : /it had not received it then, so it was bought now, for the first time/);
		expect(sim.ledger.chargesFor(idempotencyKey)).toHaveLength(1);
		const [again] = createPosts(sim, from);
		expect(again).toMatchObject({ idempotencyKey, bodySha256: createPosts(sim).find((r) => r.idempotencyKey === idempotencyKey)!.bodySha256, replayed: true });
	});

	test('a line that never reached the service buys its deck for the first time, once; recovering it again replays', async () => {
		const { key } = sim.control.createAccount({ balance: 1000, subscriber: true });
		const record = purchaseRecord(
			{ method: 'POST', path: '/v1/decks', idempotencyKey: `never-sent-${Date.now()}`, body: brief({ title: 'Never sent' }) },
			{ operation: 'deck.create', workflowId: '7', executionId: '4242', node: 'Create Deck', item: 0 },
		);
		const line = `2026-11-26T10:00:00.000Z | info  | ${purchaseLogLine(record)} {"file":"purchaseLog.js"}`;
		const first = jsonOf((await runWith(sim, recoverWorkflow(), key, [{ line }])).output(DECK_NODE, 0))[0];
		expect(first).toMatchObject({ outcome: 'success', title: 'Never sent' });
		expect(first).toMatchObject({ charge: 'charged', replayed: false });
		expect(first.message).toContain('it had not received it then, so it was bought now, for the first time, and charged');
		const second = jsonOf((await runWith(sim, recoverWorkflow(), key, [{ line }])).output(DECK_NODE, 0))[0];
		expect(second).toMatchObject({ outcome: 'success', taskId: first.taskId });
		expect(sim.ledger.chargesFor(record.idempotencyKey)).toHaveLength(1);
	});

	test('a wrong paste fails before anything is sent, naming what is wrong; a changed brief is never bought', async () => {
		const { key } = sim.control.createAccount({ balance: 1000, subscriber: true });
		const made = await runWith(sim, loadWorkflow('create'), key, [brief({ title: 'Original' })]);
		const [line] = sendingLines(made);
		const message = line.slice('info: '.length, line.lastIndexOf(' {"workflowId"'));
		const json = JSON.parse(message.slice(message.indexOf(PURCHASE_MARKER) + PURCHASE_MARKER.length)) as Record<string, unknown>;
		const cases: Array<[string, unknown, RegExp]> = [
			['empty', '', /Logged Purchase is empty/],
			['the title edited', line.replace('"title":"Original"', '"title":"Changed"'), /changed after n8n logged it: its "check"/],
			['the price edited', line.replace('"expected_credits":10', '"expected_credits":11'), /"check"/],
			['cut short', line.slice(0, line.indexOf(PURCHASE_MARKER) + 60), /cut short/],
			['the line after the answer', made.logs.find((l) => l.includes('purchase made, taskId'))!, /written after the answer/],
			['two lines in one', `${line}\n${line}`, /more than one DECKGEN_PURCHASE record/],
			['no key', `${PURCHASE_MARKER} ${JSON.stringify({ ...json, idempotencyKey: '' })}`, /has no "idempotencyKey"/],
			['another path', `${PURCHASE_MARKER} ${JSON.stringify({ ...json, path: 'https://elsewhere.example/v1/decks' })}`, /"path" .* is not a service path under \/v1\//],
			['something else', 'Workflow executed successfully', /has no DECKGEN_PURCHASE record/],
		];
		const from = sim.ledger.requests.length;
		const result = await runWith(sim, recoverWorkflow(), key, cases.map(([, pasted]) => ({ line: pasted })));
		const errors = jsonOf(result.output(DECK_NODE, 3));
		expect(errors).toHaveLength(cases.length);
		for (const [i, [name, , pattern]] of cases.entries()) {
			const error = (errors[i] as { error: { message: string } }).error;
			expect({ name, message: error.message }).toEqual({ name, message: expect.stringMatching(pattern) });
			expect(error.message).toMatch(/nothing was sent$/);
		}
		expect(sim.ledger.requests.length).toBe(from);

		// the whole line as logged, and the JSON record of it (N8N_LOG_FORMAT=json), recover the same deck
		const asJson = JSON.stringify({ level: 'info', message, metadata: { executionId: made.executionId }, timestamp: '2026-11-26T10:00:00.000Z' });
		const recovered = jsonOf((await runWith(sim, recoverWorkflow(), key, [{ line }, { line: asJson }])).output(DECK_NODE, 0));
		const [original] = jsonOf(made.output(DECK_NODE, 0));
		expect(recovered.map((r) => r.taskId)).toEqual([original.taskId, original.taskId]);
		expect(sim.ledger.chargesFor(String(original.idempotencyKey))).toHaveLength(1);
	});

	test('a key the service holds with another body: a 409 idempotency_key_reused that says why and what to do, nothing bought', async () => {
		const { key, principalId } = sim.control.createAccount({ balance: 1000, subscriber: true });
		await runWith(sim, loadWorkflow('create'), key, [brief({ title: 'First', delivery_id: 'fixed-key-33' })]);
		// the same fixed key with another brief: refused by the service, but logged before it was sent
		const refused = await runWith(sim, continueErrorOutput(loadWorkflow('create')), key, [brief({ title: 'Second', delivery_id: 'fixed-key-33' })]);
		const [line] = sendingLines(refused);
		expect(line).toContain('"Second"');
		const charges = sim.ledger.charges.filter((c) => c.principalId === principalId).length;

		const result = await runWith(sim, recoverWorkflow(), key, [{ line }]);
		const [error] = jsonOf(result.output(DECK_NODE, 3)) as Array<{ error: { message: string; reason: string }; message: string }>;
		expect(error.error).toMatchObject({ message: 'The service holds another request under Idempotency-Key fixed-key-33: nothing was bought', reason: expect.stringContaining('idempotency_key_reused') });
		// the item's message: what the error's description says
		expect(error.message).toMatch(/^The logged line is whole and unchanged, but the service stored a different body under its key/);
		expect(sim.ledger.charges.filter((c) => c.principalId === principalId)).toHaveLength(charges);
	});

	test('the API key is in no line nor custom data, even when the brief quotes it (masked; such a line is not replayable, its check says so)', async () => {
		const { key } = sim.control.createAccount({ balance: 1000, subscriber: true });
		// (the brief itself holds the key here, so the trigger's saved item does too: not runWith's whole-execution check)
		const result = await runWorkflow(loadWorkflow('create'), { credentials: { deckGenApi: credentialFor(sim, key) }, inputItems: [{ json: brief({ title: `About ${key}` }) }] });
		expect(result.status).toBe('success');
		expect(result.logs.join('\n')).not.toContain(key);
		const metadata = (result.runExecutionData as { resultData: { metadata?: Record<string, string> } }).resultData.metadata ?? {};
		expect(JSON.stringify(metadata)).not.toContain(key);
		expect(metadata[customDataKeyFor(DECK_NODE)]).toContain('"About [API key]"');
		const [line] = sendingLines(result);
		expect(line).toContain('"About [API key]"');
		expect(readLoggedPurchase(line)).toMatchObject({ ok: false, message: expect.stringContaining('"check"') });
	});
});
