/**
 * Every operation of the Deck Generator node, run as a real n8n workflow (n8n-core's
 * WorkflowExecute) against the simulator over loopback HTTP.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { start, type Simulator } from '../../simulator';
import { servedPath } from '../credential';
import { brief, continueErrorOutput, DECK_NODE, jsonOf, loadWorkflow, runWith, withListFields } from './fixture';

const PDF = Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');

function binaryItem(bytes: Buffer, fileName: string, mimeType: string, json: Record<string, unknown> = {}) {
	return { json, binary: { data: { data: bytes.toString('base64'), mimeType, fileName } } };
}

describe('Deck Generator operations (workflow runs against the simulator)', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await start({ seed: 7, clock: { manual: true }, limits: { maxConcurrentDecks: 1000 } });
	});
	afterAll(async () => await sim.close());

	test('Account → Get Credits returns the balance and spends nothing', async () => {
		const result = await runWith(sim, loadWorkflow('get-credits'), sim.keys.personal, [{}]);
		expect(result.status).toBe('success');
		const [item] = result.output('Success');
		expect(item.json).toMatchObject({ outcome: 'success' });
		// Whatever the service calls its members (the contract does not show them), all of them pass through.
		if (sim.profile.creditsResponse === 'reference') expect(item.json).toMatchObject({ credits: expect.any(Number), wallet: 'personal' });
		else expect(item.json).toMatchObject({ balance: { available: expect.any(Number) }, account: { kind: 'personal' } });
		expect(item.json.requestId).toEqual(expect.any(String));
		expect(item.pairedItem).toEqual({ item: 0 });
	});

	test('Deck → Create buys one deck per item, each reaching Success with its taskId', async () => {
		const { key, principalId } = sim.control.createAccount({ balance: 500, subscriber: true });
		const result = await runWith(sim, loadWorkflow('create'), key, [
			brief({ title: 'One' }),
			brief({ title: 'Two', output_language: 'de' }),
			brief({ title: 'Three', slide_count: 12 }),
		]);
		expect(result.status).toBe('success');
		const items = result.output('Success');
		expect(items).toHaveLength(3);
		expect(items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		for (const item of items) {
			expect(item.json).toMatchObject({ outcome: 'success', taskId: expect.stringMatching(/\S/) });
			expect(item.json.idempotencyKey).toEqual(expect.stringMatching(/^[0-9a-f-]{36}$/));
		}
		const charges = sim.ledger.charges.filter((c) => c.principalId === principalId);
		expect(charges.map((c) => c.taskId).sort()).toEqual(items.map((i) => i.json.taskId).sort());
		expect(sim.control.balanceOf(key)).toBe(470);
	});

	test('Deck → Get Status passes the service fields through and adds our state', async () => {
		const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 0, outcome: 'succeeded' });
		const running = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 60 * 60_000 });
		const result = await runWith(sim, loadWorkflow('get-status'), sim.keys.personal, [{ taskId }, { taskId: running }]);
		const [done, busy] = jsonOf(result.output('Success'));
		expect(done).toMatchObject({ taskId, state: 'succeeded', deckUrl: expect.stringMatching(/^http/) });
		// The service's own word stays as it came, under its own member (`state` is ours, theirs moves to serviceState).
		expect(done.status ?? done.serviceState).toBe(sim.profile.statusWords.succeeded);
		expect(busy).toMatchObject({ taskId: running, state: 'running' });
	});

	test('Deck → Get Status of a deck that is not ours is a clear 404 error', async () => {
		const theirs = sim.control.seedDeck({ key: sim.keys.other, durationMs: 0 });
		const result = await runWith(sim, continueErrorOutput(loadWorkflow('get-status')), sim.keys.personal, [
			{ taskId: theirs },
		]);
		const [error] = jsonOf(result.output('Errors'));
		expect(error.error).toMatchObject({ message: expect.stringMatching(/not visible to this credential/) });
		expect(error.error).toMatchObject({ outcome: 'error', code: 'not_found', status: 404 });
		expect(error.message).toMatch(/check the task id/);
		// n8n merges the input item (our own taskId) into it; the service's answer names nothing.
		expect(JSON.stringify(error.error)).not.toContain(theirs);
	});

	test('Deck → Revise: the included round is free, the next is bought, the version cap is a client action', async () => {
		const { key } = sim.control.createAccount({ balance: 100, subscriber: true });
		const taskId = sim.control.seedDeck({ key, durationMs: 0 });
		const workflow = loadWorkflow('revise');
		const revise = async (expected: number, instructions: string) => {
			const result = await runWith(sim, workflow, key, [{ taskId, instructions, expected_credits: expected }]);
			sim.control.advance(60 * 60_000); // let the revision finish before the next one
			return result;
		};

		const included = await revise(0, 'Shorter intro');
		expect(included.output('Success')[0].json).toMatchObject({ outcome: 'success', taskId });
		const paid = await revise(8, 'Add a roadmap slide');
		expect(paid.output('Success')[0].json).toMatchObject({ outcome: 'success' });
		expect(sim.control.balanceOf(key)).toBe(92);
		const capped = await revise(8, 'One more');
		const [item] = jsonOf(capped.output('Client Action'));
		expect(item).toMatchObject({ outcome: 'version_cap_reached', code: 'rate_limited', reason: 'version_cap_reached' });
		expect(item.message).toMatch(/start a new deck/i);
		expect(sim.control.balanceOf(key)).toBe(92);
	});

	test('Deck → Translate buys copies for a subscriber', async () => {
		const { key } = sim.control.createAccount({ balance: 100, subscriber: true });
		const taskId = sim.control.seedDeck({ key, durationMs: 0 });
		const result = await runWith(sim, loadWorkflow('translate'), key, [
			{ taskId, languages: ['de', 'fr'], expected_credits: 10 },
		]);
		expect(result.output('Success')[0].json).toMatchObject({ outcome: 'success', taskId });
		expect(sim.control.balanceOf(key)).toBe(90);
	});

	test('Deck → Generate Video: 501 is "not available yet" on Client Action and is never retried', async () => {
		const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 0 });
		const before = sim.ledger.requests.length;
		const result = await runWith(sim, loadWorkflow('generate-video'), sim.keys.personal, [
			{ taskId, expected_credits: 20 },
		]);
		const [item] = jsonOf(result.output('Client Action'));
		expect(item).toMatchObject({ outcome: 'not_available_yet', code: 'not_implemented' });
		expect(String(item.message)).toMatch(/not available yet/i);
		expect(String(item.message)).not.toMatch(/not found/i);
		expect(sim.ledger.requests.length - before).toBe(1);
	});

	test('Deck → Generate Video buys the video once the deployment ships it', async () => {
		sim.control.setUnshipped([]);
		try {
			const { key } = sim.control.createAccount({ balance: 100, subscriber: true });
			const taskId = sim.control.seedDeck({ key, durationMs: 0 });
			const result = await runWith(sim, loadWorkflow('generate-video'), key, [{ taskId, expected_credits: 20 }]);
			expect(result.output('Success')[0].json).toMatchObject({ outcome: 'success', taskId });
			expect(sim.control.balanceOf(key)).toBe(80);
		} finally {
			sim.control.setUnshipped(['video']);
		}
	});

	test('Material → Upload sends the file as multipart and returns its materialId, usable by Create', async () => {
		const { key } = sim.control.createAccount({ balance: 100, subscriber: true });
		const uploaded = await runWith(sim, loadWorkflow('upload'), key, [
			binaryItem(PDF, 'brief.pdf', 'application/pdf'),
		]);
		const [material] = jsonOf(uploaded.output('Success'));
		expect(material).toMatchObject({ outcome: 'success', materialId: expect.stringMatching(/^mat_/) });
		expect(material.filename ?? material.name ?? material.file_name).toBe('brief.pdf');

		const created = await runWith(sim, withListFields(loadWorkflow('create'), ['materialIds']), key, [brief({ material_ids: [material.materialId] })]);
		expect(created.output('Success')[0].json.taskId).toEqual(expect.any(String));
	});

	test('Material → Upload refuses a file whose bytes contradict its name before sending anything', async () => {
		const before = sim.ledger.requests.filter((r) => r.path === servedPath(sim, 'materials')).length;
		const result = await runWith(sim, continueErrorOutput(loadWorkflow('upload')), sim.keys.personal, [
			binaryItem(PNG, 'chart.pdf', 'application/octet-stream'),
			binaryItem(PDF, 'page.html', 'text/html'),
		]);
		const errors = jsonOf(result.output('Errors'));
		expect(errors[0].error).toMatchObject({ message: expect.stringMatching(/are a PNG image, not what "\.pdf" says/) });
		expect(errors[1].error).toMatchObject({ message: expect.stringMatching(/extension "\.html"/) });
		expect(result.output(DECK_NODE, 3).map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(sim.ledger.requests.filter((r) => r.path === servedPath(sim, 'materials')).length).toBe(before);
	});

	test('Material → Upload: a 415 from the service is an error naming what disagrees, never retried', async () => {
		// A zip that is not an Office document passes the local check (any zip may be .docx) but
		// not the service's, which looks inside.
		const zip = Buffer.concat([Buffer.from('504b0304', 'hex'), Buffer.alloc(64, 1)]);
		const before = sim.ledger.requests.filter((r) => r.path === servedPath(sim, 'materials')).length;
		const result = await runWith(sim, continueErrorOutput(loadWorkflow('upload')), sim.keys.personal, [
			binaryItem(zip, 'notes.docx', 'application/octet-stream'),
		]);
		const [error] = jsonOf(result.output('Errors'));
		expect(error.error).toMatchObject({ message: expect.stringMatching(/415 unsupported_media_type/) });
		expect(error.message).toMatch(/Do not resend the same bytes under the same name/);
		expect(error.error).toMatchObject({ code: 'unsupported_media_type', status: 415 });
		expect(sim.ledger.requests.filter((r) => r.path === servedPath(sim, 'materials')).length - before).toBe(1);
	});

	test('Custom Request reaches any /v1 path with the same auth, keys and routing', async () => {
		const { key } = sim.control.createAccount({ balance: 100, subscriber: true });
		const result = await runWith(sim, continueErrorOutput(loadWorkflow('custom-request')), key, [
			{ method: 'GET', path: '/v1/credits' },
			{ method: 'POST', path: '/v1/decks', body: { title: 'Custom', audience: 'Everyone', slide_count: 10, expected_credits: 10 } },
			{ method: 'GET', path: 'https://elsewhere.example/v1/credits' },
		]);
		const success = jsonOf(result.output('Success'));
		expect(success[0]).toMatchObject({ outcome: 'success' });
		expect(success[0].credits ?? (success[0].balance as { available?: number }).available).toBe(100);
		expect(success[1]).toMatchObject({ outcome: 'success', taskId: expect.any(String) });
		const posted = sim.ledger.requests.find((r) => r.method === 'POST' && r.path === '/v1/decks' && r.status === sim.profile.createStatus);
		expect(posted?.idempotencyKey).toEqual(expect.any(String));
		expect(jsonOf(result.output('Errors'))[0].error).toMatchObject({ message: expect.stringMatching(/not a service path/) });
	});
});

describe('what Create puts on the wire', () => {
	let server: Server;
	let url: string;
	const bodies: Array<Record<string, unknown>> = [];
	const headers: IncomingMessage['headers'][] = [];
	beforeAll(async () => {
		// A recorder, not a stand-in for the service: it answers 202 and keeps what arrived.
		server = createServer((req, res) => {
			let data = '';
			req.on('data', (chunk) => (data += chunk));
			req.on('end', () => {
				bodies.push(JSON.parse(data) as Record<string, unknown>);
				headers.push(req.headers);
				res.writeHead(202, { 'Content-Type': 'application/json', 'X-Request-Id': 'req_recorder' });
				res.end(JSON.stringify({ taskId: `tsk_${bodies.length}` }));
			});
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	});
	afterAll(async () => await new Promise((resolve) => server.close(resolve)));

	test('only the fields the user filled, named as the contract names them, and never an unlisted one', async () => {
		const { runWorkflow } = await import('../../harness');
		const credentials = { deckGenApi: { apiKey: 'dg_recorder_key_0123456789', baseUrl: url } };
		// Material IDs and Additional Languages are on the form only where the brief has them: a list field
		// that is set but comes out empty stops the item.
		const plain = await runWorkflow(loadWorkflow('create'), { credentials, inputItems: [{ json: { title: 'Only a title', expected_credits: 10 } }] });
		expect(plain.status).toBe('success');
		const result = await runWorkflow(withListFields(loadWorkflow('create')), {
			credentials,
			inputItems: [
				{
					json: {
						...brief(),
						slide_count: 20,
						confirm_slide_surcharge: true,
						material_ids: 'mat_1, mat_2',
						additional_languages: ['de'],
						output_language: 'en',
					},
				},
			],
		});
		expect(result.status).toBe('success');
		expect(bodies[0]).toEqual({ title: 'Only a title', expected_credits: 10 });
		expect(bodies[1]).toEqual({
			title: 'Q3 review',
			core_message: 'We grew 20% and will keep growing',
			audience: 'The board',
			expected_credits: 10,
			slide_count: 20,
			confirm_slide_surcharge: true,
			material_ids: ['mat_1', 'mat_2'],
			additional_languages: ['de'],
			output_language: 'en',
		});
		expect(headers[0]['idempotency-key']).toEqual(expect.stringMatching(/^[0-9a-f-]{36}$/));
		expect(headers[0]['idempotency-key']).not.toEqual(headers[1]['idempotency-key']);
		expect(headers[0].authorization).toBe('Bearer dg_recorder_key_0123456789');
		expect(headers[0]['content-type']).toBe('application/json');
		expect([...plain.output(DECK_NODE), ...result.output(DECK_NODE)].map((i) => i.json.taskId)).toEqual(['tsk_1', 'tsk_2']);
	});
});
