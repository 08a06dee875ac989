/**
 * No file under nodes/ imports one that imports it back, directly or through others (type-only
 * imports included: a loop of types is still a loop a reader has to hold in mind). Reads each
 * file's `import … from` and `export … from` lines; relative specifiers only (packages cannot loop
 * back into nodes/).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = join(__dirname, '../..');
const NODES = join(ROOT, 'nodes');

function tsFiles(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) return tsFiles(path);
		return name.endsWith('.ts') ? [path] : [];
	});
}

const SPECIFIER = /^\s*(?:import|export)\b[^'"]*?\bfrom\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]/gm;

/** The files a file imports, resolved to paths under nodes/. */
export function importsOf(file: string, text = readFileSync(file, 'utf8')): string[] {
	return [...text.matchAll(SPECIFIER)].flatMap((match) => {
		const specifier = match[1] ?? match[2];
		if (!specifier.startsWith('.')) return [];
		const base = resolve(dirname(file), specifier);
		const found = [`${base}.ts`, join(base, 'index.ts')].find((candidate) => existsSync(candidate));
		return found ? [found] : [];
	});
}

/** Every loop of the graph (strongly connected components with more than one file, or a file importing itself). */
export function cycles(graph: Map<string, string[]>): string[][] {
	let counter = 0;
	const index = new Map<string, number>();
	const low = new Map<string, number>();
	const stack: string[] = [];
	const onStack = new Set<string>();
	const found: string[][] = [];
	const visit = (file: string) => {
		index.set(file, counter);
		low.set(file, counter++);
		stack.push(file);
		onStack.add(file);
		for (const next of graph.get(file) ?? []) {
			if (!index.has(next)) {
				visit(next);
				low.set(file, Math.min(low.get(file)!, low.get(next)!));
			} else if (onStack.has(next)) {
				low.set(file, Math.min(low.get(file)!, index.get(next)!));
			}
		}
		if (low.get(file) !== index.get(file)) return;
		const component: string[] = [];
		for (let member = stack.pop()!; ; member = stack.pop()!) {
			onStack.delete(member);
			component.push(member);
			if (member === file) break;
		}
		if (component.length > 1 || (graph.get(file) ?? []).includes(file)) found.push(component.sort());
	};
	for (const file of graph.keys()) if (!index.has(file)) visit(file);
	return found;
}

describe('imports under nodes/', () => {
	test('the walker sees a loop, type-only imports included', () => {
		const a = join(NODES, 'a.ts');
		const b = join(NODES, 'b.ts');
		expect(cycles(new Map([[a, [b]], [b, [a]]]))).toEqual([[a, b]]);
		expect(cycles(new Map([[a, [b]], [b, []]]))).toEqual([]);
		expect(SPECIFIER.source).toContain('import|export');
		expect([...`import type { X } from './runner';\nexport { y } from "../z";`.matchAll(SPECIFIER)].map((m) => m[1])).toEqual(['./runner', '../z']);
	});

	test('no file imports one that imports it back', () => {
		const files = tsFiles(NODES);
		const graph = new Map(files.map((file) => [file, importsOf(file)]));
		// the walker reads real edges: the node files import their helpers
		expect([...graph.values()].flat().length).toBeGreaterThan(files.length);
		expect(cycles(graph).map((loop) => loop.map((file) => relative(ROOT, file)))).toEqual([]);
	});
});
