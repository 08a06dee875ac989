import type { ProfileChoices, ProfileName } from './profile';
import type { ServiceShapeSpec } from './services';
import type { StorageRequest } from './storage';

// Public types of the reference simulator. Other test code imports these through index.ts;
// keep names and shapes stable.

export type FaultKind =
	| 'drop-before-commit'
	| 'drop-after-commit'
	| 'status500'
	| 'status503'
	| 'status429'
	| 'latency';

export interface FaultRule {
	/** HTTP method to match (case-insensitive); any when absent. */
	method?: string;
	/** Exact pathname (query ignored) or a RegExp tested against the pathname; any when absent. */
	path?: string | RegExp;
	kind: FaultKind;
	/** Chance (0..1) that a matching request is hit; drawn from the seeded fault stream. Default 1. */
	probability?: number;
	/** How many times this rule may fire in total. Default: unlimited. */
	times?: number;
	/** Real milliseconds of added latency for kind 'latency'. Default 100. */
	latencyMs?: number;
	/**
	 * Body shape for status503 and status429. status503: 'problem' = surface_disabled problem+json (default),
	 * 'plain' = the database handler's plain JSON. status429: 'problem' = rate_limited bucket principal (default),
	 * 'plain' = the edge's text/plain page.
	 */
	shape?: 'problem' | 'plain';
	/**
	 * status500 / status503 only: the request is processed first (a purchase charged and stored for
	 * replay, as with `drop-after-commit`), then answered with the status instead of its own answer.
	 */
	afterCommit?: boolean;
	/**
	 * Once this rule fired, the next requests carrying the same Idempotency-Key (same Authorization)
	 * meet these faults, one each, in order, whatever the rules draw: a service that keeps failing for
	 * a while, so that a client's retries of that one request run out. Afterwards the key is answered
	 * normally (an idempotent replay of what was committed).
	 */
	followedBy?: FaultStep[];
}

/** One fault of a `followedBy` sequence. */
export type FaultStep = Pick<FaultRule, 'kind' | 'shape' | 'latencyMs' | 'afterCommit'>;

export interface StatusWords {
	queued: string;
	running: string;
	succeeded: string;
	failed: string;
}

export type Capability = 'revisions' | 'translations' | 'video' | 'materials';

export interface Limits {
	/** Edge bucket, per client IP, charged before authentication. */
	edgePerMinute: number;
	/** Principal bucket, per credential (API key). */
	principalPerMinute: number;
	/** Route bucket, per credential and route; a number for every route or a map keyed by route id (see README). */
	routePerMinute: Record<string, number> | number;
	/**
	 * Window (real ms) of the principal and route buckets, default a minute: a bucket holds its
	 * per-minute rate × window / 60 s and refills over the window. A short window (the benchmark's
	 * 1 s, compressed with the clock) allows almost no burst above the rate.
	 */
	bucketWindowMs: number;
	/** Spend velocity: accepted credit-spending calls per credential per hour. */
	spendPerHour: number;
	/** Versions per deck (the created deck is version 1). */
	maxVersions: number;
	/** Slides a deck may have without a surcharge. */
	freeSlideCap: number;
	/** Body cap of every path except the materials endpoint. */
	jsonBodyBytes: number;
	/** Body cap of POST /v1/materials (the whole multipart body). */
	materialBodyBytes: number;
	/** Decks in progress per principal before create answers 402 manage_decks. */
	maxConcurrentDecks: number;
	/**
	 * When set, a refused rate-limit bucket advertises this wait (real ms) and grants a token once it has passed;
	 * 503 surface_disabled, injected 429/503 and 409 already_in_progress advertise it too. Buckets still fill at
	 * their natural rate, so exhausting one stays deterministic; honouring Retry-After costs only milliseconds.
	 */
	retryAfterMs: number;
}

export interface SimulatorOptions {
	/** 0 = ephemeral (default). The host is always 127.0.0.1. */
	port?: number;
	/**
	 * The choices made where the contract says "not shown" (see profile.ts and README.md). Default: the
	 * `DECKGEN_SIM_PROFILE` environment variable, else 'reference'.
	 */
	profile?: ProfileName;
	/** Single choices overriding the profile's, e.g. `{ replayHeader: 'X-Idempotency-Replayed' }`. */
	choices?: Partial<ProfileChoices>;
	/** Size in bytes of each finished deck file (pptx, pdf). Default 4096. */
	deckFileBytes?: number;
	/** Seeds every random choice: key secrets, ids, deck durations and outcomes, the fault plan. Default 1. */
	seed?: number;
	/** speed = sim-ms per real-ms (default 1); manual = time moves only through control.advance(ms). */
	clock?: { speed?: number; startAt?: number } | { manual: true; startAt?: number };
	faults?: FaultRule[];
	/** Overrides the profile's status words. */
	statusWords?: Partial<StatusWords>;
	/** Sim-time range of a deck's generation, default [10 min, 35 min], drawn per deck from the seed. */
	deckDurationMs?: [number, number];
	/** Share of created decks that end failed (seeded per deck). Default 0. */
	deckFailureRate?: number;
	/** Capabilities that answer 501 not_implemented. Default ['video']. */
	unshipped?: Capability[];
	limits?: Partial<Limits>;
	/**
	 * A careless service: every answer names the presented key (problem detail and title, 422 msg, 402 option
	 * labels, a `notice` on every JSON body, plain-text and HTML bodies, WWW-Authenticate, a file's name). Off by
	 * default; the secrecy suites turn it on (echo.ts).
	 */
	echoKey?: boolean;
	/** Replica lag (issue 42): a deck just bought answers its status path with 404 not_found for a while (ReadLag). */
	readLag?: ReadLag;
}

