/**
 * The docs name what the panels show (issue 45). In README.md and docs/nodes.md a name in italics is a
 * name as a panel shows it: a field or an option of the nodes or the credential (`*Max Wait (Minutes)*`),
 * a choice of a picker, alone or after its field (`*Check Once*`, `*Brief From: Input Item*`), an
 * output (`*Still Running*`), a node of an example workflow (`*Check Deck*`), or one of n8n's own screen
 * words below. A default is written right after its name, `*Max Wait (Minutes)* (default 60)`, and must
 * be the field's default. Everything is read from the node descriptions the package ships (the node
 * classes, their outputs as n8n evaluates them), so renaming a field, an output or a default without the
 * docs fails here, naming the file, the line and the nearest name the panels have.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

import { NodeHelpers, Workflow, type INode, type INodeProperties, type INodePropertyOptions, type INodeTypeDescription } from 'n8n-workflow';

import { DeckGenApi } from '../../credentials/DeckGenApi.credentials';
import { DeckGen } from '../../nodes/DeckGen/DeckGen.node';
import { DeckGenWait } from '../../nodes/DeckGenWait/DeckGenWait.node';
import { itemFor, loopBound, type LoopBound } from '../../nodes/DeckGenWait/actions/items';
import { judgeStatus } from '../../nodes/shared/status/judge';
import type { WaitOptions } from '../../nodes/DeckGenWait/actions/node.type';
import type { DeckReport, DeckSpec } from '../../nodes/shared/poller';
import { clockLine, SPEED } from '../demo/demo';
import { DEFAULT_ARGS } from '../dev/dev';
import { cacheRoot, FLAVORS } from '../e2e/n8n-install';
import { ensureEnvironment } from '../harness/environment';
import { buildRegistry } from '../harness/registry';

const ROOT = join(__dirname, '../..');
const DOCS = ['README.md', 'docs/nodes.md'];

/**
 * n8n's own words on screen (its menus, buttons, settings and its nodes' fields), which the docs put in
 * italics as the editor shows them. Not ours to check against our descriptions; nothing else may be italic.
 */
const N8N_WORDS = new Set([
	// settings and menus
	'Settings → Community Nodes',
	'Settings → Community Nodes → Install',
	'Settings → Save execution progress',
	'Save execution progress',
	'Settings → Execute Once',
	'Execute Once',
	'Workflows → Import from File',
	'Add Option',
	'Add Field',
	'Highlighted data',
	// buttons and actions
	'Execute workflow',
	'Execute step',
	'Retry',
	'Active',
	'Open chat',
	'Add human review step',
	// error handling: the node setting and the output n8n adds for it
	'On Error → Continue',
	'On Error → Continue (using error output)',
	'Error',
	// n8n's review and chat nodes (docs/nodes.md: every purchase reviewed by a person)
	'Send and Wait for Response',
	'Using Response Nodes',
	'Use Responses API',
	'Approve purchase',
	'Decline',
	'Subject',
	'Message',
	'Answer in the chat',
	'Bearer Auth',
]);

/** One name in italics where a doc writes it, and the default written right after it, if any. */
export interface NamedInDocs {
	file: string;
	line: number;
	name: string;
	/** the text of "(default …)" right after the name, code marks removed */
	defaultText?: string;
}

/**
 * The names a markdown text puts in italics (single `*`, also inside bold and across a line break within
 * a paragraph), outside code; with the "(default …)" that follows one.
 */
export function namesInItalics(file: string, text: string): NamedInDocs[] {
	// code (fenced blocks, inline spans) is masked with the same number of characters, so positions hold
	const masked = text
		.replace(/^```[\s\S]*?^```/gm, (block) => block.replace(/[^\n]/g, ' '))
		.replace(/`[^`\n]*`/g, (span) => '\u0001'.repeat(span.length))
		.replace(/\\\*/g, '  ')
		// bold marks are not italics; masked so a bold phrase holding an italic name still finds it
		.replace(/\*\*/g, '  ');
	const found: NamedInDocs[] = [];
	const italic = /(?<![\w*])\*(?![\s*])([^*]+?)(?<![\s*])\*(?![\w*])/g;
	for (const match of masked.matchAll(italic)) {
		// a paragraph's line break inside a name is a space
		const name = match[1].replace(/\s*\n\s*/g, ' ');
		if (name.includes('\n\n')) continue;
		const at = match.index!;
		const after = text.slice(at + match[0].length, at + match[0].length + 80);
		const dflt = /^\s*\(default ([^)]*)\)/.exec(after);
		found.push({
			file,
			line: text.slice(0, at).split('\n').length,
			name,
			...(dflt ? { defaultText: dflt[1].replace(/`/g, '').replace(/\*/g, '').trim() } : {}),
		});
	}
	return found;
}

