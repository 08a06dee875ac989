import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { CancelledError } from '../../../nodes/shared/client';
import { serviceFor } from '../../../nodes/shared/n8n/service';
import { DEFAULT_MAX_IN_FLIGHT } from '../../../nodes/shared/poller';
import { deckPath } from '../../../nodes/shared/transport';
import { isFinished } from '../../bench/baselines';

interface OracleDeck {
	taskId: string;
	/** When the deck finishes (epoch ms, as the simulator seeded it). */
	dueAt: number;
	lastReadAt: number;
	done: boolean;
	polls: number;
}

/**
 * Test-only node (`CUSTOM.harnessFloorOracle`): the request floor of "Wait Until Done", read
 * through the same path as the Wait node (`serviceFor`: n8n's request helper, the core's retry
 * policy, the credential's gate). It is told when every deck finishes (`dueAt` on each item), so
 * each interval it reads every deck that has finished since the last one, plus one deck still
 * running to "notice the end": N + ceil(T / interval) reads, each deck read right after it finished.
 * `npm run bench` runs it beside the Wait node to measure what the floor itself costs on the machine.
 */
export class HarnessFloorOracle implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Harness Floor Oracle',
		name: 'harnessFloorOracle',
		group: ['transform'],
		version: 1,
		description: 'Reads decks at the request floor, knowing when each finishes',
		defaults: { name: 'Harness Floor Oracle' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'deckGenApi', required: true }],
		properties: [{ displayName: 'Interval (ms)', name: 'intervalMs', type: 'number', default: 5000 }],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const intervalMs = this.getNodeParameter('intervalMs', 0) as number;
		const service = await serviceFor(this);
		const decks: OracleDeck[] = items.map((item) => ({
			taskId: String(item.json.taskId),
			dueAt: Number(item.json.dueAt),
			lastReadAt: Number.NEGATIVE_INFINITY,
			done: false,
			polls: 0,
		}));

		const read = async (deck: OracleDeck) => {
			const result = await service.call({ method: 'GET', path: deckPath(deck.taskId, 'status') });
			deck.lastReadAt = Date.now();
			deck.polls++;
			const { outcome } = result;
			if (outcome.route !== 'success') {
				throw new NodeOperationError(this.getNode(), `Reading ${deck.taskId} ended ${outcome.route}: ${outcome.failure.detail}`);
			}
			deck.done = isFinished(result);
		};

		try {
			let left = decks;
			for (let turn = 0; left.length > 0; turn++) {
				const passStart = Date.now();
				// Finished since the last pass: each is read once, right after it finished (a read that
				// still finds it running, from clock skew, just reads it again next interval).
				const batch = left.filter((deck) => deck.dueAt <= passStart && deck.lastReadAt + intervalMs <= passStart);
				// One deck still running, a different one each time: the read that notices the end.
				const running = left.filter((deck) => deck.dueAt > passStart);
				if (running.length > 0) batch.push(running[turn % running.length]);
				for (let start = 0; start < batch.length; start += DEFAULT_MAX_IN_FLIGHT) {
					await Promise.all(batch.slice(start, start + DEFAULT_MAX_IN_FLIGHT).map(read));
				}
				left = left.filter((deck) => !deck.done);
				if (left.length > 0) await service.sleep(Math.max(0, passStart + intervalMs - Date.now()), service.signal);
			}
		} catch (error) {
			if (error instanceof CancelledError) throw new NodeOperationError(this.getNode(), 'The execution was cancelled');
			throw error;
		}
		return [decks.map((deck, i) => ({ json: { taskId: deck.taskId, polls: deck.polls }, pairedItem: { item: i } }))];
	}
}
