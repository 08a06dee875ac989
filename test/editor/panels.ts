/**
 * What each panel of the Deck Generator nodes shows in n8n's editor: ONE table, read by docs/panels.md's
 * section "What each panel shows" (rendered by ./panels-doc.ts, checked by test/unit/panels-doc.test.ts)
 * and by the editor's end-to-end test (test/e2e/editor.e2e.ts), which opens every panel below in a
 * real n8n 2.x and fails where the editor shows something else. Change a node's fields, then this
 * table, then `npx ts-node --transpile-only test/editor/panels-doc.ts --write`.
 *
 * - `fields`: the labels of the Parameters tab, top to bottom, as n8n draws them: not the credential
 *   row, not what sits inside a collection (Additional Fields, Options). A notice is `Notice: ` and
 *   the words its text starts with.
 * - `outputs`: the output labels on the canvas, in order; a tool has its tool connection only,
 *   `ai_tool: ` (unlabelled).
 * - `toFill`: required fields a new node leaves empty: the canvas marks that node until they are
 *   filled (n8n's red triangle); everywhere else a mark fails the test.
 * - `added`: how the test adds the node as a person does (node creator: the node, then the action;
 *   then the options picked in the panel); without it the panel is one of an example's nodes.
 */

export type PanelNode = 'deckGen' | 'deckGenWait' | 'deckGenTool' | 'deckGenWaitTool';

export interface Panel {
	node: PanelNode;
	version: number;
	/** the parameters that select this panel (resource/operation, mode, briefFrom); any other at its default */
	parameters: Record<string, string>;
	added?: { node: string; action?: string; pick?: Record<string, string> };
	fields: string[];
	outputs: string[];
	toFill?: string[];
}

/** Defaults of the selecting parameters, for a node that leaves one unset (values as text: `'true'` for a switch on). */
export const SELECTING_DEFAULTS: Record<string, string> = { mode: 'waitUntilDone', briefFrom: 'fields', buyWithoutReview: 'false', purchaseFrom: 'line', source: 'taskId' };

const NOTICE_BUYS = 'Notice: Running this node buys a deck.';
const NOTICE_REQUIRED = 'Notice: Which fields the service requires is up to the service';
/** A paying tool with Buy Without Review off (issue 38): true whether or not a review sits in front of it. */
const NOTICE_REVIEW = 'Notice: Buys nothing unless a person reviews each call';
const BUY_WITHOUT_REVIEW = 'Buy Without Review';
const CREDIT_LIMIT = 'Credit Limit per Execution';

const PAYMENT = ['Success', 'Checkout', 'Client Action'];
const SUCCESS = ['Success'];
const WAIT = ['Completed', 'Failed', 'Still Running'];
const SPLIT = 'One Output per Payment Option';
/** an AI tool's one connection, with no label */
const TOOL = ['ai_tool: '];
const CREATE_FIELDS = [
	'Resource',
	'Operation',
	NOTICE_BUYS,
	NOTICE_REQUIRED,
	'Brief From',
	'Title',
	'Core Message',
	'Audience',
	'Slide Count',
	'Expected Credits',
	'Max Credits',
	'Confirm Slide Surcharge',
	'Additional Fields',
];
/** Create as an AI tool: the review notice while Buy Without Review is off, the switch (and its limit once on) before Options. */
const toolCreateFields = (buysWithoutReview: boolean) => [
	'Resource',
	'Operation',
	...(buysWithoutReview ? [] : [NOTICE_REVIEW]),
	...CREATE_FIELDS.slice(2),
	BUY_WITHOUT_REVIEW,
	...(buysWithoutReview ? [CREDIT_LIMIT] : []),
	'Options',
	'Description',
];
const CREATE_FROM_ITEM = ['Resource', 'Operation', NOTICE_BUYS, NOTICE_REQUIRED, 'Brief From', 'Input Field With Brief', 'Expected Credits', 'Max Credits', 'Confirm Slide Surcharge'];

const deck = (operation: string) => ({ resource: 'deck', operation });
const NOTICE_RECOVER = 'Notice: Sends, byte for byte, a purchase recorded before it was sent';

