/**
 * Idempotency keys: derived from what every retry, redelivery and re-run supplies again
 * (nodes/shared/idempotency.ts; README "Never buys twice: when it holds").
 */
import { v5 as uuidv5, validate as uuidValidate, version as uuidVersion } from 'uuid';

import {
	canonicalJson,
	IDEMPOTENCY_HEADER,
	idempotencyKeyFor,
	isReplayed,
	originHash,
	purchasesIn,
	recordPurchase,
	sha256Hex,
	uuidV5,
	type KeyScope,
	type KeySlot,
	type KeyStore,
} from '../../nodes/shared/idempotency';

const WEBHOOK_ITEM = { Webhook: { body: { briefs: 3 }, headers: { 'content-type': 'application/json' } } };
const SCOPE: KeyScope = {
	workflowId: 'wf7Qm2',
	nodeId: '0f6b1c8e-3c1d-4a57-9e4b-1f2d3c4b5a69',
	origin: originHash(WEBHOOK_ITEM),
};
const SLOT: KeySlot = { operation: 'deck.create', runIndex: 0, itemIndex: 3 };

const BODY_A = canonicalJson({ title: 'Q3 review', audience: 'board', expected_credits: 120 });
const BODY_B = canonicalJson({ title: 'Q3 review', audience: 'board', expected_credits: 135 });
const HASH_A = sha256Hex(BODY_A);
const HASH_B = sha256Hex(BODY_B);

/** What n8n does with the node context between runs: it is saved as JSON and read back. */
function persisted(store: KeyStore): KeyStore {
	return JSON.parse(JSON.stringify(store)) as KeyStore;
}

describe('isReplayed', () => {
	test.each([
		['Idempotent-Replayed', 'true'],
		['idempotency-replayed', 'TRUE'],
		['X-Idempotent-Replayed', '1'],
		['x-idempotency-replayed', ' yes '],
	])('%s: %s marks a replay', (name, value) => {
		expect(isReplayed({ [name]: value })).toBe(true);
	});

	test.each([
		['Idempotent-Replayed', 'false'],
		['Idempotent-Replayed', '0'],
		['Idempotent-Replayed', ''],
		['X-Replayed', 'true'],
	])('%s: %s does not', (name, value) => {
		expect(isReplayed({ [name]: value })).toBe(false);
	});
});

describe('canonicalJson', () => {
	it('gives the same bytes whatever the key order, at every depth', () => {
		const one = { b: 1, a: { y: [3, { q: 1, p: 2 }], x: 'é' }, c: null };
		const two = { c: null, a: { x: 'é', y: [3, { p: 2, q: 1 }] }, b: 1 };
		expect(canonicalJson(one)).toBe(canonicalJson(two));
		expect(canonicalJson(one)).toBe('{"a":{"x":"é","y":[3,{"p":2,"q":1}]},"b":1,"c":null}');
	});

	it('keeps array order, which is meaningful', () => {
		expect(canonicalJson({ material_ids: ['m1', 'm2'] })).not.toBe(canonicalJson({ material_ids: ['m2', 'm1'] }));
	});

	it('drops undefined members as JSON does, so an absent and an undefined option hash alike', () => {
		expect(canonicalJson({ title: 'x', notes: undefined })).toBe(canonicalJson({ title: 'x' }));
		expect(canonicalJson([1, undefined])).toBe('[1,null]');
	});

	it('serialises values with toJSON (dates) as JSON.stringify does', () => {
		const at = new Date('2025-03-01T12:00:00Z');
		expect(canonicalJson({ due: at })).toBe(JSON.stringify({ due: at }));
		expect(canonicalJson({ due: new Date('2025-03-01T12:00:00Z') })).not.toBe(canonicalJson({ due: new Date('2025-03-02T12:00:00Z') }));
		const selfish = { b: 2, a: 1, toJSON(): unknown { return this; } };
		expect(canonicalJson({ x: selfish })).toBe('{"x":{"a":1,"b":2}}');
	});

	it('is valid JSON that parses back to the same value', () => {
		const value = { slide_count: 12, confirm_slide_surcharge: false, title: 'Quote "this" \\ and \u2028' };
		expect(JSON.parse(canonicalJson(value))).toEqual(value);
	});
});

