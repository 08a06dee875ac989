// The bytes the file hosts serve: a finished deck's PPTX (a real, small ZIP with a presentation inside) and PDF,
// the other files a real service links beside or before them (preview images, an intermediate audio file, the
// input document the job started from), and what a misconfigured host serves at a deck's address instead
// (choice `fileContent`: a sign-in page, an image, an S3 error document with a 200). Deterministic per deck,
// version, format and size, so tests can compare bytes run to run.
import { zip, zipOverhead, type ZipEntry } from './zip';

export type DeckFormat = 'pptx' | 'pdf';

export const DECK_FILE_TYPES: Record<DeckFormat, string> = {
	pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
	pdf: 'application/pdf',
};

/** What is served at a finished deck's file address (profile choice `fileContent`). */
export type FileContent = 'deck' | 'html' | 'image' | 'xml-error';

export interface ServedFile {
	data: Buffer;
	contentType: string;
}

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const PACKAGE_RELS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const OFFICE_DOCUMENT = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument';
const PRESENTATION_NS = 'xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"';

const xml = (text: string) => Buffer.from(XML_HEAD + text, 'utf8');

/** An Office Open XML package: content types, the package relationship to its main part, its parts. */
function officePackage(mainPart: string, mainType: string, parts: ZipEntry[], overrides: Array<[string, string]> = []): ZipEntry[] {
	const types = [[`/${mainPart}`, mainType], ...overrides].map(([part, type]) => `<Override PartName="${part}" ContentType="${type}"/>`).join('');
	return [
		{
			name: '[Content_Types].xml',
			data: xml(
				'<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
					'<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
					`<Default Extension="xml" ContentType="application/xml"/>${types}</Types>`,
			),
		},
		{ name: '_rels/.rels', data: xml(`<Relationships xmlns="${PACKAGE_RELS}"><Relationship Id="rId1" Type="${OFFICE_DOCUMENT}" Target="${mainPart}"/></Relationships>`) },
		...parts,
	];
}

/** The PPTX of a deck version: four stored entries, its slide padded with whitespace to `size` bytes (at least its minimum). */
function pptx(taskId: string, version: number, size: number): Buffer {
	const presentation: ZipEntry = {
		name: 'ppt/presentation.xml',
		data: xml(`<p:presentation ${PRESENTATION_NS}><!-- deck ${taskId} version ${version} --><p:sldSz cx="12192000" cy="6858000"/></p:presentation>`),
	};
	const slideName = 'ppt/slides/slide1.xml';
	const slide = xml(`<p:sld ${PRESENTATION_NS}><p:cSld name="Deck ${taskId} v${version}"><p:spTree/></p:cSld></p:sld>`);
	const entries = officePackage('ppt/presentation.xml', 'application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml', [presentation], [
		['/ppt/slides/slide1.xml', 'application/vnd.openxmlformats-officedocument.presentationml.slide+xml'],
	]);
	const used = zipOverhead([...entries.map((e) => e.name), slideName]) + entries.reduce((sum, e) => sum + e.data.length, 0) + slide.length;
	// whitespace after the root element is allowed in XML: the slide carries the padding
	const padded = size > used ? Buffer.concat([slide, Buffer.alloc(size - used, 0x20)]) : slide;
	return zip([...entries, { name: slideName, data: padded }]);
}

/** The PDF of a deck version: a catalog, an empty page tree, the deck named in a comment, padded to `size` bytes. */
function pdf(taskId: string, version: number, size: number): Buffer {
	const head = Buffer.from(`%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n% deck ${taskId} version ${version}\n`, 'latin1');
	const tail = Buffer.from('\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n', 'latin1');
	const pad = Math.max(0, size - head.length - tail.length);
	return Buffer.concat([head, Buffer.alloc(pad, 0x20), tail]);
}

/** Built files by deck, version, format and size: a 24 MB deck is built (and its CRC computed) once, not per request. */
const built = new Map<string, Buffer>();

/** The bytes of a finished deck file: deterministic per deck, version and format, `size` long (or its minimum when larger). */
export function deckFileBytes(taskId: string, version: number, format: DeckFormat, size: number): Buffer {
	const key = `${taskId}\u0000${version}\u0000${format}\u0000${size}`;
	let data = built.get(key);
	if (!data) {
		data = format === 'pdf' ? pdf(taskId, version, size) : pptx(taskId, version, size);
		if (built.size >= 32) built.clear();
		built.set(key, data);
	}
	return data;
}

/** A small PNG (its signature and an IHDR), what a preview image is here. */
export const PREVIEW_PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452000000100000000908060000', 'hex'), Buffer.alloc(64, 0)]);

/** An intermediate audio file (a WAV header and a short silence), as a talking-head service links while it works. */
export const INTERMEDIATE_AUDIO: ServedFile = (() => {
	const samples = 800;
	const header = Buffer.alloc(44);
	header.write('RIFF', 0, 'latin1');
	header.writeUInt32LE(36 + samples * 2, 4);
	header.write('WAVEfmt ', 8, 'latin1');
	header.writeUInt32LE(16, 16);
	header.writeUInt16LE(1, 20); // PCM
	header.writeUInt16LE(1, 22); // mono
	header.writeUInt32LE(16_000, 24);
	header.writeUInt32LE(32_000, 28);
	header.writeUInt16LE(2, 32);
	header.writeUInt16LE(16, 34);
	header.write('data', 36, 'latin1');
	header.writeUInt32LE(samples * 2, 40);
	return { data: Buffer.concat([header, Buffer.alloc(samples * 2, 0)]), contentType: 'audio/wav' };
})();

/** The input document a job started from (a DOCX: a ZIP, but no presentation in it), as some records link it. */
export function inputDocument(taskId: string): ServedFile {
	const document: ZipEntry = {
		name: 'word/document.xml',
		data: xml(`<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>Brief for deck ${taskId}</w:t></w:r></w:p></w:body></w:document>`),
	};
	return {
		data: zip(officePackage('word/document.xml', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml', [document])),
		contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
	};
}

/** The S3 error document for a key that does not exist (a 404, or a 200 from a misconfigured host). */
export function noSuchKeyXml(key: string): string {
	return `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message><Key>${key}</Key></Error>`;
}

/**
 * What a host serves at a finished deck's address: the deck, or (choice `fileContent`) what a misconfigured host
 * serves there with a 200: a sign-in page (a CDN in front of the bucket), an image, an S3 error document.
 */
export function servedDeckFile(content: FileContent, taskId: string, version: number, format: DeckFormat, size: number): ServedFile {
	switch (content) {
		case 'deck':
			return { data: deckFileBytes(taskId, version, format, size), contentType: DECK_FILE_TYPES[format] };
		case 'html':
			return {
				data: Buffer.from(
					'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>Sign in</title></head>' +
						'<body><form method="post" action="/login"><h1>Sign in to continue</h1><input name="email" type="email"><input name="password" type="password"><button>Sign in</button></form></body></html>\n',
				),
				contentType: 'text/html; charset=utf-8',
			};
		case 'image':
			return { data: PREVIEW_PNG, contentType: 'image/png' };
		case 'xml-error':
			return { data: Buffer.from(noSuchKeyXml(`decks/${taskId}/v${version}/deck.${format}`)), contentType: 'application/xml' };
	}
}
