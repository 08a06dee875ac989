/**
 * One logical call to the service: send, read, and repeat according to the retry policy, with
 * every wait taken through the injected sleep and every request passing the credential's gate
 * (a 429 anywhere pauses every request of that credential).
 */
import { IDEMPOTENCY_HEADER } from './idempotency';
import { answerOf, classify, classifyFailure, isConflictOf, isJobRecord, type Outcome } from './outcome';
import { isSuccess, parseFailure, type ServiceFailure } from './problem';
import { decideRetry, DEFAULT_RETRY_SETTINGS, isRateLimit, type RetrySettings } from './retry';
import { TransportError, type ServiceRequest, type ServiceResponse, type Transport } from './transport';

/** Resolves after `ms`, or rejects as soon as `signal` aborts. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export class CancelledError extends Error {
	constructor() {
		super('The execution was cancelled');
		this.name = 'CancelledError';
	}
}

export function throwIfCancelled(signal: AbortSignal | undefined): void {
	if (signal?.aborted) throw new CancelledError();
}

/**
 * Pauses every request of one credential after a 429, or when the `X-RateLimit-*` headers say
 * the bucket is empty. Shared by all items, and by all nodes in the process using that credential.
 */
export class CredentialGate {
	private resumeAt = 0;
	/** The bucket's `x-ratelimit-remaining` as last seen, so a batch can stay within it. */
	private remaining = Number.POSITIVE_INFINITY;

	constructor(private readonly now: () => number = Date.now) {}

	pauseFor(ms: number): void {
		this.resumeAt = Math.max(this.resumeAt, this.now() + ms);
	}

	/** Requests the credential's bucket had left at the last answer (unbounded before any header). */
	lastRemaining(): number {
		return this.remaining;
	}

	/** Milliseconds still to wait before the next request may go. */
	remainingPause(): number {
		return Math.max(0, this.resumeAt - this.now());
	}

	async waitTurn(sleep: Sleep, signal?: AbortSignal): Promise<void> {
		for (let wait = this.remainingPause(); wait > 0; wait = this.remainingPause()) {
			throwIfCancelled(signal);
			await sleep(wait, signal);
		}
	}

	/**
	 * Reads a remaining/reset pair under any of the names in use (RATE_LIMIT_REMAINING): an empty
	 * bucket pauses until its reset, at most `maxPauseMs`.
	 * A 429 is left to its own Retry-After, which says exactly when to come back.
	 */
	observe(response: ServiceResponse, maxPauseMs = 60_000): void {
		if (response.status === 429) return;
		const remaining = findHeader(response, RATE_LIMIT_REMAINING);
		const reset = findHeader(response, RATE_LIMIT_RESET);
		if (remaining !== undefined && Number.isFinite(Number(remaining))) this.remaining = Number(remaining);
		if (remaining === undefined || reset === undefined || Number(remaining) > 0) return;
		const value = Number(reset);
		if (!Number.isFinite(value) || value <= 0) return;
		// Epoch seconds and "seconds from now" both occur in the wild; tell them apart by size.
		const waitMs = value > 1e9 ? value * 1000 - this.now() : value * 1000;
		if (waitMs > 0) this.pauseFor(Math.min(waitMs, maxPauseMs));
	}
}

/**
 * The contract names the `X-RateLimit-*` headers but not exactly: `X-RateLimit-Remaining` (and
 * suffixed forms such as `-Principal`), the IETF draft's `RateLimit-Remaining`, and
 * `X-Rate-Limit-Remaining` are all read, in any case; likewise `…-Reset`.
 */
const RATE_LIMIT_REMAINING = /^(x-)?rate-?limit-remaining/;
const RATE_LIMIT_RESET = /^(x-)?rate-?limit-reset/;

const gates = new Map<string, CredentialGate>();

/** The process-wide gate of a credential, by a fingerprint that is never the key itself. */
export function gateFor(credentialFingerprint: string): CredentialGate {
	let gate = gates.get(credentialFingerprint);
	if (!gate) {
		gate = new CredentialGate();
		gates.set(credentialFingerprint, gate);
	}
	return gate;
}

function findHeader(response: ServiceResponse, pattern: RegExp): string | undefined {
	for (const [name, value] of Object.entries(response.headers)) if (pattern.test(name)) return value;
	return undefined;
}

export interface CallOptions {
	transport: Transport;
	sleep: Sleep;
	gate?: CredentialGate;
	settings?: Partial<RetrySettings>;
	random?: () => number;
	signal?: AbortSignal;
	/**
	 * An instant (of `now`) no wait may end after: a retry or a credential pause that would carry
	 * the call past it is not taken, and the call ends with what it has (Max Wait is a hard bound).
	 */
	deadline?: number;
	now?: () => number;
	/** Called before each wait, so a node can log why it waits (never with the key). */
	onRetry?: (info: { attempt: number; waitMs: number; why: string }) => void;
}

export interface CallResult {
	outcome: Outcome;
	/** The last response; undefined when the call ended without one. */
	response?: ServiceResponse;
	attempts: number;
	/** Set when the last attempt got no response at all. */
	networkError?: Error;
	/**
	 * This call's own attempts the service may have committed without saying so: no response, or a 5xx
	 * (a server may fail after writing). On a keyed POST that ends without a definite answer, any of them
	 * means "may have been bought", by this call.
	 */
	uncertainAttempts: number;
	/** The first of those attempts, in words (`no answer: socket hang up`, `HTTP 504`), for what an item says of it. */
	lostAttempt?: string;
	/**
	 * Answers 409 already_in_progress: another request holds this very key (issue 49). Its purchase is that
	 * request's, not this call's: a replay that follows is of a purchase someone else made.
	 */
	heldElsewhere: number;
	/** Set when the policy stopped because the service asked for a wait longer than allowed. */
	waitTooLongMs?: number;
	/** Set when a retry or pause was not taken because it would end after the deadline. */
	stoppedAtDeadline?: boolean;
}

