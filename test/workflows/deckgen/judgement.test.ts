/**
 * A status word is never the whole truth (issue 26, point 1). The contract warns that one status word
 * "reads as the opposite of what it means" and does not say which; so every node judges a deck from
 * its whole record (shared/status/judge.ts judgeStatus), and says where word and record disagree. Each case
 * runs Get Status, Download, the Wait node in both modes and the tool's answer against the simulator
 * over real HTTP, on the profile of the jest project (reference, B, D) with one reading flipped.
 *
 * And a link is found wherever the service puts it (point 3): a 402 option's link under `href`,
 * `link.url` or HAL `_links` reaches the Checkout item and the message a person reads.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runWorkflow, type WorkflowJson } from '../../harness';
import { start, type ProfileChoices, type Simulator } from '../../simulator';
import { credentialFor } from '../credential';
import { callTool, exampleTool } from '../tool/tool';
import { loadWorkflow as loadWaitWorkflow, readingsOf, statusReads, WAIT_NODE } from '../wait/run';
import { brief, continueErrorOutput, jsonOf, loadWorkflow, patchNode, runWith } from './fixture';

const MINUTE = 60_000;

/** A Wait workflow of test/workflows/wait with its node's mode and options set. */
async function runWaitWith(sim: Simulator, name: string, taskIds: string[], parameters: IDataObject = {}) {
	const workflow = loadWaitWorkflow(name);
	const node = workflow.nodes.find((n) => n.name === WAIT_NODE)!;
	const options = { ...(node.parameters.options as IDataObject), ...(parameters.options as IDataObject) } as INodeParameters;
	node.parameters = { ...node.parameters, ...parameters, options };
	const result = await runWorkflow(workflow, {
		credentials: { deckGenApi: credentialFor(sim, sim.keys.personal) },
		inputItems: taskIds.map((taskId) => ({ json: { taskId } })),
	});
	const [completed = [], failed = [], stillRunning = []] = result.outputs(WAIT_NODE);
	return { result, completed: jsonOf(completed), failed: jsonOf(failed), stillRunning: jsonOf(stillRunning) };
}

/** Get Status (or Download) of one deck, its options set, on the error output when it fails. */
async function runDeckOperation(sim: Simulator, workflow: 'get-status' | 'download', taskId: string, options: IDataObject = {}) {
	const base = continueErrorOutput(loadWorkflow(workflow)) as WorkflowJson;
	const node = base.nodes.find((n) => n.name === 'Deck Generator')!;
	const merged = { ...(node.parameters.options as IDataObject), ...options } as INodeParameters;
	const patched = patchNode(base, 'Deck Generator', { parameters: { options: merged } });
	return await runWith(sim, patched, sim.keys.personal, [{ taskId }]);
}

/** Starts the profile of this jest project with its words for the deck's phases replaced where given. */
async function simWith(words: Partial<Simulator['profile']['statusWords']>, choices: Partial<ProfileChoices> = {}, clock = { speed: 1_000 }) {
	const sim = await start({ seed: 26, clock, choices });
	sim.control.setStatusWords(words);
	return sim;
}

