// The reference Deck Generation Service: a real HTTP server (node:http) implementing every rule of
// /work/shared/spec/service-interface.md, with our decisions for the contract's gaps. The decision table
// (wire shapes, prices, scopes, pipeline order) lives in README.md beside this file; read it before relying
// on a detail.
//
// Module map:
//   server.ts      the request pipeline (order of checks), body reading, drop/latency faults
//   router.ts      route table: path, verb, scope, capability, body schema, spending flag
//   handlers.ts    credits, create, status, revisions, translations, video, materials
//   auth.ts        401 / 403 (not_enrolled, insufficient_scope, unrecognized_scope)
//   accounts.ts    principals, wallets, keys, monthly counters     demo.ts   the demo keys
//   pricing.ts     live price table, quotes, 409 price_drift        payments.ts  every 402
//   idempotency.ts replay / reuse / in-progress store               ratelimit.ts  token buckets (real time)
//   materials.ts   the six 415 rules   sniff.ts  magic bytes        multipart.ts  form-data parser
//   decks.ts       decks and jobs on the sim clock                  clock.ts  speed or manual clock
//   validation.ts  strict bodies, 422 in the framework shape        problem.ts / reply.ts  answer shapes
//   profile.ts     the choices for the contract's gaps (reference / alternate)   storage.ts  presigned-storage stand-in
//   services.ts    real services' shapes of the status read and create answers (choice `service`, issues 31, 37, 39)
//   deckfiles.ts   the bytes file hosts serve (a real PPTX ZIP, a PDF, previews, inputs; `fileContent`)
//   zip.ts         stored ZIPs and their central directory    ranges.ts  Range requests as S3 answers them
//   faults.ts      seeded fault plan    ledger.ts  requests and charges    control.ts  test control surface
import type { AddressInfo } from 'node:net';
import { createControl } from './control';
import { storedDeckFile } from './handlers';
import { createServer } from './server';
import { SERVICE_SHAPES } from './services';
import { SimState } from './state';
import type { Simulator, SimulatorOptions } from './types';

export type {
	AccountPatch,
	AccountSpec,
	Capability,
	Charge,
	CreatedAccount,
	DeckOutcome,
	DeckSnapshot,
	FailureKind,
	DemoKeyName,
	DemoKeys,
	FaultKind,
	FaultRule,
	FaultStep,
	Ledger,
	Limits,
	PriceTable,
	RequestRecord,
	SeedDeckSpec,
	Simulator,
	SimulatorControl,
	SimulatorOptions,
	StatusWords,
} from './types';
export { DEMO_KEY_DESCRIPTIONS } from './demo';
export { DEFAULT_LIMITS, DEFAULT_STATUS_WORDS } from './state';
export { PROFILES, createRequires, type ProfileChoices, type ProfileName, type ResultLinks } from './profile';
export type { StorageRequest, StorageRequest as FileRequest } from './storage';
export { DECK_FILE_TYPES, readDeckFile, type DeckFileReading, type FileContent } from './deckfiles';
export { crc32, zipEntries, zipEntryData, type ZipListing } from './zip';
export {
	FAILURE_KINDS,
	FAILURE_REASONS,
	PARTIAL_REASON,
	SERVICE_SHAPES,
	SERVICE_SHAPE_NAMES,
	valueAt,
	type ServiceShape,
	type ServiceShapeSpec,
} from './services';
export { DEFAULT_PRICES } from './pricing';
export { RECOGNIZED_ACTIONS, RECOGNIZED_RESOURCES } from './auth';
export { PROBLEM_TYPE_BASE } from './problem';

export async function start(opts: SimulatorOptions = {}): Promise<Simulator> {
	const state = new SimState(opts);
	// the decks' files are on the storage from the moment they are done, read or not
	state.storage.resolve = (objectPath) => storedDeckFile(state, objectPath);
	await state.storage.listen();
	const server = createServer(state);
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(opts.port ?? 0, '127.0.0.1', () => {
			server.off('error', reject);
			resolve();
		});
	});
	const { port } = server.address() as AddressInfo;
	state.publicUrl = `http://127.0.0.1:${port}`;
	let closed: Promise<void> | undefined;
	return {
		url: state.publicUrl,
		profile: state.profile,
		...(state.profile.service !== 'none' ? { serviceShape: SERVICE_SHAPES[state.profile.service] } : {}),
		storage: state.storage,
		fileRequests: state.fileRequests,
		keys: state.keys,
		ledger: state.ledger,
		control: createControl(state),
		close: () => {
			closed ??= Promise.all([
				new Promise<void>((resolve) => {
					server.close(() => resolve());
					server.closeAllConnections();
				}),
				state.storage.close(),
			]).then(() => undefined);
			return closed;
		},
	};
}
