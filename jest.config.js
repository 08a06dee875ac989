/**
 * Jest configuration, kept out of package.json so that the published manifest holds only what
 * n8n reads (n8n's package scanner lints package.json and refuses `<rootDir>` placeholders).
 *
 * `npm test` runs two projects:
 * - `reference`: every *.test.ts under test/ (unit, conformance, workflows) against the simulator's
 *   reference reading of the contract's gaps;
 * - `profile B`: the workflow suites again, against the simulator's alternate profile (the other legal
 *   side of every "not shown"; test/simulator/profile.ts), so a node fitted to one reading fails here;
 * - `profile C`: the suites that meet uploads, 402s, status links and downloads, against the readings
 *   of issue 16 (`readings` in test/simulator/profile.ts);
 * - `profile D`: the suites that read a deck's status or a 402, against the readings of issue 26
 *   (`contrary`: status words that read as their opposite, failure reasons and links under other members,
 *   the endpoints the contract shows no path for at other paths).
 * The end-to-end suite is `npm run test:e2e` (it selects the reference project).
 * @type {import('jest').Config}
 */
const base = {
	preset: 'ts-jest',
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testPathIgnorePatterns: ['/node_modules/', '/test/e2e/'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { diagnostics: false, tsconfig: 'test/tsconfig.json' }],
	},
};

module.exports = {
	testTimeout: 30000,
	projects: [
		{ ...base, displayName: 'reference', testMatch: ['**/*.test.ts'] },
		{
			...base,
			displayName: 'profile B',
			testMatch: ['<rootDir>/test/workflows/**/*.test.ts'],
			setupFiles: ['<rootDir>/test/support/profile-b.ts'],
		},
		{
			...base,
			displayName: 'profile C',
			testMatch: [
				'<rootDir>/test/workflows/deckgen/{operations,outcomes,readings,any-service,download,envelope,form-and-types,size-cap}.test.ts',
				'<rootDir>/test/workflows/wait/{download,wait-until-done,check-once}.test.ts',
			],
			setupFiles: ['<rootDir>/test/support/profile-c.ts'],
		},
		{
			...base,
			displayName: 'profile D',
			testMatch: [
				'<rootDir>/test/workflows/deckgen/{operations,outcomes,readings,any-service,download,envelope,judgement,form-and-types}.test.ts',
				'<rootDir>/test/workflows/wait/*.test.ts',
				'<rootDir>/test/workflows/tool/*.test.ts',
			],
			setupFiles: ['<rootDir>/test/support/profile-d.ts'],
		},
	],
};
