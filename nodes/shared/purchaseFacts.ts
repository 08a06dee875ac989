/**
 * A deck just bought, as every later reader of it knows it (issue 42). Real deployments read from replicas:
 * a deck bought a moment ago can answer the contract's 404 `not_found` for a while (AWS documents the same
 * eventual consistency for a resource just created, and its SDK waiters keep polling on NotFound right after
 * a create). The contract's 404 means "no such deck or not yours", which stays final for an id nobody bought
 * here; but a deck this workflow has just paid for exists. So every spending answer's item carries its
 * `purchase` (PurchaseFacts), which rides along through the Wait node and Check Once loops, and the process
 * keeps the recent ones by credential and taskId for readers that get no item (an AI tool asking Get Status).
 * A 404 within the grace after the purchase was confirmed is "not visible yet"; after it, the deck is
 * reported as failed with its purchase named, and what to do.
 *
 * Framework-free.
 */

/** What an item carries about the purchase of its deck (`purchase`), set by every spending answer. */
export interface PurchaseFacts {
	taskId: string;
	idempotencyKey: string;
	/** The purchase answer's request id (the service's X-Request-Id), for support. */
	requestId?: string;
	/** When the service's 2xx answer to the purchase arrived (ISO 8601). */
	confirmedAt: string;
}

/**
 * How long a deck just bought may answer 404 before it is taken as gone: five minutes. AWS's EC2 guide says
 * to retry a describe of a resource just created "starting with a couple of seconds of wait time, and
 * increasing gradually up to a few minutes"; its SDK's EC2 InstanceExists waiter polls 40 times every 5 s
 * (200 s); Amazon Connect says propagation "typically takes less than a few seconds … in some cases it can
 * take several minutes". Against a deck that takes 10 to 35 minutes, five minutes of patience costs nothing
 * in the usual case, and only delays the failure of a deck that is really gone.
 */
export const DEFAULT_NOT_FOUND_GRACE_MS = 5 * 60_000;

const isText = (value: unknown): value is string => typeof value === 'string' && value !== '';

/** The item's `purchase`, when it is the purchase of this deck (an item may carry another deck's). */
export function purchaseFactsOf(json: unknown, taskId: string): PurchaseFacts | undefined {
	const purchase = json && typeof json === 'object' ? (json as { purchase?: unknown }).purchase : undefined;
	if (!purchase || typeof purchase !== 'object' || Array.isArray(purchase)) return undefined;
	const { taskId: boughtTaskId, idempotencyKey, requestId, confirmedAt } = purchase as Record<string, unknown>;
	if (boughtTaskId !== taskId || !isText(idempotencyKey) || !isText(confirmedAt) || Number.isNaN(Date.parse(confirmedAt))) return undefined;
	return { taskId, idempotencyKey, ...(isText(requestId) ? { requestId } : {}), confirmedAt };
}

/** The recent purchases of this process, by credential fingerprint and taskId (oldest first, as a Map keeps them). */
const recent = new Map<string, PurchaseFacts>();
const RECENT_MAX = 10_000;
/** Long past any grace a user would set: a deck confirmed this long ago is no longer "just bought". */
const RECENT_FOR_MS = 2 * 60 * 60_000;

const recentKey = (credential: string, taskId: string) => `${credential}\u0000${taskId}`;

/** Keeps a purchase the service confirmed, for the readers of this process that get no item (the AI tools). */
export function rememberPurchase(credential: string, facts: PurchaseFacts): void {
	const key = recentKey(credential, facts.taskId);
	recent.delete(key);
	recent.set(key, facts);
	while (recent.size > RECENT_MAX) recent.delete(recent.keys().next().value as string);
}

/** A purchase of this deck confirmed in this process with this credential, in the last two hours. */
export function recentPurchase(credential: string, taskId: string, now = Date.now()): PurchaseFacts | undefined {
	const facts = recent.get(recentKey(credential, taskId));
	if (!facts) return undefined;
	if (now - Date.parse(facts.confirmedAt) <= RECENT_FOR_MS) return facts;
	recent.delete(recentKey(credential, taskId));
	return undefined;
}

/** A 404 of a deck whose purchase is known: still within the grace ("not visible yet"), or past it. */
export interface NotFoundAfterPurchase {
	purchase: PurchaseFacts;
	/** Since the purchase was confirmed. */
	sinceMs: number;
	graceMs: number;
	withinGrace: boolean;
}

export function notFoundAfterPurchase(purchase: PurchaseFacts, graceMs: number, now: number): NotFoundAfterPurchase {
	const sinceMs = Math.max(0, now - Date.parse(purchase.confirmedAt));
	return { purchase, sinceMs, graceMs, withinGrace: sinceMs < graceMs };
}

/** A span in the words a person reads: `42 s`, `6 min`, `2 h 5 min`. */
export function spanInWords(ms: number): string {
	const seconds = Math.round(ms / 1000);
	if (seconds < 120) return `${seconds} s`;
	const minutes = Math.round(seconds / 60);
	if (minutes < 120) return `${minutes} min`;
	return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

const keyAndRequest = (purchase: PurchaseFacts) =>
	`Idempotency-Key ${purchase.idempotencyKey}${purchase.requestId ? `, request id ${purchase.requestId}` : ''}`;

/** Said of a deck within the grace: where a reader would say "not found". */
export function notVisibleYetNote(taskId: string, found: NotFoundAfterPurchase): string {
	return (
		`Deck ${taskId} was bought ${spanInWords(found.sinceMs)} ago (${keyAndRequest(found.purchase)}), and the service does not show it yet (404 not_found): ` +
		`a deck just bought can take a moment to become visible. Taken as still running; if it is still not shown ${spanInWords(found.graceMs)} after its purchase, it is reported as failed.`
	);
}

/** The failure of a deck still not shown after the grace: what happened, and what to do (never "buy again"). */
export function goneAfterPurchase(taskId: string, found: NotFoundAfterPurchase): { message: string; description: string } {
	const { purchase } = found;
	return {
		message: `Deck ${taskId} was bought ${spanInWords(found.sinceMs)} ago, but the service does not show it (404 not_found)`,
		description:
			`The purchase was confirmed at ${purchase.confirmedAt} (${keyAndRequest(purchase)}), so the deck was paid for; for ${spanInWords(found.graceMs)} after it the service has answered that no such deck exists for this credential. ` +
			`Do not buy it again. Check that this node uses the credential that bought it (a deck is visible only to its buyer; an organisation key sees only its organisation's decks). ` +
			`Sending the same purchase again (retrying the execution, or Deck Generator → Recover Purchase with the line n8n logged before it was sent) asks the service for it under its key without a second charge: an answer with this taskId means the service still holds it. ` +
			`Otherwise give the service's support the Idempotency-Key and request id above.`,
	};
}
