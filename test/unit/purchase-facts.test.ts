/**
 * Issue 42's two small cores, as tables: what a purchase's answer says it cost (shared/charge.ts), and a deck
 * just bought as later readers know it (shared/purchaseFacts.ts): whose purchase an item carries, the grace,
 * the process's recent purchases (shared/recentPurchases.ts), and the words (shared/purchaseSentences.ts).
 */
import { chargeMessage, chargeOf } from '../../nodes/shared/charge';
import { notFoundGraceOption, notFoundGraceMsOf } from '../../nodes/shared/n8n/justBought';
import { DEFAULT_NOT_FOUND_GRACE_MS, notFoundAfterPurchase, purchaseFactsNow, purchaseFactsOf } from '../../nodes/shared/purchaseFacts';
import { goneAfterPurchase, notVisibleYetNote, spanInWords } from '../../nodes/shared/purchaseSentences';
import { recentPurchase, rememberPurchase } from '../../nodes/shared/recentPurchases';

describe('charge: what the service did to the credits', () => {
	test.each([
		[{ replayed: false, attemptLostBefore: false }, 'charged'],
		// an unmarked answer after a lost attempt: that attempt was not committed (else the service would replay it)
		[{ replayed: false, attemptLostBefore: true }, 'charged'],
		[{ replayed: true, attemptLostBefore: false }, 'replayed'],
		[{ replayed: true, attemptLostBefore: true }, 'charged_or_replayed'],
	] as const)('%o → %s', (answer, charge) => {
		expect(chargeOf(answer)).toBe(charge);
	});

	test('each sentence says what the node knows, and never "nothing was charged" of a charge this run may have made', () => {
		expect(chargeMessage('charged', { operation: 'deck.create', price: 10 })).toBe('Bought: the service charged this deck (10 credits).');
		expect(chargeMessage('charged', { operation: 'deck.translate', price: 1 })).toBe('Bought: the service charged this translation (1 credit).');
		// a request that states no price: what the node knows, no number it does not (issue 49)
		expect(chargeMessage('charged', { operation: 'custom.request' })).toBe(
			'Bought: the service accepted this purchase as a new one (not a replay); the request stated no price (no expected_credits), so what it charged is not known here.',
		);
		expect(chargeMessage('replayed', { operation: 'deck.generateVideo' })).toMatch(/^This video was bought before this run, .* charged nothing now\.$/);
		const lost = chargeMessage('charged_or_replayed', { operation: 'deck.create', price: 10, lostAttempt: "this run's first attempt got no answer (HTTP 504)" });
		expect(lost).toBe(
			"Charged once (10 credits): this run's first attempt got no answer (HTTP 504), and the retry with the same Idempotency-Key was answered as a replay. That lost attempt most likely made the purchase; if an earlier run sent the same purchase, that run did. Either way it was charged once, not twice.",
		);
		expect(lost).not.toMatch(/nothing was charged/i);
		expect(chargeMessage('none', { operation: 'deck.create' })).toBe('Nothing was charged.');
	});
});

