// The route table: one row per operation, with the scope it needs, the capability it belongs to (for 501),
// its body kind and schema, and whether it spends (spend velocity, Idempotency-Key). Route ids double as the
// keys of limits.routePerMinute.
import type { ScopeNeed } from './auth';
import type { EndpointPaths } from './profile';
import { createDeck, createRevision, createTranslation, createVideo, getCredits, getDeckFile, getStatus, uploadMaterial, type Call } from './handlers';
import type { Reply } from './reply';
import type { Capability } from './types';
import { CREATE_DECK, CREATE_REVISION, CREATE_TRANSLATION, CREATE_VIDEO, type Schema } from './validation';

export interface Route {
	id: string;
	method: 'GET' | 'POST';
	template: string;
	scope: ScopeNeed;
	capability?: Capability;
	body: 'none' | 'json' | 'multipart';
	schema?: Schema;
	/** Spending calls count against spend velocity; reads and uploads never do. */
	spending: boolean;
	handle(call: Call): Reply;
}

export const ROUTES: Route[] = [
	{ id: 'GET /v1/credits', method: 'GET', template: '/v1/credits', scope: { resource: 'credits', action: 'read' }, body: 'none', spending: false, handle: getCredits },
	{ id: 'POST /v1/decks', method: 'POST', template: '/v1/decks', scope: { resource: 'decks', action: 'spend' }, body: 'json', schema: CREATE_DECK, spending: true, handle: createDeck },
	{ id: 'GET /v1/decks/{taskId}/files/{name}', method: 'GET', template: '/v1/decks/{taskId}/files/{name}', scope: { resource: 'decks', action: 'read' }, body: 'none', spending: false, handle: getDeckFile },
	{ id: 'GET /v1/decks/{taskId}/status', method: 'GET', template: '/v1/decks/{taskId}/status', scope: { resource: 'decks', action: 'read' }, body: 'none', spending: false, handle: getStatus },
	{
		id: 'POST /v1/decks/{taskId}/revisions',
		method: 'POST',
		template: '/v1/decks/{taskId}/revisions',
		scope: { resource: 'decks', action: 'spend' },
		capability: 'revisions',
		body: 'json',
		schema: CREATE_REVISION,
		spending: true,
		handle: createRevision,
	},
	{
		id: 'POST /v1/decks/{taskId}/translations',
		method: 'POST',
		template: '/v1/decks/{taskId}/translations',
		scope: { resource: 'decks', action: 'spend' },
		capability: 'translations',
		body: 'json',
		schema: CREATE_TRANSLATION,
		spending: true,
		handle: createTranslation,
	},
	{
		id: 'POST /v1/decks/{taskId}/video',
		method: 'POST',
		template: '/v1/decks/{taskId}/video',
		scope: { resource: 'decks', action: 'spend' },
		capability: 'video',
		body: 'json',
		schema: CREATE_VIDEO,
		spending: true,
		handle: createVideo,
	},
	{
		id: 'POST /v1/materials',
		method: 'POST',
		template: '/v1/materials',
		scope: { resource: 'materials', action: 'write' },
		capability: 'materials',
		body: 'multipart',
		spending: false,
		handle: uploadMaterial,
	},
];

export const MATERIALS_PATH = '/v1/materials';

/** The usual path of each operation a deployment may serve elsewhere (profile choice `paths`). */
const MOVABLE: Record<keyof EndpointPaths, string> = {
	materials: MATERIALS_PATH,
	revisions: '/v1/decks/{taskId}/revisions',
	translations: '/v1/decks/{taskId}/translations',
	video: '/v1/decks/{taskId}/video',
};

const templatePattern = (template: string) => new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{taskId\\?\}/g, '([^/]+)')}$`);

/**
 * The route path a request path stands for under `paths`: a moved operation's new path maps to its
 * usual one, and its usual path to nothing (404). Unmoved paths are themselves.
 */
export function routedPath(path: string, paths: EndpointPaths): string {
	for (const [name, moved] of Object.entries(paths) as Array<[keyof EndpointPaths, string | undefined]>) {
		if (!moved) continue;
		const m = templatePattern(moved).exec(path);
		if (m) return MOVABLE[name].replace('{taskId}', m[1] ?? '');
	}
	for (const [name, moved] of Object.entries(paths) as Array<[keyof EndpointPaths, string | undefined]>) {
		if (moved && moved !== MOVABLE[name] && templatePattern(MOVABLE[name]).test(path)) return '/v1/.moved';
	}
	return path;
}

interface CompiledPath {
	pattern: RegExp;
	names: string[];
	routes: Route[];
}

// Routes grouped by path so a wrong verb on a known path can answer 405 with the path's Allow list.
const PATHS: CompiledPath[] = (() => {
	const byTemplate = new Map<string, Route[]>();
	for (const r of ROUTES) byTemplate.set(r.template, [...(byTemplate.get(r.template) ?? []), r]);
	return [...byTemplate.entries()].map(([template, routes]) => {
		const names: string[] = [];
		const source = template.replace(/\{(\w+)\}/g, (_m, name: string) => {
			names.push(name);
			return '([^/]+)';
		});
		return { pattern: new RegExp(`^${source}$`), names, routes };
	});
})();

export type RouteMatch =
	| { kind: 'route'; route: Route; params: Record<string, string> }
	| { kind: 'method_not_allowed'; allow: string[] }
	| { kind: 'not_found' };

export function matchRoute(method: string, path: string): RouteMatch {
	for (const p of PATHS) {
		const m = p.pattern.exec(path);
		if (!m) continue;
		const route = p.routes.find((r) => r.method === method);
		if (!route) return { kind: 'method_not_allowed', allow: p.routes.map((r) => r.method) };
		try {
			const params = Object.fromEntries(p.names.map((n, i) => [n, decodeURIComponent(m[i + 1])]));
			return { kind: 'route', route, params };
		} catch {
			return { kind: 'not_found' }; // malformed percent-encoding names nothing
		}
	}
	return { kind: 'not_found' };
}
