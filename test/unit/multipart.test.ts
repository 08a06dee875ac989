/**
 * The hand-built multipart/form-data body: it must parse as multipart (by hand and by undici's
 * WHATWG parser), keep the file's name, type and bytes, and be byte-identical for the same input.
 */
import { Response } from 'undici';

import { multipartBody, type FilePart } from '../../nodes/shared/multipart';

/** Every byte value, plus CRLF and dash runs that could confuse a careless parser. */
const BINARY = Buffer.concat([
	Buffer.from(Array.from({ length: 256 }, (_, i) => i)),
	Buffer.from('\r\n--\r\n\r\n------deckgen\r\n'),
	Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
]);

function part(overrides: Partial<FilePart> = {}): FilePart {
	return { field: 'file', filename: 'chart.png', contentType: 'image/png', bytes: BINARY, ...overrides };
}

interface ParsedPart {
	headers: Record<string, string>;
	body: Buffer;
}

/** A strict RFC 7578 reading: preamble-free, CRLF delimiters, one closing delimiter, no epilogue but CRLF. */
function parseByHand(body: Buffer, contentType: string): ParsedPart[] {
	const match = /^multipart\/form-data; boundary=([^;\s]+)$/.exec(contentType);
	if (!match) throw new Error(`not a multipart type: ${contentType}`);
	const boundary = match[1];
	const open = Buffer.from(`--${boundary}\r\n`);
	const delimiter = Buffer.from(`\r\n--${boundary}`);
	if (!body.subarray(0, open.length).equals(open)) throw new Error('the body does not start with the boundary');
	const parts: ParsedPart[] = [];
	let position = open.length;
	for (;;) {
		const headerEnd = body.indexOf('\r\n\r\n', position);
		if (headerEnd < 0) throw new Error('a part has no end of headers');
		const headers: Record<string, string> = {};
		for (const line of body.subarray(position, headerEnd).toString('latin1').split('\r\n')) {
			const colon = line.indexOf(':');
			headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
		}
		const next = body.indexOf(delimiter, headerEnd + 4);
		if (next < 0) throw new Error('a part is not closed');
		parts.push({ headers, body: body.subarray(headerEnd + 4, next) });
		const after = body.subarray(next + delimiter.length, next + delimiter.length + 2).toString('latin1');
		if (after === '--') {
			if (!body.subarray(next + delimiter.length + 2).equals(Buffer.from('\r\n'))) throw new Error('junk after the closing delimiter');
			return parts;
		}
		if (after !== '\r\n') throw new Error('a boundary is not followed by CRLF');
		position = next + delimiter.length + 2;
	}
}

async function parseWithUndici(body: Buffer, contentType: string): Promise<File> {
	const form = await new Response(body, { headers: { 'content-type': contentType } }).formData();
	const entries = [...form.entries()];
	expect(entries).toHaveLength(1);
	const [name, value] = entries[0];
	expect(name).toBe('file');
	if (typeof value === 'string') throw new Error('the part was read as a plain field, not a file');
	return value as unknown as File;
}

