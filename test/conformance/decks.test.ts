// Decks over time (contract "Poll a deck", "States and transitions", max_versions, follow-up operations):
// progress on the compressed clock and on the manual clock, status words, 404 = not yours, 409s, 429 cap.
import { start, type Simulator } from '../simulator';
import { deckBody, expectProblem, get, post, realSleep, withoutRequestId } from './helpers';

const MIN = 60_000;

describe('progress on a compressed clock (S-2, EV-1, ST-1, L-deck-duration)', () => {
	let sim: Simulator;
	beforeAll(async () => {
		// 60 000 sim-ms per real ms: a 35-minute deck takes 35 ms.
		sim = await start({ seed: 41, clock: { speed: 60_000 } });
	});
	afterAll(() => sim.close());

	it('a created deck moves queued → generating → completed, observed by polling alone', async () => {
		const created = await post(sim, '/v1/decks', deckBody());
		expect(created.status).toBe(202);
		const seen: string[] = [];
		const progress: number[] = [];
		for (let i = 0; i < 200; i++) {
			const res = await get(sim, `/v1/decks/${created.json.taskId}/status`);
			if (seen.at(-1) !== res.json.status) seen.push(res.json.status);
			progress.push(res.json.progress);
			if (res.json.status === 'completed') {
				expect(res.json.deckUrl).toMatch(/^https?:\/\//);
				break;
			}
			await realSleep(2);
		}
		expect(seen.at(-1)).toBe('completed');
		expect(['queued', 'generating', 'completed']).toEqual(expect.arrayContaining(seen));
		expect(progress).toEqual([...progress].sort((a, b) => a - b));
		expect(progress.at(-1)).toBe(100);
	});

	it('deck durations fall in the typical 10–35 minutes', async () => {
		for (let i = 0; i < 4; i++) {
			const { taskId } = (await post(sim, '/v1/decks', deckBody())).json;
			const deck = sim.control.deck(taskId)!;
			expect(deck.doneAt - deck.createdAt).toBeGreaterThanOrEqual(10 * MIN);
			expect(deck.doneAt - deck.createdAt).toBeLessThanOrEqual(35 * MIN);
		}
	});
});

describe('progress on the manual clock (E-status-1, E-gap-status-fields, ST-words)', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await start({ seed: 42, clock: { manual: true }, unshipped: [] });
	});
	afterAll(() => sim.close());

	it('the status body: taskId, status, progress, version, max_versions, createdAt, updatedAt', async () => {
		const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 20 * MIN });
		const res = await get(sim, `/v1/decks/${taskId}/status`);
		expect(res.status).toBe(200);
		expect(res.json).toEqual({
			taskId,
			status: 'queued',
			progress: 0,
			version: 1,
			max_versions: 3,
			languages: ['en'],
			createdAt: new Date(sim.control.now()).toISOString(),
			updatedAt: new Date(sim.control.now()).toISOString(),
		});
	});

	it('time moves only through advance(): queued, then generating with progress, then completed with deckUrl', async () => {
		const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 20 * MIN });
		const status = async () => (await get(sim, `/v1/decks/${taskId}/status`)).json;
		expect(await status()).toMatchObject({ status: 'queued', progress: 0 });
		await realSleep(5);
		expect(await status()).toMatchObject({ status: 'queued', progress: 0 });
		sim.control.advance(10 * MIN);
		expect(await status()).toMatchObject({ status: 'generating', progress: 50 });
		sim.control.advance(10 * MIN - 1);
		expect(await status()).toMatchObject({ status: 'generating', progress: 99 });
		expect(await status()).not.toHaveProperty('deckUrl');
		sim.control.advance(1);
		const done = await status();
		expect(done).toMatchObject({ status: 'completed', progress: 100, deckUrl: expect.stringContaining(taskId) });
		expect(Date.parse(done.updatedAt) - Date.parse(done.createdAt)).toBe(20 * MIN);
	});

	it('a failed deck reads failed with an error member and no deckUrl', async () => {
		const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: MIN, outcome: 'failed' });
		sim.control.advance(MIN);
		const res = await get(sim, `/v1/decks/${taskId}/status`);
		expect(res.json).toMatchObject({ status: 'failed', error: { code: expect.any(String), message: expect.any(String) } });
		expect(res.json).not.toHaveProperty('deckUrl');
	});

	it('the status words are configurable live (unknown vocabulary on purpose)', async () => {
		const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 0 });
		sim.control.setStatusWords({ succeeded: 'finished' });
		try {
			expect((await get(sim, `/v1/decks/${taskId}/status`)).json.status).toBe('finished');
		} finally {
			sim.control.setStatusWords({ succeeded: 'completed' });
		}
	});

	it('a status override is returned verbatim until cleared', async () => {
		const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 0, status: 'complete_pending_review' });
		expect((await get(sim, `/v1/decks/${taskId}/status`)).json.status).toBe('complete_pending_review');
		sim.control.setDeckStatusOverride(taskId, 'expired');
		expect((await get(sim, `/v1/decks/${taskId}/status`)).json.status).toBe('expired');
		sim.control.setDeckStatusOverride(taskId, null);
		expect((await get(sim, `/v1/decks/${taskId}/status`)).json.status).toBe('completed');
	});

	it('polling never charges and is never refused at the default limits', async () => {
		const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: MIN });
		const charges = sim.ledger.charges.length;
		for (let i = 0; i < 20; i++) expect((await get(sim, `/v1/decks/${taskId}/status`)).status).toBe(200);
		expect(sim.ledger.charges.length).toBe(charges);
	});
});

