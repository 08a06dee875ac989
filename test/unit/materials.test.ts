/**
 * The local 415 pre-check: sniffing real magic bytes, and the contract's six "415 file rules".
 */
import {
	ALLOWED_EXTENSIONS,
	EXTENSION_RULES,
	extensionOf,
	precheckMaterial,
	sniff,
	type PrecheckVerdict,
	type SniffedFormat,
} from '../../nodes/shared/materials';

const bytes = (...parts: Array<number[] | string>): Buffer =>
	Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.from(part))));

const u32be = (n: number): number[] => [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
const u32le = (n: number): number[] => u32be(n).reverse();

// Real file headers, as the first bytes of real files of each kind.
const FILES = {
	pdf: bytes('%PDF-1.7\n%', [0xe2, 0xe3, 0xcf, 0xd3], '\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n'),
	png: bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], u32be(13), 'IHDR', u32be(1), u32be(1), [8, 6, 0, 0, 0], [0x1f, 0x15, 0xc4, 0x89]),
	jpegJfif: bytes([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10], 'JFIF', [0x00, 0x01, 0x01, 0x00, 0x00, 0x48, 0x00, 0x48, 0x00, 0x00]),
	jpegExif: bytes([0xff, 0xd8, 0xff, 0xe1, 0x00, 0x16], 'Exif', [0x00, 0x00], 'MM', [0x00, 0x2a]),
	gif87a: bytes('GIF87a', [0x01, 0x00, 0x01, 0x00, 0x80, 0x00, 0x00]),
	gif89a: bytes('GIF89a', [0x01, 0x00, 0x01, 0x00, 0x80, 0x00, 0x00, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x21, 0xf9]),
	webp: bytes('RIFF', u32le(26), 'WEBP', 'VP8 ', u32le(14), [0x30, 0x01, 0x00, 0x9d, 0x01, 0x2a, 0x01, 0x00, 0x01, 0x00]),
	heic: bytes(u32be(24), 'ftyp', 'heic', u32be(0), 'mif1', 'heic'),
	heix: bytes(u32be(24), 'ftyp', 'heix', u32be(0), 'mif1', 'heix'),
	mif1: bytes(u32be(28), 'ftyp', 'mif1', u32be(0), 'mif1', 'heic', 'miaf'),
	hevc: bytes(u32be(24), 'ftyp', 'hevc', u32be(0), 'msf1', 'hevc'),
	ooxml: bytes([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00, 0x08, 0x00], [0, 0, 0, 0], '[Content_Types].xml'),
	ole: bytes([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1], new Array(16).fill(0), [0x3e, 0x00, 0x03, 0x00, 0xfe, 0xff]),
	elf: bytes([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00], new Array(8).fill(0), [0x02, 0x00, 0x3e, 0x00]),
	pe: bytes('MZ', [0x90, 0x00, 0x03, 0x00, 0x00, 0x00, 0x04, 0x00], 'This program cannot be run in DOS mode.'),
	machO32: bytes([0xfe, 0xed, 0xfa, 0xce], [0x00, 0x00, 0x00, 0x07]),
	machO64: bytes([0xfe, 0xed, 0xfa, 0xcf], [0x01, 0x00, 0x00, 0x07]),
	machO32le: bytes([0xce, 0xfa, 0xed, 0xfe], [0x07, 0x00, 0x00, 0x00]),
	machO64le: bytes([0xcf, 0xfa, 0xed, 0xfe], [0x07, 0x00, 0x00, 0x01, 0x03, 0x00, 0x00, 0x00]),
	machOUniversal: bytes([0xca, 0xfe, 0xba, 0xbe], u32be(2), u32be(0x01000007)),
	shebang: bytes('#!/bin/sh\necho "hello"\n'),
	shebangEnv: bytes('#!/usr/bin/env python3\nprint("hi")\n'),
	html: bytes('<!DOCTYPE html>\n<html lang="en"><head><title>Deck</title></head><body><p>Hi</p></body></html>\n'),
	htmlBare: bytes('<html>\n<body>hello</body></html>'),
	htmlIndentedBom: bytes([0xef, 0xbb, 0xbf], '\n   <HTML><BODY>x</BODY></HTML>'),
	htmlScript: bytes('<script>alert(1)</script>'),
	svg: bytes('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>'),
	xmlSvg: bytes('<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n<svg xmlns="http://www.w3.org/2000/svg"/>'),
	xmlCommentSvg: bytes('<?xml version="1.0"?>\n<!-- Generator: drawing tool -->\n<svg xmlns="http://www.w3.org/2000/svg"/>'),
	xmlDoctypeSvg: bytes(
		'<?xml version="1.0" encoding="utf-8"?>\n<!-- Generator: Adobe Illustrator 27.0.0 -->\n',
		'<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">\n',
		'<svg version="1.1" xmlns="http://www.w3.org/2000/svg"/>',
	),
	xmlDoctypeSubsetSvg: bytes(
		'<?xml version="1.0" encoding="utf-8"?>\n',
		'<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "svg11.dtd" [\n\t<!ENTITY ns_svg "http://www.w3.org/2000/svg">\n]>\n',
		'<svg xmlns="&ns_svg;"/>',
	),
	doctypeSvg: bytes('<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x.dtd">\n<svg/>'),
	text: Buffer.from('Quarterly review — Überblick: revenue ↑ 12 %, churn ↓ 3 %\nNext steps: ✓ hire, ✓ ship\n', 'utf8'),
	csv: Buffer.from('region,revenue\nEMEA,1200\nAPAC,900\n', 'utf8'),
	markdown: Buffer.from('# Q3 review\n\n- **Revenue** up\n- <b>inline html</b> is still markdown\n', 'utf8'),
	xmlData: bytes('<?xml version="1.0"?>\n<rows><row id="1"/></rows>'),
	invalidUtf8: bytes([0xc3, 0x28, 0xa0, 0xa1, 0xe2, 0x28, 0xa1, 0xf0, 0x28, 0x8c, 0xbc]),
	withNul: bytes('abc', [0x00], 'def'),
	mp4: bytes(u32be(24), 'ftyp', 'isom', u32be(0x200), 'isom', 'mp41'),
	zipNotPk34: bytes([0x50, 0x4b, 0x05, 0x06], new Array(18).fill(0)),
};

