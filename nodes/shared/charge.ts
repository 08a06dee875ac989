/**
 * What the service did to the user's credits, as far as the node can know it: one word on every item of a
 * spending request (`charge`), one sentence that says it (`chargeMessage`), and the log's wording. Every
 * place that says "bought", "charged" or "nothing was charged" about an answer takes it from here
 * (issue 42: a retry whose first attempt went unanswered was told "nothing was charged" for its own charge).
 *
 * What the node knows: the service charges a purchase once per Idempotency-Key (the contract's rule 2). An
 * answer marked as a replay (shared/idempotency.ts REPLAY_HEADERS) is a purchase the service already held
 * under the key; an unmarked 2xx is one it made now. When an attempt of this node run may have been committed
 * without an answer (no answer, a 5xx, work already in progress under the key) and a later attempt is
 * answered as a replay, the service held the purchase before that answer: either the lost attempt made it
 * (the usual case) or an earlier run that sent the same key did. The node cannot tell which, and says so.
 * A service that marks no replays (the contract names no marker) answers a replay like a purchase: then
 * `charged` is said of a replay too; README says so.
 *
 * Framework-free.
 */

/**
 * - `charged`: this node run's request made the purchase; the service charged it now.
 * - `replayed`: the purchase was made before this node run sent anything (an earlier execution, a redelivery
 *   with the same key, a retry of a crashed execution); the service replayed it and charged nothing now.
 * - `charged_or_replayed`: an attempt of this run got no answer, and the service then answered with a replay:
 *   charged once, most likely by that lost attempt, possibly by an earlier run with the same key; never twice.
 * - `none`: the service refused the request (Checkout, Client Action): nothing was charged.
 */
export const CHARGES = ['charged', 'replayed', 'charged_or_replayed', 'none'] as const;
export type Charge = (typeof CHARGES)[number];

/** The charge of a request the service answered 2xx. */
export function chargeOf(answer: { replayed: boolean; attemptLostBefore: boolean }): Exclude<Charge, 'none'> {
	if (!answer.replayed) return 'charged';
	return answer.attemptLostBefore ? 'charged_or_replayed' : 'replayed';
}

/** What a spending operation buys, for the sentences (by the operation's slot name, shared/idempotency.ts KeySlot). */
const BOUGHT: Record<string, string> = {
	'deck.create': 'deck',
	'deck.revise': 'revision',
	'deck.translate': 'translation',
	'deck.generateVideo': 'video',
};

export function boughtThing(operation: string): string {
	return BOUGHT[operation] ?? 'purchase';
}

export interface ChargeFacts {
	/** `deck.create`, `deck.revise`, … (the operation that made the purchase). */
	operation: string;
	/** The price the request agreed to (`expected_credits`), when it carried one. */
	price?: number;
	/** The price first sent, when the node re-sent at the live price within Max Credits. */
	repricedFrom?: number;
	/** The attempt whose answer was lost, in words (`this run's first attempt got no answer (HTTP 504)`). */
	lostAttempt?: string;
	/**
	 * A replay: when the purchase it replays was confirmed (ISO 8601), where this node knows it; null where it
	 * does not (an earlier execution's purchase, or another process's). Undefined: not said.
	 */
	boughtAt?: string | null;
}

const credits = (price: number | undefined) => (price === undefined ? '' : ` (${price} credit${price === 1 ? '' : 's'})`);

/** The one sentence an item of a spending request says about the credits. */
export function chargeMessage(charge: Charge, facts: ChargeFacts): string {
	const thing = boughtThing(facts.operation);
	const price = credits(facts.price);
	switch (charge) {
		case 'charged': {
		// a request that states no price (a Custom Request's body without expected_credits): what it cost is not known here
		if (facts.price === undefined) return `Bought: the service accepted this ${thing} as a new one (not a replay); the request stated no price (no expected_credits), so what it charged is not known here.`;
		const repriced =
				facts.repricedFrom !== undefined && facts.price !== undefined
					? ` at the live price: the request at ${facts.repricedFrom} credits was refused (price_drift, nothing charged) and sent again within Max Credits`
					: '';
			return `Bought: the service charged this ${thing}${price}${repriced}.`;
		}
		case 'replayed': {
		const when = facts.boughtAt === undefined ? '' : facts.boughtAt === null ? ' (when is not known)' : ` (at ${facts.boughtAt})`;
		return `This ${thing} was bought before this run${when}, with the same Idempotency-Key: the service replayed that purchase and charged nothing now.`;
	}
		case 'charged_or_replayed':
			return (
				`Charged once${price}: ${facts.lostAttempt ?? 'an attempt got no answer'}, and the retry with the same Idempotency-Key was answered as a replay. ` +
				`That lost attempt most likely made the purchase; if an earlier run sent the same purchase, that run did. Either way it was charged once, not twice.`
			);
		case 'none':
			return 'Nothing was charged.';
	}
}

/** The words of the log line written when a purchase's answer is in (shared/n8n's logPurchase). */
export const CHARGE_LOG: Record<Exclude<Charge, 'none'>, string> = {
	charged: 'purchase made',
	replayed: 'purchase replayed (bought before this run, nothing charged now)',
	charged_or_replayed: 'purchase confirmed by a replay after an unanswered attempt (charged once, by that attempt or an earlier run)',
};

/**
 * Whether the service's refusal of a recorded purchase, sent again with its recorded Idempotency-Key and
 * byte-identical body, proves it was never bought and never can be (issue 51: a purchase journal ends a row
 * only then; any other refusal says nothing of a purchase an earlier run may have made):
 *
 * - 402 (Checkout, Client Action) and 409 `price_drift`: the contract says nothing was written or charged,
 *   and a service that held a purchase under this key would have replayed it instead (rule 2);
 * - 409 `idempotency_key_reused`: the service holds another body under the key, so not this one;
 * - 400, 422 and 413: the exact bytes are refused (`retryable` false: a byte-identical request gets the same
 *   answer), so the first send of those bytes was refused too, and every later one will be.
 *
 * A 401 or 403 (a rotated key, a scope), a 404, 405, 429, 501, another 409, a 5xx or no answer prove nothing.
 * The rule holds while the service still remembers the key: the sweeper stops re-sending before it may
 * forget (docs/at-scale.md, the journal's bounds).
 */
export function provesNeverBought(refusal: { status?: unknown; code?: unknown; reason?: unknown; conflictKind?: unknown; outcome?: unknown }): boolean {
	if (refusal.outcome === 'checkout' || refusal.outcome === 'client_action' || refusal.outcome === 'price_drift') return true;
	const said = [refusal.code, refusal.reason, refusal.conflictKind].map((word) => String(word ?? ''));
	switch (refusal.status) {
		case 402:
		case 400:
		case 413:
		case 422:
			return true;
		case 409:
			return said.some((word) => word.includes('price_drift') || word.includes('idempotency_key_reused'));
		default:
			return false;
	}
}
