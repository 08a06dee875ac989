/**
 * Idempotency keys that survive whatever n8n does to an execution.
 *
 * n8n keeps a node's execution context only as long as it saves the execution: in its default
 * mode that is at the start, at a wait and at the end. A crash or a restart while Wait Until Done
 * polls loses it; a Retry from the executions list then runs under a new execution id, and the node
 * under a new run index (crash recovery gave it an artificial item); an editor re-run starts a new
 * execution. So the default key is derived only from what every one of those supplies again:
 *
 *   UUID v5 of (workflow id, node id, operation, item position, purchase hash, origin)
 *
 * where the purchase hash is the body's without its price (purchaseHashOf), and the origin is a hash of the trigger item the item descends from (n8n's pairedItem
 * lineage) and of the user's Purchase Reference. The same brief from the same trigger data through
 * the same node is one purchase, whatever its price: every retry, redelivery or re-run replays it. A changed brief, or
 * new trigger data (a schedule's timestamp, another webhook call), is a new purchase; a new
 * Purchase Reference buys the same brief again on purpose. A user's Idempotency Key (e.g. a
 * webhook delivery id) is used as the key itself.
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
	/** Names the purchase in errors and logs; not part of the key (a retry changes it). */
	runIndex: number;
	itemIndex: number;
}

/** What identifies a purchase beyond its slot and body, all of it supplied again by any retry. */
export interface KeyScope {
	/** Empty for a workflow never saved (the editor's first run). */
	workflowId: string;
	nodeId: string;
	/** Hash of the trigger item(s) the item descends from, and of the Purchase Reference; see originHash. */
	origin: string;
}

/** Where keys are kept: n8n's node execution context, or any plain object in tests. */
export type KeyStore = Record<string, unknown>;

/**
 * 0.2 stored every key it made here (derived from the execution id), per slot
 * `operation#runIndex#itemIndex`, then body hash: honoured, so that retrying an execution saved
 * before the upgrade still replays its purchases. Nothing new is stored.
 */
const LEGACY_STORE_MEMBER = 'deckgenIdempotencyKeys';

/**
 * The origin of an item: its trigger item(s), as canonical JSON by trigger name, and the user's
 * Purchase Reference. Empty lineage (no trigger found, e.g. a tool call) hashes to the same value
 * every time, so the brief alone then decides.
 */
export function originHash(triggerItems: Record<string, unknown>, purchaseReference = ''): string {
	return sha256Hex(canonicalJson({ triggerItems, purchaseReference }));
}

/** The key a 0.2 execution stored for this slot and body, if its context is still there. */
function legacyKey(store: KeyStore, slot: KeySlot, bodyHash: string): string | undefined {
	const entries = store[LEGACY_STORE_MEMBER];
	if (!entries || typeof entries !== 'object') return undefined;
	const slotEntries = (entries as Record<string, unknown>)[`${slot.operation}#${slot.runIndex}#${slot.itemIndex}`];
	const key = slotEntries && typeof slotEntries === 'object' ? (slotEntries as Record<string, unknown>)[bodyHash] : undefined;
	return typeof key === 'string' && key ? key : undefined;
}

/**
 * What names a purchase in its key: the canonical body without `expected_credits` (issue 49). The price is not
 * the purchase: a body re-sent at the live price after a 409 price_drift (which wrote nothing) is the same
 * purchase, so every price of it goes out under one key, and a later send at any price either replays it or is
 * refused (409 idempotency_key_reused), never bought a second time. A body without a price hashes as before.
 */
export function purchaseHashOf(json: Record<string, unknown>): string {
	const { expected_credits: _price, ...purchase } = json;
	return sha256Hex(canonicalJson(purchase));
}

/**
 * The key for the purchase `purchaseHash` names (purchaseHashOf, or a multipart body's hash) from `slot`.
 * Deterministic: nothing needs to be stored before it is sent, and a crash at any point finds the same key
 * again. `legacyBodyHash` (the whole body's hash, the price included) finds a key a 0.2 execution stored.
 */
export function idempotencyKeyFor(
	store: KeyStore,
	scope: KeyScope,
	slot: KeySlot,
	purchaseHash: string,
	override?: string,
	legacyBodyHash: string = purchaseHash,
): string {
	// The override names the purchase itself (e.g. a webhook delivery id): the service answers a
	// redelivery with a replay, and a redelivery whose body changed with 409 idempotency_key_reused
	// instead of a second purchase. Every price of the purchase goes out under it too.
	if (override) return override;
	const legacy = legacyKey(store, slot, legacyBodyHash);
	if (legacy) return legacy;
	return uuidV5(['v2', scope.workflowId, scope.nodeId, slot.operation, String(slot.itemIndex), purchaseHash, scope.origin].join('\u0000'));
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
	 * `unanswered`: sent, and no attempt ended with a definite answer (a 2xx, or a 4xx that says
	 * nothing was charged) while some attempt may have been committed (no answer, a 5xx, or work
	 * already in progress under the key): it may have been bought.
	 */
	state: 'bought' | 'unanswered';
	taskId?: string;
	/**
	 * Unanswered only because another request held the key (409 already_in_progress): if it was bought,
	 * that request bought it, not this execution.
	 */
	heldElsewhere?: true;
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
	/**
	 * No definite answer, and some attempt may have been committed: it may have been bought. `heldElsewhere`:
	 * only because another request held the key (409 already_in_progress), which made whatever was bought.
	 */
	| { kind: 'unanswered'; heldElsewhere?: true }
	/** The service judged this key and refused it (a refusal is never stored): nothing was bought. */
	| { kind: 'refused' }
	/** Nothing could have been bought (e.g. every answer was a 429 before the key was looked at). */
	| { kind: 'notCommitted' };

export function recordPurchase(store: KeyStore, slot: KeySlot, key: string, result: PurchaseResult): void {
	const entries = purchaseEntries(store);
	const known = entries[key];
	switch (result.kind) {
		case 'bought':
			entries[key] = { ...slot, key, state: 'bought', ...(result.taskId ? { taskId: result.taskId } : {}) };
			return;
		case 'unanswered':
			// A purchase already confirmed (an earlier try got its answer) stays confirmed.
			if (known?.state === 'bought') return;
			// an attempt of this execution that may have bought it stays this execution's
			entries[key] = { ...slot, key, state: 'unanswered', ...(result.heldElsewhere && (!known || known.heldElsewhere) ? { heldElsewhere: true as const } : {}) };
			return;
		case 'refused':
			if (known?.state === 'unanswered') delete entries[key];
			return;
		case 'notCommitted':
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

/**
 * Forgets the confirmed purchases whose deck reached an output of the node's run (issue 22): they
 * are in the run's saved output from then on, and n8n would otherwise store them a second time in
 * every save of the execution (a Check Once loop saves it at every wait). Purchases without a
 * taskId, and those that may have been bought, stay named.
 */
export function forgetDelivered(store: KeyStore, taskIds: ReadonlySet<string>): void {
	const existing = store[PURCHASES_MEMBER];
	if (!existing || typeof existing !== 'object') return;
	const entries = existing as Record<string, Purchase>;
	for (const [key, purchase] of Object.entries(entries)) {
		if (purchase.state === 'bought' && purchase.taskId !== undefined && taskIds.has(purchase.taskId)) delete entries[key];
	}
	if (Object.keys(entries).length === 0) delete store[PURCHASES_MEMBER];
}
