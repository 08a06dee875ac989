/**
 * n8n's CredentialsHelper (packages/cli/src/credentials-helper.ts) without the database:
 * credentials given to a run are encrypted with n8n-core's `Credentials` (the instance's
 * encryption key) into an in-memory store, and decrypted again on `getDecrypted`, which then
 * does what the real helper does: fill the credential type's defaults
 * (`NodeHelpers.getNodeParameters`) and resolve `={{ }}` expressions in the data.
 *
 * `authenticate` is the real helper's logic: a function-style `authenticate` is called, a
 * generic one (`{ type: 'generic', properties: { headers: { Authorization:
 * '=Bearer {{$credentials.apiKey}}' } } }`) is applied by resolving every key and value with
 * `workflow.expression.getSimpleParameterValue(node, value, 'internal', { $credentials })`.
 *
 * Not mimicked: credential overwrites, external secrets, dynamic (per-user) credentials,
 * project/sharing permission checks, OAuth2 token refresh persistence beyond this store.
 */
import { Credentials, getAdditionalKeys } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialsExpressionResolveValues,
	IExecuteData,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeParameters,
	INodeProperties,
	INodeType,
	INodeTypes,
	IRequestOptionsSimplified,
	IWorkflowDataProxyAdditionalKeys,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import {
	ICredentialsHelper,
	NodeHelpers,
	NodeOperationError,
	UnexpectedError,
	Workflow,
	isExpression,
} from 'n8n-workflow';

import type { HarnessCredentialTypes } from './registry';

interface StoredCredential {
	id: string;
	name: string;
	type: string;
	/** Encrypted, as in the credentials_entity table. */
	data: string;
}

const mockNode: INode = {
	id: 'harness-credential-mock',
	name: '',
	typeVersion: 1,
	type: 'mock',
	position: [0, 0],
	parameters: {},
};

const mockNodeTypes: INodeTypes = {
	getByName: () => mockNodeType,
	getByNameAndVersion: () => mockNodeType,
	getKnownTypes: () => ({}),
};
const mockNodeType: INodeType = {
	description: {
		displayName: 'Mock',
		name: 'mock',
		group: ['transform'],
		version: 1,
		description: '',
		defaults: {},
		inputs: [],
		outputs: [],
		properties: [],
	},
};

export class HarnessCredentialsHelper extends ICredentialsHelper {
	private readonly store = new Map<string, StoredCredential>();

	constructor(private readonly credentialTypes: HarnessCredentialTypes) {
		super();
	}

	/** Stores decrypted data for a credential type (encrypting it like n8n does). */
	async addCredential(type: string, data: ICredentialDataDecryptedObject, id = `harness-${type}`) {
		if (!this.credentialTypes.recognizes(type)) {
			throw new UnexpectedError(`The harness does not know the credential type "${type}"`);
		}
		const credentials = new Credentials({ id, name: `${type} (harness)` }, type);
		await credentials.setData(data);
		this.store.set(type, {
			id,
			name: credentials.name,
			type,
			data: credentials.getDataToSave().data!,
		});
		return { id, name: credentials.name };
	}

	hasCredential(type: string) {
		return this.store.has(type);
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		incomingRequestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const requestOptions = incomingRequestOptions;
		const credentialType = this.credentialTypes.getByName(typeName);

		if (credentialType.authenticate) {
			if (typeof credentialType.authenticate === 'function') {
				return await credentialType.authenticate(credentials, requestOptions as IHttpRequestOptions);
			}

			if (typeof credentialType.authenticate === 'object') {
				if (!workflow || !node) {
					throw new UnexpectedError(
						'Workflow and node are required for declarative credential authentication',
					);
				}
				const { authenticate } = credentialType;
				if (requestOptions.headers === undefined) requestOptions.headers = {};

				if (authenticate.type === 'generic') {
					for (const [outerKey, outerValue] of Object.entries(authenticate.properties)) {
						for (const [key, value] of Object.entries(outerValue as Record<string, string>)) {
							const keyResolved = this.resolveValue(key, { $credentials: credentials }, workflow, node);
							const valueResolved = this.resolveValue(
								value,
								{ $credentials: credentials },
								workflow,
								node,
							);
							const target = requestOptions as unknown as Record<string, Record<string, string>>;
							if (!target[outerKey]) target[outerKey] = {};
							target[outerKey][keyResolved] = valueResolved;
						}
					}
				}
			}
		}

		return requestOptions as IHttpRequestOptions;
	}

	/** As n8n: only for credential types with an expirable hidden property. */
	async preAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		node: INode,
		credentialsExpired: boolean,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const credentialType = this.credentialTypes.getByName(typeName);
		const expirableProperty = credentialType.properties.find(
			(property) => property.type === 'hidden' && property?.typeOptions?.expirable === true,
		);
		if (expirableProperty?.name === undefined) return undefined;