/** Every property of a description, nested ones (collections, fixed collections) included. */
function allProperties(properties: INodeProperties[]): INodeProperties[] {
	return properties.flatMap((property) => {
		const nested = (property.options ?? []).flatMap((option) => {
			if ('displayName' in option && 'type' in option) return allProperties([option as INodeProperties]);
			if ('values' in option) return allProperties((option as { values: INodeProperties[] }).values);
			return [];
		});
		return [property, ...nested];
	});
}

/** The names a panel shows, each with the properties that carry it (for their defaults). */
export interface PanelNames {
	labels: Map<string, INodeProperties[]>;
	/** choices of the pickers, alone and as "Field: Choice" */
	choices: Set<string>;
	outputs: Set<string>;
	exampleNodes: Set<string>;
}

function addLabel(labels: Map<string, INodeProperties[]>, name: string, property: INodeProperties) {
	labels.set(name, [...(labels.get(name) ?? []), property]);
}

/** Every output label n8n draws for a node type, over its versions, operations and the split switch. */
function outputsOf(description: INodeTypeDescription): string[] {
	const versions = Array.isArray(description.version) ? description.version : [description.version];
	const operation = description.properties.find((p) => p.name === 'operation');
	const resources = (description.properties.find((p) => p.name === 'resource')?.options ?? []) as INodePropertyOptions[];
	const pairs = resources.length
		? resources.flatMap((r) =>
				description.properties
					.filter((p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(r.value))
					.flatMap((p) => (p.options as INodePropertyOptions[]).map((o) => ({ resource: String(r.value), operation: String(o.value) }))),
			)
		: [{}];
	const names = new Set<string>();
	for (const typeVersion of versions) {
		for (const pair of operation ? pairs : [{}]) {
			for (const split of [false, true]) {
				const node: INode = {
					id: 'docs-names',
					name: 'node',
					type: `n8n-nodes-deckgen.${description.name}`,
					typeVersion,
					position: [0, 0],
					parameters: { ...pair, splitOutputsByCta: split },
				};
				const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes: buildRegistry().nodeTypes });
				for (const output of NodeHelpers.getNodeOutputs(workflow, node, description)) {
					if (typeof output === 'object' && output.displayName) names.add(output.displayName);
				}
			}
		}
	}
	return [...names];
}

export async function panelNames(): Promise<PanelNames> {
	await ensureEnvironment();
	const labels = new Map<string, INodeProperties[]>();
	const choices = new Set<string>();
	const outputs = new Set<string>();
	const descriptions = [new DeckGen().description, new DeckGenWait().description];
	const properties = [...descriptions.flatMap((d) => allProperties(d.properties)), ...allProperties(new DeckGenApi().properties)];
	for (const property of properties) {
		if (property.type === 'notice') continue;
		addLabel(labels, property.displayName, property);
		if (property.type === 'options' || property.type === 'multiOptions') {
			for (const option of (property.options ?? []) as INodePropertyOptions[]) {
				choices.add(option.name);
				choices.add(`${property.displayName}: ${option.name}`);
			}
		}
	}
	for (const description of descriptions) for (const name of outputsOf(description)) outputs.add(name);
	const examples = join(ROOT, 'test/workflows/examples');
	const exampleNodes = new Set(
		readdirSync(examples)
			.filter((f) => f.endsWith('.json'))
			.flatMap((f) => (JSON.parse(readFileSync(join(examples, f), 'utf8')) as { nodes: Array<{ name: string; type: string }> }).nodes)
			.filter((n) => n.type !== 'n8n-nodes-base.stickyNote')
			.map((n) => n.name),
	);
	return { labels, choices, outputs, exampleNodes };
}

