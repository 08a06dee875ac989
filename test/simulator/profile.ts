// Profiles: the simulator's choices wherever the contract says "not shown". `reference` is the reading this
// simulator was built with; `alternate` takes the other legal side of every gap, so a client fitted to one
// reading fails a test instead of a user. Every choice can be flipped on its own:
//
//   start({ profile: 'alternate' })                                   // every choice of profile B
//   start({ profile: 'reference', choices: { replayHeader: 'X-Idempotency-Replayed' } })   // one flipped
//
// The table of both profiles is in README.md beside this file. Rules the contract does state hold in both
// (test/conformance runs against each).
import type { FileContent } from './deckfiles';
import { SERVICE_SHAPE_NAMES, type DeckView, type ServiceShape } from './services';
import type { StatusWords } from './types';

export type ProfileName = 'reference' | 'alternate' | 'readings' | 'contrary';

/** Where a finished deck's links sit in the status body. */
export type ResultLinks =
	/** `deckUrl` (string) */
	| 'deckUrl'
	/** `files: { pptx, pdf }` */
	| 'files'
	/** `export: { url, format, expiresAt }` */
	| 'export'
	/** `result: { download_url, pdf_url }` */
	| 'result';

export interface ProfileChoices {
	/**
	 * Success status of `POST /v1/decks` (and the other spending POSTs). 303 (a test choice): "See Other",
	 * `Location` = the deck's status path on the API origin, the body as with 202.
	 */
	createStatus: 200 | 201 | 202 | 303;
	/** Creation answer: `full` = taskId, status, creditsCharged, createdAt, version, max_versions; `minimal` = taskId, state, `_links.status`. */
	createResponse: 'full' | 'minimal';
	/** The words of the status endpoint. */
	statusWords: StatusWords;
	/** The member that carries the status word. */
	statusMember: 'status' | 'state';
	/** Where the finished deck's links are. */
	resultLinks: ResultLinks;
	/**
	 * Where the links point. `api`: the API's own origin (`/v1/decks/{taskId}/files/{name}`, bearer required).
	 * `storage`: presigned URLs on a second loopback server (a storage stand-in that refuses an Authorization
	 * header as S3 does). `redirect`: the API origin, which answers 302 to the presigned storage URL.
	 * `api-relative` (a test choice): as `api`, given as root-relative paths (`/v1/decks/{taskId}/files/deck.pptx`).
	 * `api-alias` (a test choice): as `api`, under another name of the same server (`http://localhost:PORT` while
	 * the simulator's URL says `127.0.0.1`), as a service that builds its links from its own configured host does.
	 */
	fileLinks: 'api' | 'storage' | 'redirect' | 'api-relative' | 'api-alias';
	/** The header that marks an idempotent replay (value `true`). */
	replayHeader: string;
	/**
	 * Which a spending POST meets first (the contract orders neither): `after-key` = the idempotency store, then the
	 * price (a stored key replays its body whatever the live price, and refuses another body, 409
	 * idempotency_key_reused); `before-key` = the price, then the store (a body at a price no longer live is 409
	 * price_drift even under a stored key, and only a body at the live price reaches the key). A new key meets the
	 * price where the handler checks it either way (after the slide cap's and the account's refusals).
	 */
	priceCheck: 'after-key' | 'before-key';
	/** Create fields required beyond `expected_credits`. `title-or-core-message` = at least one of the two. */
	requiredCreateFields: 'title-or-core-message' | string[];
	/**
	 * Where a 402 names its cta. `top-level` = `cta` member plus each option's cta; `options-only` = only inside
	 * `options`; `none` = nowhere (not a profile choice: only the video paywall does that, tests use it to prove
	 * that any 402 without a cta is treated as the paywall); `options-strings` = `options` is a plain array of cta
	 * strings (`["confirm_slide_surcharge", "upgrade_for_slides"]`), no top-level cta (the paywall's is `[]`).
	 */
	paymentCta: 'top-level' | 'options-only' | 'none' | 'options-strings';
	/** Body of the edge 429 (before authentication): `text` = text/plain; `json` = a gateway's JSON. */
	edge429: 'text' | 'json';
	/** Body of the size layer's 413: `html` = an nginx page; `json` = a gateway's JSON. */
	body413: 'html' | 'json';
	/** Prefix of the rate-limit headers: `x-ratelimit-` (X-RateLimit-Remaining), `ratelimit-` (IETF draft), `x-rate-limit-`. */
	rateLimitHeaders: 'x-ratelimit-' | 'ratelimit-' | 'x-rate-limit-';
	/** Strict-body refusal: `422-framework` = 422 `{"detail":[{loc,msg}]}`; `400-problem` = 400 problem+json with `errors: [{field, message}]`. */
	bodyValidation: '422-framework' | '400-problem';
	/** Status of the missing/invalid Idempotency-Key refusal (problem+json `validation_failed` either way). */
	missingKeyStatus: 400 | 422;
	/** 401 body: `problem` = problem+json `unauthorized`; `plain-json` = `{"error":"invalid_token","error_description":…}` from an auth layer. */
	unauthorizedBody: 'problem' | 'plain-json';
	/** Base of every problem's `type` URI (the code is appended). */
	problemTypeBase: string;
	/** Credits answer: `reference` = `{credits, wallet, principal, …}`; `nested` = `{balance: {available, currency}, account: {…}, key: {…}}`. */
	creditsResponse: 'reference' | 'nested';
	/**
	 * Upload answer: `reference` = 201 `{materialId, filename, contentType, size, sha256}`; `plain` = 200
	 * `{id, name, mime_type, size_bytes}`; `snake` = 201 `{material_id, file_name, …}`; `data` = 201
	 * `{data: {id, filename, …}}`; `jsonapi` = 201 `{data: {type: "material", id, attributes: {…}}}`; `ref` (a test
	 * choice) = 201 `{ref, filename, …}`, an id under a name no client can know.
	 */
	materialResponse: 'reference' | 'plain' | 'snake' | 'data' | 'jsonapi' | 'ref';
	/**
	 * The material id's type (the contract leaves `material_ids` unspecified): `string` (`mat_…`), or `integer`
	 * (a database serial, e.g. 4711), then also strictly integers in `material_ids` ("4711" is refused, 422).
	 * Not part of a profile: a test choice.
	 */
	materialIdType: 'string' | 'integer';
	/** Org-key spend switched off: 402 `org_spend_disabled`, or 403 `forbidden` (the contract allows both). */
	orgSpendDisabledStatus: 402 | 403;
	/** Whether file answers carry `Content-Disposition` (else a client must take the name from the URL). */
	fileDisposition: boolean;
	/**
	 * Success bodies of the spending POSTs and the status read: `bare` = the members at the top level;
	 * `data` = wrapped as `{ data: {…}, meta: { requestId } }` (a JSON:API-style envelope; the contract only
	 * says the body "carries" `taskId`); `jsonapi` = `{ data: { type: "deck", id, attributes: {…} }, meta }`. Not part
	 * of profile B: a test choice.
	 */
	successEnvelope: 'bare' | 'data' | 'jsonapi';
	/** The status word as text (`"status": "completed"`) or inside an object (`"status": {"code": "completed"}`). Not part of profile B: a test choice. */
	statusWordShape: 'text' | 'object';
	/**
	 * Members of the status answer named as the nodes name theirs. `none`; `hal` = HAL-style `links: {self: {href},
	 * file: {href}, pdf: {href}}` holding the files (instead of `resultLinks`) and `deckUrl` = the deck's page in
	 * the app (not the file).
	 */
	statusLinks: 'none' | 'hal';
	/** How a file answer gives its length: `content-length`, or `chunked` (no Content-Length; API files and storage alike). */
	fileLength: 'content-length' | 'chunked';
	/**
	 * What a finished deck's file address serves (API files and storage alike), with a 200: `deck` (the PPTX, a
	 * real ZIP with a presentation inside, or the PDF); `html` (a sign-in page, as a CDN in front of a bucket
	 * serves); `image` (a PNG); `xml-error` (S3's `NoSuchKey` error document). Not part of a profile: a test
	 * choice, to prove that what is not a deck is never handed over as the deck.
	 */
	fileContent: FileContent;
	/**
	 * Whether a deck's file is at its address before the deck is done, where a record links it early
	 * (`linksWhileRunning`, or a shape whose running record names its future file): `missing` (404 until the deck
	 * succeeded, as Creatomate documents), `ready` (already served: a service whose word lags its file). A failed
	 * deck's file is never there. Not part of a profile: a test choice.
	 */
	fileWhileRunning: 'missing' | 'ready';
	/**
	 * The status record without its word (issue 43): the profile's status member left out, or a service shape's
	 * word members (its `wordAt`, `conclusionAt`, `failedWordAt`). Everything else as served: the record's link,
	 * progress and flags, and the file at its address, are all a reader has. Not part of a profile: a test choice.
	 */
	omitStatusWord: boolean;
	/**
	 * Where a failed deck's record gives its reason (the status fields are not shown): `error` = `error: {code,
	 * message}`; `failureReason` = a text; `errors` = `errors: [{code, message}]`; `failure` = `failure: {reason}`.
	 */
	failureMember: 'error' | 'failureReason' | 'errors' | 'failure';
	/**
	 * Where each 402 option gives its link (the options' shape is not shown): `url`; `href`; `nested` =
	 * `link: {url}`; `hal` = `_links: {checkout: {href}}`. With `options-strings` (no option objects) any value
	 * but `url` puts HAL `_links` on the body itself, one per cta.
	 */
	optionLinks: 'url' | 'href' | 'nested' | 'hal';
	/**
	 * Whether a running deck's record already carries the links its file will have (given before the file is
	 * ready, as a service that hands out the final URL up front does); its `progress` says it is not done.
	 */
	linksWhileRunning: boolean;
	/**
	 * Where the operations the contract shows no path for are served (issue 26): each one named here moves
	 * there, and its usual path answers 404 like any unknown path. E.g. `{ materials: '/v1/files', revisions:
	 * '/v1/decks/{taskId}/versions' }` (`{taskId}` where the deck's id goes). Profile D moves all four.
	 */
	paths: EndpointPaths;
	/**
	 * The real service whose shapes the status read and the spending POSTs' success answers take (issue 31,
	 * services.ts; README "Real services modelled"): `none` (this profile's own choices above), or one of
	 * `slidespeak`, `gamma`, `presenton`, `replicate`, `runway`, `kling`, `heygen`, `fal`, `stability`, `minimax`,
	 * `luma`, `suno`, `apify`, … (SERVICE_SHAPE_NAMES). A shape replaces the choices about those bodies (createStatus, createResponse,
	 * statusWords, statusMember, resultLinks, successEnvelope, statusWordShape, statusLinks, failureMember,
	 * linksWhileRunning); every other choice keeps applying (fileLinks, fileLength, paths, the failure dialect…).
	 * Not part of a profile: a test choice.
	 */
	service: ServiceShape;
	/**
	 * Members a service writes into a status record without meaning them (issue 31, class 4), merged over the
	 * record's own (the service shape's top level, or this profile's record): e.g. a finished deck whose
	 * `progress` stopped at 99, an empty `error: {code: 0, message: ""}`, a `warnings` list, or a preview in
	 * `output` while the deck runs. Called for every status read with what the simulator knows of the deck.
	 * Not part of a profile: a test choice.
	 */
	statusExtras?: (deck: DeckView) => Record<string, unknown> | undefined;
	/**
	 * A status record written by a test, served as the whole status answer (200) in place of the profile's or the
	 * service shape's (issue 50: the decoy fixture, test/fixtures/status-decoys.ts). The deck's files stay at
	 * their addresses (a 404 until the deck succeeded). Not part of a profile: a test choice.
	 */
	statusRecord?: (deck: DeckView) => Record<string, unknown>;
}

