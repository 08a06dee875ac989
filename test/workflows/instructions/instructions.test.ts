/**
 * Issue 49.5's class test: every sentence of the README, the docs, an example's note or a field's hint that
 * tells a person to run something (the pattern: ./sentences.ts) is run here, as the person would run it,
 * with what it charges asserted from the simulator's ledger; or it names the test that runs it (a file that
 * exists, with the test's name in it); or it says, with the reason, why it runs nothing that could spend.
 * A new such sentence without an entry below fails the first test; an entry no sentence uses fails too.
 *
 * The examples run in-process (../run-example.ts: n8n-core, the examples' own Deck Generator, Webhook, IF
 * and Edit Fields nodes; Slack, email, HTTP Request and Data Table as pass-throughs; a person's approval
 * where the run stops). The command lines that start a server (`npm run demo`, `npm run dev`) are run by the
 * tests they name.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INode, INodeExecutionData } from 'n8n-workflow';

import { connections, node, type WorkflowJson } from '../../harness';
import { start, type Simulator } from '../../simulator';
import { runDemo } from '../../demo/demo';
import { byName, edited, loadExample, runExample, webhookItem, type ExampleRun } from '../run-example';
import { jsonOf, runWith } from '../deckgen/fixture';
import { instructionsToRun, isInstructionToRun, type Sentence } from './sentences';

const ROOT = join(__dirname, '../../..');
const CLIENT_ACTION = 2;

type Entry = { source: string; fragment: string } & (
	| { run: () => Promise<void> }
	| { coveredBy: string; test: string }
	| { runsNothingThatSpends: string }
);

let sim: Simulator;
beforeAll(async () => {
	// a 10-35 minute deck takes 10-35 ms: Wait Until Done and Check Once loops end at once. The reference reading
	// of the contract in every jest project: what a sentence charges is asserted against one service (the
	// alternate reading requires slide_count, which the at-scale and journal examples' briefs leave out)
	sim = await start({ profile: 'reference', seed: 495, clock: { speed: 60_000 }, limits: { maxConcurrentDecks: 1000, retryAfterMs: 5 } });
});
afterAll(async () => await sim.close());

/** A new account: what one person's run charges is the ledger's charges of its principal. */
function person() {
	const { key, principalId } = sim.control.createAccount({ balance: 1000 });
	return { key, charges: () => sim.ledger.charges.filter((c) => c.principalId === principalId) };
}

/** What a `curl` line sends, as n8n's Webhook node makes it an item; a `<…>` placeholder is the secret a person fills in. */
function curlRequest(line: string): { path: string; headers: Record<string, string>; body: unknown } {
	const command = line.slice(line.indexOf('curl'));
	const url = /https?:\/\/\S+\/webhook\/([\w-]+)/.exec(command);
	if (!url) throw new Error(`no webhook URL in: ${line}`);
	const headers = Object.fromEntries([...command.matchAll(/-H '([^:']+):\s*([^']*)'/g)].map(([, name, value]) => [name.toLowerCase(), value.replace(/^<[^>]+>$/, 'a-long-random-secret')]));
	const data = /-d '([^']*)'/.exec(command);
	return { path: url[1], headers, body: data ? JSON.parse(data[1]) : {} };
}

/** The request a sentence's curl sends, checked to carry what the example's Header Auth asks for (issue 49.7). */
function requestOf(sentence: Sentence, wf: WorkflowJson): ReturnType<typeof curlRequest> {
	const request = curlRequest(sentence.text);
	const webhook = wf.nodes.find((n) => n.type === 'n8n-nodes-base.webhook')!;
	expect(webhook.parameters).toMatchObject({ authentication: 'headerAuth', path: request.path });
	expect(request.headers['x-webhook-token']).toBeTruthy();
	return request;
}

const sentenceWith = (source: string, fragment: string): Sentence => {
	const found = instructionsToRun().find((s) => s.source === source && s.text.includes(fragment));
	if (!found) throw new Error(`${source}: no sentence with "${fragment}"`);
	return found;
};

