// Small real ZIP files, as a real host serves a PPTX (or a DOCX input document): local headers, the central
// directory and the end record, every entry stored (not deflated) so that a reader needs no zlib to list the
// names. `zipEntries` reads a ZIP back by its central directory, as a ZIP reader does, for tests that check a
// file by its structure rather than by a magic prefix.

export interface ZipEntry {
	name: string;
	data: Buffer;
}

const LOCAL_HEADER = 30;
const CENTRAL_HEADER = 46;
const END_RECORD = 22;
/** 1980-01-01 00:00 in DOS time and date: a fixed stamp keeps the bytes deterministic. */
const DOS_TIME = 0;
const DOS_DATE = (0 << 9) | (1 << 5) | 1;

const CRC_TABLE = (() => {
	const table = new Uint32Array(256);
	for (let n = 0; n < 256; n++) {
		let c = n;
		for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
		table[n] = c >>> 0;
	}
	return table;
})();

export function crc32(data: Buffer): number {
	let crc = 0xffffffff;
	for (let i = 0; i < data.length; i++) crc = CRC_TABLE[(crc ^ data[i]) & 0xff] ^ (crc >>> 8);
	return (crc ^ 0xffffffff) >>> 0;
}

/** Bytes a ZIP of these entries takes beyond the entries' own data. */
export function zipOverhead(names: string[]): number {
	return names.reduce((sum, name) => sum + LOCAL_HEADER + CENTRAL_HEADER + 2 * Buffer.byteLength(name), END_RECORD);
}

/** A ZIP archive of stored entries, in the order given. */
export function zip(entries: ZipEntry[]): Buffer {
	const locals: Buffer[] = [];
	const centrals: Buffer[] = [];
	let offset = 0;
	for (const entry of entries) {
		const name = Buffer.from(entry.name, 'utf8');
		const crc = crc32(entry.data);
		const local = Buffer.alloc(LOCAL_HEADER);
		local.writeUInt32LE(0x04034b50, 0);
		local.writeUInt16LE(20, 4); // version needed: 2.0
		local.writeUInt16LE(0x0800, 6); // flags: names in UTF-8
		local.writeUInt16LE(0, 8); // method: stored
		local.writeUInt16LE(DOS_TIME, 10);
		local.writeUInt16LE(DOS_DATE, 12);
		local.writeUInt32LE(crc, 14);
		local.writeUInt32LE(entry.data.length, 18);
		local.writeUInt32LE(entry.data.length, 22);
		local.writeUInt16LE(name.length, 26);
		local.writeUInt16LE(0, 28);
		locals.push(local, name, entry.data);

		const central = Buffer.alloc(CENTRAL_HEADER);
		central.writeUInt32LE(0x02014b50, 0);
		central.writeUInt16LE(20, 4); // made by: 2.0
		central.writeUInt16LE(20, 6);
		central.writeUInt16LE(0x0800, 8);
		central.writeUInt16LE(0, 10);
		central.writeUInt16LE(DOS_TIME, 12);
		central.writeUInt16LE(DOS_DATE, 14);
		central.writeUInt32LE(crc, 16);
		central.writeUInt32LE(entry.data.length, 20);
		central.writeUInt32LE(entry.data.length, 24);
		central.writeUInt16LE(name.length, 28);
		// extra, comment, disk, internal and external attributes: 0
		central.writeUInt32LE(offset, 42);
		centrals.push(central, name);
		offset += LOCAL_HEADER + name.length + entry.data.length;
	}
	const directory = Buffer.concat(centrals);
	const end = Buffer.alloc(END_RECORD);
	end.writeUInt32LE(0x06054b50, 0);
	end.writeUInt16LE(entries.length, 8);
	end.writeUInt16LE(entries.length, 10);
	end.writeUInt32LE(directory.length, 12);
	end.writeUInt32LE(offset, 16);
	return Buffer.concat([...locals, directory, end]);
}

export interface ZipListing {
	name: string;
	/** Stored size (the same as the data's: entries are stored). */
	size: number;
	/** Offset of the entry's local header. */
	offset: number;
	crc: number;
}

/**
 * The entries a ZIP's central directory names, read from its end record as a ZIP reader does; undefined when
 * the bytes are not a whole ZIP (no end record, a directory that points outside the file, a wrong signature).
 */
export function zipEntries(data: Buffer): ZipListing[] | undefined {
	const endAt = data.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
	if (endAt < 0 || endAt + END_RECORD > data.length) return undefined;
	const count = data.readUInt16LE(endAt + 10);
	const size = data.readUInt32LE(endAt + 12);
	let at = data.readUInt32LE(endAt + 16);
	if (at + size > endAt) return undefined;
	const entries: ZipListing[] = [];
	for (let i = 0; i < count; i++) {
		if (at + CENTRAL_HEADER > endAt || data.readUInt32LE(at) !== 0x02014b50) return undefined;
		const nameLength = data.readUInt16LE(at + 28);
		const extra = data.readUInt16LE(at + 30);
		const comment = data.readUInt16LE(at + 32);
		const offset = data.readUInt32LE(at + 42);
		if (offset + LOCAL_HEADER > data.length || data.readUInt32LE(offset) !== 0x04034b50) return undefined;
		entries.push({ name: data.subarray(at + CENTRAL_HEADER, at + CENTRAL_HEADER + nameLength).toString('utf8'), size: data.readUInt32LE(at + 24), offset, crc: data.readUInt32LE(at + 16) });
		at += CENTRAL_HEADER + nameLength + extra + comment;
	}
	return entries;
}

/** The data of one stored entry (by its listing), or undefined. */
export function zipEntryData(data: Buffer, entry: ZipListing): Buffer | undefined {
	const nameLength = data.readUInt16LE(entry.offset + 26);
	const extra = data.readUInt16LE(entry.offset + 28);
	const from = entry.offset + LOCAL_HEADER + nameLength + extra;
	return from + entry.size <= data.length ? data.subarray(from, from + entry.size) : undefined;
}
