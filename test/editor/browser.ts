/**
 * The n8n editor in headless Chromium, shared by the README's screenshots (`test/dev/screenshot.ts`)
 * and the editor's end-to-end test (`test/e2e/editor.e2e.ts`), so both take the same pictures the
 * same way: Debian's /usr/bin/chromium (CHROMIUM=... overrides it) driven by playwright-core (a dev
 * dependency; no browser is ever downloaded).
 *
 * - `launchEditor`: the browser, a light-theme page of the given size, signed in as n8n's owner;
 * - `bindCredentials`: one credential per (type, name) a workflow names (Deck Generator -> the
 *   simulator; Slack, SMTP and OpenAI with dummy values, never used), so no "credential missing" mark shows;
 * - `openCanvas`, `openPanel`: a workflow fitted to the view clear of the floating "Execute workflow"
 *   button; a node's panel (n8n's node details view) by a double click;
 * - `SHOTS`: every README picture by name, where it is written and how it is taken.
 */
import * as fs from 'fs';
import * as path from 'path';
import { REPO } from '../e2e/fixtures/build';
import { EXAMPLES_DIR, type ExampleFile } from '../e2e/fixtures/examples';
import type { N8nInstance, WorkflowJson } from '../e2e/n8n-instance';

export type Browser = import('playwright-core').Browser;
export type Page = import('playwright-core').Page;

/** Flags that work on this machine (no sandbox as root, no GPU, nothing reaching out on its own). */
export const CHROMIUM_ARGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];

export const DEFAULT_VIEW = { width: 1400, height: 800 };

export interface View {
	width: number;
	height: number;
}

export function chromiumPath(): string {
	const executablePath = process.env.CHROMIUM ?? '/usr/bin/chromium';
	if (!fs.existsSync(executablePath)) throw new Error(`no Chromium at ${executablePath}: apt-get install -y chromium (or set CHROMIUM)`);
	return executablePath;
}

export interface Editor {
	browser: Browser;
	page: Page;
	view: View;
	close(): Promise<void>;
}

/** Chromium with one page of `view`'s size, signed in to `n8n` as its owner. */
export async function launchEditor(n8n: N8nInstance, view: View = DEFAULT_VIEW): Promise<Editor> {
	const executablePath = chromiumPath();
	let chromium: typeof import('playwright-core').chromium;
	try {
		({ chromium } = require('playwright-core') as typeof import('playwright-core'));
	} catch {
		throw new Error('playwright-core is not installed: npm install (it is a dev dependency)');
	}
	const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless: true });
	try {
		const context = await browser.newContext({ viewport: { ...view }, deviceScaleFactor: 1, colorScheme: 'light' });
		const page = await context.newPage();
		await signIn(page, n8n);
		return { browser, page, view, close: () => browser.close().catch(() => undefined) };
	} catch (e) {
		await browser.close().catch(() => undefined);
		throw e;
	}
}

export async function signIn(page: Page, n8n: N8nInstance): Promise<void> {
	await page.goto(`${n8n.baseUrl}/signin`, { waitUntil: 'networkidle' });
	await page.locator('input[type="email"], input[name="emailOrLdapLoginId"], input[name="email"]').first().fill(n8n.owner.email);
	await page.locator('input[type="password"]').first().fill(n8n.owner.password);
	await Promise.all([
		page.waitForURL((url) => !url.pathname.startsWith('/signin'), { timeout: 60_000 }),
		page.locator('button[type="submit"], [data-test-id="form-submit-button"]').first().click(),
	]);
}

/**
 * Create one credential per (type, name) the workflow references and point the nodes at them; pass
 * the same `made` map for several workflows to share them.
 */
export async function bindCredentials(
	n8n: N8nInstance,
	wf: WorkflowJson,
	deckGen: { apiKey: string; baseUrl: string },
	made = new Map<string, { id: string; name: string }>(),
): Promise<WorkflowJson> {
	const dummy: Record<string, Record<string, unknown>> = {
		deckGenApi: deckGen,
		slackApi: { accessToken: 'xoxb-not-a-real-token' },
		smtp: { user: 'decks@example.com', password: 'not-a-real-password', host: 'smtp.example.com', port: 465, secure: true },
		openAiApi: { apiKey: 'sk-not-a-real-key' },
	};
	const nodes = [];
	for (const node of wf.nodes) {
		const credentials: Record<string, { id: string; name: string }> = {};
		for (const [type, ref] of Object.entries((node.credentials ?? {}) as Record<string, { name: string }>)) {
			const key = `${type}/${ref.name}`;
			if (!made.has(key)) {
				const c = await n8n.createCredential({ name: ref.name, type, data: dummy[type] ?? {} });
				made.set(key, { id: c.id, name: c.name });
			}
			credentials[type] = made.get(key)!;
		}
		nodes.push(node.credentials ? { ...node, credentials } : node);
	}
	return { ...wf, nodes };
}

