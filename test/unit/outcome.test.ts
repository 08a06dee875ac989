/**
 * From a final response to the item's outcome, route and one-line message (design.md,
 * "Outcomes, not exceptions").
 */
import {
	classify,
	classifyFailure,
	isPriceDrift,
	livePriceOf,
	NOT_AVAILABLE_YET_ACTION,
	PRICE_DRIFT_ACTION,
	refusalFields,
	withoutEnvelope,
	refusalMessage,
	VERSION_CAP_ACTION,
	type Outcome,
	type RefusalOutcome,
} from '../../nodes/shared/outcome';
import { CTA_TABLE, UNKNOWN_CTA_ACTION } from '../../nodes/shared/cta';
import { failureDescription } from '../../nodes/shared/n8n/errors';
import { parseFailure } from '../../nodes/shared/problem';
import type { ServiceResponse } from '../../nodes/shared/transport';

const ACCOUNT_URL = 'https://app.deckgen.example/account';

function problem(status: number, members: Record<string, unknown>, headers: Record<string, string> = {}): ServiceResponse {
	return {
		status,
		headers: { 'content-type': 'application/problem+json', 'x-request-id': 'req-42', ...headers },
		text: JSON.stringify({ title: 'Refused', detail: 'The service refused.', requestId: 'req-42', ...members }),
	};
}

function payment(members: Record<string, unknown>): ServiceResponse {
	return problem(402, { code: 'insufficient_credits', retryable: false, ...members });
}

function refusal(outcome: Outcome): RefusalOutcome {
	if (outcome.route !== 'checkout' && outcome.route !== 'clientAction') throw new Error(`expected a refusal, got ${outcome.route}`);
	return outcome;
}