/** The operations whose path the contract leaves open, by the simulator's route. */
export type EndpointPaths = Partial<Record<'materials' | 'revisions' | 'translations' | 'video', string>>;

export const PROFILES = {
	reference: {
		createStatus: 202,
		createResponse: 'full',
		statusWords: { queued: 'queued', running: 'generating', succeeded: 'completed', failed: 'failed' },
		statusMember: 'status',
		resultLinks: 'deckUrl',
		fileLinks: 'api',
		replayHeader: 'Idempotency-Replayed',
		priceCheck: 'after-key',
		requiredCreateFields: 'title-or-core-message',
		paymentCta: 'top-level',
		edge429: 'text',
		body413: 'html',
		rateLimitHeaders: 'x-ratelimit-',
		bodyValidation: '422-framework',
		missingKeyStatus: 400,
		unauthorizedBody: 'problem',
		problemTypeBase: 'https://docs.deckgen.example/api/errors#',
		creditsResponse: 'reference',
		materialResponse: 'reference',
		materialIdType: 'string',
		orgSpendDisabledStatus: 402,
		fileDisposition: true,
		successEnvelope: 'bare',
		statusWordShape: 'text',
		statusLinks: 'none',
		fileLength: 'content-length',
		fileContent: 'deck',
		fileWhileRunning: 'missing',
		omitStatusWord: false,
		failureMember: 'error',
		optionLinks: 'url',
		linksWhileRunning: false,
		paths: {},
		service: 'none',
	},
	alternate: {
		createStatus: 201,
		createResponse: 'minimal',
		statusWords: { queued: 'QUEUED', running: 'IN_PROGRESS', succeeded: 'SUCCEEDED', failed: 'FAILED' },
		statusMember: 'state',
		resultLinks: 'files',
		fileLinks: 'storage',
		replayHeader: 'Idempotent-Replayed',
		priceCheck: 'before-key',
		requiredCreateFields: ['title', 'audience', 'slide_count'],
		paymentCta: 'options-only',
		edge429: 'json',
		body413: 'json',
		rateLimitHeaders: 'ratelimit-',
		bodyValidation: '400-problem',
		missingKeyStatus: 422,
		unauthorizedBody: 'plain-json',
		problemTypeBase: 'https://api.deckgen.example/problems/',
		creditsResponse: 'nested',
		materialResponse: 'plain',
		materialIdType: 'string',
		orgSpendDisabledStatus: 403,
		fileDisposition: false,
		successEnvelope: 'bare',
		statusWordShape: 'text',
		statusLinks: 'none',
		fileLength: 'content-length',
		fileContent: 'deck',
		fileWhileRunning: 'missing',
		omitStatusWord: false,
		failureMember: 'error',
		optionLinks: 'url',
		linksWhileRunning: false,
		paths: {},
		service: 'none',
	},
} as Record<ProfileName, ProfileChoices>;