describe('a success word with nothing to hand over is not Completed', () => {
	// This deployment says "done" while it is still working: progress below 100, no result, no link.
	let sim: Simulator;
	beforeEach(async () => {
		sim = await simWith({ queued: 'done', running: 'done' });
	});
	afterEach(async () => await sim.close());

	test('Wait Until Done keeps polling; at Max Wait the deck is Still Running with what was claimed and what was missing', async () => {
		const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 600 * MINUTE, outcome: 'succeeded' });

		const { completed, failed, stillRunning } = await runWaitWith(sim, 'still-running', [taskId]);

		expect(completed).toEqual([]);
		expect(failed).toEqual([]);
		expect(stillRunning).toHaveLength(1);
		expect(stillRunning[0]).toMatchObject({ taskId, status: 'done', state: 'unknown', outcome: 'still_running' });
		expect(stillRunning[0].statusNote).toMatch(/The service said "done", but the record says it is still in progress \(progress: \d+\) and has nothing to hand over \(no result, link or file\)/);
		expect(stillRunning[0].statusNote).toMatch(/Succeeded Status Words.*Running Status Words/);
		expect((stillRunning[0].statusBody as IDataObject).progress).toBeLessThan(100);
		// it went on reading instead of taking the word for it
		expect(stillRunning[0].polls as number).toBeGreaterThanOrEqual(2);
	});

	test('Wait Until Done completes the deck once its record has the file, not at the first "done"', async () => {
		// 60 sim minutes (3.6 s here): the first reads certainly find it still working, however slow the machine
		const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 60 * MINUTE, outcome: 'succeeded' });

		const { completed } = await runWaitWith(sim, 'wait-until-done', [taskId]);

		expect(completed).toHaveLength(1);
		expect(completed[0]).toMatchObject({ taskId, state: 'succeeded', outcome: 'completed', deckUrl: expect.any(String) });
		// (the note of profile D's finished word, "processed", is another reading: see the last describe)
		if (!readingsOf(sim).completedNote) expect(completed[0]).not.toHaveProperty('statusNote');
		expect(completed[0].polls as number).toBeGreaterThanOrEqual(2);
		expect(statusReads(sim).length).toBe(completed[0].polls);
	});

	test('Check Once routes it to Still Running, with the note', async () => {
		const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 600 * MINUTE, outcome: 'succeeded' });
		const { stillRunning } = await runWaitWith(sim, 'check-once', [taskId]);
		expect(stillRunning).toEqual([expect.objectContaining({ taskId, status: 'done', state: 'unknown', statusNote: expect.stringContaining('nothing to hand over') })]);
	});

	test('Get Status says state unknown with the note; Download refuses before any file request', async () => {
		const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 600 * MINUTE, outcome: 'succeeded' });

		const status = await runDeckOperation(sim, 'get-status', taskId);
		const [item] = jsonOf(status.output('Success'));
		expect(item).toMatchObject({ taskId, state: 'unknown', statusNote: expect.stringContaining('"done"') });

		const download = await runDeckOperation(sim, 'download', taskId);
		const [error] = jsonOf(download.output('Errors'));
		expect((error.error as IDataObject).message).toMatch(/is not finished \(status "done"\)/);
		expect(String(error.message) + JSON.stringify(error.error)).toMatch(/nothing to hand over/);
		expect(sim.ledger.requests.filter((r) => /\/files\//.test(r.path))).toEqual([]);
	});

	test('as AI tools, Get Deck Status and Check Deck tell the model it is not finished, and why', async () => {
		const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 600 * MINUTE, outcome: 'succeeded' });
		for (const tool of ['Get Deck Status', 'Check Deck']) {
			const { answer, elsewhere } = await callTool(sim, exampleTool(tool), { taskId });
			expect(elsewhere).toBe(0);
			expect(answer[0]).toMatchObject({ taskId, state: 'unknown', statusNote: expect.stringContaining('nothing to hand over') });
			expect(answer[0].message).toMatch(/is not finished yet\. The service said "done", but the record says it is still in progress.*nothing to hand over.*\. Treat it as still running/);
		}
	});

	test('the person settles it once: "done" in Running Status Words drops the note; in Succeeded Status Words it is believed', async () => {
		const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 600 * MINUTE, outcome: 'succeeded' });

		const running = await runWaitWith(sim, 'check-once', [taskId], { options: { runningWords: 'done' } });
		expect(running.stillRunning).toEqual([expect.objectContaining({ taskId, state: 'running' })]);
		expect(running.stillRunning[0]).not.toHaveProperty('statusNote');

		// A deployment that mails its decks (no link in the record) says so with its own success word.
		const believed = await runWaitWith(sim, 'check-once', [taskId], { options: { succeededWords: 'done' } });
		expect(believed.completed).toEqual([expect.objectContaining({ taskId, state: 'succeeded', outcome: 'completed' })]);

		const status = await runDeckOperation(sim, 'get-status', taskId, { runningWords: 'done' });
		expect(jsonOf(status.output('Success'))[0]).toMatchObject({ state: 'running' });
		expect(jsonOf(status.output('Success'))[0]).not.toHaveProperty('statusNote');
	});
});

