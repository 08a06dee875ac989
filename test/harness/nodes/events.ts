import { EventEmitter } from 'node:events';

/**
 * Test-only nodes report what they are doing here, so a test can act at the right moment
 * (e.g. abort while HarnessSleep is sleeping) without polling.
 */
export const harnessEvents = new EventEmitter();