describe('402: all nine ctas of the contract', () => {
	it.each<[string, 'checkout' | 'clientAction', string]>([
		['unlock_or_subscribe', 'checkout', 'unlock_or_subscribe'],
		['top_up', 'checkout', 'top_up'],
		['manage_decks', 'clientAction', 'manage_decks'],
		['upgrade_for_slides', 'clientAction', 'upgrade_for_slides'],
		['confirm_slide_surcharge', 'clientAction', 'confirm_slide_surcharge'],
		['subscribe_for_translation', 'checkout', 'subscribe_for_translation'],
		['translation_top_up', 'checkout', 'translation_top_up'],
		['buy_revision', 'checkout', 'buy_revision'],
		['insufficient_credits', 'checkout', 'top_up'],
	])('cta %s goes to %s as %s', (cta, route, carried) => {
		const outcome = refusal(classify(payment({ cta, options: [{ cta }] })));
		expect(outcome.route).toBe(route);
		expect(outcome.outcome).toBe(route === 'checkout' ? 'checkout' : 'client_action');
		expect(outcome.cta).toBe(carried);
		expect(outcome.ctaKnown).toBe(true);
		expect(outcome.failure.requestId).toBe('req-42');
		const fields = refusalFields(outcome, ACCOUNT_URL);
		expect(fields).toMatchObject({ outcome: outcome.outcome, code: 'insufficient_credits', cta: carried, requestId: 'req-42' });
		// A known cta needs no generic account link.
		expect(fields.accountUrl).toBeUndefined();
	});

	it('a 402 without a cta (the video paywall) is top_up, marked as inferred', () => {
		const outcome = refusal(classify(payment({ options: [{ credits: 200, url: 'https://pay.example/200', label: 'Buy 200 credits' }] })));
		expect(outcome).toMatchObject({ route: 'checkout', outcome: 'checkout', cta: 'top_up', ctaKnown: true, ctaInferred: true });
		expect(outcome.action).toBe(CTA_TABLE.top_up.action);
		const fields = refusalFields(outcome);
		expect(fields.ctaInferred).toBe(true);
		expect(fields.cta).toBe('top_up');
	});

	it('a 402 plain JSON body without a problem shape is still routed as top_up', () => {
		const outcome = classify({ status: 402, headers: {}, text: '{"message":"pay up"}' });
		expect(outcome).toMatchObject({ route: 'checkout', cta: 'top_up', ctaInferred: true });
	});

	it('an unknown cta is a checkout with the account URL in its fields and message', () => {
		const outcome = refusal(classify(payment({ cta: 'gift_card', options: [{ cta: 'gift_card' }] })));
		expect(outcome).toMatchObject({ route: 'checkout', outcome: 'checkout', cta: 'gift_card', ctaKnown: false });
		expect(outcome.action).toBe(UNKNOWN_CTA_ACTION);
		const fields = refusalFields(outcome, ACCOUNT_URL);
		expect(fields.accountUrl).toBe(ACCOUNT_URL);
		expect(fields.message).toContain(ACCOUNT_URL);
		expect(fields.cta).toBe('gift_card');
	});

	it('keeps the options in the order the service gave them', () => {
		const options = [
			{ cta: 'top_up', credits: 1000, url: 'https://pay.example/1000', label: 'Buy 1000 credits' },
			{ cta: 'top_up', credits: 100, url: 'https://pay.example/100', label: 'Buy 100 credits' },
			{ cta: 'top_up', credits: 500, url: 'https://pay.example/500', label: 'Buy 500 credits' },
		];
		const outcome = refusal(classify(payment({ cta: 'top_up', options })));
		const fields = refusalFields(outcome);
		expect(fields.options).toEqual(options);
		// The message offers the first option, the service's first choice.
		expect(fields.message).toContain('Next: Buy 1000 credits https://pay.example/1000.');
	});

	it('passes an empty option list when the service sent none', () => {
		expect(refusalFields(refusal(classify(payment({ cta: 'manage_decks' })))).options).toEqual([]);
	});

	it('passes the cap numbers of monthly_credit_cap_reached and names the reset in the message', () => {
		const outcome = refusal(
			classify(
				payment({
					reason: 'monthly_credit_cap_reached',
					cta: 'top_up',
					monthlyCreditCap: 5000,
					monthlyCreditsSpent: 4980,
					resetAt: '2025-04-01T00:00:00Z',
					options: [],
				}),
			),
		);
		const fields = refusalFields(outcome);
		expect(fields).toMatchObject({
			reason: 'monthly_credit_cap_reached',
			monthlyCreditCap: 5000,
			monthlyCreditsSpent: 4980,
			resetAt: '2025-04-01T00:00:00Z',
		});
		expect(fields.message).toContain('Resets at 2025-04-01T00:00:00Z.');
	});

	it('a confirm_slide_surcharge message carries the surcharged price', () => {
		const outcome = refusal(classify(payment({ cta: 'confirm_slide_surcharge', credits: 180, options: [{ cta: 'confirm_slide_surcharge', credits: 180 }] })));
		const message = refusalMessage(outcome);
		expect(outcome.route).toBe('clientAction');
		expect(message).toContain('Price: 180 credits.');
		expect(message).not.toMatch(/[\r\n]/);
	});
});

