/**
 * Cheap guards of the form's structure: option lists read alphabetically (as n8n lists them and as
 * its lint wants), "Add Option" is spelled the same on both nodes, and Slide Count and Max Credits sit
 * on the form of the operations that use them. (That the panels' Docs links land on a heading:
 * test/unit/doc-links.test.ts.)
 */
import { NodeHelpers, Workflow, type INode, type INodeParameters, type INodeProperties, type INodePropertyOptions, type INodeTypeDescription } from 'n8n-workflow';

import { DeckGenApi } from '../../credentials/DeckGenApi.credentials';
import { DeckGen } from '../../nodes/DeckGen/DeckGen.node';
import { CREATE_FORM_LABELS } from '../../nodes/DeckGen/actions/deck/create.operation';
import { DeckGenWait } from '../../nodes/DeckGenWait/DeckGenWait.node';
import { ensureEnvironment } from '../harness/environment';
import { buildRegistry } from '../harness/registry';

const nodes = [new DeckGen(), new DeckGenWait()];

/** Every property of a node, nested collection options included, with where it sits. */
function allProperties(properties: INodeProperties[], path = ''): Array<{ path: string; property: INodeProperties }> {
	return properties.flatMap((property) => {
		const here = `${path}${property.name}`;
		const nested =
			property.type === 'collection' ? allProperties((property.options ?? []) as INodeProperties[], `${here}.`) : [];
		return [{ path: here, property }, ...nested];
	});
}

describe('structure', () => {
	test('options of every collection and every picker are in alphabetical order', () => {
		const unsorted: string[] = [];
		for (const node of nodes) {
			for (const { path, property } of allProperties(node.description.properties)) {
				if (property.type !== 'collection' && property.type !== 'options') continue;
				const names = ((property.options ?? []) as Array<INodePropertyOptions | INodeProperties>).map((option) =>
					'displayName' in option ? option.displayName : option.name,
				);
				const sorted = [...names].sort((a, b) => a.localeCompare(b));
				if (names.join('|') !== sorted.join('|')) unsorted.push(`${node.description.name} ${path}: ${names.join(', ')}`);
			}
		}
		expect(unsorted).toEqual([]);
	});

	test('"Add Option" and "Add Field" are spelled the same on both nodes', () => {
		const placeholders = nodes.flatMap((node) =>
			allProperties(node.description.properties)
				.filter(({ property }) => property.type === 'collection')
				.map(({ property }) => `${property.name}: ${String(property.placeholder)}`),
		);
		expect(new Set(placeholders)).toEqual(new Set(['options: Add Option', 'additionalFields: Add Field']));
	});

	test('Slide Count is on the Create form; Max Credits sits right after Expected Credits on every spending operation', () => {
		const shownFor = (operation: string) =>
			new DeckGen().description.properties.filter((p) => p.displayOptions?.show?.operation?.includes(operation));
		const create = shownFor('create').map((p) => p.name);
		expect(create).toContain('slideCount');
		for (const operation of ['create', 'revise', 'translate', 'generateVideo']) {
			const names = shownFor(operation).map((p) => p.name);
			expect(names.indexOf('maxCredits')).toBe(names.indexOf('expectedCredits') + 1);
			const maxCredits = shownFor(operation).find((p) => p.name === 'maxCredits')!;
			expect(maxCredits.hint).toMatch(/Expected Credits to 0 and Max Credits to X/);
		}
		// Upload offers its Idempotency Key
		const upload = shownFor('upload').find((p) => p.name === 'options')!;
		expect((upload.options as INodeProperties[]).map((o) => o.name)).toContain('idempotencyKey');
	});
});

/** The properties n8n shows for these values, in order, as n8n decides it (displayOptions, @version). */
function shown(description: INodeTypeDescription, typeVersion: number, values: INodeParameters): INodeProperties[] {
	// as the editor does: parameters not set take their defaults (e.g. Brief From: Fields Below)
	const node = { typeVersion, parameters: values } as INode;
	const resolved = NodeHelpers.getNodeParameters(description.properties, values, true, false, node, description) ?? values;
	return description.properties.filter((property) => NodeHelpers.displayParameter(resolved, property, { typeVersion }, description));
}

