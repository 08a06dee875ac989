import { NOT_GIVEN, toBoolean, toWholeNumber } from '../../nodes/shared/coerce';

describe('toWholeNumber', () => {
	test.each([
		[14, 14],
		['14', 14],
		[' 28 ', 28],
		['+3', 3],
		['0', 0],
		[0, 0],
	])('%p is %p', (value, expected) => {
		expect(toWholeNumber(value)).toEqual({ ok: true, value: expected });
	});
	test.each([undefined, null, '', '   '])('%p is not given', (value) => {
		expect(toWholeNumber(value)).toEqual({ ok: true, value: NOT_GIVEN });
	});
	test.each([
		['14.5', '"14.5"'],
		[14.5, '14.5'],
		['abc', '"abc"'],
		['14abc', '"14abc"'],
		['1e3', '"1e3"'],
		['0x10', '"0x10"'],
		[-3, '-3'],
		['-3', '"-3"'],
		[true, 'true'],
		[Number.NaN, 'NaN'],
		[Number.POSITIVE_INFINITY, 'Infinity'],
		['99999999999999999999', '"99999999999999999999"'],
		[[14], '[14]'],
		[{ n: 14 }, '{"n":14}'],
	])('%p is refused (shown as %s)', (value, shown) => {
		expect(toWholeNumber(value)).toEqual({ ok: false, got: shown });
	});
	test('the minimum is part of the rule', () => {
		expect(toWholeNumber('0', 1)).toEqual({ ok: false, got: '"0"' });
		expect(toWholeNumber('1', 1)).toEqual({ ok: true, value: 1 });
	});
});

describe('toBoolean', () => {
	test.each([
		[true, true],
		[false, false],
		['true', true],
		['TRUE', true],
		[' false ', false],
	])('%p is %p', (value, expected) => {
		expect(toBoolean(value)).toEqual({ ok: true, value: expected });
	});
	test.each([undefined, null, ''])('%p is not given', (value) => {
		expect(toBoolean(value)).toEqual({ ok: true, value: NOT_GIVEN });
	});
	test.each([['yes'], ['1'], [1], [0], ['on']])('%p is refused', (value) => {
		expect(toBoolean(value).ok).toBe(false);
	});
});
