/**
 * The paths the contract leaves open (issue 26, point 2). It names `/v1/credits`, `/v1/decks` and
 * `/v1/decks/{taskId}/status`, and nothing for the upload, the revisions, the translations or the
 * video. The nodes send them to the paths below unless the credential names others: a path is a
 * fact of the deployment, like its Base URL, so it is set once there, not in every node.
 * An override stays under `/v1` (the contract: every path is under /v1) and on the Base URL, so
 * it can never carry the key anywhere else; it is checked before anything is sent.
 */

export type EndpointName = 'materials' | 'revisions' | 'translations' | 'video';

export interface Endpoint {
	/** The credential's field. */
	field: string;
	/** Its label on the credential form, which every message names. */
	label: string;
	/** Where the nodes send it when the field is empty (our reading of the contract's gap). */
	defaultPath: string;
	/** The operation that uses it, as the node's form names it. */
	operation: string;
	/** The path names one deck: it holds `{taskId}`. */
	deckScoped: boolean;
}

export const TASK_ID_PLACEHOLDER = '{taskId}';

export const ENDPOINTS: Record<EndpointName, Endpoint> = {
	materials: { field: 'materialsPath', label: 'Upload Path', defaultPath: '/v1/materials', operation: 'Material → Upload', deckScoped: false },
	revisions: {
		field: 'revisionsPath',
		label: 'Revise Path',
		defaultPath: '/v1/decks/{taskId}/revisions',
		operation: 'Deck → Revise',
		deckScoped: true,
	},
	translations: {
		field: 'translationsPath',
		label: 'Translate Path',
		defaultPath: '/v1/decks/{taskId}/translations',
		operation: 'Deck → Translate',
		deckScoped: true,
	},
	video: {
		field: 'videoPath',
		label: 'Generate Video Path',
		defaultPath: '/v1/decks/{taskId}/video',
		operation: 'Deck → Generate Video',
		deckScoped: true,
	},
};

/**
 * The one guard of a path a person or a record gives (a Custom Request's Path, a logged line's or a journal row's
 * `path`, a credential's path override): why it is not a path of the service under /v1/, or undefined. The path is
 * judged as it is resolved when sent (`new URL` against the Base URL): percent-encoded dots (`%2e%2e`), a
 * backslash (read as a slash) or a `.`/`..` segment would carry it, and the key, outside /v1/; an encoded slash
 * or backslash may be decoded by a server's router. A query is allowed; it is not part of the path.
 */
