/**
 * Issue 49's property: whatever the live price does between attempts (up, down, back), and whoever sends a
 * purchase (a first send, a re-send within Max Credits, a retry or redelivery of the same trigger data, two
 * executions at the same moment, Recover Purchase from any logged line or from a journal row), the service
 * charges each intended purchase at most once, and every item's `charge` and sentence say what the ledger did
 * in that send: `charged` only where the ledger charged that key in that send (and exactly one item claims each
 * charge), `replayed` where it did not, `charged_or_replayed` only where the key was charged once, in that send
 * or before. Sequences are drawn from a seeded generator (the same every run), in every simulator profile and in
 * both orders a service may check a spending POST in (the key first, or the price first).
 */
import type { Charge } from '../../simulator/types';
import type { ProfileName } from '../../simulator/profile';
import { PURCHASE_MARKER } from '../../../nodes/shared/purchaseRecord';
import { connections, node, type RunResult, type WorkflowJson } from '../../harness';
import { start, type Simulator } from '../../simulator';
import { brief, continueErrorOutput, DECK_NODE, jsonOf, loadWorkflow, patchNode, runWith } from './fixture';

const PROFILES: ProfileName[] = ['reference', 'alternate', 'readings', 'contrary'];
const ORDERS = ['after-key', 'before-key'] as const;
const SCENARIOS_PER_SIMULATOR = 3;
const STEPS_PER_SCENARIO = 7;
const PRICES = [8, 10, 12];
const OUTPUTS = ['Success', 'Checkout', 'Client Action', 'Errors'];

/** mulberry32: a small seeded generator, so every run draws the same sequences. */
function generator(seed: number): { pick: <T>(values: readonly T[]) => T; chance: (p: number) => boolean } {
	let state = seed >>> 0;
	const next = () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
	return { pick: (values) => values[Math.floor(next() * values.length)], chance: (p) => next() < p };
}

const createOptions = loadWorkflow('create').nodes.find((n) => n.name === DECK_NODE)!.parameters.options as object;
/** The Create workflow on the error output; the node waits out a 409 already_in_progress (50 ms a time, five times). */
const createWorkflow = (options: object = {}) =>
	continueErrorOutput({ ...patchNode(loadWorkflow('create'), DECK_NODE, { parameters: { options: { ...createOptions, maxRetryWaitSeconds: 0.05, ...options } } as never }), id: 'wf-49-property' });

function recoverWorkflow(parameters: Record<string, unknown>): WorkflowJson {
	return {
		id: 'wf-49-property-recover',
		nodes: [
			node('Start', 'n8n-nodes-base.manualTrigger'),
			{ ...node(DECK_NODE, 'n8n-nodes-deckgen.deckGen', { resource: 'deck', operation: 'recover', options: { maxRetryWaitSeconds: 0.05 }, ...parameters } as never), typeVersion: 1.1, onError: 'continueErrorOutput' },
			...OUTPUTS.map((name) => node(name, 'n8n-nodes-base.noOp')),
		],
		connections: connections([['Start', DECK_NODE], ...OUTPUTS.map((name, index) => [DECK_NODE, name, index] as [string, string, number])]),
		settings: { executionOrder: 'v1' },
	} as WorkflowJson;
}

interface Sent {
	kind: 'create' | 'recover';
	/** Every item of every output of the node's run. */
	items: Array<{ output: number; json: Record<string, unknown> }>;
}

const itemsOf = (kind: Sent['kind'], result: RunResult): Sent => ({
	kind,
	items: OUTPUTS.flatMap((_, output) => jsonOf(result.output(DECK_NODE, output) ?? []).map((json) => ({ output, json }))),
});

/** One intended purchase: a brief from one trigger item, maybe keyed by a delivery id. */
interface Intent {
	input: Record<string, unknown>;
	lines: string[];
	row?: Record<string, unknown>;
	keys: Set<string>;
}