const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n');
/** What the trigger each example starts from hands on (the Schedule's item is n8n's shape; the PDF is Download PDF's output). */
const TRIGGER: Record<string, { start: string; item: (attempt: number) => INodeExecutionData }> = {
	'weekly-report.json': {
		start: 'Every Monday 08:00',
		item: (attempt) => ({ json: { timestamp: new Date(Date.UTC(2026, 10, 23, 8, attempt)).toISOString(), 'Readable date': `November 23rd 2026, 8:0${attempt}:00 am`, 'Day of week': 'Monday', Timezone: 'UTC' } }),
	},
	'materials.json': {
		start: 'Start',
		item: () => ({ json: {}, binary: { data: { data: PDF.toString('base64'), mimeType: 'application/pdf', fileName: 'q3-results.pdf', fileExtension: 'pdf' } } }),
	},
	'surcharge-approval.json': { start: 'Start', item: () => ({ json: {} }) },
};

async function run(file: string, wf: WorkflowJson, key: string, item: INodeExecutionData, start = TRIGGER[file]?.start ?? 'Deck request'): Promise<ExampleRun> {
	return await runExample(sim, wf, { start, inputItems: [item], key });
}

const learningThePrice = (wf: WorkflowJson, create: string) =>
	edited(wf, (copy) => Object.assign(byName(copy, create).parameters, { expectedCredits: 0, maxCredits: 0 }));
const zeroPriceOnly = (wf: WorkflowJson, create: string) => edited(wf, (copy) => (byName(copy, create).parameters.expectedCredits = 0));

/**
 * "To learn the price without buying, set Expected Credits to 0 and Max Credits to 0, then run it once": nothing
 * charged, the live price in `credits` on Client Action; and the note's next sentence: with Max Credits left at
 * 20, the same run buys, once, at the live price.
 */
async function learnsThePrice(file: string, item: () => INodeExecutionData, create = 'Create Deck'): Promise<void> {
	const wf = loadExample(file);
	const a = person();
	const learnt = await run(file, learningThePrice(wf, create), a.key, item());
	expect(a.charges()).toEqual([]);
	const [refused] = learnt.items(create, CLIENT_ACTION);
	expect(refused).toMatchObject({ credits: expect.any(Number), charge: 'none' });
	expect(learnt.items(create, 0)).toEqual([]);
	const b = person();
	const bought = await run(file, zeroPriceOnly(wf, create), b.key, item());
	if (file === 'surcharge-approval.json') {
		// 24 slides: the surcharge comes first, and nothing is bought before a person approves it
		expect(b.charges()).toEqual([]);
		expect(bought.items(create, CLIENT_ACTION)[0]).toMatchObject({ cta: 'confirm_slide_surcharge' });
	} else {
		expect(b.charges().map((c) => c.credits)).toEqual([refused.credits]);
		expect(bought.items(create, 0)[0]).toMatchObject({ charge: 'charged', repricedFrom: 0 });
	}
}

/** The webhook example as the README and its note call it: bought once, delivered once; again: replayed, not delivered again; another delivery id: bought. */
async function webhookToSlackCalled(sentence: Sentence): Promise<void> {
	const wf = loadExample('webhook-to-slack.json');
	const request = requestOf(sentence, wf);
	const p = person();
	const first = await run('webhook-to-slack.json', wf, p.key, webhookItem(request));
	expect(first.items('Create Deck')[0]).toMatchObject({ charge: 'charged', replayed: false });
	expect([first.reached('Slack: deck ready'), first.reached('Email: deck ready'), first.reached('Slack: request delivered again')]).toEqual([1, 1, 0]);
	// the same request again, with what a sender changes on each delivery
	const again = await run('webhook-to-slack.json', wf, p.key, webhookItem({ ...request, headers: { ...request.headers, 'x-request-start': '1764000000999', traceparent: '00-1-2-01' } }));
	expect(again.items('Create Deck')[0]).toMatchObject({ charge: 'replayed', replayed: true, taskId: first.items('Create Deck')[0].taskId });
	expect([again.reached('Slack: deck ready'), again.reached('Email: deck ready'), again.reached('Slack: request delivered again')]).toEqual([0, 0, 1]);
	expect(p.charges()).toHaveLength(1);
	const other = await run('webhook-to-slack.json', wf, p.key, webhookItem({ ...request, headers: { ...request.headers, 'x-delivery-id': 'req-2' } }));
	expect(other.items('Create Deck')[0]).toMatchObject({ charge: 'charged' });
	expect(p.charges()).toHaveLength(2);
}

