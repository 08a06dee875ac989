// The contract's stated rules, checked against BOTH simulator profiles (test/simulator/profile.ts). The other
// files of this folder pin the reference profile's wire decisions; this one asserts only what the contract says,
// so every assertion must hold whatever legal choice a profile made for a gap ("not shown").
import { PROFILES, start, type ProfileName, type Simulator } from '../simulator';
import { CTAS, call, expectProblem, get, newKey, pathOf, post, realSleep, upload, withoutRequestId, type Res } from './helpers';
import { FILES } from './files';

/** A creation body both profiles accept (profile B requires title, audience and slide_count). */
const body = (extra: Record<string, unknown> = {}) => ({ title: 'Quarterly update', audience: 'Board', slide_count: 10, core_message: 'Revenue grew', expected_credits: 10, ...extra });

/** Validation failures: 400 or 422, problem+json validation_failed or the framework's own shape. */
function expectValidation(res: Res): Array<{ field: string }> {
	expect([400, 422]).toContain(res.status);
	if (/problem\+json/.test(res.headers['content-type'] ?? '')) {
		const problem = expectProblem(res, res.status, 'validation_failed', { retryable: false });
		return (problem.errors ?? []).map((e: { field?: string; loc?: unknown[] }) => ({ field: e.field ?? String(e.loc?.slice(1).join('.')) }));
	}
	expect(Array.isArray(res.json?.detail)).toBe(true);
	return res.json.detail.map((d: { loc: unknown[]; msg: string }) => {
		expect(typeof d.msg).toBe('string');
		return { field: d.loc.slice(1).join('.') };
	});
}

/** A 402: insufficient_credits, not retryable, ordered options; its cta (top-level or first option) from the closed set. */
function expectPayment(res: Res, reason: string): string | undefined {
	const problem = expectProblem(res, 402, 'insufficient_credits', { reason, retryable: false });
	expect(Array.isArray(problem.options)).toBe(true);
	// The paywall's options may be empty where options are plain ctas (it names none).
	if (reason !== 'video_paywall') expect(problem.options.length).toBeGreaterThan(0);
	// An option is an object with `cta`, or the cta itself as text (the contract leaves its shape open).
	const ctaOf = (o: unknown) => (typeof o === 'string' ? o : (o as { cta?: string } | null)?.cta);
	const cta = problem.cta ?? problem.options.map(ctaOf).find(Boolean);
	if (cta !== undefined) expect(CTAS).toContain(cta);
	if (problem.cta !== undefined) expect(ctaOf(problem.options[0])).toBe(problem.cta);
	return cta;
}

