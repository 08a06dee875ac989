/**
 * The purchase record of issue 33 (nodes/shared/purchaseRecord.ts): the line n8n's log gets before a
 * purchase is sent, as n8n's own logger prints it in its default text format and with
 * N8N_LOG_FORMAT=json, and how a pasted line is read back.
 */
import { Logger } from '@n8n/backend-common';
import { GlobalConfig, InstanceSettingsConfig } from '@n8n/config';
import { Container } from '@n8n/di';

import { canonicalJson } from '../../nodes/shared/idempotency';
import { JOURNAL_COLUMNS, PURCHASE_MARKER, checkOf, journalRow, purchaseLogLine, purchaseRecord, readJournalRow, readLoggedPurchase, type PurchaseRecord } from '../../nodes/shared/purchaseRecord';

const record: PurchaseRecord = purchaseRecord(
	{
		method: 'POST',
		path: '/v1/decks',
		idempotencyKey: 'f2c1e7a0-6b1d-5c0e-9d7a-3b2c1d0e9f8a',
		body: { audience: 'The board', core_message: 'We grew 20%', expected_credits: 10, slide_count: 12, title: 'Q3 review: "north"\nand south' },
	},
	{ operation: 'deck.create', workflowId: 'aB3dE5', executionId: '4711', node: 'Create Deck', item: 2 },
);

/** What n8n's own Logger (@n8n/backend-common) writes to its console for one info line, in the given format. */
function printed(format: 'text' | 'json', level: 'info' | 'debug', message: string, metadata: Record<string, unknown>): string[] {
	const globalConfig = Container.get(GlobalConfig);
	const config = { ...globalConfig, logging: { ...globalConfig.logging, level, format, outputs: ['console'] as Array<'console'> } } as GlobalConfig;
	const logger = new Logger(config, Container.get(InstanceSettingsConfig), { isRoot: false });
	const out: string[] = [];
	for (const transport of logger.getInternalLogger().transports) {
		transport.log = (info: Record<string | symbol, unknown>, next: () => void) => {
			out.push(String(info[Symbol.for('message')]));
			next();
		};
	}
	logger.info(message, metadata);
	return out;
}

describe('the purchase line of n8n\'s log', () => {
	const line = purchaseLogLine(record);

	test('one line: the title (JSON-quoted), the key, where it was made, and the record after the marker', () => {
		expect(line.includes('\n')).toBe(false);
		expect(line).toBe(
			'Deck Generator: sending purchase "Q3 review: \\"north\\"\\nand south" with Idempotency-Key f2c1e7a0-6b1d-5c0e-9d7a-3b2c1d0e9f8a ' +
				'(workflow aB3dE5, execution 4711, node "Create Deck", item 2). If n8n loses this execution, Deck Generator → Recover Purchase with this line gets the deck back without paying twice: ' +
				`DECKGEN_PURCHASE {"body":{"audience":"The board","core_message":"We grew 20%","expected_credits":10,"slide_count":12,"title":"Q3 review: \\"north\\"\\nand south"},"check":"${record.check}","executionId":"4711","idempotencyKey":"f2c1e7a0-6b1d-5c0e-9d7a-3b2c1d0e9f8a","item":2,"method":"POST","node":"Create Deck","operation":"deck.create","path":"/v1/decks","v":1,"workflowId":"aB3dE5"}`,
		);
		expect(record.check).toMatch(/^[0-9a-f]{16}$/);
	});

	test('n8n\'s default text format at info prints the message alone: the whole record is in it', () => {
		const [text] = printed('text', 'info', line, { idempotencyKey: record.idempotencyKey });
		expect(text).toBe(line);
		expect(readLoggedPurchase(text)).toEqual({ ok: true, record });
	});

	test('N8N_LOG_FORMAT=json prints a JSON record with the message and the metadata: the whole record line reads back', () => {
		const [json] = printed('json', 'info', line, { idempotencyKey: record.idempotencyKey, title: 'Q3' });
		const parsed = JSON.parse(json) as { level: string; message: string; metadata: Record<string, unknown> };
		expect(parsed).toMatchObject({ level: 'info', message: line, metadata: { idempotencyKey: record.idempotencyKey, title: 'Q3' } });
		expect(readLoggedPurchase(json)).toEqual({ ok: true, record });
	});
});

