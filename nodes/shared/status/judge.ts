/**
 * The one judgement of a deck's status record, used by Get Status, Download, the Wait node (both modes) and
 * the agent tools: the order in which the witnesses are weighed (the vocabulary is vocabulary.ts, where things
 * are found record.ts, each witness witnesses.ts), what the item says when they disagree, and the last word of
 * the deck's own file where only the file can settle it (`settleFileCheck`).
 */
import { linkAt, type FoundLink } from '../links';
import { fileSuggestions, fingerprintOf, indexRecord, suggestionText, unlistedWord, wordSuggestions, type RecordIndex, type Suggestion } from './leaves';
import { atUserPath, expandJsonStrings, locateRecord, membersOf, type Located } from './record';
import { classify, DEFAULT_STATUS_WORDS, isModerationVerdict, LIST_NAME, PARTIAL_WORDS, type DeckState, type StatusWords, type WordReading } from './vocabulary';
import { failureOf, failureText, handoverOf, placesOf, progressOf, reasonOf, type Failure, type Handover } from './witnesses';

/** The dot paths a user set for the readings that no built-in search got right (the three Path options). */
export interface ReadingPaths {
	/** Status Word Path: where the state word is. */
	word?: string;
	/** File Link Path: where the deck's file link is (it counts for the judgement, and it is what Download fetches). */
	file?: string;
	/** Failure Reason Path: where the service says why a deck failed. */
	reason?: string;
}

/** How the options name each path, for the notes. */
export const PATH_OPTION: Record<keyof ReadingPaths, string> = {
	word: 'Status Word Path',
	file: 'File Link Path',
	reason: 'Failure Reason Path',
};

/** What judgeStatus needs beside the record. */
export interface JudgeContext {
	words?: StatusWords;
	paths?: ReadingPaths;
	/** The URL the record was read from: root-relative links in it are resolved against it. */
	resolveAgainst?: string;
	/** The answer's HTTP status: a 202 without a word says the job is still accepted, not done. */
	httpStatus?: number;
	/** The reads before this one that sent the same word (the Wait node's), for the note of a word on no list. */
	earlier?: { word: string; reads: number; seconds: number };
	/**
	 * The failure word an earlier read of this deck gave with no reason (its `failureToConfirm`): a failure read
	 * again now is confirmed, and the deck failed.
	 */
	failureToConfirm?: string;
}

/** What judgeStatus makes of one status record. */
export interface StatusJudgement {
	state: DeckState;
	/** The service's status word, exactly as it came. */
	word?: string;
	/** Where the word was found, when not in a member named `status` or `state` (e.g. `data.task_status`). */
	wordAt?: string;
	/** What the word alone would have said. */
	wordState: DeckState;
	/** The failure reason the record carries, in the service's words, and its code where it gives one. */
	failureReason?: string;
	failureCode?: string;
	/** Where the record's deliverable is (a link's JSON path or the result member), when it has one. */
	handover?: string;
	/** Every link of the answer (JSON strings read through), with its path. */
	links: FoundLink[];
	/** The deck's file: the link handed over, on a completed deck only. A deck's link or nothing. */
	deckUrl?: string;
	/**
	 * The record would be completed on its link alone (its word is no success word): only the file itself can
	 * say whether the deck is done, so the reader checks it (a ranged GET) and `settleFileCheck` concludes.
	 * Until then `state` is what the record says without it, so a reader that cannot check is never wrong.
	 */
	fileToCheck?: {
		url: string;
		path: string;
		thereNote: string;
		/** What moves in the record while its job runs (its word, done, links, progress): a reader checks the file again when it changes. */
		fingerprint: string;
		/** The record says nothing of its state (no word, no done flag): only the file can tell, so a reader looks at every read. */
		wordless: boolean;
	};
	/** The deck's file was checked and is not (yet) the deck: why, in words (`the file host answered 404`). */
	fileMissing?: string;
	/** Paths the user set that matched nothing in this record (the note says so too; readers add a hint). */
	pathMisses?: Array<{ option: string; path: string; members: string[] }>;
	/**
	 * The record could not be read to the end (no word, a word on no list, a finished word with no file): the
	 * paths of this very record a person could paste to fix it, with their values (the note says them too).
	 */
	suggestions?: { word: Suggestion[]; file: Suggestion[] };
	/** Where a failed deck's failure was read (`errors`, `data.task_status_msg`), for a record with no word. */
	failureAt?: string;
	/**
	 * The record says a failure word with no reason and no error anywhere (issue 50, point 5): such a word is also
	 * a stage on the way (a recording "stopped" while its file uploads, then "available"), so the deck is reported
	 * running and the word is confirmed on a later read (JudgeContext.failureToConfirm) before it is failed. Set on
	 * the read that confirms it too (state failed), so the readers' memory keeps confirming it.
	 */
	failureToConfirm?: string;
	/** One or two sentences, present only where the witnesses disagree, the word was elsewhere, or a path missed. */
	note?: string;
}