describe('sniff', () => {
	it.each<[keyof typeof FILES, SniffedFormat]>([
		['pdf', 'pdf'],
		['png', 'png'],
		['jpegJfif', 'jpeg'],
		['jpegExif', 'jpeg'],
		['gif87a', 'gif'],
		['gif89a', 'gif'],
		['webp', 'webp'],
		['heic', 'heic'],
		['heix', 'heic'],
		['mif1', 'heic'],
		['hevc', 'heic'],
		['ooxml', 'ooxml'],
		['ole', 'ole'],
		['elf', 'executable'],
		['pe', 'executable'],
		['machO32', 'executable'],
		['machO64', 'executable'],
		['machO32le', 'executable'],
		['machO64le', 'executable'],
		['machOUniversal', 'executable'],
		['shebang', 'script'],
		['shebangEnv', 'script'],
		['html', 'markup'],
		['htmlBare', 'markup'],
		['htmlIndentedBom', 'markup'],
		['htmlScript', 'markup'],
		['svg', 'markup'],
		['xmlSvg', 'markup'],
		['xmlCommentSvg', 'markup'],
		['xmlDoctypeSvg', 'markup'],
		['xmlDoctypeSubsetSvg', 'markup'],
		['doctypeSvg', 'markup'],
		['text', 'text'],
		['csv', 'text'],
		['markdown', 'text'],
		['xmlData', 'text'],
		['invalidUtf8', 'binary'],
		['withNul', 'binary'],
		['mp4', 'binary'],
		['zipNotPk34', 'binary'],
	])('%s is %s', (name, format) => {
		expect(sniff(FILES[name])).toBe(format);
	});

	it('needs the whole signature: truncated magic bytes are not the format', () => {
		expect(sniff(bytes([0x89, 0x50, 0x4e, 0x47]))).toBe('binary');
		expect(sniff(bytes('%PDF'))).toBe('text');
		expect(sniff(bytes('RIFF', u32le(4), 'WAVE'))).toBe('binary');
		expect(sniff(bytes('GIF88a'))).toBe('text');
	});

	it('an empty file is (empty) text', () => {
		expect(sniff(Buffer.alloc(0))).toBe('text');
	});

	it('a long text whose 64 KiB sample ends inside a character is still text', () => {
		// "é" is two bytes; the first one is the last byte of the sample.
		const long = Buffer.from(`${'a'.repeat(64 * 1024 - 1)}é and more`, 'utf8');
		expect(long[64 * 1024 - 1]).toBe(0xc3);
		expect(sniff(long)).toBe('text');
	});

	it('a file that ends inside a character is not text', () => {
		expect(sniff(Buffer.from([0x61, 0x62, 0xc3]))).toBe('binary');
	});
});

