/**
 * The local version of the service's 415 check, run before any byte is sent: the filename
 * extension, the declared Content-Type and the sniffed first bytes must agree (contract,
 * "415 file rules"). The verdict names the disagreement, so the user fixes the right thing.
 */

export const ALLOWED_EXTENSIONS = [
	'pdf',
	'doc',
	'docx',
	'xls',
	'xlsx',
	'ppt',
	'pptx',
	'csv',
	'txt',
	'md',
	'png',
	'jpg',
	'jpeg',
	'webp',
	'gif',
	'heic',
] as const;
export type AllowedExtension = (typeof ALLOWED_EXTENSIONS)[number];

/** The sniffed format families. */
export type SniffedFormat =
	| 'pdf'
	| 'png'
	| 'jpeg'
	| 'gif'
	| 'webp'
	| 'heic'
	| 'ooxml'
	| 'ole'
	| 'text'
	| 'markup'
	| 'executable'
	| 'script'
	| 'binary';

interface ExtensionRule {
	formats: SniffedFormat[];
	contentTypes: string[];
}

const OOXML = ['ooxml'] as SniffedFormat[];
const OLE = ['ole'] as SniffedFormat[];
const TEXT = ['text', 'markup'] as SniffedFormat[];

/** For each allowed extension: the formats its bytes may be, and the types it may be declared as. */
export const EXTENSION_RULES: Record<AllowedExtension, ExtensionRule> = {
	pdf: { formats: ['pdf'], contentTypes: ['application/pdf'] },
	doc: { formats: OLE, contentTypes: ['application/msword'] },
	docx: {
		formats: OOXML,
		contentTypes: ['application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
	},
	xls: { formats: OLE, contentTypes: ['application/vnd.ms-excel'] },
	xlsx: { formats: OOXML, contentTypes: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'] },
	ppt: { formats: OLE, contentTypes: ['application/vnd.ms-powerpoint'] },
	pptx: {
		formats: OOXML,
		contentTypes: ['application/vnd.openxmlformats-officedocument.presentationml.presentation'],
	},
	csv: { formats: TEXT, contentTypes: ['text/csv', 'text/plain', 'application/csv', 'application/vnd.ms-excel'] },
	txt: { formats: TEXT, contentTypes: ['text/plain'] },
	md: { formats: TEXT, contentTypes: ['text/markdown', 'text/x-markdown', 'text/plain'] },
	png: { formats: ['png'], contentTypes: ['image/png'] },
	jpg: { formats: ['jpeg'], contentTypes: ['image/jpeg', 'image/jpg', 'image/pjpeg'] },
	jpeg: { formats: ['jpeg'], contentTypes: ['image/jpeg', 'image/jpg', 'image/pjpeg'] },
	webp: { formats: ['webp'], contentTypes: ['image/webp'] },
	gif: { formats: ['gif'], contentTypes: ['image/gif'] },
	heic: { formats: ['heic'], contentTypes: ['image/heic', 'image/heif', 'image/heic-sequence'] },
};

/** Declared types that say nothing and are ignored (contract rule 2). */
const UNINFORMATIVE_TYPES = new Set(['', 'application/octet-stream']);

function startsWith(bytes: Uint8Array, signature: number[], offset = 0): boolean {
	if (bytes.length < offset + signature.length) return false;
	return signature.every((byte, i) => bytes[offset + i] === byte);
}

function ascii(bytes: Uint8Array, from: number, to: number): string {
	return Buffer.from(bytes.subarray(from, to)).toString('latin1');
}

const HEIC_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1']);

/** What the first bytes say the file really is. */
export function sniff(bytes: Uint8Array): SniffedFormat {
	if (startsWith(bytes, [0x7f, 0x45, 0x4c, 0x46])) return 'executable'; // ELF
	if (startsWith(bytes, [0x4d, 0x5a])) return 'executable'; // PE "MZ"
	for (const magic of [
		[0xfe, 0xed, 0xfa, 0xce],
		[0xfe, 0xed, 0xfa, 0xcf],
		[0xce, 0xfa, 0xed, 0xfe],
		[0xcf, 0xfa, 0xed, 0xfe],
		[0xca, 0xfe, 0xba, 0xbe],
	]) {
		if (startsWith(bytes, magic)) return 'executable'; // Mach-O (thin and universal)
	}
	if (startsWith(bytes, [0x23, 0x21])) return 'script'; // "#!"
	if (startsWith(bytes, [0x25, 0x50, 0x44, 0x46, 0x2d])) return 'pdf';
	if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
	if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
	if (ascii(bytes, 0, 6) === 'GIF87a' || ascii(bytes, 0, 6) === 'GIF89a') return 'gif';
	if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP') return 'webp';
	if (ascii(bytes, 4, 8) === 'ftyp' && HEIC_BRANDS.has(ascii(bytes, 8, 12))) return 'heic';
	if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) return 'ooxml';
	if (startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return 'ole';
	if (isText(bytes)) return looksLikeMarkup(bytes) ? 'markup' : 'text';
	return 'binary';
}

function isText(bytes: Uint8Array): boolean {
	const sample = bytes.subarray(0, 64 * 1024);
	if (sample.includes(0)) return false;
	try {
		new TextDecoder('utf-8', { fatal: true }).decode(trimPartialCodePoint(sample, bytes.length));
		return true;
	} catch {
		return false;
	}
}

/** A sample cut mid-character is still text: drop a trailing partial UTF-8 sequence. */
function trimPartialCodePoint(sample: Uint8Array, totalLength: number): Uint8Array {
	if (sample.length === totalLength) return sample;
	let end = sample.length;
	for (let back = 1; back <= 3 && end - back >= 0; back++) {
		const byte = sample[end - back];
		if ((byte & 0xc0) === 0xc0) return sample.subarray(0, end - back);
		if ((byte & 0x80) === 0) break;
	}
	return sample;
}

function looksLikeMarkup(bytes: Uint8Array): boolean {
	const head = Buffer.from(bytes.subarray(0, 1024))
		.toString('utf8')
		.replace(/^\uFEFF/, '')
		.trimStart()
		.toLowerCase();
	// After an XML declaration, comments and a DOCTYPE (with its internal subset) may precede <svg.
	return /^(<!doctype\s+(html|svg)|<html[\s>]|<svg[\s>]|<\?xml[^>]*>\s*(<!--[\s\S]*?-->\s*|<!doctype\s[^>[]*(\[[\s\S]*?\]\s*)?>\s*)*<svg[\s>]|<head[\s>]|<body[\s>]|<script[\s>])/.test(
		head,
	);
}

export function extensionOf(filename: string): string {
	const match = /\.([^./\\]+)$/.exec(filename.trim());
	return match ? match[1].toLowerCase() : '';
}

function baseType(contentType: string | undefined): string {
	return (contentType ?? '').split(';')[0].trim().toLowerCase();
}

const FORMAT_NAMES: Record<SniffedFormat, string> = {
	pdf: 'a PDF',
	png: 'a PNG image',
	jpeg: 'a JPEG image',
	gif: 'a GIF image',
	webp: 'a WebP image',
	heic: 'a HEIC image',
	ooxml: 'an Office (zip) document',
	ole: 'a legacy Office document',
	text: 'plain text',
	markup: 'HTML/SVG markup',
	executable: 'a native executable',
	script: 'a shebang script',
	binary: 'unrecognised binary data',
};

export type PrecheckRule = 'allow-list' | 'declared-type' | 'content' | 'executable' | 'markup';

export type PrecheckVerdict =
	| { ok: true; extension: AllowedExtension; contentType: string; sniffed: SniffedFormat }
	| { ok: false; rule: PrecheckRule; message: string; sniffed: SniffedFormat };

/** The contract's six rules, in the order that gives the most useful message. */
export function precheckMaterial(filename: string, declaredType: string | undefined, bytes: Uint8Array): PrecheckVerdict {
	const extension = extensionOf(filename);
	const declared = baseType(declaredType);
	const sniffed = sniff(bytes);

	if (sniffed === 'executable' || sniffed === 'script') {
		return {
			ok: false,
			rule: 'executable',
			sniffed,
			message: `"${filename}" is ${FORMAT_NAMES[sniffed]}; executables and scripts are refused under every extension.`,
		};
	}
	if (!(ALLOWED_EXTENSIONS as readonly string[]).includes(extension)) {
		return {
			ok: false,
			rule: 'allow-list',
			sniffed,
			message: `The extension ".${extension || '(none)'}" of "${filename}" is not accepted. Use one of: ${ALLOWED_EXTENSIONS.join(', ')} (svg and html are refused).`,
		};
	}
	const rule = EXTENSION_RULES[extension as AllowedExtension];
	if (!UNINFORMATIVE_TYPES.has(declared) && !rule.contentTypes.includes(declared)) {
		return {
			ok: false,
			rule: 'declared-type',
			sniffed,
			message: `The declared Content-Type "${declared}" does not match the extension ".${extension}" of "${filename}" (expected ${rule.contentTypes.join(' or ')}). Fix the file name or the binary's MIME type.`,
		};
	}
	if (sniffed === 'markup' && !rule.formats.includes('markup')) {
		return {
			ok: false,
			rule: 'markup',
			sniffed,
			message: `"${filename}" contains HTML/SVG markup, which is only accepted as .txt, .md or .csv.`,
		};
	}
	if (!rule.formats.includes(sniffed)) {
		return {
			ok: false,
			rule: 'content',
			sniffed,
			message: `The bytes of "${filename}" are ${FORMAT_NAMES[sniffed]}, not what ".${extension}" says. Rename the file to its real type or send the right file.`,
		};
	}
	return {
		ok: true,
		extension: extension as AllowedExtension,
		contentType: UNINFORMATIVE_TYPES.has(declared) ? rule.contentTypes[0] : declared,
		sniffed,
	};
}