describe.each<ProfileChoices['failureMember']>(['error', 'failureReason', 'errors', 'failure'])(
	'a success word whose record carries a failure reason under %s',
	(failureMember) => {
		let sim: Simulator;
		let taskId: string;
		beforeAll(async () => {
			// This deployment says "completed" for a deck that failed: the reason is in the record.
			sim = await simWith({ failed: 'completed' }, { failureMember }, { manual: true } as never);
			taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: MINUTE, outcome: 'failed' });
			sim.control.advance(2 * MINUTE);
		});
		afterAll(async () => await sim.close());

		test('Wait (both modes) puts it on Failed with the service reason and says where word and record disagree', async () => {
			for (const workflow of ['wait-until-done', 'check-once']) {
				const { completed, failed } = await runWaitWith(sim, workflow, [taskId]);
				expect(completed).toEqual([]);
				expect(failed).toHaveLength(1);
				expect(failed[0]).toMatchObject({ taskId, status: 'completed', state: 'failed', outcome: 'failed', detail: 'The deck could not be generated. Start a new deck.' });
				expect(failed[0].statusNote).toMatch(/The service said "completed", but the record carries a failure reason \(.*\): reported as failed/);
			}
		});

		test('Get Status: state failed with failureReason; Download refuses it as failed', async () => {
			const status = await runDeckOperation(sim, 'get-status', taskId);
			expect(jsonOf(status.output('Success'))[0]).toMatchObject({ state: 'failed', failureReason: 'The deck could not be generated. Start a new deck.', statusNote: expect.any(String) });

			const download = await runDeckOperation(sim, 'download', taskId);
			const [error] = jsonOf(download.output('Errors'));
			expect((error.error as IDataObject).message).toMatch(/failed \(status "completed"; The deck could not be generated/);
		});
	},
);

describe('a word on no list, or a failure word, on a record with the deck to hand over is Completed', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await simWith({ succeeded: 'processed' }, {}, { manual: true } as never);
	});
	afterAll(async () => await sim.close());

	test('Wait and Get Status report it completed with the note; Download fetches the file', async () => {
		const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: MINUTE, outcome: 'succeeded' });
		sim.control.advance(2 * MINUTE);

		const { completed } = await runWaitWith(sim, 'check-once', [taskId]);
		expect(completed).toEqual([expect.objectContaining({ taskId, status: 'processed', state: 'succeeded', outcome: 'completed' })]);
		expect(completed[0].statusNote).toMatch(/The service said "processed", but the record has the deck to hand over \(.+\), and its file is there: reported as completed/);

		const status = await runDeckOperation(sim, 'get-status', taskId);
		expect(jsonOf(status.output('Success'))[0]).toMatchObject({ state: 'succeeded', statusNote: expect.any(String) });

		const download = await runDeckOperation(sim, 'download', taskId);
		expect(jsonOf(download.output('Success'))[0]).toMatchObject({ outcome: 'success', taskId, fileSize: expect.any(Number) });
	});
});

