// Content sniffing from the first bytes: what the file really is, whatever its name says.

export type Format =
	| 'pdf' | 'png' | 'jpeg' | 'gif' | 'webp' | 'heic' | 'avif' | 'iso-media'
	| 'docx' | 'xlsx' | 'pptx' | 'ooxml' | 'zip'
	| 'doc' | 'xls' | 'ppt' | 'ole'
	| 'elf' | 'pe' | 'mach-o' | 'shebang'
	| 'html' | 'svg'
	| 'text' | 'binary';

export const FORMAT_LABEL: Record<Format, string> = {
	pdf: 'a PDF document',
	png: 'a PNG image',
	jpeg: 'a JPEG image',
	gif: 'a GIF image',
	webp: 'a WebP image',
	heic: 'a HEIC image',
	avif: 'an AVIF image',
	'iso-media': 'an ISO media file (MP4/MOV)',
	docx: 'a Word document (docx)',
	xlsx: 'an Excel workbook (xlsx)',
	pptx: 'a PowerPoint presentation (pptx)',
	ooxml: 'an Office Open XML package of unknown kind',
	zip: 'a ZIP archive',
	doc: 'a legacy Word document (doc)',
	xls: 'a legacy Excel workbook (xls)',
	ppt: 'a legacy PowerPoint presentation (ppt)',
	ole: 'a legacy Office (OLE) document',
	elf: 'a native executable (ELF)',
	pe: 'a native executable (Windows PE)',
	'mach-o': 'a native executable (Mach-O)',
	shebang: 'a script with a #! interpreter line',
	html: 'HTML markup',
	svg: 'SVG markup',
	text: 'UTF-8 text',
	binary: 'binary data of no recognised format',
};

export const EXECUTABLES: Format[] = ['elf', 'pe', 'mach-o', 'shebang'];
export const MARKUP: Format[] = ['html', 'svg'];

const startsWith = (data: Buffer, bytes: number[], at = 0): boolean => bytes.every((b, i) => data[at + i] === b);
const ascii = (data: Buffer, from: number, to: number): string => data.subarray(from, to).toString('latin1');

const HEIC_BRANDS = ['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'hevm', 'hevs', 'mif1', 'msf1'];
const MACHO = [[0xfe, 0xed, 0xfa, 0xce], [0xfe, 0xed, 0xfa, 0xcf], [0xce, 0xfa, 0xed, 0xfe], [0xcf, 0xfa, 0xed, 0xfe], [0xca, 0xfe, 0xba, 0xbe]];
const UTF8_BOM = [0xef, 0xbb, 0xbf];

export function sniff(data: Buffer): Format {
	if (startsWith(data, [0x7f, 0x45, 0x4c, 0x46])) return 'elf';
	if (startsWith(data, [0x4d, 0x5a])) return 'pe';
	if (MACHO.some((m) => startsWith(data, m))) return 'mach-o';
	const bom = startsWith(data, UTF8_BOM) ? 3 : 0;
	if (startsWith(data, [0x23, 0x21], bom)) return 'shebang';
	if (ascii(data, 0, 5) === '%PDF-') return 'pdf';
	if (startsWith(data, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
	if (startsWith(data, [0xff, 0xd8, 0xff])) return 'jpeg';
	if (ascii(data, 0, 6) === 'GIF87a' || ascii(data, 0, 6) === 'GIF89a') return 'gif';
	if (ascii(data, 0, 4) === 'RIFF' && ascii(data, 8, 12) === 'WEBP') return 'webp';
	if (ascii(data, 4, 8) === 'ftyp') {
		const brand = ascii(data, 8, 12);
		if (HEIC_BRANDS.includes(brand)) return 'heic';
		return brand === 'avif' || brand === 'avis' ? 'avif' : 'iso-media';
	}
	if (startsWith(data, [0x50, 0x4b, 0x03, 0x04])) return zipKind(data);
	if (startsWith(data, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return oleKind(data);
	const text = asText(data);
	if (text === undefined) return 'binary';
	return markupKind(text) ?? 'text';
}

/** Office Open XML is a ZIP whose entry names say which application it belongs to. */
function zipKind(data: Buffer): Format {
	const names: string[] = [];
	const sig = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
	for (let at = data.indexOf(sig); at >= 0 && at + 30 <= data.length; at = data.indexOf(sig, at + 4)) {
		const nameLength = data.readUInt16LE(at + 26);
		names.push(data.subarray(at + 30, at + 30 + nameLength).toString('utf8'));
	}
	if (names.some((n) => n.startsWith('word/'))) return 'docx';
	if (names.some((n) => n.startsWith('xl/'))) return 'xlsx';
	if (names.some((n) => n.startsWith('ppt/'))) return 'pptx';
	return names.includes('[Content_Types].xml') ? 'ooxml' : 'zip';
}

/** Legacy Office files are OLE compound files; the directory's stream names (UTF-16LE) tell which kind. */
function oleKind(data: Buffer): Format {
	const has = (name: string): boolean => data.includes(Buffer.from(name, 'utf16le'));
	if (has('WordDocument')) return 'doc';
	if (has('Workbook')) return 'xls';
	if (has('PowerPoint Document')) return 'ppt';
	return 'ole';
}

/** Text is valid UTF-8 without NUL bytes. */
function asText(data: Buffer): string | undefined {
	if (data.includes(0)) return undefined;
	try {
		return new TextDecoder('utf-8', { fatal: true }).decode(data);
	} catch {
		return undefined;
	}
}

const HTML_START = /^<(?:!doctype\s+html|html|head|body|script|iframe|style|title|meta|link|div|table|font|h1|p|a|b|br|img)(?=[\s>/])/;

function markupKind(text: string): 'html' | 'svg' | undefined {
	const head = text.replace(/^\uFEFF/, '').trimStart().slice(0, 1024).toLowerCase();
	if (head.startsWith('<svg') || ((head.startsWith('<?xml') || head.startsWith('<!doctype svg')) && head.includes('<svg'))) return 'svg';
	if (HTML_START.test(head) || (head.startsWith('<?xml') && head.includes('<html'))) return 'html';
	return undefined;
}