async function atScaleCalled(sentence: Sentence): Promise<void> {
	const wf = loadExample('at-scale.json');
	const request = requestOf(sentence, wf);
	const p = person();
	const first = await run('at-scale.json', wf, p.key, webhookItem(request));
	expect(first.items('Create Deck')[0]).toMatchObject({ charge: 'charged' });
	expect(first.reached('Slack: deck file')).toBe(1);
	const again = await run('at-scale.json', wf, p.key, webhookItem(request));
	expect(again.items('Create Deck')[0]).toMatchObject({ charge: 'replayed' });
	// its note: a redelivery posts the deck again (how a deck whose worker died reaches Slack)
	expect(again.reached('Slack: deck file')).toBe(1);
	expect(p.charges()).toHaveLength(1);
}

/** The Expected Credits hint, on Create alone: with Max Credits 0 nothing is charged; above 0, bought at the live price within it. */
async function theHintHolds(): Promise<void> {
	const workflow = (maxCredits: number) =>
		({
			nodes: [node('Start', 'n8n-nodes-base.manualTrigger'), node('Create', 'n8n-nodes-deckgen.deckGen', { resource: 'deck', operation: 'create', title: 'Price check', coreMessage: 'What it costs', audience: 'Finance', slideCount: 10, expectedCredits: 0, maxCredits, options: {} }) as INode],
			connections: connections([['Start', 'Create']]),
		}) as WorkflowJson;
	for (const [maxCredits, bought] of [[0, 0], [5, 0], [10, 1], [20, 1]] as const) {
		const p = person();
		const result = await runWith(sim, workflow(maxCredits), p.key, [{}]);
		expect({ maxCredits, charges: p.charges().length }).toEqual({ maxCredits, charges: bought });
		if (!bought) expect(jsonOf(result.output('Create', CLIENT_ACTION))[0]).toMatchObject({ outcome: 'price_drift', credits: 10 });
	}
}

