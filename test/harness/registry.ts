/**
 * Node and credential types, loaded the way n8n loads a community package: through
 * n8n-core's `DirectoryLoader` (`loadNodeFromFile` / `loadCredentialFromFile`), which runs
 * the same post-processing n8n does at start (icon paths, load-options methods, special
 * parameters for polling nodes, node description validation, `toJSON` on credentials).
 * The only difference: files are loaded from TypeScript source (ts-jest / ts-node compile
 * them on require) instead of the built `dist/` JavaScript, and lazily, so the harness works
 * before a node file exists.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

import { DirectoryLoader, UnrecognizedCredentialTypeError, UnrecognizedNodeTypeError } from 'n8n-core';
import type {
	ICredentialType,
	ICredentialTypes,
	IDataObject,
	INodeProperties,
	INodeType,
	INodeTypes,
	IVersionedNodeType,
} from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

export const REPO_ROOT = path.resolve(__dirname, '../..');

export const PACKAGE_NAME = 'n8n-nodes-deckgen';

/** n8n's prefix for nodes loaded from ~/.n8n/custom. */
export const CUSTOM_PREFIX = 'CUSTOM';

/** This package's node and credential files (source, without extension). */
export const PACKAGE_NODE_FILES = ['nodes/DeckGen/DeckGen.node', 'nodes/DeckGenWait/DeckGenWait.node'];
export const PACKAGE_CREDENTIAL_FILES = ['credentials/DeckGenApi.credentials'];

/** The harness's own stand-ins and probes (see ./nodes). */
const HARNESS_NODES_DIR = path.join(__dirname, 'nodes');
/** Registered as n8n-nodes-base.<name>, so an exported workflow's trigger and NoOp run here. */
const BASE_STAND_IN_FILES = ['ManualTrigger.node', 'NoOp.node', 'Webhook.node', 'If.node', 'Set.node'];
/** Registered as CUSTOM.<name> only. */
const HARNESS_PROBE_FILES = ['HarnessThrow.node', 'HarnessHttpProbe.node', 'HarnessSleep.node', 'HarnessFloorOracle.node'];

function resolveSource(base: string): string | undefined {
	for (const ext of ['.ts', '.js']) {
		if (existsSync(base + ext)) return base + ext;
	}
	return undefined;
}

/**
 * A `DirectoryLoader` over arbitrary files. `loadClass` is replaced by a plain `require`
 * (n8n-core's own version does exactly that when NODE_ENV=test, and a vm script otherwise,
 * which cannot load TypeScript).
 */
class SourceFileLoader extends DirectoryLoader {
	constructor(
		directory: string,
		readonly packageName: string,
	) {
		super(directory);
		Object.defineProperty(this, 'loadClass', {
			value: (sourcePath: string) => {
				const filePath = this.resolvePath(sourcePath);
				const [className] = path.parse(sourcePath).name.split('.');
				// eslint-disable-next-line @typescript-eslint/no-require-imports
				const exported = (require(filePath) as Record<string, new () => unknown>)[className];
				if (typeof exported !== 'function') {
					throw new Error(`${filePath} does not export a class named "${className}"`);
				}
				return new exported();
			},
		});
	}

	async loadAll() {}
}

export class HarnessNodeTypes implements INodeTypes {
	private readonly types = new Map<string, INodeType | IVersionedNodeType>();

	register(typeName: string, type: INodeType | IVersionedNodeType) {
		this.types.set(typeName, type);
	}

	has(typeName: string) {
		return this.types.has(typeName);
	}

	knownTypeNames() {
		return [...this.types.keys()];
	}

	getByName(nodeType: string): INodeType | IVersionedNodeType {
		const type = this.types.get(nodeType);
		if (!type) {
			const [pkg, name] = nodeType.includes('.') ? nodeType.split('.') : ['', nodeType];
			throw new UnrecognizedNodeTypeError(pkg, name);
		}
		return type;
	}

	getByNameAndVersion(nodeType: string, version?: number): INodeType {
		return NodeHelpers.getVersionedNodeType(this.getByName(nodeType), version);
	}

	getKnownTypes(): IDataObject {
		return Object.fromEntries(
			[...this.types.keys()].map((name) => [name, { className: name, sourcePath: '' }]),
		);
	}
}

export class HarnessCredentialTypes implements ICredentialTypes {
	private readonly types = new Map<string, ICredentialType>();

	private readonly supportedNodes = new Map<string, string[]>();

	register(type: ICredentialType, supportedNodes: string[] = []) {
		this.types.set(type.name, type);
		this.supportedNodes.set(type.name, supportedNodes);
	}

	recognizes(credentialType: string) {
		return this.types.has(credentialType);
	}

	getByName(credentialType: string): ICredentialType {
		const type = this.types.get(credentialType);
		if (!type) throw new UnrecognizedCredentialTypeError(credentialType);
		return type;
	}

	getSupportedNodes(type: string): string[] {
		return this.supportedNodes.get(type) ?? [];
	}

	getParentTypes(typeName: string): string[] {
		const type = this.types.get(typeName);
		if (!type?.extends) return [];
		const parents = [...type.extends];
		for (const parent of type.extends) parents.push(...this.getParentTypes(parent));
		return parents;
	}

	/** As n8n's CredentialsHelper.getCredentialsProperties: parents' properties, then own. */
	getCredentialsProperties(typeName: string): INodeProperties[] {
		const type = this.getByName(typeName);
		if (type.extends === undefined) return type.properties;
		const combined: INodeProperties[] = [];
		for (const parent of type.extends) {
			NodeHelpers.mergeNodeProperties(combined, this.getCredentialsProperties(parent));
		}
		NodeHelpers.mergeNodeProperties(combined, type.properties);
		return combined;
	}
}

