/**
 * Body of `npm run dev` (the caller builds the package first): a real n8n in the browser with our
 * built package installed the way a user's n8n installs it, wired to the reference simulator.
 *
 *   npx ts-node --transpile-only test/dev/dev.ts [--port 5678] [--sim-port 4010] [--speed 60] [--seed 1]
 *                                                  [--flavor v2|v1] [--user-folder DIR] [--examples DIR] [--verbose]
 *
 * 1. ensures the pinned n8n is installed (cached in ~/.cache/n8n-nodes-deckgen, see test/e2e/n8n-install.ts)
 * 2. starts the simulator (test/simulator) on 127.0.0.1
 * 3. starts n8n on 127.0.0.1 with this repository's built package (package.json + dist/) installed as a
 *    community package, owner account set up
 * 4. creates a `deckGenApi` credential { apiKey: personal demo key, baseUrl: simulator }
 * 5. imports every test/workflows/examples/*.json (or --examples DIR), pointing their deckGenApi credential at it
 * 6. prints the editor URL, the login and the demo keys, and stays up until Ctrl-C
 *
 * By default n8n's user folder is a fresh temp folder removed on exit; --user-folder keeps one
 * between runs (workflows already there by name are not imported again).
 */
import * as fs from 'fs';
import * as path from 'path';
import { ensureN8n, Flavor } from '../e2e/n8n-install';
import { N8nInstance, startN8n, WorkflowJson } from '../e2e/n8n-instance';
import { DEMO_KEY_DESCRIPTIONS, start } from '../simulator';

const REPO = path.resolve(__dirname, '..', '..');
const DEFAULT_EXAMPLES = path.join(REPO, 'test', 'workflows', 'examples');
const CREDENTIAL_TYPE = 'deckGenApi';

interface DevArgs {
	port: number;
	simPort: number;
	speed: number;
	seed: number;
	flavor: Flavor;
	userFolder?: string;
	examples: string;
	verbose: boolean;
}

function parseArgs(argv: string[]): DevArgs {
	const a: DevArgs = { port: 5678, simPort: 4010, speed: 60, seed: 1, flavor: 'v2', examples: DEFAULT_EXAMPLES, verbose: false };
	for (let i = 0; i < argv.length; i++) {
		const [flag, inline] = argv[i].split('=', 2);
		const value = () => {
			const v = inline ?? argv[++i];
			if (v === undefined) throw new Error(`${flag} needs a value`);
			return v;
		};
		if (flag === '--port') a.port = Number(value());
		else if (flag === '--sim-port') a.simPort = Number(value());
		else if (flag === '--speed') a.speed = Number(value());
		else if (flag === '--seed') a.seed = Number(value());
		else if (flag === '--flavor') a.flavor = value() as Flavor;
		else if (flag === '--user-folder') a.userFolder = path.resolve(value());
		else if (flag === '--examples') a.examples = path.resolve(value());
		else if (flag === '--verbose' || flag === '-v') a.verbose = true;
		else if (flag === '--help' || flag === '-h') {
			console.log('usage: npm run dev [-- --port 5678 --sim-port 4010 --speed 60 --seed 1 --flavor v2|v1 --user-folder DIR --examples DIR --verbose]');
			process.exit(0);
		} else throw new Error(`unknown argument ${argv[i]} (try --help)`);
	}
	if (a.flavor !== 'v2' && a.flavor !== 'v1') throw new Error(`--flavor must be v2 or v1, not ${a.flavor}`);
	return a;
}

/** Point every deckGenApi credential reference at the credential we created. */
export function bindCredential(wf: WorkflowJson, cred: { id: string; name: string }): WorkflowJson {
	return {
		...wf,
		nodes: wf.nodes.map((n) => (n.credentials && n.credentials[CREDENTIAL_TYPE] ? { ...n, credentials: { ...n.credentials, [CREDENTIAL_TYPE]: { id: cred.id, name: cred.name } } } : n)),
	};
}

async function importExamples(n8n: N8nInstance, dir: string, cred: { id: string; name: string }): Promise<Array<{ name: string; id: string; existed: boolean }>> {
	if (!fs.existsSync(dir)) return [];
	const existing = new Map<string, string>();
	const list = await n8n.rest.get<Array<{ id: string; name: string }> | { data: Array<{ id: string; name: string }> }>('/rest/workflows');
	for (const w of Array.isArray(list) ? list : list.data ?? []) existing.set(w.name, w.id);
	const out: Array<{ name: string; id: string; existed: boolean }> = [];
	for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
		const wf = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as WorkflowJson;
		wf.name ||= path.basename(file, '.json');
		const known = existing.get(wf.name);
		if (known) {
			out.push({ name: wf.name, id: known, existed: true });
			continue;
		}
		try {
			out.push({ name: wf.name, id: await n8n.importWorkflow(bindCredential(wf, cred)), existed: false });
		} catch (e) {
			console.error(`  ! could not import ${file}: ${(e as Error).message}`);
		}
	}
	return out;
}

