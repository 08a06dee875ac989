/**
 * docs/panels.md's section "What each panel shows", rendered from the one table (./panels.ts):
 *
 *   npx ts-node --transpile-only test/editor/panels-doc.ts           # exit 1 when docs/panels.md's section differs
 *   npx ts-node --transpile-only test/editor/panels-doc.ts --write   # rewrite the section in docs/panels.md
 *
 * test/unit/panels-doc.test.ts fails while the section differs from the table; the editor's
 * end-to-end test (test/e2e/editor.e2e.ts) fails while the editor differs from it.
 */
import * as fs from 'fs';
import * as path from 'path';
import { PANELS, panelName } from './panels';

export const PANELS_DOC = path.resolve(__dirname, '..', '..', 'docs', 'panels.md');
export const HEADING = '## What each panel shows';

const cell = (s: string) => s.replace(/\|/g, '\\|');

/** The section, heading to last line (a blank line follows it in docs/panels.md). */
export function renderSection(): string {
	const rows = PANELS.map((p) => {
		const fields = p.fields.map((f) => (f.startsWith('Notice: ') ? `*(notice: ${f.slice('Notice: '.length).replace(/[.:]?$/, '')} …)*` : f)).join(', ');
		const outputs = p.outputs.map((o) => (o.startsWith('ai_tool:') ? `(its tool connection${o.slice('ai_tool:'.length).trim() ? `, labelled ${o.slice('ai_tool:'.length).trim()}` : ''})` : o)).join(', ');
		const how = p.added ? `added now${p.toFill ? `; to fill: ${p.toFill.join(', ')}` : ''}` : 'in the examples';
		return `| ${cell(panelName(p))} | ${how} | ${cell(fields)} | ${cell(outputs)} |`;
	});
	return [
		HEADING,
		'',
		'Each panel as n8n 2.x draws it, fields top to bottom (Parameters tab; the credential row and what',
		'is inside *Additional Fields* and *Options* not listed), and the outputs on the canvas in order.',
		'"Added now" is a node added from the node creator today (version 1.1); "in the examples" is a node',
		'of `test/workflows/examples` (version 1.1 too, as a new node is) that no node added now shows. A required',
		'field a new node leaves empty ("to fill") marks the node on the canvas until it is filled.',
		'',
		'This table is generated from `test/editor/panels.ts`, which the editor test (`test/e2e/editor.e2e.ts`)',
		'checks in a real n8n on every CI run; regenerate with `npx ts-node --transpile-only test/editor/panels-doc.ts --write`.',
		'',
		'| Panel | Where | Fields, top to bottom | Outputs |',
		'|---|---|---|---|',
		...rows,
	].join('\n');
}

/** docs/panels.md's section as it stands: from its heading up to the next heading of level 1 or 2. */
export function currentSection(doc = fs.readFileSync(PANELS_DOC, 'utf8')): { text: string; start: number; end: number } | undefined {
	const start = doc.indexOf(`\n${HEADING}\n`);
	if (start < 0) return undefined;
	const from = start + 1;
	const next = doc.slice(from + HEADING.length).search(/\n#{1,2} /);
	const end = next < 0 ? doc.length : from + HEADING.length + next + 1;
	return { text: doc.slice(from, end).replace(/\n+$/, ''), start: from, end };
}

if (require.main === module) {
	const doc = fs.readFileSync(PANELS_DOC, 'utf8');
	const current = currentSection(doc);
	const wanted = renderSection();
	if (process.argv.includes('--write')) {
		if (!current) throw new Error(`docs/panels.md has no "${HEADING}" section: add the heading where it belongs, then run again`);
		fs.writeFileSync(PANELS_DOC, `${doc.slice(0, current.start)}${wanted}\n\n${doc.slice(current.end)}`);
		console.log(`docs/panels.md: "${HEADING}" written (${wanted.split('\n').length} lines)`);
	} else if (current?.text !== wanted) {
		console.error(`docs/panels.md: "${HEADING}" differs from test/editor/panels.ts; run with --write`);
		process.exit(1);
	} else console.log(`docs/panels.md: "${HEADING}" matches test/editor/panels.ts`);
}
