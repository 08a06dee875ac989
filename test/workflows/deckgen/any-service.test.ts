/**
 * Any legal service, round 2 (issue 16): readings of the contract's gaps that an independent
 * implementation made, each on the simulator over real HTTP (test/simulator/profile.ts):
 * the uploaded material's id under other names, a list field of the brief that comes out empty,
 * 402 options as plain cta strings, the service's own `links` / `deckUrl`, Download keeping the
 * input item, and a 401 on a link that is the service under another host name.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { start, type ProfileChoices, type Simulator } from '../../simulator';
import { runWait } from '../wait/run';
import { brief, continueErrorOutput, jsonOf, loadWorkflow, runWith, withListFields } from './fixture';

const PDF = Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const MINUTE = 60_000;

const pdfItem = (json: IDataObject = {}): INodeExecutionData => ({
	json,
	binary: { data: { data: PDF.toString('base64'), mimeType: 'application/pdf', fileName: 'brief.pdf' } },
});

describe.each<ProfileChoices['materialResponse']>(['reference', 'plain', 'snake', 'data', 'jsonapi'])(
	'the upload record as %s: Upload → Create with {{ $json.materialId }} buys the deck with its material',
	(materialResponse) => {
		let sim: Simulator;
		beforeAll(async () => {
			sim = await start({ seed: 161, clock: { manual: true }, choices: { materialResponse } });
		});
		afterAll(async () => await sim.close());

		test('materialId found, and the deck was bought with it', async () => {
			const { key } = sim.control.createAccount({ balance: 100, subscriber: true });
			const result = await runWith(sim, loadWorkflow('upload-then-create'), key, [pdfItem()]);
			const [uploaded] = jsonOf(result.output('Upload'));
			expect(uploaded).toMatchObject({ outcome: 'success', materialId: expect.stringMatching(/^mat_/) });
			const [created] = jsonOf(result.output('Created'));
			expect(created.taskId).toEqual(expect.any(String));
			expect(sim.control.deck(created.taskId as string)?.materialIds).toEqual([uploaded.materialId]);
		});
	},
);

describe('integer material ids (beyond the six points: the contract leaves material_ids untyped)', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await start({ seed: 168, clock: { manual: true }, choices: { materialResponse: 'plain', materialIdType: 'integer' } });
	});
	afterAll(async () => await sim.close());

	test('an id issued as a number goes back as a number, and the strict service buys the deck with it', async () => {
		const { key } = sim.control.createAccount({ balance: 100, subscriber: true });
		const result = await runWith(sim, loadWorkflow('upload-then-create'), key, [pdfItem()]);
		const [uploaded] = jsonOf(result.output('Upload'));
		expect(uploaded.materialId).toEqual(expect.any(Number));
		expect(result.output('Create Errors')).toHaveLength(0);
		const [created] = jsonOf(result.output('Created'));
		expect(sim.control.deck(created.taskId as string)?.materialIds).toEqual([String(uploaded.materialId)]);
	});
});

describe('an upload answer with no id the node can find', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await start({ seed: 162, clock: { manual: true }, choices: { materialResponse: 'ref' } });
	});
	afterAll(async () => await sim.close());

	test('is an error keeping the whole answer, and nothing is bought after it', async () => {
		const { key, principalId } = sim.control.createAccount({ balance: 100, subscriber: true });
		const result = await runWith(sim, loadWorkflow('upload-then-create'), key, [pdfItem()]);
		const [error] = jsonOf(result.output('Upload Errors'));
		expect(error.error).toMatchObject({ message: expect.stringMatching(/answered 201 without "materialId"/) });
		expect(JSON.stringify(error)).toMatch(/"ref":"mat_/);
		expect(result.output('Created')).toHaveLength(0);
		expect(sim.ledger.totalCharged(principalId)).toBe(0);
	});
});

describe('a list of the brief that is set but comes out empty stops the item before anything is bought', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await start({ seed: 163, clock: { manual: true }, limits: { maxConcurrentDecks: 100 } });
	});
	afterAll(async () => await sim.close());

	const posts = () => sim.ledger.requests.filter((r) => r.method === 'POST').length;

	test.each<[string, Record<string, unknown>, RegExp]>([
		['Material IDs evaluating to nothing', { material_ids: undefined }, /^Material IDs is set but evaluated to nothing \(got undefined\); nothing was sent/],
		['Material IDs with an empty entry', { material_ids: ['mat_1', null] }, /^Material IDs has an empty entry \(entry 2 of \["mat_1",null\]\); nothing was sent/],
		['Material IDs as text with an empty entry', { material_ids: 'mat_1,,mat_2' }, /^Material IDs has an empty entry \(entry 2 of "mat_1,,mat_2"\)/],
		['Additional Languages as empty text', { additional_languages: '' }, /^Additional Languages is set but evaluated to nothing/],
		['Additional Languages as an empty array', { additional_languages: [] }, /^Additional Languages is set but evaluated to nothing \(got \[\]\)/],
	])('Create: %s', async (_name, fields, message) => {
		const before = posts();
		// Only the field under test reads the item; the other one is left empty on the form (not set).
		const workflow = withListFields(continueErrorOutput(loadWorkflow('create')));
		const additional = workflow.nodes[1].parameters.additionalFields as Record<string, unknown>;
		if ('material_ids' in fields) additional.additionalLanguages = '';
		else additional.materialIds = '';
		const item = brief(fields);
		const result = await runWith(sim, workflow, sim.keys.personal, [item]);
		const [error] = jsonOf(result.output('Errors'));
		expect(error.error).toMatchObject({ message: expect.stringMatching(message) });
		expect(String(error.message)).toMatch(/would buy the deck without/);
		expect(posts()).toBe(before);
	});

	test('Translate: Languages with an empty entry', async () => {
		const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 0 });
		const before = posts();
		const result = await runWith(sim, continueErrorOutput(loadWorkflow('translate')), sim.keys.personal, [{ taskId, languages: ['de', ''], expected_credits: 10 }]);
		const [error] = jsonOf(result.output('Errors'));
		expect(error.error).toMatchObject({ message: expect.stringMatching(/^Languages has an empty entry \(entry 2 of \["de",""\]\)/) });
		expect(posts()).toBe(before);
	});

	test('a field left empty on the form is not set: the deck is bought without it, as before', async () => {
		const workflow = withListFields(loadWorkflow('create'));
		(workflow.nodes[1].parameters.additionalFields as Record<string, unknown>).materialIds = '';
		(workflow.nodes[1].parameters.additionalFields as Record<string, unknown>).additionalLanguages = '';
		const result = await runWith(sim, workflow, sim.keys.personal, [brief()]);
		expect(jsonOf(result.output('Success'))[0]).toMatchObject({ outcome: 'success', taskId: expect.any(String) });
	});
});

describe('402 options as plain cta strings', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await start({ seed: 164, clock: { manual: true }, choices: { paymentCta: 'options-strings', orgSpendDisabledStatus: 402 } });
	});
	afterAll(async () => await sim.close());

	test('a surcharge (["confirm_slide_surcharge", "upgrade_for_slides"]) goes to the approval step, grouped and split', async () => {
		const { key } = sim.control.createAccount({ balance: 200, subscriber: true });
		const grouped = await runWith(sim, continueErrorOutput(loadWorkflow('create')), key, [brief({ slide_count: 20 })]);
		const [item] = jsonOf(grouped.output('Client Action'));
		expect(item).toMatchObject({ cta: 'confirm_slide_surcharge', options: ['confirm_slide_surcharge', 'upgrade_for_slides'], credits: 20 });
		expect(item.ctaInferred).toBeUndefined();
		expect(grouped.output('Checkout')).toHaveLength(0);
		const split = await runWith(sim, continueErrorOutput(loadWorkflow('create-split')), key, [brief({ slide_count: 20 })]);
		expect(jsonOf(split.output('Confirm Slide Surcharge'))).toHaveLength(1);
	});

	test('manage_decks (["manage_decks"]) is a client action, never "buy credits"', async () => {
		const result = await runWith(sim, continueErrorOutput(loadWorkflow('create')), sim.keys.orgSpendOff, [brief()]);
		const [item] = jsonOf(result.output('Client Action'));
		expect(item).toMatchObject({ cta: 'manage_decks', options: ['manage_decks'] });
		expect(String(item.message)).not.toMatch(/buy credits/i);
	});
});

describe('the service’s own `links` and `deckUrl` (HAL style) are kept', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await start({ seed: 165, clock: { speed: 1_000 }, deckFileBytes: 1536, choices: { statusLinks: 'hal', fileLinks: 'api' } });
	});
	afterAll(async () => await sim.close());

	const app = (taskId: string) => `https://app.deckgen.example/decks/${taskId}`;

	test('Get Status: ours at `links` / `deckUrl`, the service’s as `serviceLinks` / `serviceDeckUrl`', async () => {
		const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 0, outcome: 'succeeded' });
		const result = await runWith(sim, loadWorkflow('get-status'), sim.keys.personal, [{ taskId }]);
		const [item] = jsonOf(result.output('Success'));
		const file = `${sim.url}/v1/decks/${taskId}/files/deck.pptx`;
		expect(item).toMatchObject({
			deckUrl: file,
			serviceDeckUrl: app(taskId),
			serviceLinks: { self: { href: `/v1/decks/${taskId}/status` }, file: { href: file }, pdf: { href: expect.any(String) } },
		});
		expect(item.links).toContainEqual({ path: 'links.file.href', url: file, kind: 'deck' });
	});

	test('Wait node: the input item’s `links` stays as `inputLinks`, the service’s as `serviceLinks`; the file still comes down', async () => {
		const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: MINUTE, outcome: 'succeeded' });
		const crm = { opportunity: 'https://crm.example/opp/1' };
		const { completed } = await runWait('download', sim, [{ taskId, links: crm, requester: 'ana@example.com' }]);
		expect(completed[0].json).toMatchObject({
			taskId,
			requester: 'ana@example.com',
			inputLinks: crm,
			serviceLinks: { file: { href: `${sim.url}/v1/decks/${taskId}/files/deck.pptx` } },
			serviceDeckUrl: app(taskId),
			deckUrl: `${sim.url}/v1/decks/${taskId}/files/deck.pptx`,
			fileSize: 1536,
		});
		expect(Array.isArray(completed[0].json.links)).toBe(true);
	});

	test('an item a node of this package made is read again without piling up copies of its own links', async () => {
		const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 0, outcome: 'succeeded' });
		const status = await runWith(sim, loadWorkflow('get-status'), sim.keys.personal, [{ taskId }]);
		const { completed } = await runWait('check-once', sim, [status.output('Success')[0].json]);
		expect(completed[0].json.inputLinks).toBeUndefined();
		expect(completed[0].json.inputDeckUrl).toBeUndefined();
	});
});

describe('Deck → Download from a task id keeps the input item', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await start({ seed: 166, clock: { manual: true }, deckFileBytes: 1280 });
	});
	afterAll(async () => await sim.close());

	test('the requester’s address reaches the next node beside the file', async () => {
		const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 0, outcome: 'succeeded' });
		const result = await runWith(sim, loadWorkflow('download'), sim.keys.personal, [{ taskId, requester: 'ana@example.com', ticket: 42 }]);
		const [item] = result.output('Success');
		expect(item.json).toMatchObject({ taskId, requester: 'ana@example.com', ticket: 42, outcome: 'success', fileSize: 1280 });
		expect(item.binary?.data).toBeDefined();
	});
});

describe('a 401 on a link that is the service under another host name', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await start({ seed: 167, clock: { manual: true }, choices: { fileLinks: 'api-alias', resultLinks: 'deckUrl' } });
	});
	afterAll(async () => await sim.close());

	test('says the link’s host differs from the Base URL’s, so the key was not sent, and to set the Base URL to it', async () => {
		const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 0, outcome: 'succeeded' });
		const result = await runWith(sim, continueErrorOutput(loadWorkflow('download')), sim.keys.personal, [{ taskId }]);
		const [error] = jsonOf(result.output('Errors'));
		const alias = sim.url.replace('127.0.0.1', 'localhost');
		expect(error.error).toMatchObject({ message: expect.stringMatching(/401/) });
		expect(String(error.message)).toContain(`The link is on ${alias}, not on the Base URL's ${sim.url}, so the API key was not sent`);
		expect(String(error.message)).toContain(`set the credential's Base URL to ${alias}`);
		// The link was fetched without the key: the service answered it 401.
		const file = sim.ledger.requests.filter((r) => /\/files\//.test(r.path));
		expect(file).toEqual([expect.objectContaining({ status: 401 })]);
		expect(file[0].keyId).toBeUndefined();
	});
});