/** Opens a workflow on the canvas, fitted to the view, clear of the "Execute workflow" button. */
export async function openCanvas(page: Page, n8n: N8nInstance, id: string): Promise<void> {
	const view = page.viewportSize() ?? DEFAULT_VIEW;
	await page.goto(`${n8n.baseUrl}/workflow/${id}`, { waitUntil: 'networkidle' });
	const canvasNode = page.locator('[data-test-id="canvas-node"]');
	await canvasNode.first().waitFor({ state: 'visible', timeout: 60_000 });
	await dismissOverlays(page);
	// fit the whole workflow into the view (the canvas's own "zoom to fit" button), then make room
	// for the floating "Execute workflow" button at the bottom centre
	await page.locator('[data-test-id="zoom-to-fit"]').first().click({ timeout: 10_000 });
	await page.waitForTimeout(600);
	await clearBottom(page, view);
	// park the pointer in an empty corner (over a note it would bring up the note's toolbar)
	await page.mouse.move(70, 90);
	// (runs in the page: the browser's document, not a Node global)
	await page.evaluate(() => (globalThis as unknown as { document: { activeElement: { blur?: () => void } | null } }).document.activeElement?.blur?.());
	await dismissOverlays(page);
}

/** Opens one node's panel (n8n's node details view) by a double click on the canvas. */
export async function openPanel(page: Page, node: string): Promise<void> {
	await page.locator(`[data-test-id="canvas-node"][data-node-name="${node}"]`).first().dblclick();
	await page.locator('[data-test-id="ndv"]').first().waitFor({ state: 'visible', timeout: 30_000 });
	await page.waitForTimeout(800);
	await dismissOverlays(page, false);
}

export async function closePanel(page: Page): Promise<void> {
	await page.keyboard.press('Escape').catch(() => undefined);
	await page.locator('[data-test-id="ndv"]').first().waitFor({ state: 'hidden', timeout: 10_000 }).catch(() => undefined);
}

/**
 * Zoom out (the canvas's own button) until no node (its label included) or note sits under the
 * floating "Execute workflow" button or under the header bar, panning (mouse wheel)
 * to centre the drawing in the space between them.
 */
async function clearBottom(page: Page, view: View): Promise<void> {
	// (a workflow without a trigger has no such button)
	const locator = page.locator('[data-test-id="execute-workflow-button"]').first();
	const button = (await locator.count()) ? await locator.boundingBox({ timeout: 5_000 }) : null;
	if (!button) return;
	const LABEL = 56; // node name and subtitle under the node box
	const HEADER = 80; // the header bar and the Editor/Executions tabs above the canvas
	for (let i = 0; i < 6; i++) {
		type Box = { top: number; bottom: number; left: number; right: number; note: boolean };
		const boxes = (await page
			.locator('[data-test-id="canvas-node"], [data-test-id="sticky"]')
			.evaluateAll((els) => els.map((e) => ({ ...e.getBoundingClientRect().toJSON(), note: e.getAttribute('data-test-id') === 'sticky' })))) as Box[];
		// a node's name and subtitle hang below it, wider than the node: ~110 px either side of its centre
		const extent = (b: Box) => {
			const centre = (b.left + b.right) / 2;
			return b.note ? b : { top: b.top, bottom: b.bottom + LABEL, left: Math.min(b.left, centre - 110), right: Math.max(b.right, centre + 110) };
		};
		const top = Math.min(...boxes.map((b) => extent(b).top));
		const bottom = Math.max(...boxes.map((b) => extent(b).bottom));
		const under = boxes.map(extent).some((e) => e.bottom > button.y - 8 && e.right > button.x && e.left < button.x + button.width);
		if (!under && top >= HEADER) return;
		const room = button.y - 16 - HEADER;
		if (bottom - top < room) {
			// it fits between the header and the button: centre it there
			const shift = (top + bottom) / 2 - (HEADER + button.y - 16) / 2;
			await page.mouse.move(view.width / 2, view.height / 2);
			await page.mouse.wheel(0, shift);
			await page.waitForTimeout(400);
			continue;
		}
		await page.locator('[data-test-id="zoom-out-button"]').first().click();
		await page.waitForTimeout(400);
	}
}

