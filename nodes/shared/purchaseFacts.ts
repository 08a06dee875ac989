/**
 * A deck just bought, as every later reader of it knows it (issue 42). Real deployments read from replicas:
 * a deck bought a moment ago can answer the contract's 404 `not_found` for a while (AWS documents the same
 * eventual consistency for a resource just created, and its SDK waiters keep polling on NotFound right after
 * a create). The contract's 404 means "no such deck or not yours", which stays final for an id nobody bought
 * here; but a deck this workflow has just paid for exists. So every spending answer's item carries its
 * `purchase` (PurchaseFacts), which rides along through the Wait node and Check Once loops, and the process
 * keeps the recent ones by credential and taskId for readers that get no item (an AI tool asking Get Status:
 * ./recentPurchases.ts). What is said of them: ./purchaseSentences.ts.
 * A 404 within the grace after the purchase was confirmed is "not visible yet"; after it, the deck is
 * reported as failed with its purchase named, and what to do.
 *
 * Framework-free.
 */

/**
 * What an item carries about the purchase of its deck (`purchase`), set by every spending answer. One of
 * `confirmedAt` and `replayedAt` is set (issue 49: a replay never passes for a purchase made now).
 */
export interface PurchaseFacts {
	taskId: string;
	idempotencyKey: string;
	/** The purchase answer's request id (the service's X-Request-Id), for support. */
	requestId?: string;
	/**
	 * When the purchase was confirmed (ISO 8601): the 2xx that made it, or for a replay, the first purchase's
	 * confirmation where this node knows it (the input item, or this process's memory of the key).
	 */
	confirmedAt?: string;
	/**
	 * A replay of a purchase made before this run, when is not known: when the service answered the replay
	 * (ISO 8601). The 404 grace counts from it (it then said it holds the purchase; another delivery may have
	 * bought it a second before), and every sentence says the purchase time is not known.
	 */
	replayedAt?: string;
}

const isText = (value: unknown): value is string => typeof value === 'string' && value !== '';
const isInstant = (value: unknown): value is string => isText(value) && !Number.isNaN(Date.parse(value));

/** The instant the 404 grace counts from: the purchase's confirmation, else the replay's answer. */
export const graceStartOf = (purchase: PurchaseFacts): number => Date.parse((purchase.confirmedAt ?? purchase.replayedAt)!);

/**
 * The purchase facts of a spending answer now: a purchase made now is confirmed now; a replay keeps the first
 * purchase's time where `earlier` (the same key's facts the node already has) knows it, and says it does not
 * know it otherwise.
 */
export function purchaseFactsNow(
	answer: { taskId: string; idempotencyKey: string; requestId?: string; replayed: boolean },
	earlier: PurchaseFacts | undefined,
	now = new Date(),
): PurchaseFacts {
	const { taskId, idempotencyKey, requestId } = answer;
	const base = { taskId, idempotencyKey, ...(requestId ? { requestId } : {}) };
	if (!answer.replayed) return { ...base, confirmedAt: now.toISOString() };
	const known = earlier && earlier.idempotencyKey === idempotencyKey && earlier.taskId === taskId ? earlier : undefined;
	if (known?.confirmedAt) return { ...base, confirmedAt: known.confirmedAt };
	return { ...base, replayedAt: known?.replayedAt ?? now.toISOString() };
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

/**
 * The item's `purchase`, when it is the purchase of this deck (an item may carry another deck's): its own taskId,
 * or, where Simplify left it out, the item's.
 */
export function purchaseFactsOf(json: unknown, taskId: string): PurchaseFacts | undefined {
	const item = json && typeof json === 'object' ? (json as { purchase?: unknown; taskId?: unknown }) : undefined;
	const purchase = item?.purchase;
	if (!purchase || typeof purchase !== 'object' || Array.isArray(purchase)) return undefined;
	const { taskId: boughtTaskId = item.taskId, idempotencyKey, requestId, confirmedAt, replayedAt } = purchase as Record<string, unknown>;
	if (boughtTaskId !== taskId || !isText(idempotencyKey)) return undefined;
	const when = isInstant(confirmedAt) ? { confirmedAt } : isInstant(replayedAt) ? { replayedAt } : undefined;
	if (!when) return undefined;
	return { taskId, idempotencyKey, ...(isText(requestId) ? { requestId } : {}), ...when };
}

/** A 404 of a deck whose purchase is known: still within the grace ("not visible yet"), or past it. */
export interface NotFoundAfterPurchase {
	purchase: PurchaseFacts;
	/** Since the purchase was confirmed (or, its time not known, since the service replayed it). */
	sinceMs: number;
	graceMs: number;
	withinGrace: boolean;
}

export function notFoundAfterPurchase(purchase: PurchaseFacts, graceMs: number, now: number): NotFoundAfterPurchase {
	const sinceMs = Math.max(0, now - graceStartOf(purchase));
	return { purchase, sinceMs, graceMs, withinGrace: sinceMs < graceMs };
}