describe('non-402 refusals', () => {
	it('501 is not_available_yet on Client Action, never an error or "not found"', () => {
		const outcome = refusal(classify(problem(501, { code: 'not_implemented', retryable: false })));
		expect(outcome).toMatchObject({ route: 'clientAction', outcome: 'not_available_yet', action: NOT_AVAILABLE_YET_ACTION });
		expect(outcome.action).not.toMatch(/not found/i);
		expect(refusalFields(outcome)).toMatchObject({ outcome: 'not_available_yet', code: 'not_implemented', requestId: 'req-42' });
	});

	it('a plain-text 501 is not_available_yet too', () => {
		expect(classify({ status: 501, headers: {}, text: 'Not Implemented' })).toMatchObject({ outcome: 'not_available_yet' });
	});

	it('429 version_cap_reached is a Client Action: start a new deck', () => {
		const outcome = refusal(
			classify(problem(429, { code: 'rate_limited', reason: 'version_cap_reached', retryable: false, max_versions: 3 })),
		);
		expect(outcome).toMatchObject({ route: 'clientAction', outcome: 'version_cap_reached', action: VERSION_CAP_ACTION });
		expect(refusalFields(outcome)).toMatchObject({ reason: 'version_cap_reached', max_versions: 3 });
	});

	it.each([
		['code price_drift', { code: 'price_drift', conflictKind: 'price_drift' }],
		['code conflict with conflictKind price_drift', { code: 'conflict', conflictKind: 'price_drift' }],
		['code conflict with reason price_drift', { code: 'conflict', reason: 'price_drift' }],
	])('409 price_drift (%s) is price_drift with the live price', (_name, members) => {
		const outcome = refusal(classify(problem(409, { ...members, retryable: false, expectedCredits: 120, credits: 135 })));
		expect(outcome).toMatchObject({ route: 'clientAction', outcome: 'price_drift', action: PRICE_DRIFT_ACTION });
		expect(isPriceDrift(outcome.failure)).toBe(true);
		expect(livePriceOf(outcome.failure)).toBe(135);
		const fields = refusalFields(outcome);
		expect(fields).toMatchObject({ expectedCredits: 120, credits: 135 });
		expect(fields.message).toContain('Price now 135 credits (expected 120).');
		expect(String(fields.message).split('\n')).toHaveLength(1);
	});

	it('livePriceOf accepts only a non-negative integer', () => {
		const drift = (credits: unknown) => parseFailure(problem(409, { code: 'price_drift', retryable: false, credits }));
		expect(livePriceOf(drift(0))).toBe(0);
		expect(livePriceOf(drift(12.5))).toBeUndefined();
		expect(livePriceOf(drift(-3))).toBeUndefined();
		expect(livePriceOf(drift('135'))).toBeUndefined();
		expect(livePriceOf(drift(null))).toBeUndefined();
	});

	it('other 409s are not price drift', () => {
		for (const conflictKind of ['already_in_progress', 'terminal_state', 'idempotency_key_reused']) {
			const failure = parseFailure(problem(409, { code: 'conflict', conflictKind, retryable: false }));
			expect(isPriceDrift(failure)).toBe(false);
			expect(classifyFailure(failure).route).toBe('error');
		}
		// price_drift is a 409 thing only.
		expect(isPriceDrift(parseFailure(problem(422, { code: 'price_drift', retryable: false })))).toBe(false);
	});
});

describe('real failures are errors', () => {
	it.each<[string, ServiceResponse]>([
		['401', problem(401, { code: 'unauthorized', retryable: false })],
		['403 not_enrolled', problem(403, { code: 'forbidden', reason: 'not_enrolled', retryable: false })],
		['403 insufficient_scope', problem(403, { code: 'forbidden', reason: 'insufficient_scope', retryable: false })],
		['404', problem(404, { code: 'not_found', retryable: false })],
		['405', problem(405, { code: 'method_not_allowed', retryable: false })],
		['413 HTML', { status: 413, headers: {}, text: '<html><h1>413</h1></html>' }],
		['415', problem(415, { code: 'unsupported_media_type', retryable: false })],
		['422 framework', { status: 422, headers: {}, text: '{"detail":[{"loc":["body","x"],"msg":"bad"}]}' }],
		['400', problem(400, { code: 'validation_failed', retryable: false })],
		['429 rate_limited (retries exhausted)', problem(429, { code: 'rate_limited', retryable: true })],
		['500', problem(500, { code: 'internal_error', retryable: true })],
		['503', { status: 503, headers: {}, text: '{"error":"db"}' }],
	])('%s', (_name, response) => {
		const outcome = classify(response);
		expect(outcome.route).toBe('error');
		expect(outcome.outcome).toBe('error');
	});
});