		if (typeof credentialType.preAuthentication === 'function') {
			if (credentials[expirableProperty.name] === '' || credentialsExpired) {
				const output = await credentialType.preAuthentication.call(helpers, credentials);
				if (output[expirableProperty.name] === undefined) return undefined;
				if (node.credentials) {
					const nodeCredentials = node.credentials[credentialType.name];
					const stored = await (await this.getCredentials(nodeCredentials, credentialType.name)).getData();
					await this.updateCredentials(nodeCredentials, credentialType.name, {
						...stored,
						...(output as ICredentialDataDecryptedObject),
					});
					return Object.assign(credentials, output as ICredentialDataDecryptedObject);
				}
			}
		}
		return undefined;
	}

	async runPreAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const credentialType = this.credentialTypes.getByName(typeName);
		if (typeof credentialType.preAuthentication !== 'function') return undefined;
		const output = await credentialType.preAuthentication.call(helpers, credentials);
		return (output as ICredentialDataDecryptedObject) ?? undefined;
	}

	private resolveValue(
		parameterValue: string,
		additionalKeys: IWorkflowDataProxyAdditionalKeys,
		workflow: Workflow,
		node: INode,
	): string {
		if (!isExpression(parameterValue)) return parameterValue;
		const returnValue = workflow.expression.getSimpleParameterValue(
			node,
			parameterValue,
			'internal',
			additionalKeys,
			undefined,
			'',
		);
		if (!returnValue) return '';
		return returnValue.toString();
	}

	getParentTypes(typeName: string): string[] {
		return this.credentialTypes.getParentTypes(typeName);
	}

	isCredentialUsableByNode(credentialType: string, nodeType: string): boolean {
		if (!this.credentialTypes.recognizes(credentialType)) return true;
		const typeDef = this.credentialTypes.getByName(credentialType);
		if (!typeDef.restrictToSupportedNodes) return true;
		return this.credentialTypes.getSupportedNodes(credentialType).includes(nodeType);
	}

	async getCredentials(nodeCredentials: INodeCredentialsDetails, type: string): Promise<Credentials> {
		const stored = this.store.get(type);
		if (!stored) {
			throw new NodeOperationError(
				mockNode,
				`Credential with ID "${nodeCredentials?.id ?? ''}" does not exist for type "${type}" (the harness run was given no "${type}" credentials)`,
			);
		}
		return new Credentials({ id: stored.id, name: stored.name }, stored.type, stored.data);
	}

	async getDecrypted(
		additionalData: IWorkflowExecuteAdditionalData,
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		mode: WorkflowExecuteMode,
		executeData?: IExecuteData,
		raw?: boolean,
		expressionResolveValues?: ICredentialsExpressionResolveValues,
	): Promise<ICredentialDataDecryptedObject> {
		const credentials = await this.getCredentials(nodeCredentials, type);
		const decryptedDataOriginal = await credentials.getData();
		if (raw === true) return decryptedDataOriginal;
		return await this.applyDefaultsAndResolveExpressions(
			additionalData,
			decryptedDataOriginal,
			type,
			mode,
			executeData,
			expressionResolveValues,
		);
	}

	private async applyDefaultsAndResolveExpressions(
		additionalData: IWorkflowExecuteAdditionalData,
		decryptedDataOriginal: ICredentialDataDecryptedObject,
		type: string,
		mode: WorkflowExecuteMode,
		executeData?: IExecuteData,
		expressionResolveValues?: ICredentialsExpressionResolveValues,
	): Promise<ICredentialDataDecryptedObject> {
		const credentialsProperties = this.getCredentialsProperties(type);
		let decryptedData = NodeHelpers.getNodeParameters(
			credentialsProperties,
			{ ...decryptedDataOriginal } as INodeParameters,
			true,
			false,
			null,
			null,
		) as ICredentialDataDecryptedObject;

		if (decryptedDataOriginal.oauthTokenData !== undefined) {
			decryptedData.oauthTokenData = decryptedDataOriginal.oauthTokenData;
		}

		const additionalKeys = getAdditionalKeys(additionalData, mode, null, { isCredential: true });

		if (expressionResolveValues) {
			try {
				decryptedData = expressionResolveValues.workflow.expression.getParameterValue(
					decryptedData as INodeParameters,
					expressionResolveValues.runExecutionData,
					expressionResolveValues.runIndex,
					expressionResolveValues.itemIndex,
					expressionResolveValues.node.name,
					expressionResolveValues.connectionInputData,
					mode,
					additionalKeys,
					executeData,
					false,
					decryptedData,
				) as ICredentialDataDecryptedObject;
			} catch (e) {
				(e as Error).message += ' [Error resolving credentials]';
				throw e;
			}
		} else {
			const workflow = new Workflow({
				nodes: [mockNode],
				connections: {},
				active: false,
				nodeTypes: mockNodeTypes,
			});
			decryptedData = workflow.expression.getComplexParameterValue(
				mockNode,
				decryptedData as INodeParameters,
				mode,
				additionalKeys,
				undefined,
				undefined,
				decryptedData,
			) as ICredentialDataDecryptedObject;
		}
		return decryptedData;
	}

	async updateCredentials(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		const credentials = await this.getCredentials(nodeCredentials, type);
		await credentials.setData(data);
		const stored = this.store.get(type)!;
		stored.data = credentials.getDataToSave().data!;
	}

	async updateCredentialsOauthTokenData(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		const credentials = await this.getCredentials(nodeCredentials, type);
		await credentials.updateData({ oauthTokenData: data.oauthTokenData });
		const stored = this.store.get(type)!;
		stored.data = credentials.getDataToSave().data!;
	}

	getCredentialsProperties(type: string): INodeProperties[] {
		return this.credentialTypes.getCredentialsProperties(type);
	}
}
