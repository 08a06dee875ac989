/**
 * What is left of an execution after n8n dies during it (SIGKILL, out of memory, a SIGTERM past the
 * graceful-shutdown timeout) and starts again, with the default settings (no "save execution
 * progress"): n8n 2.41.1, `ActiveExecutions.add`, `ExecutionRecoveryService.amend`.
 *
 * - The execution row holds what was written when the execution began: the run data it started
 *   from, with the start node and its items on the execution stack. Nothing written later survives:
 *   no node output, no node execution context (`contextData` is what it started with), no error.
 * - On start-up, crash recovery reads the event log: every node that has a `n8n.node.started`
 *   event and no run data in the row gets one run: `n8n.node.finished` too → success with one
 *   artificial item `{ isArtificialRecoveredEventItem: true }` (ARTIFICIAL_TASK_DATA); no finish →
 *   a 'crashed' run with NodeCrashedError, and the execution's error WorkflowCrashedError. Nodes in
 *   the workflow's order, the last of them becomes `lastNodeExecuted`. Status 'crashed'.
 *
 * "Retry" from the executions list then continues from this (ExecutionService.retry): the crashed
 * run is dropped, the saved stack runs again from the start node, under a new execution id, and a
 * node that has an artificial run runs again as run index 1.
 */
import {
	NodeOperationError,
	WorkflowOperationError,
	type INode,
	type IRunExecutionData,
	type ITaskData,
} from 'n8n-workflow';

/** n8n's ARTIFICIAL_TASK_DATA (cli/src/constants.ts). */
export const ARTIFICIAL_TASK_DATA = {
	main: [[{ json: { isArtificialRecoveredEventItem: true }, pairedItem: undefined }]],
};

/** The event log of the crashed run: nodes started and finished before the crash, with their times. */
export interface CrashEvents {
	started: Map<string, number>;
	finished: Map<string, number>;
}

/**
 * The execution data crash recovery saves for an execution that began with `savedAtStart` (a JSON
 * copy of the data the execution started from) and whose event log is `events`.
 */
export function recoverCrashedExecution(savedAtStart: IRunExecutionData, nodes: INode[], events: CrashEvents): IRunExecutionData {
	const data = JSON.parse(JSON.stringify(savedAtStart)) as IRunExecutionData;
	// No node messages: amend() changes nothing (the row is only marked crashed).
	if (events.started.size === 0) return data;
	data.resultData.runData ??= {};
	for (const node of nodes) {
		const startedAt = events.started.get(node.name);
		if (startedAt === undefined) continue;
		if (data.resultData.runData[node.name] !== undefined) continue;
		const finishedAt = events.finished.get(node.name);
		const taskData: ITaskData = {
			startTime: startedAt,
			executionIndex: 0,
			executionTime: -1,
			source: [null],
		};
		if (finishedAt !== undefined) {
			taskData.executionStatus = 'success';
			taskData.data = JSON.parse(JSON.stringify(ARTIFICIAL_TASK_DATA)) as ITaskData['data'];
			taskData.executionTime = finishedAt - startedAt;
		} else {
			taskData.executionStatus = 'crashed';
			// NodeCrashedError and WorkflowCrashedError (cli/src/errors) are these n8n-workflow errors.
			taskData.error = new NodeOperationError(node, 'Node crashed, possible out-of-memory issue', {
				message: 'Execution stopped at this node',
				description:
					"n8n may have run out of memory while running this execution. More context and tips on how to avoid this <a href='https://docs.n8n.io/hosting/scaling/memory-errors/' target='_blank'>in the docs</a>",
			});
			taskData.executionTime = 0;
			data.resultData.error = new WorkflowOperationError('Workflow did not finish, possible out-of-memory issue');
		}
		data.resultData.lastNodeExecuted = node.name;
		data.resultData.runData[node.name] = [taskData];
	}
	return data;
}
