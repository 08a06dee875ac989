/**
 * Whether bytes are a deck's file, by the bytes themselves: what a link leads to is the last witness of a
 * deck's state (status/judge.ts), and what the nodes hand over as the deck must be the file it claims to be. A
 * PPTX is a ZIP with a presentation inside (`ppt/presentation.xml`), an ODP a ZIP whose `mimetype` says
 * presentation, a Keynote file a ZIP with `Index/`, a PDF starts with `%PDF`, a PPT is an OLE2 file, a video
 * is an MP4/MOV/WebM. An HTML page, an image, an XML or JSON error (a storage host's `NoSuchKey`) is not a deck,
 * whatever its Content-Type says; a generic type such as `application/octet-stream` is no objection.
 */
import { sniff } from './materials';

export type DeckFormat = 'pptx' | 'odp' | 'key' | 'pdf' | 'ppt' | 'video';

export type DeckFileVerdict = { deck: true; format: DeckFormat | 'zip' } | { deck: false; what: string };

/** How many first bytes a check of the file reads (a ranged GET): enough for any signature and an error page. */
export const FILE_HEAD_BYTES = 4096;

const ascii = (bytes: Uint8Array, from: number, to: number) => Buffer.from(bytes.subarray(from, Math.min(to, bytes.length))).toString('latin1');

/** ISO media (MP4, MOV, 3GP) brands of video, at bytes 8-12 after `ftyp`. */
const VIDEO_BRAND = /^(isom|iso[2-9]|mp4[12v]|avc1|M4V |qt  |3gp[4-9]|3g2[a-c]|dash|msnv|f4v )$/;

/**
 * What the first bytes of a file say (a check of a link before it is believed): a deck's format, or words for
 * what it is instead. A ZIP passes here (the names inside may lie beyond the bytes read); `deckFileVerdict`
 * checks them.
 */
export function headOfDeckFile(bytes: Uint8Array): DeckFileVerdict {
	if (bytes.length === 0) return { deck: false, what: 'an empty file' };
	const text = ascii(bytes, 0, 1024);
	if (ascii(bytes, 4, 8) === 'ftyp' && VIDEO_BRAND.test(ascii(bytes, 8, 12))) return { deck: true, format: 'video' };
	if (bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3) return { deck: true, format: 'video' };
	// a PDF may have a few bytes before its header (the PDF reference allows it within the first 1024)
	if (text.includes('%PDF-')) return { deck: true, format: 'pdf' };
	switch (sniff(bytes)) {
		case 'ooxml':
			return { deck: true, format: 'zip' };
		case 'ole':
			return { deck: true, format: 'ppt' };
		case 'png':
			return { deck: false, what: 'an image (PNG)' };
		case 'jpeg':
			return { deck: false, what: 'an image (JPEG)' };
		case 'gif':
			return { deck: false, what: 'an image (GIF)' };
		case 'webp':
			return { deck: false, what: 'an image (WebP)' };
		case 'heic':
			return { deck: false, what: 'an image (HEIC)' };
		case 'markup':
			return { deck: false, what: /<svg[\s>]/i.test(text) ? 'an image (SVG)' : 'an HTML page' };
		case 'text':
			return { deck: false, what: textKind(text) };
		default:
			return { deck: false, what: 'a file in no deck format' };
	}
}

/** What a text answer is: a storage error (`NoSuchKey`), an XML or JSON document, a page, plain text. */
function textKind(text: string): string {
	const head = text.replace(/^\uFEFF/, '').trimStart();
	const code = /<Code>([^<]{1,64})<\/Code>/.exec(head)?.[1];
	if (head.startsWith('<?xml') || head.startsWith('<Error')) return code ? `an XML error (${code})` : 'an XML document';
	if (/^<!doctype\s+html|^<html[\s>]/i.test(head)) return 'an HTML page';
	if (head.startsWith('{') || head.startsWith('[')) return 'a JSON document';
	return 'a text';
}

/** The names of a ZIP's entries, from its central directory (names are stored uncompressed); undefined: not a readable ZIP. */
export function zipEntryNames(bytes: Uint8Array): string[] | undefined {
	const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	// the end of central directory record: 22 bytes plus a comment of up to 65535
	for (let end = data.length - 22; end >= Math.max(0, data.length - 22 - 65535); end--) {
		if (data.readUInt32LE(end) !== 0x06054b50) continue;
		const count = data.readUInt16LE(end + 10);
		let at = data.readUInt32LE(end + 16);
		const names: string[] = [];
		for (let n = 0; n < count; n++) {
			if (at + 46 > data.length || data.readUInt32LE(at) !== 0x02014b50) return undefined;
			const nameLength = data.readUInt16LE(at + 28);
			const extraLength = data.readUInt16LE(at + 30);
			const commentLength = data.readUInt16LE(at + 32);
			names.push(data.toString('utf8', at + 46, at + 46 + nameLength));
			at += 46 + nameLength + extraLength + commentLength;
		}
		return names;
	}
	return undefined;
}

/** The ZIP's presentation format by its entries, or undefined when none is inside. */
function presentationIn(bytes: Uint8Array): DeckFormat | undefined {
	const names = zipEntryNames(bytes);
	if (!names) return undefined;
	if (names.includes('ppt/presentation.xml')) return 'pptx';
	if (names.some((name) => name.startsWith('Index/')) || names.includes('Index.zip')) return 'key';
	// ODF puts an uncompressed `mimetype` entry first: its bytes follow the first local header
	if (names[0] === 'mimetype' && ascii(bytes, 30 + 8, 30 + 8 + 64).startsWith('application/vnd.oasis.opendocument.presentation')) return 'odp';
	return undefined;
}

/** The format a file claims by its name's extension or its declared type (generic types claim nothing). */
export function claimedFormat(fileName: string | undefined, mimeType: string | undefined): DeckFormat | undefined {
	const extension = /\.([a-z0-9]{1,5})$/i.exec(fileName ?? '')?.[1]?.toLowerCase();
	const type = (mimeType ?? '').toLowerCase();
	if (extension === 'pptx' || type.includes('presentationml')) return 'pptx';
	if (extension === 'pdf' || type === 'application/pdf') return 'pdf';
	if (extension === 'odp' || type.includes('opendocument.presentation')) return 'odp';
	if (extension === 'key' || type.includes('keynote')) return 'key';
	if (extension === 'ppt' || type === 'application/vnd.ms-powerpoint') return 'ppt';
	if (['mp4', 'mov', 'm4v', 'webm'].includes(extension ?? '') || type.startsWith('video/')) return 'video';
	return undefined;
}

const FORMAT_NAME: Record<DeckFormat, string> = { pptx: 'PPTX', odp: 'ODP', key: 'Keynote file', pdf: 'PDF', ppt: 'PPT', video: 'video' };

/**
 * Whether a whole downloaded file is a deck, and the one it claims to be (by its name or declared type): a
 * ZIP must have a presentation inside, and a file named `.pdf` must be a PDF. Otherwise, in words, what it is.
 */
export function deckFileVerdict(bytes: Uint8Array, claim?: { fileName?: string; mimeType?: string }): DeckFileVerdict {
	const head = headOfDeckFile(bytes);
	if (!head.deck) return head;
	const format = head.format === 'zip' ? presentationIn(bytes) : head.format;
	if (!format) return { deck: false, what: 'a ZIP archive with no presentation inside' };
	const claimed = claimedFormat(claim?.fileName, claim?.mimeType);
	if (claimed && claimed !== format) return { deck: false, what: `a ${FORMAT_NAME[format]}, not the ${FORMAT_NAME[claimed]} it is named as` };
	return { deck: true, format };
}