/**
 * Profile C ("readings"): profile B with the readings of issue 16 where B had none: the upload record in the
 * JSON:API shape, 402 options as plain cta strings, HAL-style `links` and an app-page `deckUrl` in the status,
 * files sent without Content-Length.
 */
PROFILES.readings = {
	...PROFILES.alternate,
	materialResponse: 'jsonapi',
	paymentCta: 'options-strings',
	statusLinks: 'hal',
	fileLength: 'chunked',
};

/**
 * Profile D ("contrary"): the readings of issue 26, where the word alone misleads. The running deck says
 * `done` (a success word of the default map) at progress below 100 with nothing to hand over; the finished
 * deck says `processed` (on no list) with its files; the failed deck says `completed` (a success word) with
 * its reason under `failureReason`. 402 options carry their links HAL-style (`_links.checkout.href`). The
 * upload, revisions, translations and video are served at other paths. (Until issue 31 its running deck also
 * carried its file links early; a success word beside the deck's file is believed since, whatever the
 * progress says, so a deployment that does both must list its running word: judgement.test.ts shows both.)
 */
PROFILES.contrary = {
	...PROFILES.alternate,
	statusWords: { queued: 'accepted', running: 'done', succeeded: 'processed', failed: 'completed' },
	failureMember: 'failureReason',
	optionLinks: 'hal',
	// the operations the contract shows no path for, served elsewhere (the tests' credential names them)
	paths: { materials: '/v1/files', revisions: '/v1/decks/{taskId}/versions', translations: '/v1/translations/{taskId}', video: '/v1/decks/{taskId}/videos' },
};

