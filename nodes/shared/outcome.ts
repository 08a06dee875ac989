/**
 * From a final response to an outcome: which output an item goes to and what it says.
 * Checkout and Client Action are answers, not failures: the service refused, charged nothing,
 * and told a person what to do next. Only real failures become errors.
 */
import { ctaOfPaymentRequired, routeCta, type CtaKind } from './cta';
import { actionLink, refusalLinks } from './links';
import { isReplayed } from './idempotency';
import { isSuccess, parseFailure, parseJson, problemSchema, requestIdOf, type ServiceFailure } from './problem';
import { stateOf, statusWordOf } from './status';
import type { ServiceResponse } from './transport';

export type Route = 'success' | 'checkout' | 'clientAction' | 'error';

/** The machine-readable `outcome` every item carries. */
export type OutcomeName =
	| 'success'
	| 'checkout'
	| 'client_action'
	| 'price_drift'
	| 'version_cap_reached'
	| 'not_available_yet'
	| 'error';

export interface SuccessOutcome {
	route: 'success';
	outcome: 'success';
	status: number;
	body: Record<string, unknown>;
	requestId?: string;
	replayed: boolean;
}

export interface RefusalOutcome {
	route: 'checkout' | 'clientAction';
	outcome: Exclude<OutcomeName, 'success' | 'error'>;
	failure: ServiceFailure;
	/** Present on 402s: the cta the item is routed by. */
	cta?: string;
	ctaKnown?: boolean;
	ctaInferred?: boolean;
	/** One sentence a person can act on. */
	action: string;
}

export interface ErrorOutcome {
	route: 'error';
	outcome: 'error';
	failure: ServiceFailure;
}

export type Outcome = SuccessOutcome | RefusalOutcome | ErrorOutcome;

export const NOT_AVAILABLE_YET_ACTION =
	'This capability is advertised but not available yet in this deployment; it will start working without any change here.';
export const VERSION_CAP_ACTION = 'This deck has reached its maximum number of versions: start a new deck.';
export const PRICE_DRIFT_ACTION =
	'The live price differs from the expected price: confirm the new price with whoever pays, then send it as Expected Credits (or raise Max Credits).';

/** The `message` of an upload the service answered by replaying an earlier one (a purchase's is shared/charge.ts's). */
export const REPLAYED_UPLOAD_MESSAGE = 'This is the material uploaded earlier; nothing was charged.';

export function classify(response: ServiceResponse): Outcome {
	if (isSuccess(response.status)) return answerOf(response);
	const failure = parseFailure(response);
	return classifyFailure(failure);
}

/** A response read as the answer: its body (an envelope's record lifted out), whatever its status. */
export function answerOf(response: ServiceResponse): SuccessOutcome {
	const parsed = parseJson(response.text);
	const body = parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : { data: parsed ?? response.text };
	return {
		route: 'success',
		outcome: 'success',
		status: response.status,
		body: withoutEnvelope(body),
		requestId: requestIdOf(response, body),
		replayed: isReplayed(response.headers),
	};
}

/**
 * Whether an error answer to a status read is the deck's own job record, not a fault (issue 50 B9: a real API
 * answers a failed job's poll with HTTP 504 and the job's JSON record). All three must hold: a 5xx whose body is a
 * JSON object that is not a problem body (the contract's faults are problem+json, and their `retryable` decides),
 * that names this deck's task id as a value, and that carries a status word the vocabulary reads. A gateway's page
 * (HTML, or its own JSON: `{"error": "Gateway Timeout"}`, which names no deck) stays a fault, retried as before.
 */
export function isJobRecord(response: ServiceResponse, taskId: string): boolean {
	if (response.status < 500) return false;
	const parsed = parseJson(response.text);
	if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed) || problemSchema.safeParse(parsed).success) return false;
	const body = withoutEnvelope(parsed as Record<string, unknown>);
	return namesValue(body, taskId) && stateOf(statusWordOf(body)) !== 'unknown';
}

/** Whether a value appears as a text or number anywhere in a body (a few levels down). */
function namesValue(value: unknown, wanted: string, depth = 0): boolean {
	if (typeof value === 'string' || typeof value === 'number') return String(value) === wanted;
	if (!value || typeof value !== 'object' || depth > 4) return false;
	return Object.values(value as Record<string, unknown>).some((member) => namesValue(member, wanted, depth + 1));
}

/** Members that say a body is a deck's (a create answer carries `taskId`; a status read its word). */
const DECK_MEMBERS = ['taskId', 'status', 'state'];

/**
 * A deck's answer wrapped in an envelope (`{ data: { taskId, … }, meta }`, or JSON:API's
 * `{ data: { type, id, attributes: { taskId, status, … } } }`): the contract only says a create
 * answer "carries" `taskId` and shows no status fields, so a service may. Then `data`'s members (and
 * JSON:API's `attributes`) are lifted to the top level, the envelope's other members beside them,
 * so `taskId`, the status word, its failure reason and the links are where every reader looks. Any
 * other body, and one that has a deck member itself, is taken as it is.
 */
export function withoutEnvelope(body: Record<string, unknown>): Record<string, unknown> {
	const { data, ...rest } = body;
	if (!data || typeof data !== 'object' || Array.isArray(data)) return body;
	const has = (value: unknown) => !!value && typeof value === 'object' && DECK_MEMBERS.some((member) => (value as Record<string, unknown>)[member] !== undefined);
	if (has(body)) return body;
	if (has(data)) return { ...rest, ...(data as Record<string, unknown>) };
	const { attributes, ...resource } = data as Record<string, unknown>;
	if (Array.isArray(attributes) || !has(attributes)) return body;
	return { ...rest, ...resource, ...(attributes as Record<string, unknown>) };
}

