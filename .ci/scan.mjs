#!/usr/bin/env node
// `npm run scan`: the static analysis n8n runs before it verifies a community package
// (@n8n/scan-community-package, pinned in devDependencies), on what we would publish.
//
// The scanner's own CLI downloads a published version from the registry and checks its npm
// provenance first; that part needs the registry and a release, so here we call its
// `analyzePackage` directly, twice, with the file patterns the scanner itself uses:
//   1. the packed tarball (`npm pack` of the built package): compiled `**/*.js` and package.json;
//   2. the sources: its SOURCE_FILE_PATTERNS (package.json and nodes/credentials .ts/.js/.json).
// Any finding fails (exit 1). Run `npm run build` first (the `scan` script does).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { analyzePackage, SOURCE_FILE_PATTERNS } from '@n8n/scan-community-package/scanner/scanner.mjs';

/** The scanner's tarball leg (scanner.mjs `analyzePackageByName`): compiled output and the manifest. */
const TARBALL_FILE_PATTERNS = ['**/*.js', 'package.json'];

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const work = mkdtempSync(join(tmpdir(), 'deckgen-scan-'));

function report(label, result) {
	if (result.passed) {
		console.log(`PASS ${label}${result.message ? ` (${result.message})` : ''}`);
		return true;
	}
	console.log(`FAIL ${label}: ${result.message}`);
	if (result.details) console.log(result.details);
	return false;
}

try {
	const [{ filename }] = JSON.parse(
		execFileSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: root, encoding: 'utf8' }),
	);
	const unpacked = join(work, 'package');
	execFileSync('tar', ['-xzf', join(work, filename), '-C', work]);
	const files = readdirSync(unpacked, { recursive: true }).filter((f) => /\.(js|json)$/.test(String(f)));
	console.log(`scanning ${filename} (${files.length} .js/.json files) and the sources, scanner ${scannerVersion()}`);

	const tarball = await analyzePackage(unpacked, TARBALL_FILE_PATTERNS);
	const sources = await analyzePackage(root, SOURCE_FILE_PATTERNS);
	const ok = [report(`tarball ${filename} [${TARBALL_FILE_PATTERNS.join(', ')}]`, tarball), report(`sources [${SOURCE_FILE_PATTERNS.join(', ')}]`, sources)].every(Boolean);
	process.exitCode = ok ? 0 : 1;
} finally {
	rmSync(work, { recursive: true, force: true });
}

function scannerVersion() {
	const manifest = execFileSync('node', ['-p', "require('@n8n/scan-community-package/package.json').version"], {
		cwd: root,
		encoding: 'utf8',
	});
	return `@n8n/scan-community-package@${manifest.trim()}`;
}
