/**
 * Issue 49, point 6: a webhook delivered again is the same purchase, whatever the sender changed in the
 * headers of that delivery (a timestamp, a trace id, a signature); a sender's stable delivery id tells a
 * redelivery from a second request with the same body; a Form Trigger's submission stays a purchase of
 * its own. Webhook → Create as a user builds it (no Idempotency Key option), the Webhook node's item
 * as n8n makes it.
 */
import type { INode } from 'n8n-workflow';

import { connections, node, type WorkflowJson } from '../../harness';
import { start, type Simulator } from '../../simulator';
import { webhookItem } from '../run-example';
import { brief, createFromBrief, jsonOf, runWith } from './fixture';

const CREATE = 'Create';

function webhookWorkflow(trigger = 'n8n-nodes-base.webhook'): WorkflowJson {
	return {
		id: 'wfWebhookRedelivery',
		nodes: [
			{ ...node('Deck request', trigger), typeVersion: 2.1 } as INode,
			{
				...node(CREATE, 'n8n-nodes-deckgen.deckGen', {
					...createFromBrief({ options: { maxRetryWaitSeconds: 0 } }),
					title: '={{ $json.body.title }}',
					coreMessage: '={{ $json.body.core_message }}',
					audience: '={{ $json.body.audience }}',
					slideCount: '={{ $json.body.slide_count }}',
					expectedCredits: 10,
				}),
				id: 'c0ffee00-0000-4000-8000-0000000049b6',
			} as INode,
		],
		connections: connections([['Deck request', CREATE]]),
	} as WorkflowJson;
}

/** One delivery: the same request, with what a sender sets anew on every delivery. */
const delivery = (attempt: number, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
	webhookItem({
		path: 'deck-request',
		body,
		headers: {
			'content-type': 'application/json',
			'x-request-start': String(1_764_000_000_000 + attempt),
			traceparent: `00-${String(attempt).padStart(32, '0')}-00f067aa0ba902b7-01`,
			'x-hub-signature-256': `sha256=${String(attempt).repeat(64).slice(0, 64)}`,
			'webhook-timestamp': String(1_764_000_000 + attempt),
			...headers,
		},
	});

describe('a webhook request delivered again (issue 49.6)', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await start({ seed: 496, clock: { manual: true }, limits: { maxConcurrentDecks: 1000 } });
	});
	afterAll(async () => await sim.close());

	const account = () => sim.control.createAccount({ balance: 1000 });
	const chargesOf = (principalId: string) => sim.ledger.charges.filter((c) => c.principalId === principalId);
	const created = async (key: string, item: ReturnType<typeof delivery>, workflow = webhookWorkflow()) =>
		jsonOf((await runWith(sim, workflow, key, [item], { mode: 'webhook' })).output(CREATE))[0];

	test('the same body with other per-delivery headers (timestamp, trace id, signature) replays: one charge', async () => {
		const { key, principalId } = account();
		const first = await created(key, delivery(1, brief({ title: 'Launch plan' })));
		const again = await created(key, delivery(2, brief({ title: 'Launch plan' })));
		expect(first).toMatchObject({ outcome: 'success', charge: 'charged', replayed: false });
		expect(again).toMatchObject({ outcome: 'success', taskId: first.taskId, charge: 'replayed', replayed: true });
		expect(chargesOf(principalId)).toHaveLength(1);
	});

	test.each([
		['GitHub', 'X-GitHub-Delivery'],
		['Shopify', 'X-Shopify-Event-Id'],
		['Shopify (per webhook)', 'X-Shopify-Webhook-Id'],
		['Standard Webhooks', 'webhook-id'],
		['Svix', 'svix-id'],
		['GitLab', 'Idempotency-Key'],
		['the examples', 'X-Delivery-Id'],
	])("%s's delivery id (%s): the same id replays, another id with the same body buys a second deck", async (_sender, header) => {
		const { key, principalId } = account();
		const body = brief({ title: `Weekly sync (${header})` });
		const first = await created(key, delivery(1, body, { [header]: 'evt-1' }));
		const redelivered = await created(key, delivery(2, body, { [header]: 'evt-1' }));
		const second = await created(key, delivery(3, body, { [header]: 'evt-2' }));
		expect(redelivered).toMatchObject({ taskId: first.taskId, replayed: true });
		expect(second).toMatchObject({ charge: 'charged', replayed: false });
		expect(second.taskId).not.toBe(first.taskId);
		expect(chargesOf(principalId)).toHaveLength(2);
	});

	test('two requests whose bodies differ are two purchases, and so are two query strings', async () => {
		const { key, principalId } = account();
		await created(key, delivery(1, brief({ title: 'Plan A' })));
		const edited = await created(key, delivery(2, brief({ title: 'Plan B' })));
		expect(edited).toMatchObject({ charge: 'charged' });
		const withQuery = webhookItem({ path: 'deck-request', body: brief({ title: 'Plan A' }), query: { team: 'sales' } });
		expect(await created(key, withQuery)).toMatchObject({ charge: 'charged' });
		expect(chargesOf(principalId)).toHaveLength(3);
	});

	test("another trigger's item is taken whole (a Form Trigger's submittedAt makes each submission its own purchase)", async () => {
		const { key, principalId } = account();
		const manual = webhookWorkflow('n8n-nodes-base.manualTrigger');
		await created(key, delivery(1, brief({ title: 'Form deck' })), manual);
		const next = await created(key, delivery(2, brief({ title: 'Form deck' })), manual);
		expect(next).toMatchObject({ charge: 'charged', replayed: false });
		expect(chargesOf(principalId)).toHaveLength(2);
	});
});