const statusWord = (json: Record<string, unknown>) => (json.status ?? json.state) as string;
const httpLinks = (value: unknown): string[] =>
	typeof value === 'string' ? (/^https?:\/\//.test(value) ? [value] : []) : value && typeof value === 'object' ? Object.values(value).flatMap(httpLinks) : [];

describe.each<ProfileName>(['reference', 'alternate', 'readings', 'contrary'])('the contract holds under profile %s', (profile) => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await start({ seed: 91, profile, clock: { manual: true }, unshipped: ['video'], limits: { retryAfterMs: 30 } });
	});
	afterAll(() => sim.close());

	it('profile choices are what the profile table says', () => {
		expect(sim.profile).toMatchObject({ ...PROFILES[profile], name: profile });
	});

	it('create answers 2xx at once with a taskId, charges once, and the deck is polled by its taskId', async () => {
		const charges = sim.ledger.charges.length;
		const res = await post(sim, '/v1/decks', body());
		expect(res.status).toBeGreaterThanOrEqual(200);
		expect(res.status).toBeLessThan(300);
		expect(res.json.taskId).toEqual(expect.any(String));
		expect(sim.ledger.charges.length).toBe(charges + 1);
		const status = await get(sim, `/v1/decks/${encodeURIComponent(res.json.taskId)}/status`);
		expect(status.status).toBe(200);
		expect(typeof statusWord(status.json)).toBe('string');
		expect(status.headers['x-request-id']).toEqual(expect.any(String));
	});

	it('a finished deck\'s status carries at least one http(s) link; a running one reads differently', async () => {
		const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 60_000 });
		const running = (await get(sim, `/v1/decks/${taskId}/status`)).json;
		sim.control.advance(120_000);
		const done = (await get(sim, `/v1/decks/${taskId}/status`)).json;
		expect(statusWord(done)).not.toBe(statusWord(running));
		expect(httpLinks(done).length).toBeGreaterThan(0);
	});

	it('unknown body fields are refused with 400/422 validation_failed, nothing charged', async () => {
		const charges = sim.ledger.charges.length;
		const fields = expectValidation(await post(sim, '/v1/decks', body({ colour: 'blue' })));
		expect(fields.map((f) => f.field)).toContain('colour');
		expect(sim.ledger.charges.length).toBe(charges);
	});

	it('a missing Idempotency-Key is refused with 400/422 validation_failed before the body is read', async () => {
		const res = await post(sim, '/v1/decks', body(), { idem: null });
		expect([400, 422]).toContain(res.status);
		expectProblem(res, res.status, 'validation_failed', { retryable: false });
		expect(sim.ledger.requests.at(-1)?.bodySha256).toBeUndefined();
	});

	it('the same key and body replay the purchase (marked, not charged); another body is 409 idempotency_key_reused', async () => {
		const key = newKey('profile');
		const first = await post(sim, '/v1/decks', body(), { idem: key });
		const charges = sim.ledger.charges.length;
		const again = await post(sim, '/v1/decks', body(), { idem: key });
		expect(again.status).toBe(first.status);
		expect(again.json).toEqual(first.json);
		const marker = Object.entries(again.headers).find(([name]) => /replayed/i.test(name));
		expect(marker?.[1]).toBe('true');
		expect(Object.keys(first.headers).some((name) => /replayed/i.test(name))).toBe(false);
		expect(sim.ledger.charges.length).toBe(charges);
		const reused = await post(sim, '/v1/decks', body({ title: 'Other' }), { idem: key });
		expect(expectProblem(reused, 409, 'conflict', { reason: 'idempotency_key_reused', retryable: false }).conflictKind).toBe('idempotency_key_reused');
	});

	it('a different live price is 409 price_drift with expectedCredits and credits; nothing charged', async () => {
		const charges = sim.ledger.charges.length;
		const res = await post(sim, '/v1/decks', body({ expected_credits: 7 }));
		expect(res.status).toBe(409);
		expect(res.json).toMatchObject({ expectedCredits: 7, credits: 10, retryable: false });
		expect(res.json.code === 'price_drift' || res.json.conflictKind === 'price_drift').toBe(true);
		expect(sim.ledger.charges.length).toBe(charges);
	});

	it('every 402 of the code table: insufficient_credits, ordered options, a cta from the closed set (top-level or first option)', async () => {
		expect(expectPayment(await post(sim, '/v1/decks', body(), { key: sim.keys.neverPurchased }), 'api_free_tier_unavailable')).toBe('top_up');
		const cap = await post(sim, '/v1/decks', body(), { key: sim.keys.capped });
		expect(expectPayment(cap, 'monthly_credit_cap_reached')).toEqual(expect.any(String));
		expect(cap.json).toMatchObject({ monthlyCreditCap: 100, monthlyCreditsSpent: 100, resetAt: expect.any(String) });
		expect(expectPayment(await post(sim, '/v1/decks', body(), { key: sim.keys.freePlan }), 'insufficient_balance')).toBe('unlock_or_subscribe');
		expect(expectPayment(await post(sim, '/v1/decks', body(), { key: sim.keys.orgNeedsSubscription }), 'org_subscription_required')).toEqual(expect.any(String));
		// Org-key spend switched off: a 402, or reported as forbidden (both in the contract).
		const off = await post(sim, '/v1/decks', body(), { key: sim.keys.orgSpendOff });
		if (off.status === 402) expectPayment(off, 'org_spend_disabled');
		else expectProblem(off, 403, 'forbidden', { retryable: false });
	});

	it('the video paywall names no cta anywhere, only its code', async () => {
		sim.control.setUnshipped([]);
		try {
			const deck = sim.control.seedDeck({ key: sim.keys.broke, durationMs: 0 });
			const res = await post(sim, pathOf(sim, 'video', deck), { expected_credits: 20 }, { key: sim.keys.broke });
			expect(expectPayment(res, 'video_paywall')).toBeUndefined();
		} finally {
			sim.control.setUnshipped(['video']);
		}
	});

	it('401 for a missing or wrong key (any body); 403 reasons with their members and WWW-Authenticate rules', async () => {
		expect((await get(sim, '/v1/credits', { key: null })).status).toBe(401);
		expect((await get(sim, '/v1/credits', { key: sim.keys.revoked })).status).toBe(401);
		const notEnrolled = await get(sim, '/v1/credits', { key: sim.keys.notEnrolled });
		expectProblem(notEnrolled, 403, 'forbidden', { reason: 'not_enrolled', retryable: false });
		expect(notEnrolled.headers).not.toHaveProperty('www-authenticate');
		const narrow = await post(sim, '/v1/decks', body(), { key: sim.keys.narrow });
		expect(expectProblem(narrow, 403, 'forbidden', { reason: 'insufficient_scope' })).toMatchObject({ requiredAction: 'spend', requiredResource: 'decks', grantedActions: expect.any(Array) });
		expect(narrow.headers['www-authenticate']).toMatch(/insufficient_scope/);
		const unrecognized = await get(sim, '/v1/credits', { key: sim.keys.unrecognized });
		expect(expectProblem(unrecognized, 403, 'forbidden', { reason: 'unrecognized_scope' })).toMatchObject({
			unrecognizedScopes: expect.any(Array),
			recognizedActions: expect.any(Array),
			recognizedResources: expect.any(Array),
		});
	});

	it('404: a deck that is not yours reads exactly like one that does not exist', async () => {
		const theirs = sim.control.seedDeck({ key: sim.keys.other, durationMs: 0 });
		const a = await get(sim, `/v1/decks/${theirs}/status`);
		const b = await get(sim, '/v1/decks/tsk_000000000000000000000000/status');
		expectProblem(a, 404, 'not_found', { retryable: false });
		expect(withoutRequestId(a.json)).toEqual(withoutRequestId(b.json));
	});

	it('405 names the allowed verbs; 501 not_implemented; 503 surface_disabled is retryable', async () => {
		const wrong = await call(sim, 'PUT', '/v1/decks');
		expectProblem(wrong, 405, 'method_not_allowed');
		expect(wrong.headers.allow).toBe('POST');
		const deck = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 0 });
		expectProblem(await post(sim, pathOf(sim, 'video', deck), { expected_credits: 20 }), 501, 'not_implemented', { retryable: false });
		sim.control.setSurface('disabled');
		try {
			expectProblem(await get(sim, '/v1/credits'), 503, 'surface_disabled', { retryable: true });
		} finally {
			sim.control.setSurface('on');
		}
	});

	it('a bucket 429 is retryable with Retry-After and retryAfterMs agreeing, and rate-limit headers of the credential', async () => {
		const { key } = sim.control.createAccount({});
		sim.control.setLimits({ principalPerMinute: 1 });
		try {
			const ok = await get(sim, '/v1/credits', { key });
			expect(Object.keys(ok.headers).filter((name) => /^(x-)?rate-?limit-(limit|remaining|reset)$/.test(name))).toHaveLength(3);
			const res = await get(sim, '/v1/credits', { key });
			const problem = expectProblem(res, 429, 'rate_limited', { retryable: true });
			expect(Number(res.headers['retry-after'])).toBe(Math.ceil(problem.retryAfterMs / 1000));
			await realSleep(40);
			expect((await get(sim, '/v1/credits', { key })).status).toBe(200);
		} finally {
			sim.control.setLimits({ principalPerMinute: 600_000 });
		}
	});

	it('edge 429 and size-layer 413 may have any body; the status says it', async () => {
		const edge = await start({ seed: 92, profile, limits: { edgePerMinute: 1, retryAfterMs: 30 } });
		try {
			await get(edge, '/v1/credits');
			expect((await get(edge, '/v1/credits')).status).toBe(429);
		} finally {
			await edge.close();
		}
		const big = await post(sim, '/v1/decks', body({ notes: 'x'.repeat(70 * 1024) }));
		expect(big.status).toBe(413);
	});

	it('uploads answer 2xx with an id; the file rules refuse svg (415)', async () => {
		const good = await upload(sim, 'brief.pdf', FILES.pdf, 'application/pdf');
		expect(good.status).toBeGreaterThanOrEqual(200);
		expect(good.status).toBeLessThan(300);
		expect(good.json.materialId ?? good.json.id ?? good.json.data?.id).toEqual(expect.any(String));
		expectProblem(await upload(sim, 'logo.svg', FILES.svg, 'image/svg+xml'), 415, 'unsupported_media_type', { retryable: false });
	});

	it('credits answer 200 and spend nothing', async () => {
		const charges = sim.ledger.charges.length;
		expect((await get(sim, '/v1/credits')).status).toBe(200);
		expect(sim.ledger.charges.length).toBe(charges);
	});
});

