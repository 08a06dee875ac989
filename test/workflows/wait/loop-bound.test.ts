/**
 * Issue 45, point 4 (the node's side): a Check Once loop ends on a bound the user sets (Max Wait), counted from
 * the item, not from one check: the deck's purchase (Create's `purchase`), else the first check that saw it
 * (`waitingSince`, which the item carries from check to check). A deck still running past it goes to Still
 * Running with `pastMaxWait: true` and a note that says so; Simplify keeps what the next check needs.
 */
import type { IDataObject, INode } from 'n8n-workflow';

import { connections, node, runWorkflow, type WorkflowJson } from '../../harness';
import { start, type Simulator } from '../../simulator';
import { credentialFor } from '../credential';

const WAIT = 'Check Deck';

function checkOnce(options: IDataObject = {}): WorkflowJson {
	return {
		nodes: [
			node('Start', 'n8n-nodes-base.manualTrigger'),
			{ ...node(WAIT, 'n8n-nodes-deckgen.deckGenWait', { mode: 'checkOnce', options: options as never }), typeVersion: 1.1 } as INode,
			node('Completed', 'n8n-nodes-base.noOp'),
			node('Failed', 'n8n-nodes-base.noOp'),
			node('Still Running', 'n8n-nodes-base.noOp'),
		],
		connections: connections([
			['Start', WAIT],
			[WAIT, 'Completed', 0],
			[WAIT, 'Failed', 1],
			[WAIT, 'Still Running', 2],
		]),
		settings: { executionOrder: 'v1' },
	} as WorkflowJson;
}

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

describe('Check Once: the loop bound, counted from the item', () => {
	let sim: Simulator;
	let key: string;
	let running: string;
	let done: string;
	beforeAll(async () => {
		sim = await start({ seed: 45, clock: { manual: true } });
		key = sim.control.createAccount({ balance: 100 }).key;
		running = sim.control.seedDeck({ key, durationMs: 60 * 60_000 });
		done = sim.control.seedDeck({ key, durationMs: 60_000 });
		sim.control.advance(2 * 60_000);
	});
	afterAll(async () => await sim.close());

	const check = async (items: IDataObject[], options: IDataObject = {}) => {
		const result = await runWorkflow(checkOnce(options), { credentials: { deckGenApi: credentialFor(sim, key) }, inputItems: items.map((json) => ({ json })) });
		return [0, 1, 2].map((output) => (result.output(WAIT, output) ?? []).map((item) => item.json as IDataObject));
	};
	const purchaseOf = (taskId: string, confirmedAt: string) => ({ taskId, idempotencyKey: `key-${taskId}`, requestId: 'req_1', confirmedAt });

	test('counted from the purchase: a deck bought 95 minutes ago is past a Max Wait of 90, and says so', async () => {
		const confirmedAt = minutesAgo(95);
		const [, , [still]] = await check([{ taskId: running, purchase: purchaseOf(running, confirmedAt) }], { maxWaitMinutes: 90 });
		expect(still).toMatchObject({ outcome: 'still_running', taskId: running, waitingSince: confirmedAt, pastMaxWait: true });
		expect(String(still.statusNote)).toMatch(/^Still running 95 min after its purchase was confirmed \(.+\), past Max Wait \(90 min\): pastMaxWait is true, so a loop can end here\./);
	});

	test('within the bound: pastMaxWait false, no note; a finished deck is never past it', async () => {
		const [[completed], , [still]] = await check(
			[
				{ taskId: running, purchase: purchaseOf(running, minutesAgo(20)) },
				{ taskId: done, purchase: purchaseOf(done, minutesAgo(200)) },
			],
			{ maxWaitMinutes: 90 },
		);
		expect(still).toMatchObject({ outcome: 'still_running', pastMaxWait: false });
		expect(still.statusNote).toBeUndefined();
		expect(completed).toMatchObject({ outcome: 'completed', taskId: done });
		expect(completed.pastMaxWait).toBeUndefined();
	});

	test('without a purchase the first check starts the clock; the item carries it to the next check, which keeps it', async () => {
		const before = Date.now();
		const [, , [first]] = await check([{ taskId: running }]);
		expect(Date.parse(String(first.waitingSince))).toBeGreaterThanOrEqual(before - 1);
		expect(first.pastMaxWait).toBe(false);
		const [, , [second]] = await check([first]);
		expect(second.waitingSince).toBe(first.waitingSince);

		// the loop has gone round for 61 minutes: past the default Max Wait of 60, counted from the first check
		const [, , [late]] = await check([{ ...first, waitingSince: minutesAgo(61) }]);
		expect(late).toMatchObject({ pastMaxWait: true });
		expect(String(late.statusNote)).toMatch(/^Still running 61 min after it was first checked/);
	});

	test("another deck's purchase on the item is not this deck's", async () => {
		const [, , [still]] = await check([{ taskId: running, purchase: purchaseOf('tsk_other', minutesAgo(500)) }]);
		expect(still.pastMaxWait).toBe(false);
	});

	test('Simplify keeps what the next check needs: the purchase, waitingSince and pastMaxWait', async () => {
		const purchase = purchaseOf(running, minutesAgo(95));
		const [, , [still]] = await check([{ taskId: running, purchase, requester: 'someone@example.com' }], { simplify: true, maxWaitMinutes: 90 });
		expect(still).toMatchObject({ taskId: running, purchase, waitingSince: purchase.confirmedAt, pastMaxWait: true });
		expect(still.requester).toBeUndefined();
	});
});
