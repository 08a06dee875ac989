/**
 * The purchases this process confirmed recently, by credential fingerprint and taskId, for the readers that get
 * no item (an AI tool asking Get Status: ./n8n/justBought.ts). One process's memory only: another queue-mode
 * worker, or this one after a restart, does not know them (the tools say so: ./n8n/tool.ts). Framework-free.
 */
import { ProcessMemory } from './processMemory';
import { graceStartOf, type PurchaseFacts } from './purchaseFacts';

/** The recent purchases of this process, by credential fingerprint and taskId (oldest first, as a Map keeps them). */
const recent = new ProcessMemory<PurchaseFacts>();
/** Long past any grace a user would set: a deck confirmed this long ago is no longer "just bought". */
const RECENT_FOR_MS = 2 * 60 * 60_000;

/** Keeps a purchase the service confirmed, for the readers of this process that get no item (the AI tools). */
export function rememberPurchase(credential: string, facts: PurchaseFacts): void {
	// a replay whose purchase time is not known never hides the time a purchase of this process was confirmed
	if (!facts.confirmedAt && recent.get(credential, facts.taskId)?.confirmedAt) return;
	recent.set(credential, facts.taskId, facts);
}

/** A purchase of this deck confirmed in this process with this credential, in the last two hours. */
export function recentPurchase(credential: string, taskId: string, now = Date.now()): PurchaseFacts | undefined {
	const facts = recent.get(credential, taskId);
	if (!facts) return undefined;
	if (now - graceStartOf(facts) <= RECENT_FOR_MS) return facts;
	recent.delete(credential, taskId);
	return undefined;
}
