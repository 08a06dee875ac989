/**
 * The docs show what the editor shows, from one table (test/editor/panels.ts) that the editor's
 * end-to-end test (test/e2e/editor.e2e.ts) checks in a real n8n: docs/panels.md's section "What each
 * panel shows" is that table rendered; every example's Deck Generator node has its row; every picture
 * README.md links exists (the editor test writes them again on every CI run).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { PANELS, panelFor, panelName } from '../editor/panels';
import { currentSection, renderSection } from '../editor/panels-doc';

const ROOT = join(__dirname, '../..');
const EXAMPLES = join(ROOT, 'test/workflows/examples');
const README = join(ROOT, 'README.md');

describe('docs/panels.md: what each panel shows', () => {
	test('the section is test/editor/panels.ts rendered (regenerate: npx ts-node --transpile-only test/editor/panels-doc.ts --write)', () => {
		expect(currentSection()?.text).toBe(renderSection());
	});

	test('every Deck Generator node of every example has its row; no two rows select the same panel', () => {
		const missing: string[] = [];
		for (const file of readdirSync(EXAMPLES).filter((f) => f.endsWith('.json'))) {
			const wf = JSON.parse(readFileSync(join(EXAMPLES, file), 'utf8')) as { nodes: Array<{ name: string; type: string; typeVersion: number; parameters: Record<string, unknown> }> };
			for (const node of wf.nodes.filter((n) => n.type.startsWith('n8n-nodes-deckgen.'))) {
				if (!panelFor(node)) missing.push(`${file}: ${node.name} (${node.type} v${node.typeVersion})`);
			}
		}
		expect(missing).toEqual([]);
		const names = PANELS.map(panelName);
		expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
	});

	test('every picture README.md links exists', () => {
		const readme = readFileSync(README, 'utf8');
		const links = [...readme.matchAll(/\]\(([^)\s#]+\.(?:png|jpe?g|gif|svg|webp))\)/gi)].map((m) => m[1]).filter((l) => !/^https?:/.test(l));
		expect(links.length).toBeGreaterThanOrEqual(9);
		expect(links.filter((l) => !existsSync(join(ROOT, l)))).toEqual([]);
	});
});