describe('multipartBody', () => {
	it('parses by hand: one part with its disposition, type and exact bytes', () => {
		const { bytes, contentType } = multipartBody(part());
		const parts = parseByHand(bytes, contentType);
		expect(parts).toHaveLength(1);
		expect(parts[0].headers['content-disposition']).toBe('form-data; name="file"; filename="chart.png"');
		expect(parts[0].headers['content-type']).toBe('image/png');
		expect(parts[0].body.equals(BINARY)).toBe(true);
	});

	it('parses with undici: the filename, the content type and the bytes survive', async () => {
		const { bytes, contentType } = multipartBody(part({ filename: 'Q3 review (final).pdf', contentType: 'application/pdf' }));
		const file = await parseWithUndici(bytes, contentType);
		expect(file.name).toBe('Q3 review (final).pdf');
		expect(file.type).toBe('application/pdf');
		expect(Buffer.from(await file.arrayBuffer()).equals(BINARY)).toBe(true);
	});

	it('gives a non-ASCII filename as filename*, with an ASCII fallback', async () => {
		const filename = 'Präsentation – Q3 日本.pptx';
		const { bytes, contentType } = multipartBody(
			part({ filename, contentType: 'application/vnd.openxmlformats-officedocument.presentationml.presentation' }),
		);
		const disposition = parseByHand(bytes, contentType)[0].headers['content-disposition'];
		expect(disposition).toBe(
			`form-data; name="file"; filename="Pr_sentation _ Q3 __.pptx"; filename*=UTF-8''${encodeURIComponent(filename)}`,
		);
		// The header itself stays ASCII.
		expect(/^[\x20-\x7e]*$/.test(disposition)).toBe(true);
		const file = await parseWithUndici(bytes, contentType);
		expect(file.name).toBe(filename);
		expect(file.type).toBe('application/vnd.openxmlformats-officedocument.presentationml.presentation');
	});

	it("percent-encodes the characters RFC 8187 does not allow raw in filename* (' ( ) *)", async () => {
		const filename = "l'été (v2)*.pdf";
		const { bytes, contentType } = multipartBody(part({ filename, contentType: 'application/pdf' }));
		const disposition = parseByHand(bytes, contentType)[0].headers['content-disposition'];
		const extended = /filename\*=UTF-8''(.*)$/.exec(disposition)![1];
		expect(extended).toBe('l%27%C3%A9t%C3%A9%20%28v2%29%2A.pdf');
		// Only RFC 8187 attr-char and percent escapes.
		expect(extended).toMatch(/^([A-Za-z0-9!#$&+.^_`|~-]|%[0-9A-F]{2})*$/);
		expect((await parseWithUndici(bytes, contentType)).name).toBe(filename);
	});

	it('never lets a quote, backslash or line break out of the quoted filename', async () => {
		const filename = 'a"b\\c\r\nContent-Type: text/html.png';
		const { bytes, contentType } = multipartBody(part({ filename }));
		const parts = parseByHand(bytes, contentType);
		// Still exactly the two headers we wrote: no injected header.
		expect(Object.keys(parts[0].headers).sort()).toEqual(['content-disposition', 'content-type']);
		expect(parts[0].headers['content-type']).toBe('image/png');
		expect(parts[0].headers['content-disposition']).toContain('filename="a_b_c__Content-Type: text/html.png"');
		expect((await parseWithUndici(bytes, contentType)).name).toBe(filename);
	});

	it('gives the same input byte-identical output', () => {
		const one = multipartBody(part());
		const two = multipartBody(part({ bytes: Buffer.from(BINARY) }));
		expect(two.contentType).toBe(one.contentType);
		expect(Buffer.compare(two.bytes, one.bytes)).toBe(0);
	});

	it('gives different files different boundaries, none of which occurs in the file', () => {
		const a = multipartBody(part());
		const b = multipartBody(part({ bytes: Buffer.concat([BINARY, Buffer.from([0])]) }));
		const c = multipartBody(part({ filename: 'chart2.png' }));
		const boundaries = [a, b, c].map((body) => /boundary=(.+)$/.exec(body.contentType)![1]);
		expect(new Set(boundaries).size).toBe(3);
		for (const boundary of boundaries) {
			expect(boundary.length).toBeLessThanOrEqual(70);
			expect(boundary).toMatch(/^[0-9A-Za-z'()+_,./:=?-]+$/);
			expect(BINARY.includes(boundary)).toBe(false);
		}
	});

	it('handles an empty file', async () => {
		const { bytes, contentType } = multipartBody(part({ bytes: Buffer.alloc(0), filename: 'empty.txt', contentType: 'text/plain' }));
		expect(parseByHand(bytes, contentType)[0].body.length).toBe(0);
		const file = await parseWithUndici(bytes, contentType);
		expect(file.size).toBe(0);
		expect(file.name).toBe('empty.txt');
	});
});
