/**
 * What a person sees in n8n 2.x's editor, read from the page (the selectors are n8n's own
 * `data-test-id`s, read from n8n-editor-ui 2.41.1 and checked in the browser):
 *
 * - `readPanel`: the open panel's (node details view's) parameters, top to bottom: every visible
 *   field label and notice of the Parameters tab, not those nested in a collection (Additional
 *   Fields, Options: what is under them depends on what a workflow added), not the credential row;
 *   and every parameter-issue marker (`parameter-issues`) with the field it sits on;
 * - `readCanvas`: per node the output labels drawn on the canvas in order and whether it carries the
 *   issues marker (`node-issues`); per sticky note whether its text fits its frame.
 */
import type { Page } from './browser';

/** A notice as the table writes it: its text after this prefix. */
export const NOTICE = 'Notice: ';

export interface PanelReading {
	/** field labels in order; a notice as `Notice: <its text>` */
	fields: string[];
	/** labels of the fields that show a parameter-issue marker, with the marker's text */
	issues: string[];
	/** notices with no text */
	emptyNotices: number;
	/** the labels of what is filled in inside a collection (Options, Additional Fields), top to bottom */
	nested: string[];
}

/** Reads the open panel. */
export async function readPanel(page: Page): Promise<PanelReading> {
	const params = page.locator('[data-test-id="ndv"] [data-test-id="node-parameters"]').first();
	await params.waitFor({ state: 'visible', timeout: 30_000 });
	// (runs in the page)
	return params.evaluate((root) => {
		type El = { closest(s: string): El | null; querySelector(s: string): El | null; querySelectorAll(s: string): ArrayLike<El>; textContent: string | null; checkVisibility?(): boolean; getClientRects(): ArrayLike<unknown>; parentElement: El | null; classList: { contains(c: string): boolean } };
		const visible = (el: El) => (el.checkVisibility ? el.checkVisibility() : el.getClientRects().length > 0);
		const text = (el: El | null) => (el?.textContent ?? '').replace(/\s+/g, ' ').trim();
		const reading = { fields: [] as string[], issues: [] as string[], emptyNotices: 0, nested: [] as string[] };
		// labels and notices in document order (n8n puts the first parameter in the credential row's item)
		const parts = Array.from((root as unknown as El).querySelectorAll('label.n8n-input-label, .notice'));
		for (const part of parts) {
			if (part.closest('[data-test-id="node-credentials-slot"]')) continue;
			// nested in another parameter (a collection's entries): read apart
			const item = part.closest('[data-test-id="parameter-item"]');
			if (!item) continue;
			if (!visible(part)) continue;
			if (item.parentElement?.closest('[data-test-id="parameter-item"]')) {
				const name = text(part.querySelector('[class*="_title_"]') ?? part);
				if (name && !part.classList.contains('notice')) reading.nested.push(name);
				continue;
			}
			if (part.classList.contains('notice')) {
				const words = text(part);
				if (!words) reading.emptyNotices++;
				reading.fields.push(`Notice: ${words}`);
				continue;
			}
			const name = text(part.querySelector('[class*="_title_"]') ?? part);
			if (name) reading.fields.push(name);
		}
		for (const marker of Array.from((root as unknown as El).querySelectorAll('[data-test-id="parameter-issues"]'))) {
			if (!visible(marker)) continue;
			const item = marker.closest('[data-test-id="parameter-item"]');
			const label = item?.querySelector('label.n8n-input-label [class*="_title_"]') ?? item?.querySelector('label.n8n-input-label') ?? null;
			reading.issues.push(`${text(label) || '(no label)'}: ${text(marker) || 'issue marker'}`);
		}
		return reading;
	});
}

export interface CanvasNodeReading {
	name: string;
	type: string;
	/** main output labels drawn on the canvas, by output index */
	outputs: string[];
	/** other outputs (an AI tool's connection) as `<type>: <label>`, e.g. `ai_tool: ` */
	otherOutputs: string[];
	/** the canvas's issues marker (red triangle: parameter or credential issues) */
	hasIssues: boolean;
}

export interface StickyReading {
	/** the note's first line */
	title: string;
	/** the text's height and width and the frame's (CSS px: the canvas's zoom does not change them) */
	textHeight: number;
	frameHeight: number;
	textWidth: number;
	frameWidth: number;
	fits: boolean;
}

export interface CanvasReading {
	nodes: CanvasNodeReading[];
	stickies: StickyReading[];
}

export async function readCanvas(page: Page): Promise<CanvasReading> {
	return page.evaluate(() => {
		type El = { getAttribute(n: string): string | null; querySelector(s: string): El | null; querySelectorAll(s: string): ArrayLike<El>; textContent: string | null; scrollHeight: number; clientHeight: number; scrollWidth: number; clientWidth: number; children: ArrayLike<El> };
		const doc = (globalThis as unknown as { document: El }).document;
		const text = (el: El | null) => (el?.textContent ?? '').replace(/\s+/g, ' ').trim();
		const nodes = Array.from(doc.querySelectorAll('[data-test-id="canvas-node"]'))
			.filter((n) => n.getAttribute('data-node-type') !== 'n8n-nodes-base.stickyNote')
			.map((n) => {
				const handles = Array.from(n.querySelectorAll('[data-test-id="canvas-node-output-handle"]'));
				const outputs: string[] = [];
				const otherOutputs: string[] = [];
				for (const h of handles) {
					if (h.getAttribute('data-connection-type') === 'main') outputs[Number(h.getAttribute('data-index'))] = text(h.querySelector('[class*="_outputLabel_"]'));
					else otherOutputs.push(`${h.getAttribute('data-connection-type')}: ${text(h)}`);
				}
				return {
					name: n.getAttribute('data-node-name') ?? '',
					type: n.getAttribute('data-node-type') ?? '',
					outputs: Array.from(outputs, (o) => o ?? ''),
					otherOutputs,
					hasIssues: n.querySelector('[data-test-id="node-issues"]') !== null,
				};
			});
		const stickies = Array.from(doc.querySelectorAll('[data-test-id="sticky"]')).map((s) => {
			// the note's frame: its first child, fixed to the note's size with overflow hidden; the
			// rendered markdown inside it. Text past the frame makes its scroll size exceed its client size.
			const frame = s.children[0] ?? s;
			const markdown = frame.children[0] ?? frame;
			return {
				title: text(s.querySelector('h1, h2, h3, p')).slice(0, 80),
				textHeight: markdown.scrollHeight,
				frameHeight: frame.clientHeight,
				textWidth: markdown.scrollWidth,
				frameWidth: frame.clientWidth,
				fits: frame.scrollHeight <= frame.clientHeight && frame.scrollWidth <= frame.clientWidth,
			};
		});
		return { nodes, stickies };
	});
}