/** Whether a default as the docs write it is the property's: numbers, on/off, text or an expression, a choice by its name. */
function sameDefault(written: string, property: INodeProperties): boolean {
	const actual = property.default;
	if (typeof actual === 'boolean') return written === (actual ? 'on' : 'off');
	if (typeof actual === 'number') return Number(written.replace(/,/g, '')) === actual;
	if (property.type === 'options') {
		const choice = ((property.options ?? []) as INodePropertyOptions[]).find((o) => o.value === actual);
		return written === choice?.name || written === String(actual);
	}
	return written === String(actual) || `=${written}` === String(actual);
}

function distance(a: string, b: string): number {
	const row = Array.from({ length: b.length + 1 }, (_, i) => i);
	for (let i = 1; i <= a.length; i++) {
		let previous = row[0];
		row[0] = i;
		for (let j = 1; j <= b.length; j++) {
			const kept = row[j];
			row[j] = Math.min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1].toLowerCase() === b[j - 1].toLowerCase() ? 0 : 1));
			previous = kept;
		}
	}
	return row[b.length];
}

/** What is wrong with the names a doc gives: each a line a person can act on. */
export function problemsWith(named: NamedInDocs[], panels: PanelNames): string[] {
	const known = [...panels.labels.keys(), ...panels.choices, ...panels.outputs, ...panels.exampleNodes, ...N8N_WORDS];
	const problems: string[] = [];
	for (const n of named) {
		const where = `${n.file}:${n.line}`;
		if (!known.includes(n.name)) {
			// a name the written one is part of first (Max Wait → Max Wait (Minutes)), else the fewest edits
			const part = (name: string) => (name.toLowerCase().startsWith(n.name.toLowerCase()) ? 2000 : name.toLowerCase().includes(n.name.toLowerCase()) ? 1000 : 0);
			const score = (name: string) => distance(n.name, name) - part(name);
			const nearest = known.reduce((best, name) => (score(name) < score(best) ? name : best));
			problems.push(`${where}: *${n.name}* is no name the panels show (nearest: *${nearest}*)`);
			continue;
		}
		if (n.defaultText === undefined) continue;
		const carriers = panels.labels.get(n.name) ?? [];
		if (!carriers.length) {
			problems.push(`${where}: *${n.name}* (default ${n.defaultText}) is no field with a default`);
		} else if (!carriers.some((property) => sameDefault(n.defaultText!, property))) {
			const actual = carriers.map((p) => JSON.stringify(p.default)).join(' or ');
			problems.push(`${where}: *${n.name}* (default ${n.defaultText}): the panel's default is ${actual}`);
		}
	}
	return problems;
}

describe('the docs name what the panels show', () => {
	let panels: PanelNames;
	const named = DOCS.flatMap((file) => namesInItalics(file, readFileSync(join(ROOT, file), 'utf8')));

	beforeAll(async () => {
		panels = await panelNames();
	});

	test('the nodes give the names to check against: fields, options, choices, outputs of every operation and version', () => {
		for (const label of ['Expected Credits', 'Max Wait (Minutes)', 'Simplify', 'Task ID Field', 'Allow Plain HTTP']) expect(panels.labels.has(label)).toBe(true);
		for (const choice of ['Check Once', 'Wait Until Done', 'Brief From: Input Item']) expect(panels.choices.has(choice)).toBe(true);
		for (const output of ['Success', 'Checkout', 'Client Action', 'Other Action', 'Completed', 'Failed', 'Still Running']) expect(panels.outputs.has(output)).toBe(true);
	});

	test.each(DOCS)('%s: every name in italics is one the panels show, every default written is the panel’s', (file) => {
		const here = named.filter((n) => n.file === file);
		// the docs do name what they describe (a convention nobody follows would check nothing)
		expect(here.length).toBeGreaterThan(60);
		expect(problemsWith(here, panels)).toEqual([]);
	});

	test('README.md states the defaults people set first', () => {
		const written = new Map(named.filter((n) => n.file === 'README.md' && n.defaultText !== undefined).map((n) => [n.name, n.defaultText]));
		for (const name of ['Max Wait (Minutes)', 'Poll Interval (Seconds)', 'Concurrency', 'Max Retry Wait (Seconds)', 'Max Download Size (MB)', 'Download File', 'Mode', 'Task ID']) {
			expect({ name, written: written.has(name) }).toEqual({ name, written: true });
		}
	});

	test('the check itself fails on a renamed option, a renamed output, a wrong default and a word n8n does not show', () => {
		const text = [
			'Set *Max Wait (Minutes)* (default 60) and *Max Wait* (default 60); the deck goes to *Still Running*.',
			'Or to *Still running*, with *Download File* (default on) and *Mode* (default *Check Once*),',
			'a *Brief From: Input Item* across\na line, **bold with *Task ID* (default `{{ $json.taskId }}`) inside**, and *Execute workflow*; `*not a name*`.',
		].join('\n');
		const found = namesInItalics('sample.md', text);
		expect(found.map((n) => n.name)).toEqual([
			'Max Wait (Minutes)',
			'Max Wait',
			'Still Running',
			'Still running',
			'Download File',
			'Mode',
			'Check Once',
			'Brief From: Input Item',
			'Task ID',
			'Execute workflow',
		]);
		expect(problemsWith(found, panels)).toEqual([
			'sample.md:1: *Max Wait* is no name the panels show (nearest: *Max Wait (Minutes)*)',
			'sample.md:2: *Still running* is no name the panels show (nearest: *Still Running*)',
			'sample.md:2: *Download File* (default on): the panel\'s default is false',
			'sample.md:2: *Mode* (default Check Once): the panel\'s default is "waitUntilDone"',
		]);
	});
});

