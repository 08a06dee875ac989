/**
 * What a person meets when importing an example workflow (test/workflows/examples, and the demo's
 * showcase): every value an example sets on a Deck Generator node is one the form shows (no field kept
 * only for saved 0.1 workflows), every example says on its canvas what to set before it runs, in full,
 * on a note large enough to show it, and saves its progress (a crash in the middle of a wait resumes).
 * An AI agent never reaches a tool that spends but through a person's review, and an MCP server's
 * Create cannot confirm a surcharge by itself (issue 32). Issue 45: every Deck Generator node is at the
 * version a new node gets; every loop ends on a bound the workflow shows (Check Once's Max Wait, an IF on
 * pastMaxWait, a node that says so); a message about a deck that failed or is still running carries the
 * item's statusNote; a deck is posted as its file, never as a link that asks for the key, and a deck done
 * without its file is said as such, never "is ready: " with nothing after it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { NodeHelpers, Workflow as WorkflowRunner, type INodeParameters, type INodeProperties, type INodeTypeDescription } from 'n8n-workflow';

import { DeckGen } from '../../nodes/DeckGen/DeckGen.node';
import { operations } from '../../nodes/DeckGen/actions/router';
import { DeckGenWait } from '../../nodes/DeckGenWait/DeckGenWait.node';
// a copy of an example with one change made, for the tests that show a check finds what it is for
import { edited } from '../workflows/run-example';

const ROOT = join(__dirname, '../..');
const EXAMPLES = join(ROOT, 'test/workflows/examples');
const SHOWCASE = join(ROOT, 'test/demo/showcase.workflow.json');

interface Node {
	name: string;
	type: string;
	typeVersion: number;
	parameters: INodeParameters;
	executeOnce?: boolean;
	notes?: string;
	notesInFlow?: boolean;
	onError?: string;
}
interface Workflow {
	name: string;
	nodes: Node[];
	connections?: Record<string, Record<string, Array<Array<{ node: string; type: string }>>>>;
	settings?: Record<string, unknown>;
}

/**
 * The notes of at-scale.json (queue mode, issue 22) and mcp-agent-tools.json (MCP clients, issue 18) are
 * written in their own words: they are held to everything below except the phrase-by-phrase checklist of
 * the other examples' notes.
 */
const OWN_WORDS = new Set(['at-scale.json', 'mcp-agent-tools.json']);

const files = readdirSync(EXAMPLES)
	.filter((f) => f.endsWith('.json'))
	.sort();
const examples = files.map((file) => ({ file, wf: JSON.parse(readFileSync(join(EXAMPLES, file), 'utf8')) as Workflow }));
const checked = examples;
const checklisted = examples.filter(({ file }) => !OWN_WORDS.has(file));
const withShowcase = [...checked, { file: 'showcase.workflow.json', wf: JSON.parse(readFileSync(SHOWCASE, 'utf8')) as Workflow }];

const descriptions: Record<string, INodeTypeDescription> = {
	'n8n-nodes-deckgen.deckGen': new DeckGen().description,
	'n8n-nodes-deckgen.deckGenWait': new DeckGenWait().description,
	// n8n's AI-tool variants take the node's own fields, named <name>Tool (which `@tool` display options read)
	'n8n-nodes-deckgen.deckGenTool': { ...new DeckGen().description, name: 'deckGenTool' },
	'n8n-nodes-deckgen.deckGenWaitTool': { ...new DeckGenWait().description, name: 'deckGenWaitTool' },
};

/**
 * The parameters of `node` the editor would not show, or shows only as kept for saved workflows: names
 * no visible property has, hidden properties, fields marked "(Saved by 0.1)" (shown on version 1 nodes
 * so a value they still send is never invisible, but not for an example to use), and keys of a
 * collection that are not among its visible options.
 */
function unseenParameters(node: Node, type: INodeTypeDescription): string[] {
	const unseen: string[] = [];
	const visible = (property: INodeProperties, values: INodeParameters) =>
		property.type !== 'hidden' &&
		!property.displayName.includes('(Saved by 0.1)') &&
		NodeHelpers.displayParameter(values, property, node, type, node.parameters);
	// as the editor does: parameters not set take their defaults (e.g. Brief From: Fields Below)
	const resolved = NodeHelpers.getNodeParameters(type.properties, node.parameters, true, false, node as never, type) ?? node.parameters;
	for (const [name, value] of Object.entries(node.parameters)) {
		const property = type.properties.find((p) => p.name === name && visible(p, resolved));
		if (!property) {
			unseen.push(name);
			continue;
		}
		if (property.type === 'collection' && value && typeof value === 'object') {
			const options = (property.options ?? []) as INodeProperties[];
			for (const key of Object.keys(value)) {
				const option = options.find((o) => o.name === key);
				if (!option || !visible(option, value as INodeParameters)) unseen.push(`${name}.${key}`);
			}
		}
	}
	return unseen;
}

function notesOf(wf: Workflow): Node[] {
	return wf.nodes.filter((n) => n.type === 'n8n-nodes-base.stickyNote');
}

/**
 * What lets a model buy without a person, in an example: a Deck Generator tool that spends connected
 * straight to an AI Agent; a reviewed one that may re-send at a live price above the one the reviewer saw
 * (Max Credits), or whose review message does not show the call's own title, slide count, price and
 * surcharge (`$tool.parameters`, the arguments the held call runs with); an MCP server's Create whose
 * surcharge confirmation is a model's argument (n8n's review cannot sit in front of an MCP client), or
 * whose allowance to buy without review is off (it would buy nothing) or not small.
 */
