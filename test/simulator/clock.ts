// The simulator's clock. Deck progress and monthly caps run on sim time; rate limits run on real time
// (see ratelimit.ts) because clients honour Retry-After with real waits.

export type ClockOptions = { speed?: number; startAt?: number } | { manual: true; startAt?: number };

// A fixed epoch for the manual clock keeps timestamps in bodies identical from run to run.
const MANUAL_EPOCH = Date.UTC(2026, 0, 5, 9, 0, 0);

export class SimClock {
	readonly manual: boolean;
	private readonly speed: number;
	private readonly realStart = performance.now();
	private readonly simStart: number;
	private offset = 0;

	constructor(opts: ClockOptions = {}) {
		this.manual = 'manual' in opts && opts.manual === true;
		this.speed = !this.manual && 'speed' in opts && opts.speed !== undefined ? opts.speed : 1;
		if (!(this.speed > 0)) throw new Error(`clock speed must be > 0, got ${this.speed}`);
		this.simStart = opts.startAt ?? (this.manual ? MANUAL_EPOCH : Date.now());
	}

	now(): number {
		const elapsed = this.manual ? 0 : (performance.now() - this.realStart) * this.speed;
		return Math.floor(this.simStart + elapsed + this.offset);
	}

	advance(ms: number): void {
		if (!(ms >= 0)) throw new Error(`advance(ms) needs a non-negative number, got ${ms}`);
		this.offset += ms;
	}
}

/** ISO-8601 of a sim-clock instant. */
export function iso(ms: number): string {
	return new Date(ms).toISOString();
}

/** First instant of the next UTC month: when monthly caps reset. */
export function startOfNextMonth(ms: number): number {
	const d = new Date(ms);
	return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

/** 'YYYY-MM' of a sim-clock instant: the month a monthly counter belongs to. */
export function monthOf(ms: number): string {
	return new Date(ms).toISOString().slice(0, 7);
}
