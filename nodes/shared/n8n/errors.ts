/**
 * The one place where a service failure becomes an n8n error: a `NodeApiError` whose message is
 * the service's own `detail` (never n8n's canned status texts), whose description says what fixes
 * it, and which carries `code`, `reason` and `requestId` for support.
 */
import { NodeApiError, type IDataObject, type INode, type JsonObject } from 'n8n-workflow';

import { actionLink } from '../links';
import { isConflictOf } from '../outcome';
import type { ServiceFailure } from '../problem';

/** What to do about each failure, by code and reason: the part a person acts on. */
function remedy(failure: ServiceFailure): string | undefined {
	const body = (failure.body ?? {}) as Record<string, unknown>;
	switch (failure.code) {
		case 'unauthorized':
			return 'The API key is wrong or revoked. Check the Deck Generator credential; if the key was lost or revoked, mint a new one in the account settings (API and MCP).';
		case 'forbidden':
			switch (failure.reason) {
				case 'insufficient_scope': {
					const needed = [body.requiredResource, body.requiredAction].every((v) => typeof v === 'string')
						? `${String(body.requiredResource)}:${String(body.requiredAction)}`
						: 'a wider scope';
					const granted = Array.isArray(body.grantedActions) ? body.grantedActions.join(', ') : 'unknown';
					return `The API key lacks the scope ${needed} (it grants: ${granted}). Scopes live on the key: create a new key with ${needed} in the account settings; signing in again does not help.`;
				}
				case 'unrecognized_scope': {
					const bad = Array.isArray(body.unrecognizedScopes) ? body.unrecognizedScopes.join(', ') : '';
					const resources = Array.isArray(body.recognizedResources) ? body.recognizedResources.join(', ') : '';
					const actions = Array.isArray(body.recognizedActions) ? body.recognizedActions.join(', ') : '';
					return `None of the key's scopes could be read (${bad}). Create a new key whose scopes are spelled <resource>:<action>, with resources ${resources} and actions ${actions}.`;
				}
				case 'not_enrolled':
					return `The account is not switched on for the API yet (access rolls out in waves). No retry helps; the key works the moment the account is enrolled. If this lasts beyond a day, contact support with request id ${failure.requestId ?? '(none)'}.`;
				default:
					return 'The service refused this key for this operation. For an organisation key, an admin may have switched off organisation-key spend.';
			}
		case 'not_found':
			return 'No such deck for this credential: check the task id, and that it was created with this account (an organisation key only sees its organisation\'s decks).';
		case 'validation_failed':
			return failure.fields.length
				? `Fix these fields: ${failure.fields.map((f) => `${f.field} (${f.message})`).join('; ')}.`
				: 'Check the request fields.';
		case 'payload_too_large':
			return 'The request body is larger than this path accepts. Send large files with Material → Upload and pass the returned material ids.';
		case 'unsupported_media_type':
			return 'The file name, its declared type and its content disagree. Do not resend the same bytes under the same name: fix the name or the file.';
		case 'method_not_allowed': {
			return `This path does not accept that method${failure.allow ? ` (allowed: ${failure.allow})` : ''}.`;
		}
		case 'conflict':
			if (isConflictOf(failure, 'terminal_state'))
				return 'The deck is in a final state that refuses this action; a different action (or a new deck) is needed.';
			if (isConflictOf(failure, 'idempotency_key_reused'))
				return 'This Idempotency Key was already used with a different request body. Use the same body to get the original result, or a new key for a new purchase.';
			if (isConflictOf(failure, 'already_in_progress'))
				return 'The deck is still being worked on. Wait for it (Deck Generator Wait) and try again.';
			return undefined;
		case 'rate_limited':
			if (failure.reason === 'spend_velocity_exceeded')
				return `The key reached its hourly ceiling on spending calls${typeof body.resetAt === 'string' ? `; it resets at ${body.resetAt}` : ''}. No credits were charged.`;
			return 'Too many requests, and the wait the service asked for is longer than Max Retry Wait. Raise Max Retry Wait or run later.';
		case 'surface_disabled':
			return 'The service is switched off by its operator for now. Retry later.';
		case 'internal_error':
			return 'The service failed (it was retried once). If it persists, report the request id below.';
		case 'no_response':
			return 'Check the Base URL of the credential and the network; a purchase that may have gone through is replayed, not repeated, when the execution is retried.';
		default:
			return undefined;
	}
}

export function failureMessage(failure: ServiceFailure): string {
	const status = failure.status ? ` (${failure.status} ${failure.code}${failure.reason ? `/${failure.reason}` : ''})` : '';
	return `${failure.detail}${status}`;
}

export function failureDescription(failure: ServiceFailure): string {
	// The link the service gave with its refusal, wherever it put it (shared/links.ts, the one link finder).
	const link = actionLink(failure.body, true);
	return [remedy(failure), link ? `The service links: ${link.url}` : undefined, failure.requestId ? `Request id: ${failure.requestId}` : undefined]
		.filter(Boolean)
		.join(' ');
}

export function toNodeApiError(node: INode, failure: ServiceFailure, itemIndex: number, context?: string): NodeApiError {
	const body =
		failure.body && typeof failure.body === 'object'
			? (failure.body as JsonObject)
			: ({ detail: failure.detail } as JsonObject);
	const error = new NodeApiError(node, body, {
		message: context ? `${context}: ${failureMessage(failure)}` : failureMessage(failure),
		description: failureDescription(failure),
		httpCode: failure.status ? String(failure.status) : undefined,
		itemIndex,
	});
	// What an error item's `error` object carries under continueOnFail (see runner.ts).
	error.context.code = failure.code;
	error.context.status = failure.status;
	error.context.detail = failure.detail;
	error.context.retryable = failure.retryable;
	if (failure.reason) error.context.reason = failure.reason;
	if (failure.requestId) error.context.requestId = failure.requestId;
	if (failure.fields.length) error.context.fields = failure.fields as unknown as IDataObject[];
	return error;
}
