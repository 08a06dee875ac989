// The API handlers. They run after the pipeline (server.ts) has authenticated the key, checked its scope and
// rate buckets, validated the body and claimed the Idempotency-Key; each decides and, when it spends, charges.
import type { IncomingHttpHeaders } from 'node:http';

import type { KeyRecord, Principal } from './accounts';
import { parseScopes } from './auth';
import { iso, startOfNextMonth } from './clock';
import { INTERMEDIATE_AUDIO, PREVIEW_PNG, dataFile, inputDocument, servedDeckFile, type DataFileKind, type DeckFormat, type ServedFile } from './deckfiles';
import { deckState, endingOf, type Deck } from './decks';
import { checkFile, fileIssue, sha256 } from './materials';
import type { Part } from './multipart';
import {
	accountRefusal,
	balanceRefusal,
	capRefusal,
	confirmSlideSurcharge,
	subscribeForTranslation,
	tooManyDecks,
	upgradeForSlides,
	type SpendOperation,
} from './payments';
import { DEFAULT_SLIDE_COUNT, priceDrift, quoteCreate, quoteRevision, quoteTranslation } from './pricing';
import { conflict, notFound, problem, validationFailed, type ValidationIssue } from './problem';
import { contentRange, rangeOf, unsatisfiedRange } from './ranges';
import { json, raw, type Reply } from './reply';
import { FAILURE_REASONS, PARTIAL_REASON, serviceCreated, serviceStatus, withoutWord, type DeckView, type ServiceAnswer } from './services';
import type { SimState } from './state';

export interface Call {
	state: SimState;
	key: KeyRecord;
	principal: Principal;
	params: Record<string, string>;
	/** Validated JSON body (JSON routes). */
	body: Record<string, unknown>;
	/** Multipart parts (materials route). */
	parts: Part[];
	idempotencyKey?: string;
	now: number;
	/** The request's headers (a file read's Range). */
	headers: IncomingHttpHeaders;
}

const APP = 'https://app.deckgen.example';

/** The status word under the profile's member (`status` or `state`). */
function statusField(state: SimState, word: string): Record<string, unknown> {
	return { [state.profile.statusMember]: state.profile.statusWordShape === 'object' ? { code: word } : word };
}

/** Success of a spending POST, with the profile's status code, or in the shape of the service it speaks. */
function accepted(state: SimState, value: Record<string, unknown>, deck: Deck, now: number): Reply {
	if (state.profile.service !== 'none') return answered(serviceCreated(state.profile.service, deckView(state, deck, now)));
	const seeOther = state.profile.createStatus === 303 && typeof value.taskId === 'string';
	const headers: Record<string, string> = seeOther ? { location: `/v1/decks/${encodeURIComponent(value.taskId as string)}/status` } : {};
	return json(state.profile.createStatus, enveloped(state, value), headers);
}

/** The profile's success envelope: the members as they are, or under `data`. */
function enveloped(state: SimState, value: Record<string, unknown>): Record<string, unknown> {
	switch (state.profile.successEnvelope) {
		case 'bare':
			return value;
		case 'data':
			return { data: value, meta: { version: 'v1' } };
		case 'jsonapi':
			return { data: { type: 'deck', id: value.taskId, attributes: value }, meta: { version: 'v1' } };
	}
}

/** Takes the money and writes the ledger; also counts the call against spend velocity. */
function commitSpend(call: Call, operation: SpendOperation, credits: number, taskId: string): void {
	const { state, key, principal } = call;
	principal.balance -= credits;
	key.monthlySpent += credits;
	key.orgKeySpent += credits;
	state.buckets.get(`spend:${key.id}`, state.limits.spendPerHour, 3_600_000, state.limits.retryAfterMs).take();
	// A 0-credit operation (the included revision) is not a charge.
	if (credits > 0) {
		state.ledger.addCharge({
			chargeId: 'chg_' + state.ids.hex(20),
			principalId: principal.id,
			keyId: key.id,
			operation,
			credits,
			taskId,
			idempotencyKey: call.idempotencyKey ?? '',
			at: call.now,
		});
	}
}

/** Price drift, then the caps, then the balance: the order in which a spend is refused. */
function spendGate(call: Call, operation: SpendOperation, credits: number, withLanguages = false): Reply | undefined {
	const expected = call.body.expected_credits as number;
	if (expected !== credits) return priceDrift(expected, credits);
	return capRefusal(call.key, credits, call.now) ?? balanceRefusal(call.principal, operation, credits, withLanguages);
}

