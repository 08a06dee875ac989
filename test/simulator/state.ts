// Everything the simulator knows, in one place, so handlers and the control surface share it.
import { Accounts } from './accounts';
import { SimClock } from './clock';
import { DeckStore } from './decks';
import { createDemoKeys } from './demo';
import { FaultPlan } from './faults';
import { IdempotencyStore } from './idempotency';
import { SimLedger } from './ledger';
import type { Material } from './materials';
import { DEFAULT_PRICES } from './pricing';
import { BucketSet } from './ratelimit';
import { resolveProfile, type ProfileChoices, type ProfileName } from './profile';
import { createRng, type Rng } from './rng';
import { ObjectStorage, type StorageRequest } from './storage';
import type { Capability, DemoKeys, Limits, PriceTable, ReadLag, SimulatorOptions, StatusWords } from './types';

export type LimitsState = Omit<Limits, 'retryAfterMs'> & { retryAfterMs?: number };

// Generous enough that ordinary tests (and the benchmarks) never meet them; tests that want a limit set it.
export const DEFAULT_LIMITS: LimitsState = {
	edgePerMinute: 1_000_000,
	principalPerMinute: 600_000,
	routePerMinute: 600_000,
	bucketWindowMs: 60_000,
	spendPerHour: 100_000,
	maxVersions: 3,
	freeSlideCap: 15,
	jsonBodyBytes: 64 * 1024,
	materialBodyBytes: 10 * 1024 * 1024,
	maxConcurrentDecks: 5,
	retryAfterMs: undefined,
};

/** The reference profile's words (profile B's are in profile.ts). */
export const DEFAULT_STATUS_WORDS: StatusWords = { queued: 'queued', running: 'generating', succeeded: 'completed', failed: 'failed' };

export class SimState {
	readonly seed: number;
	readonly clock: SimClock;
	readonly accounts: Accounts;
	readonly decks: DeckStore;
	readonly materials = new Map<string, Material>();
	readonly ledger = new SimLedger();
	readonly idempotency = new IdempotencyStore();
	readonly faults: FaultPlan;
	readonly buckets = new BucketSet();
	/** Request ids, charge ids, material ids. */
	readonly ids: Rng;
	readonly keys: DemoKeys;
	readonly profile: ProfileChoices & { name: ProfileName };
	/** Presigned-storage stand-in on another origin (listening once start() returns). */
	readonly storage: ObjectStorage;
	/** Every request for a deck file on the API's own origin (`sim.fileRequests`). */
	readonly fileRequests: StorageRequest[] = [];
	/** The API's own origin, set once the server listens (absolute links in bodies). */
	publicUrl = '';
	deckFileBytes: number;
	prices: PriceTable = { ...DEFAULT_PRICES };
	limits: LimitsState;
	statusWords: StatusWords;
	unshipped: Set<Capability>;
	surface: 'on' | 'disabled' = 'on';
	database: 'up' | 'down' = 'up';
	/** Name the presented key in every text of every answer (echo.ts). */
	echoKey: boolean;
	/** Status reads of a deck just bought answer 404 for a while (types.ts ReadLag). */
	readLag?: ReadLag;

	constructor(opts: SimulatorOptions) {
		this.seed = opts.seed ?? 1;
		this.profile = resolveProfile(opts.profile, opts.choices);
		this.storage = new ObjectStorage(this.seed);
		this.storage.chunked = this.profile.fileLength === 'chunked';
		this.deckFileBytes = opts.deckFileBytes ?? 4096;
		this.clock = new SimClock(opts.clock);
		this.ids = createRng(this.seed, 'ids');
		this.accounts = new Accounts(createRng(this.seed, 'keys'), () => this.clock.now());
		this.decks = new DeckStore(createRng(this.seed, 'decks'), createRng(this.seed, 'task-ids'), {
			durationRange: opts.deckDurationMs ?? [10 * 60_000, 35 * 60_000],
			failureRate: opts.deckFailureRate ?? 0,
		});
		this.faults = new FaultPlan(createRng(this.seed, 'faults'), opts.faults ?? []);
		this.limits = { ...DEFAULT_LIMITS, ...stripUndefined(opts.limits ?? {}) };
		this.statusWords = { ...this.profile.statusWords, ...stripUndefined(opts.statusWords ?? {}) };
		this.unshipped = new Set(opts.unshipped ?? ['video']);
		this.keys = createDemoKeys(this.accounts);
		this.echoKey = opts.echoKey ?? false;
		this.readLag = opts.readLag;
	}

	now(): number {
		return this.clock.now();
	}

	/** Retry hint for waits that are not a bucket's own (503 surface, 409 in progress, injected 429). */
	retryHintMs(fallback: number): number {
		return this.limits.retryAfterMs ?? fallback;
	}
}

export function stripUndefined<T extends object>(obj: T): Partial<T> {
	return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined)) as Partial<T>;
}