describe('status words and failures from options (ST-words, SIM-failure-rate)', () => {
	it('statusWords and deckFailureRate shape what a created deck reports', async () => {
		const sim = await start({ seed: 43, clock: { manual: true }, statusWords: { queued: 'pending', running: 'processing', failed: 'error' }, deckFailureRate: 1 });
		try {
			const created = await post(sim, '/v1/decks', deckBody());
			expect(created.json.status).toBe('pending');
			const id = created.json.taskId;
			sim.control.advance(2 * MIN); // past the queued share (5%) of any duration up to 35 min
			expect((await get(sim, `/v1/decks/${id}/status`)).json.status).toBe('processing');
			sim.control.advance(35 * MIN);
			expect((await get(sim, `/v1/decks/${id}/status`)).json.status).toBe('error');
		} finally {
			await sim.close();
		}
	});
});

describe('visibility: 404 not_found = does not exist = not yours (R-deck-3, E-status-2, P-4, C-404)', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await start({ seed: 44, clock: { manual: true } });
	});
	afterAll(() => sim.close());

	it('another principal\'s deck and an unknown id give identical bodies that name neither', async () => {
		const theirs = sim.control.seedDeck({ key: sim.keys.other, durationMs: 0 });
		const foreign = await get(sim, `/v1/decks/${theirs}/status`);
		const unknown = await get(sim, '/v1/decks/tsk_000000000000000000000000/status');
		expectProblem(foreign, 404, 'not_found', { retryable: false });
		expectProblem(unknown, 404, 'not_found', { retryable: false });
		expect(withoutRequestId(foreign.json)).toEqual(withoutRequestId(unknown.json));
		expect(foreign.text).not.toContain(theirs);
		expect(foreign.text).not.toMatch(/usr_|org_/);
		// The owner sees it.
		expect((await get(sim, `/v1/decks/${theirs}/status`, { key: sim.keys.other })).status).toBe(200);
	});

	it('an organisation key sees only decks of its organisation, whichever org key created them', async () => {
		const orgDeck = (await post(sim, '/v1/decks', deckBody(), { key: sim.keys.org })).json.taskId;
		expect((await get(sim, `/v1/decks/${orgDeck}/status`, { key: sim.keys.orgKeyCapped })).status).toBe(200);
		expectProblem(await get(sim, `/v1/decks/${orgDeck}/status`), 404, 'not_found');
		const personalDeck = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 0 });
		expectProblem(await get(sim, `/v1/decks/${personalDeck}/status`, { key: sim.keys.org }), 404, 'not_found');
	});

	it('follow-up operations on someone else\'s deck are 404 too, and charge nothing', async () => {
		const theirs = sim.control.seedDeck({ key: sim.keys.other, durationMs: 0 });
		const charges = sim.ledger.charges.length;
		expectProblem(await post(sim, `/v1/decks/${theirs}/revisions`, { instructions: 'x', expected_credits: 0 }), 404, 'not_found');
		expectProblem(await post(sim, `/v1/decks/${theirs}/translations`, { languages: ['de'], expected_credits: 5 }), 404, 'not_found');
		expect(sim.ledger.charges.length).toBe(charges);
	});
});

