/**
 * The core readers behind issue 16, as tables: where an upload answer names the material's id, how
 * a list of the brief is read, where a 402 names its cta, and how our links sit beside the service's.
 */
import { ctaOfPaymentRequired } from '../../nodes/shared/cta';
import { putDeckLinks } from '../../nodes/shared/links';
import { isFilled, readListValue } from '../../nodes/shared/lists';
import { materialIdOf, withoutMaterialEnvelope } from '../../nodes/shared/materialRecord';

describe('materialIdOf', () => {
	test.each<[string, Record<string, unknown>, string | number | undefined]>([
		['materialId', { materialId: 'mat_1', id: 'other' }, 'mat_1'],
		['material_id', { material_id: 'mat_2' }, 'mat_2'],
		['id', { id: 'mat_3', name: 'brief.pdf' }, 'mat_3'],
		['a number, kept a number', { id: 42 }, 42],
		['data envelope', { data: { id: 'mat_4' }, meta: { requestId: 'r' } }, 'mat_4'],
		['JSON:API', { data: { type: 'material', id: 'mat_5', attributes: { filename: 'a.pdf' } }, links: { self: '/x' } }, 'mat_5'],
		['a one-entry data array', { data: [{ id: 'mat_6' }] }, 'mat_6'],
		['a material object', { material: { id: 'mat_7' } }, 'mat_7'],
		['a named id in the envelope wins over a bare top-level id', { id: 'req_1', data: { materialId: 'mat_8' } }, 'mat_8'],
		['none', { ref: 'mat_9', filename: 'a.pdf' }, undefined],
		['an empty id', { materialId: '  ' }, undefined],
	])('%s', (_name, body, id) => expect(materialIdOf(body)).toBe(id));
});

describe('withoutMaterialEnvelope', () => {
	test('JSON:API: type, id and the attributes at the top level, the envelope\'s links beside them', () => {
		expect(withoutMaterialEnvelope({ data: { type: 'material', id: 'mat_1', attributes: { filename: 'a.pdf', size: 3 } }, links: { self: '/m' } })).toEqual({
			type: 'material',
			id: 'mat_1',
			filename: 'a.pdf',
			size: 3,
			links: { self: '/m' },
		});
	});
	test('a plain data envelope is lifted; a body with its own id, or data without one, is kept', () => {
		expect(withoutMaterialEnvelope({ data: { id: 'mat_2', filename: 'b.pdf' } })).toEqual({ id: 'mat_2', filename: 'b.pdf' });
		expect(withoutMaterialEnvelope({ materialId: 'mat_3', data: { id: 'x' } })).toEqual({ materialId: 'mat_3', data: { id: 'x' } });
		expect(withoutMaterialEnvelope({ data: { name: 'c.pdf' } })).toEqual({ data: { name: 'c.pdf' } });
	});
});

describe('readListValue', () => {
	test.each<[unknown, boolean, ReturnType<typeof readListValue>['kind'], unknown]>([
		[undefined, false, 'absent', undefined],
		['', false, 'absent', undefined],
		[undefined, true, 'empty', undefined],
		[null, true, 'empty', undefined],
		['  ', true, 'empty', undefined],
		[[], true, 'empty', undefined],
		['[]', true, 'empty', undefined],
		[['mat_1', null], true, 'emptyEntries', [2]],
		[['', 'de'], true, 'emptyEntries', [1]],
		['mat_1,,mat_2', true, 'emptyEntries', [2]],
		['de, fr,', true, 'emptyEntries', [3]],
		['[1, 2', true, 'invalidJson', undefined],
		['{"a": 1}', true, 'list', undefined],
		['mat_1, mat_2', true, 'list', ['mat_1', 'mat_2']],
		['["de", "fr"]', true, 'list', ['de', 'fr']],
		[['mat_1'], true, 'list', ['mat_1']],
		[7, true, 'list', [7]],
	])('%j (set %s) → %s', (value, set, kind, detail) => {
		const reading = readListValue(value, set);
		expect(reading.kind).toBe(kind);
		if (reading.kind === 'list' && detail !== undefined) expect(reading.values).toEqual(detail);
		if (reading.kind === 'emptyEntries') expect(reading.positions).toEqual(detail);
	});

	test('isFilled: an expression or a literal, not an empty field', () => {
		expect(isFilled('={{ $json.materialId }}')).toBe(true);
		expect(isFilled('mat_1')).toBe(true);
		expect(isFilled('')).toBe(false);
		expect(isFilled('=')).toBe(false);
		expect(isFilled(undefined)).toBe(false);
	});
});

describe('ctaOfPaymentRequired', () => {
	test.each<[string, unknown, string | undefined]>([
		['top-level', { cta: 'top_up', options: [{ cta: 'manage_decks' }] }, 'top_up'],
		['first option object', { options: [{ label: 'x' }, { cta: 'buy_revision' }] }, 'buy_revision'],
		['plain strings', { options: ['confirm_slide_surcharge', 'upgrade_for_slides'] }, 'confirm_slide_surcharge'],
		['a single string', { options: ['manage_decks'] }, 'manage_decks'],
		['mixed', { options: [' ', { cta: 'top_up' }] }, 'top_up'],
		['nowhere (the paywall)', { code: 'insufficient_credits', options: [{ label: 'Buy' }] }, undefined],
		['empty options', { options: [] }, undefined],
	])('%s', (_name, body, cta) => expect(ctaOfPaymentRequired(body)).toBe(cta));
});

describe('putDeckLinks', () => {
	const found = { links: [{ path: 'files.pptx', url: 'https://s/deck.pptx' }], deckUrl: 'https://s/deck.pptx' };

	test("a service's different members stay as service*", () => {
		const body = { links: { self: { href: '/x' } }, deckUrl: 'https://app/decks/1' };
		const item: Record<string, unknown> = { ...body };
		putDeckLinks(item, found, body, 'service');
		expect(item).toEqual({ ...found, serviceLinks: body.links, serviceDeckUrl: body.deckUrl });
	});

	test('the same value is not repeated; our own list from an earlier node is replaced', () => {
		const item: Record<string, unknown> = {};
		putDeckLinks(item, found, { deckUrl: 'https://s/deck.pptx' }, 'service');
		expect(item).toEqual(found);
		const again: Record<string, unknown> = {};
		putDeckLinks(again, found, { links: [{ path: 'deckUrl', url: 'https://s/old' }], deckUrl: 'https://s/old' }, 'input');
		expect(again).toEqual(found);
	});

	test('no deck file found: deckUrl is the deck or nothing, so what was there moves beside ours under the source\'s name', () => {
		const item: Record<string, unknown> = { deckUrl: 'https://app/decks/1' };
		putDeckLinks(item, { links: [] }, { deckUrl: 'https://app/decks/1' }, 'input');
		expect(item).toEqual({ inputDeckUrl: 'https://app/decks/1', links: [] });
		// an earlier Deck Generator node's own deckUrl (beside its links list) is simply gone
		const ours: Record<string, unknown> = { deckUrl: 'https://s/old.pptx' };
		putDeckLinks(ours, { links: [] }, { links: [{ path: 'deckUrl', url: 'https://s/old.pptx' }], deckUrl: 'https://s/old.pptx' }, 'input');
		expect(ours).toEqual({ links: [] });
	});
});
