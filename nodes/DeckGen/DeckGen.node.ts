import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { CREDENTIAL_TEST_METHOD, deckGenApiTest } from '../shared/n8n/credentialTest';
import { properties } from './actions/descriptions';
import { OUTPUTS_EXPRESSION } from './actions/outputs';
import { router } from './actions/router';

export class DeckGen implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Deck Generator',
		name: 'deckGen',
		icon: { light: 'file:deckgen.svg', dark: 'file:deckgen.dark.svg' },
		group: ['transform'],
		// 1.1: outputs per operation (Success only where no 402 can come back); 1 keeps three everywhere.
		version: [1, 1.1],
		defaultVersion: 1.1,
		subtitle: '={{ $parameter["operation"] + ": " + $parameter["resource"] }}',
		description:
			'Create slide decks from a brief, upload materials, and route out-of-credit answers to checkout or a person',
		defaults: { name: 'Deck Generator' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: OUTPUTS_EXPRESSION,
		credentials: [{ name: 'deckGenApi', required: true, testedBy: 'deckGenApiTest' }],
		properties,
	};

	methods = { credentialTest: { [CREDENTIAL_TEST_METHOD]: deckGenApiTest } };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