/** Close whatever n8n pops up over the canvas (what's-new, banners, toasts). */
export async function dismissOverlays(page: Page, escape = true): Promise<void> {
	for (let i = 0; i < 3; i++) {
		const closers = page.locator(
			[
				'.el-dialog__headerbtn',
				'[data-test-id="banner-close"]',
				'[data-test-id="banners"] button[aria-label="Close"]',
				'.el-notification__closeBtn',
				'[data-test-id="close-button"]',
			].join(', '),
		);
		const n = await closers.count();
		let clicked = false;
		for (let k = 0; k < n; k++) {
			const el = closers.nth(k);
			if (await el.isVisible().catch(() => false)) {
				await el.click({ timeout: 2000 }).catch(() => undefined);
				clicked = true;
			}
		}
		if (escape) await page.keyboard.press('Escape').catch(() => undefined);
		if (!clicked) break;
		await page.waitForTimeout(300);
	}
}

// ---------------------------------------------------------------------------------------------
// The README's pictures

/** What a shot may use: the running n8n, a signed-in page, the examples imported by file name. */
export interface ShotContext {
	n8n: N8nInstance;
	page: Page;
	/** imports the example once (credentials bound) and returns its workflow id */
	workflowOf(file: ExampleFile): Promise<string>;
}

export interface Shot {
	name: string;
	out: string;
	what: string;
	/** the example whose canvas or panel it shows, if any */
	example?: ExampleFile;
	/** viewport height for this shot (the canvas is fitted into it) */
	height?: number;
	take(ctx: ShotContext, out: string): Promise<string>;
}

export const ASSETS = path.join(REPO, '.github', 'assets');
export const EXAMPLES = fs
	.readdirSync(EXAMPLES_DIR)
	.filter((f) => f.endsWith('.json'))
	.sort() as ExampleFile[];

/** Viewport heights other than the default: at 800 the fit put the MCP example's note under the header. */
const EXAMPLE_HEIGHT: Partial<Record<string, number>> = { 'mcp-agent-tools.json': 1000 };

export const SHOTS: Shot[] = [
	{
		name: 'workflow',
		out: path.join(ASSETS, 'workflow.png'),
		what: "the webhook example's canvas",
		example: 'webhook-to-slack.json',
		take: async (ctx, out) => canvasShot(ctx, await ctx.workflowOf('webhook-to-slack.json'), out),
	},
	...EXAMPLES.map(
		(file): Shot => ({
			name: `example-${path.basename(file, '.json')}`,
			out: path.join(ASSETS, 'examples', `${path.basename(file, '.json')}.png`),
			what: `${file}'s canvas, its note readable`,
			example: file,
			height: EXAMPLE_HEIGHT[file],
			take: async (ctx, out) => canvasShot(ctx, await ctx.workflowOf(file), out),
		}),
	),
	{
		name: 'create-form',
		out: path.join(ASSETS, 'create-form.png'),
		what: 'Deck Generator → Create, its panel',
		example: 'webhook-to-slack.json',
		take: async (ctx, out) => panelShot(ctx, await ctx.workflowOf('webhook-to-slack.json'), 'Create Deck', out),
	},
	{
		name: 'wait-node',
		out: path.join(ASSETS, 'wait-node.png'),
		what: 'Deck Generator Wait, its panel',
		example: 'webhook-to-slack.json',
		take: async (ctx, out) => panelShot(ctx, await ctx.workflowOf('webhook-to-slack.json'), 'Wait for Deck', out),
	},
	{
		name: 'icons',
		out: path.join(ASSETS, 'icons.png'),
		what: "our icons, light and dark, beside n8n's own at canvas size",
		take: (ctx, out) => iconSheet(ctx, out),
	},
];

/** Takes one shot at its own viewport size (then restores the page's), writes the PNG, returns a line saying what it shows. */
export async function takeShot(ctx: ShotContext, shot: Shot, out = shot.out): Promise<string> {
	const before = ctx.page.viewportSize() ?? DEFAULT_VIEW;
	fs.mkdirSync(path.dirname(out), { recursive: true });
	if (shot.height) await ctx.page.setViewportSize({ width: before.width, height: shot.height });
	try {
		return await shot.take(ctx, out);
	} finally {
		if (shot.height) await ctx.page.setViewportSize(before);
	}
}

/** The canvas of one workflow, our icons on it. */
async function canvasShot(ctx: ShotContext, id: string, out: string): Promise<string> {
	const { page, n8n } = ctx;
	await openCanvas(page, n8n, id);
	// our icons must be on the canvas, served by n8n
	const icons = await page.locator('img[src*="n8n-nodes-deckgen"]').count();
	if (icons === 0) throw new Error('no Deck Generator icon on the canvas');
	await page.screenshot({ path: out });
	return `${path.relative(REPO, out)}: ${await page.locator('[data-test-id="canvas-node"]').count()} nodes, ${icons} Deck Generator icons`;
}

