// POST /v1/decks (contract "Create a deck", "Deck creation request body", the price rules).
import http from 'node:http';
import { start, type Simulator } from '../simulator';
import { call, deckBody, expectProblem, get, newKey, post } from './helpers';

let sim: Simulator;

beforeAll(async () => {
	sim = await start({ seed: 21, clock: { manual: true }, limits: { maxConcurrentDecks: 1000 } });
});
afterAll(() => sim.close());

describe('success (E-create-4, ST-1, E-gap-create-code, E-gap-create-fields)', () => {
	it('answers 202 at once with taskId, the queued status word, creditsCharged and createdAt', async () => {
		const res = await post(sim, '/v1/decks', deckBody());
		expect(res.status).toBe(202);
		expect(res.json).toMatchObject({ taskId: expect.stringMatching(/^tsk_[0-9a-f]{24}$/), status: 'queued', creditsCharged: 10, createdAt: new Date(sim.control.now()).toISOString() });
		// The deck is not ready: it is still being produced.
		const status = await get(sim, `/v1/decks/${res.json.taskId}/status`);
		expect(status.json.status).toBe('queued');
	});

	it('accepts every documented field', async () => {
		const res = await post(sim, '/v1/decks', {
			deck_class: 'pitch',
			audience: 'Board of directors',
			core_message: 'We should expand to Spain',
			title: 'Expansion',
			slide_count: 12,
			notes: 'Keep it short',
			context: 'Q3 numbers attached',
			material_ids: [],
			output_language: 'en',
			additional_languages: [],
			confirm_slide_surcharge: false,
			expected_credits: 10,
		});
		expect(res.status).toBe(202);
	});

	it('title alone or core_message alone is enough', async () => {
		expect((await post(sim, '/v1/decks', { title: 'Only a title', expected_credits: 10 })).status).toBe(202);
		expect((await post(sim, '/v1/decks', { core_message: 'Only a message', expected_credits: 10 })).status).toBe(202);
	});

	it('charges the live price once and writes one ledger charge with the Idempotency-Key', async () => {
		const key = newKey('charge');
		const before = sim.control.balanceOf(sim.keys.personal);
		const res = await post(sim, '/v1/decks', deckBody(), { idem: key });
		expect(sim.control.balanceOf(sim.keys.personal)).toBe(before - 10);
		expect(sim.ledger.chargesFor(key)).toEqual([
			expect.objectContaining({ operation: 'create', credits: 10, taskId: res.json.taskId, idempotencyKey: key, chargeId: expect.stringMatching(/^chg_/) }),
		]);
	});
});

describe('price drift (E-create-1, S-3, C-409-price_drift)', () => {
	afterEach(() => sim.control.setPrice({ create: 10 }));

	it('a stale expected_credits answers 409 price_drift with both numbers; nothing is charged', async () => {
		sim.control.driftPrice(3);
		const key = newKey('drift');
		const before = sim.control.balanceOf(sim.keys.personal);
		const charges = sim.ledger.charges.length;
		const res = await post(sim, '/v1/decks', deckBody({ expected_credits: 10 }), { idem: key });
		const body = expectProblem(res, 409, 'price_drift', { reason: 'price_drift', retryable: false });
		expect(body).toMatchObject({ conflictKind: 'price_drift', expectedCredits: 10, credits: 13 });
		expect(sim.control.balanceOf(sim.keys.personal)).toBe(before);
		expect(sim.ledger.charges.length).toBe(charges);
	});

	it('nothing is written: the same key and body are judged afresh once the price is back', async () => {
		sim.control.driftPrice(2);
		const key = newKey('drift-written');
		expect((await post(sim, '/v1/decks', deckBody(), { idem: key })).status).toBe(409);
		sim.control.setPrice({ create: 10 });
		const res = await post(sim, '/v1/decks', deckBody(), { idem: key });
		expect(res.status).toBe(202);
		expect(res.headers).not.toHaveProperty('idempotency-replayed');
	});

	it('recovery is a new request with the live number', async () => {
		sim.control.driftPrice(5);
		const first = await post(sim, '/v1/decks', deckBody());
		const res = await post(sim, '/v1/decks', deckBody({ expected_credits: first.json.credits }));
		expect(res.status).toBe(202);
		expect(res.json.creditsCharged).toBe(15);
	});

	it('an expected_credits above the live price is a drift too (never overcharge silently)', async () => {
		const body = expectProblem(await post(sim, '/v1/decks', deckBody({ expected_credits: 11 })), 409, 'price_drift');
		expect(body).toMatchObject({ expectedCredits: 11, credits: 10 });
	});
});

