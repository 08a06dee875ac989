/**
 * Idempotency keys that survive retries of an execution.
 *
 * A spending call's key lives in a store that n8n saves with the execution (the node's
 * execution context), so Retry On Fail, "retry execution" from the executions list and a resumed
 * execution all send the key of the first attempt, and the service replays instead of charging
 * again. A slot is (operation, run index, item index); within a slot every distinct body keeps
 * its own key, so a changed field (or a price re-sent after drift) is a new purchase while the
 * original body, sent again, is still the original one.
 *
 * Key format: UUID v5 of (execution id, node id, slot, body hash), so the key is also stable if
 * the store is lost within the same execution. A user's override (e.g. a webhook delivery id)
 * is used as the key itself.
 */
import { createHash } from 'node:crypto';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

/**
 * Headers that mark an answer as the replay of an earlier purchase. The contract names none, so
 * the spellings in use are read: `Idempotent-Replayed` (Stripe), `Idempotency-Replayed`, and
 * both with an `X-` prefix. Lower-case, as transports hand headers over.
 */
export const REPLAY_HEADERS = [
	'idempotent-replayed',
	'idempotency-replayed',
	'x-idempotent-replayed',
	'x-idempotency-replayed',
] as const;

/** Values that mean "yes" in a replay header: the contract does not show which one is sent. */
const REPLAY_YES = new Set(['true', '1', 'yes']);

/** Whether an answer says it replays an earlier request (header names and value in any case). */
export function isReplayed(headers: Record<string, string>): boolean {
	return Object.entries(headers).some(
		([name, value]) => (REPLAY_HEADERS as readonly string[]).includes(name.toLowerCase()) && REPLAY_YES.has(String(value).trim().toLowerCase()),
	);
}

/** RFC 4122 namespace for this package's keys (a fixed random UUID). */
const PACKAGE_UUID_NAMESPACE = '6f1c1f0e-5d0b-4b5e-9a8e-2f1d4c3b7a90';

/** JSON with object keys sorted, so equal bodies give equal bytes and equal hashes. */
export function canonicalJson(value: unknown): string {
	return JSON.stringify(sortKeys(value));
}

function sortKeys(input: unknown): unknown {
	// As JSON.stringify does: a Date (or Luxon DateTime) is its toJSON(), not its own members.
	const toJSON = input && typeof input === 'object' && !Buffer.isBuffer(input) ? (input as { toJSON?: unknown }).toJSON : undefined;
	const value: unknown = typeof toJSON === 'function' ? toJSON.call(input) : input;
	if (Array.isArray(value)) return value.map(sortKeys);
	if (value && typeof value === 'object' && !Buffer.isBuffer(value)) {
		const sorted: Record<string, unknown> = {};
		for (const key of Object.keys(value as Record<string, unknown>).sort()) {
			const member = (value as Record<string, unknown>)[key];
			if (member !== undefined) sorted[key] = sortKeys(member);
		}
		return sorted;
	}
	return value;
}

export function sha256Hex(data: string | Buffer): string {
	return createHash('sha256').update(data).digest('hex');
}

