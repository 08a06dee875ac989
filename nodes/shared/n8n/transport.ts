/**
 * The run-time transport: n8n's `httpRequestWithAuthentication`, so proxies, SSRF rules and the
 * credential's `authenticate` block stay n8n's. n8n's own errors carry the request config
 * (headers included), so they are never passed on: only a sanitised message leaves here.
 * Every answer leaves here with the API key masked in its body and headers (`keyMasker`), so no
 * text the service sent can carry the key into an item, an error or a log line.
 */
import {
	sleep as n8nSleep,
	type ICredentialDataDecryptedObject,
	type ICredentialsDecrypted,
	type IExecuteFunctions,
	type IHttpRequestOptions,
} from 'n8n-workflow';

import { CancelledError, type Sleep } from '../client';
import { sameOriginHop } from '../download';
import { keyMasker } from '../secrecy';
import { lowerCaseHeaders, TransportError, type Transport } from '../transport';

export const CREDENTIAL_TYPE = 'deckGenApi';

export interface DeckGenCredential {
	apiKey: string;
	baseUrl: string;
	accountUrl?: string;
	/** Off by default: a Base URL of plain http:// to another machine is refused (../secrecy.ts). */
	allowPlainHttp?: boolean;
}

/**
 * @param credential the credential as `getCredentials` returned it once for this execution. Handed
 *   to n8n with every request so n8n authenticates with it (our credential's `authenticate`) instead
 *   of decrypting the credential again per request, which cost about 1 ms of CPU a status read.
 */
export function n8nTransport(ctx: IExecuteFunctions, baseUrl: string, timeoutMs = 60_000, credential?: ICredentialDataDecryptedObject): Transport {
	const root = baseUrl.replace(/\/+$/, '');
	const credentialsDecrypted = credential ? decryptedCredential(ctx, credential) : undefined;
	const mask = keyMasker(credential?.apiKey);
	return async (request) => {
		let url = `${root}${request.path}`;
		let method = request.method;
		let body = request.body;
		let headers: Record<string, string> = { Accept: 'application/json, application/problem+json', ...request.headers };
		for (let hops = 0; ; hops++) {
			const options: IHttpRequestOptions = {
				method,
				url,
				headers,
				body,
				returnFullResponse: true,
				ignoreHttpStatusErrors: true,
				// n8n follows redirects and puts the credential back on every hop, other hosts included:
				// they are followed here instead, only within the Base URL's origin (sameOriginHop). Not
				// letting n8n follow also skips follow-redirects, about 0.5 ms of CPU a request.
				disableFollowRedirect: true,
				// Raw bytes: the core reads every shape itself (problem+json, framework JSON, plain text).
				encoding: 'arraybuffer',
				json: false,
				timeout: timeoutMs,
				abortSignal: ctx.getExecutionCancelSignal?.(),
			};
			let response: { statusCode: number; headers: Record<string, string | string[]>; body: unknown } | undefined;
			let failure: unknown;
			try {
				response = await ctx.helpers.httpRequestWithAuthentication.call(
					ctx,
					CREDENTIAL_TYPE,
					options,
					credentialsDecrypted ? { credentialsDecrypted } : undefined,
				);
			} catch (error) {
				failure = error ?? new Error('request failed');
			}
			if (!response) {
				if (ctx.getExecutionCancelSignal?.()?.aborted) throw new CancelledError();
				throw new TransportError(mask.text(sanitisedNetworkMessage(failure)), (failure as { code?: string }).code);
			}
			const answered = lowerCaseHeaders(response.headers ?? {});
			const next = sameOriginHop(response.statusCode, answered, url, root, method, hops, credential?.allowPlainHttp === true);
			if (next) {
				url = next.url;
				if (next.asGet) {
					method = 'GET';
					body = undefined;
					headers = Object.fromEntries(Object.entries(headers).filter(([name]) => !/^content-/i.test(name)));
				}
				continue;
			}
			return mask.response({ status: response.statusCode, headers: answered, text: bodyText(response.body) });
		}
	};
}

/** The credential as n8n's request helper takes it already decrypted (`credentialsDecrypted`): no decryption per request. */
export function decryptedCredential(ctx: IExecuteFunctions, credential: ICredentialDataDecryptedObject): ICredentialsDecrypted {
	const reference = ctx.getNode().credentials?.[CREDENTIAL_TYPE];
	return { id: reference?.id ?? '', name: reference?.name ?? '', type: CREDENTIAL_TYPE, data: credential };
}

export function bodyText(body: unknown): string {
	if (body === undefined || body === null) return '';
	if (typeof body === 'string') return body;
	if (Buffer.isBuffer(body)) return body.toString('utf8');
	if (body instanceof ArrayBuffer) return Buffer.from(body).toString('utf8');
	if (ArrayBuffer.isView(body)) return Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
	return JSON.stringify(body);
}

/** Only the error's code and first line: never its request config, which holds the headers. */
export function sanitisedNetworkMessage(error: unknown): string {
	const code = (error as { code?: unknown })?.code;
	const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
	return typeof code === 'string' && !message.includes(code) ? `${code}: ${message}` : message;
}

/**
 * n8n's `sleep`, made to end at once when the execution is cancelled (n8n 1.x's sleep takes no
 * signal, so the abort is raced here rather than relied on).
 */
export const abortableSleep: Sleep = async (ms, signal) => {
	if (signal?.aborted) throw new CancelledError();
	if (!signal) return await n8nSleep(ms);
	let onAbort: () => void = () => {};
	const aborted = new Promise<never>((_, reject) => {
		onAbort = () => reject(new CancelledError());
		signal.addEventListener('abort', onAbort, { once: true });
	});
	try {
		await Promise.race([n8nSleep(ms), aborted]);
	} finally {
		signal.removeEventListener('abort', onAbort);
	}
};
