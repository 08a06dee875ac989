/**
 * What one n8n process remembers per credential and deck or key, for the readers that get no item (recent
 * purchases, the prices keys were bought at, failure words to confirm): a Map bounded in size, the entry
 * written last kept longest. Framework-free.
 */
export class ProcessMemory<V> {
	private readonly entries = new Map<string, V>();

	constructor(private readonly max = 10_000) {}

	private static keyOf(credential: string, id: string): string {
		return `${credential}\u0000${id}`;
	}

	get(credential: string, id: string): V | undefined {
		return this.entries.get(ProcessMemory.keyOf(credential, id));
	}

	has(credential: string, id: string): boolean {
		return this.entries.has(ProcessMemory.keyOf(credential, id));
	}

	/** Keeps `value` as the newest entry, forgetting the oldest past the bound. */
	set(credential: string, id: string, value: V): void {
		const key = ProcessMemory.keyOf(credential, id);
		this.entries.delete(key);
		this.entries.set(key, value);
		while (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value as string);
	}

	delete(credential: string, id: string): void {
		this.entries.delete(ProcessMemory.keyOf(credential, id));
	}
}
