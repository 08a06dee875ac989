/**
 * A deck's status read once, as Get Status and Download read it (the Wait node reads through the poller, which
 * does the same per read): judged (shared/status), its file checked where only the file can say, and what the
 * output pane says about the reading.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { judgeStatus, pathMissHint, settleFileCheck, suggestionsHint, unknownWordHint, type StatusJudgement } from '../status';
import { deckPath } from '../transport';
import { noteUnconfirmedFailure, unconfirmedFailure } from '../unconfirmedFailures';
import { checkDeckFile } from './download';
import { hintOnce } from './hints';
import type { Reading } from './reading';

/** The URL a deck's status is read from: root-relative links in it are resolved against it. */
export const statusUrlOf = (baseUrl: string, taskId: string) => `${baseUrl}${deckPath(taskId, 'status')}`;

/**
 * The failure word with no reason an earlier read of this deck gave: on the input item (`failureToConfirm`, from a
 * Get Status or Check Once before it in a loop), else remembered by this process (unconfirmedFailures.ts). This
 * read confirms it (issue 50).
 */
export function failureToConfirmOf(ctx: IExecuteFunctions, itemIndex: number, taskId: string, credentialId: string): string | undefined {
	const json = ctx.getInputData()[itemIndex]?.json;
	return json?.taskId === taskId && typeof json.failureToConfirm === 'string' ? json.failureToConfirm : unconfirmedFailure(credentialId, taskId);
}

/** One status answer judged, with the deck's file checked (a ranged GET) where the record would be completed on its link alone. */
export async function judgeDeckStatus(
	ctx: IExecuteFunctions,
	baseUrl: string,
	taskId: string,
	answer: { body: Record<string, unknown>; httpStatus: number },
	reading: Reading,
	item: { itemIndex: number; credentialId: string },
): Promise<StatusJudgement> {
	const failureToConfirm = failureToConfirmOf(ctx, item.itemIndex, taskId, item.credentialId);
	const judgement = judgeStatus(answer.body, { ...reading, resolveAgainst: statusUrlOf(baseUrl, taskId), httpStatus: answer.httpStatus, ...(failureToConfirm !== undefined ? { failureToConfirm } : {}) });
	const settled = judgement.fileToCheck ? settleFileCheck(judgement, await checkDeckFile(ctx, baseUrl, judgement.fileToCheck.url)) : judgement;
	noteUnconfirmedFailure(item.credentialId, taskId, settled.failureToConfirm);
	addReadingHints(ctx, [{ taskId, judgement: settled }]);
	return settled;
}

/**
 * The output pane names each word on no list that decks were left on (the Wait node's decks that kept sending
 * it, `unknownWord`; a single read's own word otherwise), each path the user set that matched nothing, and the
 * paths of a record the package could not read to the end, with what settles it.
 */
export function addReadingHints(ctx: IExecuteFunctions, decks: Array<{ taskId: string; judgement?: StatusJudgement; unknownWord?: string }>): void {
	const words = new Map<string, Set<string>>();
	const misses = new Map<string, { option: string; path: string; members: string[]; taskIds: Set<string> }>();
	const unread = new Map<string, { suggestions: NonNullable<StatusJudgement['suggestions']>; taskIds: Set<string> }>();
	for (const { taskId, judgement, unknownWord } of decks) {
		if (judgement?.suggestions) {
			const key = JSON.stringify(judgement.suggestions);
			const entry = unread.get(key) ?? { suggestions: judgement.suggestions, taskIds: new Set<string>() };
			entry.taskIds.add(taskId);
			unread.set(key, entry);
		}
		for (const miss of judgement?.pathMisses ?? []) {
			const key = `${miss.option}\u0000${miss.path}`;
			const entry = misses.get(key) ?? { ...miss, taskIds: new Set<string>() };
			entry.taskIds.add(taskId);
			misses.set(key, entry);
		}
		const word = unknownWord ?? (judgement?.state === 'unknown' && judgement.wordState === 'unknown' ? judgement.word : undefined);
		if (word !== undefined && judgement?.state === 'unknown') words.set(word, (words.get(word) ?? new Set<string>()).add(taskId));
	}
	for (const [word, taskIds] of words) hintOnce(ctx, { message: unknownWordHint(word, taskIds.size), type: 'warning', location: 'outputPane' });
	for (const miss of misses.values()) hintOnce(ctx, { message: pathMissHint(miss.option, miss.path, miss.members, miss.taskIds.size), type: 'warning', location: 'outputPane' });
	for (const { suggestions, taskIds } of unread.values()) hintOnce(ctx, { message: suggestionsHint(suggestions, taskIds.size), type: 'warning', location: 'outputPane' });
}
