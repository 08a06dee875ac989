/**
 * The Task ID parameter, read the same way by every operation of both nodes: an expression
 * (`{{ $json.taskId }}` by default) whose value is a text (trimmed) or a number (as text).
 */
import { NodeOperationError, type IExecuteFunctions } from 'n8n-workflow';

/** The item's Task ID parameter, or undefined when it is empty. */
export function taskIdParameter(ctx: IExecuteFunctions, index: number): string | undefined {
	return taskIdOfValue(ctx.getNodeParameter('taskId', index, '') as unknown);
}

/** A task id from any value: a non-empty text (trimmed) or a finite number. */
export function taskIdOfValue(value: unknown): string | undefined {
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/**
 * The error of an item without a task id: names where it was read (the Task ID parameter, a tool's
 * `taskId` argument, or the field path of a version-1 Wait node's Task ID Field) and the fix.
 */
export function missingTaskId(
	ctx: IExecuteFunctions,
	index: number,
	from: { field: string; fieldPath?: boolean; description: string } = {
		field: 'Task ID',
		description: 'Set Task ID to the deck’s taskId, e.g. {{ $json.taskId }} as Deck Generator → Create returns it, or {{ $json.deck.taskId }} when it is nested.',
	},
): NodeOperationError & { field: string } {
	const where = from.fieldPath ? ` in the field "${from.field}"` : '';
	const error = new NodeOperationError(ctx.getNode(), `Item ${index} has no task ID${where}`, { itemIndex: index, description: from.description });
	return Object.assign(error, { field: from.field });
}
