import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { CREDENTIAL_TEST_METHOD, deckGenApiTest } from '../shared/n8n/credentialTest';
import { properties, TASK_ID_EXPRESSION_VERSION } from './actions/descriptions';
import { OUTPUT_NAMES } from './actions/outputs';
import { batch } from './actions/batch';

export class DeckGenWait implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Deck Generator Wait',
		name: 'deckGenWait',
		icon: { light: 'file:deckgenwait.svg', dark: 'file:deckgenwait.dark.svg' },
		group: ['transform'],
		// 1.1: Task ID is an expression, as on the Deck Generator node; 1 (workflows saved by 0.1 and
		// 0.2) keeps Task ID Field, a field path.
		version: [1, TASK_ID_EXPRESSION_VERSION],
		defaultVersion: TASK_ID_EXPRESSION_VERSION,
		subtitle: '={{$parameter["mode"] === "checkOnce" ? "Check once" : "Wait until done"}}',
		description: 'Wait for slide decks to finish generating and route them by outcome',
		defaults: {
			name: 'Deck Generator Wait',
		},
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		// Named on each output, not in `outputNames`: n8n's AI-tool variant replaces `outputs` with its
		// one tool connection but keeps `outputNames`, so the editor labelled that connection
		// "Completed" (seen by the editor's end-to-end test, test/e2e/editor.e2e.ts).
		outputs: OUTPUT_NAMES.map((displayName) => ({ type: NodeConnectionTypes.Main, displayName })),
		credentials: [{ name: 'deckGenApi', required: true, testedBy: 'deckGenApiTest' }],
		properties,
	};

	methods = { credentialTest: { [CREDENTIAL_TEST_METHOD]: deckGenApiTest } };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await batch.call(this);
	}
}
