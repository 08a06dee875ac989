/**
 * The parts of the wait node that a workflow against the loopback simulator cannot show: the
 * real service is never polled faster than every 5 seconds.
 */
import { pollInterval } from '../../nodes/DeckGenWait/actions/waitUntilDone.mode';
import { DeckGenWait } from '../../nodes/DeckGenWait/DeckGenWait.node';
import { isLoopback } from '../../nodes/shared/n8n/service';

describe('Deck Generator Wait: poll interval', () => {
	test.each([
		['a loopback base URL may be polled faster (tests, benchmarks)', 0.01, true, { ms: 10 }],
		['the real service: below 5 s becomes 5 s, and says so', 0.01, false, { ms: 5_000, clampedFrom: 0.01 }],
		['the real service: 1 s also becomes 5 s', 1, false, { ms: 5_000, clampedFrom: 1 }],
		['unset: the contract’s 5 s', undefined, false, { ms: 5_000 }],
		['slower than 5 s is kept', 30, false, { ms: 30_000 }],
	])('%s', (_name, seconds, loopback, expected) => {
		expect(pollInterval(seconds, loopback)).toEqual(expected);
	});

	test.each([
		['http://127.0.0.1:3000', true],
		['http://localhost:3000', true],
		['http://[::1]:3000', true],
		['https://api.deckgen.example', false],
		['http://10.0.0.5', false],
	])('%s is loopback: %s', (url, expected) => {
		expect(isLoopback(url)).toBe(expected);
	});
});

describe('Deck Generator Wait: description', () => {
	const { description } = new DeckGenWait();

	test('three named outputs, usable as a tool, the deckGenApi credential', () => {
		expect(description.name).toBe('deckGenWait');
		// named on each output: the AI-tool variant keeps outputNames and would label its tool connection
		expect(description.outputNames).toBeUndefined();
		expect(description.outputs).toEqual(['Completed', 'Failed', 'Still Running'].map((displayName) => ({ type: 'main', displayName })));
		expect(description.usableAsTool).toBe(true);
		expect(description.credentials).toEqual([{ name: 'deckGenApi', required: true, testedBy: 'deckGenApiTest' }]);
	});

	test('defaults: Wait Until Done, taskId, 60 minutes, 5 seconds', () => {
		const byName = Object.fromEntries(description.properties.map((p) => [p.name, p]));
		expect(byName.mode.default).toBe('waitUntilDone');
		expect(byName.taskIdField.default).toBe('taskId');
		const options = Object.fromEntries((byName.options.options as Array<{ name: string; default: unknown }>).map((o) => [o.name, o.default]));
		expect(options).toEqual({
			binaryPropertyName: 'data',
			downloadFile: false,
			downloadLink: '',
			failedWords: '',
			failureReasonPath: '',
			maxDownloadMb: 100,
			maxWaitMinutes: 60,
			// a deck just bought may answer 404 this long (issue 42)
			notFoundGraceSeconds: 300,
			pollIntervalSeconds: 5,
			runningWords: '',
			// off: a workflow saved before the option keeps the full item
			simplify: false,
			statusWordPath: '',
			succeededWords: '',
		});
	});
});
