/**
 * Issue 22: the execution's purchase record (the node's execution context, which names every purchase
 * if the node fails) forgets a bought deck once its taskId is in the run's output: n8n saves the
 * context with every save of the execution, a Check Once loop saves it at every wait, and the output
 * already holds the deck. A failing run still names every purchase (purchases-named.test.ts).
 */
import { start, type Simulator } from '../../simulator';
import { brief, DECK_NODE, loadWorkflow, runWith } from './fixture';

describe('Deck Generator: the purchase record after a run that delivered its decks', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await start({ seed: 23, clock: { manual: true }, limits: { maxConcurrentDecks: 1000 } });
	});
	afterAll(async () => await sim.close());

	test('every bought deck reached Success: the saved execution context holds no purchase', async () => {
		const { key } = sim.control.createAccount({ balance: 100, subscriber: true });
		const result = await runWith(sim, loadWorkflow('create'), key, [brief({ title: 'One' }), brief({ title: 'Two' })]);
		expect(result.status).toBe('success');
		expect(result.output('Success').map((i) => i.json.taskId)).toEqual([expect.any(String), expect.any(String)]);
		const context = result.runExecutionData.executionData?.contextData[`node:${DECK_NODE}`] ?? {};
		expect(context).not.toHaveProperty('deckgenPurchases');
		expect(JSON.stringify(result.runExecutionData.executionData?.contextData ?? {})).not.toContain('tsk_');
	});
});
