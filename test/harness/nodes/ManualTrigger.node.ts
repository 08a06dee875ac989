import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

/**
 * Stand-in for n8n's Manual Trigger, registered as `n8n-nodes-base.manualTrigger`.
 *
 * The real node is a trigger whose `manualTriggerFunction` emits one empty item. Here it is a
 * pass-through of the items the harness puts on the execution stack (`inputItems`, default
 * one empty item), the way n8n hands a production trigger's or webhook's items to the first
 * node, so a workflow behaves the same in every execution mode.
 */
export class ManualTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Manual Trigger',
		name: 'manualTrigger',
		icon: 'fa:mouse-pointer',
		group: ['trigger'],
		version: 1,
		description: 'Harness stand-in: emits the run\'s input items',
		eventTriggerDescription: '',
		maxNodes: 1,
		defaults: { name: 'When clicking ‘Execute workflow’' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [this.getInputData()];
	}
}
