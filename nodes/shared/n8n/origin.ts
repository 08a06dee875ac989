/**
 * Where an item comes from, for the idempotency key (see nodes/shared/idempotency.ts): the trigger
 * item(s) it descends from through n8n's pairedItem lineage. A Retry from the executions list, a
 * crashed execution retried, and an editor re-run all hand the same trigger data on again, while
 * the execution id and the run index change; new trigger data (a schedule's timestamp, another
 * webhook call) is a new origin.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

/**
 * The JSON of each trigger item the item at `itemIndex` descends from, by trigger node name. Empty
 * when the node has no trigger upstream (an AI tool call, a partial run started at this node) or
 * the lineage cannot be followed (a node upstream that does not pair its items).
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
			if (item?.json !== undefined) found[root.name] = item.json;
		} catch {
			// This root did not run in this execution, or the item does not descend from it.
		}
	}
	return found;
}
