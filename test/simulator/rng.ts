// Seeded randomness. Every random choice of the simulator comes from a named stream derived from the seed,
// so that one kind of draw (say, request ids) never shifts another (say, deck durations): same seed, same run.

export interface Rng {
	/** Uniform in [0, 1). */
	next(): number;
	/** Integer in [min, max], both inclusive. */
	int(min: number, max: number): number;
	/** n lowercase hex characters. */
	hex(n: number): string;
}

// FNV-1a over the stream name mixed with the seed: a cheap, stable 32-bit stream seed.
function streamSeed(seed: number, stream: string): number {
	let h = (0x811c9dc5 ^ (seed >>> 0)) >>> 0;
	for (let i = 0; i < stream.length; i++) {
		h ^= stream.charCodeAt(i);
		h = Math.imul(h, 0x01000193) >>> 0;
	}
	h ^= Math.floor(seed / 0x100000000) >>> 0;
	return Math.imul(h, 0x9e3779b1) >>> 0;
}

export function createRng(seed: number, stream: string): Rng {
	// mulberry32: small, fast, good enough for test fixtures.
	let a = streamSeed(seed, stream);
	const next = (): number => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
	return {
		next,
		int: (min, max) => min + Math.floor(next() * (max - min + 1)),
		hex: (n) => {
			let out = '';
			while (out.length < n) out += Math.floor(next() * 0x100000000).toString(16).padStart(8, '0');
			return out.slice(0, n);
		},
	};
}
