/**
 * Our nodes against the shapes of real asynchronous generation APIs (issues 31, 37, 39, 43; test/simulator/services.ts
 * and README "Real services modelled"). For every shape, over real HTTP on loopback with the simulator's manual
 * clock: a queued or running deck (previews, stage words, a link to its future file that answers 404 included) is
 * never Completed nor Failed by Get Status, Check Once, Wait Until Done or the AI tools, and Download refuses it;
 * `deckUrl` on a running or failed item is absent or the deck's file, never a preview, an app page, an input
 * document or an intermediate file; a finished or partial deck is Completed by all of them at the first read that
 * sees it, with `deckUrl` the deck file, and Download fetches the deck's bytes (a PPTX by its structure); a deck
 * failed by each kind the shape has (error, timeout, abort, cancel, moderation) is Failed at the first read after
 * it ended, with the service's reason where it gives one (in a sub-task, inside a JSON string, under a member no
 * list names) in the item and the tools' messages, and Wait Until Done does not wait out Max Wait for it. A
 * finished deck whose address serves something else (a sign-in page, an image, an S3 error with a 200) is never
 * handed over as the deck. SERVICE_SHAPES says what a correct client must conclude, so nothing here hard-codes a
 * service's words.
 */
import type { INodeParameters } from 'n8n-workflow';
import { request } from 'undici';

import { runWorkflow } from '../../harness';
import {
	FAILURE_KINDS,
	FAILURE_REASONS,
	SERVICE_SHAPES,
	SERVICE_SHAPE_NAMES,
	readDeckFile,
	start,
	valueAt,
	type FailureKind,
	type FileContent,
	type ProfileChoices,
	type ServiceShape,
	type ServiceShapeSpec,
	type Simulator,
} from '../../simulator';
import { credentialFor } from '../credential';
import { continueErrorOutput, jsonOf, loadWorkflow, runWith } from '../deckgen/fixture';
import { callTool, exampleTool } from '../tool/tool';
import { askTools, fileRequestsFor, verdicts, waitFor as waitForDecks } from '../readers';
import { afterStatusReads, loadWorkflow as loadWaitWorkflow, statusReads, WAIT_NODE } from '../wait/run';

const MINUTE = 60_000;

/** Short waits in real time: a correct node answers a finished or failed deck at its first read. */
const MAX_WAIT_MINUTES = 0.01; // 0.6 s
const POLL_SECONDS = 0.05;

type Mode = 'checkOnce' | 'waitUntilDone';

/** The Wait node on one deck, in a mode, with short waits (Max Wait `maxWaitMinutes`). */
async function waitFor(sim: Simulator, taskId: string, mode: Mode, maxWaitMinutes = MAX_WAIT_MINUTES) {
	const workflow = loadWaitWorkflow(mode === 'checkOnce' ? 'check-once' : 'wait-until-done');
	const node = workflow.nodes.find((n) => n.name === WAIT_NODE)!;
	node.parameters = { ...node.parameters, mode, options: { pollIntervalSeconds: POLL_SECONDS, maxWaitMinutes } as INodeParameters };
	const started = Date.now();
	const result = await runWorkflow(workflow, { credentials: { deckGenApi: credentialFor(sim, sim.keys.personal) }, inputItems: [{ json: { taskId } }] });
	const [completed = [], failed = [], stillRunning = []] = result.outputs(WAIT_NODE);
	return { completed: jsonOf(completed), failed: jsonOf(failed), stillRunning: jsonOf(stillRunning), realMs: Date.now() - started };
}

/** Get Status or Download of one deck, on the error output when it fails. */
async function deckOperation(sim: Simulator, operation: 'get-status' | 'download', taskId: string) {
	const result = await runWith(sim, continueErrorOutput(loadWorkflow(operation)), sim.keys.personal, [{ taskId }]);
	return { success: result.output('Success'), errors: jsonOf(result.output('Errors')) };
}

