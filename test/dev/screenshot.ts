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
 * CHROMIUM=/path/to/chrome overrides the browser. The shots and the browser's steps live in
 * test/editor/browser.ts, shared with the editor's end-to-end test (test/e2e/editor.e2e.ts), which
 * takes every one of these pictures again on each CI run.
 */
import * as fs from 'fs';
import * as path from 'path';
import { ensureBuilt, REPO } from '../e2e/fixtures/build';
import { loadExample, type ExampleFile } from '../e2e/fixtures/examples';
import { ensureN8n } from '../e2e/n8n-install';
import { closeHttpClients, N8nInstance, startN8n } from '../e2e/n8n-instance';
import { bindCredentials, chromiumPath, launchEditor, SHOTS, takeShot, type Editor } from '../editor/browser';
import { start } from '../simulator';

interface Args {
	names: string[];
	out?: string;
	width: number;
	height: number;
	keep: boolean;
}

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

async function main(): Promise<void> {
	const args = parseArgs(process.argv.slice(2));
	const shots = args.names.length ? SHOTS.filter((s) => args.names.includes(s.name)) : SHOTS;
	chromiumPath();

	if (ensureBuilt()) console.log('[screenshot] built the package');
	await ensureN8n('v2');
	const sim = await start({ seed: 1, clock: { speed: 60 } });
	let n8n: N8nInstance | undefined;
	let editor: Editor | undefined;
	try {
		n8n = await startN8n({ flavor: 'v2', packageDir: REPO });
		console.log(`[screenshot] n8n ${n8n.version} on ${n8n.baseUrl} (startup ${n8n.startupSeconds.toFixed(0)} s)`);
		const running = n8n;
		const imported = new Map<ExampleFile, string>();
		const workflowOf = async (file: ExampleFile) => {
			if (!imported.has(file)) {
				const wf = await bindCredentials(running, loadExample(file), { apiKey: sim.keys.personal, baseUrl: sim.url });
				imported.set(file, await running.importWorkflow(wf));
			}
			return imported.get(file)!;
		};
		editor = await launchEditor(n8n, { width: args.width, height: args.height });
		for (const shot of shots) {
			const out = args.out ?? shot.out;
			fs.mkdirSync(path.dirname(out), { recursive: true });
			console.log(`[screenshot] ${await takeShot({ n8n, page: editor.page, workflowOf }, shot, out)}`);
		}
		if (args.keep) {
			console.log(`[screenshot] --keep: n8n stays up at ${n8n.baseUrl} (${n8n.owner.email} / ${n8n.owner.password}); Ctrl-C to stop`);
			await new Promise<void>((resolve) => process.once('SIGINT', () => resolve()));
		}
	} finally {
		await editor?.close();
		await n8n?.stop();
		await sim.close();
		await closeHttpClients();
	}
}

if (require.main === module) {
	main().catch((e) => {
		console.error(`[screenshot] ${e instanceof Error ? e.stack ?? e.message : e}`);
		process.exit(1);
	});
}
