// Materials upload (decision: POST /v1/materials, multipart part "file") and the contract's six 415 rules,
// plus the body caps (413 from the size layer) and uploads as creation inputs.
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { start, type Simulator } from '../simulator';
import { FILES } from './files';
import { call, deckBody, expectProblem, multipart, post, upload, type Res } from './helpers';

let sim: Simulator;

beforeAll(async () => {
	sim = await start({ seed: 61, clock: { manual: true }, limits: { maxConcurrentDecks: 1000 } });
});
afterAll(() => sim.close());

function expect415(res: Res, reason: string): any {
	const body = expectProblem(res, 415, 'unsupported_media_type', { reason, retryable: false });
	expect(body.detail.length).toBeGreaterThan(20);
	return body;
}

describe('a good upload (E-gap-materials)', () => {
	it('answers 201 with materialId, filename, contentType, size and sha256', async () => {
		const res = await upload(sim, 'Q3 figures.pdf', FILES.pdf, 'application/pdf');
		expect(res.status).toBe(201);
		expect(res.json).toEqual({
			materialId: expect.stringMatching(/^mat_/),
			filename: 'Q3 figures.pdf',
			contentType: 'application/pdf',
			size: FILES.pdf.length,
			sha256: createHash('sha256').update(FILES.pdf).digest('hex'),
		});
	});

	it('the material can be named in material_ids of a creation; someone else\'s cannot (422)', async () => {
		const mine = (await upload(sim, 'notes.md', FILES.md, 'text/markdown')).json.materialId;
		expect((await post(sim, '/v1/decks', deckBody({ material_ids: [mine] }))).status).toBe(202);
		const theirs = (await upload(sim, 'notes.md', FILES.md, 'text/markdown', { key: sim.keys.other })).json.materialId;
		const res = await post(sim, '/v1/decks', deckBody({ material_ids: [mine, theirs] }));
		expect(res.status).toBe(422);
		expect(res.json.detail).toEqual([expect.objectContaining({ loc: ['body', 'material_ids', 1], type: 'value_error' })]);
		expect(res.text).not.toContain(theirs);
	});

	it('uploads charge nothing', async () => {
		const charges = sim.ledger.charges.length;
		await upload(sim, 'a.png', FILES.png, 'image/png');
		expect(sim.ledger.charges.length).toBe(charges);
	});
});

