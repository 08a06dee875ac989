/**
 * The contract says a create answer is "a body carrying `taskId`" and shows no status fields: a
 * service may wrap its success bodies in an envelope (`{ data: {…}, meta }`, JSON:API style). A
 * node fitted to bare bodies bought the deck and then failed every item ("answered without
 * taskId"), and the Wait node never found the status word and polled until Max Wait. The
 * simulator's `successEnvelope: 'data'` choice wraps every spending answer and every status read;
 * `jsonapi` puts them under JSON:API's `data.attributes` (issue 26: a reading beyond its four points,
 * where a failed deck's reason sat out of every reader's sight and the deck polled until Max Wait).
 */
import { start, type Simulator } from '../../simulator';
import { runWait } from '../wait/run';
import { brief, jsonOf, loadWorkflow, runWith } from './fixture';

describe.each(['bare', 'data', 'jsonapi'] as const)('success bodies %s', (successEnvelope) => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await start({ seed: 73, clock: { manual: true }, choices: { successEnvelope } });
	});
	afterAll(async () => await sim.close());

	test('Create → Get Status → Wait (Check Once): taskId, state and deckUrl at the top level; one charge', async () => {
		const created = await runWith(sim, loadWorkflow('create'), sim.keys.personal, [brief()]);
		expect(created.status).toBe('success');
		const [deck] = jsonOf(created.output('Success'));
		expect(deck).toMatchObject({ outcome: 'success', taskId: expect.stringMatching(/^tsk_/) });
		const taskId = deck.taskId as string;
		expect(sim.ledger.chargesFor(deck.idempotencyKey as string)).toHaveLength(1);

		sim.control.advance(60 * 60_000);
		const status = await runWith(sim, loadWorkflow('get-status'), sim.keys.personal, [{ taskId }]);
		const [read] = jsonOf(status.output('Success'));
		expect(read).toMatchObject({ taskId, state: 'succeeded', deckUrl: expect.stringMatching(/^http/) });

		const waited = await runWait('check-once', sim, [{ taskId }]);
		expect(waited.completed.map((item) => item.json.taskId)).toEqual([taskId]);
		expect(waited.completed[0].json).toMatchObject({ state: 'succeeded', deckUrl: expect.stringMatching(/^http/) });
	});

	test('a failed deck is Failed at once, with the reason its record gives inside the envelope', async () => {
		const failedDeck = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 0, outcome: 'failed' });
		const waited = await runWait('check-once', sim, [{ taskId: failedDeck }]);
		expect(waited.failed.map((item) => item.json)).toEqual([
			expect.objectContaining({ taskId: failedDeck, state: 'failed', detail: 'The deck could not be generated. Start a new deck.' }),
		]);
	});
});

/** Status fields are not shown: the word may sit inside an object (`"status": {"code": "completed"}`). */
describe.each(['text', 'object'] as const)('the status word as %s', (statusWordShape) => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await start({ seed: 74, clock: { manual: true }, choices: { statusWordShape } });
	});
	afterAll(async () => await sim.close());

	test('Get Status and the Wait node (Check Once) read the state; a finished deck completes', async () => {
		const done = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 0, outcome: 'succeeded' });
		const failedDeck = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 0, outcome: 'failed' });
		const status = await runWith(sim, loadWorkflow('get-status'), sim.keys.personal, [{ taskId: done }]);
		expect(jsonOf(status.output('Success'))[0]).toMatchObject({ taskId: done, state: 'succeeded' });

		const waited = await runWait('check-once', sim, [{ taskId: done }, { taskId: failedDeck }]);
		expect(waited.completed.map((item) => item.json.taskId)).toEqual([done]);
		expect(waited.failed.map((item) => item.json.taskId)).toEqual([failedDeck]);
	});
});

/** Status fields are not shown: a service may give its own files as root-relative paths. */
describe('file links given as root-relative paths', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await start({ seed: 77, clock: { manual: true }, choices: { fileLinks: 'api-relative', resultLinks: 'files', statusLinks: 'none' } });
	});
	afterAll(async () => await sim.close());

	test('Get Status offers them as absolute links on the Base URL; Download fetches the file with the key', async () => {
		const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 0, outcome: 'succeeded' });
		const status = await runWith(sim, loadWorkflow('get-status'), sim.keys.personal, [{ taskId }]);
		const [read] = jsonOf(status.output('Success'));
		expect(read.deckUrl).toBe(`${sim.url}/v1/decks/${taskId}/files/deck.pptx`);
		expect(read.links).toContainEqual({ path: 'files.pdf', url: `${sim.url}/v1/decks/${taskId}/files/deck.pdf`, kind: 'file' });

		const downloaded = await runWith(sim, loadWorkflow('download'), sim.keys.personal, [{ taskId, link: 'files.pdf' }]);
		const [file] = downloaded.output('Success');
		expect(file.json).toMatchObject({ outcome: 'success', mimeType: 'application/pdf' });
		expect(Buffer.from(file.binary!.data.data, 'base64').subarray(0, 4).toString('latin1')).toBe('%PDF');
	});
});