describe.each(PROFILES.flatMap((profile) => ORDERS.map((order) => [profile, order] as const)))('Issue 49 property, profile %s, the %s checked first', (profile, priceCheck) => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await start({ profile, seed: 4900, clock: { manual: true }, limits: { maxConcurrentDecks: 1000, retryAfterMs: 50 }, choices: { priceCheck } });
	});
	afterAll(async () => await sim.close());

	test.each(Array.from({ length: SCENARIOS_PER_SIMULATOR }, (_, i) => i))('sequence %i: one charge per intended purchase at most, every item as the ledger says', async (scenario) => {
		const random = generator(4900 + scenario * 31 + PROFILES.indexOf(profile) * 7 + (priceCheck === 'before-key' ? 1000 : 0));
		const { key, principalId } = sim.control.createAccount({ balance: 10_000, subscriber: true });
		const chargesNow = () => sim.ledger.charges.filter((charge) => charge.principalId === principalId);
		const title = (name: string) => `Property ${profile} ${priceCheck} ${scenario} ${name}`;
		// A: sent by Create with a price and perhaps Max Credits (re-sent at the live price), perhaps a delivery id as its key
		const a: Intent = {
			input: brief({
				title: title('A'),
				expected_credits: random.pick(PRICES),
				max_credits: random.pick([0, 12, 15]),
				...(random.chance(0.5) ? { delivery_id: `delivery-${profile}-${priceCheck}-${scenario}` } : {}),
			}),
			lines: [],
			keys: new Set(),
		};
		// B: written down first (Record Without Sending: one price, no Max Credits), sent from its journal row, or by Create
		const b: Intent = { input: brief({ title: title('B'), expected_credits: random.pick(PRICES), max_credits: 0 }), lines: [], keys: new Set() };
		const intents = [a, b];
		const everCharged = new Set<string>();
		const trace: string[] = [];

		for (let step = 0; step < STEPS_PER_SCENARIO; step++) {
			sim.control.setPrice({ create: random.pick(PRICES) });
			const action = random.pick(['send A', 'send A', 'both at once A', 'recover line A', 'row B', 'recover row B', 'send B'] as const);
			const lost = !action.includes('at once') && random.chance(0.25);
			trace.push(`${action} at ${sim.control.prices().create}${lost ? ' (first answer lost)' : ''}`);
			if (lost) sim.control.setFaults([{ method: 'POST', path: '/v1/decks', kind: 'drop-after-commit', times: 1 }]);
			const before = sim.ledger.charges.length;
			const requestsFrom = sim.ledger.requests.length;
			const sends: Sent[] = [];
			const intent = action.endsWith('A') ? a : b;
			const remember = (result: RunResult) => {
				intent.lines.push(...result.logs.filter((line) => line.includes(PURCHASE_MARKER)).map((line) => line.replace(/^info: /, '')));
			};
			switch (action) {
				case 'send A':
				case 'send B': {
					const result = await runWith(sim, createWorkflow(), key, [intent.input]);
					remember(result);
					sends.push(itemsOf('create', result));
					break;
				}
				case 'both at once A': {
					sim.control.setFaults([{ method: 'POST', path: '/v1/decks', kind: 'latency', latencyMs: 120, times: 1 }]);
					const results = await Promise.all([runWith(sim, createWorkflow(), key, [a.input]), runWith(sim, createWorkflow(), key, [a.input])]);
					for (const result of results) {
						remember(result);
						sends.push(itemsOf('create', result));
					}
					break;
				}
				case 'recover line A': {
					if (a.lines.length === 0) break;
					const result = await runWith(sim, recoverWorkflow({ loggedPurchase: '={{ $json.line }}' }), key, [{ line: random.pick(a.lines) }]);
					sends.push(itemsOf('recover', result));
					break;
				}
				case 'row B': {
					const [row] = jsonOf((await runWith(sim, createWorkflow({ recordOnly: true }), key, [b.input])).output(DECK_NODE, 0) ?? []);
					expect(row).toMatchObject({ outcome: 'recorded' });
					b.row = { id: step + 1, ...row };
					break;
				}
				case 'recover row B': {
					if (!b.row) break;
					sends.push(itemsOf('recover', await runWith(sim, recoverWorkflow({ purchaseFrom: 'row' }), key, [b.row])));
					break;
				}
			}
			sim.control.setFaults([]);
			for (const request of sim.ledger.requests.slice(requestsFrom)) if (request.method === 'POST' && request.idempotencyKey) intent.keys.add(request.idempotencyKey);
			const newCharges = sim.ledger.charges.slice(before).filter((charge) => charge.principalId === principalId);
			checkStep(`${trace.join(' → ')}`, sends, newCharges, everCharged);
			for (const charge of newCharges) everCharged.add(charge.idempotencyKey);
		}

		// one key per intended purchase whatever its price; at most one charge for each
		const charges = chargesNow();
		for (const intent of intents) expect({ trace, keys: [...intent.keys] }).toEqual({ trace, keys: intent.keys.size ? [expect.any(String)] : [] });
		const byKey = new Map<string, Charge[]>();
		for (const charge of charges) byKey.set(charge.idempotencyKey, [...(byKey.get(charge.idempotencyKey) ?? []), charge]);
		for (const [chargedKey, list] of byKey) expect({ trace, chargedKey, charges: list.length }).toEqual({ trace, chargedKey, charges: 1 });
		const intendedKeys = new Set(intents.flatMap((intent) => [...intent.keys]));
		expect({ trace, stray: [...byKey.keys()].filter((k) => !intendedKeys.has(k)) }).toEqual({ trace, stray: [] });
		expect(charges.length).toBeLessThanOrEqual(intents.length);
	});
});

