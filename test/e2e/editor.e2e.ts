/**
 * The editor, seen in a real browser (issue 28): n8n 2.41.1 with the built package installed as a
 * community package, driven in headless Chromium (Debian's /usr/bin/chromium, playwright-core):
 *
 * - every example of test/workflows/examples as imported: the canvas (no node marked with issues,
 *   every sticky note's text inside its frame, each Deck Generator node's outputs under the labels
 *   the table gives), then each Deck Generator node's panel (no parameter-issue marker, no empty
 *   notice, the fields top to bottom as the table gives);
 * - a node added as a person adds it (node creator: the node, then the action) for every operation
 *   of Deck Generator and every mode of Deck Generator Wait: its panel and its outputs the same way;
 *   the canvas marks it only where the table says a required field is left to fill;
 * - a status record the built-in reading cannot read (issue 43), run as a person runs it (the canvas's
 *   Execute workflow): Get Status's output pane and its item name the path to paste, with its value; that
 *   path typed into Options → Status Word Path, the next run reads the word and says nothing more;
 * - no error in the browser's console or an uncaught exception, all along (filters below, each
 *   with its reason);
 * - then every README picture (test/editor/browser.ts `SHOTS`) from this same n8n, written to
 *   .github/assets, so no picture is older than the panel it shows. CI skips this part
 *   (`DECKGEN_EDITOR_PICTURES=0` in .ci/run: about two minutes, and CI keeps no picture); every canvas
 *   and panel the pictures show is checked above all the same, and `test/unit/panels-doc.test.ts`
 *   fails when README links a picture that does not exist.
 *
 * The table is test/editor/panels.ts, also rendered into docs/panels.md's "What each panel shows". Runs on
 * 2.x only, whatever DECKGEN_E2E_FLAVORS says: the table is what 2.x's editor draws, the README's
 * pictures are 2.x's, and 1.123's editor draws panels with other markup. Prints
 * `E2E editor v2: …` with what each part took.
 */
import * as path from 'path';
import { PROFILES, start, type Simulator } from '../simulator';
import { bindCredentials, chromiumPath, closePanel, EXAMPLES, launchEditor, openCanvas, openPanel, addNodeFromCreator, pickOption, SHOTS, takeShot, type Editor } from '../editor/browser';
import { readCanvas, readPanel, type CanvasNodeReading, type CanvasReading, type PanelReading } from '../editor/inspect';
import { PANELS, panelFor, panelName, sameFields, type Panel } from '../editor/panels';
import { ensureBuilt, REPO } from './fixtures/build';
import { loadExample, PACKAGE, type ExampleFile } from './fixtures/examples';
import { e2eFlavors, type Flavor } from './n8n-install';
import { closeHttpClients, N8nInstance, startN8n } from './n8n-instance';

const flavors: Flavor[] = e2eFlavors(['v2']).filter((f) => f === 'v2');

/** A node's outputs as drawn: main outputs by label, then any other (a tool's connection) as `<type>: <label>`. */
const outputsOf = (node: CanvasNodeReading) => [...node.outputs, ...node.otherOutputs].join(' | ');

/**
 * Console errors that are provably harmless, each with why. Nothing else is filtered.
 */
const CONSOLE_FILTERS: Array<{ why: string; matches(text: string, url: string, baseUrl: string): boolean }> = [
	{
		why: 'a request to a host other than this n8n failed: nothing outside the machine is reachable here (the node creator asks registry.npmjs.org about a community package)',
		matches: (text, url, baseUrl) => /^Failed to load resource: net::ERR_/.test(text) && url !== '' && !url.startsWith(baseUrl),
	},
	{
		why: "n8n's editor asks every node for an optional output schema (/schemas/<type>/<version>/<resource>/<operation>.json, shipped by some of n8n's own nodes for the schema preview); a node without one gets a 404 and the editor shows no preview: ours, and n8n's own Wait node 1.1 (asked for next to a Deck Generator panel of recover-purchase.json)",
		matches: (text, url, baseUrl) => /status of 404/.test(text) && url.startsWith(`${baseUrl}/schemas/`),
	},
];

// 2.x only: with DECKGEN_E2E_FLAVORS=v1 the suite is reported as skipped (jest refuses an empty .each)
const describeFlavors = flavors.length ? describe.each(flavors) : describe.skip.each(['v2' as Flavor]);