const OPERATIONS: Array<[resource: string, operation: string]> = [
	['account', 'getCredits'],
	['deck', 'create'],
	['deck', 'download'],
	['deck', 'generateVideo'],
	['deck', 'getStatus'],
	['deck', 'revise'],
	['deck', 'translate'],
	['material', 'upload'],
	['custom', 'request'],
];
const PAYMENT = ['create', 'revise', 'translate', 'generateVideo', 'request'];

describe('the panels a person meets (node version 1.1, and 1 as saved workflows have it)', () => {
	const deckGen = new DeckGen().description;
	const wait = new DeckGenWait().description;

	test('new nodes are 1.1; saved workflows (version 1) still load', () => {
		expect(deckGen.version).toEqual([1, 1.1]);
		expect(deckGen.defaultVersion).toBe(1.1);
		expect(wait.version).toEqual([1, 1.1]);
		expect(wait.defaultVersion).toBe(1.1);
	});

	test('Create: the required-fields notice, where the brief comes from, the brief, then the price, then the rest; Options last', () => {
		const names = shown(deckGen, 1.1, { resource: 'deck', operation: 'create' }).map((p) => p.name);
		expect(names.slice(names.indexOf('requiredFieldsNotice'))).toEqual([
			'requiredFieldsNotice',
			'briefFrom',
			'title',
			'coreMessage',
			'audience',
			'slideCount',
			'expectedCredits',
			'maxCredits',
			'confirmSlideSurcharge',
			'additionalFields',
			'splitOutputsByCta',
			'options',
		]);
		const notice = deckGen.properties.find((p) => p.name === 'requiredFieldsNotice')!;
		expect(notice.type).toBe('notice');
		expect(notice.displayName).toMatch(/may ask for a Title or a Core Message/);
		const expected = deckGen.properties.find((p) => p.name === 'expectedCredits' && p.displayOptions?.show?.operation?.includes('create'))!;
		expect(expected.hint).toMatch(/Send 0 with Max Credits 0: .*live price.*nothing is charged.*With Max Credits above 0, the node buys/);
	});

	test('a 400/422 on Create names each body field by a label the form shows', () => {
		const labels = shown(deckGen, 1.1, { resource: 'deck', operation: 'create' }).flatMap((p) => [
			p.displayName,
			...((p.type === 'collection' ? p.options : []) as INodeProperties[]).map((o) => o.displayName),
		]);
		// the contract's twelve creation fields
		expect(Object.keys(CREATE_FORM_LABELS).sort()).toEqual(
			['additional_languages', 'audience', 'confirm_slide_surcharge', 'context', 'core_message', 'deck_class', 'expected_credits', 'material_ids', 'notes', 'output_language', 'slide_count', 'title'],
		);
		expect(Object.values(CREATE_FORM_LABELS).filter((label) => !labels.includes(label))).toEqual([]);
	});

	test.each(OPERATIONS)('%s → %s: Options is the last field, and the split switch shows only where a 402 can come back', (resource, operation) => {
		for (const version of [1, 1.1]) {
			const names = shown(deckGen, version, { resource, operation }).map((p) => p.name);
			expect(names.at(-1)).toBe('options');
			const switches = names.filter((name) => name === 'splitOutputsByCta');
			// version 1 had the payment outputs, so the switch, on every operation
			expect(switches).toHaveLength(version === 1 || PAYMENT.includes(operation) ? 1 : 0);
		}
		const split = deckGen.properties.filter((p) => p.name === 'splitOutputsByCta');
		expect(new Set(split.map((p) => p.displayName))).toEqual(new Set(['One Output per Payment Option']));
	});

	test.each(OPERATIONS)('%s → %s: n8n evaluates the outputs expression to the outputs it can produce', async (resource, operation) => {
		await ensureEnvironment();
		const outputs = (typeVersion: number, split: boolean) => {
			const node: INode = {
				id: 'deck-gen',
				name: 'Deck Generator',
				type: 'n8n-nodes-deckgen.deckGen',
				typeVersion,
				position: [0, 0],
				parameters: { resource, operation, splitOutputsByCta: split },
			};
			const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes: buildRegistry().nodeTypes });
			return (NodeHelpers.getNodeOutputs(workflow, node, deckGen) as Array<{ displayName: string }>).map((o) => o.displayName);
		};
		const split = ['Success', 'Unlock', 'Top Up', 'Manage Decks', 'More Slides', 'Surcharge', 'Subscribe', 'Lang. Top Up', 'Buy Revision', 'Other Option', 'Other Action'];
		const grouped = ['Success', 'Checkout', 'Client Action'];
		expect(outputs(1.1, false)).toEqual(PAYMENT.includes(operation) ? grouped : ['Success']);
		expect(outputs(1.1, true)).toEqual(PAYMENT.includes(operation) ? split : ['Success']);
		// saved workflows keep three (or eleven) on every operation: their error-output connection keeps its index
		expect(outputs(1, false)).toEqual(grouped);
		expect(outputs(1, true)).toEqual(split);
		// short enough to read on the canvas next to eleven handles
		expect(split.filter((label) => label.length > 12)).toEqual([]);
	});

	test('Wait node: Task ID is an expression as on Get Status (1.1); Task ID Field stays for version 1', () => {
		const names = (version: number) => shown(wait, version, { mode: 'waitUntilDone' }).map((p) => p.name);
		expect(names(1.1)).toEqual(['mode', 'taskId', 'options']);
		expect(names(1)).toEqual(['mode', 'taskIdField', 'options']);
		const taskId = wait.properties.find((p) => p.name === 'taskId')!;
		const getStatusTaskId = deckGen.properties.find((p) => p.name === 'taskId' && p.displayOptions?.show?.operation?.includes('getStatus'))!;
		expect(taskId.default).toBe(getStatusTaskId.default);
		expect(taskId.default).toBe('={{ $json.taskId }}');
	});

	test('Wait node: download options only while Download File is on (File Link Path always: it counts for the state); Poll Interval shows 5, not 5.000', () => {
		const options = wait.properties.find((p) => p.name === 'options')!.options as INodeProperties[];
		const offered = (values: INodeParameters) =>
			options.filter((option) => NodeHelpers.displayParameter(values, option, { typeVersion: 1.1 }, wait, { mode: 'waitUntilDone', options: values })).map((o) => o.name);
		expect(offered({})).toEqual(expect.arrayContaining(['downloadLink', 'statusWordPath', 'failureReasonPath']));
		const download = ['binaryPropertyName', 'maxDownloadMb'];
		expect(offered({})).not.toEqual(expect.arrayContaining([download[0]]));
		expect(offered({}).filter((name) => download.includes(name))).toEqual([]);
		expect(offered({ downloadFile: true }).filter((name) => download.includes(name))).toEqual(download);
		const poll = options.find((o) => o.name === 'pollIntervalSeconds')!;
		expect(poll.typeOptions?.numberPrecision).toBeUndefined();
		const link = options.find((o) => o.name === 'downloadLink')!;
		// named downloadLink since 0.1 (saved workflows keep their value); a path into the record since issue 39
		expect(link.displayName).toBe('File Link Path');
		expect(link.description).toMatch(/dot path into the status record/);
	});

	test('credential: Base URL starts empty with a placeholder and says where it comes from; the API Key says Test needs credits:read', () => {
		const byName = Object.fromEntries(new DeckGenApi().properties.map((p) => [p.name, p]));
		expect(byName.baseUrl).toMatchObject({ default: '', required: true, placeholder: expect.stringMatching(/^https:\/\//) });
		expect(byName.baseUrl.description).toMatch(/your provider gives with the API key/);
		expect(byName.apiKey.hint).toMatch(/Test button .* credits:read/);
	});
});

describe('a value a saved 0.1 workflow still sends is visible', () => {
	const description = new DeckGen().description;
	const createOf = (name: string) =>
		description.properties.filter((p) => p.name === name && p.displayOptions?.show?.operation?.includes('create'))[0];
	const legacy = (collection: string, name: string) =>
		(createOf(collection).options as INodeProperties[]).find((option) => option.name === name && option.displayName.includes('Saved by 0.1'))!;
	const values = { resource: 'deck', operation: 'create' };

	test.each([
		['additionalFields', 'slideCount'],
		['options', 'maxCredits'],
	])('%s.%s is shown on a version 1 node (where 0.1 saved it) and never offered on 1.1', (collection, name) => {
		const option = legacy(collection, name);
		expect(option.type).toBe('number');
		expect(option.description).toMatch(/still (sent|read)/);
		expect(NodeHelpers.displayParameter(values, option, { typeVersion: 1 }, description)).toBe(true);
		expect(NodeHelpers.displayParameter(values, option, { typeVersion: 1.1 }, description)).toBe(false);
	});
});
