/**
 * Node version 1.1: an operation that cannot be answered with a 402 has Success only (and n8n's
 * error output after it). What used to land on Client Action there, a 501 "not available yet" of
 * an upload path not shipped in this deployment, is an error that says so; version 1 keeps routing
 * it to Client Action as saved workflows expect.
 */
import { start, type Simulator } from '../../simulator';
import { DECK_NODE, jsonOf, loadWorkflow, patchNode, runWith } from './fixture';

const PDF = Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const pdfItem = () => ({ json: {}, binary: { data: { data: PDF.toString('base64'), mimeType: 'application/pdf', fileName: 'brief.pdf' } } });

describe('outputs per operation (node version 1.1)', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await start({ seed: 29, clock: { manual: true }, unshipped: ['materials'] });
	});
	afterAll(async () => await sim.close());

	test('Upload on a deployment without materials: 1.1 says "not available yet" on the error output; 1 on Client Action', async () => {
		const today = patchNode(loadWorkflow('upload'), DECK_NODE, { typeVersion: 1.1, onError: 'continueErrorOutput' });
		// 1.1: Success, then n8n's error output
		today.connections[DECK_NODE] = {
			main: [[{ node: 'Success', type: 'main', index: 0 }], [{ node: 'Errors', type: 'main', index: 0 }]],
		};
		const result = await runWith(sim, today, sim.keys.personal, [pdfItem()]);
		expect(result.outputs(DECK_NODE)).toHaveLength(2);
		const [error] = jsonOf(result.output('Errors'));
		expect(error.error).toMatchObject({ outcome: 'not_available_yet', code: 'not_implemented', status: 501 });
		expect(String(error.message)).toMatch(/not available yet in this deployment/);

		const saved = patchNode(loadWorkflow('upload'), DECK_NODE, { onError: 'continueErrorOutput' });
		const before = await runWith(sim, saved, sim.keys.personal, [pdfItem()]);
		expect(before.outputs(DECK_NODE)).toHaveLength(4);
		expect(jsonOf(before.output('Client Action'))).toEqual([expect.objectContaining({ outcome: 'not_available_yet' })]);
	});
});