/**
 * Every item of one step against the ledger: each charge of the step is claimed by exactly one item (`charged`, or
 * `charged_or_replayed` after a lost answer), no item claims a charge the ledger did not make, and each sentence
 * says its charge.
 */
function checkStep(trace: string, sends: Sent[], newCharges: Charge[], everCharged: ReadonlySet<string>): void {
	const claims = new Map<string, number>();
	for (const { kind, items } of sends) {
		for (const { output, json } of items) {
			const itemKey = String(json.idempotencyKey ?? (json.error as { idempotencyKey?: string } | undefined)?.idempotencyKey ?? '');
			const charged = newCharges.filter((charge) => charge.idempotencyKey === itemKey);
			const said = { trace, kind, output, charge: json.charge, message: json.message };
			if (output !== 0) {
				// Checkout, Client Action, an error: nothing claimed as bought now
				expect({ ...said, claims: json.charge === 'charged' }).toEqual({ ...said, claims: false });
				continue;
			}
			const message = String(json.message);
			switch (json.charge) {
				case 'charged': {
					expect({ ...said, ledgerCharged: charged.length }).toEqual({ ...said, ledgerCharged: 1 });
					claims.set(itemKey, (claims.get(itemKey) ?? 0) + 1);
					if (kind === 'create') expect({ ...said, stem: message.startsWith(`Bought: the service charged this deck (${charged[0].credits} credits)`) }).toEqual({ ...said, stem: true });
					else expect({ ...said, stem: message.includes('so it was bought now, for the first time, and charged') }).toEqual({ ...said, stem: true });
					break;
				}
				case 'charged_or_replayed': {
					expect({ ...said, chargedOnce: charged.length === 1 || (charged.length === 0 && everCharged.has(itemKey)) }).toEqual({ ...said, chargedOnce: true });
					if (charged.length) claims.set(itemKey, (claims.get(itemKey) ?? 0) + 1);
					expect({ ...said, stem: kind === 'create' ? message.startsWith('Charged once') : message.includes('charged once') }).toEqual({ ...said, stem: true });
					break;
				}
				case 'replayed': {
					expect({ ...said, heldBefore: everCharged.has(itemKey) || charged.length === 1 }).toEqual({ ...said, heldBefore: true });
					const stem = kind === 'create' ? message.startsWith('This deck was bought before this run') : message.startsWith('The service replayed the purchase of');
					expect({ ...said, stem }).toEqual({ ...said, stem: true });
					break;
				}
				default:
					throw new Error(`${trace}: a Success item of a purchase without its charge: ${JSON.stringify(json)}`);
			}
		}
	}
	for (const charge of newCharges) expect({ trace, key: charge.idempotencyKey, claimedBy: claims.get(charge.idempotencyKey) ?? 0 }).toEqual({ trace, key: charge.idempotencyKey, claimedBy: 1 });
}
