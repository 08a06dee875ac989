/**
 * n8n's execution hints (shown in the output pane, where the n8n version has them): each message once
 * per node run, however many items say it.
 */
import type { IExecuteFunctions, NodeExecutionHint } from 'n8n-workflow';

const given = new WeakMap<object, Set<string>>();

export function hintOnce(ctx: IExecuteFunctions, hint: NodeExecutionHint): void {
	const messages = given.get(ctx) ?? new Set<string>();
	if (messages.has(hint.message)) return;
	given.set(ctx, messages.add(hint.message));
	ctx.addExecutionHints?.(hint);
}
