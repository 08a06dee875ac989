/**
 * Issue 44: a purchase written down before it is sent. Record Without Sending makes every spending
 * operation output the journal row of the purchase it would send (the key a send derives, the body as
 * the very bytes sent, the check) and send nothing; Recover Purchase (Purchase From: Journal Row) sends
 * a row: bought if the service never had it, replayed after, and a row whose record was edited is
 * refused before anything is sent, naming the row. Here in n8n's engine in-process, the Data Table
 * node's rows given as items (n8n's Data Table needs its database); with the Data Table node in a real
 * queue-mode n8n: test/e2e/queue.e2e.ts.
 */
import { provesNeverBought } from '../../../nodes/shared/charge';
import { canonicalJson, sha256Hex } from '../../../nodes/shared/idempotency';
import { JOURNAL_COLUMNS, checkOf, journalRow, purchaseRecord, RECORDED } from '../../../nodes/shared/purchaseRecord';
import { connections, node, type WorkflowJson } from '../../harness';
import { start, type Simulator } from '../../simulator';
import { brief, continueErrorOutput, DECK_NODE, jsonOf, loadWorkflow, patchNode, runWith } from './fixture';

const MINUTE = 60_000;
const OUTPUTS = ['Success', 'Checkout', 'Client Action', 'Errors'];

/** Start → Deck Generator (`parameters`, version 1.1, continue on the error output) → Success, Checkout, Client Action, Errors. */
function deckWorkflow(id: string, parameters: Record<string, unknown>): WorkflowJson {
	return continueErrorOutput({
		id,
		nodes: [
			node('Start', 'n8n-nodes-base.manualTrigger'),
			{ ...node(DECK_NODE, 'n8n-nodes-deckgen.deckGen', parameters as never), typeVersion: 1.1 },
			...OUTPUTS.map((name) => node(name, 'n8n-nodes-base.noOp')),
		],
		connections: connections([['Start', DECK_NODE], ...OUTPUTS.map((name, index) => [DECK_NODE, name, index] as [string, string, number])]),
		settings: { executionOrder: 'v1' },
	} as WorkflowJson);
}

/** Recover Purchase reading each input item as a journal row. */
const sendRows = (options: Record<string, unknown> = {}) =>
	deckWorkflow('wf-44-send', { resource: 'deck', operation: 'recover', purchaseFrom: 'row', options: { maxRetryWaitSeconds: 0, ...options } });

/** A row as n8n's Data Table node outputs it: its system columns, then every column (empty ones null). */
const asStored = (id: number, row: object) => ({
	id,
	createdAt: '2026-11-26T10:00:00.000Z',
	updatedAt: '2026-11-26T10:00:00.000Z',
	...Object.fromEntries(JOURNAL_COLUMNS.map((column) => [column.name, null])),
	...row,
});

const recordOnly = (workflow: WorkflowJson) => {
	const target = workflow.nodes.find((n) => n.name === DECK_NODE)!;
	return patchNode(workflow, DECK_NODE, { parameters: { options: { ...(target.parameters.options as object), recordOnly: true } } });
};
const posts = (sim: Simulator, from: number) => sim.ledger.requests.slice(from).filter((r) => r.method === 'POST');

