// Authentication as the contract's table orders it: verify the key (401), resolve the principal, check
// enrolment (403 not_enrolled), then the key's scopes (403 insufficient_scope / unrecognized_scope).
import type { Accounts, KeyRecord, Principal } from './accounts';
import { problem } from './problem';
import type { Reply } from './reply';

export const RECOGNIZED_RESOURCES = ['credits', 'decks', 'materials'];
export const RECOGNIZED_ACTIONS = ['read', 'spend', 'write'];

export interface ScopeNeed {
	resource: string;
	action: string;
}

export interface Scope {
	resource: string;
	action: string;
}

/** A token parses only as `<recognised resource>:<recognised action>`; anything else is unrecognised. */
export function parseScopes(tokens: string[]): { granted: Scope[]; unrecognized: string[] } {
	const granted: Scope[] = [];
	const unrecognized: string[] = [];
	for (const token of tokens) {
		const m = /^([a-z]+):([a-z]+)$/.exec(token);
		if (m && RECOGNIZED_RESOURCES.includes(m[1]) && RECOGNIZED_ACTIONS.includes(m[2])) {
			granted.push({ resource: m[1], action: m[2] });
		} else {
			unrecognized.push(token);
		}
	}
	return { granted, unrecognized };
}

export type AuthResult = { ok: true; key: KeyRecord; principal: Principal } | { ok: false; reply: Reply };

export function authenticate(authorization: string | undefined, accounts: Accounts): AuthResult {
	const m = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization ?? '');
	if (!m) {
		return {
			ok: false,
			reply: problem(401, 'unauthorized', {
				detail: 'Send the API key as "Authorization: Bearer <API_KEY>".',
				retryable: false,
				headers: { 'www-authenticate': 'Bearer realm="deckgen"' },
			}),
		};
	}
	const key = accounts.byKey(m[1]);
	if (!key || key.revoked) {
		return {
			ok: false,
			reply: problem(401, 'unauthorized', {
				detail: 'The API key is wrong or revoked. A revoked key stays revoked; mint a new one in the account settings.',
				retryable: false,
				headers: { 'www-authenticate': 'Bearer realm="deckgen", error="invalid_token"' },
			}),
		};
	}
	const principal = accounts.principal(key.principalId);
	if (!principal.enrolled) {
		// Deliberately no WWW-Authenticate: re-authenticating cannot help.
		return {
			ok: false,
			reply: problem(403, 'forbidden', {
				detail: 'This account is not enrolled for API access yet. Access rolls out in waves; keys work the moment the account is enrolled. If this persists beyond a day, contact support with the requestId.',
				retryable: false,
				reason: 'not_enrolled',
			}),
		};
	}
	return { ok: true, key, principal };
}

const SCOPE_CHALLENGE = { 'www-authenticate': 'Bearer error="insufficient_scope"' };

/** undefined when the key may do it; else the 403. */
export function checkScope(key: KeyRecord, need: ScopeNeed): Reply | undefined {
	const { granted, unrecognized } = parseScopes(key.scopes);
	if (granted.length === 0) {
		return problem(403, 'forbidden', {
			detail: 'None of the scopes on this key could be parsed, so the key is refused rather than granted wider access. Mint a key with scopes spelled <resource>:<action>.',
			retryable: false,
			reason: 'unrecognized_scope',
			extra: { unrecognizedScopes: unrecognized, recognizedActions: RECOGNIZED_ACTIONS, recognizedResources: RECOGNIZED_RESOURCES },
			headers: SCOPE_CHALLENGE,
		});
	}
	if (granted.some((s) => s.resource === need.resource && s.action === need.action)) return undefined;
	return problem(403, 'forbidden', {
		detail: `This key lacks the scope ${need.resource}:${need.action}. Scopes live on the key: mint a key that carries it; signing in again does not help.`,
		retryable: false,
		reason: 'insufficient_scope',
		extra: {
			requiredResource: need.resource,
			requiredAction: need.action,
			grantedActions: granted.filter((s) => s.resource === need.resource).map((s) => s.action),
			grantedScopes: granted.map((s) => `${s.resource}:${s.action}`),
		},
		headers: SCOPE_CHALLENGE,
	});
}
