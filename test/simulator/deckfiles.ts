// The bytes the file hosts serve: a finished deck's PPTX (a real, small ZIP with a presentation inside) and PDF,
// the other files a real service links beside or before them (preview images, an intermediate audio file, the
// input document the job started from), and what a misconfigured host serves at a deck's address instead
// (choice `fileContent`: a sign-in page, an image, an S3 error document with a 200). Deterministic per deck,
// version, format and size, so tests can compare bytes run to run.
import { zip, zipEntries, zipEntryData, type ZipEntry } from './zip';

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

const PACKAGE_RELS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const OFFICE_DOCUMENT = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument';

// (the XML declaration is optional: left out, so a deck fits the small `deckFileBytes` tests use)
const xml = (text: string) => Buffer.from(text, 'utf8');

/** An Office Open XML package: content types, the package relationship to its main part, the main part. */
function officePackage(mainPart: string, mainType: string, main: Buffer): ZipEntry[] {
	return [
		{
			name: '[Content_Types].xml',
			data: xml(
				'<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
					'<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
					`<Override PartName="/${mainPart}" ContentType="${mainType}"/></Types>`,
			),
		},
		{ name: '_rels/.rels', data: xml(`<Relationships xmlns="${PACKAGE_RELS}"><Relationship Id="rId1" Type="${OFFICE_DOCUMENT}" Target="${mainPart}"/></Relationships>`) },
		{ name: mainPart, data: main },
	];
}

const PRESENTATION = 'ppt/presentation.xml';
const PRESENTATION_TYPE = 'application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml';

/** The PPTX of a deck version: three stored entries, the presentation padded with whitespace to `size` bytes (at least its minimum). */
function pptx(taskId: string, version: number, size: number): Buffer {
	const presentation = xml(`<p:presentation xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"><!-- deck ${taskId} v${version} --></p:presentation>`);
	const used = zip(officePackage(PRESENTATION, PRESENTATION_TYPE, presentation)).length;
	// whitespace after the root element is allowed in XML: the presentation part carries the padding
	const padded = size > used ? Buffer.concat([presentation, Buffer.alloc(size - used, 0x20)]) : presentation;
	return zip(officePackage(PRESENTATION, PRESENTATION_TYPE, padded));
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
	const document = xml(`<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>Brief for deck ${taskId}</w:t></w:r></w:p></w:body></w:document>`);
	return {
		data: zip(officePackage('word/document.xml', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml', document)),
		contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
	};
}

/**
 * The data files a job's record links beside (or instead of) its output, served as their hosts serve them: real
 * bodies of their own format, never a deck (issue 43). `partial-data`: the JSONL a failed Shopify bulk operation
 * links (`partialDataUrl`, the rows read before it failed); `logs`: a run's log archive (a ZIP, as GitHub's
 * `logs_url` answers, with one text file per job step: a ZIP, but no presentation in it); `vtt` and `srt`: the
 * subtitle files a transcription job writes beside its transcript.
 */
export type DataFileKind = 'partial-data' | 'logs' | 'vtt' | 'srt';

export function dataFile(kind: DataFileKind, taskId: string): ServedFile {
	switch (kind) {
		case 'partial-data': {
			const rows = [1, 2, 3].map((n) => JSON.stringify({ id: `gid://shopify/Slide/${n}`, title: `Slide ${n} of deck ${taskId}`, __parentId: `gid://shopify/Deck/${taskId}` }));
			return { data: Buffer.from(`${rows.join('\n')}\n`), contentType: 'application/jsonl' };
		}
		case 'logs':
			return {
				data: zip([
					{ name: 'build-deck/1_Set up job.txt', data: Buffer.from(`2026-01-05T09:00:01Z Current runner version: '2.321.0'\n2026-01-05T09:00:01Z Job for deck ${taskId}\n`) },
					{ name: 'build-deck/2_Generate deck.txt', data: Buffer.from(`2026-01-05T09:00:02Z ##[group]Run deckgen build\n2026-01-05T09:00:09Z ##[endgroup]\n`) },
				]),
				contentType: 'application/zip',
			};
		case 'vtt':
			return { data: Buffer.from(`WEBVTT\n\n1\n00:00:00.000 --> 00:00:04.000\nSlide 1 of deck ${taskId}\n`), contentType: 'text/vtt' };
		case 'srt':
			return { data: Buffer.from(`1\n00:00:00,000 --> 00:00:04,000\nSlide 1 of deck ${taskId}\n`), contentType: 'application/x-subrip' };
	}
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

/** What a reader finds in a file's bytes: a PPTX (a ZIP whose central directory names a presentation), a PDF, or neither. */
export type DeckFileReading =
	| { format: 'pptx'; entries: string[]; presentation: string }
	| { format: 'pdf'; version: string }
	| { format: 'other'; entries?: string[] };

/**
 * Reads a file as a deck reader would, for tests that check a deck by its structure: a ZIP is a PPTX only when
 * its central directory names `ppt/presentation.xml` (a DOCX brief is a ZIP too), a PDF starts with `%PDF-`.
 */
export function readDeckFile(data: Buffer): DeckFileReading {
	if (data.subarray(0, 5).toString('latin1') === '%PDF-') return { format: 'pdf', version: data.subarray(5, 8).toString('latin1') };
	const listing = zipEntries(data);
	if (!listing) return { format: 'other' };
	const entries = listing.map((entry) => entry.name);
	const main = listing.find((entry) => entry.name === 'ppt/presentation.xml');
	const presentation = main ? zipEntryData(data, main)?.toString('utf8') : undefined;
	return presentation !== undefined ? { format: 'pptx', entries, presentation } : { format: 'other', entries };
}