describe('revisions, versions and deck states (ST-2, ST-3, ST-4, R-deck-2, L-max-versions, V-4, C-409-conflict, C-429-version_cap)', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await start({ seed: 45, clock: { manual: true }, unshipped: [] });
	});
	afterAll(() => sim.close());

	it('revising a deck still being generated: 409 conflict already_in_progress, retryable (wait and poll)', async () => {
		const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 20 * MIN });
		const res = await post(sim, `/v1/decks/${taskId}/revisions`, { instructions: 'x', expected_credits: 0 });
		const body = expectProblem(res, 409, 'conflict', { reason: 'already_in_progress', retryable: true });
		expect(body.conflictKind).toBe('already_in_progress');
		expect(res.headers['retry-after']).toEqual(expect.any(String));
		// Waiting is the fix.
		sim.control.advance(20 * MIN);
		expect((await post(sim, `/v1/decks/${taskId}/revisions`, { instructions: 'x', expected_credits: 0 })).status).toBe(202);
	});

	it('a failed deck refuses follow-ups with 409 terminal_state, not retryable', async () => {
		const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 0, outcome: 'failed' });
		for (const [path, body] of [
			['revisions', { instructions: 'x', expected_credits: 0 }],
			['translations', { languages: ['de'], expected_credits: 5 }],
			['video', { expected_credits: 20 }],
		] as const) {
			const res = await post(sim, `/v1/decks/${taskId}/${path}`, body);
			expect(expectProblem(res, 409, 'conflict', { reason: 'terminal_state', retryable: false }).conflictKind).toBe('terminal_state');
		}
	});

	it('each revision adds a version; at max_versions: 429 version_cap_reached, not retryable', async () => {
		const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 0 });
		const balance = sim.control.balanceOf(sim.keys.personal);
		const r1 = await post(sim, `/v1/decks/${taskId}/revisions`, { instructions: 'shorter', expected_credits: 0 });
		expect(r1.status).toBe(202);
		expect(r1.json).toEqual({ taskId, version: 2, status: 'queued', creditsCharged: 0 });
		sim.control.advance(36 * MIN);
		const r2 = await post(sim, `/v1/decks/${taskId}/revisions`, { instructions: 'more charts', expected_credits: 8 });
		expect(r2.json).toMatchObject({ version: 3, creditsCharged: 8 });
		expect(sim.control.balanceOf(sim.keys.personal)).toBe(balance - 8);
		sim.control.advance(36 * MIN);
		const status = (await get(sim, `/v1/decks/${taskId}/status`)).json;
		expect(status).toMatchObject({ version: 3, max_versions: 3, status: 'completed' });
		const capped = await post(sim, `/v1/decks/${taskId}/revisions`, { instructions: 'again', expected_credits: 8 });
		const body = expectProblem(capped, 429, 'rate_limited', { reason: 'version_cap_reached', retryable: false });
		expect(body).toMatchObject({ version: 3, max_versions: 3 });
		expect(sim.control.balanceOf(sim.keys.personal)).toBe(balance - 8);
	});

	it('the version ceiling follows limits.maxVersions for new decks', async () => {
		sim.control.setLimits({ maxVersions: 1 });
		try {
			const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 0 });
			expect((await get(sim, `/v1/decks/${taskId}/status`)).json.max_versions).toBe(1);
			expectProblem(await post(sim, `/v1/decks/${taskId}/revisions`, { instructions: 'x', expected_credits: 0 }), 429, 'rate_limited', { reason: 'version_cap_reached' });
		} finally {
			sim.control.setLimits({ maxVersions: 3 });
		}
	});

	it('the included revision is priced 0: sending 8 is a price_drift', async () => {
		const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 0 });
		const res = await post(sim, `/v1/decks/${taskId}/revisions`, { instructions: 'x', expected_credits: 8 });
		expect(expectProblem(res, 409, 'price_drift')).toMatchObject({ expectedCredits: 8, credits: 0 });
	});

	it('a revision puts the deck back to work: status reads queued, then generating, then completed', async () => {
		const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 0 });
		await post(sim, `/v1/decks/${taskId}/revisions`, { instructions: 'x', expected_credits: 0 });
		expect((await get(sim, `/v1/decks/${taskId}/status`)).json).toMatchObject({ status: 'queued', version: 2 });
		sim.control.advance(36 * MIN);
		expect((await get(sim, `/v1/decks/${taskId}/status`)).json).toMatchObject({ status: 'completed', version: 2 });
	});

	it('revision body is strict: instructions required, unknown fields refused (422)', async () => {
		const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 0 });
		const res = await post(sim, `/v1/decks/${taskId}/revisions`, { expected_credits: 0, tone: 'fun' });
		expect(res.status).toBe(422);
		expect(res.json.detail.map((d: { loc: unknown[] }) => d.loc)).toEqual([['body', 'instructions'], ['body', 'tone']]);
	});

	it('translations add languages to the deck', async () => {
		const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 0 });
		const res = await post(sim, `/v1/decks/${taskId}/translations`, { languages: ['de', 'fr-CA'], expected_credits: 10 });
		expect(res.status).toBe(202);
		sim.control.advance(36 * MIN);
		expect((await get(sim, `/v1/decks/${taskId}/status`)).json.languages).toEqual(['en', 'de', 'fr-CA']);
	});
});

