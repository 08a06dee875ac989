/**
 * The simulator in a child process for the benchmark, driven over IPC. Keeping it out of the
 * benchmark's process means process.cpuUsage() and RSS there are the poller's own (what a
 * user's n8n spends), the server's work does not delay the poller's timers, and the two
 * share the machine's two cores the way a client and a remote service would.
 */
import { start, type Limits, type Simulator } from '../simulator';

export type Request =
	| { id: number; type: 'start'; seed: number; speed: number; limits?: Partial<Limits> }
	| { id: number; type: 'seed'; count: number }
	| { id: number; type: 'stats' }
	| { id: number; type: 'stop' };

export interface StartReply {
	url: string;
	apiKey: string;
}

export interface SeedReply {
	taskIds: string[];
	/** Sim-ms from creation to outcome, per deck. */
	durationsMs: number[];
}

export interface StatsReply {
	statusRequests: number;
	rateLimited: number;
	/** CPU of this process since the simulator started, ms. */
	cpuMs: number;
}

let sim: Simulator | undefined;
let cpuAtStart = process.cpuUsage();

async function handle(request: Request): Promise<unknown> {
	switch (request.type) {
		case 'start':
			await sim?.close();
			sim = await start({ seed: request.seed, clock: { speed: request.speed }, limits: request.limits });
			cpuAtStart = process.cpuUsage();
			return { url: sim.url, apiKey: sim.keys.personal } satisfies StartReply;
		case 'seed': {
			const active = sim!;
			const taskIds = Array.from({ length: request.count }, () => active.control.seedDeck({ key: active.keys.personal, outcome: 'succeeded' }));
			const durationsMs = taskIds.map((taskId) => {
				const deck = active.control.deck(taskId)!;
				return deck.doneAt - deck.createdAt;
			});
			return { taskIds, durationsMs } satisfies SeedReply;
		}
		case 'stats': {
			let statusRequests = 0;
			let rateLimited = 0;
			for (const record of sim!.ledger.requests) {
				if (!record.path.endsWith('/status')) continue;
				statusRequests++;
				if (record.status === 429) rateLimited++;
			}
			const cpu = process.cpuUsage(cpuAtStart);
			return { statusRequests, rateLimited, cpuMs: (cpu.user + cpu.system) / 1000 } satisfies StatsReply;
		}
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