describe('success', () => {
	it('passes every field of an object body through, with requestId and replay flag', () => {
		const outcome = classify({
			status: 201,
			headers: { 'x-request-id': 'req-ok', 'idempotency-replayed': 'true' },
			text: '{"taskId":"t-1","eta":900}',
		});
		expect(outcome).toEqual({
			route: 'success',
			outcome: 'success',
			status: 201,
			body: { taskId: 't-1', eta: 900 },
			requestId: 'req-ok',
			replayed: true,
		});
	});

	it('accepts any 2xx, and wraps a body that is not an object', () => {
		expect(classify({ status: 202, headers: {}, text: '[1,2]' })).toMatchObject({ route: 'success', body: { data: [1, 2] }, replayed: false });
		expect(classify({ status: 200, headers: {}, text: 'ok' })).toMatchObject({ route: 'success', body: { data: 'ok' } });
		expect(classify({ status: 204, headers: {}, text: '' })).toMatchObject({ route: 'success', body: { data: '' } });
	});
});

describe('refusalMessage', () => {
	it('is a single line that starts with the action', () => {
		const outcome = refusal(
			classify(
				payment({
					cta: 'translation_top_up',
					credits: 40,
					resetAt: '2025-04-01T00:00:00Z',
					options: [{ label: 'Buy 50 credits', url: 'https://pay.example/50' }],
				}),
			),
		);
		const message = refusalMessage(outcome, ACCOUNT_URL);
		expect(message.startsWith(CTA_TABLE.translation_top_up.action)).toBe(true);
		expect(message).not.toMatch(/[\r\n]/);
		expect(message).toContain('40 credits');
		expect(message).toContain('https://pay.example/50');
		// A known cta with its own link does not also get the generic account link.
		expect(message).not.toContain(ACCOUNT_URL);
	});

	it('a problem body that links somewhere says where in the error description (one link finder for every answer)', () => {
		const failure = parseFailure(problem(403, { code: 'forbidden', reason: 'not_enrolled', retryable: false, type: 'https://docs.example/errors#forbidden', _links: { enrolment: { href: 'https://app.example/settings/api' } } }));
		expect(failureDescription(failure)).toContain('The service links: https://app.example/settings/api');
		expect(failureDescription(failure)).not.toContain('docs.example');
	});

	it('an unknown cta without an account URL configured still gets its action', () => {
		const outcome = refusal(classify(payment({ cta: 'gift_card' })));
		expect(refusalMessage(outcome)).toBe(`${UNKNOWN_CTA_ACTION} Nothing was charged.`);
	});
});