describe('Issue 44: Record Without Sending, and Recover Purchase from a journal row', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await start({ seed: 44, clock: { manual: true }, limits: { maxConcurrentDecks: 1000 } });
	});
	afterAll(async () => await sim.close());
	afterEach(() => sim.control.setFaults([]));

	test('Create records the journal row of each item and sends nothing; a real send of the same items uses that key and those bytes', async () => {
		const { key } = sim.control.createAccount({ balance: 1000, subscriber: true });
		const create = { ...loadWorkflow('create'), id: 'wf-44-create' };
		const briefs = [brief({ title: 'Q3 "review"\nfor the board' }), brief({ title: 'Q4 plan', slide_count: 12 })];
		const from = sim.ledger.requests.length;
		const recorded = await runWith(sim, recordOnly(create), key, briefs);
		expect(recorded.status).toBe('success');
		expect(sim.ledger.requests.length).toBe(from);
		// no purchase line: nothing was sent
		expect(recorded.logs.filter((line) => line.includes('DECKGEN_PURCHASE'))).toEqual([]);
		const rows = jsonOf(recorded.output(DECK_NODE, 0));
		expect(rows).toHaveLength(2);
		for (const [i, row] of rows.entries()) {
			// exactly the journal's columns that Record Without Sending writes, nothing else (n8n's Data Table node refuses a member with no column)
			expect(Object.keys(row).sort()).toEqual(JOURNAL_COLUMNS.map((c) => c.name).filter((name) => name !== 'taskId' && name !== 'reason').sort());
			expect(row).toMatchObject({ outcome: RECORDED, title: briefs[i].title, path: '/v1/decks', operation: 'deck.create', workflowId: 'wf-44-create', executionId: recorded.executionId, node: DECK_NODE, item: i });
			expect(row.body).toBe(canonicalJson(briefs[i]));
			expect(row.check).toBe(checkOf({ method: 'POST', path: '/v1/decks', idempotencyKey: String(row.idempotencyKey), body: briefs[i] }));
		}

		// the same items through the same node, sent: the very keys and bytes recorded (a retry of the
		// recording execution, or the workflow without the option, replays the recorded purchase)
		const sent = await runWith(sim, create, key, briefs);
		const items = jsonOf(sent.output(DECK_NODE, 0));
		expect(items.map((item) => item.idempotencyKey)).toEqual(rows.map((row) => row.idempotencyKey));
		for (const row of rows) {
			const [request] = posts(sim, from).filter((r) => r.idempotencyKey === row.idempotencyKey);
			expect(request.bodySha256).toBe(sha256Hex(String(row.body)));
		}
	});

	test('Revise, Translate, Generate Video and Custom Request POST record the purchase they would send; a GET and Max Credits are refused', async () => {
		const { key } = sim.control.createAccount({ balance: 1000, subscriber: true });
		// a finished deck of its own for each (one deck takes one change at a time)
		const [a, b, c] = [0, 1, 2].map(() => sim.control.seedDeck({ key, durationMs: MINUTE, outcome: 'succeeded' }));
		sim.control.advance(2 * MINUTE);
		const cases: Array<[string, Record<string, unknown>, string]> = [
			['revise', { taskId: a, instructions: 'Shorter', expected_credits: 0 }, `/v1/decks/${a}/revisions`],
			['translate', { taskId: b, languages: 'de', expected_credits: 0 }, `/v1/decks/${b}/translations`],
			['generate-video', { taskId: c, expected_credits: 0 }, `/v1/decks/${c}/video`],
			['custom-request', { method: 'POST', path: '/v1/decks', body: brief({ title: 'Custom' }) }, '/v1/decks'],
		];
		for (const [name, input, path] of cases) {
			const workflow = { ...loadWorkflow(name), id: `wf-44-${name}` };
			const from = sim.ledger.requests.length;
			const [row] = jsonOf((await runWith(sim, recordOnly(workflow), key, [input])).output(DECK_NODE, 0));
			expect({ name, sent: sim.ledger.requests.length - from }).toEqual({ name, sent: 0 });
			expect({ name, row }).toMatchObject({ name, row: { outcome: RECORDED, path } });
			const sent = await runWith(sim, workflow, key, [input]);
			const [request] = posts(sim, from);
			expect({ name, key: request.idempotencyKey, status: sent.status }).toEqual({ name, key: row.idempotencyKey, status: 'success' });
			// (the simulator's video route reads no body: nothing to compare there)
			if (name !== 'generate-video') expect({ name, sha: request.bodySha256 }).toEqual({ name, sha: sha256Hex(String(row.body)) });
		}

		const refusals = await runWith(sim, continueErrorOutput(recordOnly({ ...loadWorkflow('custom-request'), id: 'wf-44-get' })), key, [{ method: 'GET', path: '/v1/credits' }]);
		expect(jsonOf(refusals.output(DECK_NODE, 3))).toEqual([expect.objectContaining({ error: expect.objectContaining({ message: expect.stringMatching(/^Record Without Sending applies to a POST/) }) })]);
		const from = sim.ledger.requests.length;
		const withCeiling = await runWith(sim, continueErrorOutput(recordOnly({ ...loadWorkflow('create'), id: 'wf-44-ceiling' })), key, [brief({ expected_credits: 0, max_credits: 12 })]);
		const [error] = jsonOf(withCeiling.output(DECK_NODE, 3)) as Array<{ error: { message: string }; message: string }>;
		expect(error.error.message).toBe('Record Without Sending records one price: Max Credits cannot apply; nothing was sent');
		expect(error.message).toMatch(/Set Expected Credits to your price and Max Credits to 0/);
		expect(sim.ledger.requests.length).toBe(from);
	});

	test('a row the service never had is bought once, for the first time; sent again it is replayed; every item names its row', async () => {
		const { key } = sim.control.createAccount({ balance: 1000, subscriber: true });
		const [row] = jsonOf((await runWith(sim, recordOnly({ ...loadWorkflow('create'), id: 'wf-44-row' }), key, [brief({ title: 'Never sent' })])).output(DECK_NODE, 0));
		const stored = asStored(12, row);

		const first = await runWith(sim, sendRows(), key, [stored]);
		const [bought] = jsonOf(first.output(DECK_NODE, 0));
		expect(bought).toMatchObject({ outcome: 'success', taskId: expect.any(String), idempotencyKey: row.idempotencyKey, title: 'Never sent', rowId: 12, recoveredFrom: { workflowId: 'wf-44-row', node: DECK_NODE, item: 0 } });
		expect(bought.replayed).not.toBe(true);
		const charges = sim.ledger.chargesFor(String(row.idempotencyKey));
		expect(charges).toHaveLength(1);
		// the body sent is the row's, byte for byte
		const [request] = sim.ledger.requests.filter((r) => r.idempotencyKey === row.idempotencyKey);
		expect(request.bodySha256).toBe(sha256Hex(String(row.body)));

		// sent again, simplified (as the journal's examples send it): the same deck, replayed, nothing charged; what the loop needs, and the row
		const again = await runWith(sim, sendRows({ simplify: true }), key, [stored]);
		const [replayed] = jsonOf(again.output(DECK_NODE, 0));
		expect(replayed).toMatchObject({ outcome: 'success', taskId: bought.taskId, replayed: true, title: 'Never sent', rowId: 12 });
		expect(Object.keys(replayed)).not.toContain('message');
		expect(Object.keys(replayed)).not.toContain('recoveredFrom');
		expect(sim.ledger.chargesFor(String(row.idempotencyKey))).toHaveLength(1);
	});

	test('a row whose record was edited is refused before anything is sent, naming the row; the error item carries the row id', async () => {
		const { key } = sim.control.createAccount({ balance: 1000, subscriber: true });
		const [row] = jsonOf((await runWith(sim, recordOnly({ ...loadWorkflow('create'), id: 'wf-44-edited' }), key, [brief({ title: 'Original' })])).output(DECK_NODE, 0));
		const body = String(row.body);
		const cases: Array<[string, unknown, RegExp]> = [
			['the title edited in the body', asStored(21, { ...row, body: body.replace('"title":"Original"', '"title":"Changed"') }), /^Journal row 21 was changed after it was written: its "check"/],
			['the price edited', asStored(22, { ...row, body: body.replace('"expected_credits":10', '"expected_credits":1') }), /^Journal row 22 was changed after it was written/],
			['another key', asStored(23, { ...row, idempotencyKey: 'another-key' }), /^Journal row 23 was changed after it was written/],
			['another path', asStored(24, { ...row, path: '/v1/decks/other/revisions' }), /^Journal row 24 was changed after it was written/],
			['a path off the service', asStored(25, { ...row, path: 'https://elsewhere.example/v1/decks' }), /^Journal row 25's "path" .* is not a service path under \/v1\//],
			['a body that is not JSON', asStored(26, { ...row, body: `${body.slice(0, 20)}` }), /^Journal row 26's "body" is not JSON text/],
			['no check', asStored(27, { ...row, check: null }), /^Journal row 27 has no "check"/],
			['no key', asStored(28, { ...row, idempotencyKey: '' }), /^Journal row 28 has no "idempotencyKey"/],
			['no row at all', { outcome: 'recorded' }, /^The journal row \(no id\) has no "path"/],
		];
		const from = sim.ledger.requests.length;
		const result = await runWith(sim, sendRows(), key, cases.map(([, input]) => input as Record<string, unknown>));
		const errors = jsonOf(result.output(DECK_NODE, 3)) as Array<{ error: { message: string; rowId?: number }; message: string }>;
		expect(errors).toHaveLength(cases.length);
		for (const [i, [name, input, pattern]] of cases.entries()) {
			expect({ name, message: errors[i].error.message }).toEqual({ name, message: expect.stringMatching(pattern) });
			expect(errors[i].error.message).toMatch(/nothing was sent$/);
			expect({ name, rowId: errors[i].error.rowId }).toEqual({ name, rowId: (input as { id?: number }).id });
		}
		expect(errors[0].message).toMatch(/^Sending it could buy a different deck than the one paid for\. A journal row is the record/);
		expect(sim.ledger.requests.length).toBe(from);
		// a whitespace change in the body text sends the same bytes: it is the same record
		const spaced = asStored(29, { ...row, body: JSON.stringify(JSON.parse(body), null, 2) });
		const [ok] = jsonOf((await runWith(sim, sendRows(), key, [spaced])).output(DECK_NODE, 0));
		expect(ok).toMatchObject({ outcome: 'success', rowId: 29 });
	});

	test('what the service refuses names the row too: a 402 on Checkout, a key held with another body as an error that will not change, an unanswered send as one worth trying again', async () => {
		const poor = sim.control.createAccount({ balance: 0, subscriber: true });
		const record = (idempotencyKey: string, title: string) =>
			journalRow(purchaseRecord({ method: 'POST', path: '/v1/decks', idempotencyKey, body: brief({ title }) }, { operation: 'deck.create', workflowId: 'wf', executionId: '1', node: 'Create Deck', item: 0 }));
		const result = await runWith(sim, sendRows(), poor.key, [asStored(31, record(`k-poor-${Date.now()}`, 'No credits'))]);
		expect(jsonOf(result.output(DECK_NODE, 1))).toEqual([expect.objectContaining({ outcome: 'checkout', rowId: 31 })]);

		const { key } = sim.control.createAccount({ balance: 1000, subscriber: true });
		const fixed = `k-fixed-${Date.now()}`;
		await runWith(sim, sendRows(), key, [asStored(32, record(fixed, 'First'))]);
		const reused = await runWith(sim, sendRows(), key, [asStored(33, record(fixed, 'Second'))]);
		const [held] = jsonOf(reused.output(DECK_NODE, 3)) as Array<{ error: Record<string, unknown> }>;
		expect(held.error).toMatchObject({ rowId: 33, retryable: false, message: `The service holds another request under Idempotency-Key ${fixed}: nothing was bought` });
		expect((reused.output(DECK_NODE, 3)[0].json as { message: string }).message).toMatch(/^Journal row 33 is whole and unchanged, but the service stored a different body/);

		sim.control.setFaults([{ method: 'POST', path: '/v1/decks', kind: 'drop-after-commit' }]);
		const lost = await runWith(sim, sendRows(), key, [asStored(34, record(`k-lost-${Date.now()}`, 'Lost'))]);
		const [unanswered] = jsonOf(lost.output(DECK_NODE, 3)) as Array<{ error: Record<string, unknown> }>;
		expect(unanswered.error).toMatchObject({ rowId: 34, retryable: true, mayHaveBeenBought: true });
	});
});