/**
 * The live price of a spending call as sent, for a service that checks the price before the idempotency store
 * (profile choice `priceCheck: 'before-key'`); undefined where the handler would refuse it for another reason first.
 */
export function livePriceOf(routeId: string, call: Call): number | undefined {
	const { state, principal, body } = call;
	if (routeId === 'POST /v1/decks') {
		const languages = (body.additional_languages as string[] | undefined) ?? [];
		return quoteCreate(state.prices, (body.slide_count as number | undefined) ?? DEFAULT_SLIDE_COUNT, state.limits.freeSlideCap, body.confirm_slide_surcharge === true, languages.length).credits;
	}
	const deck = call.params.taskId ? state.decks.visible(call.params.taskId, principal.id) : undefined;
	if (!deck) return undefined;
	if (routeId.endsWith('/revisions')) return quoteRevision(state.prices, deck.revisions);
	if (routeId.endsWith('/translations')) return quoteTranslation(state.prices, ((body.languages as string[] | undefined) ?? []).length);
	if (routeId.endsWith('/video')) return state.prices.video;
	return undefined;
}

export function getCredits(call: Call): Reply {
	const { key, principal } = call;
	const cap = key.monthlyCap ?? key.orgKeyCap;
	const spent = key.monthlyCap !== undefined ? key.monthlySpent : key.orgKeySpent;
	const scopes = parseScopes(key.scopes).granted.map((s) => `${s.resource}:${s.action}`);
	const resetAt = iso(startOfNextMonth(call.now));
	if (call.state.profile.creditsResponse === 'nested') {
		return json(200, {
			balance: { available: principal.balance, currency: 'credits' },
			account: { id: principal.id, kind: principal.type === 'user' ? 'personal' : 'organization', subscription: principal.subscriber ? 'active' : 'none' },
			key: { id: key.id, scopes, ...(cap !== undefined ? { monthly_cap: { limit: cap, used: spent, resets_at: resetAt } } : {}) },
		});
	}
	return json(200, {
		credits: principal.balance,
		wallet: principal.type === 'user' ? 'personal' : 'organisation',
		principal: { type: principal.type, id: principal.id },
		subscriber: principal.subscriber,
		scopes,
		...(cap !== undefined ? { monthlyCreditCap: cap, monthlyCreditsSpent: spent, resetAt } : {}),
	});
}

export function createDeck(call: Call): Reply {
	const { state, principal, body, now } = call;
	const materialIssues = (body.material_ids as Array<string | number> | undefined ?? []).flatMap((id, i): ValidationIssue[] => {
		const m = state.materials.get(String(id));
		// No `input` echo: the id may name another customer's material, and bodies never carry those.
		return m && m.principalId === principal.id ? [] : [{ type: 'value_error', loc: ['body', 'material_ids', i], msg: 'Value error, no such material' }];
	});
	if (materialIssues.length) return validationFailed(materialIssues);

	const refusal = accountRefusal(principal);
	if (refusal) return refusal;
	const inProgress = state.decks.inProgress(principal.id, now);
	if (inProgress >= state.limits.maxConcurrentDecks) return tooManyDecks(inProgress, state.limits.maxConcurrentDecks);

	const slideCount = (body.slide_count as number | undefined) ?? DEFAULT_SLIDE_COUNT;
	const confirm = body.confirm_slide_surcharge === true;
	const languages = (body.additional_languages as string[] | undefined) ?? [];
	const cap = state.limits.freeSlideCap;
	const quote = quoteCreate(state.prices, slideCount, cap, confirm, languages.length);
	if (quote.overCap && !principal.subscriber) return upgradeForSlides(slideCount, cap);
	if (quote.overCap && !confirm) return confirmSlideSurcharge(slideCount, cap, quote.surchargedCredits, quote.surcharge);
	if (languages.length > 0 && !principal.subscriber) return subscribeForTranslation();
	const refused = spendGate(call, 'create', quote.credits, languages.length > 0);
	if (refused) return refused;

	const outputLanguage = (body.output_language as string | undefined) ?? 'en';
	const deck = state.decks.create(principal.id, call.key.id, now, state.limits.maxVersions, [outputLanguage, ...languages], {}, ((body.material_ids as Array<string | number> | undefined) ?? []).map(String));
	commitSpend(call, 'create', quote.credits, deck.taskId);
	if (state.profile.createResponse === 'minimal') {
		return accepted(state, { taskId: deck.taskId, ...statusField(state, state.statusWords.queued), _links: { status: `/v1/decks/${deck.taskId}/status` } }, deck, now);
	}
	return accepted(state, {
		taskId: deck.taskId,
		...statusField(state, state.statusWords.queued),
		creditsCharged: quote.credits,
		createdAt: iso(now),
		version: deck.version,
		max_versions: deck.maxVersions,
	}, deck, now);
}

