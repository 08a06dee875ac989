/**
 * The README's pictures, each by name, from a real n8n 2.x editor with the Deck Generator nodes:
 *
 *   npx ts-node --transpile-only test/dev/screenshot.ts [NAME ...] [--out FILE] [--width 1400] [--height 800] [--keep]
 *   npx ts-node --transpile-only test/dev/screenshot.ts --list
 *
 * NAME is one of the shots below (default: all of them; --out only with one NAME):
 *   workflow             .github/assets/workflow.png              the webhook example's canvas
 *   example-<file>       .github/assets/examples/<file>.png       each example's canvas, its note readable
 *   create-form          .github/assets/create-form.png           Deck Generator → Create's panel
 *   wait-node            .github/assets/wait-node.png             Deck Generator Wait's panel
 *   icons                .github/assets/icons.png                 our icons (light and dark) beside n8n's own
 *
 * 1. builds the package if dist/ is stale, ensures the pinned n8n 2.x (cached, see test/e2e/n8n-install.ts)
 * 2. starts the simulator and n8n on loopback with the package installed as a community package
 * 3. creates the credentials the examples name (Deck Generator -> the simulator; Slack and SMTP with
 *    dummy values, never used: nothing runs) so the canvas shows no "credential missing" marks
 * 4. imports the examples a shot needs, signs in with headless Chromium (Debian's /usr/bin/chromium
 *    driven by playwright-core), opens the workflow (and the node, for a panel), saves the PNG
 *
 * Needs: `apt-get install chromium` and the playwright-core dev dependency (no browser download).
 * CHROMIUM=/path/to/chrome overrides the browser.
 */
import * as fs from 'fs';
import * as path from 'path';
import { ensureBuilt, REPO } from '../e2e/fixtures/build';
import { EXAMPLES_DIR, loadExample, type ExampleFile } from '../e2e/fixtures/examples';
import { ensureN8n } from '../e2e/n8n-install';
import { closeHttpClients, N8nInstance, startN8n, WorkflowJson } from '../e2e/n8n-instance';
import { start, type Simulator } from '../simulator';

const CHROMIUM_ARGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];

interface Args {
	names: string[];
	out?: string;
	width: number;
	height: number;
	keep: boolean;
}

type Page = import('playwright-core').Page;

/** What a shot may use: the running n8n, a signed-in page, the examples imported by file name. */
interface ShotContext {
	n8n: N8nInstance;
	page: Page;
	args: Args;
	/** imports the example once (credentials bound) and returns its workflow id */
	workflowOf(file: ExampleFile): Promise<string>;
}

interface Shot {
	name: string;
	out: string;
	what: string;
	take(ctx: ShotContext, out: string): Promise<void>;
}

const ASSETS = path.join(REPO, '.github', 'assets');
const EXAMPLES = fs
	.readdirSync(EXAMPLES_DIR)
	.filter((f) => f.endsWith('.json'))
	.sort() as ExampleFile[];

const SHOTS: Shot[] = [
	{
		name: 'workflow',
		out: path.join(ASSETS, 'workflow.png'),
		what: "the webhook example's canvas",
		take: async (ctx, out) => canvasShot(ctx, await ctx.workflowOf('webhook-to-slack.json'), out),
	},
	...EXAMPLES.map(
		(file): Shot => ({
			name: `example-${path.basename(file, '.json')}`,
			out: path.join(ASSETS, 'examples', `${path.basename(file, '.json')}.png`),
			what: `${file}'s canvas, its note readable`,
			take: async (ctx, out) => canvasShot(ctx, await ctx.workflowOf(file), out),
		}),
	),
	{
		name: 'create-form',
		out: path.join(ASSETS, 'create-form.png'),
		what: 'Deck Generator → Create, its panel',
		take: async (ctx, out) => panelShot(ctx, await ctx.workflowOf('webhook-to-slack.json'), 'Create Deck', out),
	},
	{
		name: 'wait-node',
		out: path.join(ASSETS, 'wait-node.png'),
		what: 'Deck Generator Wait, its panel',
		take: async (ctx, out) => panelShot(ctx, await ctx.workflowOf('webhook-to-slack.json'), 'Wait for Deck', out),
	},
	{
		name: 'icons',
		out: path.join(ASSETS, 'icons.png'),
		what: "our icons, light and dark, beside n8n's own at canvas size",
		take: (ctx, out) => iconSheet(ctx, out),
	},
];