describe('capabilities not shipped: 501 (S-6, C-501, V-2)', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await start({ seed: 46, clock: { manual: true } });
	});
	afterAll(() => sim.close());

	it('video is unshipped by default: 501 not_implemented, not retryable, nothing charged', async () => {
		const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 0 });
		const body = expectProblem(await post(sim, `/v1/decks/${taskId}/video`, { expected_credits: 20 }), 501, 'not_implemented', { retryable: false });
		expect(body.capability).toBe('video');
		expect(sim.ledger.charges).toHaveLength(0);
	});

	it('once shipped, the identical request becomes 2xx with no client change', async () => {
		const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 0 });
		const request = { expected_credits: 20 };
		expect((await post(sim, `/v1/decks/${taskId}/video`, request, { idem: 'video-1' })).status).toBe(501);
		sim.control.setUnshipped([]);
		const res = await post(sim, `/v1/decks/${taskId}/video`, request, { idem: 'video-1' });
		expect(res.status).toBe(202);
		expect(res.json).toMatchObject({ taskId, creditsCharged: 20 });
		sim.control.advance(36 * MIN);
		expect((await get(sim, `/v1/decks/${taskId}/status`)).json.videoUrl).toMatch(/^https:\/\//);
	});

	it('any capability can be unshipped: revisions, translations, materials', async () => {
		sim.control.setUnshipped(['revisions', 'translations', 'materials']);
		const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 0 });
		expectProblem(await post(sim, `/v1/decks/${taskId}/revisions`, { instructions: 'x', expected_credits: 0 }), 501, 'not_implemented');
		expectProblem(await post(sim, `/v1/decks/${taskId}/translations`, { languages: ['de'], expected_credits: 5 }), 501, 'not_implemented');
		expectProblem(await post(sim, '/v1/materials', {}), 501, 'not_implemented');
		// Creation and reads are never unshipped.
		expect((await post(sim, '/v1/decks', deckBody())).status).toBe(202);
		sim.control.setUnshipped([]);
	});
});