describe('profile B makes the other choice on the wire (the table in test/simulator/README.md)', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await start({ seed: 93, profile: 'alternate', clock: { manual: true } });
	});
	afterAll(() => sim.close());

	it('create: 201, minimal body, the word under `state`; status links presigned on another origin; Idempotent-Replayed', async () => {
		const key = newKey('b');
		const res = await post(sim, '/v1/decks', body(), { idem: key });
		expect(res.status).toBe(201);
		expect(res.json).toEqual({ taskId: expect.any(String), state: 'QUEUED', _links: { status: `/v1/decks/${res.json.taskId}/status` } });
		expect((await post(sim, '/v1/decks', body(), { idem: key })).headers['idempotent-replayed']).toBe('true');
		sim.control.advance(60 * 60_000);
		const status = (await get(sim, `/v1/decks/${res.json.taskId}/status`)).json;
		expect(status).toMatchObject({ state: 'SUCCEEDED', files: { pptx: expect.stringMatching(/X-Amz-Signature=/), pdf: expect.any(String) } });
		expect(status).not.toHaveProperty('status');
		expect(new URL(status.files.pptx).origin).toBe(sim.storage.url);
		expect(new URL(status.files.pptx).origin).not.toBe(sim.url);
	});

	it('402 cta only in options; org spend off is 403; 401 plain JSON; validation 400 problem, missing key 422; its own type URI', async () => {
		const paid = await post(sim, '/v1/decks', body(), { key: sim.keys.freePlan });
		expect(paid.json).not.toHaveProperty('cta');
		expect(paid.json.options[0].cta).toBe('unlock_or_subscribe');
		expect(paid.json.type).toBe('https://api.deckgen.example/problems/insufficient_credits');
		expectProblem(await post(sim, '/v1/decks', body(), { key: sim.keys.orgSpendOff }), 403, 'forbidden', { reason: 'org_spend_disabled' });
		const unauthorized = await get(sim, '/v1/credits', { key: 'dg_live_wrong' });
		expect(unauthorized.json).toEqual({ error: 'invalid_token', error_description: expect.any(String) });
		const invalid = await post(sim, '/v1/decks', { title: 'No audience', expected_credits: 10 });
		expect(expectProblem(invalid, 400, 'validation_failed').errors.map((e: { field: string }) => e.field).sort()).toEqual(['audience', 'slide_count']);
		expectProblem(await post(sim, '/v1/decks', body(), { idem: null }), 422, 'validation_failed');
	});

	it('RateLimit-* names; edge 429 and 413 in JSON', async () => {
		const ok = await get(sim, '/v1/credits');
		expect(ok.headers).toMatchObject({ 'ratelimit-limit': expect.any(String), 'ratelimit-remaining': expect.any(String), 'ratelimit-reset': expect.any(String) });
		expect(ok.headers).not.toHaveProperty('x-ratelimit-remaining');
		const big = await post(sim, '/v1/decks', body({ notes: 'x'.repeat(70 * 1024) }));
		expect(big.json).toEqual({ error: { code: 413, message: 'Request Entity Too Large' } });
		const edge = await start({ seed: 94, profile: 'alternate', limits: { edgePerMinute: 1 } });
		try {
			await get(edge, '/v1/credits');
			const limited = await get(edge, '/v1/credits');
			expect(limited.json).toEqual({ message: 'API rate limit exceeded' });
		} finally {
			await edge.close();
		}
	});
});