export function getStatus(call: Call): Reply {
	const { state, principal, now } = call;
	const deck = state.decks.visible(call.params.taskId, principal.id);
	if (!deck) return notFound();
	// replica lag: a deck just bought is not visible yet, exactly as an unknown id is not (types.ts ReadLag)
	const reads = (deck.statusReads = (deck.statusReads ?? 0) + 1);
	const lag = state.readLag;
	if (lag && ((lag.reads !== undefined && reads <= lag.reads) || (lag.ms !== undefined && now - deck.createdAt < lag.ms))) return notFound();
	if (state.profile.statusRecord) return json(200, state.profile.statusRecord(deckView(state, deck, now)));
	if (state.profile.service !== 'none') {
		const view = deckView(state, deck, now);
		const served = serviceStatus(state.profile.service, view);
		const answer = state.profile.omitStatusWord && served.body ? { ...served, body: withoutWord(state.profile.service, served.body) } : served;
		const extras = state.profile.statusExtras?.(view);
		return answered(extras && answer.body ? { ...answer, body: { ...answer.body, ...extras } } : answer);
	}
	const s = deckState(deck, now);
	const extras = state.profile.statusExtras?.(deckView(state, deck, now));
	const words = state.statusWords;
	const alternate = state.profile.createResponse === 'minimal';
	// A partial deck (its pdf failed, its pptx is there) says `partial`, with the failed format's reason.
	const partial = s.phase === 'succeeded' && deck.job.partial === true;
	return json(200, enveloped(state, {
		taskId: deck.taskId,
		...(state.profile.omitStatusWord ? {} : statusField(state, deck.statusOverride ?? (partial ? 'partial' : words[s.phase]))),
		progress: s.progress,
		version: deck.version,
		max_versions: deck.maxVersions,
		languages: deck.languages,
		createdAt: iso(deck.createdAt),
		updatedAt: iso(s.updatedAt),
		// A link to the app's page of the deck, not the file: a client must not take it for the deck.
		...(alternate ? { webUrl: `${APP}/decks/${deck.taskId}` } : {}),
		...(s.phase === 'succeeded' || (s.phase === 'running' && state.profile.linksWhileRunning)
			? state.profile.statusLinks === 'hal'
				? halLinks(state, deck)
				: resultLinks(state, deck, now)
			: {}),
		...(s.phase === 'succeeded' && deck.video ? { videoUrl: `${APP}/decks/${deck.taskId}/video?version=${deck.version}` } : {}),
		...(partial ? { formats: { pptx: { status: 'ready' }, pdf: { status: 'failed', error: PARTIAL_REASON } } } : {}),
		...(s.phase === 'failed' ? failureRecord(state, deck) : {}),
		...extras,
	}));
}

/** A service shape's answer as a reply: its JSON, or an empty body. */
function answered(answer: ServiceAnswer): Reply {
	return answer.body ? json(answer.status, answer.body) : { status: answer.status, headers: {}, body: { kind: 'empty' } };
}

/** What a service shape may say about a deck now (services.ts): its phase, how it ends, its links. */
function deckView(state: SimState, deck: Deck, now: number): DeckView {
	const s = deckState(deck, now);
	const partial = s.phase === 'succeeded' && deck.job.partial === true;
	const ending = s.phase === 'running' ? endingOf(deck, now) : undefined;
	return {
		taskId: deck.taskId,
		version: deck.version,
		phase: s.phase,
		...(ending ? { ending } : {}),
		failureKind: deck.job.failureKind ?? 'error',
		partial,
		progress: s.progress,
		createdAt: deck.createdAt,
		updatedAt: s.updatedAt,
		pptx: () => fileUrl(state, deck, 'pptx'),
		pdf: () => (partial ? undefined : fileUrl(state, deck, 'pdf')),
		preview: (n) => state.storage.put(`/decks/${deck.taskId}/v${deck.version}/preview-${n}.png`, { data: PREVIEW_PNG, contentType: 'image/png' }),
		input: () => state.storage.put(`/inputs/${deck.taskId}/brief.docx`, inputDocument(deck.taskId)),
		audio: () => state.storage.put(`/decks/${deck.taskId}/v${deck.version}/narration.wav`, INTERMEDIATE_AUDIO),
		dataFile: (kind) => state.storage.put(dataFilePath(deck, kind), dataFile(kind, deck.taskId)),
		futureDataFile: (kind) => state.storage.urlFor(dataFilePath(deck, kind)),
		appPage: `${APP}/decks/${deck.taskId}`,
		statusUrl: `${state.publicUrl}/v1/decks/${encodeURIComponent(deck.taskId)}/status`,
	};
}