/**
 * The one judgement of a status record. The contract warns that one word reads as its opposite, and real
 * services write members they do not mean (a progress left at 0.99, an empty error, a preview in `output`, the
 * file's future address before the file exists), so no single witness decides alone. The witnesses: the word
 * (wherever the record puts it, record.ts), a failure member with content, the deck to hand over (a deck file;
 * while the word says running or failed only a file that names the deck's format or a download, never a
 * preview, thumbnail or app page), a progress short of its scale's end, and last the deck's file itself. In
 * this order:
 * Never wrong before read more (issue 50): a word under a part of the job (a preview, a payment, an attempt, a
 * slide: members.ts PART_MEMBERS) is never the deck's; a word not plainly the deck's (`Located.weak`) says
 * succeeded only with the deck's file checked and there; a failure word with no reason is confirmed on a later
 * read.
 * 1. a word on a list the user set (Status Words options) is believed: the person's statement about
 *    their deployment (a success word not plainly the deck's excepted);
 * 2. a success word plainly the deck's AND the deck to hand over: completed, whatever one other member says (a
 *    failure member, a progress below its end: noted, never a veto). No extra request: word and file agree;
 * 3. else a failure member with content: failed, with the service's reason, whatever the word;
 * 4. else the deck's link, unless the progress says the deck is mid-way: completed, whatever the word, if the
 *    file is there: a link is no deck until its file is (`fileToCheck`); a file named by no link cannot be
 *    checked, so it confirms a success word (step 2) and never stands against the word;
 * 5. else the word: a failure word is failed with the service's reason wherever the record gives it, and with
 *    none it is running until a later read says a failure again (`failureToConfirm`); a partial word (the job
 *    ended with part of its output) with nothing to hand over is failed; a success word with nothing to hand
 *    over is not believed alone (`unknown`: it keeps being polled, and at Max Wait it is Still Running); a word
 *    on no list is `unknown` (running, as a 202 with no word is), and the note names the lists that settle it.
 * A record with no word whose `done` is a boolean (Google's long-running operations) is read by it: `done:
 * false` running; `done: true` ended, so with an `error` it failed, with the deck it is completed, and with
 * neither it failed (a reason member, such as Veo's `raiMediaFilteredReasons`, says why).
 * A path the user set (`paths`) is believed over the built-in search for its reading.
 * Each step is one function below (byOwnList, bySuccessWithDeck, byFailureMember, byDeckLink, byWord with
 * failedByWord), weighing what readRecord read once (`Weighing`); each concludes (`conclude`) or passes.
 */
export function judgeStatus(body: Record<string, unknown>, context: JudgeContext = {}): StatusJudgement {
	const read = readRecord(body, context);
	return byOwnList(read) ?? bySuccessWithDeck(read) ?? byFailureMember(read) ?? byDeckLink(read) ?? byWord(read);
}

/**
 * One record as the steps of judgeStatus weigh it: what was read (the located word, its class, the witnesses),
 * and what the steps write (the judgement, its notes, the paths the user set that missed).
 */
interface Weighing {
	body: Record<string, unknown>;
	context: JudgeContext;
	words: StatusWords;
	paths: ReadingPaths;
	/** The answer with its JSON strings read through (record.ts expandJsonStrings). */
	view: Record<string, unknown>;
	index: RecordIndex;
	located: Located;
	word?: string;
	/**
	 * Read where it is not plainly the deck's (a list's one entry, an odd name two levels down): its success
	 * counts only with the deck's file checked and there (issue 50).
	 */
	weak: boolean;
	/** Google's operations have no word: `done` says whether the job ended (with `error` or `response`). */
	ended?: boolean;
	/** The word's class (or the operation's `done`, read as a word). */
	reading: WordReading;
	wordState: DeckState;
	/** A word that says the job ended with part of its output. */
	partialWord: boolean;
	failure?: Failure;
	progress?: string;
	handover?: Handover;
	/** A word on no list the reading takes, somewhere in a record with no word (B13). */
	unlisted?: Suggestion;
	/** The record's word in a sentence (`The service said "x"`), the notes' opening. */
	said: string;
	judgement: StatusJudgement;
	notes: string[];
	misses: NonNullable<StatusJudgement['pathMisses']>;
}