export interface RegistryOptions {
	/** Extra node types for one test, by full type name (e.g. 'CUSTOM.myProbe'). */
	nodeTypes?: Record<string, INodeType | IVersionedNodeType>;
	/**
	 * Credential types to use when the package does not (yet) provide one of that name.
	 * A credential type loaded from credentials/ always wins over a fallback.
	 */
	fallbackCredentialTypes?: ICredentialType[];
	/** Extra credential types that replace any loaded one of the same name. */
	credentialTypes?: ICredentialType[];
}

export interface Registry {
	nodeTypes: HarnessNodeTypes;
	credentialTypes: HarnessCredentialTypes;
	/** Which package files were found and loaded (for diagnostics). */
	loaded: { nodes: string[]; credentials: string[] };
}

function nodeCredentialNames(type: INodeType | IVersionedNodeType): string[] {
	const versions =
		'nodeVersions' in type ? Object.values(type.nodeVersions) : [type as INodeType];
	return versions.flatMap((version) => (version.description.credentials ?? []).map((c) => c.name));
}

interface LoadedSources {
	packageNodes: Record<string, INodeType | IVersionedNodeType>;
	baseNodes: Record<string, INodeType | IVersionedNodeType>;
	probeNodes: Record<string, INodeType | IVersionedNodeType>;
	packageCredentials: Record<string, ICredentialType>;
	loaded: { nodes: string[]; credentials: string[] };
}

let sources: LoadedSources | undefined;

/** Loads the files once per module registry (i.e. once per jest test file). */
function loadSources(): LoadedSources {
	if (sources) return sources;
	const loaded = { nodes: [] as string[], credentials: [] as string[] };

	const packageLoader = new SourceFileLoader(REPO_ROOT, PACKAGE_NAME);
	for (const file of PACKAGE_NODE_FILES) {
		const source = resolveSource(path.join(REPO_ROOT, file));
		if (!source) continue;
		packageLoader.loadNodeFromFile(source);
		loaded.nodes.push(path.relative(REPO_ROOT, source));
	}
	for (const file of PACKAGE_CREDENTIAL_FILES) {
		const source = resolveSource(path.join(REPO_ROOT, file));
		if (!source) continue;
		packageLoader.loadCredentialFromFile(source);
		loaded.credentials.push(path.relative(REPO_ROOT, source));
	}

	const baseLoader = new SourceFileLoader(HARNESS_NODES_DIR, 'n8n-nodes-base');
	for (const file of BASE_STAND_IN_FILES) {
		baseLoader.loadNodeFromFile(resolveSource(path.join(HARNESS_NODES_DIR, file))!);
	}
	const probeLoader = new SourceFileLoader(HARNESS_NODES_DIR, CUSTOM_PREFIX);
	for (const file of HARNESS_PROBE_FILES) {
		probeLoader.loadNodeFromFile(resolveSource(path.join(HARNESS_NODES_DIR, file))!);
	}

	const types = <T>(record: Record<string, { type: T }>) =>
		Object.fromEntries(Object.entries(record).map(([name, { type }]) => [name, type]));
	sources = {
		packageNodes: types(packageLoader.nodeTypes),
		baseNodes: types(baseLoader.nodeTypes),
		probeNodes: types(probeLoader.nodeTypes),
		packageCredentials: types(packageLoader.credentialTypes),
		loaded,
	};
	return sources;
}

/** This package's nodes and credentials (those that exist), the harness's nodes and extras. */
export function buildRegistry(options: RegistryOptions = {}): Registry {
	const { packageNodes, baseNodes, probeNodes, packageCredentials, loaded } = loadSources();
	const nodeTypes = new HarnessNodeTypes();
	const credentialTypes = new HarnessCredentialTypes();
	const nodesByCredential = new Map<string, string[]>();

	const addNode = (typeName: string, type: INodeType | IVersionedNodeType) => {
		nodeTypes.register(typeName, type);
		for (const credential of nodeCredentialNames(type)) {
			nodesByCredential.set(credential, [...(nodesByCredential.get(credential) ?? []), typeName]);
		}
	};

	for (const [name, type] of Object.entries(packageNodes)) {
		// Installed community package: '<package>.<name>'; ~/.n8n/custom: 'CUSTOM.<name>'.
		addNode(`${PACKAGE_NAME}.${name}`, type);
		addNode(`${CUSTOM_PREFIX}.${name}`, type);
	}
	for (const [name, type] of Object.entries(baseNodes)) addNode(`n8n-nodes-base.${name}`, type);
	for (const [name, type] of Object.entries(probeNodes)) addNode(`${CUSTOM_PREFIX}.${name}`, type);
	for (const [typeName, type] of Object.entries(options.nodeTypes ?? {})) addNode(typeName, type);

	const credentials = new Map<string, ICredentialType>();
	for (const fallback of options.fallbackCredentialTypes ?? []) credentials.set(fallback.name, fallback);
	for (const [name, type] of Object.entries(packageCredentials)) credentials.set(name, type);
	for (const extra of options.credentialTypes ?? []) credentials.set(extra.name, extra);
	for (const [name, type] of credentials) {
		credentialTypes.register(type, nodesByCredential.get(name) ?? []);
	}

	return { nodeTypes, credentialTypes, loaded: { nodes: [...loaded.nodes], credentials: [...loaded.credentials] } };
}
