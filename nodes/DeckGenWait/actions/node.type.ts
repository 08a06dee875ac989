import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { DeckSpec } from '../../shared/poller';
import type { ReadingSettings, Reading } from '../../shared/n8n/reading';

export type Mode = 'waitUntilDone' | 'checkOnce';

/** The Options collection, as every item reads it at its own index (the reading options among them). */
export interface WaitOptions extends ReadingSettings {
	binaryPropertyName?: string;
	downloadFile?: boolean;
	maxDownloadMb?: number;
	maxWaitMinutes?: number;
	/** A deck whose purchase the item names may answer 404 this long before it fails (shared/n8n/justBought.ts). */
	notFoundGraceSeconds?: number;
	pollIntervalSeconds?: number;
	simplify?: boolean;
}

/** One item of a batch that has a task id, on its way to the poller. */
export interface Waiting {
	index: number;
	mode: Mode;
	options: WaitOptions;
	spec: DeckSpec;
}

/** What the batch asks of a mode: the poller's spec of one item, and what the batch says before it waits. */
export interface WaitMode {
	deckSpec(taskId: string, options: WaitOptions, reading: Reading, loopback: boolean): DeckSpec;
	/** Hints for the output pane, once per batch, from the options of this mode's items. */
	announce?(ctx: IExecuteFunctions, options: WaitOptions[], loopback: boolean): void;
}

/** An item on its output, by its input's index (undefined until placed). */
export type Placed = Array<{ output: number; item: INodeExecutionData } | undefined>;
