/**
 * The credential's Test button, as a credential test method (`methods.credentialTest`, named by
 * `testedBy` on both nodes' credential entry). n8n calls it the same way on 1.x and 2.x, and shows
 * its message as it is; a declarative `test` on the credential would win over it and only maps a
 * status code to one fixed text, so the credential has none.
 */
import type { ICredentialsDecrypted, ICredentialTestFunctions, INodeCredentialTestResult } from 'n8n-workflow';

import {
	baseUrlProblem,
	CREDENTIAL_TEST_PATH,
	credentialVerdict,
	normaliseBaseUrl,
	unreachableVerdict,
	type CredentialVerdict,
} from '../credentialCheck';
import { lowerCaseHeaders, type ServiceResponse } from '../transport';
import { bodyText, sanitisedNetworkMessage, type DeckGenCredential } from './transport';

/** The name `testedBy` refers to (written out in the nodes, where n8n's lint reads it; a test checks they agree). */
export const CREDENTIAL_TEST_METHOD = 'deckGenApiTest';

const TEST_TIMEOUT_MS = 15_000;

export async function deckGenApiTest(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const data = (credential.data ?? {}) as Partial<DeckGenCredential>;
	const apiKey = String(data.apiKey ?? '');
	const baseUrl = normaliseBaseUrl(data.baseUrl);
	const problem = baseUrlProblem(baseUrl);
	if (problem) return resultOf({ ok: false, message: problem }, apiKey);

	let response: ServiceResponse;
	try {
		// n8n's request helper of a credential test (ICredentialTestFunctions): `simple: false` returns
		// every status instead of throwing, with the body as the service sent it. It is the only request
		// helper n8n gives a credential test (1.x and 2.x), hence the deprecation lint is silenced here.
		// eslint-disable-next-line @n8n/community-nodes/no-deprecated-workflow-functions
		const answer = (await this.helpers.request({
			method: 'GET',
			uri: `${baseUrl}${CREDENTIAL_TEST_PATH}`,
			headers: { Authorization: `Bearer ${apiKey}`, Accept: 'application/json, application/problem+json' },
			resolveWithFullResponse: true,
			simple: false,
			json: false,
			timeout: TEST_TIMEOUT_MS,
		})) as { statusCode: number; headers?: Record<string, string | string[]>; body?: unknown };
		response = { status: answer.statusCode, headers: lowerCaseHeaders(answer.headers ?? {}), text: bodyText(answer.body) };
	} catch (error) {
		// n8n's request errors carry the request options, headers included: only the reason leaves here.
		return resultOf(unreachableVerdict(baseUrl, sanitisedNetworkMessage(error)), apiKey);
	}
	return resultOf(credentialVerdict(response, baseUrl), apiKey);
}

/** The message as n8n shows it; should a service ever echo the key, it is masked here. */
function resultOf(verdict: CredentialVerdict, apiKey: string): INodeCredentialTestResult {
	const message = apiKey ? verdict.message.split(apiKey).join('[API key]') : verdict.message;
	return { status: verdict.ok ? 'OK' : 'Error', message };
}