/**
 * A deployment whose reads lag its writes: every deck's status read answers the contract's 404 `not_found`
 * (byte-identical to an unknown id's) for its first `reads` status reads, and while less than `ms` of sim
 * time has passed since it was bought; whichever holds longer. The purchase itself is charged as usual.
 */
export interface ReadLag {
	reads?: number;
	ms?: number;
}

export interface Charge {
	chargeId: string;
	principalId: string;
	keyId: string;
	operation: 'create' | 'revision' | 'translation' | 'video';
	credits: number;
	taskId: string;
	idempotencyKey: string;
	/** Sim-clock ms. */
	at: number;
}

export interface RequestRecord {
	method: string;
	path: string;
	idempotencyKey?: string;
	/** sha256 (hex) of the raw request body; absent when the body was never read. */
	bodySha256?: string;
	/** 0 when the connection was dropped without an answer. */
	status: number;
	requestId?: string;
	/** Sim-clock ms at arrival. */
	at: number;
	keyId?: string;
	principalId?: string;
	/** True when the answer was an idempotent replay. */
	replayed?: boolean;
	/** The fault injected into this request, if any. */
	fault?: FaultKind;
	/** Its body shape, when the rule set one (status503 / status429: 'problem' or 'plain'). */
	faultShape?: 'problem' | 'plain';
	/** File answers: real time (Date.now()) their connection closed; absent while it is open. */
	closedAt?: number;
	/** File answers: whether the whole answer had gone out (to the socket). */
	complete?: boolean;
	/** The request was processed (and a purchase committed) before the injected status replaced its answer. */
	faultAfterCommit?: boolean;
	/** The fault was a step of an earlier fault's `followedBy` sequence for the same Idempotency-Key. */
	faultFollowUp?: boolean;
}

export interface Ledger {
	readonly charges: Charge[];
	readonly requests: RequestRecord[];
	chargesFor(idempotencyKey: string): Charge[];
	totalCharged(principalId?: string): number;
}

export type DemoKeyName =
	| 'personal'
	| 'org'
	| 'freePlan'
	| 'narrow'
	| 'unrecognized'
	| 'notEnrolled'
	| 'neverPurchased'
	| 'capped'
	| 'revoked'
	| 'orgSpendOff'
	| 'orgNeedsSubscription'
	| 'orgKeyCapped'
	| 'broke'
	| 'other';

export type DemoKeys = Record<DemoKeyName, string>;

export interface PriceTable {
	/** Base price of a deck. */
	create: number;
	/** Per slide above the free slide cap (only with confirm_slide_surcharge: true). */
	slideSurcharge: number;
	/** Per additional language requested at creation. */
	language: number;
	/** Per revision beyond the included ones. */
	revision: number;
	/** Revisions per deck that cost nothing. */
	includedRevisions: number;
	/** Per language of a translation request. */
	translationPerLanguage: number;
	/** The video paywall. */
	video: number;
}

export interface AccountSpec {
	/** 'user' (personal wallet, default) or 'organisation' (pooled wallet). */
	type?: 'user' | 'organisation';
	/** Add a key to an existing principal; principal-level fields below are then ignored. */
	principalId?: string;
	balance?: number;
	subscriber?: boolean;
	purchased?: boolean;
	enrolled?: boolean;
	/** Default: every recognised scope. */
	scopes?: string[];
	/** Owner-set monthly cap of this key (credits). */
	monthlyCap?: number;
	monthlySpent?: number;
	revoked?: boolean;
	/** Organisation switches (type 'organisation' only). keyCap/keySpent are the per-key cap from the org console. */
	org?: { spendEnabled?: boolean; requiresSubscription?: boolean; keyCap?: number; keySpent?: number };
}

export interface AccountPatch {
	subscriber?: boolean;
	purchased?: boolean;
	enrolled?: boolean;
	spendEnabled?: boolean;
	requiresSubscription?: boolean;
}