/** One node's panel, the whole form where it fits (a panel is taller than a canvas). */
async function panelShot(ctx: ShotContext, id: string, node: string, out: string): Promise<string> {
	const { page, n8n } = ctx;
	const view = page.viewportSize() ?? DEFAULT_VIEW;
	await page.setViewportSize({ width: view.width, height: Math.max(view.height, 1100) });
	try {
		await openCanvas(page, n8n, id);
		await openPanel(page, node);
		await page.screenshot({ path: out });
		await closePanel(page);
	} finally {
		await page.setViewportSize(view);
	}
	return `${path.relative(REPO, out)}: the panel of "${node}"`;
}

/**
 * Our icons, light and dark, next to n8n's own (Slack, HTTP Request, Gmail, from the n8n install), each in a
 * 40 px frame as on the canvas and again at 96 px, the frame drawn, to compare how much of it each fills.
 */
async function iconSheet(ctx: ShotContext, out: string): Promise<string> {
	const { n8n, page } = ctx;
	const base = path.join(n8n.install.dir, 'node_modules', 'n8n-nodes-base', 'dist', 'nodes');
	const icon = (file: string, theme: 'light' | 'dark') => {
		const dark = file.replace(/\.svg$/, '.dark.svg');
		const chosen = theme === 'dark' && fs.existsSync(dark) ? dark : file;
		return `data:image/svg+xml;base64,${fs.readFileSync(chosen).toString('base64')}`;
	};
	const files = [
		path.join(REPO, 'dist', 'nodes', 'DeckGen', 'deckgen.svg'),
		path.join(REPO, 'dist', 'nodes', 'DeckGenWait', 'deckgenwait.svg'),
		path.join(REPO, 'dist', 'credentials', 'deckgen.svg'),
		path.join(base, 'Slack', 'slack.svg'),
		path.join(base, 'HttpRequest', 'httprequest.svg'),
		path.join(base, 'Google', 'Gmail', 'gmail.svg'),
	];
	const cell = (src: string, size: number) =>
		`<div style="width:${size}px;height:${size}px;outline:1px dashed #bbb;margin:14px;display:inline-block;vertical-align:middle"><img src="${src}" style="width:100%;height:100%;object-fit:contain"></div>`;
	const row = (theme: 'light' | 'dark', size: number) =>
		`<div style="background:${theme === 'light' ? '#fff' : '#2d2e33'};padding:6px;white-space:nowrap">${files.map((f) => cell(icon(f, theme), size)).join('')}</div>`;
	await page.setContent(`<body style="margin:0;display:inline-block">${row('light', 40)}${row('light', 96)}${row('dark', 40)}${row('dark', 96)}</body>`);
	await page.waitForTimeout(300);
	const box = await page.locator('body').boundingBox();
	await page.screenshot({ path: out, clip: { x: 0, y: 0, width: Math.ceil(box!.width), height: Math.ceil(box!.height) } });
	return `${path.relative(REPO, out)}: Deck Generator, Deck Generator Wait, the credential | Slack, HTTP Request, Gmail (light, dark)`;
}

// ---------------------------------------------------------------------------------------------
// Adding a node as a person does

const exactly = (words: string) => new RegExp(`^\\s*${words.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);

/**
 * On a new workflow, adds `node` from the node creator (the canvas's "+", a search for its name),
 * picking `action` from its actions list (a node without actions: "Add to workflow"); the panel
 * n8n opens for the new node is left open.
 */
export async function addNodeFromCreator(page: Page, n8n: N8nInstance, node: string, action?: string): Promise<void> {
	await page.goto(`${n8n.baseUrl}/workflow/new`, { waitUntil: 'networkidle' });
	await dismissOverlays(page);
	await page.locator('[data-test-id="canvas-add-button"]').first().click();
	await page.locator('[data-test-id="node-creator-search-bar"]').first().fill(node);
	const item = (name: string) => page.locator('[data-test-id="node-creator"] [data-test-id="node-creator-item-name"]').filter({ hasText: exactly(name) }).first();
	await item(node).click();
	if (action) await item(action).click();
	else await page.locator('[data-test-id="node-creator"]').getByText('Add to workflow', { exact: true }).first().click();
	await page.locator('[data-test-id="ndv"]').first().waitFor({ state: 'visible', timeout: 30_000 });
	await page.waitForTimeout(800);
}

/** In the open panel, picks `option` (its display name) in the options parameter `parameter`. */
export async function pickOption(page: Page, parameter: string, option: string): Promise<void> {
	await page.locator(`[data-test-id="ndv"] [data-test-id="parameter-input-${parameter}"]`).first().click();
	await page.locator('.option-headline:visible').filter({ hasText: exactly(option) }).first().click();
	await page.waitForTimeout(500);
}