export function servicePathProblem(path: string): string | undefined {
	if (!/^\/v1\/\S*$/.test(path)) return 'must start with /v1/ and hold no spaces';
	if (path.includes('\\')) return 'must not hold backslashes';
	const pathname = path.split(/[?#]/)[0];
	let resolved: string;
	try {
		resolved = new URL(pathname, 'http://service.invalid').pathname;
	} catch {
		return 'is not a path';
	}
	// a segment that is, or decodes to, . or .. moves the path; so can dots beside a slash a server's router decodes
	const moves = (segment: string) => /^(\.|%2e){1,2}$/i.test(segment) || (/%2f|%5c/i.test(segment) && /\.|%2e/i.test(segment));
	if (!resolved.startsWith('/v1/') || pathname.split('/').some(moves)) {
		return 'must not hold . or .. segments, plain or percent-encoded (the path stays under /v1)';
	}
	return undefined;
}

/** The credential's value as the nodes use it: trimmed; empty means the default. */
export function endpointOverride(value: unknown): string {
	return typeof value === 'string' ? value.trim() : '';
}

/**
 * Why an override cannot be used, naming the credential field and the fix; undefined when it is
 * empty (the default) or usable.
 */
export function endpointPathProblem(name: EndpointName, value: unknown): string | undefined {
	const path = endpointOverride(value);
	if (!path) return undefined;
	const endpoint = ENDPOINTS[name];
	const refuse = (why: string) =>
		`The credential's ${endpoint.label} "${path}" ${why}. Open the Deck Generator credential and fix ${endpoint.label} (e.g. ${example(endpoint)}), or empty it for ${endpoint.defaultPath}; nothing was sent.`;
	if (/^[a-z][a-z0-9+.-]*:/i.test(path) || path.startsWith('//')) {
		return refuse('is an address: give only the path under the Base URL, starting with /v1/');
	}
	if (!path.startsWith('/v1/') || path.length === '/v1/'.length) {
		return refuse('must start with /v1/ and name a path under it (every path of the service is under /v1; the Base URL comes first on its own)');
	}
	if (/[?#]/.test(path)) return refuse('must be a path alone, without ? or #');
	if (/[\s\\]/.test(path)) return refuse('must not hold spaces or backslashes');
	const segments = path.slice(1).split('/');
	const inner = path.endsWith('/') ? segments.slice(0, -1) : segments;
	if (inner.some((segment) => segment === '')) return refuse('must not hold an empty segment (//)');
	if (segments.some((segment) => segment === '.' || segment === '..' || /%2e|%2f|%5c/i.test(segment))) {
		return refuse('must not hold . or .. segments or encoded dots and slashes (the path stays under /v1)');
	}
	const beyond = servicePathProblem(path.replace(/\{taskId\}/g, 'taskId'));
	if (beyond) return refuse(beyond);
	const placeholders = path.match(/\{[^}]*\}?/g) ?? [];
	const unknown = placeholders.find((placeholder) => placeholder !== TASK_ID_PLACEHOLDER);
	if (unknown) return refuse(`holds ${unknown}: the only placeholder is ${TASK_ID_PLACEHOLDER}`);
	if (/[{}]/.test(path.replace(/\{taskId\}/g, ''))) return refuse(`holds a brace outside ${TASK_ID_PLACEHOLDER}`);
	if (endpoint.deckScoped && placeholders.length !== 1) {
		return refuse(`must hold ${TASK_ID_PLACEHOLDER} exactly once, where the deck's task id goes`);
	}
	if (!endpoint.deckScoped && placeholders.length) {
		return refuse(`holds ${TASK_ID_PLACEHOLDER}, but ${endpoint.operation} names no deck`);
	}
	return undefined;
}

function example(endpoint: Endpoint): string {
	return endpoint.deckScoped ? endpoint.defaultPath.replace('/decks/', '/presentations/') : '/v1/files';
}

/**
 * The path to send to: the override (already checked with `endpointPathProblem`) or the default,
 * with the task id, made safe for a path, in place of `{taskId}`.
 */
export function endpointPath(name: EndpointName, value: unknown, taskId?: string): string {
	const template = endpointOverride(value) || ENDPOINTS[name].defaultPath;
	return template.replace(TASK_ID_PLACEHOLDER, encodeURIComponent(taskId ?? ''));
}

/**
 * What a 404 or 405 on this operation's path tells a person: that this deployment may serve the
 * operation elsewhere, and which credential field says where. A deck-scoped 404 may also be the
 * deck itself (the contract makes "no such deck" and "not yours" one answer), so both are named.
 */
export function endpointHint(name: EndpointName, value: unknown, status: number, method = 'POST'): string | undefined {
	if (status !== 404 && status !== 405) return undefined;
	const endpoint = ENDPOINTS[name];
	const override = endpointOverride(value);
	const where = override
		? `the ${endpoint.label} set in the Deck Generator credential (${override})`
		: `${endpoint.defaultPath}, the path the nodes use when the credential's ${endpoint.label} is empty (the contract names none)`;
	const what =
		status === 405
			? `The service does not take ${method} at ${where}.`
			: `Nothing answers ${method} at ${where}${endpoint.deckScoped ? ', or there is no such deck for this credential' : ''}.`;
	const fix = override
		? `Correct ${endpoint.label} in the Deck Generator credential to the path your provider documents for ${endpoint.operation}, or empty it for ${endpoint.defaultPath}.`
		: `If your provider documents another path for ${endpoint.operation}, set it as ${endpoint.label} in the Deck Generator credential${endpoint.deckScoped ? ` (with ${TASK_ID_PLACEHOLDER} where the deck's id goes)` : ''}.`;
	const deck = endpoint.deckScoped && status === 404 ? ' Otherwise check the task id, and that the deck was created with this account.' : '';
	return `${what} ${fix}${deck} Custom Request can reach any /v1 path meanwhile.`;
}
