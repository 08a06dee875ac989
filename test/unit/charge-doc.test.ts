/**
 * Issue 49: README's "What a purchase did to your credits" says what the code says. Its table has one row per
 * `charge` value of shared/charge.ts, no other, and each row quotes the start of the sentence the node writes
 * for it (`chargeMessage`), so a sentence changed in the code and not in the README (or a stale row) fails here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { chargeMessage, CHARGES, type Charge } from '../../nodes/shared/charge';

const README = readFileSync(join(__dirname, '../../README.md'), 'utf8');

function section(title: string): string {
	const start = README.indexOf(`### ${title}\n`);
	if (start < 0) throw new Error(`README has no section "${title}"`);
	const end = README.indexOf('\n##', start + title.length + 4);
	return README.slice(start, end < 0 ? undefined : end);
}

/** The table's rows: the `charge` value and the quoted sentence starts of its last column. */
function rows(text: string): Map<string, string[]> {
	const found = new Map<string, string[]>();
	for (const line of text.split('\n')) {
		const cells = line.split('|').map((cell) => cell.trim());
		const value = /^`([a-z_]+)`$/.exec(cells[1] ?? '')?.[1];
		// the header row names the column `charge` itself
		if (!value || value === 'charge' || cells.length < 5) continue;
		found.set(value, [...cells[3].matchAll(/`([^`]+)`/g)].map((match) => match[1]));
	}
	return found;
}

/** What a sentence begins with, up to its first parenthesis or colon: the part that does not vary. */
const stem = (sentence: string) => sentence.split(/[(:]/)[0].trim();

describe('README: What a purchase did to your credits', () => {
	const table = rows(section('What a purchase did to your credits'));

	test('one row for every charge value of shared/charge.ts, and no other', () => {
		expect([...table.keys()].sort()).toEqual([...CHARGES].sort());
	});

	test.each(CHARGES.map((charge) => [charge]))('the row of %s quotes the sentence the node writes for it', (charge: Charge) => {
		const quoted = table.get(charge) ?? [];
		const written = chargeMessage(charge, { operation: 'deck.create', price: 10, lostAttempt: "this run's first attempt got no answer (HTTP 504)", boughtAt: null });
		expect(quoted.map(stem)).toContain(stem(written));
		// the quoted sentence with its price is the node's, word for word, where the row gives it whole
		const whole = quoted.find((text) => text.endsWith('.') && text.includes('credits'));
		if (whole) expect(written.startsWith(whole.slice(0, -1))).toBe(true);
	});

	test('a request that states no price: the row of charged quotes that sentence too', () => {
		const written = chargeMessage('charged', { operation: 'custom.request' });
		expect((table.get('charged') ?? []).some((text) => written.startsWith(text))).toBe(true);
	});
});