/** Reads the record once: where its word is, what the word says, and every witness (the steps only weigh them). */
function readRecord(body: Record<string, unknown>, context: JudgeContext): Weighing {
	const words = context.words ?? DEFAULT_STATUS_WORDS;
	const paths = context.paths ?? {};
	const view = expandJsonStrings(body);
	// read once: every leaf with its path, what it is, and every link (leaves.ts)
	const index = indexRecord(view, context.resolveAgainst);
	const located = locateRecord(view, words, paths.word, index);
	const word = located.word;
	const ended = located.done;
	const reading = ended === undefined ? classify(word, words) : { state: ended ? ('succeeded' as const) : ('running' as const), canonical: undefined, endsInSuccess: false };
	const wordState = reading.state;
	const places = placesOf(view, located);
	const links = index.links;
	// an entry that says it is a preview is never the deck, whatever its link is called (issue 50)
	const deckCandidates = index.previewLinks.size ? links.filter((link) => !index.previewLinks.has(link.path)) : links;
	// A word that says running or failed is contradicted only by the deck's own file, not by any link
	const handover = paths.file ? handoverAtPath(view, paths.file, context.resolveAgainst) : handoverOf(deckCandidates, places, wordState === 'running' || wordState === 'failed');
	// a record with no word the reading takes may still say one on no list, somewhere: said with its path (B13)
	const unlisted = word === undefined && ended === undefined ? unlistedWord(index, words) : undefined;
	const said =
		ended !== undefined
			? `The operation says done: ${ended}`
			: `The service said ${word !== undefined ? `"${word}"` : unlisted ? `"${unlisted.value}" at ${unlisted.path}, a word on no Status Words list` : 'no status word'}`;
	const judgement: StatusJudgement = { state: wordState, wordState, links, ...(word !== undefined ? { word } : {}) };
	// `status` and `state` (design.md's reading) go without saying; anywhere else is said
	if (located.path !== undefined && !/^(status|state)(\.|$)/.test(located.path)) judgement.wordAt = located.path;
	const weighing: Weighing = {
		body,
		context,
		words,
		paths,
		view,
		index,
		located,
		word,
		weak: located.weak === true,
		ended,
		reading,
		wordState,
		partialWord: PARTIAL_WORDS.has(reading.canonical ?? ''),
		failure: failureOf(places),
		progress: progressOf(places),
		handover,
		unlisted,
		said,
		judgement,
		notes: [],
		misses: [],
	};
	if (located.pathMissed) missed(weighing, 'word');
	return weighing;
}

/** A path the user set that matched nothing, for the note and the readers' hint. */
function missed(w: Weighing, option: keyof ReadingPaths): void {
	w.misses.push({ option: PATH_OPTION[option], path: w.paths[option] as string, members: membersOf(w.body) });
}

/** Step 1: a word on a list the user set is believed, the person's statement about their deployment (a success word not plainly the deck's excepted). */
function byOwnList(w: Weighing): StatusJudgement | undefined {
	const { word, wordState, failure, handover } = w;
	if (word === undefined || wordState === 'unknown' || !w.words.own?.includes(wordState) || (w.weak && wordState === 'succeeded')) return undefined;
	const other = failure && wordState !== 'failed' ? `a failure reason (${failure.member}: ${failure.reason})` : handover && wordState !== 'succeeded' ? `the deck to hand over (${handover.path})` : undefined;
	return conclude(w, wordState, other && `${w.said}, which your ${LIST_NAME[wordState]} list makes ${wordState}, though the record carries ${other}: your list decides.`);
}

/** Step 2: a success word plainly the deck's and the deck to hand over: completed, whatever one other member says (noted, never a veto). */
function bySuccessWithDeck(w: Weighing): StatusJudgement | undefined {
	const { failure, progress, handover, said } = w;
	if (w.wordState !== 'succeeded' || !handover || w.weak) return undefined;
	const stray = [failure && `a failure member (${failure.member}: ${failure.reason})`, progress && `a progress short of its end (${progress})`].filter(Boolean).join(' and ');
	if (w.partialWord) w.notes.push(`${said}: part of the job did not finish${failure ? ` (${failure.reason})` : ''}, but the deck is there to hand over (${handover.path}): reported as completed.`);
	else if (stray) w.notes.push(`${said} and the record has the deck to hand over (${handover.path}), though it also carries ${stray}: reported as completed.`);
	return conclude(w, 'succeeded');
}