/** Where a deck's data file is on the storage stand-in (partial rows, a log archive, subtitles). */
const DATA_FILE_NAMES: Record<DataFileKind, string> = { 'partial-data': 'partial-data.jsonl', logs: 'logs.zip', vtt: 'subtitles.vtt', srt: 'subtitles.srt' };
const dataFilePath = (deck: Deck, kind: DataFileKind) => `/decks/${deck.taskId}/v${deck.version}/${DATA_FILE_NAMES[kind]}`;

/** A failed deck's reason (by its failure kind), where the profile puts it (`failureMember`). */
function failureRecord(state: SimState, deck: Deck): Record<string, unknown> {
	const FAILURE = FAILURE_REASONS[deck.job.failureKind ?? 'error'];
	switch (state.profile.failureMember) {
		case 'error':
			return { error: FAILURE };
		case 'failureReason':
			return { failureReason: FAILURE.message };
		case 'errors':
			return { errors: [FAILURE] };
		case 'failure':
			return { failure: { reason: FAILURE.message } };
	}
}

export function deckFileName(deck: Deck, format: DeckFormat): string {
	return `deck-${deck.taskId}-v${deck.version}.${format}`;
}

/**
 * Whether a deck's file is at its address now: once the deck succeeded (a partial deck's pdf never), or, with
 * `fileWhileRunning: 'ready'` or since `control.setFileReady`, already before it is done (a service whose word,
 * or whose whole record, lags its file). A failed deck's file never is, whatever its record links.
 */
function fileIsThere(state: SimState, deck: Deck, format: DeckFormat, now: number): boolean {
	const phase = deckState(deck, now).phase;
	if (format === 'pdf' && deck.job.partial && (phase === 'succeeded' || deck.fileReady)) return false;
	const early = state.profile.fileWhileRunning === 'ready' || deck.fileReady === true;
	return phase === 'succeeded' || ((phase === 'queued' || phase === 'running') && early);
}

/** What the deck's file address serves once the file is there: the deck's bytes, or the profile's `fileContent`. */
function servedFile(state: SimState, deck: Deck, format: DeckFormat): ServedFile {
	return servedDeckFile(state.profile.fileContent, deck.taskId, deck.version, format, state.deckFileBytes);
}

/** The deck file's object on the storage stand-in. */
const objectPathOf = (deck: Deck, format: DeckFormat, version = deck.version) => `/decks/${deck.taskId}/v${version}/deck-${deck.taskId}-v${version}.${format}`;

/**
 * A deck file the storage holds, by its object path: there once its version is done (an earlier version always
 * was: a deck is revised only after it succeeded), served as the profile's `fileContent` says.
 */
export function storedDeckFile(state: SimState, objectPath: string): ServedFile | undefined {
	const m = /^\/decks\/([^/]+)\/v(\d+)\/deck-[^/]+-v\d+\.(pptx|pdf)$/.exec(objectPath);
	const deck = m ? state.decks.byId(m[1]) : undefined;
	if (!m || !deck || objectPath !== objectPathOf(deck, m[3] as DeckFormat, Number(m[2]))) return undefined;
	const version = Number(m[2]);
	const format = m[3] as DeckFormat;
	if (version > deck.version || (version === deck.version && !fileIsThere(state, deck, format, state.now()))) return undefined;
	return servedDeckFile(state.profile.fileContent, deck.taskId, version, format, state.deckFileBytes);
}

/**
 * Where the deck's files are: on the API's origin (bearer) or presigned on the storage origin. A link can be
 * given before its file exists (a running record that names its future file): the API and the storage both
 * answer 404 there until the file is (storedDeckFile).
 */
function fileUrl(state: SimState, deck: Deck, format: DeckFormat): string {
	if (state.profile.fileLinks === 'storage') return state.storage.urlFor(objectPathOf(deck, format));
	const path = `/v1/decks/${encodeURIComponent(deck.taskId)}/files/deck.${format}`;
	if (state.profile.fileLinks === 'api-relative') return path;
	// The same server under another of its names (it listens on 127.0.0.1, which `localhost` names too).
	if (state.profile.fileLinks === 'api-alias') return `${state.publicUrl.replace('//127.0.0.1:', '//localhost:')}${path}`;
	return `${state.publicUrl}${path}`;
}

