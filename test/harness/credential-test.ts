/**
 * The credential Test button, as n8n's CredentialsTester (packages/cli/src/services/
 * credentials-tester.service.ts) runs it for a credential tested by a node method:
 *
 * 1. find the test: a declarative `test` on the credential type wins; otherwise the first node
 *    that lists the credential with `testedBy` (a string) names a method in
 *    `methods.credentialTest` (a versioned node: its versions from the latest down);
 * 2. fill the credential type's defaults into the data (CredentialsHelper.applyDefaultsAndOverwrites);
 * 3. call the method with n8n-core's own `CredentialTestContext` (its `helpers.request` is n8n's
 *    legacy request helper) and return its result as it is.
 *
 * A declarative test (a request run through a RoutingNode) is not run here: the harness says so
 * instead of guessing. Not mimicked: credential overwrites, external secrets, OAuth2 tokens.
 */
import { CredentialTestContext } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialTestFunction,
	INodeCredentialTestResult,
	INodeParameters,
	INodeType,
	IVersionedNodeType,
} from 'n8n-workflow';
import { NodeHelpers, UnexpectedError } from 'n8n-workflow';

import { ensureEnvironment } from './environment';
import { buildRegistry, type HarnessCredentialTypes, type HarnessNodeTypes, type RegistryOptions } from './registry';

function versionsOf(type: INodeType | IVersionedNodeType): INodeType[] {
	if ('nodeVersions' in type) {
		return Object.keys(type.nodeVersions)
			.map(Number)
			.sort((a, b) => b - a)
			.map((version) => type.nodeVersions[version]);
	}
	return [type];
}

/** CredentialsTester.getCredentialTestFunction, for test methods. */
export function credentialTestFunction(
	credentialType: string,
	nodeTypes: HarnessNodeTypes,
	credentialTypes: HarnessCredentialTypes,
): ICredentialTestFunction | undefined {
	if (credentialTypes.getByName(credentialType).test) {
		throw new UnexpectedError(
			`The credential type "${credentialType}" has a declarative test, which n8n runs before any node's testedBy method; the harness runs only test methods`,
		);
	}
	for (const nodeName of credentialTypes.getSupportedNodes(credentialType)) {
		const versions = versionsOf(nodeTypes.getByName(nodeName));
		for (const nodeType of versions) {
			for (const { name, testedBy } of nodeType.description.credentials ?? []) {
				if (name !== credentialType || !testedBy) continue;
				if (typeof testedBy !== 'string') {
					throw new UnexpectedError(`"${nodeName}" tests "${credentialType}" with a request; the harness runs only test methods`);
				}
				for (const version of versions) {
					const method = version.methods?.credentialTest?.[testedBy];
					if (method) return method;
				}
				return undefined;
			}
		}
	}
	return undefined;
}

/** Presses the credential's Test button with this data; the result is what n8n shows. */
export async function testCredentials(
	credentialType: string,
	data: ICredentialDataDecryptedObject,
	options: RegistryOptions = {},
): Promise<INodeCredentialTestResult> {
	await ensureEnvironment();
	const { nodeTypes, credentialTypes } = buildRegistry(options);
	const test = credentialTestFunction(credentialType, nodeTypes, credentialTypes);
	// n8n's own answer when nothing tests the credential
	if (!test) return { status: 'Error', message: 'No testing function found for this credential.' };
	const withDefaults = NodeHelpers.getNodeParameters(
		credentialTypes.getCredentialsProperties(credentialType),
		data as INodeParameters,
		true,
		false,
		null,
		null,
	) as ICredentialDataDecryptedObject;
	const context = new CredentialTestContext(undefined as never);
	return await test.call(context, { id: 'harness-credential', name: `${credentialType} (harness)`, type: credentialType, data: withDefaults });
}