export async function callService(request: ServiceRequest, options: CallOptions): Promise<CallResult> {
	const settings = { ...DEFAULT_RETRY_SETTINGS, ...options.settings };
	const random = options.random ?? Math.random;
	const hasIdempotencyKey = Object.entries(request.headers ?? {}).some(
		([name, value]) => name.toLowerCase() === IDEMPOTENCY_HEADER.toLowerCase() && value !== '',
	);
	// Per-code retry budgets (500: once) count retries of that code, not every earlier attempt.
	const retriesByCode = new Map<string, number>();
	const now = options.now ?? Date.now;
	const pastDeadline = (waitMs: number) => options.deadline !== undefined && now() + waitMs > options.deadline;
	let uncertainAttempts = 0;
	let heldElsewhere = 0;
	let lostAttempt: string | undefined;
	let last: CallResult | undefined;

	for (let attempt = 1; ; attempt++) {
		throwIfCancelled(options.signal);
		// A read may start at the deadline (Max Wait's last look); only a wait may not cross it.
		const pause = options.gate?.remainingPause() ?? 0;
		if (pause > 0 && pastDeadline(pause)) return { ...(last ?? deadlineResult()), stoppedAtDeadline: true };
		await options.gate?.waitTurn(options.sleep, options.signal);

		let response: ServiceResponse | undefined;
		let failure: ServiceFailure | undefined;
		let networkError: Error | undefined;
		let unexpected: unknown;
		try {
			response = await options.transport(request);
		} catch (error) {
			if (error instanceof TransportError) {
				networkError = error;
				uncertainAttempts++;
				lostAttempt ??= `no answer: ${error.message}`;
			}
			else unexpected = error ?? new Error('transport failed');
		}
		// Anything but "no response" (a cancel, a bug) is not the retry policy's business.
		if (unexpected !== undefined) throw unexpected;
		if (response) {
			options.gate?.observe(response, settings.maxRetryWaitMs);
			if (isSuccess(response.status)) return { outcome: classify(response), response, attempts: attempt, uncertainAttempts, heldElsewhere, ...(lostAttempt ? { lostAttempt } : {}) };
			// a status read answered with an error status and the deck's own record: the answer, not a fault
			if (request.jobRecordOf !== undefined && isJobRecord(response, request.jobRecordOf)) return { outcome: answerOf(response), response, attempts: attempt, uncertainAttempts, heldElsewhere, ...(lostAttempt ? { lostAttempt } : {}) };
			failure = parseFailure(response);
			if (failure.status >= 500) {
				// a server may fail after writing: this attempt may have made the purchase
				uncertainAttempts++;
				lostAttempt ??= `HTTP ${failure.status}`;
			} else if (failure.status === 409 && isConflictOf(failure, 'already_in_progress')) heldElsewhere++;
			// Other calls of the credential never wait longer than Max Retry Wait for it either.
			if (isRateLimit(failure)) options.gate?.pauseFor(Math.min(failure.retryAfterMs ?? 1_000, settings.maxRetryWaitMs));
		}

		const decision = decideRetry(
			{
				method: request.method,
				hasIdempotencyKey,
				failure,
				networkError,
				retriesOfCode: failure ? (retriesByCode.get(failure.code) ?? 0) : undefined,
			},
			attempt,
			settings,
			random,
		);
		last = response
			? { outcome: classifyFailure(failure!), response, attempts: attempt, uncertainAttempts, heldElsewhere, ...(lostAttempt ? { lostAttempt } : {}) }
			: { outcome: noResponseOutcome(networkError!, attempt), attempts: attempt, networkError, uncertainAttempts, heldElsewhere, ...(lostAttempt ? { lostAttempt } : {}) };
		if (!decision.retry) return decision.waitTooLongMs === undefined ? last : { ...last, waitTooLongMs: decision.waitTooLongMs };
		if (pastDeadline(decision.waitMs)) return { ...last, stoppedAtDeadline: true };
		if (failure) retriesByCode.set(failure.code, (retriesByCode.get(failure.code) ?? 0) + 1);
		options.onRetry?.({ attempt, waitMs: decision.waitMs, why: decision.why });
		if (decision.waitMs > 0) await options.sleep(decision.waitMs, options.signal);
	}
}

/** The deadline came before a request could be sent (the credential is paused past it). */
function deadlineResult(): CallResult {
	return {
		attempts: 0,
		uncertainAttempts: 0,
		heldElsewhere: 0,
		outcome: {
			route: 'error',
			outcome: 'error',
			failure: {
				status: 0,
				shape: 'unstructured',
				code: 'deadline_reached',
				title: 'Deadline reached',
				detail: 'Not sent: the credential is paused by the service’s rate limit until after the deadline',
				retryable: true,
				fields: [],
				body: undefined,
			},
		},
	};
}

function noResponseOutcome(error: Error, attempts: number): Outcome {
	return {
		route: 'error',
		outcome: 'error',
		failure: {
			status: 0,
			shape: 'unstructured',
			code: 'no_response',
			title: 'No response',
			detail: `No response from the service after ${attempts} attempt${attempts === 1 ? '' : 's'}: ${error.message}`,
			retryable: true,
			fields: [],
			body: undefined,
		},
	};
}
