// Decks and their jobs on the sim clock. A deck runs one job at a time (creation, then any revision,
// translation or video); its status is derived from the clock, never stored, so advancing the clock is
// all it takes to move decks along.
import type { Rng } from './rng';
import type { DeckOutcome, DeckSnapshot, FailureKind } from './types';

export type Phase = 'queued' | 'running' | 'succeeded' | 'failed';
export type JobKind = 'create' | 'revision' | 'translation' | 'video';

export interface Job {
	kind: JobKind;
	startedAt: number;
	durationMs: number;
	outcome: 'succeeded' | 'failed';
	/** A failed job's kind (how real services tell failures apart); `error` when not set. */
	failureKind?: FailureKind;
	/** A succeeded job whose PDF export failed: the deck (pptx) is there, the pdf is not. */
	partial?: boolean;
	/**
	 * A failed job of kind timeout, aborted or cancelled spends its last `endingMs` still running but ending
	 * (a service with such words says "timing out", "aborting", "cancelling" then).
	 */
	endingMs?: number;
}

/** What a seeded deck ends as, and how. */
export interface JobOverride {
	durationMs?: number;
	outcome?: DeckOutcome;
	failureKind?: FailureKind;
	endingMs?: number;
	status?: string;
}

export interface Deck {
	taskId: string;
	principalId: string;
	keyId: string;
	createdAt: number;
	version: number;
	maxVersions: number;
	/** Revisions accepted so far (the first ones are included in the price). */
	revisions: number;
	languages: string[];
	/** The `material_ids` the deck was created with. */
	materialIds: string[];
	video: boolean;
	job: Job;
	/** A status word returned verbatim instead of the derived one (control.setDeckStatusOverride). */
	statusOverride?: string;
	/** Held still running (control.holdDeck) until released: a test's way to keep a deck in progress. */
	held?: boolean;
	/** Its file is served already, whatever its record says (control.setFileReady): a record that lags its file. */
	fileReady?: boolean;
	/** Status reads answered so far, the lagging ones included (ReadLag counts them). */
	statusReads?: number;
}

export interface DeckState {
	phase: Phase;
	progress: number;
	updatedAt: number;
	doneAt: number;
}

/** Share of a job spent queued before it starts running. */
const QUEUED_SHARE = 0.05;

/** The way a running job is ending (its last `endingMs` before a timeout, abort or cancel), or undefined. */
export function endingOf(deck: Deck, now: number): Exclude<FailureKind, 'error' | 'moderated'> | undefined {
	const { outcome, failureKind, endingMs, startedAt, durationMs } = deck.job;
	if (outcome !== 'failed' || !endingMs || deck.held) return undefined;
	if (failureKind !== 'timeout' && failureKind !== 'aborted' && failureKind !== 'cancelled') return undefined;
	const doneAt = startedAt + durationMs;
	return now < doneAt && now >= doneAt - endingMs ? failureKind : undefined;
}

export function deckState(deck: Deck, now: number): DeckState {
	const { startedAt, durationMs, outcome } = deck.job;
	const doneAt = startedAt + durationMs;
	const runningAt = startedAt + Math.floor(durationMs * QUEUED_SHARE);
	if (deck.held && now >= runningAt) {
		const progress = Math.min(99, Math.max(1, Math.floor((100 * (now - startedAt)) / Math.max(1, durationMs))));
		return { phase: 'running', progress, updatedAt: runningAt, doneAt: Math.max(doneAt, now + 1) };
	}
	if (now >= doneAt) {
		// A failed job keeps the progress it had reached when it stopped.
		const progress = outcome === 'succeeded' ? 100 : durationMs > 0 ? 99 : 0;
		return { phase: outcome, progress, updatedAt: doneAt, doneAt };
	}
	if (now < runningAt) return { phase: 'queued', progress: 0, updatedAt: startedAt, doneAt };
	const progress = Math.min(99, Math.max(1, Math.floor((100 * (now - startedAt)) / durationMs)));
	return { phase: 'running', progress, updatedAt: runningAt, doneAt };
}

export interface DeckOptions {
	durationRange: [number, number];
	failureRate: number;
}

export class DeckStore {
	private readonly decks = new Map<string, Deck>();

	constructor(private readonly rng: Rng, private readonly idRng: Rng, private readonly opts: DeckOptions) {}

	/** Draws a job's duration and outcome; both draws always happen so the sequence does not depend on overrides. */
	private draw(): { durationMs: number; outcome: 'succeeded' | 'failed' } {
		const [lo, hi] = this.opts.durationRange;
		const durationMs = this.rng.int(Math.min(lo, hi), Math.max(lo, hi));
		const outcome = this.rng.next() < this.opts.failureRate ? 'failed' : 'succeeded';
		return { durationMs, outcome };
	}

	create(
		principalId: string,
		keyId: string,
		now: number,
		maxVersions: number,
		languages: string[],
		override: JobOverride = {},
		materialIds: string[] = [],
	): Deck {
		const drawn = this.draw();
		const deck: Deck = {
			taskId: 'tsk_' + this.idRng.hex(24),
			principalId,
			keyId,
			createdAt: now,
			version: 1,
			maxVersions,
			revisions: 0,
			languages,
			materialIds,
			video: false,
			job: {
				kind: 'create',
				startedAt: now,
				durationMs: override.durationMs ?? drawn.durationMs,
				outcome: override.outcome === 'partial' ? 'succeeded' : (override.outcome ?? drawn.outcome),
				...(override.outcome === 'partial' ? { partial: true } : {}),
				...(override.failureKind ? { failureKind: override.failureKind } : {}),
				...(override.endingMs ? { endingMs: override.endingMs } : {}),
			},
			statusOverride: override.status,
		};
		this.decks.set(deck.taskId, deck);
		return deck;
	}

	/** Starts a follow-up job (revision, translation, video); these always succeed. */
	startJob(deck: Deck, kind: JobKind, now: number): void {
		const { durationMs } = this.draw();
		deck.job = { kind, startedAt: now, durationMs, outcome: 'succeeded' };
	}

	byId(taskId: string): Deck | undefined {
		return this.decks.get(taskId);
	}

	/** The deck only when the principal owns it: someone else's deck and no deck look the same. */
	visible(taskId: string, principalId: string): Deck | undefined {
		const deck = this.decks.get(taskId);
		return deck && deck.principalId === principalId ? deck : undefined;
	}

	inProgress(principalId: string, now: number): number {
		let n = 0;
		for (const deck of this.decks.values()) {
			if (deck.principalId === principalId && now < deck.job.startedAt + deck.job.durationMs) n++;
		}
		return n;
	}

	snapshot(taskId: string, now: number): DeckSnapshot | undefined {
		const deck = this.decks.get(taskId);
		if (!deck) return undefined;
		const s = deckState(deck, now);
		return {
			taskId: deck.taskId,
			principalId: deck.principalId,
			phase: s.phase,
			...(s.phase === 'failed' ? { failureKind: deck.job.failureKind ?? 'error' } : {}),
			...(s.phase === 'succeeded' && deck.job.partial ? { partial: true } : {}),
			progress: s.progress,
			version: deck.version,
			maxVersions: deck.maxVersions,
			createdAt: deck.createdAt,
			doneAt: s.doneAt,
			materialIds: deck.materialIds,
		};
	}
}
