import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

/**
 * Test-only node (`CUSTOM.harnessThrow`): throws a NodeOperationError when `shouldThrow` is
 * true, otherwise passes its items on. `shouldThrow` is usually an expression, e.g.
 * `={{ $execution.mode !== 'retry' }}` to fail the first run and pass on a retry.
 */
export class HarnessThrow implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Harness Throw',
		name: 'harnessThrow',
		group: ['transform'],
		version: 1,
		description: 'Throws when told to',
		defaults: { name: 'Harness Throw' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [
			{ displayName: 'Throw', name: 'shouldThrow', type: 'boolean', default: true },
			{ displayName: 'Message', name: 'message', type: 'string', default: 'Harness Throw failed' },
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		if (this.getNodeParameter('shouldThrow', 0) as boolean) {
			throw new NodeOperationError(this.getNode(), this.getNodeParameter('message', 0) as string);
		}
		return [items];
	}
}
