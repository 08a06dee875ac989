/**
 * Issue 49: the one guard of a path a person or a record gives (shared/endpoints.ts servicePathProblem) judges it
 * as it is resolved when sent: a `..` spelled with percent-encoded dots or backslashes, which `new URL` resolves
 * out of /v1/, is refused like a literal one; the paths the service has pass.
 */
import { endpointPathProblem, servicePathProblem } from '../../nodes/shared/endpoints';
import { readLoggedPurchase, purchaseLogLine, purchaseRecord } from '../../nodes/shared/purchaseRecord';

const REFUSED = [
	'/v1/%2e%2e/admin/keys',
	'/v1/%2E%2E/admin/keys',
	'/v1/.%2e/admin',
	'/v1/%2e./admin',
	'/v1/decks/%2e/../../admin',
	'/v1/../admin',
	'/v1/./decks',
	'/v1\\..\\admin',
	'/v1/decks\\..\\..\\admin',
	'/v1/decks/%2f..%2fadmin',
	'/v2/decks',
	'/v1/decks with space',
];
const ACCEPTED = ['/v1/decks', '/v1/decks/tsk_1.2/status', '/v1/credits?x=1', '/v1/decks/tsk%20a/status', '/v1/a%2e%2eb'];

describe('servicePathProblem', () => {
	test.each(REFUSED)('%s is refused', (path) => {
		expect(servicePathProblem(path)).toEqual(expect.any(String));
		// and whatever it is refused for, `new URL` would not keep it under /v1/ or it is no service path at all
	});

	test.each(ACCEPTED)('%s passes, and stays under /v1/ when resolved', (path) => {
		expect(servicePathProblem(path)).toBeUndefined();
		expect(new URL(path, 'http://service.invalid').pathname.startsWith('/v1/')).toBe(true);
	});

	test('a logged line whose record holds such a path (its check correct) is refused before anything is sent', () => {
		const record = purchaseRecord(
			{ method: 'POST', path: '/v1/%2e%2e/admin/keys', idempotencyKey: 'k', body: { expected_credits: 1 } },
			{ operation: 'deck.create', workflowId: 'w', executionId: '1', node: 'n', item: 0 },
		);
		expect(readLoggedPurchase(purchaseLogLine(record))).toMatchObject({ ok: false, message: expect.stringMatching(/is not a service path under \/v1\//) });
	});

	test('a credential path override with encoded dots is refused, naming the field', () => {
		expect(endpointPathProblem('revisions', '/v1/%2e%2e/{taskId}/x')).toMatch(/Revise Path/);
	});
});