function parseArgs(argv: string[]): Args {
	const a: Args = { names: [], width: 1400, height: 800, keep: false };
	for (let i = 0; i < argv.length; i++) {
		const [flag, inline] = argv[i].split('=', 2);
		const value = () => inline ?? argv[++i];
		if (flag === '--out') a.out = path.resolve(value());
		else if (flag === '--width') a.width = Number(value());
		else if (flag === '--height') a.height = Number(value());
		else if (flag === '--keep') a.keep = true;
		else if (flag === '--list') {
			for (const shot of SHOTS) console.log(`${shot.name.padEnd(30)} ${path.relative(REPO, shot.out).padEnd(48)} ${shot.what}`);
			process.exit(0);
		} else if (flag === '--example') a.names.push(`example-${path.basename(value(), '.json')}`);
		else if (!flag.startsWith('-')) a.names.push(flag);
		else throw new Error(`unknown argument ${argv[i]} (try --list)`);
	}
	for (const name of a.names) if (!SHOTS.some((s) => s.name === name)) throw new Error(`no shot named ${name}; --list shows them`);
	if (a.out && a.names.length !== 1) throw new Error('--out needs exactly one shot name');
	return a;
}

/** Create one credential per (type, name) the workflow references and point the nodes at them. */
async function bindCredentials(n8n: N8nInstance, wf: WorkflowJson, sim: Simulator): Promise<WorkflowJson> {
	const dummy: Record<string, Record<string, unknown>> = {
		deckGenApi: { apiKey: sim.keys.personal, baseUrl: sim.url },
		slackApi: { accessToken: 'xoxb-not-a-real-token' },
		smtp: { user: 'decks@example.com', password: 'not-a-real-password', host: 'smtp.example.com', port: 465, secure: true },
	};
	const made = new Map<string, { id: string; name: string }>();
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

async function main(): Promise<void> {
	const args = parseArgs(process.argv.slice(2));
	const shots = args.names.length ? SHOTS.filter((s) => args.names.includes(s.name)) : SHOTS;
	const executablePath = process.env.CHROMIUM ?? '/usr/bin/chromium';
	if (!fs.existsSync(executablePath)) throw new Error(`no Chromium at ${executablePath}: apt-get install -y chromium (or set CHROMIUM)`);
	let chromium: typeof import('playwright-core').chromium;
	try {
		({ chromium } = require('playwright-core') as typeof import('playwright-core'));
	} catch {
		throw new Error('playwright-core is not installed: npm install (it is a dev dependency)');
	}

	if (ensureBuilt()) console.log('[screenshot] built the package');
	await ensureN8n('v2');
	const sim = await start({ seed: 1, clock: { speed: 60 } });
	let n8n: N8nInstance | undefined;
	let browser: import('playwright-core').Browser | undefined;
	try {
		n8n = await startN8n({ flavor: 'v2', packageDir: REPO });
		console.log(`[screenshot] n8n ${n8n.version} on ${n8n.baseUrl} (startup ${n8n.startupSeconds.toFixed(0)} s)`);
		const running = n8n;
		const imported = new Map<ExampleFile, string>();
		const workflowOf = async (file: ExampleFile) => {
			if (!imported.has(file)) imported.set(file, await running.importWorkflow(await bindCredentials(running, loadExample(file), sim)));
			return imported.get(file)!;
		};

		browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless: true });
		const context = await browser.newContext({ viewport: { width: args.width, height: args.height }, deviceScaleFactor: 1, colorScheme: 'light' });
		const page = await context.newPage();

		await page.goto(`${n8n.baseUrl}/signin`, { waitUntil: 'networkidle' });
		await page.locator('input[type="email"], input[name="emailOrLdapLoginId"], input[name="email"]').first().fill(n8n.owner.email);
		await page.locator('input[type="password"]').first().fill(n8n.owner.password);
		await Promise.all([
			page.waitForURL((url) => !url.pathname.startsWith('/signin'), { timeout: 60_000 }),
			page.locator('button[type="submit"], [data-test-id="form-submit-button"]').first().click(),
		]);

		const ctx: ShotContext = { n8n, page, args, workflowOf };
		for (const shot of shots) {
			const out = args.out ?? shot.out;
			fs.mkdirSync(path.dirname(out), { recursive: true });
			await shot.take(ctx, out);
		}
		if (args.keep) {
			console.log(`[screenshot] --keep: n8n stays up at ${n8n.baseUrl} (${n8n.owner.email} / ${n8n.owner.password}); Ctrl-C to stop`);
			await new Promise<void>((resolve) => process.once('SIGINT', () => resolve()));
		}
	} finally {
		await browser?.close().catch(() => undefined);
		await n8n?.stop();
		await sim.close();
		await closeHttpClients();
	}
}