describe('uuidV5', () => {
	const namespaces = ['6ba7b810-9dad-11d1-80b4-00c04fd430c8', '6ba7b811-9dad-11d1-80b4-00c04fd430c8', '1b671a64-40d5-491e-99b0-da01ff1f3341'];
	const names = ['', 'a', 'deck.create#0#3', '1042\u00000f6b1c8e\u0000deck.create#0#0\u0000abc', 'Überblick — 日本語 🎉', 'x'.repeat(5000)];

	it.each(namespaces.flatMap((ns) => names.map((name) => [ns, name] as const)))('namespace %s, name %#: same as the uuid package', (ns, name) => {
		expect(uuidV5(name, ns)).toBe(uuidv5(name, ns));
	});

	it('the default namespace gives valid version-5 UUIDs', () => {
		const key = uuidV5('hello');
		expect(uuidValidate(key)).toBe(true);
		expect(uuidVersion(key)).toBe(5);
		expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
		expect(uuidV5('hello')).toBe(key);
		expect(uuidV5('hello!')).not.toBe(key);
	});
});

describe('idempotencyKeyFor', () => {
	it('gives the same slot and the same body the same key, and stores nothing', () => {
		const store: KeyStore = {};
		const first = idempotencyKeyFor(store, SCOPE, SLOT, HASH_A);
		expect(idempotencyKeyFor(store, SCOPE, SLOT, HASH_A)).toBe(first);
		expect(uuidValidate(first)).toBe(true);
		expect(uuidVersion(first)).toBe(5);
		expect(store).toEqual({});
	});

	it('gives a different body in the same slot a new key, and the original body its original key', () => {
		const keyA = idempotencyKeyFor({}, SCOPE, SLOT, HASH_A);
		const keyB = idempotencyKeyFor({}, SCOPE, SLOT, HASH_B);
		expect(keyB).not.toBe(keyA);
		expect(idempotencyKeyFor({}, SCOPE, SLOT, HASH_A)).toBe(keyA);
	});

	it('gives a retry the same key with nothing stored: another execution id and run index do not enter it', () => {
		const original = idempotencyKeyFor({}, SCOPE, SLOT, HASH_A);
		// A crashed execution retried: new execution, the node at run index 1, its context empty.
		expect(idempotencyKeyFor({}, { ...SCOPE }, { ...SLOT, runIndex: 1 }, HASH_A)).toBe(original);
		// The trigger data as n8n saved it, read back from JSON in another key order.
		const reread = originHash(JSON.parse(JSON.stringify({ Webhook: { headers: WEBHOOK_ITEM.Webhook.headers, body: { briefs: 3 } } })));
		expect(idempotencyKeyFor({}, { ...SCOPE, origin: reread }, SLOT, HASH_A)).toBe(original);
	});

	it('honours a key stored by 0.2 in a saved execution context, so its retry still replays', () => {
		const legacy = 'f0e1d2c3-b4a5-5968-8776-655443322110';
		const store: KeyStore = { deckgenIdempotencyKeys: { 'deck.create#0#3': { [HASH_A]: legacy } } };
		expect(idempotencyKeyFor(JSON.parse(JSON.stringify(store)) as KeyStore, SCOPE, SLOT, HASH_A)).toBe(legacy);
		expect(idempotencyKeyFor(store, SCOPE, SLOT, HASH_B)).not.toBe(legacy);
		expect(idempotencyKeyFor({ deckgenIdempotencyKeys: 'garbage' }, SCOPE, SLOT, HASH_A)).toBe(idempotencyKeyFor({}, SCOPE, SLOT, HASH_A));
	});

	it.each<[string, Partial<KeySlot>, Partial<KeyScope>]>([
		['another item position', { itemIndex: 4 }, {}],
		['another operation', { operation: 'deck.revise' }, {}],
		['another node', {}, { nodeId: 'a1b2c3d4-0000-4000-8000-000000000000' }],
		['another workflow', {}, { workflowId: 'wf0000' }],
		['another trigger item (a new webhook call, a schedule tick)', {}, { origin: originHash({ Webhook: { body: { briefs: 4 } } }) }],
		['no trigger upstream', {}, { origin: originHash({}) }],
		['a Purchase Reference', {}, { origin: originHash(WEBHOOK_ITEM, '2026-11-24') }],
	])('gives %s a different key for the same body', (_name, slot, scope) => {
		const base = idempotencyKeyFor({}, SCOPE, SLOT, HASH_A);
		expect(idempotencyKeyFor({}, { ...SCOPE, ...scope }, { ...SLOT, ...slot }, HASH_A)).not.toBe(base);
	});

	it('gives each Purchase Reference its own key, and the same reference the same key', () => {
		const today = idempotencyKeyFor({}, { ...SCOPE, origin: originHash(WEBHOOK_ITEM, '2026-11-24') }, SLOT, HASH_A);
		expect(idempotencyKeyFor({}, { ...SCOPE, origin: originHash(WEBHOOK_ITEM, '2026-11-24') }, SLOT, HASH_A)).toBe(today);
		expect(idempotencyKeyFor({}, { ...SCOPE, origin: originHash(WEBHOOK_ITEM, '2026-11-25') }, SLOT, HASH_A)).not.toBe(today);
		// An empty reference is no reference.
		expect(originHash(WEBHOOK_ITEM, '')).toBe(SCOPE.origin);
	});

	it('uses an override verbatim, for every body, without touching the store', () => {
		const store: KeyStore = {};
		const delivery = 'evt_01HZX3 webhook/delivery#42';
		expect(idempotencyKeyFor(store, SCOPE, SLOT, HASH_A, delivery)).toBe(delivery);
		expect(idempotencyKeyFor(store, SCOPE, SLOT, HASH_B, delivery)).toBe(delivery);
		expect(store).toEqual({});
	});

	it('ignores an empty override', () => {
		expect(idempotencyKeyFor({}, SCOPE, SLOT, HASH_A, '')).toBe(idempotencyKeyFor({}, SCOPE, SLOT, HASH_A));
	});

	it('hashes the exact bytes sent: a body that differs by one byte is another body', () => {
		expect(sha256Hex(BODY_A)).toBe(sha256Hex(Buffer.from(BODY_A)));
		expect(sha256Hex(`${BODY_A} `)).not.toBe(HASH_A);
		expect(HASH_A).toMatch(/^[0-9a-f]{64}$/);
	});

	it('names the header as the contract does', () => {
		expect(IDEMPOTENCY_HEADER).toBe('Idempotency-Key');
	});
});