describe('402 routing when the cta is not top-level (issue 8, point 2)', () => {
	it.each([
		['confirm_slide_surcharge', 'clientAction'],
		['buy_revision', 'checkout'],
		['manage_decks', 'clientAction'],
		['gift_card', 'checkout'],
	])('a 402 whose cta %s is only inside options is routed by the first option (%s), not as the paywall', (cta, route) => {
		const outcome = refusal(classify(payment({ options: [{ cta, label: 'First' }, { cta: 'top_up', label: 'Second' }] })));
		expect(outcome).toMatchObject({ route, cta, ctaInferred: false });
		expect(refusalFields(outcome).ctaInferred).toBeUndefined();
	});

	it('options without any cta, and no top-level cta: the paywall (top_up, inferred)', () => {
		const outcome = refusal(classify(payment({ options: [{ label: 'Buy 100 credits', url: 'https://pay.example/100' }] })));
		expect(outcome).toMatchObject({ route: 'checkout', cta: 'top_up', ctaInferred: true });
	});

	it('the first option that names a cta decides, in the order the service gave', () => {
		const outcome = refusal(classify(payment({ options: [{ label: 'no cta here' }, { cta: 'manage_decks' }, { cta: 'top_up' }] })));
		expect(outcome).toMatchObject({ route: 'clientAction', cta: 'manage_decks' });
	});

	it.each([
		['top-level', { cta: 'manage_decks', options: [{ cta: 'manage_decks' }] }],
		['only in options', { options: [{ cta: 'manage_decks' }] }],
		['absent', { options: [{ label: 'Raise the cap' }] }],
		['a top_up cta', { cta: 'top_up', options: [{ cta: 'top_up' }] }],
	])('monthly_credit_cap_reached (cta %s) says raise the cap, another credential or resetAt, never "buy credits"', (_how, members) => {
		const outcome = refusal(
			classify(payment({ reason: 'monthly_credit_cap_reached', monthlyCreditCap: 100, monthlyCreditsSpent: 100, resetAt: '2026-02-01T00:00:00.000Z', ...members })),
		);
		const { message } = refusalFields(outcome);
		expect(message).toMatch(/raise the key's cap/);
		expect(message).toMatch(/another credential/);
		expect(message).toMatch(/Resets at 2026-02-01T00:00:00.000Z/);
		expect(message).not.toMatch(/buy credits/i);
	});
});

describe('the replay marker (issue 8, point 3)', () => {
	it.each(['Idempotent-Replayed', 'Idempotency-Replayed', 'X-Idempotent-Replayed', 'X-Idempotency-Replayed', 'IDEMPOTENT-REPLAYED'])(
		'%s: true marks a replay, in any case',
		(name) => {
			const replayed = classify({ status: 200, headers: { [name.toLowerCase()]: 'True' }, text: '{"taskId":"t"}' });
			expect(replayed).toMatchObject({ route: 'success', replayed: true });
		},
	);

	it.each([['idempotent-replayed', 'false'], ['x-replayed', 'true'], ['idempotency-key', 'true']])('%s: %s is not a replay', (name, value) => {
		expect(classify({ status: 200, headers: { [name]: value }, text: '{"taskId":"t"}' })).toMatchObject({ replayed: false });
	});
});

describe('withoutEnvelope: a deck answer wrapped under data is lifted; any other body stays as it is', () => {
	test.each<[string, Record<string, unknown>, Record<string, unknown>]>([
		['create answer under data', { data: { taskId: 't1', state: 'QUEUED' }, meta: { v: 1 } }, { taskId: 't1', state: 'QUEUED', meta: { v: 1 } }],
		['status read under data', { data: { status: 'completed', deckUrl: 'https://x/d.pptx' } }, { status: 'completed', deckUrl: 'https://x/d.pptx' }],
		['bare deck answer', { taskId: 't1', data: { taskId: 'other' } }, { taskId: 't1', data: { taskId: 'other' } }],
		['a custom answer whose data is no deck', { data: { total: 3 }, page: 1 }, { data: { total: 3 }, page: 1 }],
		['a list under data', { data: [{ taskId: 't1' }] }, { data: [{ taskId: 't1' }] }],
	])('%s', (_name, body, expected) => {
		expect(withoutEnvelope(body)).toEqual(expected);
	});
});

describe('the order of a refusal item: what a person needs first, the service’s own words last', () => {
	it('price_drift: outcome, message, the prices, then code, reason, detail, requestId', () => {
		const outcome = refusal(
			classify(problem(409, { code: 'price_drift', reason: 'price_drift', conflictKind: 'price_drift', retryable: false, expectedCredits: 0, credits: 12, detail: 'The price changed.' })),
		);
		expect(Object.keys(refusalFields(outcome))).toEqual(['outcome', 'message', 'credits', 'expectedCredits', 'code', 'reason', 'detail', 'requestId']);
	});

	it('a surcharge: outcome, message, cta, the price and the options, then the 402’s code', () => {
		const outcome = refusal(
			classify(payment({ cta: 'confirm_slide_surcharge', reason: 'slide_surcharge_unconfirmed', credits: 20, options: [{ cta: 'confirm_slide_surcharge' }] })),
		);
		expect(Object.keys(refusalFields(outcome))).toEqual(['outcome', 'message', 'cta', 'credits', 'options', 'code', 'reason', 'detail', 'requestId']);
		expect(refusalFields(outcome)).toMatchObject({ outcome: 'client_action', code: 'insufficient_credits' });
	});
});
