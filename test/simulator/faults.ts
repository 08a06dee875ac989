// The seeded fault plan: which request gets dropped, failed or slowed. Draws come from their own rng stream,
// so the same seed and the same request sequence give the same faults.
import type { Rng } from './rng';
import type { FaultKind, FaultRule } from './types';

const KINDS: FaultKind[] = ['drop-before-commit', 'drop-after-commit', 'status500', 'status503', 'status429', 'latency'];

interface ArmedRule {
	rule: FaultRule;
	fired: number;
}

export class FaultPlan {
	private rules: ArmedRule[] = [];
	private counts = emptyCounts();

	constructor(private readonly rng: Rng, rules: FaultRule[] = []) {
		this.set(rules);
	}

	set(rules: FaultRule[]): void {
		for (const rule of rules) {
			if (!KINDS.includes(rule.kind)) throw new Error(`unknown fault kind ${String(rule.kind)}`);
		}
		this.rules = rules.map((rule) => ({ rule, fired: 0 }));
	}

	/** The first matching rule that fires for this request, if any; counts it as injected. */
	pick(method: string, path: string): FaultRule | undefined {
		for (const armed of this.rules) {
			const { rule } = armed;
			if (rule.method && rule.method.toUpperCase() !== method) continue;
			if (rule.path !== undefined && !pathMatches(rule.path, path)) continue;
			if (rule.times !== undefined && armed.fired >= rule.times) continue;
			const p = rule.probability ?? 1;
			if (p < 1 && this.rng.next() >= p) continue;
			armed.fired++;
			this.counts[rule.kind]++;
			return rule;
		}
		return undefined;
	}

	injected(): Record<FaultKind, number> {
		return { ...this.counts };
	}
}

function emptyCounts(): Record<FaultKind, number> {
	return Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<FaultKind, number>;
}

function pathMatches(pattern: string | RegExp, path: string): boolean {
	if (typeof pattern === 'string') return pattern === path;
	pattern.lastIndex = 0; // a /g or /y RegExp would otherwise remember where it stopped
	return pattern.test(path);
}