/** Step 3: a failure member with content: failed, with the service's reason, whatever the word. */
function byFailureMember(w: Weighing): StatusJudgement | undefined {
	const { failure, wordState } = w;
	if (!failure) return undefined;
	// an operation that is done with an error failed: that is how it says so, nothing disagrees
	return conclude(w, 'failed', wordState === 'failed' || w.ended ? undefined : `${w.said}, but the record carries a failure reason (${failure.member}: ${failure.reason}): reported as failed.${wordState === 'succeeded' ? believeAdvice(w) : ''}`);
}

/**
 * Step 4: the deck's link, unless the progress says the deck is mid-way: a link is no deck until its file is, so
 * the judgement is the word's (step 5) with the file to check (`fileToCheck`, `settleFileCheck` concludes).
 */
function byDeckLink(w: Weighing): StatusJudgement | undefined {
	const { handover, wordState, word } = w;
	if (!handover || w.progress) return undefined;
	const agreed = wordState === 'succeeded';
	const unlistedAdvice = w.unlisted ? ` To read it, set ${PATH_OPTION.word} to \`${w.unlisted.path}\` and add "${w.unlisted.value}" to ${LIST_NAME.succeeded} if it means finished.` : '';
	const thereNote = agreed ? undefined : `${w.said}, but the record has the deck to hand over (${handover.path})${handover.link ? ', and its file is there' : ''}: reported as completed.${wordState === 'unknown' ? unknownWordAdvice(word, w.reading.endsInSuccess) || unlistedAdvice : believeAdvice(w)}`;
	// a file named by no link cannot be checked: it confirms a success word (step 2), never stands against the word
	if (!handover.link) return byWord(w, `The record names a file (${handover.path}) that is no link, so it cannot be checked: not taken as finished on it.`);
	// The link alone is no deck: what the record says without it stands until the file is seen there.
	const withoutFile = byWord(w);
	withoutFile.fileToCheck = { url: handover.link.url, path: handover.path, thereNote: thereNote ?? '', fingerprint: fingerprintOf(w.index, { word, done: w.ended, progress: w.progress }), wordless: word === undefined && w.ended === undefined };
	return withoutFile;
}

/** How to have the word believed over the record's other witnesses (a list to add it to). */
function believeAdvice(w: Weighing): string {
	return w.word === undefined ? '' : ` To believe the word instead, add "${w.word}" to ${LIST_NAME[w.wordState === 'unknown' ? 'running' : w.wordState]}.`;
}

/** Step 5: what the word says, the record having nothing to set against it. */
function byWord(w: Weighing, aside?: string): StatusJudgement {
	const { word, wordState, ended, said, progress, handover, located } = w;
	if (aside) w.notes.push(aside);
	if (wordState === 'failed') return failedByWord(w);
	if (wordState === 'succeeded' && w.weak && !ended) {
		return conclude(w, 'unknown', `${said} at ${located.path}, which is not plainly the deck's record (a list's one entry, or under ${located.prefix.replace(/\.$/, '')}): a success word there is believed only with the deck's file, and the record has no file that is there: still checking.`);
	}
	if (wordState === 'succeeded') {
		if (ended) {
			const why = reasonOf(w.view, located);
			return conclude(w, 'failed', `${said}: the operation ended with nothing to hand over (no result, link or file) and no error${why ? ` (${why.reason})` : ''}: reported as failed.`, why);
		}
		if (w.partialWord) return conclude(w, 'failed', `${said}, and the record has nothing to hand over (no result, link or file): reported as failed.`);
		const missing = [progress && `says it is still in progress (${progress})`, !handover && 'has nothing to hand over (no result, link or file)'].filter(Boolean).join(' and ');
		return conclude(w, 'unknown', `${said}, but the record ${missing}: not taken as finished, still checking. If "${word}" means finished in this deployment, add it to ${LIST_NAME.succeeded}; if it means still working, add it to ${LIST_NAME.running}.`);
	}
	if (wordState === 'running') return conclude(w, 'running');
	if (word === undefined && w.context.httpStatus === 202) return conclude(w, 'running');
	if (word === undefined) return conclude(w, 'unknown', w.unlisted ? `${said}: taken as still working.` : `The service's answer carries no status word${handover ? '' : ' and nothing to hand over'}: taken as still working.`);
	const earlier = w.context.earlier?.word === word ? w.context.earlier : undefined;
	return conclude(w, 'unknown', unknownWordNote(word, earlier && { reads: earlier.reads + 1, seconds: earlier.seconds }, w.reading.endsInSuccess));
}