function agentToolProblems(wf: Workflow): string[] {
	const byName = new Map(wf.nodes.map((n) => [n.name, n]));
	const toolTargets = (name: string) => (wf.connections?.[name]?.ai_tool ?? []).flat().map((c) => byName.get(c.node)!);
	const isAgent = (n: Node) => n.type === '@n8n/n8n-nodes-langchain.agent';
	const problems: string[] = [];
	for (const tool of wf.nodes.filter((n) => n.type === 'n8n-nodes-deckgen.deckGenTool' || n.type === 'n8n-nodes-deckgen.deckGenWaitTool')) {
		const p = tool.parameters as Record<string, unknown>;
		const spends = tool.type.endsWith('deckGenTool') && (operations as Record<string, Record<string, { spends: boolean }>>)[String(p.resource)][String(p.operation)].spends;
		for (const target of toolTargets(tool.name)) {
			if (isAgent(target) && spends) problems.push(`${tool.name} spends and reaches ${target.name} with no review`);
			if (target.type.endsWith('HitlTool')) {
				if (!toolTargets(target.name).every(isAgent)) problems.push(`${target.name} reviews for something other than an AI Agent`);
				if (Number(p.maxCredits ?? 0) !== 0) problems.push(`${tool.name} is reviewed but may re-send at up to Max Credits ${String(p.maxCredits)}`);
				if (p.operation === 'create') {
					const message = String((target.parameters as Record<string, unknown>).message);
					for (const parameter of ['title', 'slideCount', 'expectedCredits', 'confirmSlideSurcharge']) {
						const key = /\$fromAI\('([^']+)'/.exec(String(p[parameter]))?.[1];
						if (!key || !message.includes(`$tool.parameters.${key}`)) problems.push(`${target.name}'s message does not show ${parameter} as the call carries it`);
					}
				}
			}
			if (target.type === '@n8n/n8n-nodes-langchain.mcpTrigger' && p.operation === 'create' && String(p.confirmSlideSurcharge ?? '').includes('$fromAI')) {
				problems.push(`${tool.name}: an MCP client could confirm a surcharge itself`);
			}
			// no review can sit in front of an MCP client: a paying tool there buys only with the allowance, on purpose and small (issue 38)
			if (target.type === '@n8n/n8n-nodes-langchain.mcpTrigger' && spends) {
				const limit = Number(p.creditLimitPerExecution ?? 0);
				if (p.buyWithoutReview !== true) problems.push(`${tool.name} reaches an MCP client with Buy Without Review off: it would buy nothing`);
				else if (!(limit > 0 && limit <= 30)) problems.push(`${tool.name} may spend ${limit} credits a call without review: not a small limit`);
			}
		}
	}
	return problems;
}

/**
 * The height (px) n8n's sticky note needs for `content` at `width`, on the generous side: about 7.4 px a
 * character, 20 px a line, 30 px a heading line, 12 px between blocks. Checked against n8n 2.41's canvas
 * (`test/dev/screenshot.ts example-webhook-to-slack`): that note's text ends at about 465 px, this says 528.
 */
