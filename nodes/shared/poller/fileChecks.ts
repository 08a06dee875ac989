/**
 * The file-check memory: a record that would be completed on its link alone (its word is no success word) is
 * completed only once the file is there (`checkFile`, a ranged GET). While it is not, the check is repeated when
 * the record moves, else at most once per FILE_RECHECK_MS, so a service that links its file from the first answer
 * costs a few checks, not one per read. A check is part of its read (the request on the wire that Max Wait lets
 * finish, within its own 30 s timeout).
 *
 * Framework-free.
 */
import { settleFileCheck, type FileCheck, type StatusJudgement } from '../status';

/**
 * A link whose file was not there is checked again at once when anything that matters in the record moves (its
 * word, its done flag, its links, its progress: status/judge.ts `fingerprint`), else after this long. A record that
 * says nothing of its state (no word, no done flag) has only its file to tell: it is checked at every read of the
 * deck. Reads of one deck come one poll interval apart at the closest, and the schedule (schedule.ts) reads a
 * running deck rarely, so that costs at most one file request per status read (`npm run bench`, earlyFile). A wait
 * between checks would make a finished deck read as running and go to the back of the queue: measured, it ended a
 * batch of 1,000 such decks five minutes late (issue 43: a record with no word was checked once, then not for a
 * minute, while the service said "ready").
 */
export const FILE_RECHECK_MS = 60_000;

/** The last check of a deck's file that found it not there: of which record (its fingerprint), when, and why. */
export interface LastFileCheck {
	key: string;
	at: number;
	check: FileCheck;
}

/**
 * The judgement with its file checked where only the file can say (`fileToCheck`): again at once when the record
 * moved since the last check found nothing, else after FILE_RECHECK_MS (a record with no word: at every read); in
 * between the last finding stands. Without `checkFile` the judgement stands as it is.
 */
export async function withFileChecked(
	judgement: StatusJudgement,
	memory: { lastFileCheck?: LastFileCheck },
	checkFile: ((url: string) => Promise<FileCheck>) | undefined,
	now: () => number,
): Promise<StatusJudgement> {
	const pending = judgement.fileToCheck;
	if (!pending || !checkFile) return judgement;
	const key = `${pending.fingerprint}\u0000${pending.path}\u0000${pending.url.split('?')[0]}`;
	const last = memory.lastFileCheck;
	if (last && !pending.wordless && last.key === key && now() - last.at < FILE_RECHECK_MS) return settleFileCheck(judgement, last.check);
	const check = await checkFile(pending.url);
	if (check.there) delete memory.lastFileCheck;
	else memory.lastFileCheck = { key, at: now(), check };
	return settleFileCheck(judgement, check);
}
