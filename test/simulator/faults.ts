// The seeded fault plan: which request gets dropped, failed or slowed. Draws come from their own rng stream,
// so the same seed and the same request sequence give the same faults.
import type { Rng } from './rng';
import type { FaultKind, FaultRule, FaultStep } from './types';

const KINDS: FaultKind[] = ['drop-before-commit', 'drop-after-commit', 'status500', 'status503', 'status429', 'latency'];

interface ArmedRule {
	rule: FaultRule;
	fired: number;
}

/** A fault as it applies to one request: a rule that fired, or a step of an earlier rule's sequence. */
export type PickedFault = FaultStep & { followUp?: boolean };

export class FaultPlan {
	private rules: ArmedRule[] = [];
	private counts = emptyCounts();
	/** Steps still to come, by the request they follow (see pick). */
	private readonly sequences = new Map<string, FaultStep[]>();

	constructor(private readonly rng: Rng, rules: FaultRule[] = []) {
		this.set(rules);
	}

	set(rules: FaultRule[]): void {
		for (const rule of rules) {
			for (const step of [rule, ...(rule.followedBy ?? [])]) {
				if (!KINDS.includes(step.kind)) throw new Error(`unknown fault kind ${String(step.kind)}`);
				if (step.afterCommit && step.kind !== 'status500' && step.kind !== 'status503') {
					throw new Error(`afterCommit applies to status500 and status503 only, not ${step.kind}`);
				}
			}
		}
		this.rules = rules.map((rule) => ({ rule, fired: 0 }));
		this.sequences.clear();
	}

	/**
	 * The fault for this request, if any; counts it as injected. `sequenceKey` names the request
	 * a `followedBy` sequence follows (Idempotency-Key and credential): a pending step of its
	 * sequence comes first, else the first matching rule that fires.
	 */
	pick(method: string, path: string, sequenceKey?: string): PickedFault | undefined {
		const pending = sequenceKey === undefined ? undefined : this.sequences.get(sequenceKey);
		if (pending?.length) {
			const step = pending.shift()!;
			if (!pending.length) this.sequences.delete(sequenceKey!);
			this.counts[step.kind]++;
			return { ...step, followUp: true };
		}
		for (const armed of this.rules) {
			const { rule } = armed;
			if (rule.method && rule.method.toUpperCase() !== method) continue;
			if (rule.path !== undefined && !pathMatches(rule.path, path)) continue;
			if (rule.times !== undefined && armed.fired >= rule.times) continue;
			const p = rule.probability ?? 1;
			if (p < 1 && this.rng.next() >= p) continue;
			armed.fired++;
			this.counts[rule.kind]++;
			if (rule.followedBy?.length && sequenceKey !== undefined) this.sequences.set(sequenceKey, [...rule.followedBy]);
			const { kind, shape, latencyMs, afterCommit } = rule;
			return { kind, shape, latencyMs, afterCommit };
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
