// Minimal byte fixtures for the 415 rules: just enough of each format for magic-byte sniffing.

const pad = (head: Buffer, size = 64): Buffer => Buffer.concat([head, Buffer.alloc(Math.max(0, size - head.length), 0x11)]);

/** A ZIP whose local file headers carry these entry names (all an OOXML sniffer needs). */
export function zip(names: string[]): Buffer {
	const parts = names.map((name) => {
		const header = Buffer.alloc(30);
		header.writeUInt32LE(0x04034b50, 0);
		header.writeUInt16LE(20, 4);
		header.writeUInt16LE(Buffer.byteLength(name), 26);
		return Buffer.concat([header, Buffer.from(name), Buffer.from('data')]);
	});
	return Buffer.concat([...parts, Buffer.from([0x50, 0x4b, 0x05, 0x06]), Buffer.alloc(18)]);
}

/** An OLE compound file naming one stream (UTF-16LE, as in the directory). */
function ole(stream: string): Buffer {
	return Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(504), Buffer.from(stream, 'utf16le'), Buffer.alloc(64)]);
}

export const FILES = {
	pdf: Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n'),
	png: pad(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52])),
	jpeg: pad(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0])),
	gif: pad(Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1')),
	webp: pad(Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x24, 0, 0, 0]), Buffer.from('WEBPVP8 ')])),
	heic: pad(Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypheic'), Buffer.from([0, 0, 0, 0]), Buffer.from('mif1heic')])),
	mp4: pad(Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.from([0, 0, 2, 0]), Buffer.from('isomiso2')])),
	docx: zip(['[Content_Types].xml', '_rels/.rels', 'word/document.xml']),
	xlsx: zip(['[Content_Types].xml', '_rels/.rels', 'xl/workbook.xml']),
	pptx: zip(['[Content_Types].xml', '_rels/.rels', 'ppt/presentation.xml']),
	plainZip: zip(['photos/cat.jpg']),
	doc: ole('WordDocument'),
	xls: ole('Workbook'),
	ppt: ole('PowerPoint Document'),
	csv: Buffer.from('region,revenue\nnorth,12\nsouth,9\n'),
	txt: Buffer.from('Plain notes for the deck.\nSecond line with ünïcödé.\n'),
	md: Buffer.from('# Notes\n\n- point one\n- point two\n'),
	elf: pad(Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0])),
	pe: pad(Buffer.from('MZ\x90\x00\x03\x00', 'latin1')),
	machO: pad(Buffer.from([0xcf, 0xfa, 0xed, 0xfe, 7, 0, 0, 1])),
	shebang: Buffer.from('#!/bin/sh\necho pwned\n'),
	html: Buffer.from('<!DOCTYPE html>\n<html><body><script>alert(1)</script></body></html>\n'),
	svg: Buffer.from('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>\n'),
	notUtf8: Buffer.from([0x61, 0x62, 0xff, 0xfe, 0x63, 0x0a]),
};