describe('reading a pasted purchase', () => {
	const line = purchaseLogLine(record);
	const fails = (input: unknown) => {
		const reading = readLoggedPurchase(input);
		if (reading.ok) throw new Error('read');
		return reading.message;
	};

	test('the line, the object after the marker, the record as an object, with text around it', () => {
		const bare = line.slice(line.indexOf(PURCHASE_MARKER) + PURCHASE_MARKER.length).trim();
		for (const input of [line, `  ${line}  `, bare, JSON.parse(bare), `worker-1 | ${line} trailing words`]) expect(readLoggedPurchase(input)).toEqual({ ok: true, record });
	});

	test('refusals name the field; nothing is sent', () => {
		const json = JSON.parse(line.slice(line.indexOf('{', line.indexOf(PURCHASE_MARKER)))) as Record<string, unknown>;
		const withField = (patch: Record<string, unknown>) => `${PURCHASE_MARKER} ${JSON.stringify({ ...json, ...patch })}`;
		expect(fails(undefined)).toBe('Logged Purchase is empty; nothing was sent');
		expect(fails(withField({ v: 2 }))).toMatch(/has version 2, not 1/);
		expect(fails(withField({ body: undefined }))).toMatch(/has no "body"/);
		expect(fails(withField({ body: [1] }))).toMatch(/"body" is not a JSON object/);
		expect(fails(withField({ method: 'GET' }))).toMatch(/"method" is "GET", not POST/);
		expect(fails(withField({ path: '/v1/../admin' }))).toMatch(/"path" .* is not a service path/);
		expect(fails(withField({ check: undefined }))).toMatch(/has no "check"/);
		expect(fails(withField({ idempotencyKey: 'another' }))).toMatch(/changed after n8n logged it/);
		expect(fails(withField({ body: { ...(json.body as object), slide_count: 13 } }))).toMatch(/changed after n8n logged it/);
		expect(fails(`${PURCHASE_MARKER} {"v":1,`)).toMatch(/cut short/);
		expect(fails(`${PURCHASE_MARKER} {"v":1,}`)).toMatch(/not valid JSON/);
	});

	test('what is not sent (where it was made) is not checked: the check covers method, path, key and body', () => {
		expect(readLoggedPurchase({ ...record, executionId: '9' })).toMatchObject({ ok: true, record: { executionId: '9' } });
		expect(checkOf({ ...record, body: { ...record.body } })).toBe(record.check);
	});
});

describe('the purchase as a journal row (issue 44)', () => {
	test('a flat row whose body is the canonical JSON text; read back from the row as the Data Table stores it, it is the same record', () => {
		const row = journalRow(record);
		expect(row).toEqual({
			outcome: 'recorded',
			title: 'Q3 review: "north"\nand south',
			idempotencyKey: record.idempotencyKey,
			path: '/v1/decks',
			body: canonicalJson(record.body),
			check: record.check,
			operation: 'deck.create',
			workflowId: 'aB3dE5',
			executionId: '4711',
			node: 'Create Deck',
			item: 2,
		});
		for (const value of Object.values(row)) expect(['string', 'number']).toContain(typeof value);
		const stored = { id: 7, createdAt: new Date(), updatedAt: new Date(), taskId: null, reason: null, ...row };
		expect(readJournalRow(stored)).toEqual({ ok: true, record, rowId: 7 });
	});

	test('every column the row holds is one of the journal\'s, and the journal has a column for each', () => {
		const names = JOURNAL_COLUMNS.map((c) => c.name);
		expect(Object.keys(journalRow(record)).filter((name) => !names.includes(name))).toEqual([]);
		expect(JOURNAL_COLUMNS.find((c) => c.name === 'item')?.type).toBe('number');
	});
});