describeFlavors('the editor in real n8n %s', (flavor) => {
	let sim: Simulator;
	let n8n: N8nInstance;
	let editor: Editor;
	const credentials = new Map<string, { id: string; name: string }>();
	const imported = new Map<ExampleFile, string>();
	/** console errors and uncaught exceptions not filtered, since the last look */
	let errors: string[] = [];
	const filtered = new Map<string, number>();
	const seconds: Record<string, number> = {};
	const started = Date.now();

	const workflowOf = async (file: ExampleFile) => {
		if (!imported.has(file)) {
			const wf = await bindCredentials(n8n, loadExample(file), { apiKey: sim.keys.personal, baseUrl: sim.url }, credentials);
			imported.set(file, await n8n.importWorkflow(wf));
		}
		return imported.get(file)!;
	};
	const takeErrors = () => {
		const seen = errors;
		errors = [];
		return seen;
	};

	beforeAll(async () => {
		chromiumPath();
		ensureBuilt();
		sim = await start({ seed: 1, clock: { speed: 60 } });
		n8n = await startN8n({ flavor, packageDir: REPO });
		seconds.n8nStart = n8n.startupSeconds;
		const t = Date.now();
		editor = await launchEditor(n8n);
		seconds.browserStart = (Date.now() - t) / 1000;
		editor.page.on('console', (msg) => {
			if (msg.type() !== 'error') return;
			const url = msg.location()?.url ?? '';
			const filter = CONSOLE_FILTERS.find((f) => f.matches(msg.text(), url, n8n.baseUrl));
			if (filter) filtered.set(filter.why, (filtered.get(filter.why) ?? 0) + 1);
			else errors.push(`console error: ${msg.text().slice(0, 500)}${url ? ` (${url})` : ''}`);
		});
		editor.page.on('pageerror', (e) => errors.push(`uncaught in the page: ${e.message}`));
		takeErrors();
	}, 600_000);

	afterAll(async () => {
		await editor?.close();
		await n8n?.stop();
		await sim?.close();
		await closeHttpClients();
		seconds.total = (Date.now() - started) / 1000;
		const f = [...filtered].map(([why, n]) => `${n} × ${why.slice(0, 60)}…`).join('; ');
		console.log(`E2E editor ${flavor}: ${Object.entries(seconds).map(([k, v]) => `${k} ${v.toFixed(1)} s`).join(', ')}; console errors filtered: ${f || 'none'}`);
	});

	/** What differs between the table's panel and what the editor shows. */
	function panelProblems(where: string, panel: Panel, seen: PanelReading): string[] {
		const problems: string[] = [];
		for (const issue of seen.issues) problems.push(`${where}: parameter issue on ${issue}`);
		if (seen.emptyNotices) problems.push(`${where}: ${seen.emptyNotices} notice(s) with no text`);
		if (!sameFields(panel.fields, seen.fields)) {
			problems.push(`${where}: fields differ from the table (${panelName(panel)})\n    table:  ${panel.fields.join(' | ')}\n    editor: ${seen.fields.join(' | ')}`);
		}
		return problems;
	}

	function canvasProblems(where: string, canvas: CanvasReading, expectIssues: (node: string) => boolean = () => false): string[] {
		const problems: string[] = [];
		for (const node of canvas.nodes) {
			if (node.hasIssues !== expectIssues(node.name)) problems.push(`${where}: node "${node.name}" ${node.hasIssues ? 'is marked with issues' : 'should be marked (a required field to fill)'} on the canvas`);
		}
		for (const note of canvas.stickies) {
			if (!note.fits) problems.push(`${where}: the note "${note.title}" runs past its frame (text ${note.textWidth}×${note.textHeight} px, frame ${note.frameWidth}×${note.frameHeight} px)`);
		}
		return problems;
	}

	test('the checks see what they look for: a node without its credential is marked, a note too small for its text overflows', async () => {
		const id = await n8n.importWorkflow({
			name: 'editor e2e: detectors',
			nodes: [
				{ id: 'd1', name: 'No credential', type: `${PACKAGE}.deckGen`, typeVersion: 1.1, position: [0, 0], parameters: { resource: 'account', operation: 'getCredits' } },
				{ id: 'd2', name: 'Small note', type: 'n8n-nodes-base.stickyNote', typeVersion: 1, position: [0, 200], parameters: { content: '## A note\n' + 'Far too much text for this frame. '.repeat(40), width: 200, height: 80 } },
			],
			connections: {},
		});
		await openCanvas(editor.page, n8n, id);
		const canvas = await readCanvas(editor.page);
		expect(canvas.nodes.find((n) => n.name === 'No credential')?.hasIssues).toBe(true);
		expect(canvas.stickies.map((s) => s.fits)).toEqual([false]);
		expect(takeErrors()).toEqual([]);
	});

	test.each(EXAMPLES)('example %s as imported: canvas, notes, every Deck Generator panel', async (file) => {
		const t = Date.now();
		const page = editor.page;
		const id = await workflowOf(file);
		const problems: string[] = [];
		await openCanvas(page, n8n, id);
		const canvas = await readCanvas(page);
		problems.push(...canvasProblems(file, canvas));
		const wf = loadExample(file);
		const ours = wf.nodes.filter((n) => String(n.type).startsWith(`${PACKAGE}.`));
		expect(ours.length).toBeGreaterThan(0);
		for (const node of ours) {
			const where = `${file} "${node.name}"`;
			const panel = panelFor(node as { type: string; typeVersion: number; parameters: Record<string, unknown> });
			if (!panel) {
				problems.push(`${where}: no row in test/editor/panels.ts`);
				continue;
			}
			const drawn = canvas.nodes.find((n) => n.name === node.name);
			// n8n adds its Error output to a node set to On Error: Continue (using error output)
			const outputs = [...panel.outputs, ...(node.onError === 'continueErrorOutput' ? ['Error'] : [])].join(' | ');
			if (!drawn) problems.push(`${where}: not on the canvas`);
			else if (outputsOf(drawn) !== outputs) problems.push(`${where}: outputs ${outputsOf(drawn)}, the table says ${outputs}`);
			await openPanel(page, node.name);
			problems.push(...panelProblems(where, panel, await readPanel(page)));
			await closePanel(page);
		}
		problems.push(...takeErrors().map((e) => `${file}: ${e}`));
		seconds[`example ${path.basename(file, '.json')}`] = (Date.now() - t) / 1000;
		expect(problems).toEqual([]);
	});

	test('a paying tool straight on the AI Agent, no review in front of it: its panel says in one line that it buys nothing so; nothing is marked', async () => {
		const t = Date.now();
		const page = editor.page;
		// the AI agent example with its review taken out: Create Deck connected to the agent itself
		const example = loadExample('ai-agent-review.json');
		const review = 'Review purchase by email';
		const straight = {
			...example,
			name: 'editor e2e: Create Deck straight on the agent',
			nodes: example.nodes.filter((n) => n.name !== review),
			connections: { ...example.connections, 'Create Deck': { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] } },
		};
		delete (straight.connections as Record<string, unknown>)[review];
		const id = await n8n.importWorkflow(await bindCredentials(n8n, straight, { apiKey: sim.keys.personal, baseUrl: sim.url }, credentials));
		await openCanvas(page, n8n, id);
		const problems = canvasProblems('Create Deck straight on the agent', await readCanvas(page));
		const node = straight.nodes.find((n) => n.name === 'Create Deck')!;
		const panel = panelFor(node as { type: string; typeVersion: number; parameters: Record<string, unknown> })!;
		await openPanel(page, node.name);
		const seen = await readPanel(page);
		problems.push(...panelProblems('Create Deck straight on the agent', panel, seen));
		await closePanel(page);
		// the line, in full, right under the operation
		expect(seen.fields[2]).toBe(
			'Notice: Buys nothing unless a person reviews each call (hover this tool’s connection to the agent, click + and add a human review step) or Buy Without Review is on.',
		);
		problems.push(...takeErrors());
		seconds.unreviewedTool = (Date.now() - t) / 1000;
		expect(problems).toEqual([]);
	});

	test('the three reading paths (Status Word Path, File Link Path, Failure Reason Path) set on Get Status, Download, both Wait modes and the status tools: shown, nothing marked', async () => {
		const t = Date.now();
		const page = editor.page;
		const paths = { statusWordPath: 'data.state', downloadLink: 'data.resultJson.resultUrls[1]', failureReasonPath: 'data.failMsg' };
		const credential = { deckGenApi: { name: 'Deck Generator account' } };
		const deck = (name: string, operation: string, y: number, tool = false) => ({
			id: `p-${name}`, name, type: `${PACKAGE}.${tool ? 'deckGenTool' : 'deckGen'}`, typeVersion: 1.1, position: [300, y], credentials: credential,
			parameters: { resource: 'deck', operation, taskId: tool ? "={{ $fromAI('taskId', 'The taskId that Create returned', 'string') }}" : '={{ $json.taskId }}', options: paths },
		});
		const wait = (name: string, mode: string, y: number, tool = false) => ({
			id: `p-${name}`, name, type: `${PACKAGE}.${tool ? 'deckGenWaitTool' : 'deckGenWait'}`, typeVersion: 1.1, position: [600, y], credentials: credential,
			parameters: { mode, ...(tool ? { taskId: "={{ $fromAI('taskId', 'The taskId that Create returned', 'string') }}" } : {}), options: paths },
		});
		const nodes = [deck('Get Status', 'getStatus', 0), deck('Download', 'download', 200), wait('Wait Until Done', 'waitUntilDone', 0), wait('Check Once', 'checkOnce', 200), deck('Get Deck Status', 'getStatus', 400, true), wait('Check Deck', 'checkOnce', 400, true)];
		const id = await n8n.importWorkflow(await bindCredentials(n8n, { name: 'editor e2e: reading paths', nodes, connections: {} }, { apiKey: sim.keys.personal, baseUrl: sim.url }, credentials));
		await openCanvas(page, n8n, id);
		const problems = canvasProblems('reading paths', await readCanvas(page));
		for (const node of nodes) {
			await openPanel(page, node.name);
			const seen = await readPanel(page);
			await closePanel(page);
			problems.push(...seen.issues.map((issue) => `"${node.name}": parameter issue on ${issue}`));
			const shown = ['Failure Reason Path', 'File Link Path', 'Status Word Path'].filter((label) => seen.nested.includes(label));
			if (shown.length !== 3) problems.push(`"${node.name}": the options show ${seen.nested.join(' | ')}`);
		}
		problems.push(...takeErrors().map((e) => `reading paths: ${e}`));
		seconds.readingPaths = (Date.now() - t) / 1000;
		expect(problems).toEqual([]);
	});

	test('a status record the built-in reading cannot read: run from the editor, Get Status names the path to paste; pasted into Status Word Path, the next run reads the word', async () => {
		const t = Date.now();
		const page = editor.page;
		// a service of its own: no status word where the built-in reading looks for one, the reference profile's
		// words under `result.main.stage` (a name that is no state member's, inside a result member: a part of the job)
		const words = PROFILES.reference.statusWords;
		const unreadable = await start({ seed: 2, clock: { manual: true }, choices: { omitStatusWord: true, statusExtras: (deck) => ({ result: { main: { stage: words[deck.phase] } } }) } });
		try {
			const taskId = unreadable.control.seedDeck({ key: unreadable.keys.personal, durationMs: 30 * 60_000 });
			unreadable.control.advance(10 * 60_000);
			unreadable.control.holdDeck(taskId, true);
			expect(unreadable.control.deck(taskId)?.phase).toBe('running');
			const nodes = [
				{ id: 'u-start', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
				{ id: 'u-task', name: 'Task', type: 'n8n-nodes-base.set', typeVersion: 3.4, position: [220, 0], parameters: { assignments: { assignments: [{ id: 'u-a', name: 'taskId', value: taskId, type: 'string' }] }, options: {} } },
				{ id: 'u-get', name: 'Get Status', type: `${PACKAGE}.deckGen`, typeVersion: 1.1, position: [440, 0], credentials: { deckGenApi: { name: 'Deck Generator (a service of its own)' } }, parameters: { resource: 'deck', operation: 'getStatus', taskId: '={{ $json.taskId }}', options: {} } },
			];
			const connections = { Start: { main: [[{ node: 'Task', type: 'main', index: 0 }]] }, Task: { main: [[{ node: 'Get Status', type: 'main', index: 0 }]] } };
			const id = await n8n.importWorkflow(await bindCredentials(n8n, { name: 'editor e2e: a record to read', nodes, connections }, { apiKey: unreadable.keys.personal, baseUrl: unreadable.url }, credentials));
			const output = page.locator('[data-test-id="ndv"] [data-test-id="output-panel"]').first();
			const hint = output.locator('[data-test-id="node-hint"]');
			/** The output as the JSON view shows it: its text is the items' JSON, indented with no-break spaces. */
			const shownItems = async () => {
				await output.locator('[data-test-id="radio-button-json"]').first().click();
				// (drawn after the click: read until the text is whole)
				for (let attempt = 1; ; attempt++) {
					const text = await output.locator('[data-test-id="ndv-data-container"]').first().innerText();
					try {
						return JSON.parse(text.replace(/\u00a0/g, ' ')) as Array<Record<string, unknown>>;
					} catch (e) {
						if (attempt === 20) throw e;
						await page.waitForTimeout(250);
					}
				}
			};
			const suggestion = 'Status Word Path `result.main.stage` is "generating"';

			// run as a person does (the canvas's Execute workflow), then open Get Status
			await openCanvas(page, n8n, id);
			await page.locator('[data-test-id="execute-workflow-button"]').first().click();
			await openPanel(page, 'Get Status');
			await hint.first().waitFor({ state: 'visible', timeout: 60_000 });
			expect(await hint.first().innerText()).toContain(`set one of these (the path as written, then what is there now): ${suggestion}`);
			const [before] = await shownItems();
			expect(before).toMatchObject({ state: 'unknown', statusNote: expect.stringContaining(`To read this record, set one of these in the options: ${suggestion}`) });
			expect(before).not.toHaveProperty('statusWord');

			// follow it: Options → Add Option → Status Word Path, the path typed in; close the panel, run again
			await page.locator('[data-test-id="ndv"] input[placeholder="Add Option"]').first().click();
			await page.getByRole('option', { name: 'Status Word Path', exact: true }).first().click();
			await page.locator('[data-test-id="ndv"] [data-test-id="parameter-input-statusWordPath"] input').first().pressSequentially('result.main.stage');
			// (Escape only leaves the field: the panel's own close button)
			await page.locator('[data-test-id="ndv-close-button"]').first().click();
			await page.locator('[data-test-id="ndv"]').first().waitFor({ state: 'hidden', timeout: 10_000 });
			await page.locator('[data-test-id="execute-workflow-button"]').first().click();
			await openPanel(page, 'Get Status');
			await output.getByText('"statusWord"').first().waitFor({ state: 'visible', timeout: 60_000 });
			const [after] = await shownItems();
			expect(after).toMatchObject({ state: 'running', statusWord: 'generating', statusNote: '(The word was read from result.main.stage.)' });
			expect(await hint.count()).toBe(0);
			await closePanel(page);
			// and n8n saved it (its autosave): every later run reads the word, not only this editor's
			const saved = async () => (await n8n.getWorkflow(id)).nodes.find((n: { name: string }) => n.name === 'Get Status')?.parameters.options;
			for (let i = 0; i < 20 && (await saved())?.statusWordPath === undefined; i++) await page.waitForTimeout(500);
			expect(await saved()).toEqual({ statusWordPath: 'result.main.stage' });
		} finally {
			await unreadable.close();
		}
		seconds.recordToRead = (Date.now() - t) / 1000;
		expect(takeErrors().map((e) => `a record to read: ${e}`)).toEqual([]);
	});

	test.each(PANELS.filter((p) => p.added).map((p) => [panelName(p), p] as const))('a new %s, added from the node creator', async (_name, panel) => {
		const t = Date.now();
		const page = editor.page;
		const added = panel.added!;
		const where = `new ${panelName(panel)}`;
		await addNodeFromCreator(page, n8n, added.node, added.action);
		for (const [parameter, option] of Object.entries(added.pick ?? {})) await pickOption(page, parameter, option);
		const problems = panelProblems(where, panel, await readPanel(page));
		await closePanel(page);
		const canvas = await readCanvas(page);
		const node = canvas.nodes.find((n) => n.type === `${PACKAGE}.${panel.node}`);
		if (!node) problems.push(`${where}: not on the canvas`);
		else if (outputsOf(node) !== panel.outputs.join(' | ')) problems.push(`${where}: outputs ${outputsOf(node)}, the table says ${panel.outputs.join(' | ')}`);
		problems.push(...canvasProblems(where, canvas, (name) => name === node?.name && (panel.toFill?.length ?? 0) > 0));
		problems.push(...takeErrors().map((e) => `${where}: ${e}`));
		seconds.newNodes = (seconds.newNodes ?? 0) + (Date.now() - t) / 1000;
		expect(problems).toEqual([]);
	});

	// CI keeps no picture: it skips them (DECKGEN_EDITOR_PICTURES=0), a developer's run writes them
	const pictures = process.env.DECKGEN_EDITOR_PICTURES === '0' ? test.skip : test;
	pictures("the README's pictures, from this n8n: written to .github/assets", async () => {
		const t = Date.now();
		const lines: string[] = [];
		for (const shot of SHOTS) lines.push(await takeShot({ n8n, page: editor.page, workflowOf }, shot));
		console.log(`E2E editor ${flavor}: pictures\n  ${lines.join('\n  ')}`);
		seconds.pictures = (Date.now() - t) / 1000;
		expect(lines).toHaveLength(SHOTS.length);
		expect(takeErrors()).toEqual([]);
	});
});
