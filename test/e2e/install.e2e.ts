/**
 * README's "Install" from a clone, run as README writes it (issue 52), so that the page and the install
 * cannot drift apart: the commands are read from README's fenced blocks marked `<!-- install-from-clone: npm -->`
 * and `<!-- install-from-clone: docker -->`, and run by bash, each line as it is written.
 *
 * - npm, in n8n 2.41.1 and 1.123.81: the block runs in a scratch copy of this checkout (package.json,
 *   README.md, LICENSE and the built dist/) with HOME a fresh folder, so `~/.n8n/nodes` is that folder's;
 *   then n8n starts with that folder as its user folder and must list both nodes and the credential.
 *   The block's first steps stand for what the scratch copy already is: `git clone …`, `cd n8n-nodes-deckgen`,
 *   `npm ci` and `npm run build` (the e2e suite runs on a built checkout, and `npm ci` in it would reinstall
 *   the repository's own node_modules). The test checks they are there and skips only those.
 * - Docker cannot run here, so its block runs with a stand-in `docker` on PATH: `docker exec` runs the command
 *   on this machine with the container's /home/node mapped to a folder, `docker cp` copies into that folder,
 *   `docker restart` is recorded. What that checks: the paths (the nodes folder is inside the volume the
 *   `docker run` line mounts), that the npm command inside is the npm block's own, the container named the
 *   same throughout, and that it installs the same files the npm block did. What it cannot: the image itself
 *   (its npm, the node user's rights on the volume).
 *
 * Run: npm run build && npx jest --selectProjects reference --roots test/e2e --testMatch '**\/install.e2e.ts' --testPathIgnorePatterns /node_modules/ --testTimeout 600000 --runInBand
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

import { e2eFlavors, ensureN8n, type Flavor } from './n8n-install';
import { closeHttpClients, startN8n } from './n8n-instance';

const ROOT = path.join(__dirname, '../..');
const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const PKG = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
const TARBALL = `${PKG.name}-${PKG.version}.tgz`;

/** What a clone of the repository stands for here (see the file's comment). */
const CLONE_STEPS = ['git clone https://github.com/deckgen/n8n-nodes-deckgen.git', 'cd n8n-nodes-deckgen', 'npm ci', 'npm run build'];

/** The lines of README's fenced block after `<!-- install-from-clone: kind -->`, as written. */
export function installBlock(readme: string, kind: 'npm' | 'docker'): string[] {
	const marker = `<!-- install-from-clone: ${kind} -->\n\`\`\`sh\n`;
	const start = readme.indexOf(marker);
	if (start < 0) throw new Error(`README.md has no block marked ${marker.trim()}`);
	const body = readme.slice(start + marker.length, readme.indexOf('\n```', start + marker.length));
	return body.split('\n');
}

/** A line's commands: its `&&` parts, the comment after `#` dropped. */
function commandsOf(line: string): string[] {
	const code = line.replace(/(^|\s)#.*$/, '').trim();
	return code ? code.split(' && ').map((c) => c.trim()) : [];
}

/** npm settings of this run that a user's shell would not have (the repository's ignore-scripts, jest's). */
function userEnv(home: string, pathPrefix: string): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const [k, v] of Object.entries(process.env)) if (!/^(npm_|JEST_)/i.test(k) && k !== 'NODE_ENV') env[k] = v;
	const realNpmrc = path.join(os.homedir(), '.npmrc');
	return {
		...env,
		HOME: home,
		PATH: pathPrefix,
		// the machine's npm settings (registry) and cache, as the user's own would be
		...(fs.existsSync(realNpmrc) ? { npm_config_userconfig: realNpmrc } : {}),
		npm_config_cache: path.join(os.homedir(), '.npm'),
		npm_config_update_notifier: 'false',
		npm_config_fund: 'false',
		npm_config_audit: 'false',
	};
}

function bash(script: string, cwd: string, env: NodeJS.ProcessEnv) {
	const r = spawnSync('bash', ['-euo', 'pipefail', '-c', script], { cwd, env, encoding: 'utf8', timeout: 180_000 });
	if (r.status !== 0) throw new Error(`README's commands failed (${r.status}) in ${cwd}:\n${script}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`);
	return r;
}

