/**
 * The price the service holds a purchase's key with, as this process last saw it answered 2xx (issue 49).
 *
 * Every price of one purchase goes out under one key (idempotency.ts purchaseHashOf). A service that looks
 * the key up before it checks the price answers a later send of the purchase at another price with 409
 * `idempotency_key_reused`: the key is stored, so no body sent under it can buy again, and the one it holds
 * replays. Where this process knows that body's price, the node sends it again at that price and gets the
 * replay (the deck's taskId) instead of an error. Elsewhere (another worker, after a restart) the refusal
 * stands and says which logged line recovers the deck. Framework-free.
 */

const held = new Map<string, number>();
const HELD_MAX = 10_000;

const heldKey = (credential: string, idempotencyKey: string) => `${credential}\u0000${idempotencyKey}`;

/** Notes the price a purchase's key was answered 2xx at. */
export function rememberHeldPrice(credential: string, idempotencyKey: string, price: number): void {
	const key = heldKey(credential, idempotencyKey);
	held.delete(key);
	held.set(key, price);
	while (held.size > HELD_MAX) held.delete(held.keys().next().value as string);
}

/** The price this process saw the key answered 2xx at, if any. */
export function heldPriceOf(credential: string, idempotencyKey: string): number | undefined {
	return held.get(heldKey(credential, idempotencyKey));
}