export const PANELS: Panel[] = [
	// A node added now (version 1.1), every operation
	{ node: 'deckGen', version: 1.1, parameters: { resource: 'account', operation: 'getCredits' }, added: { node: 'Deck Generator', action: 'Get credits' }, fields: ['Resource', 'Operation', 'Options'], outputs: SUCCESS },
	{ node: 'deckGen', version: 1.1, parameters: deck('create'), added: { node: 'Deck Generator', action: 'Create a deck' }, fields: [...CREATE_FIELDS, SPLIT, 'Options'], outputs: PAYMENT },
	{ node: 'deckGen', version: 1.1, parameters: deck('download'), added: { node: 'Deck Generator', action: 'Download a deck' }, fields: ['Resource', 'Operation', 'Download From', 'Task ID', 'Options'], outputs: SUCCESS },
	{ node: 'deckGen', version: 1.1, parameters: deck('getStatus'), added: { node: 'Deck Generator', action: 'Get the status of a deck' }, fields: ['Resource', 'Operation', 'Task ID', 'Options'], outputs: SUCCESS },
	{
		node: 'deckGen',
		version: 1.1,
		parameters: deck('recover'),
		added: { node: 'Deck Generator', action: 'Recover a recorded purchase' },
		fields: ['Resource', 'Operation', NOTICE_RECOVER, 'Purchase From', 'Logged Purchase', SPLIT, 'Options'],
		outputs: PAYMENT,
		toFill: ['Logged Purchase'],
	},
	{
		node: 'deckGen',
		version: 1.1,
		parameters: deck('revise'),
		added: { node: 'Deck Generator', action: 'Revise a deck' },
		fields: ['Resource', 'Operation', 'Task ID', 'Instructions', 'Expected Credits', 'Max Credits', SPLIT, 'Options'],
		outputs: PAYMENT,
		toFill: ['Instructions'],
	},
	{
		node: 'deckGen',
		version: 1.1,
		parameters: deck('translate'),
		added: { node: 'Deck Generator', action: 'Translate a deck' },
		fields: ['Resource', 'Operation', 'Task ID', 'Languages', 'Expected Credits', 'Max Credits', SPLIT, 'Options'],
		outputs: PAYMENT,
		toFill: ['Languages'],
	},
	{
		node: 'deckGen',
		version: 1.1,
		parameters: deck('generateVideo'),
		added: { node: 'Deck Generator', action: 'Generate a video of a deck' },
		fields: ['Resource', 'Operation', 'Task ID', 'Expected Credits', 'Max Credits', SPLIT, 'Options'],
		outputs: PAYMENT,
	},
	{ node: 'deckGen', version: 1.1, parameters: { resource: 'material', operation: 'upload' }, added: { node: 'Deck Generator', action: 'Upload a material' }, fields: ['Resource', 'Operation', 'Input Binary Field', 'Options'], outputs: SUCCESS },
	{ node: 'deckGen', version: 1.1, parameters: { resource: 'custom', operation: 'request' }, added: { node: 'Deck Generator', action: 'Send a custom request' }, fields: ['Resource', 'Operation', 'Method', 'Path', SPLIT, 'Options'], outputs: PAYMENT },
	{ node: 'deckGenWait', version: 1.1, parameters: { mode: 'waitUntilDone' }, added: { node: 'Deck Generator Wait' }, fields: ['Mode', 'Task ID', 'Options'], outputs: WAIT },
	{ node: 'deckGenWait', version: 1.1, parameters: { mode: 'checkOnce' }, added: { node: 'Deck Generator Wait', pick: { mode: 'Check Once' } }, fields: ['Mode', 'Task ID', 'Options'], outputs: WAIT },

	// The examples' nodes that no node added above selects (test/workflows/examples, all at version 1.1, as a new node is)
	{ node: 'deckGen', version: 1.1, parameters: { ...deck('create'), briefFrom: 'input' }, fields: [...CREATE_FROM_ITEM, SPLIT, 'Options'], outputs: PAYMENT },
	{ node: 'deckGenTool', version: 1.1, parameters: { resource: 'account', operation: 'getCredits' }, fields: ['Resource', 'Operation', 'Options', 'Description'], outputs: TOOL },
	// behind n8n's review in the AI agent example (and, in the editor test, the same node straight on the agent: the notice is true for both)
	{ node: 'deckGenTool', version: 1.1, parameters: deck('create'), fields: toolCreateFields(false), outputs: TOOL },
	// the MCP example's Create Deck buys without n8n's review, within a small limit (the MCP client approves each call)
	{ node: 'deckGenTool', version: 1.1, parameters: { ...deck('create'), buyWithoutReview: 'true' }, fields: toolCreateFields(true), outputs: TOOL },
	{ node: 'deckGenTool', version: 1.1, parameters: deck('getStatus'), fields: ['Resource', 'Operation', 'Task ID', 'Options', 'Description'], outputs: TOOL },
	{ node: 'deckGenWaitTool', version: 1.1, parameters: { mode: 'checkOnce' }, fields: ['Mode', 'Task ID', 'Options', 'Description'], outputs: TOOL },

	// the purchase journal's examples (issue 44): Recover Purchase from a row
	{ node: 'deckGen', version: 1.1, parameters: { ...deck('recover'), purchaseFrom: 'row' }, fields: ['Resource', 'Operation', NOTICE_RECOVER, 'Purchase From', SPLIT, 'Options'], outputs: PAYMENT },
	// the journal example's Download (issue 51): the link Check Deck read, no second status read
	{ node: 'deckGen', version: 1.1, parameters: { ...deck('download'), source: 'url' }, fields: ['Resource', 'Operation', 'Download From', 'URL', 'Options'], outputs: SUCCESS },
];