/**
 * Issue 51: a sweeper ends a row only on an answer that proves its purchase was never made, or never can be
 * (shared/charge.ts provesNeverBought): every item Recover Purchase emits from a row says so (`neverBought`, on
 * an error item `error.neverBought`) and names the purchase's key (`idempotencyKey`), by which the journal's
 * examples mark all the purchase's rows. A refusal that says nothing of the purchase (a rotated key's 401, a
 * 403, a row edited after it was written, no answer) is not proof: the row the first run may have bought is kept.
 */
describe('Issue 51: which answers prove a recorded purchase never bought', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await start({ seed: 51, clock: { manual: true }, limits: { maxConcurrentDecks: 1000 } });
	});
	afterAll(async () => await sim.close());
	afterEach(() => sim.control.setFaults([]));

	const record = (idempotencyKey: string, title: string, extra: Record<string, unknown> = {}) =>
		journalRow(purchaseRecord({ method: 'POST', path: '/v1/decks', idempotencyKey, body: { ...brief({ title }), ...extra } }, { operation: 'deck.create', workflowId: 'wf', executionId: '1', node: 'Create Deck', item: 0 }));
	const run = `${Date.now()}`;

	test('the rule, answer by answer: what the service refuses for the exact bytes, or where it would have replayed a purchase it held', () => {
		const proves = (answer: Record<string, unknown>) => provesNeverBought(answer);
		expect([402, 400, 413, 422].map((status) => proves({ status }))).toEqual([true, true, true, true]);
		expect(proves({ status: 409, code: 'conflict', reason: 'idempotency_key_reused' })).toBe(true);
		expect(proves({ status: 409, code: 'price_drift' })).toBe(true);
		expect(['checkout', 'client_action', 'price_drift'].map((outcome) => proves({ outcome }))).toEqual([true, true, true]);
		// says nothing of a purchase an earlier run made: a key, a scope, a deck's state, a tool not shipped, a fault
		for (const answer of [{ status: 401 }, { status: 403, reason: 'insufficient_scope' }, { status: 404 }, { status: 405 }, { status: 409, reason: 'terminal_state' }, { status: 409, reason: 'already_in_progress' }, { status: 429, reason: 'version_cap_reached' }, { outcome: 'version_cap_reached' }, { outcome: 'not_available_yet' }, { status: 501 }, { status: 500 }, { status: 503 }, {}]) {
			expect({ answer, proves: proves(answer) }).toEqual({ answer, proves: false });
		}
	});

	test('proof: a 402, a key held with another body, a 422 on the exact record; the deck bought names its key too', async () => {
		const poor = sim.control.createAccount({ balance: 0, subscriber: true });
		const checkout = await runWith(sim, sendRows(), poor.key, [asStored(51, record(`k51-poor-${run}`, 'No credits'))]);
		expect(jsonOf(checkout.output(DECK_NODE, 1))).toEqual([expect.objectContaining({ outcome: 'checkout', rowId: 51, idempotencyKey: `k51-poor-${run}`, neverBought: true })]);

		const { key } = sim.control.createAccount({ balance: 1000, subscriber: true });
		const fixed = `k51-fixed-${run}`;
		const [bought] = jsonOf((await runWith(sim, sendRows({ simplify: true }), key, [asStored(52, record(fixed, 'First'))])).output(DECK_NODE, 0));
		// what the journal's claim reads, simplified: the key beside the row
		expect(bought).toMatchObject({ outcome: 'success', rowId: 52, idempotencyKey: fixed });
		expect(bought.neverBought).toBeUndefined();
		const reused = await runWith(sim, sendRows(), key, [asStored(53, record(fixed, 'Second')), asStored(54, record(`k51-colour-${run}`, 'Colour', { colour: 'red' }))]);
		const [held, invalid] = jsonOf(reused.output(DECK_NODE, 3)) as Array<{ error: Record<string, unknown> }>;
		expect(held.error).toMatchObject({ rowId: 53, idempotencyKey: fixed, status: 409, neverBought: true });
		expect(invalid.error).toMatchObject({ rowId: 54, idempotencyKey: `k51-colour-${run}`, retryable: false, neverBought: true });
		expect([400, 422]).toContain(invalid.error.status);
	});

	test('no proof: a 401, a 403, a row edited after it was written, a send with no answer; each names the row and its key', async () => {
		const { key } = sim.control.createAccount({ balance: 1000, subscriber: true });
		const [bought] = jsonOf((await runWith(sim, sendRows(), key, [asStored(61, record(`k51-bought-${run}`, 'Bought first'))])).output(DECK_NODE, 0));
		expect(bought.charge).toBe('charged');

		// the same row, overdue, sent again with a rotated key (401) and with a key narrowed to reading (403): both say nothing of it
		const revoked = sim.control.createAccount({ balance: 1000, subscriber: true });
		sim.control.revokeKey(revoked.key);
		const readOnly = sim.control.createAccount({ balance: 1000, subscriber: true, scopes: ['decks:read', 'credits:read'] });
		for (const [who, apiKey, status] of [['revoked', revoked.key, 401], ['read only', readOnly.key, 403]] as const) {
			const result = await runWith(sim, sendRows(), apiKey, [asStored(61, record(`k51-bought-${run}`, 'Bought first'))]);
			const [error] = jsonOf(result.output(DECK_NODE, 3)) as Array<{ error: Record<string, unknown> }>;
			expect({ who, error: error.error }).toMatchObject({ who, error: { status, rowId: 61, idempotencyKey: `k51-bought-${run}`, neverBought: false } });
		}

		const written = record(`k51-edited-${run}`, 'Edited');
		const edited = await runWith(sim, sendRows(), key, [asStored(62, { ...written, body: written.body.replace('"title":"Edited"', '"title":"Changed"') })]);
		const [changed] = jsonOf(edited.output(DECK_NODE, 3)) as Array<{ error: Record<string, unknown> }>;
		expect(changed.error).toMatchObject({ rowId: 62, idempotencyKey: `k51-edited-${run}`, neverBought: false });

		sim.control.setFaults([{ method: 'POST', path: '/v1/decks', kind: 'drop-after-commit' }]);
		const lost = await runWith(sim, sendRows(), key, [asStored(63, record(`k51-lost-${run}`, 'Lost'))]);
		const [unanswered] = jsonOf(lost.output(DECK_NODE, 3)) as Array<{ error: Record<string, unknown> }>;
		expect(unanswered.error).toMatchObject({ rowId: 63, idempotencyKey: `k51-lost-${run}`, retryable: true, mayHaveBeenBought: true, neverBought: false });
	});
});
