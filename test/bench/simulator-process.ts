/**
 * The simulator in a child process for the benchmark, driven over IPC. Keeping it out of the
 * benchmark's process means process.cpuUsage() and memory there are the waiting side's own
 * (what a user's n8n spends), the server's work does not delay the poller's timers, and the two
 * share the machine's two cores the way a client and a remote service would.
 */
import { start, type Limits, type ProfileChoices, type Simulator } from '../simulator';

export type Request =
	| { id: number; type: 'start'; seed: number; speed: number; limits?: Partial<Limits>; choices?: Partial<ProfileChoices> }
	| { id: number; type: 'seed'; count: number }
	| { id: number; type: 'stats'; intervalMs: number }
	| { id: number; type: 'stop' };

export interface StartReply {
	url: string;
	apiKey: string;
}

export interface SeedReply {
	taskIds: string[];
	/** Sim-ms from `seededAt` to the deck's outcome, per deck. */
	durationsMs: number[];
	/** Sim-clock ms when the decks were created. */
	seededAt: number;
	/** The same moment on the wall clock (Date.now), to place each deck's end in real time. */
	seededAtReal: number;
}

export interface StatsReply {
	statusRequests: number;
	rateLimited: number;
	/** Sim-clock ms now, and the wall clock (Date.now) at the same moment, to place real instants on the sim clock. */
	now: number;
	realNow: number;
	/** Shortest time between two answered (not 429) reads of one deck, sim ms; null if no deck was read twice. */
	minGapMs: number | null;
	/** Status reads that started within one interval before the last one: the last sweep. */
	lastSweep: number;
	/** Sim-clock ms of the first and the last status read. */
	firstReadAt: number;
	lastReadAt: number;
	/** Status reads per 100 sim seconds, from the first one (where the time went). */
	readsPer100S: number[];
	/** CPU of this process since the simulator started, ms. */
	cpuMs: number;
	/** Requests for a deck's file (the API's and the storage's): the file checks a wait made, and downloads. */
	fileRequests: number;
}

let sim: Simulator | undefined;
let cpuAtStart = process.cpuUsage();

function stats(intervalMs: number): StatsReply {
	let statusRequests = 0;
	let rateLimited = 0;
	let minGapMs = Number.POSITIVE_INFINITY;
	let lastAt = Number.NEGATIVE_INFINITY;
	const lastReadOf = new Map<string, number>();
	const reads: number[] = [];
	for (const record of sim!.ledger.requests) {
		if (!record.path.endsWith('/status')) continue;
		statusRequests++;
		reads.push(record.at);
		lastAt = Math.max(lastAt, record.at);
		if (record.status === 429) {
			rateLimited++;
			continue;
		}
		const previous = lastReadOf.get(record.path);
		if (previous !== undefined) minGapMs = Math.min(minGapMs, record.at - previous);
		lastReadOf.set(record.path, record.at);
	}
	const cpu = process.cpuUsage(cpuAtStart);
	return {
		statusRequests,
		rateLimited,
		now: sim!.control.now(),
		realNow: Date.now(),
		minGapMs: Number.isFinite(minGapMs) ? minGapMs : null,
		lastSweep: reads.filter((at) => at > lastAt - intervalMs).length,
		firstReadAt: reads.reduce((first, at) => Math.min(first, at), Number.POSITIVE_INFINITY),
		lastReadAt: lastAt,
		readsPer100S: perHundredSeconds(reads),
		cpuMs: (cpu.user + cpu.system) / 1000,
		fileRequests: sim!.fileRequests.length + sim!.storage.requests.length,
	};
}

function perHundredSeconds(reads: number[]): number[] {
	if (!reads.length) return [];
	const first = reads.reduce((min, at) => Math.min(min, at), Number.POSITIVE_INFINITY);
	const counts: number[] = [];
	for (const at of reads) {
		const slot = Math.floor((at - first) / 100_000);
		counts[slot] = (counts[slot] ?? 0) + 1;
	}
	return Array.from(counts, (count) => count ?? 0);
}

async function handle(request: Request): Promise<unknown> {
	switch (request.type) {
		case 'start':
			await sim?.close();
			sim = await start({ seed: request.seed, clock: { speed: request.speed }, limits: request.limits, choices: request.choices });
			cpuAtStart = process.cpuUsage();
			return { url: sim.url, apiKey: sim.keys.personal } satisfies StartReply;
		case 'seed': {
			const active = sim!;
			const seededAt = active.control.now();
			const seededAtReal = Date.now();
			const taskIds = Array.from({ length: request.count }, () => active.control.seedDeck({ key: active.keys.personal, outcome: 'succeeded' }));
			const durationsMs = taskIds.map((taskId) => {
				const deck = active.control.deck(taskId)!;
				return deck.doneAt - seededAt;
			});
			return { taskIds, durationsMs, seededAt, seededAtReal } satisfies SeedReply;
		}
		case 'stats':
			return stats(request.intervalMs);
		case 'stop':
			await sim?.close();
			sim = undefined;
			return {};
	}
}

process.on('message', (request: Request) => {
	handle(request).then(
		(result) => process.send!({ id: request.id, result }),
		(error: Error) => process.send!({ id: request.id, error: error.stack ?? error.message }),
	);
});
process.on('disconnect', () => {
	void sim?.close().finally(() => process.exit(0));
});
