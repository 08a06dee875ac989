// Principals (people and organisations, each with one wallet) and the API keys that act for them.
import { monthOf } from './clock';
import type { Rng } from './rng';
import type { AccountPatch, AccountSpec, CreatedAccount } from './types';

export const ALL_SCOPES = ['credits:read', 'decks:read', 'decks:spend', 'materials:write'];

export interface Principal {
	id: string;
	type: 'user' | 'organisation';
	/** The wallet: personal for a user, pooled for an organisation. */
	balance: number;
	subscriber: boolean;
	/** Has ever bought credits; the API refuses the free preview tier. */
	purchased: boolean;
	enrolled: boolean;
	/** Organisation switch: may organisation keys spend the pooled wallet. */
	spendEnabled: boolean;
	/** Organisation switch: spending requires an active subscription. */
	requiresSubscription: boolean;
}

export interface KeyRecord {
	id: string;
	secret: string;
	principalId: string;
	scopes: string[];
	revoked: boolean;
	/** Owner-set monthly cap. */
	monthlyCap?: number;
	monthlySpent: number;
	/** Per-key cap from the organisation console. */
	orgKeyCap?: number;
	orgKeySpent: number;
	/** Month the two counters above belong to; they reset when the sim clock enters a new month. */
	spentMonth: string;
}

export class Accounts {
	private readonly principals = new Map<string, Principal>();
	private readonly keysBySecret = new Map<string, KeyRecord>();

	constructor(private readonly rng: Rng, private readonly now: () => number) {}

	create(spec: AccountSpec = {}): CreatedAccount {
		let principal: Principal;
		if (spec.principalId !== undefined) {
			const existing = this.principals.get(spec.principalId);
			if (!existing) throw new Error(`createAccount: no principal ${spec.principalId}`);
			principal = existing;
		} else {
			const type = spec.type ?? 'user';
			principal = {
				id: (type === 'user' ? 'usr_' : 'org_') + this.rng.hex(12),
				type,
				balance: spec.balance ?? 1000,
				subscriber: spec.subscriber ?? true,
				purchased: spec.purchased ?? true,
				enrolled: spec.enrolled ?? true,
				spendEnabled: spec.org?.spendEnabled ?? true,
				requiresSubscription: spec.org?.requiresSubscription ?? false,
			};
			this.principals.set(principal.id, principal);
		}
		const key: KeyRecord = {
			id: 'key_' + this.rng.hex(16),
			secret: 'dg_live_' + this.rng.hex(32),
			principalId: principal.id,
			scopes: [...(spec.scopes ?? ALL_SCOPES)],
			revoked: spec.revoked ?? false,
			monthlyCap: spec.monthlyCap,
			monthlySpent: spec.monthlySpent ?? 0,
			orgKeyCap: principal.type === 'organisation' ? spec.org?.keyCap : undefined,
			orgKeySpent: spec.org?.keySpent ?? 0,
			spentMonth: monthOf(this.now()),
		};
		this.keysBySecret.set(key.secret, key);
		return { key: key.secret, keyId: key.id, principalId: principal.id };
	}

	byKey(secret: string): KeyRecord | undefined {
		const key = this.keysBySecret.get(secret);
		if (key) this.rollMonth(key);
		return key;
	}

	principal(id: string): Principal {
		const p = this.principals.get(id);
		if (!p) throw new Error(`no principal ${id}`);
		return p;
	}

	/** Control helpers accept either a principal id or a key secret. */
	resolve(principalIdOrKey: string): Principal {
		const key = this.keysBySecret.get(principalIdOrKey);
		const p = this.principals.get(key ? key.principalId : principalIdOrKey);
		if (!p) throw new Error(`no principal or key ${principalIdOrKey.slice(0, 12)}…`);
		return p;
	}

	update(principalIdOrKey: string, patch: AccountPatch): void {
		const p = this.resolve(principalIdOrKey);
		for (const [k, v] of Object.entries(patch)) {
			if (v !== undefined) (p as unknown as Record<string, unknown>)[k] = v;
		}
	}

	revoke(secret: string): void {
		const key = this.keysBySecret.get(secret);
		if (!key) throw new Error('revokeKey: unknown key');
		key.revoked = true;
	}

	private rollMonth(key: KeyRecord): void {
		const month = monthOf(this.now());
		if (key.spentMonth !== month) {
			key.spentMonth = month;
			key.monthlySpent = 0;
			key.orgKeySpent = 0;
		}
	}
}