describe('strict body: 422 in the framework shape (R-body-1, C-400-422, N-422, E-create-5)', () => {
	const cases: Array<[string, unknown, Array<string | number>, string]> = [
		['an unknown field', deckBody({ colour: 'blue' }), ['body', 'colour'], 'extra_forbidden'],
		['expected_credits missing', { title: 'x' }, ['body', 'expected_credits'], 'missing'],
		['expected_credits as a string', deckBody({ expected_credits: '10' }), ['body', 'expected_credits'], 'int_type'],
		['expected_credits fractional', deckBody({ expected_credits: 10.5 }), ['body', 'expected_credits'], 'int_from_float'],
		['expected_credits negative', deckBody({ expected_credits: -1 }), ['body', 'expected_credits'], 'greater_than_equal'],
		['slide_count 0', deckBody({ slide_count: 0 }), ['body', 'slide_count'], 'greater_than_equal'],
		['slide_count above 100', deckBody({ slide_count: 101 }), ['body', 'slide_count'], 'less_than_equal'],
		['confirm_slide_surcharge as "true"', deckBody({ confirm_slide_surcharge: 'true' }), ['body', 'confirm_slide_surcharge'], 'bool_type'],
		['title as a number', deckBody({ title: 7 }), ['body', 'title'], 'string_type'],
		['an empty core_message', deckBody({ core_message: '' }), ['body', 'core_message'], 'string_too_short'],
		['output_language outside the allowed set', deckBody({ output_language: 'English!' }), ['body', 'output_language'], 'string_pattern_mismatch'],
		['additional_languages not a list', deckBody({ additional_languages: 'de' }), ['body', 'additional_languages'], 'list_type'],
		['material_ids with a number', deckBody({ material_ids: [3] }), ['body', 'material_ids', 0], 'string_type'],
		['neither core_message nor title', { audience: 'x', expected_credits: 10 }, ['body'], 'value_error'],
		['a JSON array instead of an object', [deckBody()], ['body'], 'model_attributes_type'],
	];

	it.each(cases)('%s → 422 {"detail":[{loc,msg,type}]}, not problem+json, nothing charged', async (_name, body, loc, type) => {
		const key = newKey('invalid');
		const res = await post(sim, '/v1/decks', body, { idem: key });
		expect(res.status).toBe(422);
		expect(res.headers['content-type']).toMatch(/^application\/json/);
		expect(res.json).not.toHaveProperty('code');
		expect(res.json.detail).toEqual(expect.arrayContaining([expect.objectContaining({ loc, type, msg: expect.any(String) })]));
		expect(sim.ledger.chargesFor(key)).toHaveLength(0);
	});

	it('invalid JSON → the same native shape (json_invalid)', async () => {
		const res = await call(sim, 'POST', '/v1/decks', { raw: '{"title": "x",', headers: { 'content-type': 'application/json' } });
		expect(res.status).toBe(422);
		expect(res.json.detail[0]).toMatchObject({ type: 'json_invalid', loc: ['body', expect.any(Number)], msg: 'JSON decode error' });
	});

	it('a body that is not declared as JSON → 422, never 415 (415 does not apply to creation)', async () => {
		const res = await call(sim, 'POST', '/v1/decks', { raw: JSON.stringify(deckBody()), headers: { 'content-type': 'text/plain' } });
		expect(res.status).toBe(422);
		expect(res.json.detail[0]).toMatchObject({ loc: ['body'] });
	});

	it('every problem is reported at once, one item per field', async () => {
		const res = await post(sim, '/v1/decks', { foo: 1, bar: 2, expected_credits: 'x', title: 'x' });
		expect(res.json.detail.map((d: { loc: unknown[] }) => d.loc)).toEqual([['body', 'foo'], ['body', 'bar'], ['body', 'expected_credits']]);
	});
});

describe('missing Idempotency-Key: 400 before the body is read (R-hdr-2, E-create-5, C-400-422)', () => {
	it('answers 400 validation_failed problem naming the header', async () => {
		const res = await post(sim, '/v1/decks', deckBody(), { idem: null });
		const body = expectProblem(res, 400, 'validation_failed', { retryable: false, reason: 'idempotency_key_missing' });
		expect(body.header).toBe('Idempotency-Key');
	});

	it('a broken body still gets the 400, not a 422: the body was never parsed', async () => {
		const res = await call(sim, 'POST', '/v1/decks', { raw: '{not json', idem: null, headers: { 'content-type': 'application/json' } });
		expectProblem(res, 400, 'validation_failed');
		const record = sim.ledger.requests.find((r) => r.requestId === res.headers['x-request-id']);
		expect(record).toBeDefined();
		expect(record!.bodySha256).toBeUndefined();
	});

	it('answers while the body is still unsent: the server does not wait to read it', async () => {
		const { port } = new URL(sim.url);
		const status = await new Promise<number>((resolve, reject) => {
			const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/v1/decks', headers: { authorization: `Bearer ${sim.keys.personal}`, 'content-type': 'application/json', 'content-length': '1000' } }, (res) => {
				res.resume();
				resolve(res.statusCode ?? 0);
				req.destroy();
			});
			req.on('error', (err) => (err.message.includes('socket hang up') ? undefined : reject(err)));
			req.write('{"title":'); // 9 of the 1000 announced bytes; the rest never comes
		});
		expect(status).toBe(400);
	});

	it('an empty key or one over 255 characters is refused the same way', async () => {
		expectProblem(await post(sim, '/v1/decks', deckBody(), { idem: '' }), 400, 'validation_failed');
		expectProblem(await post(sim, '/v1/decks', deckBody(), { idem: 'k'.repeat(256) }), 400, 'validation_failed', { reason: 'idempotency_key_invalid' });
	});
});

describe('the price of a deck (S-3, decisions: prices)', () => {
	it('slides up to the free cap cost the base price; additional languages add 5 each', async () => {
		expect((await post(sim, '/v1/decks', deckBody({ slide_count: 15 }))).json.creditsCharged).toBe(10);
		expect((await post(sim, '/v1/decks', deckBody({ additional_languages: ['de', 'fr'], expected_credits: 20 }))).json.creditsCharged).toBe(20);
	});

	it('with confirm_slide_surcharge, each slide above the cap adds 2', async () => {
		const res = await post(sim, '/v1/decks', deckBody({ slide_count: 18, confirm_slide_surcharge: true, expected_credits: 16 }));
		expect(res.status).toBe(202);
		expect(res.json.creditsCharged).toBe(16);
	});

	it('confirm_slide_surcharge with slides within the cap changes nothing', async () => {
		expect((await post(sim, '/v1/decks', deckBody({ slide_count: 5, confirm_slide_surcharge: true }))).json.creditsCharged).toBe(10);
	});
});
