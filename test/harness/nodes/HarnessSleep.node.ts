import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError, sleep } from 'n8n-workflow';

import { harnessEvents } from './events';

/**
 * Test-only node (`CUSTOM.harnessSleep`): waits `ms` with n8n-workflow's `sleep`, bound to
 * `this.getExecutionCancelSignal()`, the signal n8n aborts when an execution is stopped.
 * Emits `sleep:start` / `sleep:end` on `harnessEvents`.
 */
export class HarnessSleep implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Harness Sleep',
		name: 'harnessSleep',
		group: ['transform'],
		version: 1,
		description: 'Sleeps, cancellable',
		defaults: { name: 'Harness Sleep' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [{ displayName: 'Milliseconds', name: 'ms', type: 'number', default: 1000 }],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const ms = this.getNodeParameter('ms', 0) as number;
		const signal = this.getExecutionCancelSignal();
		const startedAt = Date.now();
		harnessEvents.emit('sleep:start', { node: this.getNode().name, executionId: this.getExecutionId() });
		try {
			await sleep(ms, signal);
		} catch (error) {
			harnessEvents.emit('sleep:end', { aborted: true, signalAborted: signal?.aborted === true });
			throw new NodeOperationError(this.getNode(), 'Sleep was cancelled', {
				description: `after ${Date.now() - startedAt} ms: ${(error as Error).message}`,
			});
		}
		harnessEvents.emit('sleep:end', { aborted: false, signalAborted: signal?.aborted === true });
		return [this.getInputData().map((item, i) => ({ json: { ...item.json, slept: ms }, pairedItem: { item: i } }))];
	}
}