describe('profile C ("readings") makes the choices of issue 16 on the wire', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await start({ seed: 94, profile: 'readings', clock: { manual: true }, deckFileBytes: 200_000 });
	});
	afterAll(() => sim.close());

	it('the upload record is JSON:API; 402 options are plain cta strings', async () => {
		const uploaded = await upload(sim, 'brief.pdf', FILES.pdf, 'application/pdf');
		expect(uploaded.json).toEqual({
			data: { type: 'material', id: expect.stringMatching(/^mat_/), attributes: expect.objectContaining({ filename: 'brief.pdf' }) },
			links: { self: `/v1/materials/${uploaded.json.data.id}` },
		});
		const paid = await post(sim, '/v1/decks', body(), { key: sim.keys.freePlan });
		expect(paid.json).not.toHaveProperty('cta');
		expect(paid.json.options[0]).toBe('unlock_or_subscribe');
		expect(paid.json.options.every((o: unknown) => typeof o === 'string')).toBe(true);
	});

	it('the status has HAL-style links holding the files and a deckUrl that is the app page; files come without Content-Length', async () => {
		const res = await post(sim, '/v1/decks', body());
		sim.control.advance(60 * 60_000);
		const status = (await get(sim, `/v1/decks/${res.json.taskId}/status`)).json;
		expect(status).toMatchObject({
			links: { self: { href: `/v1/decks/${res.json.taskId}/status` }, file: { href: expect.stringMatching(/X-Amz-Signature=/) } },
			deckUrl: `https://app.deckgen.example/decks/${res.json.taskId}`,
		});
		expect(status).not.toHaveProperty('files');
		const file = await fetch(status.links.file.href);
		expect(file.headers.get('content-length')).toBeNull();
		expect((await file.arrayBuffer()).byteLength).toBe(200_000);
	});
});