/**
 * HAL-style members named as the nodes name theirs: `links` (an object of `{href}`, the files among them) and
 * `deckUrl`, here the deck's page in the app, not its file.
 */
function halLinks(state: SimState, deck: Deck): Record<string, unknown> {
	return {
		links: {
			self: { href: `/v1/decks/${encodeURIComponent(deck.taskId)}/status` },
			file: { href: fileUrl(state, deck, 'pptx') },
			pdf: { href: fileUrl(state, deck, 'pdf') },
		},
		deckUrl: `${APP}/decks/${deck.taskId}`,
	};
}

function resultLinks(state: SimState, deck: Deck, now: number): Record<string, unknown> {
	const pptx = fileUrl(state, deck, 'pptx');
	const pdf = fileUrl(state, deck, 'pdf');
	switch (state.profile.resultLinks) {
		case 'deckUrl':
			return { deckUrl: pptx };
		case 'files':
			return { files: { pptx, pdf } };
		case 'export':
			return { export: { url: pptx, format: 'pptx', expiresAt: iso(now + 3_600_000) } };
		case 'result':
			return { result: { download_url: pptx, pdf_url: pdf } };
	}
}

/**
 * `GET /v1/decks/{taskId}/files/{name}`: the file itself (bearer), or a 302 to its presigned copy; 404 (problem)
 * until the file is there and forever for a failed deck. One range is answered 206 as S3 does (ranges.ts).
 */
export function getDeckFile(call: Call): Reply {
	const { state, principal, now } = call;
	const deck = state.decks.visible(call.params.taskId, principal.id);
	const format = /^deck\.(pptx|pdf)$/.exec(call.params.name)?.[1] as DeckFormat | undefined;
	if (!deck || !format || !fileIsThere(state, deck, format, now)) return notFound();
	const served = servedFile(state, deck, format);
	if (state.profile.fileLinks === 'redirect') return { status: 302, headers: { location: state.storage.urlFor(objectPathOf(deck, format)) }, body: { kind: 'empty' } };
	const headers: Record<string, string> = { 'accept-ranges': 'bytes', ...(state.profile.fileDisposition ? { 'content-disposition': `attachment; filename="${deckFileName(deck, format)}"` } : {}) };
	const part = rangeOf(call.headers.range, served.data.length);
	if (part.kind === 'unsatisfiable') {
		return problem(416, 'range_not_satisfiable', {
			detail: `The file is ${served.data.length} bytes; the requested range starts past its end.`,
			retryable: false,
			headers: { 'content-range': unsatisfiedRange(served.data.length) },
		});
	}
	if (part.kind === 'part') {
		return raw(206, served.contentType, served.data.subarray(part.start, part.end + 1), { ...headers, 'content-range': contentRange(part.start, part.end, served.data.length) });
	}
	return raw(200, served.contentType, served.data, headers);
}

/** Whether the deck's state lets a follow-up job start: a failed deck is terminal; a running one is busy. */
function followUpRefusal(deck: Deck, now: number): Reply | undefined {
	const phase = deckState(deck, now).phase;
	if (phase === 'failed') return conflict('terminal_state', 'This deck failed; nothing more can be done with it. Start a new deck.', false);
	return undefined;
}

function busyRefusal(deck: Deck, now: number, state: SimState): Reply | undefined {
	const phase = deckState(deck, now).phase;
	if (phase === 'queued' || phase === 'running') {
		const retryAfterMs = state.retryHintMs(5_000);
		return conflict(
			'already_in_progress',
			'This deck is still being generated. Poll its status and try again when it is done.',
			true,
			{ retryAfterMs },
			{ 'retry-after': String(Math.ceil(retryAfterMs / 1000)) },
		);
	}
	return undefined;
}

