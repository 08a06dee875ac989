/**
 * `.ci/release-check`, the gate publish.yml runs before publishing a tag: the tag must be the
 * package.json version, and CHANGELOG.md must describe that version.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

function releaseCheck(...args: string[]) {
	const run = spawnSync(join(ROOT, '.ci', 'release-check'), args, { cwd: ROOT, encoding: 'utf8' });
	return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

function changelogWith(text: string): string {
	const file = join(mkdtempSync(join(tmpdir(), 'deckgen-changelog-')), 'CHANGELOG.md');
	writeFileSync(file, text);
	return file;
}

describe('.ci/release-check', () => {
	test(`the repository's own version (${version}) has a changelog section, and its tag passes`, () => {
		const run = releaseCheck(`v${version}`);
		expect(run.output).toContain(`${version} has a CHANGELOG.md section`);
		expect(run.status).toBe(0);
	});

	test('a tag that is not the package.json version is refused', () => {
		const run = releaseCheck('v99.0.0');
		expect(run.status).toBe(1);
		expect(run.output).toContain(`tag v99.0.0 does not match package.json version ${version}`);
	});

	test('a version without a section, or with an empty one, is refused', () => {
		const missing = changelogWith('# Changelog\n\n## [0.0.1] - 2026-01-01\n\n### Added\n\n- Something.\n');
		expect(releaseCheck(`v${version}`, missing).status).toBe(1);
		const empty = changelogWith(`# Changelog\n\n## [${version}] - 2026-01-01\n\n## [0.0.1] - 2026-01-01\n\n- Something.\n`);
		const run = releaseCheck(`v${version}`, empty);
		expect(run.status).toBe(1);
		expect(run.output).toContain(`has no entries under '## [${version}]'`);
	});
});