/**
 * Step 5, failed by the word: a failure word with nothing against it is failed with its reason, wherever the
 * record gives one. With no reason and no error anywhere it may be a stage (issue 50, point 5: a recording
 * "stopped" while its file uploads, then "available"), so it is confirmed on a later read first: running until
 * then (`failureToConfirm`). A word not plainly the deck's (`weak`) is held to the same rule: "more than the word"
 * is a reason or error in the record, or the same story at a later read; a part's word (an attempt's, a
 * webhook's) never gets here. A word on the user's own Failed list, or a partial word, is believed at once.
 */
function failedByWord(w: Weighing): StatusJudgement {
	const why = reasonOf(w.view, w.located);
	// a moderation verdict (`nsfw`, `SAFETY.INPUT.TEXT`) is its own reason: no stage says it (issue 50 B8)
	if (why || w.words.own?.includes('failed') || w.partialWord || isModerationVerdict(w.reading.canonical)) return conclude(w, 'failed', undefined, why);
	w.judgement.failureToConfirm = w.word ?? '';
	if (w.context.failureToConfirm !== undefined) {
		return conclude(w, 'failed', `${w.said} with no reason, after "${w.context.failureToConfirm}" at the read before: a failure confirmed on a second read.`);
	}
	return conclude(w, 'running', `${w.said}, a failure word, with no reason and no error in the record: services also say such a word on the way (a recording "stopped" while its file uploads), so it is read again before the deck is reported failed.`);
}

/** Concludes: the state, the failure's reason, the deck handed over, and the notes and suggestions that go with them. */
function conclude(w: Weighing, state: DeckState, note?: string, why?: Failure): StatusJudgement {
	const { judgement, failure, handover, notes, misses } = w;
	judgement.state = state;
	if (state === 'failed') explain(w, failure ?? why ?? reasonOf(w.view, w.located));
	else if (failure) {
		judgement.failureReason = failure.reason;
		if (failure.code !== undefined) judgement.failureCode = failure.code;
	}
	if (handover && state === 'succeeded') {
		judgement.handover = handover.path;
		if (handover.link) judgement.deckUrl = handover.link.url;
	}
	if (w.paths.file && !handover && (state === 'succeeded' || w.wordState === 'succeeded')) missed(w, 'file');
	if (note) notes.push(note);
	for (const miss of misses) notes.push(pathMissNote(miss.option, miss.path, miss.members));
	const unread = unreadPaths(w, state);
	if (unread) notes.push(unread);
	if (judgement.wordAt) notes.push(`(The word was read from ${judgement.wordAt}.)`);
	// bound the work, not what is seen: where the reading stopped short of the record's end, it says so
	if (w.index.cut && state !== 'succeeded' && state !== 'failed') notes.push(`(The record is longer than the reading reads: it stopped after ${w.index.cut} values. Set File Link Path and Status Word Path to read this record.)`);
	if (misses.length) judgement.pathMisses = misses;
	if (notes.length) judgement.note = notes.join(' ');
	return judgement;
}

/** A failed deck's reason: at the Failure Reason Path where the user set one, else the witness's; with its code and where it was read. */
function explain(w: Weighing, why: Failure | undefined): void {
	const { judgement, paths } = w;
	const fromPath = paths.reason ? failureText(atUserPath(w.view, paths.reason)?.value) : undefined;
	if (paths.reason && fromPath === undefined) missed(w, 'reason');
	const reason = fromPath ?? why?.reason;
	if (reason !== undefined) judgement.failureReason = reason;
	if (why?.code !== undefined) judgement.failureCode = why.code;
	if (why?.member !== undefined) judgement.failureAt = why.member;
}

/**
 * Where the reading stopped short (no word, a word on no list, a finished deck with no file to hand over): the
 * paths of this very record that would settle it, each with what is there now, said at the first such read.
 */