export const NODE_NAMES: Record<PanelNode, string> = {
	deckGen: 'Deck Generator',
	deckGenWait: 'Deck Generator Wait',
	deckGenTool: 'Deck Generator Tool',
	deckGenWaitTool: 'Deck Generator Wait Tool',
};

const RESOURCE_NAMES: Record<string, string> = { account: 'Account', deck: 'Deck', material: 'Material', custom: 'Custom Request' };
const OPERATION_NAMES: Record<string, string> = {
	getCredits: 'Get Credits',
	create: 'Create',
	download: 'Download',
	getStatus: 'Get Status',
	recover: 'Recover Purchase',
	revise: 'Revise',
	translate: 'Translate',
	generateVideo: 'Generate Video',
	upload: 'Upload',
	request: 'Request',
};

/** The panel's name for people: node, then operation or mode, then what else selects it. */
export function panelName(p: Panel): string {
	const parts = [NODE_NAMES[p.node]];
	const { resource, operation, mode, briefFrom, buyWithoutReview, purchaseFrom, source } = p.parameters;
	if (resource) parts.push(`${RESOURCE_NAMES[resource] ?? resource} → ${OPERATION_NAMES[operation] ?? operation}`);
	if (mode) parts.push(mode === 'checkOnce' ? 'Check Once' : 'Wait Until Done');
	if (briefFrom === 'input') parts.push('Brief From: Input Item');
	if (buyWithoutReview === 'true') parts.push('Buy Without Review on');
	if (purchaseFrom === 'row') parts.push('Purchase From: Journal Row');
	if (source === 'url') parts.push('Download From: URL');
	return `${parts.join(': ')} (v${p.version})`;
}

/** The table's panel for a node of a workflow (its type without the package prefix), or undefined. */
export function panelFor(node: { type: string; typeVersion: number; parameters?: Record<string, unknown> }): Panel | undefined {
	const type = node.type.replace(/^.*\./, '') as PanelNode;
	return PANELS.find(
		(p) =>
			p.node === type &&
			p.version === node.typeVersion &&
			Object.entries(p.parameters).every(([k, v]) => String(node.parameters?.[k] ?? SELECTING_DEFAULTS[k]) === v) &&
			// a parameter that selects another panel (briefFrom: input) must not be set otherwise here
			Object.keys(SELECTING_DEFAULTS).every((k) => k in p.parameters || String(node.parameters?.[k] ?? SELECTING_DEFAULTS[k]) === SELECTING_DEFAULTS[k]),
	);
}

/** Whether what the editor shows (`seen`) is what the table says: notices by their first words. */
export function sameFields(table: string[], seen: string[]): boolean {
	return table.length === seen.length && table.every((f, i) => (f.startsWith('Notice: ') ? seen[i].startsWith(f) : seen[i] === f));
}
