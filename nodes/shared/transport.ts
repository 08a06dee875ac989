/**
 * One HTTP exchange with the service. The core never opens sockets itself: at run time the
 * transport is n8n's `httpRequestWithAuthentication` (proxies and credential handling stay
 * n8n's), in tests and benchmarks it is undici. The transport owns authentication, so the API
 * key never passes through the core.
 */

export type HttpMethod = 'GET' | 'POST';

export interface ServiceRequest {
	method: HttpMethod;
	/** Path under the base URL, always starting with `/v1/`. */
	path: string;
	headers?: Record<string, string>;
	/** Already serialised, so a retry re-sends byte-identical bytes. */
	body?: string | Buffer;
	/**
	 * A status read of this task id: an error status whose body is this deck's own job record is the answer, not a
	 * fault (outcome.ts isJobRecord).
	 */
	jobRecordOf?: string;
}

export interface ServiceResponse {
	status: number;
	/** Header names lower-cased. */
	headers: Record<string, string>;
	/** The raw body as text (the service only answers text: JSON, problem+json, plain or HTML). */
	text: string;
}

export type Transport = (request: ServiceRequest) => Promise<ServiceResponse>;

/** The path of a deck's sub-resource (`status`, `revisions`, ...), the task id made safe for a path. */
export function deckPath(taskId: string, suffix: string): string {
	return `/v1/decks/${encodeURIComponent(taskId)}/${suffix}`;
}

/** The read of a deck's status (`GET /v1/decks/{taskId}/status`), as every reader sends it. */
export function statusRequest(taskId: string): ServiceRequest {
	return { method: 'GET', path: deckPath(taskId, 'status'), jobRecordOf: taskId };
}

/** No response arrived: connection refused, reset or dropped, DNS, timeout. */
export class TransportError extends Error {
	constructor(
		message: string,
		readonly causeCode?: string,
	) {
		super(message);
		this.name = 'TransportError';
	}
}

export function lowerCaseHeaders(
	headers: Record<string, string | string[] | number | undefined>,
): Record<string, string> {
	const result: Record<string, string> = {};
	for (const [name, value] of Object.entries(headers)) {
		if (value === undefined) continue;
		result[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
	}
	return result;
}
