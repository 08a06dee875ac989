/**
 * A deck's state from its status record. The contract shows neither the record's members nor its words, and
 * warns that one word reads as the opposite of what it means without saying which; real generation APIs write
 * their records in many shapes. The judgement is in four parts: the vocabulary (vocabulary.ts), where the word
 * and the members are found (record.ts), each witness (witnesses.ts), and the order they are weighed in
 * (judge.ts).
 */
export * from './vocabulary';
export { locateRecord, expandJsonStrings, valueAtRecordPath, type Located } from './record';
export * from './judge';

import { DEFAULT_STATUS_WORDS, type StatusWords } from './vocabulary';
import { locateRecord } from './record';

/** The status word of a status answer, wherever the record puts it (locateRecord). */
export function statusWordOf(body: Record<string, unknown>, words: StatusWords = DEFAULT_STATUS_WORDS): string | undefined {
	return locateRecord(body, words).word;
}
