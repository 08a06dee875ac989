import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

interface ProbeCall extends IDataObject {
	executionId: string;
	mode: string;
	itemIndex: number;
}

/**
 * Test-only node (`CUSTOM.harnessHttpProbe`), built like a real HTTP node of this package:
 * - one request per item through `this.helpers.httpRequestWithAuthentication('deckGenApi')`,
 *   so the credential type's `authenticate` block is applied by the credentials helper;
 * - records every call in the node execution context (`this.getContext('node').calls`),
 *   which n8n saves with the execution, and outputs that history;
 * - a 5xx answer is an error: thrown, or with "continue on fail" an `{ error }` item paired
 *   with its input item (n8n routes it to the error output for `continueErrorOutput`).
 */
export class HarnessHttpProbe implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Harness HTTP Probe',
		name: 'harnessHttpProbe',
		group: ['transform'],
		version: 1,
		description: 'Calls a URL with deckGenApi credentials',
		defaults: { name: 'Harness HTTP Probe' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'deckGenApi', required: true }],
		properties: [
			{ displayName: 'URL', name: 'url', type: 'string', default: '' },
			{
				displayName: 'Method',
				name: 'method',
				type: 'options',
				options: [
					{ name: 'GET', value: 'GET' },
					{ name: 'POST', value: 'POST' },
				],
				default: 'GET',
			},
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const context = this.getContext('node');
		const calls = ((context.calls as ProbeCall[] | undefined) ?? []).slice();
		const returnData: INodeExecutionData[] = [];

		for (let i = 0; i < items.length; i++) {
			calls.push({ executionId: this.getExecutionId(), mode: this.getMode(), itemIndex: i });
			context.calls = calls;
			const url = this.getNodeParameter('url', i) as string;
			const method = this.getNodeParameter('method', i) as IHttpRequestMethods;
			try {
				const response = (await this.helpers.httpRequestWithAuthentication.call(this, 'deckGenApi', {
					url,
					method,
					returnFullResponse: true,
					ignoreHttpStatusErrors: true,
					json: true,
				})) as { statusCode: number; body: unknown };
				if (response.statusCode >= 500) {
					throw new NodeOperationError(this.getNode(), `The service answered ${response.statusCode}`, {
						itemIndex: i,
					});
				}
				returnData.push({
					json: { statusCode: response.statusCode, body: response.body as IDataObject, calls: calls.slice() },
					pairedItem: { item: i },
				});
			} catch (error) {
				if (this.continueOnFail()) {
					returnData.push({ json: { error: (error as Error).message }, pairedItem: { item: i } });
					continue;
				}
				throw error;
			}
		}
		return [returnData];
	}
}