describe('rule 1: the extension must be on the allow-list (F-415-1)', () => {
	const allowed: Array<[string, Buffer, string | undefined]> = [
		['deck.pdf', FILES.pdf, 'application/pdf'],
		['report.docx', FILES.docx, 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
		['numbers.xlsx', FILES.xlsx, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
		['old.pptx', FILES.pptx, 'application/vnd.openxmlformats-officedocument.presentationml.presentation'],
		['legacy.doc', FILES.doc, 'application/msword'],
		['legacy.xls', FILES.xls, 'application/vnd.ms-excel'],
		['legacy.ppt', FILES.ppt, 'application/vnd.ms-powerpoint'],
		['data.csv', FILES.csv, 'text/csv'],
		['notes.txt', FILES.txt, 'text/plain; charset=utf-8'],
		['readme.md', FILES.md, 'text/markdown'],
		['logo.png', FILES.png, 'image/png'],
		['photo.jpg', FILES.jpeg, 'image/jpeg'],
		['photo.JPEG', FILES.jpeg, 'image/jpeg'],
		['anim.gif', FILES.gif, 'image/gif'],
		['pic.webp', FILES.webp, 'image/webp'],
		['phone.heic', FILES.heic, 'image/heic'],
	];
	it.each(allowed)('%s with matching bytes and type → 201', async (name, data, type) => {
		expect((await upload(sim, name, data, type)).status).toBe(201);
	});

	it.each([['drawing.svg', FILES.svg], ['page.html', FILES.html], ['page.htm', FILES.html], ['harmless.svg', FILES.txt]])('%s is refused by name (even with harmless bytes)', async (name, data) => {
		const body = expect415(await upload(sim, name, data), 'extension_refused');
		expect(body.detail).toContain(`.${name.split('.').pop()}`);
	});

	it.each([['tool.exe', FILES.txt], ['archive.zip', FILES.plainZip], ['clip.mp4', FILES.mp4], ['README', FILES.txt]])('%s is not on the allow-list', async (name, data) => {
		expect415(await upload(sim, name, data), 'extension_not_allowed');
	});
});

describe('rule 2: a declared Content-Type must suit the extension (F-415-2)', () => {
	it('a PNG declared as image/jpeg is refused, the detail names both', async () => {
		const body = expect415(await upload(sim, 'logo.png', FILES.png, 'image/jpeg'), 'content_type_mismatch');
		expect(body.detail).toContain('image/jpeg');
		expect(body.detail).toContain('.png');
	});

	it('application/octet-stream or no type at all is ignored', async () => {
		expect((await upload(sim, 'logo.png', FILES.png, 'application/octet-stream')).status).toBe(201);
		expect((await upload(sim, 'logo.png', FILES.png)).status).toBe(201);
	});

	it('text/plain suits .md and .csv; text/html suits nothing', async () => {
		expect((await upload(sim, 'readme.md', FILES.md, 'text/plain')).status).toBe(201);
		expect((await upload(sim, 'data.csv', FILES.csv, 'text/plain')).status).toBe(201);
		expect415(await upload(sim, 'notes.txt', FILES.txt, 'text/html'), 'content_type_mismatch');
	});
});

describe('rule 3: the real format must match the extension and not contradict the type (F-415-3)', () => {
	const cases: Array<[string, Buffer, string | undefined, string]> = [
		['a PNG named .pdf', FILES.png, undefined, 'report.pdf'],
		['a JPEG named .png declared image/png', FILES.jpeg, 'image/png', 'logo.png'],
		['an xlsx named .docx', FILES.xlsx, undefined, 'report.docx'],
		['a plain ZIP named .pptx', FILES.plainZip, undefined, 'slides.pptx'],
		['a legacy xls named .doc', FILES.xls, 'application/msword', 'legacy.doc'],
		['an MP4 named .heic', FILES.mp4, 'image/heic', 'phone.heic'],
		['invalid UTF-8 named .txt', FILES.notUtf8, 'text/plain', 'notes.txt'],
		['a PDF named .csv', FILES.pdf, 'text/csv', 'data.csv'],
		['a GIF named .webp', FILES.gif, undefined, 'pic.webp'],
	];
	it.each(cases)('%s → 415 content_mismatch naming what the bytes are', async (_name, data, type, filename) => {
		const body = expect415(await upload(sim, filename, data, type), 'content_mismatch');
		expect(body.detail).toMatch(/The content is .+ but the extension/);
		expect(body.sniffedFormat).toEqual(expect.any(String));
	});
});

describe('rule 4: renaming changes the verdict in both directions (F-415-4)', () => {
	it('the same bytes pass as .png and fail as .pdf', async () => {
		expect((await upload(sim, 'x.png', FILES.png)).status).toBe(201);
		expect415(await upload(sim, 'x.pdf', FILES.png), 'content_mismatch');
	});

	it('and the other way round', async () => {
		expect((await upload(sim, 'x.pdf', FILES.pdf)).status).toBe(201);
		expect415(await upload(sim, 'x.png', FILES.pdf), 'content_mismatch');
	});
});

describe('rule 5: executables everywhere, markup outside txt/md/csv (F-415-5)', () => {
	const executables: Array<[string, string, Buffer]> = [
		['ELF', 'report.pdf', FILES.elf],
		['ELF', 'notes.txt', FILES.elf],
		['Windows PE', 'report.docx', FILES.pe],
		['Mach-O', 'photo.jpg', FILES.machO],
		['#! script', 'notes.md', FILES.shebang],
		['#! script', 'data.csv', FILES.shebang],
		['#! script', 'notes.txt', FILES.shebang],
	];
	it.each(executables)('%s as %s → 415 executable_content', async (_kind, name, data) => {
		expect415(await upload(sim, name, data), 'executable_content');
	});

	it.each([['HTML', 'logo.png', FILES.html], ['HTML', 'report.pdf', FILES.html], ['SVG', 'logo.png', FILES.svg], ['SVG', 'report.docx', FILES.svg]])('%s markup as %s → 415 markup_content', async (_kind, name, data) => {
		expect415(await upload(sim, name, data), 'markup_content');
	});

	it.each([['HTML', 'page.txt', FILES.html], ['HTML', 'page.md', FILES.html], ['SVG', 'drawing.csv', FILES.svg]])('%s markup as %s is accepted (text)', async (_kind, name, data) => {
		expect((await upload(sim, name, data)).status).toBe(201);
	});
});

describe('rule 6: detail names the disagreement; identical bytes and name give the identical verdict (F-415-6)', () => {
	it('retrying the same refused upload changes nothing', async () => {
		const a = await upload(sim, 'logo.png', FILES.pdf, 'image/png');
		const b = await upload(sim, 'logo.png', FILES.pdf, 'image/png');
		const body = expect415(a, 'content_mismatch');
		expect(body.detail).toContain('PDF');
		expect(body.detail).toContain('.png');
		expect(b.json.detail).toBe(body.detail);
		expect(body).toMatchObject({ filename: 'logo.png', extension: 'png', declaredContentType: 'image/png', sniffedFormat: 'pdf' });
	});
});

describe('upload body validation (422 native shape)', () => {
	it('no file part → 422 missing body.file', async () => {
		const form = multipart([{ name: 'note', data: 'hello' }]);
		const res = await call(sim, 'POST', '/v1/materials', { raw: form.raw, headers: { 'content-type': form.contentType } });
		expect(res.status).toBe(422);
		expect(res.json.detail).toEqual(expect.arrayContaining([expect.objectContaining({ loc: ['body', 'file'], type: 'missing' }), expect.objectContaining({ loc: ['body', 'note'], type: 'extra_forbidden' })]));
	});

	it('a JSON body instead of multipart → 422', async () => {
		const res = await post(sim, '/v1/materials', { file: 'x' });
		expect(res.status).toBe(422);
		expect(res.json.detail[0].loc).toEqual(['body', 'file']);
	});

	it('an empty file → 422', async () => {
		expect((await upload(sim, 'empty.txt', Buffer.alloc(0), 'text/plain')).status).toBe(422);
	});
});

describe('body caps per path: 413 from the size layer, not problem+json (L-body-size, C-413, N-413)', () => {
	let small: Simulator;
	beforeAll(async () => {
		small = await start({ seed: 62, clock: { manual: true }, limits: { jsonBodyBytes: 1024, materialBodyBytes: 4096 } });
	});
	afterAll(() => small.close());

	it('a creation body over the JSON cap → 413 text/html, nothing charged', async () => {
		const res = await post(small, '/v1/decks', deckBody({ notes: 'x'.repeat(2000) }));
		expect(res.status).toBe(413);
		expect(res.headers['content-type']).toMatch(/^text\/html/);
		expect(res.text).toContain('413 Request Entity Too Large');
		expect(res.headers['x-request-id']).toEqual(expect.any(String));
		expect(small.ledger.charges).toHaveLength(0);
	});

	it('the materials endpoint carries the large-body cap: a file over the JSON cap uploads', async () => {
		const data = Buffer.concat([FILES.pdf, Buffer.alloc(2500, 0x20)]);
		expect((await upload(small, 'big.pdf', data, 'application/pdf')).status).toBe(201);
	});

	it('a file over the materials cap → 413 text/html', async () => {
		const data = Buffer.concat([FILES.pdf, Buffer.alloc(5000, 0x20)]);
		const res = await upload(small, 'huge.pdf', data, 'application/pdf');
		expect(res.status).toBe(413);
		expect(res.headers['content-type']).toMatch(/^text\/html/);
	});

	it('a chunked body with no Content-Length is cut off at the cap too, and the connection stays usable', async () => {
		async function* chunks() {
			for (let i = 0; i < 10; i++) yield Buffer.from('x'.repeat(300));
		}
		const { request } = await import('undici');
		const res = await request(`${small.url}/v1/decks`, {
			method: 'POST',
			headers: { authorization: `Bearer ${small.keys.personal}`, 'idempotency-key': 'chunked', 'content-type': 'application/json' },
			body: Readable.from(chunks()),
		});
		await res.body.text();
		expect(res.statusCode).toBe(413);
		expect((await call(small, 'GET', '/v1/credits')).status).toBe(200);
	});

	it('the cap is per path: the default JSON cap is 64 KiB, the materials cap 10 MiB', async () => {
		expect((await post(sim, '/v1/decks', deckBody({ notes: 'x'.repeat(60 * 1024) }))).status).toBe(202);
		expect((await post(sim, '/v1/decks', deckBody({ notes: 'x'.repeat(65 * 1024) }))).status).toBe(413);
		const big = Buffer.concat([FILES.pdf, Buffer.alloc(1024 * 1024, 0x20)]);
		expect((await upload(sim, 'one-mib.pdf', big, 'application/pdf')).status).toBe(201);
	});
});