export function classifyFailure(failure: ServiceFailure): Outcome {
	if (failure.status === 402) {
		const route = routeCta(ctaOfPaymentRequired(failure.body), failure.reason);
		return {
			route: routeOf(route.kind),
			outcome: route.kind === 'checkout' ? 'checkout' : 'client_action',
			failure,
			cta: route.cta,
			ctaKnown: route.known,
			ctaInferred: route.inferred,
			action: route.action,
		};
	}
	if (failure.status === 501 || failure.code === 'not_implemented') {
		return { route: 'clientAction', outcome: 'not_available_yet', failure, action: NOT_AVAILABLE_YET_ACTION };
	}
	if (failure.reason === 'version_cap_reached') {
		return { route: 'clientAction', outcome: 'version_cap_reached', failure, action: VERSION_CAP_ACTION };
	}
	if (isPriceDrift(failure)) {
		return { route: 'clientAction', outcome: 'price_drift', failure, action: PRICE_DRIFT_ACTION };
	}
	return { route: 'error', outcome: 'error', failure };
}

/** Whether a failure names this kind of conflict, wherever the service put it: its code, its reason or `conflictKind`. */
export function isConflictOf(failure: ServiceFailure, kind: string): boolean {
	const body = failure.body as { conflictKind?: unknown } | undefined;
	return failure.code === kind || failure.reason === kind || body?.conflictKind === kind;
}

export function isPriceDrift(failure: ServiceFailure): boolean {
	return failure.status === 409 && isConflictOf(failure, 'price_drift');
}

/** The live price a 409 price_drift reports (`credits`), if it is a usable number. */
export function livePriceOf(failure: ServiceFailure): number | undefined {
	const credits = (failure.body as { credits?: unknown } | undefined)?.credits;
	return typeof credits === 'number' && Number.isInteger(credits) && credits >= 0 ? credits : undefined;
}

function routeOf(kind: CtaKind): 'checkout' | 'clientAction' {
	return kind === 'checkout' ? 'checkout' : 'clientAction';
}

/** Members of a refusal body worth passing on to the next node (prices, caps, reset times). */
const PASSED_MEMBERS = [
	'credits',
	'expectedCredits',
	'monthlyCreditCap',
	'monthlyCreditsSpent',
	'resetAt',
	'spendVelocityLimit',
	'spendVelocitySpent',
	'spendVelocityWindowSeconds',
	'max_versions',
	'maxVersions',
] as const;

/**
 * The item of a refusal, in the order a person reads it: what happened (`outcome`, `message`), the
 * way forward and its price (`cta`, the price members, `options`), then the service's own words
 * for support and for workflows that branch on them (`code`, `reason`, `detail`, `requestId`).
 */
export function refusalFields(outcome: RefusalOutcome, accountUrl?: string): Record<string, unknown> {
	const body = (outcome.failure.body ?? {}) as Record<string, unknown>;
	const fields: Record<string, unknown> = {
		outcome: outcome.outcome,
		message: refusalMessage(outcome, accountUrl),
	};
	if (outcome.cta !== undefined) {
		fields.cta = outcome.cta;
		if (outcome.ctaInferred) fields.ctaInferred = true;
	}
	for (const member of PASSED_MEMBERS) {
		if (body[member] !== undefined) fields[member] = body[member];
	}
	if (outcome.cta !== undefined) {
		fields.options = Array.isArray(body.options) ? body.options : [];
		// The link the message gives, and every link of the answer with its JSON path, wherever the service put them.
		const next = actionLink(body);
		if (next) fields.actionUrl = next.url;
		const links = refusalLinks(body);
		if (links.length) fields.links = links;
		if (!outcome.ctaKnown && accountUrl) fields.accountUrl = accountUrl;
	}
	fields.code = outcome.failure.code;
	if (outcome.failure.reason !== undefined) fields.reason = outcome.failure.reason;
	fields.detail = outcome.failure.detail;
	if (outcome.failure.requestId) fields.requestId = outcome.failure.requestId;
	return fields;
}

/** A single line for Slack or email: what happened, the numbers, and the first way forward. */
export function refusalMessage(outcome: RefusalOutcome, accountUrl?: string): string {
	const body = (outcome.failure.body ?? {}) as Record<string, unknown>;
	// every refusal (402, 409 price_drift, the version cap, 501) charges nothing: said where a person reads it
	const parts: string[] = [outcome.action, 'Nothing was charged.'];
	if (typeof body.credits === 'number') {
		parts.push(
			typeof body.expectedCredits === 'number'
				? `Price now ${body.credits} credits (expected ${body.expectedCredits}).`
				: `Price: ${body.credits} credits.`,
		);
	}
	if (typeof body.resetAt === 'string') parts.push(`Resets at ${body.resetAt}.`);
	const next = actionLink(body);
	const firstOption = Array.isArray(body.options) ? (body.options[0] as Record<string, unknown> | undefined) : undefined;
	const label = next ? next.label : typeof firstOption?.label === 'string' ? firstOption.label : undefined;
	if (label || next) parts.push(`Next: ${[label, next?.url].filter(Boolean).join(' ')}.`);
	else if (outcome.cta !== undefined && !outcome.ctaKnown && accountUrl) parts.push(`Account: ${accountUrl}`);
	return parts.join(' ');
}
