// The control surface tests use to arrange a situation: accounts, prices, decks, time, faults, switches.
import type { SimState } from './state';
import { stripUndefined } from './state';
import { drift } from './pricing';
import type { SimulatorControl } from './types';

export function createControl(state: SimState): SimulatorControl {
	return {
		createAccount: (spec) => state.accounts.create(spec),
		setBalance: (who, credits) => {
			state.accounts.resolve(who).balance = credits;
		},
		balanceOf: (who) => state.accounts.resolve(who).balance,
		updateAccount: (who, patch) => state.accounts.update(who, patch),
		revokeKey: (key) => state.accounts.revoke(key),
		setPrice: (partial) => {
			state.prices = { ...state.prices, ...stripUndefined(partial) };
		},
		driftPrice: (delta, item) => drift(state.prices, delta, item),
		prices: () => ({ ...state.prices }),
		seedDeck: (spec) => {
			const key = state.accounts.byKey(spec.key);
			if (!key) throw new Error('seedDeck: unknown key');
			const deck = state.decks.create(key.principalId, key.id, state.now(), state.limits.maxVersions, ['en'], {
				durationMs: spec.durationMs,
				outcome: spec.outcome,
				failureKind: spec.failureKind,
				endingMs: spec.endingMs,
				status: spec.status,
			});
			return deck.taskId;
		},
		setDeckStatusOverride: (taskId, word) => {
			const deck = state.decks.byId(taskId);
			if (!deck) throw new Error(`setDeckStatusOverride: no deck ${taskId}`);
			deck.statusOverride = word ?? undefined;
		},
		holdDeck: (taskId, held) => {
			const deck = state.decks.byId(taskId);
			if (!deck) throw new Error(`holdDeck: no deck ${taskId}`);
			deck.held = held || undefined;
		},
		setFileReady: (taskId, ready) => {
			const deck = state.decks.byId(taskId);
			if (!deck) throw new Error(`setFileReady: no deck ${taskId}`);
			deck.fileReady = ready || undefined;
		},
		deck: (taskId) => state.decks.snapshot(taskId, state.now()),
		advance: (ms) => state.clock.advance(ms),
		now: () => state.now(),
		setFaults: (rules) => state.faults.set(rules),
		faultsInjected: () => state.faults.injected(),
		setSurface: (s) => {
			state.surface = s;
		},
		setDatabase: (s) => {
			state.database = s;
		},
		setUnshipped: (list) => {
			state.unshipped = new Set(list);
		},
		setStatusWords: (words) => {
			state.statusWords = { ...state.statusWords, ...stripUndefined(words) };
		},
		setLimits: (limits) => {
			state.limits = { ...state.limits, ...stripUndefined(limits) };
		},
		resetLedger: () => state.ledger.reset(),
		setDeckFileBytes: (bytes) => {
			state.deckFileBytes = bytes;
		},
		setEchoKey: (on) => {
			state.echoKey = on;
		},
		setReadLag: (lag) => {
			state.readLag = lag;
		},
	};
}
