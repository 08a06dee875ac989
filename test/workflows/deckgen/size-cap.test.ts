/**
 * Max Download Size stops the transfer (issue 16, point 3): above the cap the node refuses the file
 * AND closes the connection, so the sending side sees it end within a second instead of holding a
 * socket and its buffers until the download timeout. With and without Content-Length (n8n's request
 * helper hands back an axios wrapper around the response when the length is known, and destroying
 * the wrapper alone never touches the socket), on the Base URL's origin and on presigned storage, in
 * Deck → Download and in the Wait node's Download File.
 */
import { start, type ProfileChoices, type Simulator } from '../../simulator';
import { runWait } from '../wait/run';
import { continueErrorOutput, jsonOf, loadWorkflow, runWith } from './fixture';

/** Far above the cap and above what socket buffers hold, so an open connection really is stuck mid-file. */
const FILE_BYTES = 24 * 1024 * 1024;
const MINUTE = 60_000;

interface Transfer {
	closedAt?: number;
	complete?: boolean;
}

/** The file answer the sending side recorded: the simulator's own (same origin) or the storage stand-in's. */
function fileTransfer(sim: Simulator): Transfer | undefined {
	const api = sim.ledger.requests.filter((r) => /\/files\//.test(r.path) && r.status === 200);
	const storage = sim.storage.requests.filter((r) => r.status === 200);
	return [...api, ...storage].pop();
}

/** Waits up to `ms` of real time for the sending side to see the connection end. */
async function closedWithin(sim: Simulator, ms: number): Promise<Transfer | undefined> {
	const until = Date.now() + ms;
	for (;;) {
		const transfer = fileTransfer(sim);
		if (transfer?.closedAt !== undefined || Date.now() > until) return transfer;
		await new Promise((resolve) => setTimeout(resolve, 10));
	}
}

describe.each<[string, Partial<ProfileChoices>]>([
	['same origin, Content-Length', { fileLinks: 'api', fileLength: 'content-length' }],
	['same origin, chunked', { fileLinks: 'api', fileLength: 'chunked' }],
	['presigned storage, Content-Length', { fileLinks: 'storage', fileLength: 'content-length' }],
	['presigned storage, chunked', { fileLinks: 'storage', fileLength: 'chunked' }],
])('Max Download Size closes the connection: %s', (_name, choices) => {
	let sim: Simulator;
	beforeEach(async () => {
		sim = await start({ seed: 160, clock: { speed: 1_000 }, deckFileBytes: FILE_BYTES, choices: { resultLinks: 'deckUrl', ...choices } });
	});
	afterEach(async () => await sim.close());

	test('Deck → Download: refused, and the sender sees the connection closed within a second', async () => {
		const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: 0, outcome: 'succeeded' });
		const result = await runWith(sim, continueErrorOutput(loadWorkflow('download')), sim.keys.personal, [{ taskId, maxMb: 1 }]);
		const [error] = jsonOf(result.output('Errors'));
		expect(error.error).toMatchObject({ message: expect.stringMatching(/above Max Download Size \(1\.0 MB\); nothing was kept/) });
		const transfer = await closedWithin(sim, 1000);
		expect(transfer?.closedAt).toEqual(expect.any(Number));
	});

	test('Wait node Download File: refused on Completed, and the connection closed within a second', async () => {
		const taskId = sim.control.seedDeck({ key: sim.keys.personal, durationMs: MINUTE, outcome: 'succeeded' });
		const { completed } = await runWait('download', sim, [{ taskId, maxMb: 1 }]);
		expect(completed[0].json).toMatchObject({ taskId, downloadError: { message: expect.stringMatching(/above Max Download Size/) } });
		const transfer = await closedWithin(sim, 1000);
		expect(transfer?.closedAt).toEqual(expect.any(Number));
	});
});
