/**
 * Runs a wait workflow of this folder with the harness against a simulator, and reads the
 * three outputs of the "Wait for Decks" node.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { runWorkflow, type RunResult, type WorkflowJson } from '../../harness';
import { DEFAULT_STATUS_WORDS } from '../../../nodes/shared/status';
import type { Simulator } from '../../simulator';
import { credentialFor } from '../credential';

export const WAIT_NODE = 'Wait for Decks';

export function loadWorkflow(name: string): WorkflowJson {
	return JSON.parse(readFileSync(path.join(__dirname, `${name}.workflow.json`), 'utf8')) as WorkflowJson;
}

export interface WaitRun {
	result: RunResult;
	completed: INodeExecutionData[];
	failed: INodeExecutionData[];
	stillRunning: INodeExecutionData[];
}

export async function runWait(
	workflow: string,
	sim: Simulator,
	items: IDataObject[],
	options: { key?: string; signal?: AbortSignal } = {},
): Promise<WaitRun> {
	const result = await runWorkflow(loadWorkflow(workflow), {
		credentials: { deckGenApi: credentialFor(sim, options.key ?? sim.keys.personal) },
		inputItems: items.map((json) => ({ json })),
		signal: options.signal,
	});
	const [completed = [], failed = [], stillRunning = []] = result.outputs(WAIT_NODE);
	return { result, completed, failed, stillRunning };
}

/** Status reads the simulator received, in order. */
export function statusReads(sim: Simulator) {
	return sim.ledger.requests.filter((r) => r.method === 'GET' && /^\/v1\/decks\/[^/]+\/status$/.test(r.path));
}

/**
 * Runs `action` once the simulator has seen `count` status reads (looked at every millisecond), so a
 * test acts on the node's progress, not on a timer a loaded machine fires late. Returns a cancel.
 */
export function afterStatusReads(sim: Simulator, count: number, action: () => void): () => void {
	const timer = setInterval(() => {
		if (statusReads(sim).length < count) return;
		clearInterval(timer);
		action();
	}, 1);
	return () => clearInterval(timer);
}

/**
 * Loads n8n-core and the node once (a Check Once read of a deck that does not exist), so the
 * first timed test of a file does not include the harness's start-up, then clears the ledger.
 */
export async function warmUp(sim: Simulator): Promise<void> {
	await runWait('check-once', sim, [{ taskId: 'tsk_warm_up' }]);
	sim.control.resetLedger();
}

/**
 * What the nodes make of the words of the simulator's profile (shared/status/judge.ts judgeStatus): a running
 * or queued word that is a success word of the default map is not believed with nothing to hand over
 * (state `unknown`, with a `statusNote`); a finished deck's word that is no default success word is
 * Completed through its files, with a `statusNote`; a failed deck's word that is no default failure word is
 * Failed through its reason, with a `statusNote`; a failed deck's code is the one its record gives.
 */
export function readingsOf(sim: Simulator): { queuedState: string; runningState: string; completedNote: boolean; failedNote: boolean; failedCode: string } {
	const successWord = (word: string) => DEFAULT_STATUS_WORDS.succeeded.includes(word.toLowerCase());
	const { statusWords, failureMember } = sim.profile;
	return {
		queuedState: successWord(statusWords.queued) ? 'unknown' : 'running',
		runningState: successWord(statusWords.running) ? 'unknown' : 'running',
		completedNote: !successWord(statusWords.succeeded),
		failedNote: !DEFAULT_STATUS_WORDS.failed.includes(statusWords.failed.toLowerCase()),
		failedCode: failureMember === 'error' || failureMember === 'errors' ? 'generation_failed' : 'deck_failed',
	};
}
