/**
 * nodes/shared/deckFile.ts: whether bytes are a deck's file by the bytes themselves (issue 37). The first bytes
 * a check reads (a ranged GET) and the whole file a download hands over, against real formats (the simulator's
 * PPTX and PDF, an ODP-like ZIP) and what real hosts put at a deck's address instead.
 */
import { claimedFormat, deckFileVerdict, headOfDeckFile, zipEntryNames } from '../../nodes/shared/deckFile';
import { zip as zipArchive } from '../simulator/zip';

const pptx = zipArchive([
	{ name: '[Content_Types].xml', data: Buffer.from('<Types/>') },
	{ name: '_rels/.rels', data: Buffer.from('<Relationships/>') },
	{ name: 'ppt/presentation.xml', data: Buffer.from('<p:presentation/>') },
]);
const odp = zipArchive([
	{ name: 'mimetype', data: Buffer.from('application/vnd.oasis.opendocument.presentation') },
	{ name: 'content.xml', data: Buffer.from('<office:document-content/>') },
]);
const docx = zipArchive([{ name: 'word/document.xml', data: Buffer.from('<w:document/>') }]);
const pdf = Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\n%%EOF\n');
const png = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(32)]);
const mp4 = Buffer.concat([Buffer.from('00000018', 'hex'), Buffer.from('ftypisom'), Buffer.alloc(32)]);

describe('the deck by its own bytes', () => {
	it.each<[string, Buffer, string]>([
		['a PPTX', pptx, 'pptx'],
		['an ODP', odp, 'odp'],
		['a PDF', pdf, 'pdf'],
		['an MP4 video', mp4, 'video'],
	])('%s is a deck', (_, bytes, format) => {
		expect(deckFileVerdict(bytes)).toEqual({ deck: true, format });
	});

	it.each<[string, Buffer, string]>([
		['a sign-in page', Buffer.from('<!DOCTYPE html><html><body>Sign in</body></html>'), 'an HTML page'],
		['a PNG preview', png, 'an image (PNG)'],
		['an S3 NoSuchKey error', Buffer.from('<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>'), 'an XML error (NoSuchKey)'],
		['a JSON error', Buffer.from('{"error":"expired"}'), 'a JSON document'],
		['an empty answer', Buffer.alloc(0), 'an empty file'],
		['a ZIP of a Word document', docx, 'a ZIP archive with no presentation inside'],
		['a ZIP cut short (no central directory)', pptx.subarray(0, 40), 'a ZIP archive with no presentation inside'],
	])('%s is not: %s', (_, bytes, what) => {
		expect(deckFileVerdict(bytes)).toEqual({ deck: false, what });
	});

	it('a file is the deck it claims to be: a PDF named .pptx is not, a generic type claims nothing', () => {
		expect(deckFileVerdict(pdf, { fileName: 'deck.pptx' })).toEqual({ deck: false, what: 'a PDF, not the PPTX it is named as' });
		expect(deckFileVerdict(pptx, { fileName: 'deck', mimeType: 'application/octet-stream' })).toEqual({ deck: true, format: 'pptx' });
		expect(deckFileVerdict(pptx, { fileName: 'deck-1.pptx', mimeType: 'application/vnd.openxmlformats-officedocument.presentationml.presentation' })).toEqual({ deck: true, format: 'pptx' });
		expect(claimedFormat('deck.bin', 'application/octet-stream')).toBeUndefined();
	});

	it('a check reads the first bytes only: a ZIP passes there (its names may lie beyond them), the rest as a download', () => {
		expect(headOfDeckFile(pptx.subarray(0, 30))).toEqual({ deck: true, format: 'zip' });
		expect(headOfDeckFile(Buffer.from('garbage%PDF-1.4'))).toEqual({ deck: true, format: 'pdf' });
		expect(headOfDeckFile(png)).toEqual({ deck: false, what: 'an image (PNG)' });
		expect(zipEntryNames(pptx)).toEqual(['[Content_Types].xml', '_rels/.rels', 'ppt/presentation.xml']);
	});
});