/** The profile tests run against when they name none: `DECKGEN_SIM_PROFILE` (the jest project "profile B" sets it). */
export function defaultProfileName(): ProfileName {
	const fromEnv = process.env.DECKGEN_SIM_PROFILE;
	return fromEnv === 'alternate' || fromEnv === 'readings' || fromEnv === 'contrary' ? fromEnv : 'reference';
}

/**
 * The service shape tests face when they name none: `DECKGEN_SIM_SERVICE` (e.g. `DECKGEN_SIM_SERVICE=kling npx
 * jest test/workflows/wait`), else `none`. No jest project sets it: a way to run any suite against one shape.
 */
export function defaultService(): ServiceShape {
	const fromEnv = process.env.DECKGEN_SIM_SERVICE as ServiceShape | undefined;
	return fromEnv && (SERVICE_SHAPE_NAMES as string[]).includes(fromEnv) ? fromEnv : 'none';
}

export function resolveProfile(name: ProfileName | undefined, choices: Partial<ProfileChoices> = {}): ProfileChoices & { name: ProfileName } {
	const base = name ?? defaultProfileName();
	const defined = Object.fromEntries(Object.entries(choices).filter(([, v]) => v !== undefined)) as Partial<ProfileChoices>;
	return { ...PROFILES[base], service: defaultService(), ...defined, name: base };
}

/** Whether the create body needs `field` under this profile (tests fill exactly what is needed). */
export function createRequires(profile: ProfileChoices, field: string): boolean {
	return Array.isArray(profile.requiredCreateFields) && profile.requiredCreateFields.includes(field);
}
