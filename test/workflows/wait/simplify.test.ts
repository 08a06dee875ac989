/**
 * Simplify (issue 22): a Check Once loop stores every item n8n passes at each wait, so the option keeps
 * only what the next step needs: the deck (taskId, status, state, outcome), its link (deckUrl), its file,
 * and on Failed why. Off (the default, and every workflow saved before it existed) keeps the full item.
 */
import type { IDataObject } from 'n8n-workflow';

import type { WorkflowJson } from '../../harness';
import { runWorkflow } from '../../harness';
import { start, type Simulator } from '../../simulator';
import { loadWorkflow, readingsOf, WAIT_NODE } from './run';

const MINUTE = 60_000;

function withSimplify(simplify: boolean | undefined): WorkflowJson {
	const wf = loadWorkflow('download-check-once');
	for (const node of wf.nodes) {
		if (node.name !== WAIT_NODE) continue;
		const options = node.parameters.options as IDataObject;
		if (simplify === undefined) delete options.simplify;
		else options.simplify = simplify;
	}
	return wf;
}

describe('Deck Generator Wait: Simplify', () => {
	let sim: Simulator;
	beforeEach(async () => {
		sim = await start({ seed: 22, clock: { manual: true }, deckFileBytes: 1280 });
	});
	afterEach(async () => {
		await sim.close();
	});

	async function run(simplify: boolean | undefined) {
		const done = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 0, outcome: 'succeeded' });
		const failedDeck = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 0, outcome: 'failed' });
		const running = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 20 * MINUTE, outcome: 'succeeded' });
		const theirs = sim.control.seedDeck({ key: sim.keys.other, durationMs: 0, outcome: 'succeeded' });
		const input = [
			{ taskId: done, outcome: 'success', idempotencyKey: 'k-0', requestId: 'req_create_0', brief: 'Q3 review' },
			{ taskId: failedDeck, brief: 'Q4 plan' },
			// from a purchase journal's row (issue 44): its id rides along, simplified or not, and its purchase's key
			// (issue 51: the journal claims by it); a key on any other item goes, as the Completed one shows
			{ taskId: running, brief: 'Hiring', rowId: 42, idempotencyKey: 'k-row-42' },
			{ taskId: theirs, brief: 'Not ours' },
		];
		const result = await runWorkflow(withSimplify(simplify), {
			credentials: { deckGenApi: { apiKey: sim.keys.personal, baseUrl: sim.url } },
			inputItems: input.map((json) => ({ json })),
		});
		const [completed = [], failed = [], stillRunning = []] = result.outputs(WAIT_NODE);
		return { done, failedDeck, running, theirs, completed, failed, stillRunning };
	}

	test('on: each item carries the deck, its link and file, or why it failed, and nothing else', async () => {
		const { done, failedDeck, running, theirs, completed, failed, stillRunning } = await run(true);

		expect(completed).toHaveLength(1);
		expect(completed[0].pairedItem).toEqual({ item: 0 });
		expect(completed[0].json).toEqual({
			taskId: done,
			status: sim.profile.statusWords.succeeded,
			state: 'succeeded',
			outcome: 'completed',
			deckUrl: expect.stringContaining(done),
			// a finished deck's word that is no default success word: Completed through its file, and said so
			...(readingsOf(sim).completedNote ? { statusNote: expect.stringContaining(String(sim.profile.statusWords.succeeded)) } : {}),
		});
		// the file itself, for Slack or email; its name, type and size only in its metadata
		expect(Buffer.from(completed[0].binary!.data.data, 'base64').length).toBe(1280);
		expect(completed[0].binary!.data).toMatchObject({ fileName: `deck-${done}-v1.pptx`, mimeType: expect.any(String) });

		expect(stillRunning.map((item) => item.pairedItem)).toEqual([{ item: 2 }]);
		// (profile B's status answer of a running deck links the deck's app page: deckUrl, as on the full item)
		const { deckUrl, ...running0 } = stillRunning[0].json;
		// a Check Once loop's bound goes with it from check to check (issue 45)
		expect(running0).toEqual({
			taskId: running,
			status: sim.profile.statusWords.queued,
			state: readingsOf(sim).queuedState,
			outcome: 'still_running',
			waitingSince: expect.any(String),
			pastMaxWait: false,
			rowId: 42,
			idempotencyKey: 'k-row-42',
		});
		if (deckUrl !== undefined) expect(deckUrl).toEqual(expect.stringContaining(running));

		expect(failed.map((item) => item.pairedItem)).toEqual([{ item: 1 }, { item: 3 }]);
		const [deckFailed, notFound] = failed.map((item) => item.json);
		expect(Object.keys(deckFailed).filter((key) => key !== 'deckUrl').sort()).toEqual(
			['code', 'detail', 'error', 'outcome', 'requestId', 'state', 'status', ...(readingsOf(sim).failedNote ? ['statusNote'] : []), 'taskId'],
		);
		expect(deckFailed).toMatchObject({ taskId: failedDeck, outcome: 'failed', state: 'failed', code: readingsOf(sim).failedCode });
		expect(notFound).toMatchObject({ taskId: theirs, outcome: 'failed', code: 'not_found', httpCode: 404, requestId: expect.any(String), error: expect.stringContaining(theirs) });
		for (const json of [deckFailed, notFound]) for (const gone of ['brief', 'statusBody', 'links', 'polls', 'elapsedSeconds', 'idempotencyKey']) expect(json).not.toHaveProperty(gone);
	});

	test('off or absent (workflows saved before the option): the full item, input fields, status answer and links included', async () => {
		for (const simplify of [undefined, false]) {
			const { done, completed, stillRunning } = await run(simplify);
			expect(completed[0].json).toMatchObject({
				taskId: done,
				brief: 'Q3 review',
				idempotencyKey: 'k-0',
				statusBody: expect.objectContaining({ taskId: done }),
				links: expect.arrayContaining([expect.objectContaining({ url: expect.stringContaining(done) })]),
				polls: 1,
				fileSize: 1280,
			});
			expect(stillRunning[0].json).toMatchObject({ brief: 'Hiring', statusBody: expect.any(Object), elapsedSeconds: expect.any(Number) });
		}
	});
});