/** Opens a workflow on the canvas, fitted to the view. */
async function openCanvas(ctx: ShotContext, id: string): Promise<void> {
	const { page, n8n, args } = ctx;
	await page.goto(`${n8n.baseUrl}/workflow/${id}`, { waitUntil: 'networkidle' });
	const canvasNode = page.locator('[data-test-id="canvas-node"]');
	await canvasNode.first().waitFor({ state: 'visible', timeout: 60_000 });
	await dismissOverlays(page);
	// fit the whole workflow into the view (the canvas's own "zoom to fit" button), then make room
	// for the floating "Execute workflow" button at the bottom centre
	await page.locator('[data-test-id="zoom-to-fit"]').first().click({ timeout: 10_000 });
	await page.waitForTimeout(600);
	await clearBottom(page, args);
	await page.mouse.move(args.width / 2, 120);
	// (runs in the page: the browser's document, not a Node global)
	await page.evaluate(() => (globalThis as unknown as { document: { activeElement: { blur?: () => void } | null } }).document.activeElement?.blur?.());
	await dismissOverlays(page);
}

/** The canvas of one workflow, our icons on it. */
async function canvasShot(ctx: ShotContext, id: string, out: string): Promise<void> {
	const { page } = ctx;
	await openCanvas(ctx, id);
	// our icons must be on the canvas, served by n8n
	const icons = await page.locator('img[src*="n8n-nodes-deckgen"]').count();
	if (icons === 0) throw new Error('no Deck Generator icon on the canvas');
	await page.screenshot({ path: out });
	console.log(`[screenshot] ${path.relative(REPO, out)}: ${await page.locator('[data-test-id="canvas-node"]').count()} nodes, ${icons} Deck Generator icons`);
}

/** One node's panel (n8n's node details view), opened by a double click on the canvas. */
async function panelShot(ctx: ShotContext, id: string, node: string, out: string): Promise<void> {
	const { page, args } = ctx;
	// a panel is taller than a canvas: show the whole form where it fits
	await page.setViewportSize({ width: args.width, height: Math.max(args.height, 1100) });
	await openCanvas(ctx, id);
	await page.locator(`[data-test-id="canvas-node"][data-node-name="${node}"]`).first().dblclick();
	await page.locator('[data-test-id="ndv"]').first().waitFor({ state: 'visible', timeout: 30_000 });
	await page.waitForTimeout(800);
	await dismissOverlays(page, false);
	await page.screenshot({ path: out });
	console.log(`[screenshot] ${path.relative(REPO, out)}: the panel of "${node}"`);
	await page.keyboard.press('Escape').catch(() => undefined);
	await page.setViewportSize({ width: args.width, height: args.height });
}

/**
 * Our icons, light and dark, next to n8n's own (Slack, HTTP Request, Gmail, from the n8n install), each in a
 * 40 px frame as on the canvas and again at 96 px, the frame drawn, to compare how much of it each fills.
 */
async function iconSheet(ctx: ShotContext, out: string): Promise<void> {
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
	console.log(`[screenshot] ${path.relative(REPO, out)}: Deck Generator, Deck Generator Wait, the credential | Slack, HTTP Request, Gmail (light, dark)`);
}

/**
 * Zoom out (the canvas's own button) until no node, label included, sits under the floating
 * "Execute workflow" button, then pan (mouse wheel) to centre the drawing in the space above it.
 */
async function clearBottom(page: import('playwright-core').Page, args: Args): Promise<void> {
	const button = await page.locator('[data-test-id="execute-workflow-button"]').first().boundingBox();
	if (!button) return;
	const LABEL = 56; // node name and subtitle under the node box
	for (let i = 0; i < 4; i++) {
		type Box = { top: number; bottom: number; left: number; right: number };
		const boxes = (await page.locator('[data-test-id="canvas-node"]').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON()))) as Box[];
		const top = Math.min(...boxes.map((b) => b.top));
		const bottom = Math.max(...boxes.map((b) => b.bottom + LABEL));
		// a label is wider than its node: count ~110 px either side of the node's centre
		const under = boxes.some((b) => {
			const centre = (b.left + b.right) / 2;
			return b.bottom + LABEL > button.y - 8 && centre + 110 > button.x && centre - 110 < button.x + button.width;
		});
		if (!under) return;
		const room = button.y - 16 - 70; // the header bar above the canvas
		if (bottom - top < room) {
			// it fits above the button: move it up
			const shift = bottom - (button.y - 16) + (room - (bottom - top)) / 2;
			await page.mouse.move(args.width / 2, args.height / 2);
			await page.mouse.wheel(0, shift);
			await page.waitForTimeout(400);
			continue;
		}
		await page.locator('[data-test-id="zoom-out-button"]').first().click();
		await page.waitForTimeout(400);
	}
}

/** Close whatever n8n pops up over the canvas (what's-new, banners, toasts). */
async function dismissOverlays(page: import('playwright-core').Page, escape = true): Promise<void> {
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

if (require.main === module) {
	main().catch((e) => {
		console.error(`[screenshot] ${e instanceof Error ? e.stack ?? e.message : e}`);
		process.exit(1);
	});
}