const ENTRIES: Entry[] = [
	// --- what a person runs, run here
	...['webhook-to-slack.json', 'weekly-report.json', 'materials.json', 'surcharge-approval.json'].map(
		(file): Entry => ({
			source: file,
			fragment: 'To learn the price without buying, set Expected Credits to 0 and Max Credits to 0',
			run: () =>
				learnsThePrice(
					file,
					file === 'webhook-to-slack.json' ? () => webhookItem(requestOf(sentenceWith(file, 'To try it'), loadExample(file))) : () => TRIGGER[file].item(0),
					file === 'weekly-report.json' ? 'Create Report Deck' : 'Create Deck',
				),
		}),
	),
	{ source: 'hint: Deck Generator Expected Credits', fragment: 'Send 0 with Max Credits 0', run: theHintHolds },
	{ source: 'docs/nodes.md', fragment: 'its hint: send 0 with *Max Credits* 0', run: theHintHolds },
	{ source: 'webhook-to-slack.json', fragment: 'To try it: `curl', run: () => webhookToSlackCalled(sentenceWith('webhook-to-slack.json', 'To try it')) },
	{ source: 'README.md', fragment: "curl -X POST https://your-n8n.example/webhook/deck-request", run: () => webhookToSlackCalled(sentenceWith('README.md', 'webhook/deck-request')) },
	{ source: 'README.md', fragment: '**Publish** it (n8n 2.x; *Active* on 1.x), then ask for a deck:', run: () => webhookToSlackCalled(sentenceWith('README.md', 'webhook/deck-request')) },
	{ source: 'README.md', fragment: "curl -X POST https://your-n8n.example/webhook/deck-at-scale", run: () => atScaleCalled(sentenceWith('README.md', 'webhook/deck-at-scale')) },
	{ source: 'at-scale.json', fragment: 'curl -X POST http://localhost:5678/webhook/deck-at-scale', run: () => atScaleCalled(sentenceWith('at-scale.json', 'webhook/deck-at-scale')) },
	{
		source: 'weekly-report.json',
		fragment: '*Execute workflow* runs it once now, to try it',
		run: async () => {
			const wf = loadExample('weekly-report.json');
			const p = person();
			const first = await run('weekly-report.json', wf, p.key, TRIGGER['weekly-report.json'].item(0));
			expect(first.items('Create Report Deck')[0]).toMatchObject({ charge: 'charged' });
			expect(first.reached('Email the deck')).toBe(1);
			expect(p.charges().map((c) => c.credits)).toEqual([10]);
			// every further run (another trigger item) buys another
			await run('weekly-report.json', wf, p.key, TRIGGER['weekly-report.json'].item(1));
			expect(p.charges()).toHaveLength(2);
		},
	},
	{
		source: 'materials.json',
		fragment: 'Run it with *Execute workflow* (a manual trigger: nothing to publish): it buys one deck',
		run: async () => {
			const wf = loadExample('materials.json');
			const p = person();
			const first = await run('materials.json', wf, p.key, TRIGGER['materials.json'].item(0));
			expect(first.items('Create Deck')[0]).toMatchObject({ charge: 'charged' });
			// the same file again: its upload replays (the same materialId), so does the purchase
			const again = await run('materials.json', wf, p.key, TRIGGER['materials.json'].item(0));
			expect(again.items('Upload Material')[0].materialId).toBe(first.items('Upload Material')[0].materialId);
			expect(again.items('Create Deck')[0]).toMatchObject({ charge: 'replayed', taskId: first.items('Create Deck')[0].taskId });
			expect(p.charges().map((c) => c.credits)).toEqual([10]);
		},
	},
	...[
		'Run it with *Execute workflow* (a manual trigger: nothing to publish): nothing is bought until a person approves',
		"Slack's send-and-wait asks once per execution: run one brief per execution",
	].map(
		(fragment): Entry => ({
			source: 'surcharge-approval.json',
			fragment,
			run: async () => {
				const wf = loadExample('surcharge-approval.json');
				const p = person();
				const asked = await run('surcharge-approval.json', wf, p.key, { json: {} });
				expect(asked.items('Create Deck', CLIENT_ACTION)[0]).toMatchObject({ cta: 'confirm_slide_surcharge', credits: 28 });
				expect(asked.reached('Ask for approval in Slack')).toBe(1);
				expect(asked.result.runCount('Create Deck (surcharge approved)')).toBe(0);
				expect(p.charges()).toEqual([]);
				// the person clicks Approve (what n8n's Slack node outputs then): the deck, once, at the approved price
				const approved = edited(wf, (copy) => {
					const ask = byName(copy, 'Ask for approval in Slack');
					Object.assign(ask, { type: 'n8n-nodes-base.set', typeVersion: 3.4, parameters: { assignments: { assignments: [{ id: 'a', name: 'data', value: '={{ { approved: true } }}', type: 'object' }] }, options: {} } });
				});
				const bought = await run('surcharge-approval.json', approved, p.key, { json: {} });
				expect(bought.items('Create Deck (surcharge approved)')[0]).toMatchObject({ charge: 'charged' });
				expect(bought.reached('Slack: deck ready')).toBe(1);
				expect(p.charges().map((c) => c.credits)).toEqual([28]);
			},
		}),
	),
	{
		source: 'README.md',
		fragment: 'npm run demo -- --base-url https://api.example --api-key',
		run: async () => {
			// a deployment of the service (the simulator on its own), run twice: two decks at 10, then replays
			const p = person();
			const quiet = { isTTY: false, write: () => undefined };
			expect(await runDemo({ baseUrl: sim.url, apiKey: p.key }, { out: quiet })).toBe('success');
			expect(p.charges().map((c) => c.credits)).toEqual([10, 10]);
			expect(await runDemo({ baseUrl: sim.url, apiKey: p.key }, { out: quiet })).toBe('success');
			expect(p.charges()).toHaveLength(2);
		},
	},
	// --- run by the test named
	{ source: 'README.md', fragment: 'npm run demo   #', coveredBy: 'test/unit/demo.test.ts', test: 'two briefs are bought' },
	{ source: 'README.md', fragment: '**`npm run demo`** builds the package', coveredBy: 'test/unit/demo.test.ts', test: 'two briefs are bought' },
	...['**`npm run dev`** starts a real n8n', 'In `npm run dev` the same path needs no account', '`npm run dev` imports them all runnable', '`deck-request` is called as in', 'Slack and email go to a local stand-in that prints what each'].map(
		(fragment): Entry => ({ source: 'README.md', fragment, coveredBy: 'test/e2e/dev.e2e.ts', test: 'runs to its end and delivers to the stand-in' }),
	),

	...[
		['README.md', 'paste the lines n8n logged before each purchase'],
		['recover-purchase.json', 'Paste them, one per line, into *Paste logged lines*'],
		['docs/at-scale.md', 'paste the lines into *Paste logged lines* (one per line) and click *Execute workflow*'],
		['docs/nodes.md', 'The ready workflow is [`recover-purchase.json`]'],
	].map(([source, fragment]): Entry => ({ source, fragment, coveredBy: 'test/e2e/queue.e2e.ts', test: 'every charged deck found in the log and recovered, no second charge' })),
	{ source: 'docs/nodes.md', fragment: 'and send it from there ([the purchase journal]', coveredBy: 'test/e2e/queue.e2e.ts', test: 'issue 44' },
	{ source: 'docs/nodes.md', fragment: 'Run the same item through the node without the option', coveredBy: 'test/workflows/deckgen/journal.test.ts', test: 'sent again' },
	{ source: 'docs/nodes.md', fragment: 'The link stays good: click again.', coveredBy: 'test/e2e/agent-review.e2e.ts', test: 'Approve' },
	{ source: 'docs/nodes.md', fragment: 'the editor runs Create again', coveredBy: 'test/e2e/restart.e2e.ts', test: 'Execute step' },
	{
		source: 'at-scale-journal.json',
		fragment: 'To learn the price, set it to 0 and run once: the refusal in #finance',
		run: async () => {
			// a form submission; the Data Table nodes pass the row on as n8n's insert returns it (the recorded purchase)
			const wf = edited(loadExample('at-scale-journal.json'), (copy) => (byName(copy, 'Create Deck').parameters.expectedCredits = 0));
			const p = person();
			const submitted = { json: { title: 'Launch plan', coreMessage: 'Why it wins', audience: 'Sales', submittedAt: '2026-11-29T09:00:00.000Z', formMode: 'production' } };
			const result = await run('at-scale-journal.json', wf, p.key, submitted);
			expect(p.charges()).toEqual([]);
			expect(result.items('Send Purchase', CLIENT_ACTION)[0]).toMatchObject({ outcome: 'price_drift', credits: 10 });
			expect(result.reached('Slack #finance: decision needed')).toBe(1);
		},
	},
	...[
		['at-scale-journal.json', 'click *Set up: run once*'],
		['purchase-sweeper.json', 'click *Execute workflow* on *Set up: run once*'],
		['docs/at-scale.md', 'Its *Set up: run once* trigger creates the table'],
		['docs/at-scale.md', '*Set up: run once* creates it on n8n 2.x'],
	].map(
		([source, fragment]): Entry => ({
			source,
			fragment,
			run: async () => {
				// the sweeper's set-up branch creates the table: no Deck Generator node on it, nothing sent to the service
				const p = person();
				const requests = sim.ledger.requests.length;
				const result = await run('purchase-sweeper.json', loadExample('purchase-sweeper.json'), p.key, { json: {} }, 'Set up: run once');
				expect(result.result.nodeExecutionOrder).toEqual(['Set up: run once', 'Create the journal table']);
				expect([p.charges().length, sim.ledger.requests.length - requests]).toEqual([0, 0]);
			},
		}),
	),
	// --- sentences the pattern finds that start nothing that could spend
	{ source: 'README.md', fragment: 'send a brief from a webhook, a form or a schedule', runsNothingThatSpends: "what the package is for: the product's first line" },
	{ source: 'README.md', fragment: 'npm test', runsNothingThatSpends: "this package's tests, against the simulator on loopback" },
	{ source: 'README.md', fragment: '(*Execute Once*: one deck from all uploaded files)', runsNothingThatSpends: 'the name of a node setting, not a step' },
	{ source: 'at-scale-journal.json', fragment: 'run n8n in queue mode or on PostgreSQL', runsNothingThatSpends: 'how to set up n8n; runs no workflow' },
	{ source: 'docs/at-scale.md', fragment: '*Execute Once*: one file however many rows the claim took', runsNothingThatSpends: 'the example\'s nodes described, with the name of a node setting; not a step' },
	{ source: 'docs/at-scale.md', fragment: 'Create split into *Record Without Sending* and **Send Purchase**', runsNothingThatSpends: 'what the journal\'s node runs are, by node name; not a step' },
	{ source: 'purchase-sweeper.json', fragment: '(Execute Once: one file however many rows were claimed)', runsNothingThatSpends: 'the name of a node setting, not a step' },
	{ source: 'ai-agent-review.json', fragment: 'click **+** (*Add human review step*)', runsNothingThatSpends: 'an editor step that adds a node; runs nothing' },
	{ source: 'docs/nodes.md', fragment: 'paste it again, or mint a new one', runsNothingThatSpends: 'the API key into the credential' },
	{ source: 'docs/panels.md', fragment: 'panels-doc.ts --write', runsNothingThatSpends: 'writes this table from test/editor/panels.ts' },
	{ source: 'docs/at-scale.md', fragment: 'npm run bench:queue -- --decks 200 --journal', runsNothingThatSpends: 'the benchmark, against its own simulator on loopback' },
	{ source: 'docs/at-scale.md', fragment: '`test/e2e/dev.e2e.ts`: both examples run', runsNothingThatSpends: 'a report of what a test runs' },
];