/**
 * Claims the docs make beyond names (issue 52), each read from what it describes: which operations have an
 * option, which fields a Still Running item carries, which examples save their progress, the example a node
 * name belongs to, the demo's clock, the Node.js versions, the package's size, the license and where issues go.
 */
describe('the docs claim what the package does', () => {
	const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
	const readme = read('README.md');
	/** README's text with its line breaks as spaces: a claim holds wherever a line wraps it. */
	const prose = readme.replace(/\s*\n\s*/g, ' ');
	const pkg = JSON.parse(read('package.json')) as { engines: { node: string }; license: string; author: { name: string }; bugs: { url: string }; version: string; name: string };
	const EXAMPLES = join(ROOT, 'test/workflows/examples');
	const exampleFiles = readdirSync(EXAMPLES).filter((f) => f.endsWith('.json'));
	const example = (file: string) => JSON.parse(readFileSync(join(EXAMPLES, file), 'utf8')) as { nodes: Array<{ name: string; type: string }>; settings?: { saveExecutionProgress?: boolean } };

	/** The rows of the markdown table whose header line is `header`, as their cells. */
	function tableRows(text: string, header: string): string[][] {
		const lines = text.split('\n');
		const start = lines.indexOf(header);
		expect({ header, found: start >= 0 }).toEqual({ header, found: true });
		const rows: string[][] = [];
		for (const line of lines.slice(start + 2)) {
			if (!line.startsWith('|')) break;
			rows.push(line.slice(1, -1).split(' | ').map((cell) => cell.trim()));
		}
		return rows;
	}

	/** For each option of the Deck Generator node (its "Options" collections), the operations whose panel shows it, as the docs name them. */
	function operationsOfOptions(): Map<string, Set<string>> {
		const properties = new DeckGen().description.properties;
		const resources = (properties.find((p) => p.name === 'resource')!.options ?? []) as INodePropertyOptions[];
		const operations = resources.flatMap((resource) => {
			const picker = properties.find((p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource.value))!;
			const choices = picker.options as INodePropertyOptions[];
			// a resource of one operation named by its resource ("Custom Request", whose operation is "Request")
			return choices.map((o) => ({ resource: resource.value, operation: o.value, label: choices.length === 1 && resource.name.endsWith(o.name) ? resource.name : o.name }));
		});
		const shownFor = (p: INodeProperties, op: { resource: unknown; operation: unknown }) => {
			const show = p.displayOptions?.show ?? {};
			return (!show.resource || show.resource.includes(op.resource as string)) && (!show.operation || show.operation.includes(op.operation as string));
		};
		const byOption = new Map<string, Set<string>>();
		for (const collection of properties.filter((p) => p.name === 'options' && p.type === 'collection')) {
			for (const op of operations.filter((o) => shownFor(collection, o))) {
				for (const option of collection.options as INodeProperties[]) {
					if (option.displayOptions && !shownFor(option, op)) continue;
					byOption.set(option.displayName, (byOption.get(option.displayName) ?? new Set()).add(op.label));
				}
			}
		}
		const all = new Set(operations.map((o) => o.label));
		byOption.set('(every operation)', all);
		// each operation's resource and value, under "@<label>"
		for (const o of operations) byOption.set(`@${o.label}`, new Set([`${String(o.resource)}/${String(o.operation)}`]));
		return byOption;
	}

	test('README’s Options table names, for each option, exactly the operations whose panel shows it', () => {
		const actual = operationsOfOptions();
		const every = [...actual.get('(every operation)')!].sort();
		const wrong: string[] = [];
		const rows = tableRows(readme, '| Option | Operations | Meaning |');
		for (const [names, ops] of rows) {
			const written = ops === 'all' ? every : ops.split(', ').sort();
			for (const [, name] of names.matchAll(/\*([^*]+)\*/g)) {
				const shown = [...(actual.get(name) ?? [])].sort();
				if (JSON.stringify(shown) !== JSON.stringify(written)) wrong.push(`*${name}*: README says ${written.join(', ')}; the panels show it on ${shown.join(', ') || 'none'}`);
			}
		}
		expect(rows.length).toBeGreaterThan(8);
		expect(wrong).toEqual([]);
		// what the check reads: Simplify is Create's and Recover Purchase's (issue 52), Concurrency every operation's
		expect([...actual.get('Simplify')!].sort()).toEqual(['Create', 'Recover Purchase']);
		expect(actual.get('Concurrency')).toEqual(actual.get('(every operation)'));
	});

	/** A Wait node item for a deck of `outcome` whose record is `record`, as the node builds it (after a plain read, or past a Check Once bound). */
	function waitItem(outcome: DeckReport['outcome'], record: Record<string, unknown>, bound?: LoopBound) {
		const judgement = judgeStatus(record);
		const report: DeckReport = { taskId: 'deck-1', outcome, state: judgement.state, judgement, status: String(record.status), polls: 1, requests: 1, elapsedMs: 60_000 };
		return itemFor({ json: { taskId: 'deck-1' } }, 0, report, record, bound).json;
	}

	/** The fields a README Wait output row says its items always carry (`Carries …` or `(…)`), and the row. */
	function waitRow(output: string): { row: string; always: string[] } {
		const [, row] = tableRows(readme, '| Output | Items |').find(([name]) => name === `*${output}*`)!;
		const said = (/Carries ([^;.]*)/.exec(row) ?? /\(([^)]*)\)/.exec(row))![1];
		// "… and `x` when …" is a field only sometimes there
		const unconditional = said.replace(/,? (?:and )?`\w+` when .*$/, '');
		return { row, always: [...unconditional.matchAll(/`(\w+)`/g)].map((m) => m[1]) };
	}

	test('the fields README says a Still Running item carries are on a plain still-running item; statusNote only when there is something to say', () => {
		const { row, always } = waitRow('Still Running');
		expect(always).toEqual(expect.arrayContaining(['taskId', 'status', 'state', 'elapsedSeconds']));
		const plain = waitItem('still_running', { status: 'running' });
		for (const field of always) expect({ field, carried: field in plain }).toEqual({ field, carried: true });
		expect(plain).not.toHaveProperty('statusNote');
		// past Max Wait (a Check Once loop's bound), the note is there, as the row says
		expect(row).toMatch(/`statusNote` only when .*past \*Max Wait \(Minutes\)\*/);
		const bound = loopBound({ taskId: 'deck-1', waitingSince: '2026-01-01T00:00:00.000Z' }, { taskId: 'deck-1' } as DeckSpec, { maxWaitMinutes: 60 } as WaitOptions, Date.parse('2026-01-01T02:00:00.000Z'));
		expect(waitItem('still_running', { status: 'running' }, bound)).toMatchObject({ pastMaxWait: true, statusNote: expect.stringContaining('past Max Wait') });
	});

	test('the fields README says a Failed item carries are on a failed deck’s item; failureReason only when its record gives one', () => {
		const { row, always } = waitRow('Failed');
		expect(always).toEqual(['error']);
		const plain = waitItem('failed', { status: 'failed' });
		for (const field of always) expect({ field, carried: field in plain }).toEqual({ field, carried: true });
		expect(plain).not.toHaveProperty('failureReason');
		expect(row).toMatch(/`failureReason` when its record gives one/);
		expect(waitItem('failed', { status: 'failed', failure_reason: 'The brief was empty' })).toMatchObject({ failureReason: 'The brief was empty' });
	});

	test('README names, for each operation, the outputs the node draws for it', () => {
		const description = new DeckGen().description;
		const latest = Math.max(...(Array.isArray(description.version) ? description.version : [description.version]));
		const outputsOfOperation = (resource: string, operation: string) => {
			const node: INode = { id: 'claims', name: 'node', type: `n8n-nodes-deckgen.${description.name}`, typeVersion: latest, position: [0, 0], parameters: { resource, operation } };
			const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes: buildRegistry().nodeTypes });
			return NodeHelpers.getNodeOutputs(workflow, node, description).map((o) => (typeof o === 'object' ? o.displayName : o));
		};
		const list = '((?:[\\w ]+, )*[\\w ]+ and [\\w ]+)';
		const claim = new RegExp(`### Outputs ${list} have \\*Success\\* only; ${list}, where a 402 can come back, have \\*Success\\*, \\*Checkout\\* and \\*Client Action\\*`).exec(prose)!;
		const ids = new Map([...operationsOfOptions().entries()].filter(([k]) => k.startsWith('@')).map(([k, v]) => [k.slice(1), [...v][0]]));
		const named = (list: string) => list.split(/, | and /).map((label) => label.trim());
		const wrong: string[] = [];
		for (const [expected, list] of [[['Success'], claim[1]], [['Success', 'Checkout', 'Client Action'], claim[2]]] as const) {
			for (const label of named(list)) {
				const [resource, operation] = (ids.get(label) ?? '?/?').split('/');
				const drawn = outputsOfOperation(resource, operation);
				if (JSON.stringify(drawn) !== JSON.stringify(expected)) wrong.push(`${label}: README says ${expected.join(', ')}; the node draws ${drawn.join(', ')}`);
			}
		}
		expect(named(claim[1]).length + named(claim[2]).length).toBe(ids.size);
		expect(wrong).toEqual([]);
	});

	test.each([
		['README.md', /Every example but (.*?) saves its execution progress/],
		['docs/nodes.md', /every example but (.*?) sets it/],
	])('%s names exactly the examples that do not save their execution progress', (file, claim) => {
		const written = [...claim.exec(read(file).replace(/\s*\n\s*/g, ' '))![1].matchAll(/`([\w-]+\.json)`/g)].map((m) => m[1]).sort();
		const notSaving = exampleFiles.filter((f) => example(f).settings?.saveExecutionProgress !== true).sort();
		expect(notSaving.length).toBeGreaterThan(0);
		expect(written).toEqual(notSaving);
	});

	test.each(['README.md', 'docs/nodes.md', 'docs/at-scale.md'])('%s: a node name in italics beside an example is a node of that example', async (file) => {
		const panels = await panelNames();
		const panelWords = new Set([...panels.labels.keys(), ...panels.choices, ...panels.outputs, ...N8N_WORDS]);
		const nodesOf = new Map(exampleFiles.map((f) => [f, new Set(example(f).nodes.map((n) => n.name))]));
		const exampleNode = (name: string) => !panelWords.has(name) && [...nodesOf.values()].some((nodes) => nodes.has(name));
		const examplesIn = (text: string) => [...new Set([...text.matchAll(/([\w-]+\.json)/g)].map((m) => m[1]).filter((f) => nodesOf.has(f)))];
		// a paragraph is one block; in a table, each row is, with the examples its header names
		const wrong: string[] = [];
		let checked = 0;
		const lines = read(file).split('\n');
		for (let i = 0; i < lines.length; ) {
			const table = lines[i].startsWith('|');
			let end = i;
			while (end < lines.length && lines[end].trim() !== '' && lines[end].startsWith('|') === table) end++;
			const block = lines.slice(i, Math.max(end, i + 1));
			const blocks = table ? block.slice(2).map((row, k) => ({ line: i + 3 + k, text: row, inherited: examplesIn(block[0]) })) : [{ line: i + 1, text: block.join('\n'), inherited: [] as string[] }];
			for (const b of blocks) {
				const files = examplesIn(b.text).length ? examplesIn(b.text) : b.inherited;
				if (!files.length) continue;
				for (const named of namesInItalics(file, b.text).filter((n) => exampleNode(n.name))) {
					checked++;
					if (!files.some((f) => nodesOf.get(f)!.has(named.name))) wrong.push(`${file}:${b.line + named.line - 1}: *${named.name}* is no node of ${files.join(' or ')}`);
				}
			}
			i = Math.max(end, i + 1);
		}
		expect(checked).toBeGreaterThan(0);
		expect(wrong).toEqual([]);
	});

	test('README quotes the clock line the demo prints', () => {
		expect(prose).toContain(`(it prints "${clockLine(SPEED)}")`);
		expect(clockLine(SPEED)).toBe('clock ×120: a 10-35 minute deck takes 5-18 s');
	});

	test('README says where `npm run dev` installs which n8n, on which port', () => {
		const saved = process.env.DECKGEN_N8N_CACHE;
		delete process.env.DECKGEN_N8N_CACHE;
		try {
			expect(cacheRoot()).toBe(join(homedir(), '.cache', 'n8n-nodes-deckgen'));
		} finally {
			if (saved !== undefined) process.env.DECKGEN_N8N_CACHE = saved;
		}
		expect(prose).toContain(`first run installs n8n ${FLAVORS[DEFAULT_ARGS.flavor].n8n} into \`~/.cache/n8n-nodes-deckgen\``);
		expect(prose).toContain('`DECKGEN_N8N_CACHE` moves it');
		expect(prose).toContain(`starts a real n8n (\`http://127.0.0.1:${DEFAULT_ARGS.port}\``);
	});

	test('README states the Node.js the package declares (package.json engines)', () => {
		const engines = /^>=(\d+\.\d+)$/.exec(pkg.engines.node)![1];
		expect(prose).toContain(`The package runs on Node.js ${engines} or later (its \`engines\`)`);
	});

	test('README states the size `npm pack` prints for the package as built now', async () => {
		const claim = /`npm pack` prints about ([\d.]+) kB packed, ([\d.]+) MB unpacked/.exec(prose);
		expect(claim).not.toBeNull();
		const packed = await packedSize();
		// "about": README.md itself is in the package, so the sizes move with it; the claim holds within 5 %
		expect({ packedKB: packed.size / 1000, near: Math.abs(packed.size / 1000 / Number(claim![1]) - 1) < 0.05 }).toMatchObject({ near: true });
		expect({ unpackedMB: packed.unpackedSize / 1e6, near: Math.abs(packed.unpackedSize / 1e6 / Number(claim![2]) - 1) < 0.05 }).toMatchObject({ near: true });
	}, 120_000);

	test('LICENSE is the MIT license package.json names, of its author; Support sends issues where package.json does', () => {
		const license = read('LICENSE');
		expect(pkg.license).toBe('MIT');
		expect(license).toMatch(/^MIT License\n\nCopyright \(c\) \d{4} (.+)\n/);
		expect(/Copyright \(c\) \d{4} (.+)\n/.exec(license)![1]).toBe(pkg.author.name);
		const support = readme.slice(readme.indexOf('## Support and issues'));
		expect(support).toContain(`(${pkg.bugs.url})`);
		expect(support).toMatch(/Never the API key/);
		expect(support).toContain('[LICENSE](LICENSE)');
	});
});

