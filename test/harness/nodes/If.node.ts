import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

/**
 * n8n's IF node (`n8n-nodes-base.if`, version 2.x), as n8n 2.41 runs it: each item's conditions (a
 * `filter` parameter) are evaluated by n8n itself (n8n-core's `extractValue` → n8n-workflow's
 * `executeFilter`, the same code the real node calls), true to output 0, false to output 1.
 */
export class If implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'If',
		name: 'if',
		icon: 'fa:map-signs',
		group: ['transform'],
		version: [2, 2.1, 2.2, 2.3],
		description: 'Route items to different branches (true/false)',
		defaults: { name: 'If' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main, NodeConnectionTypes.Main],
		outputNames: ['true', 'false'],
		properties: [
			{ displayName: 'Conditions', name: 'conditions', type: 'filter', default: {} },
			{ displayName: 'Options', name: 'options', type: 'collection', default: {}, options: [] },
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const passed: INodeExecutionData[] = [];
		const failed: INodeExecutionData[] = [];
		this.getInputData().forEach((item, itemIndex) => {
			const pass = this.getNodeParameter('conditions', itemIndex, false, { extractValue: true }) as boolean;
			(pass ? passed : failed).push({ ...item, pairedItem: { item: itemIndex } });
		});
		return [passed, failed];
	}
}
