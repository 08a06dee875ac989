/**
 * The icons fill their frame as n8n's own do (Slack's, HTTP Request's span nearly all of theirs): the
 * drawing's rectangles and circles, strokes included, cover at least 90 % of the viewBox's width and
 * 85 % of its height, light and dark, for both nodes and the credential (they once spanned about two
 * thirds and looked smaller than the nodes beside them). `test/dev/screenshot.ts icons` renders them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(__dirname, '../..');
const ICONS = ['nodes/DeckGen', 'nodes/DeckGenWait', 'credentials'].flatMap((dir) =>
	readdirSync(join(ROOT, dir))
		.filter((f) => f.endsWith('.svg'))
		.map((f) => join(ROOT, dir, f)),
);

const num = (tag: string, name: string, fallback = 0) => {
	const m = new RegExp(`\\s${name}="([-\\d.]+)"`).exec(tag);
	return m ? Number(m[1]) : fallback;
};

/** The bounding box of an SVG's <rect> and <circle> elements, half the stroke width outside each. */
export function extent(svg: string): { x0: number; y0: number; x1: number; y1: number; width: number; height: number } {
	const [vx, vy, width, height] = (/viewBox="([^"]+)"/.exec(svg)?.[1] ?? '').split(/\s+/).map(Number);
	let x0 = Infinity;
	let y0 = Infinity;
	let x1 = -Infinity;
	let y1 = -Infinity;
	for (const tag of svg.match(/<(rect|circle)\b[^>]*>/g) ?? []) {
		const half = /stroke="(?!none)/.test(tag) ? num(tag, 'stroke-width', 1) / 2 : 0;
		const box = tag.startsWith('<rect')
			? [num(tag, 'x'), num(tag, 'y'), num(tag, 'x') + num(tag, 'width'), num(tag, 'y') + num(tag, 'height')]
			: [num(tag, 'cx') - num(tag, 'r'), num(tag, 'cy') - num(tag, 'r'), num(tag, 'cx') + num(tag, 'r'), num(tag, 'cy') + num(tag, 'r')];
		x0 = Math.min(x0, box[0] - half);
		y0 = Math.min(y0, box[1] - half);
		x1 = Math.max(x1, box[2] + half);
		y1 = Math.max(y1, box[3] + half);
	}
	return { x0: x0 - vx, y0: y0 - vy, x1: x1 - vx, y1: y1 - vy, width, height };
}

describe('icons', () => {
	test('there are six: light and dark, for both nodes and the credential', () => {
		expect(ICONS.map((f) => relative(ROOT, f)).sort()).toEqual([
			'credentials/deckgen.dark.svg',
			'credentials/deckgen.svg',
			'nodes/DeckGen/deckgen.dark.svg',
			'nodes/DeckGen/deckgen.svg',
			'nodes/DeckGenWait/deckgenwait.dark.svg',
			'nodes/DeckGenWait/deckgenwait.svg',
		]);
	});

	test.each(ICONS.map((f) => [relative(ROOT, f), f]))('%s fills its frame, inside it', (_name, file) => {
		const e = extent(readFileSync(file, 'utf8'));
		expect((e.x1 - e.x0) / e.width).toBeGreaterThanOrEqual(0.9);
		expect((e.y1 - e.y0) / e.height).toBeGreaterThanOrEqual(0.85);
		expect(e.x0).toBeGreaterThanOrEqual(0);
		expect(e.y0).toBeGreaterThanOrEqual(0);
		expect(e.x1).toBeLessThanOrEqual(e.width);
		expect(e.y1).toBeLessThanOrEqual(e.height);
	});

	test('the measure itself: the 0.2.0 icon spanned two thirds of its height', () => {
		const old =
			'<svg xmlns="http://www.w3.org/2000/svg" width="60" height="60" viewBox="0 0 60 60"><rect x="6" y="12" width="40" height="30" rx="3" fill="#E8EEF9" stroke="#2F5BD3" stroke-width="3"/><rect x="14" y="20" width="40" height="30" rx="3" fill="#2F5BD3"/><circle cx="24" cy="28" r="3" fill="#FFD166"/></svg>';
		expect(extent(old)).toEqual({ x0: 4.5, y0: 10.5, x1: 54, y1: 50, width: 60, height: 60 });
	});
});
