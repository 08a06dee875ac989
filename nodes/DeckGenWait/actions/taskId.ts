/**
 * Where each item's task id comes from, in one place: version 1.1 reads the Task ID parameter (an
 * expression, read as every Deck Generator operation reads it: shared/n8n/taskId.ts), version 1 the
 * field path in Task ID Field, a tool call the model's argument.
 */
import type { IDataObject, IExecuteFunctions, NodeOperationError } from 'n8n-workflow';

import { missingTaskId, taskIdOfValue, taskIdParameter } from '../../shared/n8n/taskId';
import { valueAtPath } from '../../shared/path';
import { TASK_ID_EXPRESSION_VERSION } from './descriptions';

type TaskIdOrError = { taskId: string; error?: undefined } | { taskId?: undefined; error: NodeOperationError & { field: string } };

/**
 * The item's task id: version 1.1 reads the Task ID parameter (an expression, `{{ $json.taskId }}`
 * by default, as Get Status and Download take it); version 1 the field path in Task ID Field.
 */
export function readTaskId(ctx: IExecuteFunctions, index: number, json: IDataObject): TaskIdOrError {
	if (ctx.getNode().typeVersion >= TASK_ID_EXPRESSION_VERSION) {
		const taskId = taskIdParameter(ctx, index);
		return taskId !== undefined ? { taskId } : { error: missingTaskId(ctx, index) };
	}
	const field = ctx.getNodeParameter('taskIdField', index, 'taskId') as string;
	const taskId = taskIdOf(json, field);
	if (taskId !== undefined) return { taskId };
	const description = `Set Task ID Field to the field that holds the deck's taskId (Deck Generator → Create returns it as "taskId"); dots reach into nested fields, e.g. deck.taskId.`;
	return { error: missingTaskId(ctx, index, { field, fieldPath: true, description }) };
}

/** As a tool: the task id the model passed (the tool's Task ID parameter), else the item's `taskId`. */
export function toolTaskId(ctx: IExecuteFunctions, index: number): TaskIdOrError {
	const taskId = taskIdParameter(ctx, index) ?? taskIdOf(ctx.getInputData()[index].json, 'taskId');
	if (taskId !== undefined) return { taskId };
	return { error: missingTaskId(ctx, index, { field: 'taskId', description: 'Call the tool again with taskId set to the taskId that Create returned.' }) };
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
