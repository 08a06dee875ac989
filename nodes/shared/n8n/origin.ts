/**
 * Where an item comes from, for the idempotency key (see nodes/shared/idempotency.ts): the trigger
 * item(s) it descends from through n8n's pairedItem lineage. A Retry from the executions list, a
 * crashed execution retried, and an editor re-run all hand the same trigger data on again, while
 * the execution id and the run index change; new trigger data (a schedule's timestamp, another
 * form submission, another webhook request) is a new origin.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

const WEBHOOK_TRIGGER = 'n8n-nodes-base.webhook';

/**
 * Headers a sender keeps the same when it delivers one event again, so they tell a redelivery (same
 * id) from a second request with the same body (another id). Read lower-cased, as n8n's Webhook gives
 * them. Each checked against its sender's documentation:
 * - GitHub `X-GitHub-Delivery`: one GUID per event, the same on a redelivery
 *   (docs.github.com/en/webhooks/using-webhooks/best-practices-for-using-webhooks#use-the-x-github-delivery-header;
 *   github/docs#32822 "unique per event, not per delivery").
 * - Shopify `X-Shopify-Event-Id` (shopify.dev/apps/build/webhooks/ignore-duplicates: "the same value
 *   across more than one webhook indicates a duplicate") and `X-Shopify-Webhook-Id` (the same on every
 *   retry of one webhook: n8n's own Shopify template, n8n.io/workflows/22373).
 * - Standard Webhooks `webhook-id` (github.com/standard-webhooks/standard-webhooks, spec: the same when
 *   a message is sent again) and Svix `svix-id` (docs.svix.com/idempotency, "Receiving idempotency").
 * - `Idempotency-Key`: GitLab sends one that stays across retries of a webhook
 *   (gitlab.com/gitlab-org/gitlab/-/merge_requests/160952, issue 388692).
 * - `X-Delivery-Id`: the examples' own convention (test/workflows/examples/webhook-to-slack.json).
 */
export const STABLE_DELIVERY_ID_HEADERS = [
	'x-github-delivery',
	'x-shopify-event-id',
	'x-shopify-webhook-id',
	'webhook-id',
	'svix-id',
	'idempotency-key',
	'x-delivery-id',
] as const;

/**
 * What of a Webhook trigger's item names the request: its body, query and path parameters, and the
 * sender's stable delivery ids. Not the other headers: a sender sets a new timestamp, trace id or
 * signature on every delivery, and a key derived from them would buy again at each redelivery
 * (issue 49). Nor `webhookUrl` and `executionMode`, which differ between n8n's test and production URL
 * for the same request.
 */
export function webhookRequestIdentity(item: unknown): unknown {
	if (!item || typeof item !== 'object') return item;
	const { headers, body, query, params } = item as Record<string, unknown>;
	const deliveryIds: Record<string, unknown> = {};
	if (headers && typeof headers === 'object') {
		const byName = headers as Record<string, unknown>;
		for (const name of STABLE_DELIVERY_ID_HEADERS) if (byName[name] !== undefined) deliveryIds[name] = byName[name];
	}
	return { body, query, params, deliveryIds };
}

/**
 * The JSON of each trigger item the item at `itemIndex` descends from, by trigger node name (a
 * Webhook's reduced to `webhookRequestIdentity`; every other trigger's whole, e.g. a Form Trigger's
 * `submittedAt` makes each submission a purchase of its own). Empty when the node has no trigger
 * upstream (an AI tool call, a partial run started at this node) or the lineage cannot be followed
 * (a node upstream that does not pair its items).
 */
export function triggerItemsOf(ctx: IExecuteFunctions, itemIndex: number): Record<string, unknown> {
	const self = ctx.getNode().name;
	// Every ancestor on main connections; the roots among them are the triggers.
	const roots = ctx
		.getParentNodes(self)
		.filter((ancestor) => !ancestor.disabled && ctx.getParentNodes(ancestor.name, { depth: 1 }).length === 0);
	if (!roots.length) return {};
	const proxy = ctx.getWorkflowDataProxy(itemIndex);
	const found: Record<string, unknown> = {};
	for (const root of roots) {
		try {
			const item = proxy.$(root.name).item as { json?: unknown } | undefined;
			if (item?.json !== undefined) found[root.name] = root.type === WEBHOOK_TRIGGER ? webhookRequestIdentity(item.json) : item.json;
		} catch {
			// This root did not run in this execution, or the item does not descend from it.
		}
	}
	return found;
}
