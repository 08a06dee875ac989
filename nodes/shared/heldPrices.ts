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
import { ProcessMemory } from './processMemory';

const held = new ProcessMemory<number>();

/** Notes the price a purchase's key was answered 2xx at. */
export function rememberHeldPrice(credential: string, idempotencyKey: string, price: number): void {
	held.set(credential, idempotencyKey, price);
}

/** The price this process saw the key answered 2xx at, if any. */
export function heldPriceOf(credential: string, idempotencyKey: string): number | undefined {
	return held.get(credential, idempotencyKey);
}