/** The status record as the service sends it (for the paths SERVICE_SHAPES names). */
async function rawStatus(sim: Simulator, taskId: string): Promise<unknown> {
	const res = await request(`${sim.url}/v1/decks/${taskId}/status`, { headers: { authorization: `Bearer ${sim.keys.personal}` } });
	const text = await res.body.text();
	return text ? JSON.parse(text) : undefined;
}

/** The deck file's link in a finished record (the first of SERVICE_SHAPES' deck paths), absolute. */
async function deckFileLink(sim: Simulator, spec: ServiceShapeSpec, taskId: string): Promise<string> {
	const body = await rawStatus(sim, taskId);
	return new URL(String(valueAt(body, spec.deckLinksAt[0])), sim.url).toString();
}

/** The links at these paths of a record (through JSON strings too), absolute. */
function linksAt(sim: Simulator, body: unknown, paths: string[]): string[] {
	return paths
		.map((path) => valueAt(body, path))
		.filter((value): value is string => typeof value === 'string' && /^(https?:\/\/|\/)/.test(value))
		.map((value) => new URL(value, sim.url).toString());
}

/**
 * What `deckUrl` may be on an item of a deck that is not finished (running, or failed), read from the record the
 * service sent: the deck's file where the record names it before it exists (`fileBeforeReady`), else nothing.
 * Never one of the record's other links (previews, app pages, input documents, intermediate files).
 */
function unfinishedDeckUrls(sim: Simulator, spec: ServiceShapeSpec, body: unknown): { allowed: string[]; others: string[] } {
	const allowed = spec.fileBeforeReady ? linksAt(sim, body, spec.deckLinksAt) : [];
	const others = linksAt(sim, body, [...spec.otherLinksAt, ...spec.runningLinksAt, ...spec.deckLinksAt]).filter((link) => !allowed.includes(link));
	return { allowed, others };
}

/** An item's `deckUrl` is absent, or one of the allowed links (never an app page, a preview, an input document). */
function expectDeckUrlAbsentOr(item: Record<string, unknown>, where: string, { allowed, others }: { allowed: string[]; others: string[] }): void {
	const deckUrl = item.deckUrl as string | undefined;
	if (deckUrl === undefined) return;
	const reading = { where, deckUrl, anotherLinkOfTheRecord: others.includes(deckUrl), theDeckFile: allowed.includes(deckUrl) };
	expect(reading).toEqual({ where, deckUrl, anotherLinkOfTheRecord: false, theDeckFile: true });
}

/** Words a service puts beside a failed deck about the request ("Success", "SUCCEED"): never a deck's reason. */
function envelopeWords(spec: (typeof SERVICE_SHAPES)[keyof typeof SERVICE_SHAPES]): string[] {
	return Object.values(spec.envelopeSuccess ?? {}).filter((value): value is string => typeof value === 'string');
}