describe('purchases kept with the keys', () => {
	const slot = (itemIndex: number): KeySlot => ({ operation: 'deck.create', runIndex: 0, itemIndex });

	test('a purchase outlives the try that made it (the store is saved as JSON and read back)', () => {
		const store: KeyStore = {};
		recordPurchase(store, slot(2), 'key-2', { kind: 'bought', taskId: 'tsk_2' });
		recordPurchase(store, slot(0), 'key-0', { kind: 'bought', taskId: 'tsk_0' });
		expect(purchasesIn(persisted(store))).toEqual([
			{ ...slot(0), key: 'key-0', state: 'bought', taskId: 'tsk_0' },
			{ ...slot(2), key: 'key-2', state: 'bought', taskId: 'tsk_2' },
		]);
	});

	test('a lost answer is "unanswered" until an answer settles it', () => {
		const store: KeyStore = {};
		recordPurchase(store, slot(1), 'key-1', { kind: 'unanswered' });
		expect(purchasesIn(store)).toEqual([{ ...slot(1), key: 'key-1', state: 'unanswered' }]);
		// A later try that only met 429s committed nothing: still "may have been bought".
		recordPurchase(store, slot(1), 'key-1', { kind: 'notCommitted' });
		expect(purchasesIn(store)[0].state).toBe('unanswered');
		// The replay arrives: bought, with its deck.
		recordPurchase(store, slot(1), 'key-1', { kind: 'bought', taskId: 'tsk_1' });
		expect(purchasesIn(store)).toEqual([{ ...slot(1), key: 'key-1', state: 'bought', taskId: 'tsk_1' }]);
		// A confirmed purchase is never downgraded by a later lost answer.
		recordPurchase(store, slot(1), 'key-1', { kind: 'unanswered' });
		expect(purchasesIn(store)[0].state).toBe('bought');
	});

	test('a refusal of the same key means the lost request bought nothing', () => {
		const store: KeyStore = {};
		recordPurchase(store, slot(4), 'key-4', { kind: 'unanswered' });
		recordPurchase(store, slot(4), 'key-4', { kind: 'refused' });
		expect(purchasesIn(store)).toEqual([]);
	});
});
