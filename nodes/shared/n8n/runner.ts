/**
 * The one function that owns the item loop: bounded concurrency, `pairedItem` on every item of
 * every output, `continueOnFail`, and the guarantee that a bought deck is never lost. Operations
 * only say what one item produces.
 */
import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type NodeError,
} from 'n8n-workflow';

import { CancelledError } from '../client';
import { forgetDelivered, MAY_HAVE_BEEN_BOUGHT, purchasesIn, type KeyStore, type Purchase } from '../idempotency';
import { errorJson, type EmittedItem } from './item';
import { toolErrorItem } from './tool';

export interface RunOptions {
	outputCount: number;
	concurrency: number;
	/**
	 * For spending operations, the store of the execution's purchases (the node's execution
	 * context): if the node fails, its error names every one of them, from every try.
	 */
	purchases?: KeyStore;
	/** As an AI tool only output 0 reaches the model, so everything goes there. */
	singleOutput?: boolean;
	/**
	 * As an AI tool a failed item is an answer too (tool.ts `toolErrorItem`): the model reads it on
	 * output 0 instead of an error text.
	 */
	toolAnswers?: boolean;
}


export async function runPerItem(
	ctx: IExecuteFunctions,
	options: RunOptions,
	handle: (itemIndex: number) => Promise<EmittedItem>,
): Promise<INodeExecutionData[][]> {
	const items = ctx.getInputData();
	const results: Array<INodeExecutionData & { output: number }> = new Array(items.length);
	const signal = ctx.getExecutionCancelSignal?.();
	let fatal: { error: Error; itemIndex: number } | undefined;
	let next = 0;

	const worker = async () => {
		while (!fatal && next < items.length) {
			if (signal?.aborted) {
				fatal ??= { error: new CancelledError(), itemIndex: next };
				return;
			}
			const itemIndex = next++;
			const pairedItem = { item: itemIndex };
			try {
				const emitted = await handle(itemIndex);
				results[itemIndex] = { json: emitted.json, binary: emitted.binary, pairedItem, output: emitted.output };
			} catch (error) {
				if (options.toolAnswers && !(error instanceof CancelledError)) {
					results[itemIndex] = { json: toolErrorItem(ctx.getNode(), error as Error).json, pairedItem, output: 0 };
				} else if (ctx.continueOnFail() && !(error instanceof CancelledError)) {
					results[itemIndex] = { ...errorItem(error as Error), pairedItem, output: 0 };
				} else {
					fatal ??= { error: error as Error, itemIndex };
				}
			}
		}
	};
	const workers = Math.max(1, Math.min(options.concurrency, items.length));
	// Items in flight when one fails are let finish: stopping them could lose a purchase's answer.
	await Promise.all(Array.from({ length: workers }, worker));

	if (fatal) throw withPurchases(ctx, fatal.error, fatal.itemIndex, options.purchases);

	const outputs: INodeExecutionData[][] = Array.from({ length: options.outputCount }, () => []);
	for (const result of results) {
		if (!result) continue;
		const { output, ...item } = result;
		outputs[options.singleOutput ? 0 : output].push(item);
	}
	if (options.purchases) {
		const delivered = new Set(results.flatMap((result) => (typeof result?.json.taskId === 'string' ? [result.json.taskId] : [])));
		forgetDelivered(options.purchases, delivered);
	}
	return outputs;
}

function errorItem(error: Error): INodeExecutionData {
	const nodeError = error as NodeError;
	const { itemIndex: _itemIndex, runIndex: _runIndex, ...context } = (nodeError.context ?? {}) as IDataObject;
	return { json: errorJson(error.message, nodeError.description, { outcome: 'error', ...context }) };
}

/** As an AI tool (n8n names the tool variant `<type>Tool`), only output 0 reaches the model. */
export function isToolCall(ctx: IExecuteFunctions): boolean {
	return ctx.getNode().type.endsWith('Tool');
}

/**
 * When the node fails as a whole, n8n saves only this error (of the last try), and the outputs of
 * the items that did succeed are gone with it. So the error names every purchase the execution
 * made, from every try (an earlier try may have reached items this one never got to), and every
 * request that went out and was never answered, with its key. Retrying the execution replays all
 * of them without a second charge.
 */
function withPurchases(ctx: IExecuteFunctions, error: Error, itemIndex: number, store: KeyStore | undefined): Error {
	const nodeError =
		error instanceof CancelledError
			? new NodeOperationError(ctx.getNode(), 'The execution was cancelled', { itemIndex })
			: (error as NodeError).node
				? (error as NodeError)
				: new NodeOperationError(ctx.getNode(), error, { itemIndex });
	const purchases = store ? purchasesIn(store) : [];
	const where = (p: Purchase) => `item ${p.itemIndex}${p.runIndex ? ` of run ${p.runIndex}` : ''}`;
	const bought = purchases.filter((p) => p.state === 'bought');
	const unanswered = purchases.filter((p) => p.state === 'unanswered');
	const notes: string[] = [];
	if (bought.length) {
		const list = bought.map((p) => `${where(p)}: ${p.taskId ?? `(no taskId in the answer; Idempotency-Key ${p.key})`}`);
		notes.push(
			// bought now or replayed: either way the service holds them, and a retry replays them
			`Decks the service confirmed to this execution (not lost, and not bought again when you retry this execution): ${list.join(', ')}.`,
		);
		nodeError.context.purchasedTaskIds = bought.flatMap((p) => (p.taskId ? [p.taskId] : []));
	}
	if (unanswered.length) {
		const list = unanswered.map((p) => `${where(p)} (Idempotency-Key ${p.key})`);
		notes.push(`Sent but never answered, so each ${MAY_HAVE_BEEN_BOUGHT}: ${list.join(', ')}.`);
		nodeError.context.unansweredPurchases = unanswered.map((p) => ({ item: p.itemIndex, run: p.runIndex, idempotencyKey: p.key }));
	}
	if (notes.length) {
		const note = notes.join(' ');
		nodeError.description = nodeError.description ? `${nodeError.description} ${note}` : note;
	}
	return nodeError;
}
