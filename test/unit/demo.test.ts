/**
 * `npm run demo`'s output (test/demo/demo.ts), on a faster clock: the poll interval is said on the clock it
 * runs on, and the progress bars last shown are the decks as they ended (each completed deck at 100 %),
 * on a terminal (bars redrawn in place) and in a log (bars printed every 2 s, then once at the end).
 */
import { runDemo, type DemoOutput } from '../demo/demo';

function collector(isTTY: boolean): DemoOutput & { text: () => string } {
	const chunks: string[] = [];
	return { isTTY, write: (t) => void chunks.push(t), text: () => chunks.join('') };
}

/** The deck lines of the last progress block printed before the table. */
function lastBars(text: string): string[] {
	const before = text.slice(0, text.indexOf('Items per output'));
	const lines = before.split('\n').map((l) => l.replace(/\x1b\[[0-9;]*[A-Za-z]/g, ''));
	const decks = lines.filter((l) => /^ {2}deck \d /.test(l));
	const count = new Set(decks.map((l) => l.split(' ')[3])).size;
	return decks.slice(-count);
}

describe('npm run demo output', () => {
	test.each([false, true])('isTTY %s: the poll interval on the compressed clock; the last bars are the final ones', async (isTTY) => {
		const out = collector(isTTY);
		expect(await runDemo({}, { speed: 6000, out })).toBe('success');
		const text = out.text();
		expect(text).toContain("Wait (poll every 5 s of the simulator's clock, 0.001 s real at ×6000)");
		const bars = lastBars(text);
		// two briefs are bought (the third waits on Client Action for a surcharge approval), both end completed
		expect(bars).toHaveLength(2);
		for (const bar of bars) expect(bar).toMatch(/ █{20} 100% succeeded$/);
		expect(text).toMatch(/Charged: 2 decks/);
	});
});