describe.each<[ProfileChoices['optionLinks'], ProfileChoices['paymentCta']]>([
	['href', 'top-level'],
	['nested', 'options-only'],
	['hal', 'top-level'],
	['hal', 'options-strings'],
])('a 402 whose options give their link under %s (cta %s)', (optionLinks, paymentCta) => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await start({ seed: 27, clock: { manual: true }, choices: { optionLinks, paymentCta } });
	});
	afterAll(async () => await sim.close());

	test('the Checkout item and its message carry the link the service gave', async () => {
		const result = await runWith(sim, continueErrorOutput(loadWorkflow('create')), sim.keys.neverPurchased, [brief()]);
		const [item] = jsonOf(result.output('Checkout'));
		const first = 'https://app.deckgen.example/checkout/credits?pack=100';
		expect(item).toMatchObject({ cta: 'top_up', actionUrl: first });
		expect(item.message).toContain(first);
		expect(item.links).toEqual(expect.arrayContaining([expect.objectContaining({ url: first })]));
		if (paymentCta !== 'options-strings') expect(item.message).toMatch(/Next: Buy 100 credits https:/);
	});
});

describe('a running deck whose record already carries its file links (given before the file is ready)', () => {
	// The record's progress says it is not done: the link is not yet something to hand over. Where this
	// profile's running word is a success word (profile D's "done"), word and file would outweigh the progress
	// (issue 31, last describe), so the person lists the word under Running Status Words, as such a deployment must.
	let sim: Simulator;
	beforeEach(async () => {
		sim = await start({ seed: 28, clock: { speed: 1_000 }, choices: { linksWhileRunning: true } });
	});
	afterEach(async () => await sim.close());

	const settled = () => (readingsOf(sim).runningState === 'unknown' ? { runningWords: sim.profile.statusWords.running } : {});
	const runningState = () => (readingsOf(sim).runningState === 'unknown' ? 'running' : readingsOf(sim).runningState);

	test('Check Once and Get Status say it is not finished; Wait Until Done completes it once it is done, not at the first read', async () => {
		const running = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 600 * MINUTE, outcome: 'succeeded' });
		sim.control.holdDeck(running, true);
		sim.control.advance(60 * MINUTE); // past its queued start: running, progress 10
		const once = await runWaitWith(sim, 'check-once', [running], { options: settled() });
		expect(once.completed).toEqual([]);
		// deckUrl is the deck or nothing: the file's future link stays among the links, and under the service's own name
		expect(once.stillRunning).toEqual([expect.objectContaining({ taskId: running, state: runningState(), links: expect.arrayContaining([expect.objectContaining({ url: expect.stringMatching(/\.pptx/) })]) })]);
		expect(once.stillRunning[0]).not.toHaveProperty('deckUrl');
		const status = await runDeckOperation(sim, 'get-status', running, settled());
		expect(jsonOf(status.output('Success'))[0]).toMatchObject({ state: runningState() });
		expect(jsonOf(status.output('Success'))[0]).not.toHaveProperty('deckUrl');

		// 60 sim minutes (3.6 s here): the first reads find it still working, its link already there
		const soon = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 60 * MINUTE, outcome: 'succeeded' });
		const { completed } = await runWaitWith(sim, 'wait-until-done', [soon], { options: settled() });
		expect(completed).toEqual([expect.objectContaining({ taskId: soon, state: 'succeeded', outcome: 'completed' })]);
		expect(completed[0].polls as number).toBeGreaterThanOrEqual(2);
		expect((completed[0].statusBody as IDataObject).progress).toBe(100);
	});

	test('the contradiction decided (issue 31): a success word beside the file outweighs the progress; the Running list settles a deployment that says "done" while working', async () => {
		sim.control.setStatusWords({ running: 'done' });
		const running = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 600 * MINUTE, outcome: 'succeeded' });
		sim.control.holdDeck(running, true);
		sim.control.advance(60 * MINUTE);
		const believed = await runWaitWith(sim, 'check-once', [running]);
		expect(believed.completed).toEqual([expect.objectContaining({ taskId: running, state: 'succeeded', statusNote: expect.stringMatching(/though it also carries a progress short of its end \(progress: \d+\): reported as completed/) })]);
		const settledByList = await runWaitWith(sim, 'check-once', [running], { options: { runningWords: 'done' } });
		expect(settledByList.stillRunning).toEqual([expect.objectContaining({ taskId: running, state: 'running' })]);
	});
});
