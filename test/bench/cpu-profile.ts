/**
 * `ts-node test/bench/cpu-profile.ts DIR [--top 25]`: where the CPU time of the V8 CPU profiles in DIR
 * (`bench:queue --cpu-prof DIR`) went. Self time by package (n8n-nodes-deckgen, n8n-core, an n8n
 * node such as HttpRequest, typeorm, ...), and the time spent under each package's frames (its
 * callees included), so a node's cost shows whatever library it calls.
 */
import * as fs from 'fs';
import * as path from 'path';

interface ProfileNode {
	id: number;
	callFrame: { functionName: string; url: string; lineNumber: number };
	children?: number[];
}
interface Profile {
	nodes: ProfileNode[];
	samples: number[];
	timeDeltas: number[];
}

/** The package a frame belongs to: the last node_modules/<name> of its URL, an n8n node's folder, or the VM's own category. */
export function packageOf(url: string, functionName: string): string {
	if (!url) return functionName.startsWith('(') ? functionName : '(native)';
	if (url.startsWith('node:')) return 'node:internal';
	const node = /n8n-nodes-base\/dist\/nodes\/([^/]+)/.exec(url);
	if (node) return `n8n-nodes-base/${node[1]}`;
	const modules = [...url.matchAll(/node_modules\/((?:@[^/]+\/)?[^/]+)/g)];
	return modules.length ? modules[modules.length - 1][1] : url;
}

function main(): void {
	const dir = process.argv[2];
	const topIndex = process.argv.indexOf('--top');
	const top = topIndex >= 0 ? Number(process.argv[topIndex + 1]) : 25;
	if (!dir) throw new Error('usage: cpu-profile.ts DIR [--top N]');
	const files = fs.readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
	for (const file of files) {
		const profile = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as Profile;
		const byId = new Map(profile.nodes.map((n) => [n.id, n]));
		const parent = new Map<number, number>();
		for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
		const self = new Map<string, number>();
		const under = new Map<string, number>();
		let total = 0;
		profile.samples.forEach((id, i) => {
			const micros = profile.timeDeltas[i] ?? 0;
			const n = byId.get(id)!;
			const own = packageOf(n.callFrame.url, n.callFrame.functionName);
			if (own === '(idle)') return;
			total += micros;
			self.set(own, (self.get(own) ?? 0) + micros);
			const seen = new Set<string>();
			for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
				const f = byId.get(at)!.callFrame;
				seen.add(packageOf(f.url, f.functionName));
			}
			for (const p of seen) under.set(p, (under.get(p) ?? 0) + micros);
		});
		const ms = (micros: number) => (micros / 1000).toFixed(0).padStart(8);
		const pct = (micros: number) => ((100 * micros) / total).toFixed(1).padStart(5);
		console.log(`\n${file}: ${ms(total)} ms busy\n\n     self ms      %   under ms      %  package`);
		for (const [name, micros] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) {
			const u = under.get(name) ?? 0;
			console.log(`${ms(micros)}  ${pct(micros)}  ${ms(u)}  ${pct(u)}  ${name}`);
		}
	}
}

main();