/** A scratch copy of this checkout, as a built clone is: what `npm pack` reads (package.json, README, LICENSE, dist). */
function builtClone(): string {
	if (!fs.existsSync(path.join(ROOT, 'dist', 'nodes', 'DeckGen', 'DeckGen.node.js'))) throw new Error('dist/ is missing: run `npm run build` first');
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'deckgen-install-clone-'));
	for (const f of ['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md']) fs.cpSync(path.join(ROOT, f), path.join(dir, f));
	fs.cpSync(path.join(ROOT, 'dist'), path.join(dir, 'dist'), { recursive: true });
	return dir;
}

/**
 * A stand-in for `docker` (exec, cp, restart) on a container whose /home/node is a folder here; every call is
 * logged as a JSON line. Only the commands README's block uses.
 */
const DOCKER_STANDIN = `#!/usr/bin/env node
const { spawnSync } = require('child_process');
const fs = require('fs');
const path = require('path');
const root = process.env.DOCKER_STANDIN_ROOT;
const inside = (p) => (p.startsWith('/home/node') ? path.join(root, p) : p);
const [verb, ...rest] = process.argv.slice(2);
const log = (entry) => fs.appendFileSync(process.env.DOCKER_STANDIN_LOG, JSON.stringify(entry) + '\\n');
if (verb === 'exec') {
	let workdir = '/home/node';
	if (rest[0] === '-w') { workdir = rest[1]; rest.splice(0, 2); }
	const [container, cmd, ...args] = rest;
	log({ verb, container, workdir, command: [cmd, ...args].join(' ') });
	const r = spawnSync(cmd, args.map(inside), { cwd: inside(workdir), env: { ...process.env, HOME: inside('/home/node') }, stdio: 'inherit' });
	process.exit(r.status ?? 1);
} else if (verb === 'cp') {
	const [source, target] = rest;
	const [container, dest] = target.split(':');
	log({ verb, container, source, dest });
	const to = inside(dest);
	fs.copyFileSync(source, dest.endsWith('/') || (fs.existsSync(to) && fs.statSync(to).isDirectory()) ? path.join(to, path.basename(source)) : to);
} else if (verb === 'restart') {
	log({ verb, container: rest[0] });
} else {
	console.error('docker stand-in: ' + verb + ' is not one README uses');
	process.exit(2);
}
`;

