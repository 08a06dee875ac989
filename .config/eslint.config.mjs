// n8n's own lint rules for community nodes: the recommended config of
// @n8n/eslint-plugin-community-nodes (what n8n's verification runs) plus the community, nodes and
// credentials sets of eslint-plugin-n8n-nodes-base.
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import tseslint from 'typescript-eslint';
import jsoncParser from 'jsonc-eslint-parser';

export default [
	{ ignores: ['dist/**', 'node_modules/**', 'test/**'] },
	{
		files: ['**/*.ts'],
		languageOptions: { parser: tseslint.parser, parserOptions: { sourceType: 'module' } },
	},
	n8nCommunityNodesPlugin.configs.recommended,
	{
		files: ['package.json'],
		languageOptions: { parser: jsoncParser },
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: { ...n8nNodesBase.configs.community.rules },
	},
	{
		files: ['credentials/**/*.ts'],
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: {
			...n8nNodesBase.configs.credentials.rules,
			// Our documentation lives in the package README, not on docs.n8n.io.
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
		},
	},
	{
		files: ['nodes/**/*.ts'],
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: {
			...n8nNodesBase.configs.nodes.rules,
			// These two predate NodeConnectionTypes and demand the string 'main', which the newer
			// community-nodes rule node-connection-type-literal forbids; the newer rule wins.
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
		},
	},
];
