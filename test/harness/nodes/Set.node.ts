import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

/**
 * n8n's Edit Fields (Set) node (`n8n-nodes-base.set`, version 3.3+, mode Manual Mapping, Include Other
 * Input Fields off, its default): each item becomes the assigned fields, their expressions resolved by
 * n8n, a `number` or `boolean` assignment converted as the real node does.
 */
export class Set implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Edit Fields (Set)',
		name: 'set',
		icon: 'fa:pen',
		group: ['input'],
		version: [3.3, 3.4],
		description: 'Harness stand-in: the assigned fields of each item',
		defaults: { name: 'Edit Fields' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [
			{ displayName: 'Fields to Set', name: 'assignments', type: 'assignmentCollection', default: {} },
			{ displayName: 'Options', name: 'options', type: 'collection', default: {}, options: [] },
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [
			this.getInputData().map((_item, itemIndex) => {
				const assignments = this.getNodeParameter('assignments.assignments', itemIndex, []) as Array<{ name: string; value: unknown; type?: string }>;
				const json: Record<string, unknown> = {};
				for (const { name, value, type } of assignments) {
					json[name] = type === 'number' ? Number(value) : type === 'boolean' ? value === true || value === 'true' : value;
				}
				return { json: json as INodeExecutionData['json'], pairedItem: { item: itemIndex } };
			}),
		];
	}
}
