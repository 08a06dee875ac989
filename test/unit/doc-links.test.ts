/**
 * Every link between the docs lands (issue 45): each relative link of every markdown file in the
 * repository names a file that exists and, with `#anchor`, a heading of that file; each link the panels
 * open (the nodes' codex files and the credential's documentation URL, `github.com/deckgen/n8n-nodes-deckgen#…`
 * or `…/blob/<ref>/<path>#…`, and any such link in a node's text) names a heading of the file it opens.
 * Moving a section, or renaming its heading, fails here until both sides agree.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

import { DeckGenApi } from '../../credentials/DeckGenApi.credentials';

const ROOT = join(__dirname, '../..');
const REPOSITORY_URL = 'https://github.com/deckgen/n8n-nodes-deckgen';

function filesUnder(dir: string, pattern: RegExp): string[] {
	return readdirSync(dir).flatMap((name) => {
		if (name === 'node_modules' || name === 'dist' || name.startsWith('.git')) return [];
		const path = join(dir, name);
		if (statSync(path).isDirectory()) return filesUnder(path, pattern);
		return pattern.test(name) ? [path] : [];
	});
}

/** The anchors GitHub gives a markdown file's headings (lower case, punctuation dropped, spaces to -, repeats numbered). */
export function headingAnchors(markdown: string): Set<string> {
	const anchors = new Set<string>();
	const seen = new Map<string, number>();
	let fenced = false;
	for (const line of markdown.split('\n')) {
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

interface Link {
	from: string;
	line: number;
	/** the file it opens, relative to the repository */
	file: string;
	anchor?: string;
}

/** The relative links of a markdown file (outside code), each resolved to the file it opens. */
function markdownLinks(file: string): Link[] {
	const text = readFileSync(file, 'utf8').replace(/^```[\s\S]*?^```/gm, (block) => block.replace(/[^\n]/g, ' '));
	const links: Link[] = [];
	for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
		const target = match[1];
		if (/^[a-z]+:/i.test(target)) continue;
		const [path, anchor] = target.split('#');
		links.push({
			from: relative(ROOT, file),
			line: text.slice(0, match.index).split('\n').length,
			file: path ? relative(ROOT, resolve(dirname(file), decodeURIComponent(path))) : relative(ROOT, file),
			...(anchor ? { anchor } : {}),
		});
	}
	return links;
}

/** The links to this repository's docs in the nodes and the credential: what a panel's Docs link opens. */
function panelLinks(): Link[] {
	const pattern = /https:\/\/github\.com\/deckgen\/n8n-nodes-deckgen(?:\/blob\/[^/#\s'"]+\/([^#\s'"]+))?#([A-Za-z0-9_-]+)/g;
	const files = [...filesUnder(join(ROOT, 'nodes'), /\.(ts|json)$/), ...filesUnder(join(ROOT, 'credentials'), /\.ts$/)];
	return files.flatMap((file) => {
		const text = readFileSync(file, 'utf8');
		return [...text.matchAll(pattern)].map((match) => ({
			from: relative(ROOT, file),
			line: text.slice(0, match.index).split('\n').length,
			file: match[1] ?? 'README.md',
			anchor: match[2],
		}));
	});
}

function broken(links: Link[]): string[] {
	const anchorsOf = new Map<string, Set<string>>();
	return links.flatMap((link) => {
		const where = `${link.from}:${link.line} → ${link.file}${link.anchor ? `#${link.anchor}` : ''}`;
		const path = join(ROOT, link.file);
		if (!existsSync(path)) return [`${where}: no such file`];
		if (!link.anchor || !link.file.endsWith('.md')) return [];
		if (!anchorsOf.has(link.file)) anchorsOf.set(link.file, headingAnchors(readFileSync(path, 'utf8')));
		return anchorsOf.get(link.file)!.has(link.anchor) ? [] : [`${where}: no such heading`];
	});
}

describe('links between the docs', () => {
	const markdown = filesUnder(ROOT, /\.md$/);

	test('every relative link of every markdown file opens a file that exists, at a heading it has', () => {
		const links = markdown.flatMap(markdownLinks);
		// README, CONTRIBUTING and docs/ link each other: a check that finds none checks nothing
		expect(links.length).toBeGreaterThan(150);
		expect(links.filter((link) => link.anchor && link.file !== link.from).length).toBeGreaterThan(30);
		expect(broken(links)).toEqual([]);
	});

	test("every Docs link of the panels (codex files, the credential, the nodes' texts) opens a heading of the file it names", () => {
		const links = panelLinks();
		// both codex files (primary and credential documentation) and the credential's documentationUrl
		expect(links.length).toBeGreaterThanOrEqual(5);
		expect(new DeckGenApi().documentationUrl.startsWith(`${REPOSITORY_URL}#`)).toBe(true);
		expect(broken(links)).toEqual([]);
	});

	test('the check itself finds a missing file, a missing heading and a heading that is there', () => {
		const at = (file: string, anchor?: string): Link => ({ from: 'sample.md', line: 1, file, ...(anchor ? { anchor } : {}) });
		expect(broken([at('README.md', 'credentials'), at('docs/nodes.md', 'never-buys-twice-when-it-holds'), at('docs/none.md'), at('README.md', 'no-such-section')])).toEqual([
			'sample.md:1 → docs/none.md: no such file',
			'sample.md:1 → README.md#no-such-section: no such heading',
		]);
		expect(headingAnchors('# A\n## Never buys twice: when it holds\n```\n# not a heading\n```\n## A')).toEqual(new Set(['a', 'never-buys-twice-when-it-holds', 'a-1']));
	});
});