/** `npm pack --dry-run` of the package built afresh into a scratch copy (package.json, README, LICENSE, dist): its sizes. */
async function packedSize(): Promise<{ size: number; unpackedSize: number }> {
	const scratch = mkdtempSync(join(tmpdir(), 'deckgen-pack-size-'));
	try {
		for (const file of ['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md']) if (existsSync(join(ROOT, file))) cpSync(join(ROOT, file), join(scratch, file));
		const tsc = spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', join(ROOT, 'tsconfig.json'), '--outDir', join(scratch, 'dist')], { encoding: 'utf8' });
		expect(tsc.stdout + tsc.stderr).toBe('');
		// the icons, as `gulp build:icons` copies them beside the compiled files
		for (const dir of ['nodes', 'credentials']) {
			cpSync(join(ROOT, dir), join(scratch, 'dist', dir), { recursive: true, filter: (src) => statSync(src).isDirectory() || /\.(png|svg)$/.test(src) });
		}
		const pack = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts', '--loglevel=error'], { cwd: scratch, encoding: 'utf8' });
		expect(pack.status).toBe(0);
		const [{ size, unpackedSize }] = JSON.parse(pack.stdout.slice(pack.stdout.indexOf('['))) as Array<{ size: number; unpackedSize: number }>;
		return { size, unpackedSize };
	} finally {
		rmSync(scratch, { recursive: true, force: true });
	}
}