describe.each(SERVICE_SHAPE_NAMES)('our nodes against the shape of %s', (service) => {
	const spec = SERVICE_SHAPES[service as Exclude<ServiceShape, 'none'>];
	let sim: Simulator;
	const seed = (outcome: 'succeeded' | 'failed' | 'partial', durationMs: number, failureKind?: FailureKind, endingMs?: number) =>
		sim.control.seedDeck({ key: sim.keys.personal, durationMs, outcome, ...(failureKind ? { failureKind } : {}), ...(endingMs ? { endingMs } : {}) });

	/** Three decks of 100 minutes on their way: just queued, at 25 % and at 85 % of their run. */
	const decksOnTheWay = (): string[] => {
		const late = seed('succeeded', 100 * MINUTE);
		sim.control.advance(60 * MINUTE);
		const early = seed('succeeded', 100 * MINUTE);
		sim.control.advance(25 * MINUTE);
		return [seed('succeeded', 100 * MINUTE), early, late];
	};

	beforeAll(async () => {
		sim = await start({ seed: 131, clock: { manual: true }, choices: { service }, limits: { maxConcurrentDecks: 1_000 } });
	});
	afterAll(async () => await sim.close());

	test('a queued or running deck (with whatever it shows before the end) is neither Completed nor Failed by any reader', async () => {
		// one deck just queued, one early and one late in its run (each running word a shape has on the way: previews,
		// stage words, a fraction of progress where the shape has them)
		for (const taskId of decksOnTheWay()) {
			const [status] = jsonOf((await deckOperation(sim, 'get-status', taskId)).success);
			expect(['running', 'unknown']).toContain(status.state);
			// every queued or running word of a modelled service is on the built-in lists, so none is reported as
			// "a word on no list" (a service's own stage words, Suno's TEXT_SUCCESS, rightly are)
			const word = spec.wordAt ? valueAt(await rawStatus(sim, taskId), spec.wordAt) : undefined;
			if (!spec.words.stages?.includes(String(word))) expect(String(status.statusNote ?? '')).not.toContain('a word on no Status Words list');

			const once = await waitFor(sim, taskId, 'checkOnce');
			expect({ completed: once.completed, failed: once.failed, still: once.stillRunning.length }).toEqual({ completed: [], failed: [], still: 1 });

			const wait = await waitFor(sim, taskId, 'waitUntilDone');
			expect({ completed: wait.completed, failed: wait.failed, still: wait.stillRunning.length }).toEqual({ completed: [], failed: [], still: 1 });
			expect(wait.stillRunning[0].polls as number).toBeGreaterThanOrEqual(2);

			for (const tool of ['Get Deck Status', 'Check Deck']) {
				const { answer } = await callTool(sim, exampleTool(tool), { taskId });
				expect(['running', 'unknown']).toContain(answer[0].state);
				expect(answer[0].message).not.toMatch(/is ready|Deck \S+ failed/);
			}

			const download = await deckOperation(sim, 'download', taskId);
			expect(download.success).toEqual([]);
			expect(download.errors).toHaveLength(1);
		}
	});

	test('a queued or running deck: deckUrl on every reader’s item is absent or the deck’s future file, never another link of its record', async () => {
		for (const taskId of decksOnTheWay()) {
			const links = unfinishedDeckUrls(sim, spec, await rawStatus(sim, taskId));
			const [status] = jsonOf((await deckOperation(sim, 'get-status', taskId)).success);
			expectDeckUrlAbsentOr(status, 'Get Status', links);
			for (const mode of ['checkOnce', 'waitUntilDone'] as const) {
				for (const item of Object.values(await waitFor(sim, taskId, mode)).filter(Array.isArray).flat()) expectDeckUrlAbsentOr(item, mode, links);
			}
			for (const tool of ['Get Deck Status', 'Check Deck']) expectDeckUrlAbsentOr((await callTool(sim, exampleTool(tool), { taskId })).answer[0], tool, links);
		}
	});

	test('Wait Until Done sees a running deck through to its end: Completed after it finished, not at a read before', async () => {
		const taskId = seed('succeeded', 100 * MINUTE);
		sim.control.advance(85 * MINUTE);
		// the deck finishes once the node has read it three times
		const cancel = afterStatusReads(sim, statusReads(sim).length + 3, () => sim.control.advance(20 * MINUTE));
		const wait = await waitFor(sim, taskId, 'waitUntilDone', 0.05);
		cancel();
		expect(wait.completed).toHaveLength(1);
		expect(wait.completed[0].polls as number).toBeGreaterThanOrEqual(4);
		expect(wait.completed[0].deckUrl).toBe(await deckFileLink(sim, spec, taskId));
	});

	test.each(['succeeded', 'partial'] as const)('a %s deck is Completed by every reader with deckUrl the deck file; Download fetches its bytes', async (outcome) => {
		const taskId = seed(outcome, MINUTE);
		sim.control.advance(2 * MINUTE);
		const file = await deckFileLink(sim, spec, taskId);

		const [status] = jsonOf((await deckOperation(sim, 'get-status', taskId)).success);
		expect(status).toMatchObject({ state: 'succeeded', deckUrl: file });

		for (const mode of ['checkOnce', 'waitUntilDone'] as const) {
			const wait = await waitFor(sim, taskId, mode);
			expect(wait.completed).toEqual([expect.objectContaining({ taskId, state: 'succeeded', outcome: 'completed', deckUrl: file, polls: 1 })]);
		}

		const tool = await callTool(sim, exampleTool('Get Deck Status'), { taskId });
		expect(tool.answer[0]).toMatchObject({ state: 'succeeded', deckUrl: file });
		expect(tool.answer[0].message).toContain(file);
		const check = await callTool(sim, exampleTool('Check Deck'), { taskId });
		expect(check.answer[0]).toMatchObject({ outcome: 'completed', deckUrl: file });

		const download = await deckOperation(sim, 'download', taskId);
		expect(download.errors).toEqual([]);
		// the deck's PPTX by its structure: a ZIP whose central directory names the presentation, which names the deck
		const bytes = readDeckFile(Buffer.from(download.success[0].binary!.data.data, 'base64'));
		expect(bytes).toMatchObject({ format: 'pptx', entries: expect.arrayContaining(['ppt/presentation.xml']) });
		expect(bytes.format === 'pptx' && bytes.presentation).toContain(taskId);
	});

	test.each(FAILURE_KINDS)('a deck failed by %s is Failed at the first read after it ended with the service reason, at the second with none', async (kind) => {
		const taskId = seed('failed', MINUTE, kind);
		sim.control.advance(2 * MINUTE);
		const reason = spec.reasonAt[kind] ? FAILURE_REASONS[kind].message : undefined;

		const [status] = jsonOf((await deckOperation(sim, 'get-status', taskId)).success);
		if (reason) expect(status.state).toBe('failed');
		// a failure word with no reason may be a stage (issue 50): one read says running, with the word to confirm
		const bare = status.state !== 'failed';
		if (bare) expect(status).toMatchObject({ state: 'running', failureToConfirm: status.statusWord });
		if (reason) expect(status.failureReason).toBe(reason);

		for (const mode of bare ? (['waitUntilDone'] as const) : (['checkOnce', 'waitUntilDone'] as const)) {
			const wait = await waitFor(sim, taskId, mode);
			expect({ completed: wait.completed, still: wait.stillRunning.length, failed: wait.failed.length }).toEqual({ completed: [], still: 0, failed: 1 });
			// at the first read with a reason, at the second without (it confirms the bare word): Wait Until Done does not wait out Max Wait for a deck that ended
			expect(wait.failed[0].polls).toBe(bare ? 2 : 1);
			if (reason) expect(wait.failed[0].detail).toBe(reason);
			// never the envelope's word about the request ("Success") as the deck's reason
			expect(envelopeWords(spec)).not.toContain(wait.failed[0].detail);
			// a Failed item says what failed, never an empty word (issue 43: a failure read from flags)
			expect(String(wait.failed[0].error ?? '')).not.toContain('status ""');
		}

		if (bare) {
			// one read, back to back with the others: never Failed on the bare word, and it says what it waits to confirm
			const once = await waitFor(sim, taskId, 'checkOnce');
			expect(once.stillRunning[0]).toMatchObject({ state: 'running', failureToConfirm: status.statusWord });
			const check = await callTool(sim, exampleTool('Check Deck'), { taskId });
			expect(check.answer[0].outcome).not.toBe('failed');
			return;
		}
		const tool = await callTool(sim, exampleTool('Get Deck Status'), { taskId });
		expect(tool.answer[0].state).toBe('failed');
		if (reason) expect(tool.answer[0].message).toContain(reason);
		const check = await callTool(sim, exampleTool('Check Deck'), { taskId });
		expect(check.answer[0].outcome).toBe('failed');
		for (const answer of [tool.answer[0], check.answer[0]]) expect(String(answer.message)).not.toContain('status ""');

		const download = await deckOperation(sim, 'download', taskId);
		expect(download.success).toEqual([]);
	});

	// (a shape that gives no reason for any kind has nothing to say here)
	const kindsWithReason = FAILURE_KINDS.filter((kind) => spec.reasonAt[kind]);
	test('the Check Deck tool’s message says a deck failed, and why wherever the service gives our reason', async () => {
		for (const kind of FAILURE_KINDS.filter((each) => !spec.reasonAt[each])) {
			const taskId = seed('failed', MINUTE, kind);
			sim.control.advance(2 * MINUTE);
			const check = await callTool(sim, exampleTool('Check Deck'), { taskId });
			// a failure word with no reason is confirmed on a later read (issue 50): one call says so, never failed
			if (check.answer[0].outcome !== 'failed') {
				expect({ kind, outcome: check.answer[0].outcome }).toEqual({ kind, outcome: expect.not.stringMatching(/^failed$/) });
				continue;
			}
			// the word the record says, never an empty one (issue 43), then the service's code where it gives one
			// (Shopify's errorCode) or that there is nothing more to wait for
			expect({ kind, outcome: check.answer[0].outcome, message: check.answer[0].message }).toEqual({ kind, outcome: 'failed', message: expect.stringMatching(/^Deck \S+ failed \(status "[^"]+"\)(: \S.*|[\s\S]*Tell the person; there is nothing more to wait for\.)$/) });
		}
		for (const kind of kindsWithReason) {
			const taskId = seed('failed', MINUTE, kind);
			sim.control.advance(2 * MINUTE);
			const check = await callTool(sim, exampleTool('Check Deck'), { taskId });
			expect({ kind, outcome: check.answer[0].outcome, message: check.answer[0].message }).toEqual({ kind, outcome: 'failed', message: expect.stringContaining(FAILURE_REASONS[kind].message) });
		}
	});

	test('a failed deck: deckUrl on every reader’s item is absent or the file its record named, never another link of its record', async () => {
		for (const kind of FAILURE_KINDS) {
			const taskId = seed('failed', MINUTE, kind);
			sim.control.advance(2 * MINUTE);
			const links = unfinishedDeckUrls(sim, spec, await rawStatus(sim, taskId));
			const [status] = jsonOf((await deckOperation(sim, 'get-status', taskId)).success);
			expectDeckUrlAbsentOr(status, `Get Status (${kind})`, links);
			for (const mode of ['checkOnce', 'waitUntilDone'] as const) {
				for (const item of Object.values(await waitFor(sim, taskId, mode)).filter(Array.isArray).flat()) expectDeckUrlAbsentOr(item, `${mode} (${kind})`, links);
			}
			for (const tool of ['Get Deck Status', 'Check Deck']) expectDeckUrlAbsentOr((await callTool(sim, exampleTool(tool), { taskId })).answer[0], `${tool} (${kind})`, links);
		}
	});

	test('a deck ending by timeout or abort is still running while it ends, and Failed once it ended', async () => {
		for (const kind of ['timeout', 'aborted'] as const) {
			const taskId = seed('failed', 20 * MINUTE, kind, 5 * MINUTE);
			sim.control.advance(17 * MINUTE);
			const ending = await waitFor(sim, taskId, 'checkOnce');
			expect({ completed: ending.completed, failed: ending.failed, still: ending.stillRunning.length }).toEqual({ completed: [], failed: [], still: 1 });
			sim.control.advance(4 * MINUTE);
			// ended: Failed, at once with a reason, else once a later read confirms the bare word (issue 50)
			const ended = await waitFor(sim, taskId, 'checkOnce');
			if (ended.failed.length) continue;
			expect(ended.stillRunning[0]).toMatchObject({ failureToConfirm: expect.any(String) });
			expect((await waitFor(sim, taskId, 'waitUntilDone')).failed).toHaveLength(1);
		}
	});
});

/** The words each shape uses, for the record of what the suite ran against (and a guard that the table is whole). */
test('every modelled service names its documentation and its words for every outcome', () => {
	for (const name of SERVICE_SHAPE_NAMES) {
		const spec = SERVICE_SHAPES[name];
		expect(spec.doc).toMatch(/^https:\/\//);
		expect(Object.keys(spec.words.failed).sort()).toEqual([...FAILURE_KINDS].sort());
		expect(spec.deckLinksAt.length).toBeGreaterThan(0);
	}
	expect(SERVICE_SHAPE_NAMES.length).toBeGreaterThanOrEqual(37);
	const kinds = new Set(SERVICE_SHAPE_NAMES.map((name) => SERVICE_SHAPES[name].kind));
	expect(kinds).toEqual(new Set(['slides', 'image', 'video', 'audio', 'platform', '3d', 'conversion']));
	// the classes of issues 37 and 39 each have a shape: a link before its file, a word under `ok`, a reason in a
	// sub-task and inside a JSON string, terminal words with spaces
	const specs = SERVICE_SHAPE_NAMES.map((name) => SERVICE_SHAPES[name]);
	expect(specs.filter((spec) => spec.fileBeforeReady).every((spec) => spec.runningLinksAt.includes(spec.deckLinksAt[0]))).toBe(true);
	expect(specs.some((spec) => spec.fileBeforeReady)).toBe(true);
	expect(specs.some((spec) => spec.wordAt === 'ok')).toBe(true);
	expect(specs.some((spec) => Object.values(spec.reasonAt).some((at) => /\[\d+\]\.message$/.test(at ?? '')))).toBe(true);
	expect(specs.some((spec) => spec.deckLinksAt.some((at) => at.includes('resultJson.')))).toBe(true);
	expect(specs.some((spec) => Object.values(spec.words.failed).some((word) => word.includes(' ')))).toBe(true);
	// and those of issue 43: the word two envelopes down (an API envelope around named variants, a GraphQL
	// `data.<field>`), no word at all (only flags), an outcome one member below a word that only says it ended
	expect(specs.filter((spec) => (spec.wordAt ?? '').split('.').length >= 3).map((spec) => spec.wordAt)).toEqual(expect.arrayContaining(['result.default.status', 'data.node.status']));
	expect(specs.filter((spec) => !spec.wordAt && spec.flags && Object.keys(spec.flags.failed).some((flag) => flag !== 'done')).length).toBeGreaterThanOrEqual(1);
	expect(specs.filter((spec) => spec.conclusionAt && spec.endedWord).length).toBeGreaterThanOrEqual(2);
	// and those of issue 50 B: a dotted word, a prefixed hyphen-joined one, a moderation verdict as the word, a failed
	// job's record carried by a 504
	const words = (spec: ServiceShapeSpec) => [...spec.words.queued, ...spec.words.running, spec.words.succeeded, ...Object.values(spec.words.failed)];
	expect(specs.some((spec) => words(spec).includes('job.failed'))).toBe(true);
	expect(specs.some((spec) => words(spec).includes('processing-error'))).toBe(true);
	expect(specs.some((spec) => spec.words.failed.moderated === 'nsfw')).toBe(true);
	expect(specs.some((spec) => Object.values(spec.failedStatus ?? {}).includes(504))).toBe(true);
});

/**
 * A finished deck whose file address serves something else with a 200 (a CDN's sign-in page, an image, S3's
 * error document): whatever a reader concludes about the deck, what it hands over as the deck is a deck by its
 * own bytes. Download and Wait Until Done with Download File on never put such a file out as the deck.
 */
describe.each(['html', 'image', 'xml-error'] as const)('a finished deck whose address serves %s with a 200', (fileContent: Exclude<FileContent, 'deck'>) => {
	describe.each(['none', 'creatomate', 'kieai'] as const)('(service %s)', (service) => {
		let sim: Simulator;
		beforeAll(async () => {
			sim = await start({ seed: 137, clock: { manual: true }, choices: { fileContent, service } });
		});
		afterAll(async () => await sim.close());

		const finishedDeck = () => {
			const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: MINUTE, outcome: 'succeeded' });
			sim.control.advance(2 * MINUTE);
			return taskId;
		};

		test('Download never hands it over as the deck', async () => {
			const download = await deckOperation(sim, 'download', finishedDeck());
			expect(download.success).toEqual([]);
			expect(download.errors).toHaveLength(1);
		});

		test('Wait Until Done with Download File never puts it out on Completed as the deck', async () => {
			const workflow = loadWaitWorkflow('download');
			const node = workflow.nodes.find((n) => n.name === WAIT_NODE)!;
			node.parameters = { ...node.parameters, options: { ...(node.parameters.options as INodeParameters), pollIntervalSeconds: POLL_SECONDS, maxWaitMinutes: MAX_WAIT_MINUTES } };
			const result = await runWorkflow(workflow, { credentials: { deckGenApi: credentialFor(sim, sim.keys.personal) }, inputItems: [{ json: { taskId: finishedDeck() } }] });
			const [completed = []] = result.outputs(WAIT_NODE);
			const handedOver = completed.flatMap((item) => Object.values(item.binary ?? {}).map((binary) => ({ mimeType: binary.mimeType, reading: readDeckFile(Buffer.from(binary.data, 'base64')).format })));
			expect(handedOver.filter((file) => file.reading === 'other')).toEqual([]);
		});
	});
});

/**
 * Issue 43, the over-reach side of "the word at any depth": where the job's own word is not in the record (choice
 * `omitStatusWord`), the statuses that remain belong to a part of the job, not to the job: an export format's
 * (the profile's `formats.pdf.status: "failed"` beside a partial deck), a sub-task's (CloudConvert's `tasks[]`, the
 * import task `finished` while the job works), an input file's (a record's `input.status`). None of them decides the
 * deck: every reader reads it as it would with no such member (running: Still Running; the deck's file there:
 * Completed), and none of their links is `deckUrl`.
 */
describe('over-reach: a part’s own status is not the job’s (issue 43)', () => {
	const simWith = async (choices: Partial<ProfileChoices>) => await start({ seed: 143, clock: { manual: true }, choices: { omitStatusWord: true, ...choices }, limits: { maxConcurrentDecks: 1_000 } });

	test.each([
		['its word `partial`', false],
		['no word of its own', true],
	] as const)("an export format's `failed` (formats.pdf.status) beside a partial deck with %s: Completed by every reader with the pptx", async (_, omitStatusWord) => {
		const sim = await simWith({ omitStatusWord });
		try {
			const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: MINUTE, outcome: 'partial' });
			sim.control.advance(2 * MINUTE);
			const record = (await rawStatus(sim, taskId)) as Record<string, unknown>;
			expect(record[sim.profile.statusMember]).toBe(omitStatusWord ? undefined : 'partial');
			expect(record).toMatchObject({ formats: { pptx: { status: 'ready' }, pdf: { status: 'failed' } } });
			// the profile's own link to the pptx (the reference's `deckUrl`, profile B's `files.pptx`)
			const [pptx] = linksAt(sim, record, ['deckUrl', 'files.pptx']);
			const { status, routed } = await verdicts(sim, taskId);
			expect({ state: status.state, deckUrl: status.deckUrl, routed }).toEqual({ state: 'succeeded', deckUrl: pptx, routed: { checkOnce: 'completed', waitUntilDone: 'completed' } });
			for (const answer of Object.values(await askTools(sim, taskId))) expect(answer.state ?? answer.outcome).toMatch(/succeeded|completed/);
		} finally {
			await sim.close();
		}
	});

	test("a sub-task's `finished` (CloudConvert's import task) while the job works, with no word of the job's own: Still Running, the input never deckUrl; the finished job Completed with its export", async () => {
		const sim = await simWith({ service: 'cloudconvert' });
		try {
			const running = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 100 * MINUTE, outcome: 'succeeded' });
			sim.control.advance(40 * MINUTE);
			const record = await rawStatus(sim, running);
			expect(valueAt(record, 'data.status')).toBeUndefined();
			expect(valueAt(record, 'data.tasks[0].status')).toBe('finished');
			const input = new URL(String(valueAt(record, 'data.tasks[0].payload.url'))).toString();
			const { status, routed, items } = await verdicts(sim, running);
			expect({ state: status.state, routed }).toEqual({ state: expect.stringMatching(/^(running|unknown)$/), routed: { checkOnce: 'still running', waitUntilDone: 'still running' } });
			for (const item of [status, ...Object.values(items)]) expect(item?.deckUrl).not.toBe(input);
			for (const answer of Object.values(await askTools(sim, running))) expect(String(answer.message)).not.toMatch(/is ready|Deck \S+ failed/);

			const finished = sim.control.seedDeck({ key: sim.keys.personal, durationMs: MINUTE, outcome: 'succeeded' });
			sim.control.advance(2 * MINUTE);
			const done = await verdicts(sim, finished);
			const exported = new URL(String(valueAt(await rawStatus(sim, finished), SERVICE_SHAPES.cloudconvert.deckLinksAt[0])), sim.url).toString();
			expect({ state: done.status.state, deckUrl: done.status.deckUrl, routed: done.routed }).toEqual({ state: 'succeeded', deckUrl: exported, routed: { checkOnce: 'completed', waitUntilDone: 'completed' } });
		} finally {
			await sim.close();
		}
	});

	test("an input file's `completed` (input.status) beside a running deck with no word of its own: Still Running, the input never deckUrl", async () => {
		const sim = await simWith({ statusExtras: (deck) => ({ input: { name: 'brief.docx', status: 'completed', url: deck.input() } }) });
		try {
			const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 100 * MINUTE, outcome: 'succeeded' });
			sim.control.advance(40 * MINUTE);
			const record = (await rawStatus(sim, taskId)) as Record<string, Record<string, unknown>>;
			expect(record.input).toMatchObject({ status: 'completed' });
			const { status, routed, items } = await verdicts(sim, taskId);
			expect({ state: status.state, routed }).toEqual({ state: expect.stringMatching(/^(running|unknown)$/), routed: { checkOnce: 'still running', waitUntilDone: 'still running' } });
			for (const item of [status, ...Object.values(items)]) expect(item?.deckUrl).toBeUndefined();
			for (const answer of Object.values(await askTools(sim, taskId))) expect(String(answer.message)).not.toMatch(/is ready|Deck \S+ failed/);
		} finally {
			await sim.close();
		}
	});
});