describe('a deck just bought', () => {
	const facts = { taskId: 'tsk_1', idempotencyKey: 'key-1', requestId: 'req_1', confirmedAt: '2026-11-28T10:00:00.000Z' };
	const at = (iso: string) => Date.parse(iso);

	test("an item's purchase counts only for its own deck, and only when whole", () => {
		expect(purchaseFactsOf({ purchase: facts }, 'tsk_1')).toEqual(facts);
		expect(purchaseFactsOf({ purchase: facts }, 'tsk_2')).toBeUndefined();
		expect(purchaseFactsOf({ purchase: { ...facts, confirmedAt: 'yesterday' } }, 'tsk_1')).toBeUndefined();
		expect(purchaseFactsOf({ purchase: { ...facts, idempotencyKey: '' } }, 'tsk_1')).toBeUndefined();
		expect(purchaseFactsOf({ purchase: 'tsk_1' }, 'tsk_1')).toBeUndefined();
		expect(purchaseFactsOf({}, 'tsk_1')).toBeUndefined();
		// as Create's Simplify keeps it: no taskId of its own, the item's
		const { taskId: _items, ...compact } = facts;
		expect(purchaseFactsOf({ taskId: 'tsk_1', purchase: compact }, 'tsk_1')).toEqual(facts);
		expect(purchaseFactsOf({ taskId: 'tsk_2', purchase: compact }, 'tsk_1')).toBeUndefined();
		const { requestId: _dropped, ...withoutRequestId } = facts;
		expect(purchaseFactsOf({ purchase: withoutRequestId }, 'tsk_1')).toEqual(withoutRequestId);
	});

	test('the grace: five minutes by default, the option in seconds, 0 allowed', () => {
		expect(DEFAULT_NOT_FOUND_GRACE_MS).toBe(300_000);
		expect(notFoundGraceOption.default).toBe(DEFAULT_NOT_FOUND_GRACE_MS / 1000);
		expect(notFoundGraceMsOf({})).toBe(DEFAULT_NOT_FOUND_GRACE_MS);
		expect(notFoundGraceMsOf({ notFoundGraceSeconds: 0 })).toBe(0);
		expect(notFoundGraceMsOf({ notFoundGraceSeconds: 30 })).toBe(30_000);
		expect(notFoundGraceMsOf({ notFoundGraceSeconds: -1 })).toBe(DEFAULT_NOT_FOUND_GRACE_MS);
		expect(notFoundAfterPurchase(facts, 300_000, at('2026-11-28T10:04:59.000Z')).withinGrace).toBe(true);
		expect(notFoundAfterPurchase(facts, 300_000, at('2026-11-28T10:05:00.000Z')).withinGrace).toBe(false);
		// a clock a little behind the one that confirmed the purchase is "just now", not negative
		expect(notFoundAfterPurchase(facts, 300_000, at('2026-11-28T09:59:59.000Z')).sinceMs).toBe(0);
	});

	test('the process remembers recent purchases by credential, for two hours', () => {
		rememberPurchase('cred-a', facts);
		expect(recentPurchase('cred-a', 'tsk_1', at('2026-11-28T11:59:00.000Z'))).toEqual(facts);
		expect(recentPurchase('cred-b', 'tsk_1', at('2026-11-28T10:01:00.000Z'))).toBeUndefined();
		expect(recentPurchase('cred-a', 'tsk_1', at('2026-11-28T12:01:00.000Z'))).toBeUndefined();
		// and forgot it once it was too old
		expect(recentPurchase('cred-a', 'tsk_1', at('2026-11-28T10:01:00.000Z'))).toBeUndefined();
	});

	test('the words: when, which purchase, and what to do; never "buy again"', () => {
		expect(spanInWords(42_000)).toBe('42 s');
		expect(spanInWords(6 * 60_000)).toBe('6 min');
		expect(spanInWords(125 * 60_000)).toBe('2 h 5 min');
		const within = notFoundAfterPurchase(facts, 300_000, at('2026-11-28T10:00:12.000Z'));
		expect(notVisibleYetNote('tsk_1', within)).toBe(
			'Deck tsk_1 was bought 12 s ago (Idempotency-Key key-1, request id req_1), and the service does not show it yet (404 not_found): a deck just bought can take a moment to become visible. Taken as still running; if it is still not shown 5 min after its purchase, it is reported as failed.',
		);
		const gone = goneAfterPurchase('tsk_1', notFoundAfterPurchase(facts, 300_000, at('2026-11-28T10:06:00.000Z')));
		expect(gone.message).toBe('Deck tsk_1 was bought 6 min ago, but the service does not show it (404 not_found)');
		expect(gone.description).toContain('Idempotency-Key key-1, request id req_1');
		expect(gone.description).toContain('Do not buy it again.');
		expect(gone.description).toContain('Recover Purchase');
	});
});

describe('issue 49: a replay keeps its purchase time, or says it is not known', () => {
	const answer = { taskId: 'tsk_1', idempotencyKey: 'k1', requestId: 'req_1' };
	const now = new Date('2026-11-29T04:00:00.000Z');
	test.each([
		['a purchase made now is confirmed now', { ...answer, replayed: false }, undefined, { ...answer, confirmedAt: now.toISOString() }],
		['a replay of a purchase known here keeps its time', { ...answer, replayed: true }, { ...answer, confirmedAt: '2026-11-28T09:00:00.000Z' }, { ...answer, confirmedAt: '2026-11-28T09:00:00.000Z' }],
		['a replay of a purchase not known here: when is not known, the replay time kept apart', { ...answer, replayed: true }, undefined, { ...answer, replayedAt: now.toISOString() }],
		['facts of another key are not this purchase', { ...answer, replayed: true }, { ...answer, idempotencyKey: 'k2', confirmedAt: '2026-11-28T09:00:00.000Z' }, { ...answer, replayedAt: now.toISOString() }],
	])('%s', (_case, given, earlier, expected) => {
		expect(purchaseFactsNow(given, earlier, now)).toEqual(expected);
	});

	test('the sentences of a replay of unknown time never say "bought N ago"', () => {
		const purchase = { taskId: 'tsk_1', idempotencyKey: 'k1', replayedAt: '2026-11-29T04:00:00.000Z' };
		const within = notFoundAfterPurchase(purchase, DEFAULT_NOT_FOUND_GRACE_MS, Date.parse('2026-11-29T04:00:30.000Z'));
		expect(within.withinGrace).toBe(true);
		expect(notVisibleYetNote('tsk_1', within)).toMatch(/^Deck tsk_1 was bought before this run; when is not known \(the service replayed its purchase 30 s ago\)/);
		const after = notFoundAfterPurchase(purchase, DEFAULT_NOT_FOUND_GRACE_MS, Date.parse('2026-11-29T04:10:00.000Z'));
		expect(goneAfterPurchase('tsk_1', after).message).toBe(
			'Deck tsk_1 was bought before this run; when is not known (the service replayed its purchase 10 min ago), but the service does not show it (404 not_found)',
		);
		expect(purchaseFactsOf({ purchase }, 'tsk_1')).toEqual(purchase);
	});
});
