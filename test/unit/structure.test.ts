/**
 * Cheap guards of the form's structure: documentation links land on a README heading, option
 * lists read alphabetically (as n8n lists them and as its lint wants), "Add Option" is spelled the
 * same on both nodes, and Slide Count and Max Credits sit on the form of the operations that use them.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { DeckGenApi } from '../../credentials/DeckGenApi.credentials';
import { DeckGen } from '../../nodes/DeckGen/DeckGen.node';
import { DeckGenWait } from '../../nodes/DeckGenWait/DeckGenWait.node';

const ROOT = join(__dirname, '../..');
const README_LINK = /(?:https:\/\/github\.com\/deckgen\/n8n-nodes-deckgen|README\.md)(?:\/blob\/[^#\s'"]+)?#([A-Za-z0-9_-]+)/g;

/** The anchors GitHub gives README.md's headings (lower case, punctuation dropped, spaces to -). */
function readmeAnchors(): Set<string> {
	const anchors = new Set<string>();
	const seen = new Map<string, number>();
	let fenced = false;
	for (const line of readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n')) {
		if (line.startsWith('```')) fenced = !fenced;
		const heading = !fenced && /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
		if (!heading) continue;
		const slug = heading[1]
			.replace(/`/g, '')
			.toLowerCase()
			.replace(/[^\p{L}\p{N}\s_-]/gu, '')
			.replace(/\s/g, '-');
		const count = seen.get(slug) ?? 0;
		seen.set(slug, count + 1);
		anchors.add(count ? `${slug}-${count}` : slug);
	}
	return anchors;
}

function filesUnder(dir: string, pattern: RegExp): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) return filesUnder(path, pattern);
		return pattern.test(name) ? [path] : [];
	});
}

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
	test('every README link in the nodes, the credential and the codex files lands on a README heading', () => {
		const anchors = readmeAnchors();
		const files = [...filesUnder(join(ROOT, 'nodes'), /\.(ts|json)$/), ...filesUnder(join(ROOT, 'credentials'), /\.ts$/)];
		const links = files.flatMap((file) =>
			[...readFileSync(file, 'utf8').matchAll(README_LINK)].map((match) => ({ file: relative(ROOT, file), anchor: match[1] })),
		);
		// the credential's documentationUrl and both codex files link at least
		expect(links.length).toBeGreaterThanOrEqual(5);
		expect(links.filter((link) => !anchors.has(link.anchor))).toEqual([]);
		expect(new DeckGenApi().documentationUrl).toMatch(README_LINK);
	});

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