/**
 * Issue 43, point 2: a record with no word (Cloudflare's, without its `status`) whose file answers 404 at the
 * first check and appears later while the record does not move at all (held, the clock still): Wait Until Done
 * looks again on a schedule of its own and completes the deck before Max Wait, and the file checks stay bounded
 * (never more than the status reads).
 */
describe('a file checked again: no word, and the file appears while the record stands still (issue 43)', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await start({ seed: 144, clock: { manual: true }, choices: { service: 'cloudflare', omitStatusWord: true }, limits: { maxConcurrentDecks: 1_000 } });
	});
	afterAll(async () => await sim.close());

	test('Wait Until Done completes the deck once its file is there, with no more file checks than status reads', async () => {
		const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 100 * MINUTE, outcome: 'succeeded' });
		sim.control.advance(40 * MINUTE);
		sim.control.holdDeck(taskId, true);
		const link = new URL(String(valueAt(await rawStatus(sim, taskId), 'result.default.url')), sim.url).toString();
		const readsBefore = statusReads(sim).length;
		// the file appears after the node's third read; the record stays exactly as it was
		const cancel = afterStatusReads(sim, readsBefore + 3, () => sim.control.setFileReady(taskId, true));
		const wait = await waitForDecks(sim, [taskId], 'waitUntilDone', 0.1);
		cancel();
		const reads = statusReads(sim).length - readsBefore;
		const checks = fileRequestsFor(sim, link);
		expect({ completed: wait.completed.map((item) => item.deckUrl), still: wait.stillRunning.length }).toEqual({ completed: [link], still: 0 });
		// it was checked while not there (404), and again once there
		expect(checks[0]?.status).toBe(404);
		expect(checks.some((check) => check.status === 200 || check.status === 206)).toBe(true);
		expect(checks.length).toBeLessThanOrEqual(reads + 1);
	});
});
