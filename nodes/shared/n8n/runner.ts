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

export interface EmittedItem {
	/** Index of the node output the item goes to. */
	output: number;
	json: IDataObject;
	binary?: INodeExecutionData['binary'];
}

export interface RunOptions {
	outputCount: number;
	concurrency: number;
	/** Items of spending operations carry purchases; their task ids are named if the node fails. */
	spends: boolean;
	/** As an AI tool only output 0 reaches the model, so everything goes there. */
	singleOutput?: boolean;
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
				if (ctx.continueOnFail() && !(error instanceof CancelledError)) {
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

	if (fatal) throw withPurchases(ctx, fatal.error, fatal.itemIndex, results, options.spends);

	const outputs: INodeExecutionData[][] = Array.from({ length: options.outputCount }, () => []);
	for (const result of results) {
		if (!result) continue;
		const { output, ...item } = result;
		outputs[options.singleOutput ? 0 : output].push(item);
	}
	return outputs;
}

/**
 * The JSON of an item for continueOnFail. n8n replaces the JSON of an item that has `error` set
 * with just the message, and moves an item to the error output only when its JSON is `{error}`
 * or `{error, message}` (n8n 1.x; 2.x also allows `details`). So the facts live in `error` as an
 * object, in the manner of n8n's HTTP Request node, and `message` says what fixes it.
 */
export function errorJson(message: string, description: string | null | undefined, facts: IDataObject): IDataObject {
	return { error: { message, ...facts }, ...(description ? { message: description } : {}) };
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
 * When the node fails as a whole, the decks other items already bought would vanish with their
 * outputs; the error names them, and says that retrying the execution replays rather than rebuys.
 */
function withPurchases(
	ctx: IExecuteFunctions,
	error: Error,
	itemIndex: number,
	results: Array<{ json: IDataObject } | undefined>,
	spends: boolean,
): Error {
	const bought = spends
		? results
				.map((result, index) => ({ index, taskId: result?.json.taskId }))
				.filter((entry): entry is { index: number; taskId: string } => typeof entry.taskId === 'string')
		: [];
	const nodeError =
		error instanceof CancelledError
			? new NodeOperationError(ctx.getNode(), 'The execution was cancelled', { itemIndex })
			: (error as NodeError).node
				? (error as NodeError)
				: new NodeOperationError(ctx.getNode(), error, { itemIndex });
	if (bought.length) {
		const list = bought.map((entry) => `item ${entry.index}: ${entry.taskId}`).join(', ');
		const note = `Decks already bought in this run (not lost, and not bought again when you retry this execution): ${list}.`;
		nodeError.description = nodeError.description ? `${nodeError.description} ${note}` : note;
		nodeError.context.purchasedTaskIds = bought.map((entry) => entry.taskId);
	}
	return nodeError;
}