export function noteHeightNeeded(content: string, width: number): number {
	const perLine = Math.floor((width - 32) / 7.4);
	let height = 32;
	for (const block of content.split('\n')) {
		if (block.trim() === '') {
			height += 12;
			continue;
		}
		const heading = /^#{1,3}\s/.test(block);
		const text = block.replace(/[*`_]/g, '');
		const lines = Math.max(1, Math.ceil(text.length / (heading ? perLine * 0.7 : perLine)));
		height += heading ? lines * 30 + 8 : lines * 20 + (/^\d+\.\s|^-\s/.test(block) ? 4 : 0);
	}
	return height;
}


type Connections = NonNullable<Workflow['connections']>;

/** The nodes an output of `name` feeds (`output` its index; every output when omitted). */
function targetsOf(wf: Workflow, name: string, output?: number): string[] {
	const outputs = (wf.connections as Connections | undefined)?.[name]?.main ?? [];
	return (output === undefined ? outputs.flat() : outputs[output] ?? []).map((c) => c.node);
}

/** Every node reachable from `names` along main connections, not going on past a node `stop` says to stop at. */
function reachable(wf: Workflow, names: string[], stop: (name: string) => boolean = () => false): Set<string> {
	const seen = new Set<string>();
	const queue = [...names];
	while (queue.length) {
		const name = queue.shift()!;
		if (seen.has(name)) continue;
		seen.add(name);
		if (!stop(name)) queue.push(...targetsOf(wf, name));
	}
	return seen;
}

const byName = (wf: Workflow, name: string) => wf.nodes.find((n) => n.name === name)!;
const isDeckNode = (wf: Workflow) => (name: string) => String(byName(wf, name)?.type).startsWith('n8n-nodes-deckgen.');
const isMessage = (n: Node) => n.type === 'n8n-nodes-base.slack' || n.type === 'n8n-nodes-base.emailSend';
/** What a message node sends a person: a Slack text or file comment, an email's text. */
const messageText = (n: Node) => {
	const p = n.parameters as Record<string, any>;
	return String(p.text ?? p.message ?? p.options?.initialComment ?? p.html ?? '');
};
const postsTheFile = (n: Node) => {
	const p = n.parameters as Record<string, any>;
	return (n.type === 'n8n-nodes-base.slack' && p.resource === 'file' && p.operation === 'upload') || (n.type === 'n8n-nodes-base.emailSend' && Boolean(p.options?.attachments));
};
const ifReads = (n: Node | undefined, what: string) => n?.type === 'n8n-nodes-base.if' && JSON.stringify(n.parameters.conditions).includes(what);

/**
 * Where a Check Once loop would run for ever: a node on a cycle that is no bounded Check Once loop. Bounded:
 * Check Once with Max Wait (Minutes) set in the workflow, its Still Running into an IF on pastMaxWait whose
 * true output leaves the loop (to a node that says so) and whose false output comes back.
 */
function unboundedLoops(wf: Workflow): string[] {
	const problems: string[] = [];
	const onCycle = wf.nodes.filter((n) => [...targetsOf(wf, n.name)].some((t) => reachable(wf, [t]).has(n.name)));
	const checks = onCycle.filter((n) => n.type === 'n8n-nodes-deckgen.deckGenWait' && n.parameters.mode === 'checkOnce');
	for (const check of checks) {
		const options = (check.parameters.options ?? {}) as Record<string, unknown>;
		if (typeof options.maxWaitMinutes !== 'number') problems.push(`${check.name}: no Max Wait (Minutes) set in the workflow`);
		const [ifName, ...more] = targetsOf(wf, check.name, 2);
		const bound = byName(wf, ifName);
		if (more.length || !ifReads(bound, '$json.pastMaxWait')) {
			problems.push(`${check.name}: Still Running goes to ${[ifName, ...more].join(', ') || 'nothing'}, not to one IF on pastMaxWait`);
			continue;
		}
		const exits = targetsOf(wf, ifName, 0);
		if (!exits.length || exits.some((exit) => reachable(wf, [exit]).has(check.name))) problems.push(`${ifName}: its true output does not leave the loop`);
		if (!reachable(wf, targetsOf(wf, ifName, 1)).has(check.name)) problems.push(`${ifName}: its false output does not come back to ${check.name}`);
	}
	// n8n's Loop Over Items ends with its items: a cycle through it is bounded (the sweeper delivers one deck at a time)
	const loops = onCycle.filter((n) => n.type === 'n8n-nodes-base.splitInBatches');
	const onLoop = (n: Node, around: Node[]) => around.some((other) => reachable(wf, [other.name]).has(n.name) && reachable(wf, [n.name]).has(other.name));
	for (const n of onCycle) {
		if (!onLoop(n, checks) && !onLoop(n, loops)) problems.push(`${n.name}: on a loop without a Check Once`);
	}
	return problems;
}

/**
 * What a person would read wrong: a message after Failed or Still Running without the item's statusNote; a
 * message with `deckUrl` (a link on the service's own address asks for the API key); a finished deck said
 * ready without its file (Completed must go to an IF on the attached file: the file posted on true, why it is
 * missing on false).
 */
function messageProblems(wf: Workflow): string[] {
	const problems: string[] = [];
	const stop = isDeckNode(wf);
	const messagesFrom = (names: string[]) => [...reachable(wf, names, stop)].map((name) => byName(wf, name)).filter(isMessage);
	for (const n of wf.nodes.filter(isMessage)) if (messageText(n).includes('deckUrl')) problems.push(`${n.name}: sends deckUrl, a link that may ask for the key`);
	for (const wait of wf.nodes.filter((n) => n.type === 'n8n-nodes-deckgen.deckGenWait')) {
		for (const output of [1, 2]) {
			// the note reaches the message itself, or through the purchase journal's row (issue 44): a Data Table node on
			// the way writes it into the row's `reason`, which the message reads
			const journalled = [...reachable(wf, targetsOf(wf, wait.name, output), stop)].some((name) => {
				const n = byName(wf, name);
				return n.type === 'n8n-nodes-base.dataTable' && JSON.stringify((n.parameters.columns as { value?: unknown } | undefined)?.value ?? '').includes('$json.statusNote');
			});
			for (const message of messagesFrom(targetsOf(wf, wait.name, output))) {
				const text = messageText(message);
				if (!text.includes('$json.statusNote') && !(journalled && text.includes('$json.reason'))) problems.push(`${message.name}: after ${wait.name}'s ${output === 1 ? 'Failed' : 'Still Running'}, without statusNote`);
			}
		}
		const completed = targetsOf(wf, wait.name, 0);
		if (!messagesFrom(completed).length) continue;
		const [check, ...more] = completed;
		if (more.length || !ifReads(byName(wf, check), '$binary.data') || (wait.parameters.options as Record<string, unknown>)?.downloadFile !== true) {
			problems.push(`${wait.name}: Completed reaches a message without Download File and an IF on the attached file`);
			continue;
		}
		for (const message of messagesFrom(targetsOf(wf, check, 0))) if (!postsTheFile(message)) problems.push(`${message.name}: the deck is ready, but not posted as its file`);
		for (const message of messagesFrom(targetsOf(wf, check, 1))) {
			if (!/downloadError/.test(messageText(message)) || /is ready/.test(messageText(message))) problems.push(`${message.name}: a deck without its file, not said why`);
		}
	}
	return problems;
}