const entriesOf = (sentence: Sentence) => ENTRIES.filter((e) => (e.source === sentence.source || sentence.source.startsWith(`${e.source} `)) && sentence.text.includes(e.fragment));

describe('every sentence that tells a person to run something is run, and what it charges asserted (issue 49.5)', () => {
	test('each instruction to run has an entry, and each entry an instruction', () => {
		const sentences = instructionsToRun();
		expect(sentences.filter((s) => entriesOf(s).length === 0).map((s) => `${s.source}: ${s.text}`)).toEqual([]);
		expect(ENTRIES.filter((e) => !sentences.some((s) => entriesOf(s).includes(e))).map((e) => `${e.source}: ${e.fragment}`)).toEqual([]);
	});

	test('the pattern itself finds an instruction in every form it documents, and not a description', () => {
		for (const instruction of [
			'Run it with *Execute workflow*.',
			'**The journal**: click *Set up: run once*.',
			'To try it: `curl -X POST http://localhost:5678/webhook/x`.',
			'Publish it, then send one request.',
			'3. **Publish** it, then ask for a deck:',
			'npm run dev    # a real n8n',
		])
			expect({ instruction, found: isInstructionToRun(instruction) }).toEqual({ instruction, found: true });
		for (const description of ['The node sends the request once more at that price.', 'A retry or a redelivery replays it.', 'It runs every Monday.'])
			expect({ description, found: isInstructionToRun(description) }).toEqual({ description, found: false });
	});

	test.each(ENTRIES.filter((e): e is Extract<Entry, { coveredBy: string }> => 'coveredBy' in e).map((e) => [`${e.source}: ${e.fragment}`, e] as const))('%s: run by the test it names', (_name, e) => {
		expect(existsSync(join(ROOT, e.coveredBy))).toBe(true);
		expect(readFileSync(join(ROOT, e.coveredBy), 'utf8')).toContain(e.test);
	});

	test.each(ENTRIES.filter((e): e is Extract<Entry, { run: () => Promise<void> }> => 'run' in e).map((e) => [`${e.source}: ${e.fragment}`, e] as const))('%s', async (_name, e) => {
		await e.run();
	});
});