async function main(): Promise<void> {
	const args = parseArgs(process.argv.slice(2));
	const pkg = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8'));
	const missing = [...(pkg.n8n?.nodes ?? []), ...(pkg.n8n?.credentials ?? [])].filter((f: string) => !fs.existsSync(path.join(REPO, f)));
	if (missing.length) throw new Error(`the package is not built (missing ${missing.join(', ')}): run npm run build first`);

	const t0 = Date.now();
	console.log(`[dev] n8n ${args.flavor}: checking the install ...`);
	await ensureN8n(args.flavor);

	const sim = await start({ port: args.simPort, seed: args.seed, clock: { speed: args.speed } });
	console.log(`[dev] simulator on ${sim.url} (seed ${args.seed}, clock x${args.speed})`);

	let n8n: N8nInstance | undefined;
	let shuttingDown = false;
	const shutdown = async (code: number) => {
		if (shuttingDown) return;
		shuttingDown = true;
		console.log('\n[dev] stopping n8n and the simulator ...');
		await Promise.allSettled([n8n?.stop(), sim.close()]);
		process.exit(code);
	};
	process.on('SIGINT', () => void shutdown(0));
	process.on('SIGTERM', () => void shutdown(0));

	try {
		console.log(`[dev] starting n8n on http://127.0.0.1:${args.port} with ${pkg.name}@${pkg.version} ...`);
		n8n = await startN8n({
			flavor: args.flavor,
			port: args.port,
			packageDir: REPO,
			userFolder: args.userFolder,
			echo: args.verbose,
		});
		const types = (await n8n.nodeTypes()).map((t) => t.name).filter((n) => n.startsWith(`${pkg.name}.`));
		if (types.length === 0) console.warn(`[dev] ! n8n lists no ${pkg.name}.* node types: see ${path.join(n8n.userFolder, 'n8n.log')}`);

		const cred = await n8n.upsertCredential({ name: 'Deck Generator (simulator)', type: CREDENTIAL_TYPE, data: { apiKey: sim.keys.personal, baseUrl: sim.url } });
		const imported = await importExamples(n8n, args.examples, cred);

		const line = '-'.repeat(72);
		console.log(`\n${line}`);
		console.log(`n8n ${n8n.version} is up in ${((Date.now() - t0) / 1000).toFixed(0)}s (startup ${n8n.startupSeconds.toFixed(0)}s)\n`);
		console.log(`  Editor:    ${n8n.baseUrl}`);
		console.log(`  Login:     ${n8n.owner.email}`);
		console.log(`  Password:  ${n8n.owner.password}`);
		console.log(`  Nodes:     ${types.join(', ') || '(none loaded!)'}`);
		console.log(`  Credential "${cred.name}" (${CREDENTIAL_TYPE}) -> ${sim.url} with the personal key`);
		console.log(`  Workflows: ${imported.length === 0 ? `none (no ${path.relative(REPO, args.examples)}/*.json)` : ''}`);
		for (const w of imported) console.log(`    ${n8n.baseUrl}/workflow/${w.id}  ${w.name}${w.existed ? ' (already there)' : ''}`);
		console.log(`\n  Simulator: ${sim.url}  (clock x${args.speed}: a 10-35 min deck takes ${(600 / args.speed).toFixed(0)}-${(2100 / args.speed).toFixed(0)} s)`);
		console.log('  Demo keys (paste one into the credential to see its outcome):');
		const keys = sim.keys as unknown as Record<string, string>;
		for (const [name, key] of Object.entries(keys)) {
			const what = (DEMO_KEY_DESCRIPTIONS as Record<string, string>)[name] ?? '';
			console.log(`    ${name.padEnd(22)} ${key}  ${what}`);
		}
		console.log(`\n  n8n log:   ${path.join(n8n.userFolder, 'n8n.log')}${args.userFolder ? '' : ' (temp folder, removed on exit)'}`);
		console.log(`${line}\nCtrl-C to stop.`);

		// stay up; if n8n dies, say so and leave
		for (;;) {
			await new Promise((r) => setTimeout(r, 2000));
			try {
				process.kill(n8n.pid, 0);
			} catch {
				console.error(`[dev] n8n exited. Last lines:\n${n8n.logs.split('\n').slice(-30).join('\n')}`);
				await shutdown(1);
			}
		}
	} catch (e) {
		console.error(`[dev] ${(e as Error).message}`);
		await shutdown(1);
	}
}

if (require.main === module) {
	main().catch((e) => {
		console.error(e instanceof Error ? e.message : e);
		process.exit(1);
	});
}