export interface CreatedAccount {
	key: string;
	keyId: string;
	principalId: string;
}

/**
 * How a deck ends: `succeeded`; `failed` (of a `FailureKind`); `partial`: the deck (pptx) is made and one
 * format (the pdf) failed, so the download is still offered.
 */
export type DeckOutcome = 'succeeded' | 'failed' | 'partial';

/** The failures real services tell apart (services.ts maps each to a service's own words). */
export type FailureKind = 'error' | 'timeout' | 'aborted' | 'cancelled' | 'moderated';

export interface SeedDeckSpec {
	/** The API key whose principal owns the deck. */
	key: string;
	/** Sim-ms until the deck reaches its outcome; default drawn from deckDurationMs. */
	durationMs?: number;
	outcome?: DeckOutcome;
	/** A failed deck's kind (default `error`). */
	failureKind?: FailureKind;
	/**
	 * A deck failing by timeout, abort or cancel spends this last stretch (sim-ms) before its end still
	 * running but ending: where the service has the words, its status says "timing out", "aborting", "cancelling".
	 */
	endingMs?: number;
	/** A status word the status endpoint returns verbatim (an override, kept until cleared). */
	status?: string;
}

export interface DeckSnapshot {
	taskId: string;
	principalId: string;
	phase: 'queued' | 'running' | 'succeeded' | 'failed';
	/** A failed deck's kind; a succeeded deck whose pdf failed is `partial`. */
	failureKind?: FailureKind;
	partial?: boolean;
	progress: number;
	version: number;
	maxVersions: number;
	createdAt: number;
	/** Sim-ms at which the current job reaches its outcome. */
	doneAt: number;
	/** The `material_ids` the deck was bought with. */
	materialIds: string[];
}

export interface SimulatorControl {
	createAccount(spec?: AccountSpec): CreatedAccount;
	setBalance(principalIdOrKey: string, credits: number): void;
	balanceOf(principalIdOrKey: string): number;
	updateAccount(principalIdOrKey: string, patch: AccountPatch): void;
	revokeKey(key: string): void;
	setPrice(partial: Partial<PriceTable>): void;
	/** Moves live prices by delta credits (every paid item, or only the one named), so the next request sees price_drift. */
	driftPrice(deltaCredits: number, item?: keyof PriceTable): void;
	prices(): PriceTable;
	seedDeck(spec: SeedDeckSpec): string;
	setDeckStatusOverride(taskId: string, word: string | null): void;
	/** Keeps a deck running (its record, not only its word: progress below 100, no result) until released with false. */
	holdDeck(taskId: string, held: boolean): void;
	/**
	 * Serves a deck's file from now on, whatever its record says (with holdDeck, a record that does not move while
	 * its file appears: issue 43's "checked once and never again"); false: back to the deck's phase. A failed
	 * deck's file is never served.
	 */
	setFileReady(taskId: string, ready: boolean): void;
	deck(taskId: string): DeckSnapshot | undefined;
	/** Moves the sim clock forward (manual clock; also a jump on a running clock). */
	advance(ms: number): void;
	now(): number;
	setFaults(rules: FaultRule[]): void;
	faultsInjected(): Record<FaultKind, number>;
	setSurface(state: 'on' | 'disabled'): void;
	setDatabase(state: 'up' | 'down'): void;
	setUnshipped(list: Capability[]): void;
	setStatusWords(words: Partial<StatusWords>): void;
	setLimits(limits: Partial<Limits>): void;
	resetLedger(): void;
	setDeckFileBytes(bytes: number): void;
	/** Turns the `echoKey` option on or off. */
	setEchoKey(on: boolean): void;
	/** Sets (or, with undefined, ends) the replica lag of status reads (the `readLag` option). */
	setReadLag(lag: ReadLag | undefined): void;
}

export interface Simulator {
	/** http://127.0.0.1:PORT — the API lives under /v1. */
	url: string;
	/** The choices this simulator makes for the contract's gaps (profile plus overrides). */
	profile: Readonly<ProfileChoices & { name: ProfileName }>;
	/** What a correct client must conclude from the service shape this simulator speaks (`service` choice), if any. */
	serviceShape?: ServiceShapeSpec;
	/** The presigned-storage stand-in on another origin: its URL and every request it got. */
	storage: { url: string; readonly requests: ReadonlyArray<StorageRequest> };
	/**
	 * Every request for a deck file on the API's own origin (`/v1/decks/{taskId}/files/…`): method, Range as sent,
	 * status (200, 206, 404, 416, 302), whether an Authorization header came, when its connection closed. With
	 * `storage.requests`, what a test counts to see how a client probes and fetches files.
	 */
	readonly fileRequests: ReadonlyArray<StorageRequest>;
	keys: DemoKeys;
	ledger: Ledger;
	control: SimulatorControl;
	close(): Promise<void>;
}
