import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

/**
 * Stand-in for n8n's Webhook trigger, registered as `n8n-nodes-base.webhook`.
 *
 * The real node turns an HTTP request into one item `{ headers, params, query, body, webhookUrl,
 * executionMode }` (headers lower-cased, as Node's http server gives them). Here it passes on the items
 * the harness puts on the execution stack (`inputItems`: a test writes that item), so a node downstream
 * sees a Webhook trigger upstream, by type, as in n8n.
 */
export class Webhook implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Webhook',
		name: 'webhook',
		icon: 'fa:bolt',
		group: ['trigger'],
		version: [1, 1.1, 2, 2.1],
		description: "Harness stand-in: emits the run's input items, the requests a test writes",
		eventTriggerDescription: 'Waiting for you to call the Test URL',
		defaults: { name: 'Webhook' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [this.getInputData()];
	}
}
