import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { DeckSpec } from '../../shared/poller';
import type { StatusWords } from '../../shared/status';

export type Mode = 'waitUntilDone' | 'checkOnce';

/** The Options collection, as every item reads it at its own index. */
export interface WaitOptions {
	binaryPropertyName?: string;
	downloadFile?: boolean;
	downloadLink?: string;
	maxDownloadMb?: number;
	failedWords?: string;
	maxWaitMinutes?: number;
	pollIntervalSeconds?: number;
	runningWords?: string;
	simplify?: boolean;
	succeededWords?: string;
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
	deckSpec(taskId: string, options: WaitOptions, words: StatusWords, loopback: boolean): DeckSpec;
	/** Hints for the output pane, once per batch, from the options of this mode's items. */
	announce?(ctx: IExecuteFunctions, options: WaitOptions[], loopback: boolean): void;
}

/** An item on its output, by its input's index (undefined until placed). */
export type Placed = Array<{ output: number; item: INodeExecutionData } | undefined>;
