import type { WaitOutcome } from '../../shared/poller';

/** The node's three outputs, in order; a tool call puts everything on the first (only it reaches the model). */
export const OUTPUT_NAMES = ['Completed', 'Failed', 'Still Running'];

export const OUTPUT_OF: Record<WaitOutcome, number> = { completed: 0, failed: 1, still_running: 2 };