/** The Deck Generator nodes that spend (Create, Revise, …, a POST Custom Request, Recover Purchase), by the router's own table. */
const spends = (n: Node) =>
	n.type === 'n8n-nodes-deckgen.deckGen' && Boolean((operations as Record<string, Record<string, { spends: boolean }>>)[String(n.parameters.resource)]?.[String(n.parameters.operation)]?.spends);

/**
 * What lets a stranger spend through an example, or a delivery be made twice (issues 49.7, 52.4, 52.5): a
 * Webhook that reaches a spending node without n8n's Header Auth (credential type httpHeaderAuth) or a
 * note that says so; a Slack file upload whose channel is not a channel ID (n8n's Slack node 2.2+ sends it as
 * files.completeUploadExternal's `channel_id`, "Channel ID where the file will be shared",
 * docs.slack.dev/reference/methods/files.completeUploadExternal; its editor offers the channel list, whose
 * values are IDs); a webhook
 * example that posts a deck after a replayed purchase without an IF on `$json.replayed` in front of it, unless
 * its note says a redelivery posts the deck again.
 */
function deliveryProblems(wf: Workflow): string[] {
	const problems: string[] = [];
	const content = notesOf(wf).map((n) => String(n.parameters.content)).join('\n');
	for (const webhook of wf.nodes.filter((n) => n.type === 'n8n-nodes-base.webhook')) {
		const reached = [...reachable(wf, [webhook.name])].map((name) => byName(wf, name));
		if (!reached.some(spends)) continue;
		const credentials = (webhook as Node & { credentials?: Record<string, unknown> }).credentials ?? {};
		if (webhook.parameters.authentication !== 'headerAuth' || !credentials.httpHeaderAuth) problems.push(`${webhook.name}: spends without Header Auth`);
		if (!/\*\*Header Auth\*\*/.test(content)) problems.push(`${webhook.name}: the note does not say the webhook needs Header Auth`);
		const guards = reached.filter((n) => ifReads(n, '$json.replayed'));
		const postedAfterAReplay = [...reachable(wf, [webhook.name], (name) => guards.some((g) => g.name === name))]
			.map((name) => byName(wf, name))
			.some(postsTheFile);
		const guarded = guards.every((g) => ![...reachable(wf, targetsOf(wf, g.name, 0))].map((name) => byName(wf, name)).some(postsTheFile));
		if ((postedAfterAReplay || !guarded) && !/posts? the deck again/.test(content)) problems.push(`${webhook.name}: a redelivery posts the deck again, and the note does not say so`);
	}
	for (const upload of wf.nodes.filter((n) => n.type === 'n8n-nodes-base.slack' && n.parameters.resource === 'file')) {
		const channel = String((upload.parameters.options as Record<string, unknown> | undefined)?.channelId ?? '');
		if (!/^[CGD][A-Z0-9]{8,}$/.test(channel) && !channel.startsWith('=')) problems.push(`${upload.name}: uploads to "${channel}", not a channel ID`);
	}
	return problems;
}

