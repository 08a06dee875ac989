import type {
	ICredentialDataDecryptedObject,
	Icon,
	ICredentialTestRequest,
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
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: 'https://api.deckgen.example',
			required: true,
			description: 'Root address of the service, without /v1',
		},
		{
			displayName: 'Account URL',
			name: 'accountUrl',
			type: 'string',
			default: '',
			description:
				'Optional link to your account page, given to a person when the service offers an option this version does not know',
		},
	];

	// A function rather than the generic `=Bearer {{$credentials.apiKey}}`: n8n runs this for every
	// request, and evaluating that expression cost about 1.4 ms of CPU a request, 40 % of a status
	// read through n8n's request helper (`npm run bench`, README "What waiting costs").
	async authenticate(credentials: ICredentialDataDecryptedObject, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
		return {
			...requestOptions,
			headers: { ...requestOptions.headers, Authorization: `Bearer ${String(credentials.apiKey)}` },
		};
	}

	// GET /v1/credits spends nothing and exercises the key, its principal and the enrolment.
	// n8n shows only a status word for a refusal; these say what to do about each one.
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
			url: '/v1/credits',
			method: 'GET',
		},
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message:
						'The API key is wrong or revoked. Copy it again, or mint a new key in the account settings (API and MCP).',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 403,
					message:
						'The key was refused: the account may not be enrolled yet (access rolls out in waves; no retry helps, contact support if it lasts beyond a day), or the key lacks the credits:read scope, or none of its scopes can be read. Scopes live on the key: a new key fixes them, signing in again does not.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 503,
					message: 'The service is unavailable right now. Try again later; do not mint a new key for this.',
				},
			},
		],
	};
}