/** Every file under a folder with its size, paths relative to it. */
function filesUnder(dir: string, prefix = ''): string[] {
	return fs
		.readdirSync(dir, { withFileTypes: true })
		.flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name} ${fs.statSync(path.join(dir, e.name)).size}`]))
		.sort();
}

const flavors: Flavor[] = e2eFlavors(['v2', 'v1']);
const npmBlock = installBlock(README, 'npm');
const dockerBlock = installBlock(README, 'docker');

afterAll(async () => {
	await closeHttpClients();
});

describe('README’s install blocks', () => {
	test('the npm block: clone, build, pack, the tarball into ~/.n8n/nodes, npm install there, restart n8n', () => {
		const commands = npmBlock.flatMap(commandsOf);
		expect(commands.slice(0, CLONE_STEPS.length)).toEqual(CLONE_STEPS);
		expect(commands.slice(CLONE_STEPS.length)).toEqual(['npm pack', 'mkdir -p ~/.n8n/nodes', `cp ${TARBALL} ~/.n8n/nodes/`, 'cd ~/.n8n/nodes', `npm install ./${TARBALL}`]);
		expect(npmBlock.at(-1)).toMatch(/^# then restart n8n/);
	});

	test('the docker block: the volume is /home/node/.n8n, the tarball and npm install go into its nodes folder, one container throughout', () => {
		const run = /docker run (.*)$/.exec(dockerBlock[0])?.[1] ?? '';
		const name = /--name (\S+)/.exec(run)?.[1];
		const [, volume, mountedAt] = /-v (\S+):(\S+)/.exec(run) ?? [];
		expect({ name, volume, mountedAt, image: run.split(' ').at(-1) }).toEqual({ name: 'n8n', volume: 'n8n_data', mountedAt: '/home/node/.n8n', image: 'docker.n8n.io/n8nio/n8n' });
		const commands = dockerBlock.flatMap(commandsOf);
		expect(commands).toEqual([
			`docker exec ${name} mkdir -p ${mountedAt}/nodes`,
			`docker cp ${TARBALL} ${name}:${mountedAt}/nodes/`,
			`docker exec -w ${mountedAt}/nodes ${name} npm install ./${TARBALL}`,
			`docker restart ${name}`,
		]);
		// the same install as the npm block's, inside the container
		expect(commands[2]).toContain(npmBlock.flatMap(commandsOf).at(-1)!);
	});
});

describe.each(flavors)('README’s install from a clone, in real n8n %s', (flavor) => {
	let clone: string;
	let home: string;
	let env: NodeJS.ProcessEnv;

	beforeAll(async () => {
		const install = await ensureN8n(flavor);
		clone = builtClone();
		home = fs.mkdtempSync(path.join(os.tmpdir(), `deckgen-install-home-${flavor}-`));
		// npm under the Node.js this n8n runs on (24 for 2.x), as a user's would be
		env = userEnv(home, install.env.PATH);
	});

	afterAll(() => {
		for (const dir of [clone, home]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
	});

	test('the npm block installs the package, and only it, into ~/.n8n/nodes; n8n lists both nodes and the credential', async () => {
		const steps = npmBlock.flatMap(commandsOf).slice(CLONE_STEPS.length);
		const r = bash(steps.join('\n'), clone, env);
		// npm pack printed the tarball README copies
		expect(r.stdout.split('\n')).toContain(TARBALL);
		const nodes = path.join(home, '.n8n', 'nodes');
		expect(fs.readdirSync(path.join(nodes, 'node_modules')).filter((e) => !e.startsWith('.'))).toEqual([PKG.name]);
		// npm wrote the folder's package.json with the tarball beside it, so a later `npm install` there still finds it
		const manifest = JSON.parse(fs.readFileSync(path.join(nodes, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
		expect(manifest.dependencies).toEqual({ [PKG.name]: `file:${TARBALL}` });
		expect(fs.existsSync(path.join(nodes, TARBALL))).toBe(true);

		const n8n = await startN8n({ flavor, userFolder: home });
		try {
			const types = (await n8n.nodeTypes()).map((t) => t.name);
			expect(types).toEqual(expect.arrayContaining([`${PKG.name}.deckGen`, `${PKG.name}.deckGenWait`]));
			expect((await n8n.credentialTypes()).map((c) => c.name)).toContain('deckGenApi');
		} finally {
			await n8n.stop();
		}
	});

	test('README’s Node.js for this n8n is the one its package.json requires', async () => {
		const install = await ensureN8n(flavor);
		const engines = (JSON.parse(fs.readFileSync(path.join(install.dir, 'node_modules', 'n8n', 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
		if (flavor === 'v2') {
			expect(engines).toBe('>=24.0.0');
			expect(README.replace(/\s*\n\s*/g, ' ')).toContain('n8n 2.41 needs Node.js 24');
		} else {
			expect(engines).toBe('>=20.19 <= 24.x');
			expect(README.replace(/\s*\n\s*/g, ' ')).toContain('n8n 1.123 Node.js 20.19 to 24');
		}
	});

	if (flavor === flavors[0]) {
		test('the docker block, through a stand-in docker, installs the same files into the volume’s nodes folder', () => {
			const container = fs.mkdtempSync(path.join(os.tmpdir(), 'deckgen-install-container-'));
			const bin = fs.mkdtempSync(path.join(os.tmpdir(), 'deckgen-install-bin-'));
			try {
				fs.mkdirSync(path.join(container, 'home', 'node', '.n8n'), { recursive: true });
				fs.writeFileSync(path.join(bin, 'docker'), DOCKER_STANDIN, { mode: 0o755 });
				const log = path.join(bin, 'calls.jsonl');
				const dockerEnv = { ...env, PATH: `${bin}${path.delimiter}${env.PATH}`, DOCKER_STANDIN_ROOT: container, DOCKER_STANDIN_LOG: log };
				// the tarball the npm block packed in the clone (this file's npm test ran first)
				expect(fs.existsSync(path.join(clone, TARBALL))).toBe(true);
				bash(dockerBlock.flatMap(commandsOf).join('\n'), clone, dockerEnv);

				const calls = fs.readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { verb: string; container: string });
				expect(calls.map((c) => c.verb)).toEqual(['exec', 'cp', 'exec', 'restart']);
				const volumeNodes = path.join(container, 'home', 'node', '.n8n', 'nodes');
				const installed = (nodes: string) => filesUnder(path.join(nodes, 'node_modules', PKG.name));
				expect(installed(volumeNodes)).toEqual(installed(path.join(home, '.n8n', 'nodes')));
				expect(installed(volumeNodes).length).toBeGreaterThan(100);
			} finally {
				fs.rmSync(container, { recursive: true, force: true });
				fs.rmSync(bin, { recursive: true, force: true });
			}
		});
	}
});
