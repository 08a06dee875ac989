/**
 * `npm run dev`'s command line (test/dev/dev.ts): the port however npm passes it, and what the dev
 * set-up changes in an example besides the stand-ins (a sample PDF served locally, long n8n waits cut).
 */
import { DEFAULT_ARGS, describeRecord, devPatch, parseArgs } from '../dev/dev';
import { loadExample } from '../e2e/fixtures/examples';

describe('npm run dev arguments', () => {
	test('the port: `-- --port N`, `--port=N`, and `npm run dev --port N` (npm keeps the flag, passes the number on)', () => {
		expect(parseArgs([], {}).port).toBe(DEFAULT_ARGS.port);
		expect(parseArgs(['--port', '5700'], {}).port).toBe(5700);
		expect(parseArgs(['--port=5701'], {}).port).toBe(5701);
		// npm run dev --port=5702: npm sets npm_config_port=5702 and passes nothing
		expect(parseArgs([], { npm_config_port: '5702' }).port).toBe(5702);
		// npm run dev --port 5703: npm sets npm_config_port=true and passes "5703" as an argument
		expect(parseArgs(['5703'], { npm_config_port: 'true' }).port).toBe(5703);
		// a lone number without npm's flag is not taken for a port
		expect(() => parseArgs(['5704'], {})).toThrow('unknown argument 5704 (try --help)');
		expect(() => parseArgs(['--port', 'abc'], {})).toThrow('--port must be a port number (1-65535), not "abc"');
		expect(() => parseArgs(['--port', '70000'], {})).toThrow('--port must be a port number (1-65535), not "70000"');
	});

	test('--as-shipped and --wait-cap', () => {
		expect(parseArgs(['--as-shipped', '--wait-cap', '5'], {})).toMatchObject({ asShipped: true, waitCapSeconds: 5 });
		expect(() => parseArgs(['--wait-cap', '0'], {})).toThrow('--wait-cap must be a number of seconds above 0, not 0');
	});

	test("the sample PDF of materials.json is fetched from the stand-in, under the same name; the at-scale loop's Wait is cut", () => {
		expect(devPatch(loadExample('materials.json'), 'http://127.0.0.1:9', 20)).toEqual({ 'Download PDF': { url: 'http://127.0.0.1:9/files/q3-results.pdf' } });
		const scale = loadExample('at-scale.json');
		const waits = scale.nodes.filter((n) => n.type === 'n8n-nodes-base.wait');
		expect(waits.length).toBeGreaterThan(0);
		expect(devPatch(scale, 'http://127.0.0.1:9', 20)).toEqual(Object.fromEntries(waits.map((w) => [w.name, { amount: 20, unit: 'seconds' }])));
		// a wait already shorter is left alone
		expect(devPatch(scale, 'http://127.0.0.1:9', 3600)).toEqual({});
	});

	test('what the stand-in received reads as Slack or the mailbox would show it', () => {
		const base = { method: 'POST', headers: {}, status: 200, at: 0 };
		expect(describeRecord({ ...base, kind: 'sink', name: 'webhook-to-slack/Slack: deck ready', body: { channel: '#decks', text: 'Ready: http://x' } })).toBe(
			'[stand-in] webhook-to-slack/Slack: deck ready: Slack #decks: Ready: http://x',
		);
		expect(
			describeRecord({
				...base,
				kind: 'sink',
				name: 'weekly-report/Email the deck',
				body: { to: 'team@example.com', subject: 'Weekly', text: 'Hello\nthere', attachments: [{ filename: 'deck.pptx', data: Buffer.alloc(4096) }] },
			}),
		).toBe('[stand-in] weekly-report/Email the deck: email to team@example.com, "Weekly" + deck.pptx (4 KB)');
		expect(describeRecord({ ...base, kind: 'approval', name: 'surcharge-approval/Ask', body: { channel: '#deck-approvals', text: 'Approve\n24 slides?' } })).toBe(
			'[stand-in] surcharge-approval/Ask: Slack #deck-approvals asked "Approve / 24 slides?" -> answered Approve',
		);
	});
});