function refused(verdict: PrecheckVerdict): Extract<PrecheckVerdict, { ok: false }> {
	if (verdict.ok) throw new Error(`expected a refusal, got ${JSON.stringify(verdict)}`);
	return verdict;
}

/** A correct file for each allowed extension. */
const GOOD: Record<(typeof ALLOWED_EXTENSIONS)[number], Buffer> = {
	pdf: FILES.pdf,
	doc: FILES.ole,
	docx: FILES.ooxml,
	xls: FILES.ole,
	xlsx: FILES.ooxml,
	ppt: FILES.ole,
	pptx: FILES.ooxml,
	csv: FILES.csv,
	txt: FILES.text,
	md: FILES.markdown,
	png: FILES.png,
	jpg: FILES.jpegJfif,
	jpeg: FILES.jpegExif,
	webp: FILES.webp,
	gif: FILES.gif89a,
	heic: FILES.heic,
};

describe('rule 1: the allow-list', () => {
	it('is the contract list: PDF, Office, csv, txt, md, png, jpg, jpeg, webp, gif, heic', () => {
		expect([...ALLOWED_EXTENSIONS].sort()).toEqual(
			['pdf', 'doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx', 'csv', 'txt', 'md', 'png', 'jpg', 'jpeg', 'webp', 'gif', 'heic'].sort(),
		);
	});

	it.each(ALLOWED_EXTENSIONS.map((ext) => [ext]))('a real .%s passes, with and without its declared type', (ext) => {
		const declared = EXTENSION_RULES[ext].contentTypes[0];
		expect(precheckMaterial(`file.${ext}`, declared, GOOD[ext])).toEqual({ ok: true, extension: ext, contentType: declared, sniffed: sniff(GOOD[ext]) });
		expect(precheckMaterial(`file.${ext}`, undefined, GOOD[ext])).toMatchObject({ ok: true, contentType: declared });
	});

	it.each<[string, Buffer]>([
		['drawing.svg', FILES.svg],
		['page.html', FILES.html],
		['page.htm', FILES.html],
		['archive.zip', FILES.ooxml],
		['clip.mp4', FILES.mp4],
		['deck.key', FILES.ooxml],
	])('%s is refused by the allow-list, naming its extension', (filename, content) => {
		const verdict = refused(precheckMaterial(filename, undefined, content));
		expect(verdict.rule).toBe('allow-list');
		expect(verdict.message).toContain(`.${extensionOf(filename)}`);
		expect(verdict.message).toContain(filename);
		expect(verdict.message).toMatch(/svg and html are refused/);
	});

	it('a name without an extension is refused, and says so', () => {
		const verdict = refused(precheckMaterial('README', 'text/plain', FILES.text));
		expect(verdict.rule).toBe('allow-list');
		expect(verdict.message).toContain('(none)');
	});

	it('reads the extension case-insensitively and from the last dot', () => {
		expect(extensionOf('Photo.Final.JPG')).toBe('jpg');
		expect(extensionOf('archive.tar.gz')).toBe('gz');
		expect(extensionOf('.hidden')).toBe('hidden');
		expect(extensionOf('dir.v2/README')).toBe('');
		expect(precheckMaterial('HOLIDAY.JPEG', 'image/jpeg', FILES.jpegJfif)).toMatchObject({ ok: true, extension: 'jpeg' });
	});
});

