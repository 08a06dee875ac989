// The idempotency store, per principal and key. Only successful (2xx) outcomes are kept for replay: a refused
// request (402, 409 price_drift, 5xx…) wrote nothing, so its key is released and a retry is judged afresh.
import { createHash } from 'node:crypto';
import type { WireReply } from './reply';

type Entry = { state: 'pending'; fingerprint: string } | { state: 'done'; fingerprint: string; reply: WireReply };

export type Lookup =
	| { kind: 'new' }
	| { kind: 'replay'; reply: WireReply }
	| { kind: 'reused' }
	| { kind: 'in_progress' };

/** JSON with sorted keys, so {"a":1,"b":2} and {"b":2,"a":1} are the same request. */
export function canonicalJson(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
	if (value && typeof value === 'object') {
		const obj = value as Record<string, unknown>;
		return `{${Object.keys(obj).sort().map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`).join(',')}}`;
	}
	return JSON.stringify(value);
}

/** What makes two requests "the same": verb, path and canonical body. */
export function fingerprint(method: string, path: string, canonicalBody: string): string {
	return createHash('sha256').update(`${method} ${path}\n${canonicalBody}`).digest('hex');
}

export class IdempotencyStore {
	private readonly entries = new Map<string, Entry>();

	private id(principalId: string, key: string): string {
		return `${principalId}\u0000${key}`;
	}

	lookup(principalId: string, key: string, print: string): Lookup {
		const entry = this.entries.get(this.id(principalId, key));
		if (!entry) return { kind: 'new' };
		if (entry.fingerprint !== print) return { kind: 'reused' };
		return entry.state === 'pending' ? { kind: 'in_progress' } : { kind: 'replay', reply: entry.reply };
	}

	claim(principalId: string, key: string, print: string): void {
		this.entries.set(this.id(principalId, key), { state: 'pending', fingerprint: print });
	}

	complete(principalId: string, key: string, print: string, reply: WireReply): void {
		this.entries.set(this.id(principalId, key), { state: 'done', fingerprint: print, reply });
	}

	release(principalId: string, key: string): void {
		this.entries.delete(this.id(principalId, key));
	}
}
