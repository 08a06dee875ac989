/**
 * What the credential's Test button tells a person. `GET /v1/credits` spends nothing and
 * exercises the key, its principal and the account's enrolment; the contract names each way it
 * can refuse (401, 403 with a `reason`, 503), and the answer says which one it is, so the
 * message names that case and its fix rather than listing every possible cause.
 * The key never appears in a message (nothing here is given it).
 */
import { parseFailure } from './problem';
import { plainHttpRefusal } from './secrecy';
import type { ServiceResponse } from './transport';

export const CREDENTIAL_TEST_PATH = '/v1/credits';

export interface CredentialVerdict {
	ok: boolean;
	message: string;
}

const list = (value: unknown): string =>
	Array.isArray(value) && value.length ? value.map((entry) => String(entry)).join(', ') : 'none';

/** The Base URL as the nodes use it: trimmed, without trailing slashes. */
export function normaliseBaseUrl(baseUrl: unknown): string {
	return String(baseUrl ?? '')
		.trim()
		.replace(/\/+$/, '');
}

export const BASE_URL_EMPTY =
	'The Base URL is empty. Enter the root address of the service’s API (without /v1), as your provider gives it with the API key.';

/**
 * A Base URL that cannot be right, said before anything is sent; plain http:// to another machine
 * only with the credential's Allow Plain HTTP.
 */
export function baseUrlProblem(baseUrl: string, allowPlainHttp?: unknown): string | undefined {
	if (!baseUrl) return BASE_URL_EMPTY;
	let url: URL;
	try {
		url = new URL(baseUrl);
	} catch {
		return `The Base URL "${baseUrl}" is not an address. Enter the service root, e.g. https://api.deckgen.example.`;
	}
	if (url.protocol !== 'https:' && url.protocol !== 'http:') {
		return `The Base URL "${baseUrl}" must start with https:// (or http://).`;
	}
	if (url.search || url.hash || /[?#]/.test(baseUrl)) {
		return `The Base URL "${baseUrl}" holds a ? or #. Enter the service root alone (e.g. ${url.origin}${url.pathname.replace(/\/+$/, '')}): the nodes add /v1/… to its end.`;
	}
	if (/\/v1$/i.test(url.pathname.replace(/\/+$/, ''))) {
		const root = `${url.origin}${url.pathname.replace(/\/+$/, '').replace(/\/v1$/i, '')}`;
		return `The Base URL ends in /v1. Enter the service root without /v1 (e.g. ${root}); the nodes add /v1 to every path themselves.`;
	}
	return plainHttpRefusal(baseUrl, allowPlainHttp);
}

export function credentialVerdict(response: ServiceResponse, baseUrl: string): CredentialVerdict {
	if (response.status >= 200 && response.status < 300) {
		return { ok: true, message: 'Connection successful: the service accepted the key (the test spent nothing).' };
	}
	const failure = parseFailure(response);
	const body = (failure.body && typeof failure.body === 'object' ? failure.body : {}) as Record<string, unknown>;
	const requestId = failure.requestId ? ` (request id ${failure.requestId})` : '';

	if (failure.status === 401) {
		return {
			ok: false,
			message:
				'401: the API key is wrong or revoked. Paste the key again; if it was lost or revoked, mint a new one in the account settings (API and MCP).',
		};
	}
	if (failure.status === 403) {
		switch (failure.reason) {
			case 'not_enrolled':
				return {
					ok: false,
					message: `403 not_enrolled: the account is not switched on for the API yet (access rolls out in waves). No retry helps and the key needs no change: it works the moment the account is enrolled. If this lasts beyond a day, contact support with request id ${failure.requestId ?? '(none given)'}.`,
				};
			case 'insufficient_scope': {
				const scope =
					typeof body.requiredResource === 'string' && typeof body.requiredAction === 'string'
						? `${body.requiredResource}:${body.requiredAction}`
						: 'the scope this check needs';
				// The test reads /v1/credits: a key made only for decks lacks credits:read and still works there.
				const onlyThisTest =
					body.requiredResource === 'credits' && body.requiredAction === 'read'
						? ' The key may still work for the other operations (Create needs decks:spend, Get Status and the Wait node decks:read): only this test and Get Credits read the balance.'
						: '';
				return {
					ok: false,
					message: `403 insufficient_scope: the key lacks ${scope} (actions it grants on ${String(body.requiredResource ?? 'that resource')}: ${list(body.grantedActions)}). Scopes live on the key: mint a new key that includes ${scope}; signing in again does not help.${onlyThisTest}`,
				};
			}
			case 'unrecognized_scope':
				return {
					ok: false,
					message: `403 unrecognized_scope: none of the key's scopes could be read (${list(body.unrecognizedScopes)}), so the key is refused. Mint a new key whose scopes are spelled <resource>:<action>, with resources ${list(body.recognizedResources)} and actions ${list(body.recognizedActions)}.`,
				};
			default:
				return {
					ok: false,
					message: `403 ${failure.code}${failure.reason ? `/${failure.reason}` : ''}: ${failure.detail}${requestId}`,
				};
		}
	}
	if (failure.status === 503) {
		const after = failure.retryAfterMs !== undefined ? ` (it asks for ${Math.ceil(failure.retryAfterMs / 1000)} s)` : '';
		return {
			ok: false,
			message: `503: the service is unavailable right now. Test again in a moment${after}; the key is not the problem, so do not mint a new one.${requestId}`,
		};
	}
	if (failure.status === 404) {
		return {
			ok: false,
			message: `404: nothing answers at ${baseUrl}${CREDENTIAL_TEST_PATH}. Check that the Base URL is the service root (without /v1).${requestId}`,
		};
	}
	return { ok: false, message: `${failure.status} ${failure.code}: ${failure.detail}${requestId}` };
}

/** No answer at all (refused connection, DNS, timeout): only the reason, never the request. */
export function unreachableVerdict(baseUrl: string, reason: string): CredentialVerdict {
	return {
		ok: false,
		message: `No answer from ${baseUrl} (${reason}). Check the Base URL and that n8n can reach it.`,
	};
}
