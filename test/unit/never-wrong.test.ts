/**
 * Issue 50, never wrong: a deck is Completed only when it is done and Failed only when it failed. Each class the
 * issue reproduced (a part of the job speaking for the job, a flag that says the opposite, a long record, outputs
 * that are not the deck, a failure word that is a stage), judged on one read (judgeStatus, settleFileCheck), with
 * its over-reach side: what must still read as it did. The readers' side (every reader, every read of a deck's
 * life, the decoy fixture and the simulator's real shapes) is test/workflows/deckgen/never-wrong.test.ts.
 */
import { judgeStatus, settleFileCheck, type StatusJudgement } from '../../nodes/shared/status';

const FILE = 'https://files.example/decks/t-1/deck.pptx';

/** One read, its file checked where the record asks for it: there, or not (yet). */
const judged = (body: Record<string, unknown>, there = true): StatusJudgement => {
	const judgement = judgeStatus(body);
	return judgement.fileToCheck ? settleFileCheck(judgement, there ? { there: true } : { there: false, why: 'the file host answered 404' }) : judgement;
};

describe('2. a flag that says the opposite is no failure', () => {
	test.each([
		['has_non_fatal_errors', { status: 'processing', has_non_fatal_errors: true }],
		['isNonFatal', { status: 'processing', isNonFatal: true }],
		['ignore_fatal_errors', { status: 'processing', ignore_fatal_errors: true }],
		['failOnError (a setting)', { status: 'processing', failOnError: true }],
		['fatal_errors_allowed (a setting)', { status: 'processing', fatal_errors_allowed: true }],
		['not_failed', { status: 'processing', not_failed: true }],
	])('%s: a running deck stays running', (_case, body) => {
		expect(judgeStatus(body)).toMatchObject({ state: 'running' });
		expect(judgeStatus(body)).not.toHaveProperty('failureReason');
	});

	test.each([
		['fatalErrorEncountered', { done: false, fatalErrorEncountered: true }],
		['has_errors', { status: 'processing', has_errors: true }],
		['isFailed', { status: 'processing', isFailed: true }],
		['errorOccurred', { status: 'processing', errorOccurred: true }],
		['fatal', { status: 'processing', fatal: true }],
		['has_fatal_error', { status: 'processing', has_fatal_error: true }],
	])('over-reach: %s still fails it', (name, body) => {
		expect(judgeStatus(body)).toMatchObject({ state: 'failed', failureAt: name });
	});
});