describe('example workflows', () => {
	test('there are examples, each a named workflow', () => {
		expect(files).toEqual(expect.arrayContaining(['materials.json', 'surcharge-approval.json', 'webhook-to-slack.json', 'weekly-report.json']));
		for (const { wf } of examples) expect(wf.name).toEqual(expect.any(String));
	});

	test.each(withShowcase.map(({ file, wf }) => [file, wf] as const))(
		'%s sets on the Deck Generator nodes only what their form shows (no 0.1 fields)',
		(_file, wf) => {
			const unseen: Record<string, string[]> = {};
			for (const node of wf.nodes) {
				const type = descriptions[node.type];
				if (!type) continue;
				const found = unseenParameters(node, type);
				if (found.length) unseen[node.name] = found;
			}
			expect(unseen).toEqual({});
		},
	);

	test('the visibility check itself finds a 0.1 field (Slide Count under Additional Fields) and an unknown one', () => {
		const node: Node = {
			name: 'Create Deck',
			type: 'n8n-nodes-deckgen.deckGen',
			typeVersion: 1,
			parameters: { resource: 'deck', operation: 'create', expectedCredits: 10, title: 'T', additionalFields: { slideCount: 24 }, noSuchField: 1 },
		};
		expect(unseenParameters(node, descriptions[node.type])).toEqual(['additionalFields.slideCount', 'noSuchField']);
	});

	// at-scale.json and at-scale-journal.json wait only with n8n's Wait node, which saves the execution at
	// every wait, and a purchase survives a lost execution without it: at-scale.json's Create has an
	// Idempotency Key (a redelivered request replays it), at-scale-journal.json's writes the purchase to the
	// journal before it is sent (issue 44: the sweeper delivers it). Saving after every node too would cost a
	// database write per node run, thousands of times over (issue 22), and make no restart safer.
	const SAVED_AT_EACH_WAIT = new Set(['at-scale.json', 'at-scale-journal.json']);

	test.each(checked.map(({ file, wf }) => [file, wf] as const))('%s saves its execution progress (or waits only in n8n Wait nodes)', (file, wf) => {
		if (SAVED_AT_EACH_WAIT.has(file)) {
			expect(wf.settings?.saveExecutionProgress).toBe(false);
			const waits = wf.nodes.filter((node) => node.type === 'n8n-nodes-deckgen.deckGenWait');
			expect(waits.map((node) => node.parameters.mode)).toEqual(waits.map(() => 'checkOnce'));
			const create = wf.nodes.find((node) => node.type === 'n8n-nodes-deckgen.deckGen' && node.parameters.operation === 'create');
			const options = (create?.parameters.options ?? {}) as { idempotencyKey?: string; recordOnly?: boolean };
			if (options.recordOnly) {
				// written down by n8n's Data Table node (unless written already: the same request run again) before
				// Recover Purchase sends it from the row
				const next = (name: string) => wf.connections?.[name]?.main?.[0]?.map((c) => wf.nodes.find((n) => n.name === c.node)!) ?? [];
				const [check] = next(create!.name);
				expect(check).toMatchObject({ type: 'n8n-nodes-base.dataTable', parameters: { operation: 'rowNotExists', filters: { conditions: [{ keyName: 'idempotencyKey' }] } } });
				const [journal] = next(check.name);
				expect(journal).toMatchObject({ type: 'n8n-nodes-base.dataTable', parameters: { operation: 'insert' } });
				expect(next(journal.name).map((n) => n.parameters)).toEqual([expect.objectContaining({ operation: 'recover', purchaseFrom: 'row' })]);
			} else expect(options.idempotencyKey).toBeTruthy();
		} else expect(wf.settings).toMatchObject({ saveExecutionProgress: true });
	});

	test.each(checked.map(({ file, wf }) => [file, wf] as const))('%s carries one complete note, large enough to show all of it', (_file, wf) => {
		const notes = notesOf(wf);
		expect(notes).toHaveLength(1);
		const { content, width, height } = notes[0].parameters as { content: string; width: number; height: number };
		expect(content).toMatch(/^## \S/);
		// every paragraph and list item ends as a sentence does (none cut off)
		for (const block of content.split('\n').filter((b) => b.trim() && !b.startsWith('#'))) expect(block.replace(/[*_]+$/, '')).toMatch(/[.:)]$/);
		// the note is large enough to show all of it on the canvas
		expect(height).toBeGreaterThanOrEqual(noteHeightNeeded(content, width));
	});

	test.each(checklisted.map(({ file, wf }) => [file, wf] as const))(
		'%s says in its note what to set before it runs',
		(_file, wf) => {
			const { content } = notesOf(wf)[0].parameters as { content: string };
			expect(content).toContain('### Before it runs');

			const nodes = wf.nodes.filter((n) => n.type !== 'n8n-nodes-base.stickyNote');
			const uses = (type: string) => nodes.some((n) => n.type === type);
			// which credentials to pick, on which nodes
			expect(content).toMatch(/\*\*Credentials\*\*: your Deck Generator API credential/);
			for (const n of nodes.filter((n) => n.type.startsWith('n8n-nodes-deckgen.'))) expect(content).toContain(n.name);
			if (uses('n8n-nodes-base.slack')) expect(content).toMatch(/Slack on the Slack nodes/);
			if (uses('n8n-nodes-base.emailSend')) expect(content).toMatch(/SMTP on (both|the) Email nodes/);
			// every address and channel the example sends to is named
			for (const n of nodes) {
				const p = n.parameters as Record<string, any>;
				for (const address of [p.toEmail, p.fromEmail, p.channelId?.value, p.options?.channelId]) {
					if (typeof address === 'string' && !address.startsWith('=')) expect(content).toContain(address);
				}
				if (n.type === 'n8n-nodes-base.httpRequest' && typeof p.url === 'string' && !p.url.startsWith('=')) expect(content).toContain(p.url);
				// an Execute Once badge is explained, on the canvas and in the note
				if (n.executeOnce) {
					expect(n).toMatchObject({ notesInFlow: true, notes: expect.stringMatching(/Execute Once/) });
					expect(content).toMatch(/Execute Once/);
				}
			}
			// the price, where the workflow sets it: what Expected Credits is and how to learn the live one
			// (an AI agent's Create takes it from the model, and the reviewer sees it)
			const creates = nodes.filter((n) => n.type.startsWith('n8n-nodes-deckgen.') && n.parameters.operation === 'create' && !String(n.parameters.expectedCredits).includes('$fromAI'));
			if (creates.length) {
				expect(content).toMatch(/\*\*Expected Credits\*\*/);
				// with a Max Credits above 0, Expected Credits 0 alone is re-sent at the live price and bought: the note says to
				// clear both (issue 49.5; test/workflows/instructions/instructions.test.ts runs each such sentence)
				if (creates.some((n) => Number(n.parameters.maxCredits ?? 0) > 0)) expect(content).toMatch(/To learn the price without buying, set Expected Credits to 0 and Max Credits to 0/);
				else expect(content).toMatch(/To learn the price, set it to 0 and run once/);
			}
			// a trigger that listens on its own only does so in a published workflow
			if (uses('n8n-nodes-base.webhook') || uses('n8n-nodes-base.scheduleTrigger')) expect(content).toMatch(/\*\*Publish\*\* the workflow \(n8n 2\.x; \*Active\* on 1\.x\)/);
			if (uses('n8n-nodes-base.manualTrigger')) expect(content).toMatch(/Execute workflow/);
		},
	);

	test.each(checked.map(({ file, wf }) => [file, wf] as const))(
		'%s: an AI Agent reaches a tool that spends only through a human review, at no price above the one reviewed; an MCP server’s Create cannot confirm a surcharge and buys within a small limit',
		(_file, wf) => expect(agentToolProblems(wf)).toEqual([]),
	);

	test('the agent-tool check itself finds a Create straight to the agent, a review that may re-send at a higher price or hides the slide count, and an MCP Create that confirms surcharges, may not buy or may buy much', () => {
		const agent = examples.find(({ file }) => file === 'ai-agent-review.json')!.wf;
		const mcp = examples.find(({ file }) => file === 'mcp-agent-tools.json')!.wf;
		const edit = (wf: Workflow, change: (copy: Workflow) => void) => agentToolProblems(edited(wf, change));
		expect(edit(agent, (wf) => (wf.connections!['Create Deck'].ai_tool[0][0].node = 'AI Agent'))).toEqual(['Create Deck spends and reaches AI Agent with no review']);
		expect(edit(agent, (wf) => (byName(wf, 'Create Deck').parameters.maxCredits = 40))).toEqual(['Create Deck is reviewed but may re-send at up to Max Credits 40']);
		expect(
			edit(agent, (wf) => {
				const review = byName(wf, 'Review purchase by email').parameters;
				review.message = String(review.message).split('$tool.parameters.slideCount').join('$json.slideCount');
			}),
		).toEqual(["Review purchase by email's message does not show slideCount as the call carries it"]);
		expect(edit(mcp, (wf) => (byName(wf, 'Create Deck').parameters.confirmSlideSurcharge = "={{ $fromAI('confirmSlideSurcharge', '', 'boolean', false) }}"))).toEqual([
			'Create Deck: an MCP client could confirm a surcharge itself',
		]);
		expect(edit(mcp, (wf) => delete byName(wf, 'Create Deck').parameters.buyWithoutReview)).toEqual(['Create Deck reaches an MCP client with Buy Without Review off: it would buy nothing']);
		expect(edit(mcp, (wf) => (byName(wf, 'Create Deck').parameters.creditLimitPerExecution = 500))).toEqual(['Create Deck may spend 500 credits a call without review: not a small limit']);
	});

	test.each(checked.map(({ file, wf }) => [file, wf] as const))('%s: its Deck Generator nodes are at the version a new node gets', (_file, wf) => {
		const stale = wf.nodes.filter((n) => descriptions[n.type] && n.typeVersion !== descriptions[n.type].defaultVersion).map((n) => `${n.name} v${n.typeVersion}`);
		expect(stale).toEqual([]);
	});

	test.each(checked.map(({ file, wf }) => [file, wf] as const))('%s: every loop ends on a bound the workflow shows', (_file, wf) => {
		expect(unboundedLoops(wf)).toEqual([]);
	});

	test.each(checked.map(({ file, wf }) => [file, wf] as const))('%s: what a person reads carries statusNote, the deck comes as its file, a missing file is said', (_file, wf) => {
		expect(messageProblems(wf)).toEqual([]);
	});

	test('the loop and message checks themselves find a loop with no bound, a note left out, a link sent and a file not checked', () => {
		const atScale = examples.find(({ file }) => file === 'at-scale.json')!.wf;
		const webhook = examples.find(({ file }) => file === 'webhook-to-slack.json')!.wf;
		// Still Running straight back to the Wait: the loop of 0.2's example
		const unbounded = edited(atScale, (wf) => (wf.connections!['Check Deck'].main[2] = [{ node: 'Wait 5 min', type: 'main' }]));
		expect(unboundedLoops(unbounded)).toEqual(['Check Deck: Still Running goes to Wait 5 min, not to one IF on pastMaxWait']);
		expect(unboundedLoops(edited(atScale, (wf) => delete (byName(wf, 'Check Deck').parameters.options as Record<string, unknown>).maxWaitMinutes))).toEqual([
			'Check Deck: no Max Wait (Minutes) set in the workflow',
		]);
		const careless = edited(webhook, (wf) => {
			byName(wf, 'Slack: still running').parameters.text = '=Deck {{ $json.taskId }} is still generating.';
			byName(wf, 'Email: deck ready').parameters.text = '=Your deck is ready: {{ $json.deckUrl }}';
			wf.connections!['Wait for Deck'].main[0] = [{ node: 'Email: deck ready', type: 'main' }];
		});
		expect(messageProblems(careless)).toEqual([
			'Email: deck ready: sends deckUrl, a link that may ask for the key',
			"Slack: still running: after Wait for Deck's Still Running, without statusNote",
			'Wait for Deck: Completed reaches a message without Download File and an IF on the attached file',
		]);
	});

	test.each(checked.map(({ file, wf }) => [file, wf] as const))('%s: a webhook that spends needs Header Auth, a file goes to a channel ID, a redelivery is not posted twice unless said', (_file, wf) => {
		expect(deliveryProblems(wf)).toEqual([]);
	});

	test('the delivery check itself finds a webhook without Header Auth, an upload to a channel name and a replay posted again', () => {
		const webhook = examples.find(({ file }) => file === 'webhook-to-slack.json')!.wf;
		expect(deliveryProblems(edited(webhook, (wf) => delete byName(wf, 'Deck request').parameters.authentication))).toEqual(['Deck request: spends without Header Auth']);
		expect(deliveryProblems(edited(webhook, (wf) => ((byName(wf, 'Slack: deck ready').parameters.options as Record<string, unknown>).channelId = '#decks')))).toEqual([
			'Slack: deck ready: uploads to "#decks", not a channel ID',
		]);
		expect(deliveryProblems(edited(webhook, (wf) => (wf.connections!['Create Deck'].main[0] = [{ node: 'Wait for Deck', type: 'main' }])))).toEqual([
			'Deck request: a redelivery posts the deck again, and the note does not say so',
		]);
	});

	test('an email that says it attaches the deck attaches it, and one that sends the link is named so', () => {
		for (const { file, wf } of checked) {
			for (const node of wf.nodes.filter((n) => n.type === 'n8n-nodes-base.emailSend')) {
				const p = node.parameters as Record<string, any>;
				const attaches = Boolean(p.options?.attachments);
				const text = String(p.text ?? p.html ?? '');
				expect({ file, node: node.name, attaches }).toEqual({ file, node: node.name, attaches: /attached/.test(text) });
				if (/\blink\b/i.test(node.name)) expect({ file, node: node.name, attaches }).toEqual({ file, node: node.name, attaches: false });
			}
		}
	});
});

