/**
 * The service as a node sees it: the credential's base URL, one `call` that goes through the
 * core's retry policy and the credential-wide gate, and the execution's cancel signal.
 */
import { NodeOperationError, type IExecuteFunctions, type NodeError } from 'n8n-workflow';

import { baseUrlProblem, BASE_URL_EMPTY, normaliseBaseUrl } from '../credentialCheck';
import { callService, gateFor, type CallResult, type CredentialGate, type Sleep } from '../client';
import { ENDPOINTS, type EndpointName } from '../endpoints';
import { sha256Hex } from '../idempotency';
import type { RetrySettings } from '../retry';
import { isLoopbackHost, keyMasker, plainHttpRefusal } from '../secrecy';
import type { ServiceRequest } from '../transport';
import { abortableSleep, CREDENTIAL_TYPE, n8nTransport, type DeckGenCredential } from './transport';

export interface NodeService {
	baseUrl: string;
	accountUrl?: string;
	/** The credential's path overrides as entered (../endpoints.ts checks and applies them). */
	endpointPaths: Partial<Record<EndpointName, unknown>>;
	gate: CredentialGate;
	/** The credential as a fingerprint that cannot be turned back into the key (base URL and key hashed). */
	credentialId: string;
	sleep: Sleep;
	signal?: AbortSignal;
	/** The text with the credential's API key masked in every form (../secrecy.ts), for what the node writes itself (its log lines). */
	maskText(text: string): string;
	/** `deadline` (epoch ms): no retry or pause of this call ends after it. */
	call(request: ServiceRequest, settings?: Partial<RetrySettings>, deadline?: number): Promise<CallResult>;
}

export async function serviceFor(ctx: IExecuteFunctions): Promise<NodeService> {
	const decrypted = await ctx.getCredentials(CREDENTIAL_TYPE);
	const credential = decrypted as unknown as DeckGenCredential;
	const baseUrl = normaliseBaseUrl(credential.baseUrl);
	// Before any request: a Base URL that cannot be right, and the key never goes over plain HTTP to
	// another machine unless the credential says so (the same checks as the credential's Test button).
	const problem = baseUrlProblem(baseUrl, credential.allowPlainHttp);
	if (problem) {
		throw new NodeOperationError(ctx.getNode(), problem, {
			description:
				problem === BASE_URL_EMPTY
					? 'Open the Deck Generator credential and fill in Base URL.'
					: problem === plainHttpRefusal(baseUrl, credential.allowPlainHttp)
						? 'Open the Deck Generator credential and fix its Base URL field (https://), or switch on its Allow Plain HTTP field for a trusted network.'
						: 'Open the Deck Generator credential and fix its Base URL field.',
		});
	}
	// The gate is shared per credential, found by a fingerprint that cannot be turned back into the key.
	const credentialId = sha256Hex(`${baseUrl}\u0000${credential.apiKey}`).slice(0, 32);
	const gate = gateFor(credentialId);
	const transport = n8nTransport(ctx, baseUrl, undefined, decrypted);
	const signal = ctx.getExecutionCancelSignal?.();
	const masker = keyMasker(credential.apiKey);
	return {
		baseUrl,
		accountUrl: credential.accountUrl || undefined,
		endpointPaths: Object.fromEntries(
			(Object.keys(ENDPOINTS) as EndpointName[]).map((name) => [name, (decrypted as Record<string, unknown>)[ENDPOINTS[name].field]]),
		),
		gate,
		credentialId,
		sleep: abortableSleep,
		signal,
		maskText: (text) => masker.text(text),
		call: async (request, settings, deadline) =>
			await callService(request, {
				transport,
				sleep: abortableSleep,
				gate,
				settings,
				signal,
				deadline,
				onRetry: ({ attempt, waitMs, why }) =>
					ctx.logger.debug(`Deck Generator: ${request.method} ${request.path} attempt ${attempt} got ${why}; retrying in ${waitMs} ms`),
			}),
	};
}

/** The `code` of an item refused for its credential before any request (a plain http:// Base URL, ...). */
export const CREDENTIAL_REFUSED = 'credential_not_usable';

/**
 * `serviceFor`, or, when the node answers per item (On Error: Continue, or as an AI tool), the reason the
 * credential cannot be used, so that every item carries it as it would carry a 401. Otherwise the
 * refusal fails the execution as before.
 */
export async function serviceOrRefusal(ctx: IExecuteFunctions, answerPerItem: boolean): Promise<{ service: NodeService } | { refusal: NodeError }> {
	try {
		return { service: await serviceFor(ctx) };
	} catch (error) {
		const refusal = error instanceof NodeOperationError ? error : new NodeOperationError(ctx.getNode(), error as Error);
		if (!answerPerItem) throw refusal;
		return { refusal };
	}
}

/** The refusal as one item's error: its message and remedy, and the code a workflow can branch on. */
export function refusalForItem(ctx: IExecuteFunctions, refusal: NodeError, itemIndex: number): NodeOperationError {
	const error = new NodeOperationError(ctx.getNode(), refusal.message, { itemIndex, description: refusal.description ?? undefined });
	error.context.code = CREDENTIAL_REFUSED;
	return error;
}

/** Loopback hosts, where polling faster than the contract's 5 s is allowed (tests, benchmarks). */
export function isLoopback(baseUrl: string): boolean {
	try {
		return isLoopbackHost(new URL(baseUrl).hostname);
	} catch {
		return false;
	}
}
