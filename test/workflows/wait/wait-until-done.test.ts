/**
 * Wait Until Done in a real workflow (n8n-core, in-process) against the simulator on a clock
 * running 1,000× fast: one sim minute is 60 ms, and the loopback poll interval is 10 ms.
 */
import { HarnessCredentialsHelper } from '../../harness/credentials-helper';
import { start, type Simulator } from '../../simulator';
import { afterStatusReads, readingsOf, runWait, statusReads, warmUp } from './run';

const MINUTE = 60_000;

describe('Deck Generator Wait: Wait Until Done', () => {
	let sim: Simulator;
	beforeEach(async () => {
		sim = await start({ seed: 11, clock: { speed: 1_000 } });
	});
	afterEach(async () => {
		await sim.close();
	});

	test('completed decks go to Completed with their input fields, pairedItem and the latest status body', async () => {
		const a = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 2 * MINUTE, outcome: 'succeeded' });
		const b = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 4 * MINUTE, outcome: 'succeeded' });

		const started = Date.now();
		const { result, completed, failed, stillRunning } = await runWait('wait-until-done', sim, [
			{ taskId: a, customer: 'acme' },
			{ taskId: b, customer: 'globex' },
		]);
		const runSeconds = (Date.now() - started) / 1000;

		expect(result.status).toBe('success');
		expect(failed).toEqual([]);
		expect(stillRunning).toEqual([]);
		expect(completed.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(completed[0].json).toMatchObject({ taskId: a, customer: 'acme', status: sim.profile.statusWords.succeeded, state: 'succeeded', outcome: 'completed' });
		expect(completed[1].json).toMatchObject({ taskId: b, customer: 'globex', status: sim.profile.statusWords.succeeded, state: 'succeeded', outcome: 'completed' });
		const reads = statusReads(sim);
		for (const item of completed) {
			const json = item.json as Record<string, any>;
			expect(json.statusBody).toMatchObject({ taskId: json.taskId, [sim.profile.statusMember]: sim.profile.statusWords.succeeded, progress: 100 });
			// Wherever the service put the file's link, deckUrl is it (and links lists every link with its path).
			expect(json.deckUrl).toContain(json.taskId);
			expect(json.deckUrl).toMatch(/\.pptx/);
			expect(json.links).toEqual(expect.arrayContaining([{ path: expect.any(String), url: json.deckUrl, kind: 'deck' }]));
			const own = reads.filter((r) => r.path.includes(json.taskId));
			expect(json.polls).toBe(own.length);
			expect(json.requestId).toBe(own.at(-1)!.requestId);
			// seconds from the node's start until it saw the deck done (0 when a loaded machine starts the
			// node after the deck is done), within the run; never milliseconds
			expect(json.elapsedSeconds).toBeGreaterThanOrEqual(0);
			expect(json.elapsedSeconds).toBeLessThanOrEqual(runSeconds + 0.05);
		}
		// 4 sim minutes = 240 ms at 10 ms a read: about 24 reads, never a busy loop.
		expect((completed[1].json.polls as number)).toBeLessThanOrEqual(26);
	});

	test('the credential is decrypted once per node run, not once per status read', async () => {
		await warmUp(sim);
		const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 60 * MINUTE, outcome: 'succeeded' });
		// The deck ends once it has been read six times, however slow the machine.
		const cancelEnd = afterStatusReads(sim, 6, () => sim.control.advance(60 * MINUTE));
		const decrypt = jest.spyOn(HarnessCredentialsHelper.prototype, 'getDecrypted');
		try {
			const { completed } = await runWait('wait-until-done', sim, [{ taskId }]);

			expect(completed).toHaveLength(1);
			const reads = statusReads(sim).filter((r) => r.path.includes(taskId));
			expect(reads.length).toBeGreaterThan(5);
			// Before: n8n decrypted the credential for every request (about 1 ms of CPU a read).
			expect(decrypt.mock.calls.length).toBeLessThanOrEqual(2);
		} finally {
			cancelEnd();
			decrypt.mockRestore();
		}
	});

	test('a deck that fails goes to Failed with the reason from its status body', async () => {
		const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: MINUTE, outcome: 'failed' });

		const { completed, failed } = await runWait('wait-until-done', sim, [{ taskId }]);

		expect(completed).toEqual([]);
		expect(failed).toHaveLength(1);
		expect(failed[0].pairedItem).toEqual({ item: 0 });
		expect(failed[0].json).toMatchObject({
			taskId,
			outcome: 'failed',
			state: 'failed',
			status: sim.profile.statusWords.failed,
			code: readingsOf(sim).failedCode,
			detail: 'The deck could not be generated. Start a new deck.',
		});
		expect(failed[0].json.error).toContain(taskId);
	});

	test('404: a deck this credential cannot see goes to Failed with a clear message, after one read', async () => {
		const theirs = sim.control.seedDeck({ key: sim.keys.other, durationMs: MINUTE, outcome: 'succeeded' });
		const ours = sim.control.seedDeck({ key: sim.keys.personal, durationMs: MINUTE, outcome: 'succeeded' });

		const { completed, failed } = await runWait('wait-until-done', sim, [{ taskId: theirs }, { taskId: ours }]);

		expect(completed.map((item) => item.json.taskId)).toEqual([ours]);
		expect(failed).toHaveLength(1);
		const json = failed[0].json;
		expect(failed[0].pairedItem).toEqual({ item: 0 });
		expect(json).toMatchObject({ taskId: theirs, outcome: 'failed', code: 'not_found', httpCode: 404, polls: 1 });
		expect(json.error).toMatch(new RegExp(`^Deck ${theirs}: .*\\(404 not_found\\)$`));
		expect(json.description).toContain('check the task id');
		const reads = statusReads(sim).filter((r) => r.path.includes(theirs));
		expect(reads).toHaveLength(1);
		expect(json.requestId).toBe(reads[0].requestId);
	});

	test('Max Wait passed: Still Running carries the task id, last status, state and elapsed time', async () => {
		const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 60 * MINUTE, outcome: 'succeeded' });

		const started = Date.now();
		const { completed, failed, stillRunning } = await runWait('still-running', sim, [{ taskId, customer: 'acme' }]);
		const runSeconds = (Date.now() - started) / 1000;

		expect(completed).toEqual([]);
		expect(failed).toEqual([]);
		expect(stillRunning).toHaveLength(1);
		expect(stillRunning[0].pairedItem).toEqual({ item: 0 });
		const json = stillRunning[0].json as Record<string, any>;
		expect(json).toMatchObject({ taskId, customer: 'acme', outcome: 'still_running', state: readingsOf(sim).runningState, status: sim.profile.statusWords.running });
		expect(json.statusBody.progress).toBeLessThan(100);
		// Max Wait is 0.3 s: the node kept reading until then, and reports seconds (never ms), within its run.
		expect(json.elapsedSeconds).toBeGreaterThanOrEqual(0.2);
		expect(json.elapsedSeconds).toBeLessThanOrEqual(runSeconds + 0.05);
		// One read a 10 ms interval, counted from each answer: at most 30 in 0.3 s, and more than the first.
		expect(json.polls).toBe(statusReads(sim).length);
		expect(json.polls).toBeGreaterThanOrEqual(2);
		expect(json.polls).toBeLessThanOrEqual(31);
	});

	test('Max Wait is a hard bound: every read answering 503 with a long Retry-After does not carry the node past it', async () => {
		const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 6 * 60 * MINUTE, outcome: 'succeeded' });
		// Every status read: 503 surface_disabled, Retry-After 1 s (retryAfterMs 1,000). Max Wait is 0.3 s.
		sim.control.setLimits({ retryAfterMs: 1_000 });
		sim.control.setSurface('disabled');
		const started = performance.now();

		const { stillRunning } = await runWait('still-running', sim, [{ taskId }]);

		const tookMs = performance.now() - started;
		// Before the fix the first read alone retried for 5 s (six attempts, 1 s apart).
		expect(tookMs).toBeLessThan(3_000);
		expect(stillRunning).toHaveLength(1);
		expect(stillRunning[0].json).toMatchObject({ taskId, outcome: 'still_running', lastError: { code: 'surface_disabled', httpCode: 503 } });
		// No retry waited out the 1 s Retry-After: each read is one request, and all of them fit in less
		// than that wait (the sim clock runs 1,000× fast: sim ms / 1,000 = real ms).
		const reads = statusReads(sim);
		expect(reads).toHaveLength(stillRunning[0].json.polls as number);
		expect((reads.at(-1)!.at - reads[0].at) / 1_000).toBeLessThan(1_000);
	});

	test('an unknown status word keeps polling and is reported exactly as it came', async () => {
		// still generating (nothing to hand over) under a word on no list
		const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 600 * MINUTE, outcome: 'succeeded', status: 'Awaiting-Review' });

		const { stillRunning } = await runWait('still-running', sim, [{ taskId }]);

		expect(stillRunning).toHaveLength(1);
		expect(stillRunning[0].json).toMatchObject({ taskId, status: 'Awaiting-Review', state: 'unknown', outcome: 'still_running' });
		// kept reading until Max Wait (0.3 s) rather than giving up on the word
		expect(stillRunning[0].json.polls as number).toBeGreaterThanOrEqual(2);
		expect(stillRunning[0].json.elapsedSeconds as number).toBeGreaterThanOrEqual(0.2);
	});

	test('status word override: a service word that reads as its opposite is moved by the user', async () => {
		// This service says "expired" when a deck is ready; the default map calls that a failure.
		sim.control.setStatusWords({ succeeded: 'expired' });
		const first = sim.control.seedDeck({ key: sim.keys.personal, durationMs: MINUTE, outcome: 'succeeded' });
		const second = sim.control.seedDeck({ key: sim.keys.personal, durationMs: MINUTE, outcome: 'succeeded' });

		const overridden = await runWait('status-override', sim, [{ taskId: first }]);
		const byDefault = await runWait('wait-until-done', sim, [{ taskId: second }]);

		expect(overridden.completed.map((item) => item.json)).toEqual([
			expect.objectContaining({ taskId: first, status: 'expired', state: 'succeeded', outcome: 'completed' }),
		]);
		expect(overridden.completed[0].json).not.toHaveProperty('statusNote');
		// By default the record decides: a failure word on a record with the deck to hand over and no
		// failure reason is Completed, and the item says where word and record disagree.
		expect(byDefault.completed.map((item) => item.json)).toEqual([
			expect.objectContaining({ taskId: second, status: 'expired', state: 'succeeded', outcome: 'completed', deckUrl: expect.any(String) }),
		]);
		expect(byDefault.completed[0].json.statusNote).toMatch(/"expired".*hand over.*completed.*Failed Status Words/);
	});

	test('an item without the task id field fails the node naming the item and field, before any read', async () => {
		const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: MINUTE, outcome: 'succeeded' });

		const { result } = await runWait('wait-until-done', sim, [{ taskId }, { id: 'not-a-task-field' }]);

		expect(result.status).toBe('error');
		expect((result.nodeError('Wait for Decks') as Error).message).toBe('Item 1 has no task ID in the field "taskId"');
		expect(statusReads(sim)).toEqual([]);
	});

	test('with On Error continue, items without the task id become error items on Failed; the rest are waited for', async () => {
		const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: MINUTE, outcome: 'succeeded' });

		const { result, completed, failed } = await runWait('nested-task-id', sim, [
			{ deck: { taskId } },
			{ deck: {} },
			{ taskId: 'at the wrong level' },
		]);

		expect(result.status).toBe('success');
		expect(completed.map((item) => [item.pairedItem, item.json.taskId])).toEqual([[{ item: 0 }, taskId]]);
		expect(failed.map((item) => item.pairedItem)).toEqual([{ item: 1 }, { item: 2 }]);
		// The package's error items: the facts in `error`, what to do in `message`.
		expect(failed.map((item) => item.json)).toEqual([
			{
				error: {
					message: 'Item 1 has no task ID in the field "deck.taskId"',
					outcome: 'failed',
					code: 'missing_task_id',
					field: 'deck.taskId',
				},
				message: expect.stringContaining('Set Task ID Field'),
			},
			expect.objectContaining({ error: expect.objectContaining({ message: 'Item 2 has no task ID in the field "deck.taskId"' }) }),
		]);
		expect(statusReads(sim).every((r) => r.path.includes(taskId))).toBe(true);
	});
});
