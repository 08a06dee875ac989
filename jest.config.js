/**
 * Jest configuration, kept out of package.json so that the published manifest holds only what
 * n8n reads (n8n's package scanner lints package.json and refuses `<rootDir>` placeholders).
 * `npm test`: every *.test.ts under test/, except the end-to-end suite (`npm run test:e2e`).
 * @type {import('jest').Config}
 */
module.exports = {
	preset: 'ts-jest',
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	testPathIgnorePatterns: ['/node_modules/', '/test/e2e/'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { diagnostics: false, tsconfig: 'test/tsconfig.json' }],
	},
	testTimeout: 30000,
};