describe('rule 2: the declared type must fit the extension', () => {
	it.each<[string, string, Buffer]>([
		['report.pdf', 'image/png', FILES.pdf],
		['photo.png', 'image/jpeg', FILES.png],
		['notes.txt', 'text/html', FILES.text],
		['deck.pptx', 'application/vnd.ms-powerpoint', FILES.ooxml],
		['data.csv', 'application/json', FILES.csv],
	])('%s declared as %s is refused, naming both', (filename, declared, content) => {
		const verdict = refused(precheckMaterial(filename, declared, content));
		expect(verdict.rule).toBe('declared-type');
		expect(verdict.message).toContain(`"${declared}"`);
		expect(verdict.message).toContain(`.${extensionOf(filename)}`);
		expect(verdict.message).toContain(EXTENSION_RULES[extensionOf(filename) as 'pdf'].contentTypes[0]);
	});

	it('compares the base type only, case-insensitively', () => {
		expect(precheckMaterial('a.pdf', 'Application/PDF; charset=binary', FILES.pdf)).toMatchObject({ ok: true, contentType: 'application/pdf' });
		expect(precheckMaterial('a.csv', 'text/csv; charset=utf-8', FILES.csv)).toMatchObject({ ok: true, contentType: 'text/csv' });
	});

	it('accepts each listed alias', () => {
		expect(precheckMaterial('a.jpg', 'image/pjpeg', FILES.jpegJfif)).toMatchObject({ ok: true, contentType: 'image/pjpeg' });
		expect(precheckMaterial('a.md', 'text/plain', FILES.markdown)).toMatchObject({ ok: true });
		expect(precheckMaterial('a.heic', 'image/heif', FILES.heic)).toMatchObject({ ok: true });
	});
});

describe('rule 2: application/octet-stream and an absent type are ignored', () => {
	it.each([[undefined], [''], ['application/octet-stream'], ['Application/Octet-Stream; x=y']])('type %p', (declared) => {
		expect(precheckMaterial('report.pdf', declared, FILES.pdf)).toEqual({ ok: true, extension: 'pdf', contentType: 'application/pdf', sniffed: 'pdf' });
		// Ignoring the type does not skip the content check.
		expect(refused(precheckMaterial('report.pdf', declared, FILES.png)).rule).toBe('content');
	});
});

describe('rule 3: the real bytes must match the extension', () => {
	it.each<[string, Buffer, string]>([
		['photo.png', FILES.jpegJfif, 'a JPEG image'],
		['photo.jpg', FILES.png, 'a PNG image'],
		['report.pdf', FILES.text, 'plain text'],
		['deck.docx', FILES.ole, 'a legacy Office document'],
		['deck.doc', FILES.ooxml, 'an Office (zip) document'],
		['anim.gif', FILES.webp, 'a WebP image'],
		['phone.heic', FILES.mp4, 'unrecognised binary data'],
		['notes.txt', FILES.invalidUtf8, 'unrecognised binary data'],
		['data.csv', FILES.png, 'a PNG image'],
	])('%s holding %s is refused, naming what the bytes are', (filename, content, what) => {
		const verdict = refused(precheckMaterial(filename, undefined, content));
		expect(verdict.rule).toBe('content');
		expect(verdict.message).toContain(what);
		expect(verdict.message).toContain(`".${extensionOf(filename)}"`);
	});

	it('a declared type that fits the extension does not rescue bytes of another format', () => {
		expect(refused(precheckMaterial('photo.png', 'image/png', FILES.pdf)).rule).toBe('content');
	});
});