/**
 * Issue 51: the purchase journal's bounds, read from the two examples. A row that may have been bought never
 * ends `refused` but on an answer that proves it was never bought (Recover Purchase's `neverBought`); every
 * Update finds a purchase's rows by its Idempotency-Key (two rows written at the same instant are claimed
 * together); the sweeper stops re-sending at an age bound and tells a person, tells once what it keeps, and
 * marks each row as its own delivery ends; the form asks every brief field and answers after the row is written.
 */
describe('the purchase journal (issue 51)', () => {
	const journal = examples.find(({ file }) => file === 'at-scale-journal.json')!.wf;
	const sweeper = examples.find(({ file }) => file === 'purchase-sweeper.json')!.wf;
	const isUpdate = (n: Node) => n.type === 'n8n-nodes-base.dataTable' && n.parameters.operation === 'update';
	const conditionsOf = (n: Node) => (n.parameters.filters as { conditions: Array<{ keyName: string; condition?: string; keyValue?: string }> }).conditions;
	const setsOutcome = (n: Node) => String(((n.parameters.columns as { value?: Record<string, unknown> }).value ?? {}).outcome ?? '');
	const ENDS = ['refused', 'failed', 'stopped'];

	test.each([journal, sweeper].map((wf) => [wf.name, wf] as const))('%s: every Update of the journal finds the purchase by its Idempotency-Key, never by row id', (_name, wf) => {
		const updates = wf.nodes.filter(isUpdate);
		expect(updates.length).toBeGreaterThan(3);
		for (const n of updates) expect({ node: n.name, keys: conditionsOf(n).map((c) => c.keyName) }).toEqual({ node: n.name, keys: expect.arrayContaining(['idempotencyKey', 'outcome']) });
		for (const n of updates) expect({ node: n.name, byId: conditionsOf(n).some((c) => c.keyName === 'id') }).toEqual({ node: n.name, byId: false });
	});

	test.each([journal, sweeper].map((wf) => [wf.name, wf] as const))('%s: what Send Purchase refuses ends a row only through an IF on neverBought, and only `refused`', (_name, wf) => {
		const send = byName(wf, 'Send Purchase');
		expect(send.onError).toBe('continueErrorOutput');
		const refusals = [1, 2, 3].flatMap((output) => targetsOf(wf, send.name, output));
		expect(new Set(refusals)).toEqual(new Set(['Never bought?']));
		const gate = byName(wf, 'Never bought?');
		expect(ifReads(gate, 'neverBought === true')).toBe(true);
		const ending = (names: string[]) => [...reachable(wf, names)].map((name) => byName(wf, name)).filter((n) => isUpdate(n) && ENDS.some((end) => setsOutcome(n) === end));
		expect(ending(targetsOf(wf, gate.name, 0)).map(setsOutcome)).toEqual(['refused']);
		expect(ending(targetsOf(wf, gate.name, 1))).toEqual([]);
	});

	test('the sweeper stops re-sending at the row age its settings give (23 hours: below Stripe’s 24), ends the row `stopped` and names its row and key to a person', () => {
		const settings = (byName(sweeper, 'Sweeper settings').parameters.assignments as { assignments: Array<{ name: string; value: unknown }> }).assignments;
		expect(Object.fromEntries(settings.map((a) => [a.name, a.value]))).toMatchObject({ overdueAfterMinutes: 60, resendForHours: 23 });
		const [bound] = targetsOf(sweeper, 'Journal: overdue rows');
		expect(ifReads(byName(sweeper, bound), 'resendForHours') && ifReads(byName(sweeper, bound), '$json.createdAt')).toBe(true);
		expect(targetsOf(sweeper, bound, 0)).toEqual(['Journal: take over']);
		const [stopped] = targetsOf(sweeper, bound, 1);
		expect(setsOutcome(byName(sweeper, stopped))).toBe('stopped');
		const [told] = targetsOf(sweeper, stopped);
		expect(messageText(byName(sweeper, told))).toMatch(/\$json\.id.*\$json\.idempotencyKey.*may have been bought/s);
		// a row stopped (or ended) is never read as overdue again
		const overdue = conditionsOf(byName(sweeper, 'Journal: overdue rows')).filter((c) => c.keyName === 'outcome' && c.condition === 'neq').map((c) => c.keyValue);
		expect(overdue.sort()).toEqual(['delivered', ...ENDS].sort());
	});

	test('on n8n 1.x’s default SQLite (one shared connection, where a claim does not hold) the sweeper refuses to run and says why; elsewhere it runs', () => {
		const settings = (byName(sweeper, 'Sweeper settings').parameters.assignments as { assignments: Array<{ name: string; value: string }> }).assignments;
		const claimHolds = settings.find((a) => a.name === 'claimHolds')!.value;
		// the expression as n8n evaluates it, under each environment
		const evaluate = (env: Record<string, string | undefined>) => {
			const saved = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));
			Object.assign(process.env, env);
			for (const [name, value] of Object.entries(env)) if (value === undefined) delete process.env[name];
			try {
				const nodeTypes = { getByName: () => ({}), getByNameAndVersion: () => ({ description: { properties: [], inputs: ['main'], outputs: ['main'] } }), getKnownTypes: () => ({}) };
				const wf = new WorkflowRunner({ nodes: [{ id: '1', name: 'A', type: 'x', typeVersion: 1, position: [0, 0], parameters: {} }], connections: {}, active: false, nodeTypes: nodeTypes as never });
				return wf.expression.getParameterValue(claimHolds, { resultData: { runData: {} } } as never, 0, 0, 'A', [{ json: {} }], 'manual', {});
			} finally {
				for (const [name, value] of Object.entries(saved)) if (value === undefined) delete process.env[name];
				else process.env[name] = value;
			}
		};
		const open = { N8N_BLOCK_ENV_ACCESS_IN_NODE: 'false' };
		expect(evaluate({ ...open, DB_TYPE: undefined, DB_SQLITE_POOL_SIZE: undefined })).toBe(false);
		expect(evaluate({ ...open, DB_TYPE: 'sqlite', DB_SQLITE_POOL_SIZE: '0' })).toBe(false);
		expect(evaluate({ ...open, DB_TYPE: 'sqlite', DB_SQLITE_POOL_SIZE: '3' })).toBe(true);
		expect(evaluate({ ...open, DB_TYPE: 'postgresdb', DB_SQLITE_POOL_SIZE: undefined })).toBe(true);
		// n8n 2.x keeps $env from expressions by default (and pools SQLite): it runs
		expect(evaluate({ N8N_BLOCK_ENV_ACCESS_IN_NODE: 'true', DB_TYPE: undefined, DB_SQLITE_POOL_SIZE: undefined })).toBe(true);
		const [gate] = targetsOf(sweeper, 'Sweeper settings');
		expect(ifReads(byName(sweeper, gate), '$json.claimHolds')).toBe(true);
		expect(targetsOf(sweeper, gate, 0)).toEqual(['Journal: overdue rows']);
		const [stop] = targetsOf(sweeper, gate, 1);
		expect(byName(sweeper, stop)).toMatchObject({ type: 'n8n-nodes-base.stopAndError', parameters: { errorMessage: expect.stringMatching(/DB_SQLITE_POOL_SIZE=3.*delivers nothing/s) } });
	});

	test('a refusal that proves nothing keeps the row for the next sweep and tells a person once, never saying "not bought"', () => {
		const [quiet, loud] = [0, 1].map((output) => targetsOf(sweeper, 'Worth another sweep?', output));
		expect(quiet.map((name) => byName(sweeper, name).type)).toEqual(['n8n-nodes-base.noOp']);
		const [tell] = loud;
		expect(conditionsOf(byName(sweeper, tell))).toEqual(expect.arrayContaining([expect.objectContaining({ keyName: 'reason', condition: 'isEmpty' })]));
		expect(setsOutcome(byName(sweeper, tell))).toBe('');
		const messages = [...reachable(sweeper, [tell])].map((name) => byName(sweeper, name)).filter(isMessage);
		expect(messages).toHaveLength(1);
		expect(messageText(messages[0])).not.toMatch(/not bought/);
	});

	test('the sweeper marks each row as its own delivery ends: claim, file and mark inside a Loop Over Items of one', () => {
		const loop = byName(sweeper, 'One deck at a time');
		expect(loop).toMatchObject({ type: 'n8n-nodes-base.splitInBatches', parameters: { batchSize: 1 } });
		expect(targetsOf(sweeper, 'Wait for deck', 0)).toEqual([loop.name]);
		const around = (name: string) => reachable(sweeper, [loop.name]).has(name) && reachable(sweeper, [name]).has(loop.name);
		for (const name of ['Journal: claim delivery', 'Download deck', 'Slack: deck file', 'Journal: delivered']) expect({ name, inTheLoop: around(name) }).toEqual({ name, inTheLoop: true });
	});

	test('the form asks every brief field a service may require, the slide count with a default, and answers only after the row is written', () => {
		const form = byName(journal, 'Deck request');
		const fields = (form.parameters.formFields as { values: Array<Record<string, unknown>> }).values;
		expect(fields.map((f) => f.fieldLabel)).toEqual(['title', 'coreMessage', 'audience', 'slideCount']);
		expect(fields[3]).toMatchObject({ fieldType: 'number', requiredField: true, defaultValue: expect.stringMatching(/^\d+$/) });
		// n8n answers a form "Workflow Finishes" when the execution ends or first waits: after Journal: write and the send
		expect(form.parameters.responseMode).toBe('lastNode');
		const beforeTheWait = [...reachable(journal, [form.name], (name) => byName(journal, name).type === 'n8n-nodes-base.wait')];
		expect(beforeTheWait).toEqual(expect.arrayContaining(['Journal: write', 'Send Purchase']));
	});
});