/** UUID version 5 (SHA-1, name-based), RFC 4122 section 4.3. */
export function uuidV5(name: string, namespace: string = PACKAGE_UUID_NAMESPACE): string {
	const namespaceBytes = Buffer.from(namespace.replace(/-/g, ''), 'hex');
	const hash = createHash('sha1').update(namespaceBytes).update(name, 'utf8').digest();
	const bytes = Buffer.from(hash.subarray(0, 16));
	bytes[6] = (bytes[6] & 0x0f) | 0x50;
	bytes[8] = (bytes[8] & 0x3f) | 0x80;
	const hex = bytes.toString('hex');
	return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export interface KeySlot {
	operation: string;
	runIndex: number;
	itemIndex: number;
}

export interface KeyScope {
	executionId: string;
	nodeId: string;
}

/** Where keys are kept: n8n's node execution context, or any plain object in tests. */
export type KeyStore = Record<string, unknown>;

const STORE_MEMBER = 'deckgenIdempotencyKeys';

type SlotEntries = Record<string /* body hash */, string /* key */>;

function slotName(slot: KeySlot): string {
	return `${slot.operation}#${slot.runIndex}#${slot.itemIndex}`;
}

function entriesOf(store: KeyStore): Record<string, SlotEntries> {
	const existing = store[STORE_MEMBER];
	if (existing && typeof existing === 'object') return existing as Record<string, SlotEntries>;
	const created: Record<string, SlotEntries> = {};
	store[STORE_MEMBER] = created;
	return created;
}

/**
 * The key for sending `bodyHash` from `slot`: the one stored for that body if any, else a new
 * one, stored before it is used so that a crash right after sending still finds it.
 */
export function idempotencyKeyFor(
	store: KeyStore,
	scope: KeyScope,
	slot: KeySlot,
	bodyHash: string,
	override?: string,
): string {
	// The override names the purchase itself (e.g. a webhook delivery id), for every body: the
	// service answers a redelivery with a replay, and a redelivery whose body changed with 409
	// idempotency_key_reused instead of a second purchase. A price re-sent after drift may reuse
	// it, because a price_drift refusal writes nothing.
	if (override) return override;
	const entries = entriesOf(store);
	const name = slotName(slot);
	const slotEntries = (entries[name] ??= {});
	const stored = slotEntries[bodyHash];
	if (stored) return stored;
	const key = uuidV5(`${scope.executionId}\u0000${scope.nodeId}\u0000${name}\u0000${bodyHash}`);
	slotEntries[bodyHash] = key;
	return key;
}

/**
 * A purchase the node learned of in this execution, kept in the same store as the keys (the node's
 * execution context), so that it outlives the try that made it: n8n saves only the last try's
 * error, and a later try may fail before it reaches the item again.
 */
export interface Purchase {
	operation: string;
	runIndex: number;
	itemIndex: number;
	/** The Idempotency-Key it was sent with: retrying with it replays, never buys again. */
	key: string;
	/**
	 * `bought`: the service answered 2xx (`taskId` is the deck, when the answer named one).
	 * `unanswered`: sent, but no answer came back after every attempt; it may have been bought.
	 */
	state: 'bought' | 'unanswered';
	taskId?: string;
}

const PURCHASES_MEMBER = 'deckgenPurchases';

/** Said of a request that was sent but never answered, wherever it is named. */
export const MAY_HAVE_BEEN_BOUGHT = 'may have been bought; retrying the execution replays it without a second charge';

function purchaseEntries(store: KeyStore): Record<string /* key */, Purchase> {
	const existing = store[PURCHASES_MEMBER];
	if (existing && typeof existing === 'object') return existing as Record<string, Purchase>;
	const created: Record<string, Purchase> = {};
	store[PURCHASES_MEMBER] = created;
	return created;
}

/** How one keyed spending request ended, as far as what it may have bought is concerned. */
export type PurchaseResult =
	| { kind: 'bought'; taskId?: string }
	/** Some attempt got no answer, and no later answer settled it: it may have been bought. */
	| { kind: 'unanswered' }
	/** The service judged this key and refused it (a refusal is never stored): nothing was bought. */
	| { kind: 'refused' }
	/** Nothing learned (e.g. every answer was a 503 before the key was looked at). */
	| { kind: 'unknown' };

export function recordPurchase(store: KeyStore, slot: KeySlot, key: string, result: PurchaseResult): void {
	const entries = purchaseEntries(store);
	const known = entries[key];
	switch (result.kind) {
		case 'bought':
			entries[key] = { ...slot, key, state: 'bought', ...(result.taskId ? { taskId: result.taskId } : {}) };
			return;
		case 'unanswered':
			// A purchase already confirmed (an earlier try got its answer) stays confirmed.
			if (known?.state !== 'bought') entries[key] = { ...slot, key, state: 'unanswered' };
			return;
		case 'refused':
			if (known?.state === 'unanswered') delete entries[key];
			return;
		case 'unknown':
			return;
	}
}

/** Every purchase of the execution, from every try and run of the node, in item order. */
export function purchasesIn(store: KeyStore): Purchase[] {
	const existing = store[PURCHASES_MEMBER];
	if (!existing || typeof existing !== 'object') return [];
	return Object.values(existing as Record<string, Purchase>).sort(
		(a, b) => a.runIndex - b.runIndex || a.itemIndex - b.itemIndex || a.operation.localeCompare(b.operation),
	);
}