function unreadPaths(w: Weighing, state: DeckState): string | undefined {
	const { judgement, paths, wordState } = w;
	const finished = state === 'succeeded' || (wordState === 'succeeded' && state !== 'failed');
	const wordless = w.word === undefined && w.ended === undefined;
	const needsWord = !paths.word && (state === 'unknown' || (state === 'running' && wordless));
	const needsFile = finished && !judgement.deckUrl && !paths.file;
	if (!needsWord && !needsFile) return undefined;
	// the file only where it matters: a finished deck without one, or a record with no word (its file the only witness)
	const suggestions = { word: needsWord ? wordSuggestions(w.index, w.words, w.located.path, wordless) : [], file: needsFile || (needsWord && wordless && !w.handover) ? fileSuggestions(w.index) : [] };
	const completedBare = needsFile && state === 'succeeded';
	const said = [...suggestions.word.map((suggestion) => suggestionText(PATH_OPTION.word, suggestion)), ...suggestions.file.map((suggestion) => suggestionText(PATH_OPTION.file, suggestion))];
	if (said.length) judgement.suggestions = suggestions;
	// a Completed item with no deckUrl says why, and what to set (issue 45)
	const why = completedBare ? 'It is completed, but the record links no file to hand over, so the item has no deckUrl.' : '';
	if (!said.length) return completedBare ? `${why} The record holds no link to set File Link Path to: get the deck from the service itself.` : undefined;
	return `${why}${why ? ' ' : ''}To read this record, set one of these in the options: ${said.join('; ')}.`;
}

/** The deck's file at the File Link Path: the link there (or the first link inside what is there). */
function handoverAtPath(view: Record<string, unknown>, path: string, resolveAgainst?: string): Handover | undefined {
	const at = atUserPath(view, path);
	const link = at && linkAt(at.value, at.path, resolveAgainst);
	return link && { path: link.path, link };
}

/**
 * What the file check found: the deck's file is there (and is a deck) or not, and in words why not (`404`,
 * `an HTML page`). `settleFileCheck` concludes with it.
 */
export interface FileCheck {
	there: boolean;
	/** Why the file is not the deck yet, for the note: "the file host answered 404", "an HTML page". */
	why?: string;
	/** What would fix a refusal that is not "not there yet" (a 401 on a link the key may not go to), for the note. */
	hint?: string;
}

/**
 * The judgement once the deck's file was checked (`fileToCheck`): there, the deck is completed with its link
 * (the contract's warning: the word may read as its opposite); not there, the record's own reading stands (a
 * running deck keeps being polled, a failed one failed) and the note says why the link was not believed.
 */
export function settleFileCheck(judgement: StatusJudgement, check: FileCheck): StatusJudgement {
	const pending = judgement.fileToCheck;
	if (!pending) return judgement;
	const settled: StatusJudgement = { ...judgement };
	delete settled.fileToCheck;
	if (check.there) {
		settled.state = 'succeeded';
		settled.handover = pending.path;
		settled.deckUrl = pending.url;
		delete settled.failureToConfirm;
		delete settled.failureReason;
		delete settled.failureCode;
		const notes = [pending.thereNote, ...(settled.pathMisses ?? []).map((miss) => pathMissNote(miss.option, miss.path, miss.members)), settled.wordAt && `(The word was read from ${settled.wordAt}.)`].filter(Boolean);
		if (notes.length) settled.note = notes.join(' ');
		else delete settled.note;
		return settled;
	}
	const what = settled.state === 'failed' ? 'reported as failed' : 'still checking';
	settled.fileMissing = check.why ?? 'not found';
	settled.note = [`The record links the deck's file (${pending.path}), but the file is not there${settled.state === 'failed' ? '' : ' yet'} (${settled.fileMissing}): ${what}.`, check.hint, judgement.note].filter(Boolean).join(' ');
	return settled;
}

/**
 * What a deck's record said, for a sentence that names it (`failed (…)`, `is not finished (…)`): its word; with
 * none, where its failure was read (`errors`, a flag); never an empty word (issue 43).
 */
export function recordSaid(judgement: Pick<StatusJudgement, 'word' | 'failureAt'>): string {
	if (judgement.word !== undefined && judgement.word.trim() !== '') return `status "${judgement.word}"`;
	return judgement.failureAt ? `no status word; failure read from ${judgement.failureAt}` : 'no status word';
}

