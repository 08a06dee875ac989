/**
 * The README's picture: a real n8n 2.x editor showing an example workflow with the Deck Generator nodes.
 *
 *   npx ts-node --transpile-only test/dev/screenshot.ts [--example webhook-to-slack.json] [--out .github/assets/workflow.png]
 *                                                        [--width 1400] [--height 800] [--keep]
 *
 * 1. builds the package if dist/ is stale, ensures the pinned n8n 2.x (cached, see test/e2e/n8n-install.ts)
 * 2. starts the simulator and n8n on loopback with the package installed as a community package
 * 3. creates the credentials the example names (Deck Generator -> the simulator; Slack and SMTP with
 *    dummy values, never used: nothing runs) so the canvas shows no "credential missing" marks
 * 4. imports the example, signs in with headless Chromium (Debian's /usr/bin/chromium driven by
 *    playwright-core), opens the workflow, fits it to the view and saves the PNG
 *
 * Needs: `apt-get install chromium` and the playwright-core dev dependency (no browser download).
 * CHROMIUM=/path/to/chrome overrides the browser.
 */
import * as fs from 'fs';
import * as path from 'path';
import { ensureBuilt, REPO } from '../e2e/fixtures/build';
import { loadExample, type ExampleFile } from '../e2e/fixtures/examples';
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
	example: ExampleFile;
	out: string;
	width: number;
	height: number;
	keep: boolean;
}

function parseArgs(argv: string[]): Args {
	const a: Args = { example: 'webhook-to-slack.json', out: path.join(REPO, '.github', 'assets', 'workflow.png'), width: 1400, height: 800, keep: false };
	for (let i = 0; i < argv.length; i++) {
		const [flag, inline] = argv[i].split('=', 2);
		const value = () => inline ?? argv[++i];
		if (flag === '--example') a.example = value() as ExampleFile;
		else if (flag === '--out') a.out = path.resolve(value());
		else if (flag === '--width') a.width = Number(value());
		else if (flag === '--height') a.height = Number(value());
		else if (flag === '--keep') a.keep = true;
		else throw new Error(`unknown argument ${argv[i]}`);
	}
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
		const wf = await bindCredentials(n8n, loadExample(args.example), sim);
		const id = await n8n.importWorkflow(wf);

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

		// our icons must be on the canvas, served by n8n
		const icons = await page.locator('img[src*="n8n-nodes-deckgen"]').count();
		if (icons === 0) throw new Error('no Deck Generator icon on the canvas');
		fs.mkdirSync(path.dirname(args.out), { recursive: true });
		await page.screenshot({ path: args.out });
		console.log(`[screenshot] ${path.relative(REPO, args.out)}: ${await canvasNode.count()} nodes, ${icons} Deck Generator icons`);
		if (args.keep) {
			console.log(`[screenshot] --keep: n8n stays up at ${n8n.baseUrl}/workflow/${id} (${n8n.owner.email} / ${n8n.owner.password}); Ctrl-C to stop`);
			await new Promise<void>((resolve) => process.once('SIGINT', () => resolve()));
		}
	} finally {
		await browser?.close().catch(() => undefined);
		await n8n?.stop();
		await sim.close();
		await closeHttpClients();
	}
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
async function dismissOverlays(page: import('playwright-core').Page): Promise<void> {
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
		await page.keyboard.press('Escape').catch(() => undefined);
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