describe('rule 4: renaming flips the verdict, both ways', () => {
	it('the same PNG bytes pass as .png and fail as .pdf', () => {
		expect(precheckMaterial('chart.png', undefined, FILES.png).ok).toBe(true);
		expect(refused(precheckMaterial('chart.pdf', undefined, FILES.png)).rule).toBe('content');
	});

	it('the same PDF bytes fail as .png and pass as .pdf', () => {
		expect(refused(precheckMaterial('report.png', undefined, FILES.pdf)).rule).toBe('content');
		expect(precheckMaterial('report.pdf', undefined, FILES.pdf).ok).toBe(true);
	});
});

describe('rule 5: executables and scripts are refused under every extension', () => {
	const executables: Array<[string, Buffer, string]> = [
		['ELF', FILES.elf, 'a native executable'],
		['PE', FILES.pe, 'a native executable'],
		['Mach-O', FILES.machO64le, 'a native executable'],
		['Mach-O universal', FILES.machOUniversal, 'a native executable'],
		['shebang script', FILES.shebang, 'a shebang script'],
	];
	const cases = executables.flatMap(([kind, content, what]) =>
		[...ALLOWED_EXTENSIONS, 'exe', 'sh', ''].map((ext) => [kind, ext, content, what] as const),
	);

	it.each(cases)('%s named .%s', (_kind, ext, content, what) => {
		const filename = ext ? `tool.${ext}` : 'tool';
		const declared = ext && ext in EXTENSION_RULES ? EXTENSION_RULES[ext as 'pdf'].contentTypes[0] : undefined;
		const verdict = refused(precheckMaterial(filename, declared, content));
		expect(verdict.rule).toBe('executable');
		expect(verdict.message).toContain(what);
		expect(verdict.message).toContain(filename);
	});
});

describe('rule 5: markup is refused except as txt, md or csv', () => {
	const markup: Array<[string, Buffer]> = [
		['HTML', FILES.html],
		['SVG', FILES.svg],
		['XML+SVG', FILES.xmlSvg],
		['XML+DOCTYPE+SVG', FILES.xmlDoctypeSvg],
	];

	it.each(markup.flatMap(([kind, content]) => ['txt', 'md', 'csv'].map((ext) => [kind, ext, content] as const)))(
		'%s as .%s is accepted',
		(_kind, ext, content) => {
			expect(precheckMaterial(`page.${ext}`, undefined, content)).toMatchObject({ ok: true, sniffed: 'markup' });
		},
	);

	it.each(
		markup.flatMap(([kind, content]) =>
			ALLOWED_EXTENSIONS.filter((ext) => !['txt', 'md', 'csv'].includes(ext)).map((ext) => [kind, ext, content] as const),
		),
	)('%s as .%s is refused as markup', (_kind, ext, content) => {
		const verdict = refused(precheckMaterial(`page.${ext}`, undefined, content));
		expect(verdict.rule).toBe('markup');
		expect(verdict.message).toContain('HTML/SVG markup');
		expect(verdict.message).toContain(`page.${ext}`);
	});

	it('markup declared as text/html under .txt is refused by its declared type', () => {
		expect(refused(precheckMaterial('page.txt', 'text/html', FILES.html)).rule).toBe('declared-type');
	});
});

describe('rule 6: the message names the disagreement', () => {
	it('each refusal says which of the three disagrees', () => {
		expect(refused(precheckMaterial('a.svg', undefined, FILES.svg)).message).toMatch(/extension/i);
		expect(refused(precheckMaterial('a.pdf', 'image/png', FILES.pdf)).message).toMatch(/Content-Type/);
		expect(refused(precheckMaterial('a.pdf', undefined, FILES.png)).message).toMatch(/bytes/);
	});

	it('the same bytes under the same name give the same verdict (nothing to retry)', () => {
		const one = precheckMaterial('a.pdf', undefined, FILES.png);
		const two = precheckMaterial('a.pdf', undefined, Buffer.from(FILES.png));
		expect(two).toEqual(one);
	});
});
