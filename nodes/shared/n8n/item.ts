/**
 * What a node emits for one item, in the two shapes every part of the package uses: an item on an
 * output (`EmittedItem`, what an operation returns to the item loop in runner.ts and what tool.ts
 * rewrites for a model), and the package's error item (`errorJson`). Its own file so that the item
 * loop and the tool answers can both use them without importing each other.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

export interface EmittedItem {
	/** Index of the node output the item goes to. */
	output: number;
	json: IDataObject;
	binary?: INodeExecutionData['binary'];
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
