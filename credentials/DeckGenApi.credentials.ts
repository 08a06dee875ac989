import type {
	ICredentialDataDecryptedObject,
	Icon,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

export class DeckGenApi implements ICredentialType {
	name = 'deckGenApi';

	displayName = 'Deck Generator API';

	icon: Icon = { light: 'file:deckgen.svg', dark: 'file:deckgen.dark.svg' };

	documentationUrl = 'https://github.com/deckgen/n8n-nodes-deckgen#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				'Minted in the account settings under API and MCP; shown once. Its scopes decide what the nodes may do (decks:spend to create, decks:read to poll).',
			hint: 'The Test button reads the credit balance, so it needs the scope credits:read; a key without it may still work for the other operations.',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://api.example.com',
			description:
				'Root address of the Deck Generation Service’s API, without /v1: the address your provider gives with the API key (account settings, API and MCP, or its API documentation)',
		},
		{
			displayName: 'Account URL',
			name: 'accountUrl',
			type: 'string',
			default: '',
			description:
				'Optional link to your account page, given to a person when the service offers an option this version does not know',
		},
		{
			displayName: 'Allow Plain HTTP',
			name: 'allowPlainHttp',
			type: 'boolean',
			default: false,
			description:
				'Whether to send the API key over plain http:// to a Base URL on another machine. Off, such a Base URL is refused before anything is sent: anyone on the network path could read the key and spend its credits. Switch on only for a network you trust; https:// and this machine (localhost, 127.0.0.1, ::1) need nothing.',
		},
		// Paths the contract does not show (nodes/shared/endpoints.ts): a fact of the deployment like the
		// Base URL, so set here once rather than in every node. Empty = the nodes' default.
		{
			displayName: 'Upload Path',
			name: 'materialsPath',
			type: 'string',
			default: '',
			placeholder: '/v1/materials',
			description:
				'Only if your provider documents another path for Material → Upload: the path under the Base URL, starting with /v1/ (e.g. /v1/files). Empty: /v1/materials.',
		},
		{
			displayName: 'Revise Path',
			name: 'revisionsPath',
			type: 'string',
			default: '',
			placeholder: '/v1/decks/{taskId}/revisions',
			description:
				'Only if your provider documents another path for Deck → Revise: starting with /v1/, with {taskId} where the deck\'s id goes. Empty: /v1/decks/{taskId}/revisions.',
		},
		{
			displayName: 'Translate Path',
			name: 'translationsPath',
			type: 'string',
			default: '',
			placeholder: '/v1/decks/{taskId}/translations',
			description:
				'Only if your provider documents another path for Deck → Translate: starting with /v1/, with {taskId} where the deck\'s id goes. Empty: /v1/decks/{taskId}/translations.',
		},
		{
			displayName: 'Generate Video Path',
			name: 'videoPath',
			type: 'string',
			default: '',
			placeholder: '/v1/decks/{taskId}/video',
			description:
				'Only if your provider documents another path for Deck → Generate Video: starting with /v1/, with {taskId} where the deck\'s id goes. Empty: /v1/decks/{taskId}/video.',
		},
	];

	// A function rather than the generic `=Bearer {{$credentials.apiKey}}`: n8n runs this for every
	// request, and evaluating that expression cost about 1.4 ms of CPU a request, 40 % of a status
	// read through n8n's request helper (`npm run bench`, CONTRIBUTING.md "What waiting costs: the benchmark").
	async authenticate(credentials: ICredentialDataDecryptedObject, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
		return {
			...requestOptions,
			headers: { ...requestOptions.headers, Authorization: `Bearer ${String(credentials.apiKey)}` },
		};
	}

	// The Test button is the nodes' credential test method (`testedBy`, nodes/shared/n8n/credentialTest.ts):
	// it names the exact refusal (401, 403 not_enrolled / insufficient_scope / unrecognized_scope, 503,
	// a Base URL ending in /v1) on n8n 1.x and 2.x alike. A declarative `test` here would take precedence.
}
