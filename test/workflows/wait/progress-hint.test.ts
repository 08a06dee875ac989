/**
 * Wait Until Done in a workflow that does not save its progress says so at run time (issue 15): a
 * restart while it waits loses everything before it in n8n's default mode.
 */
import { runWorkflow, type WorkflowJson } from '../../harness';
import { start, type Simulator } from '../../simulator';
import { loadWorkflow, WAIT_NODE } from './run';

/** The hints n8n keeps with the Wait node's run (shown in the output panel). */
async function hintsOf(sim: Simulator, workflow: WorkflowJson, taskId: string): Promise<string[]> {
	const result = await runWorkflow(workflow, {
		credentials: { deckGenApi: { apiKey: sim.keys.personal, baseUrl: sim.url } },
		inputItems: [{ json: { taskId } }],
	});
	expect(result.status).toBe('success');
	const run = result.runData[WAIT_NODE].at(-1) as { hints?: Array<{ message: string }> };
	return (run.hints ?? []).map((hint) => hint.message);
}

const withSettings = (name: string, settings: Record<string, unknown>): WorkflowJson => ({
	...loadWorkflow(name),
	settings: { ...(loadWorkflow(name).settings ?? {}), ...settings },
});

describe('Deck Generator Wait: the progress hint', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await start({ seed: 15, clock: { manual: true } });
	});
	afterAll(async () => await sim.close());

	const doneDeck = () => sim.control.seedDeck({ key: sim.keys.personal, durationMs: 0, outcome: 'succeeded' });

	test('Wait Until Done without "Save execution progress" tells the user what a restart does and what to turn on', async () => {
		for (const settings of [{}, { saveExecutionProgress: 'DEFAULT' }, { saveExecutionProgress: false }]) {
			const hints = await hintsOf(sim, withSettings('wait-until-done', settings), doneDeck());
			expect(hints).toEqual([expect.stringContaining('does not save execution progress')]);
			expect(hints[0]).toContain('Save execution progress');
			expect(hints[0]).toContain('Retry replays those purchases without charging again');
		}
	});

	test('no hint when the workflow saves its progress, nor for Check Once (it never holds the execution)', async () => {
		expect(await hintsOf(sim, withSettings('wait-until-done', { saveExecutionProgress: true }), doneDeck())).toEqual([]);
		expect(await hintsOf(sim, withSettings('check-once', {}), doneDeck())).toEqual([]);
	});
});