/** What to do about a word on no list that the deck's file settled (it was completed all the same). */
function unknownWordAdvice(word: string | undefined, endsInSuccess?: boolean): string {
	if (word === undefined) return '';
	return endsInSuccess
		? ` "${word}" ends in a success word, which services also use for a stage on the way (Suno's FIRST_SUCCESS): add it to ${LIST_NAME.succeeded} to say it means finished.`
		: ` "${word}" is on no Status Words list: add it to ${LIST_NAME.succeeded} to say it means finished.`;
}

/**
 * Said of a word on no list: taken as still working, and the three lists that would settle it. With
 * `seen` (the Wait node's reads of it), how long the service kept sending it.
 */
export function unknownWordNote(word: string, seen?: { reads: number; seconds: number }, endsInSuccess?: boolean): string {
	const kept = seen && seen.reads > 1 ? `kept sending "${word}" (${seen.reads} reads over ${seen.seconds} s)` : `said "${word}"`;
	const kind = endsInSuccess ? 'a word that ends in a success word but is on no Status Words list (services use such words for a stage on the way, too)' : 'a word on no Status Words list';
	return `The service ${kept}, ${kind}: taken as still working. If it means still working, add "${word}" to ${LIST_NAME.running}; if the deck ended without a deck, to ${LIST_NAME.failed}; if it is finished, to ${LIST_NAME.succeeded}.`;
}

/** The output pane's words for decks left on a word on no list (n8n's execution hints). */
export function unknownWordHint(word: string, decks: number): string {
	const which = decks === 1 ? 'one deck' : `${decks} decks`;
	return `The service kept sending "${word}" for ${which}, a word on no Status Words list, so ${decks === 1 ? 'it was' : 'they were'} taken as still working. In the options, add "${word}" to ${LIST_NAME.running} if it means still working, to ${LIST_NAME.failed} if the deck ended without a deck, or to ${LIST_NAME.succeeded} if it is finished.`;
}

/** Said of a path the user set that matched nothing: which path, and the members the record does have. */
export function pathMissNote(option: string, path: string, members: string[]): string {
	return `${option} "${path}" matches nothing in this record; its members: ${members.join(', ') || 'none'}.`;
}

/** The output pane's words for a record that could not be read to the end: the paths of that record to paste (judgeStatus `suggestions`). */
export function suggestionsHint(suggestions: { word: Suggestion[]; file: Suggestion[] }, decks: number): string {
	const said = [...suggestions.word.map((s) => suggestionText(PATH_OPTION.word, s)), ...suggestions.file.map((s) => suggestionText(PATH_OPTION.file, s))];
	const which = decks === 1 ? 'one deck' : `${decks} decks`;
	return `The status of ${which} could not be read to the end (${suggestions.word.length ? 'no status word the package knows' : 'no file to hand over'}). In the options, set one of these (the path as written, then what is there now): ${said.join('; ')}.`;
}

/** The output pane's words for a path that matched nothing (n8n's execution hints). */
export function pathMissHint(option: string, path: string, members: string[], decks: number): string {
	return `${option} "${path}" matched nothing in the status of ${decks === 1 ? 'one deck' : `${decks} decks`}. The record has: ${members.join(', ') || 'no members'}. Set ${option} to one of these (dots between members, [0] for a list's first entry, * for a member named after each deck), or leave it empty for the built-in reading.`;
}

/**
 * A status answer as the nodes hand it on (`fields`): every member the service sent, our `state` (the
 * service's own `state` member, if any, stays under `serviceState`), `statusWord` (the service's word, wherever
 * the record put it), `statusNote` where the witnesses disagree, and on a failure the record's `failureReason`.
 */
export function stateFields(body: Record<string, unknown>, judgement: StatusJudgement): Record<string, unknown> {
	const { state: serviceState, ...rest } = body;
	// the word as judged, wherever the record put it (`data.task_status`, `ok`), beside the members as sent
	const fields: Record<string, unknown> = { ...rest, state: judgement.state, ...(judgement.word !== undefined ? { statusWord: judgement.word } : {}) };
	if (judgement.note) fields.statusNote = judgement.note;
	if (judgement.state === 'failed' && judgement.failureReason) fields.failureReason = judgement.failureReason;
	// carried to the next read of a loop (Get Status, Check Once), which confirms it (issue 50)
	if (judgement.failureToConfirm !== undefined && judgement.state !== 'failed') fields.failureToConfirm = judgement.failureToConfirm;
	if (serviceState !== undefined) fields.serviceState = serviceState;
	return fields;
}
