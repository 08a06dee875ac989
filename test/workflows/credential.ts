/**
 * The Deck Generator credential a workflow test runs with against the simulator: its key and URL,
 * and the paths of the operations the contract shows no path for wherever the simulator's profile
 * serves them elsewhere (`paths`, as a person sets them once per deployment on the credential).
 */
import type { IDataObject } from 'n8n-workflow';

import { ENDPOINTS, type EndpointName } from '../../nodes/shared/endpoints';
import type { Simulator } from '../simulator';

export function credentialFor(sim: Simulator, apiKey: string, extra: IDataObject = {}): IDataObject {
	const paths = Object.entries(sim.profile.paths ?? {}).flatMap(([name, path]) => (path ? [[ENDPOINTS[name as EndpointName].field, path]] : []));
	return { apiKey, baseUrl: sim.url, ...Object.fromEntries(paths), ...extra };
}

/** Where the simulator serves an operation the contract shows no path for (`{taskId}` left in), as its ledger records it. */
export function servedPath(sim: Simulator, name: EndpointName): string {
	return sim.profile.paths?.[name] ?? ENDPOINTS[name].defaultPath;
}