export function createRevision(call: Call): Reply {
	const { state, principal, now } = call;
	const deck = state.decks.visible(call.params.taskId, principal.id);
	if (!deck) return notFound();
	const refusal = accountRefusal(principal) ?? followUpRefusal(deck, now);
	if (refusal) return refusal;
	if (deck.version >= deck.maxVersions) {
		return problem(429, 'rate_limited', {
			detail: `This deck reached its ceiling of ${deck.maxVersions} versions. Start a new deck; waiting does not help.`,
			retryable: false,
			reason: 'version_cap_reached',
			extra: { version: deck.version, max_versions: deck.maxVersions },
		});
	}
	const busy = busyRefusal(deck, now, state);
	if (busy) return busy;
	const credits = quoteRevision(state.prices, deck.revisions);
	const refused = spendGate(call, 'revision', credits);
	if (refused) return refused;
	deck.revisions++;
	deck.version++;
	state.decks.startJob(deck, 'revision', now);
	commitSpend(call, 'revision', credits, deck.taskId);
	return accepted(state, { taskId: deck.taskId, version: deck.version, ...statusField(state, state.statusWords.queued), creditsCharged: credits }, deck, now);
}

export function createTranslation(call: Call): Reply {
	const { state, principal, now, body } = call;
	const deck = state.decks.visible(call.params.taskId, principal.id);
	if (!deck) return notFound();
	const refusal = accountRefusal(principal) ?? (principal.subscriber ? undefined : subscribeForTranslation()) ?? followUpRefusal(deck, now) ?? busyRefusal(deck, now, state);
	if (refusal) return refusal;
	const languages = body.languages as string[];
	const credits = quoteTranslation(state.prices, languages.length);
	const refused = spendGate(call, 'translation', credits, true);
	if (refused) return refused;
	deck.languages.push(...languages.filter((l) => !deck.languages.includes(l)));
	state.decks.startJob(deck, 'translation', now);
	commitSpend(call, 'translation', credits, deck.taskId);
	return accepted(state, { taskId: deck.taskId, ...statusField(state, state.statusWords.queued), languages, creditsCharged: credits }, deck, now);
}

export function createVideo(call: Call): Reply {
	const { state, principal, now } = call;
	const deck = state.decks.visible(call.params.taskId, principal.id);
	if (!deck) return notFound();
	const refusal = accountRefusal(principal) ?? followUpRefusal(deck, now) ?? busyRefusal(deck, now, state);
	if (refusal) return refusal;
	const credits = state.prices.video;
	const refused = spendGate(call, 'video', credits);
	if (refused) return refused;
	deck.video = true;
	state.decks.startJob(deck, 'video', now);
	commitSpend(call, 'video', credits, deck.taskId);
	return accepted(state, { taskId: deck.taskId, ...statusField(state, state.statusWords.queued), creditsCharged: credits }, deck, now);
}

export function uploadMaterial(call: Call): Reply {
	const { state, principal, parts } = call;
	const issues: ValidationIssue[] = parts
		.filter((p) => p.name !== 'file')
		.map((p) => ({ type: 'extra_forbidden', loc: ['body', p.name], msg: 'Extra inputs are not permitted' }));
	const files = parts.filter((p) => p.name === 'file');
	if (files.length === 0) issues.push(fileIssue('Field required', 'missing'));
	else if (files.length > 1) issues.push(fileIssue('Value error, send exactly one file part'));
	else if (!files[0].filename) issues.push(fileIssue('Value error, the file part needs a filename'));
	else if (files[0].data.length === 0) issues.push(fileIssue('Value error, the file is empty'));
	if (issues.length) return validationFailed(issues);

	const file = files[0];
	const filename = file.filename as string;
	const verdict = checkFile(filename, file.contentType, file.data);
	if (!verdict.ok) return verdict.reply;
	const material = {
		materialId: state.profile.materialIdType === 'integer' ? String(4711 + state.materials.size) : 'mat_' + state.ids.hex(20),
		principalId: principal.id,
		filename,
		contentType: verdict.contentType,
		size: file.data.length,
		sha256: sha256(file.data),
	};
	state.materials.set(material.materialId, material);
	const { principalId: _owner, materialId: storedId, ...facts } = material;
	// Stored under its text either way; answered as the profile's type.
	const materialId: string | number = state.profile.materialIdType === 'integer' ? Number(storedId) : storedId;
	switch (state.profile.materialResponse) {
		case 'plain':
			return json(200, { id: materialId, name: material.filename, mime_type: material.contentType, size_bytes: material.size });
		case 'snake':
			return json(201, { material_id: materialId, file_name: material.filename, content_type: material.contentType, size: material.size, sha256: material.sha256 });
		case 'data':
			return json(201, { data: { id: materialId, ...facts } });
		case 'ref':
			return json(201, { ref: materialId, ...facts });
		case 'jsonapi':
			return json(201, { data: { type: 'material', id: materialId, attributes: facts }, links: { self: `/v1/materials/${materialId}` } });
		default:
			return json(201, { materialId, ...facts });
	}
}
