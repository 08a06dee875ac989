/**
 * Where each item's task id comes from, in one place: version 1.1 reads the Task ID parameter (an
 * expression), version 1 the field path in Task ID Field, a tool call the model's argument.
 */
import { NodeOperationError, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';

import { valueAtPath } from '../../shared/path';
import { TASK_ID_EXPRESSION_VERSION } from './descriptions';

/**
 * The item's task id: version 1.1 reads the Task ID parameter (an expression, `{{ $json.taskId }}`
 * by default, as Get Status and Download take it); version 1 the field path in Task ID Field.
 */
export function readTaskId(
	ctx: IExecuteFunctions,
	index: number,
	json: IDataObject,
): { taskId: string; error?: undefined } | { taskId?: undefined; error: NodeOperationError & { field: string } } {
	if (ctx.getNode().typeVersion >= TASK_ID_EXPRESSION_VERSION) {
		const taskId = taskIdOfValue(ctx.getNodeParameter('taskId', index, '') as unknown);
		if (taskId !== undefined) return { taskId };
		const error = new NodeOperationError(ctx.getNode(), `Item ${index} has no task ID`, {
			itemIndex: index,
			description:
				'Set Task ID to the deck’s taskId, e.g. {{ $json.taskId }} as Deck Generator → Create returns it, or {{ $json.deck.taskId }} when it is nested.',
		});
		return { error: Object.assign(error, { field: 'Task ID' }) };
	}
	const field = ctx.getNodeParameter('taskIdField', index, 'taskId') as string;
	const taskId = taskIdOf(json, field);
	if (taskId !== undefined) return { taskId };
	const error = new NodeOperationError(ctx.getNode(), `Item ${index} has no task ID in the field "${field}"`, {
		itemIndex: index,
		description: `Set Task ID Field to the field that holds the deck's taskId (Deck Generator → Create returns it as "taskId"); dots reach into nested fields, e.g. deck.taskId.`,
	});
	return { error: Object.assign(error, { field }) };
}

function taskIdOfValue(value: unknown): string | undefined {
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** As a tool: the task id the model passed (the tool's Task ID parameter), else the item's `taskId`. */
export function toolTaskId(ctx: IExecuteFunctions, index: number): ReturnType<typeof readTaskId> {
	const taskId = taskIdOfValue(ctx.getNodeParameter('taskId', index, '') as unknown) ?? taskIdOf(ctx.getInputData()[index].json, 'taskId');
	if (taskId !== undefined) return { taskId };
	const error = new NodeOperationError(ctx.getNode(), `Item ${index} has no task ID`, {
		itemIndex: index,
		description: 'Call the tool again with taskId set to the taskId that Create returned.',
	});
	return { error: Object.assign(error, { field: 'taskId' }) };
}

/** The task id at `field`: a top-level key first (it may contain dots), else a dotted path. */
function taskIdOf(json: IDataObject, field: string): string | undefined {
	const name = field.trim();
	let value: unknown = json[name];
	if (value === undefined && name.includes('.')) {
		value = valueAtPath(json, name);
	}
	return taskIdOfValue(value);
}
