/**
 * Downloading a finished deck as n8n binary data. Which request may carry the API key is decided
 * in one place, `mayCarryCredential` (../download.ts): the Base URL's own origin goes through
 * `httpRequestWithAuthentication`, every other origin through the plain `httpRequest`, with no
 * credential. Redirects are followed here, one hop at a time, so a hop that leaves the Base URL's
 * origin is judged again (n8n itself would send the credential on across origins).
 * The body is read as a stream and counted: past the size cap the download stops, so a large file
 * is never held in memory whole before it is refused.
 * The file's bytes are kept exactly as they came; what is read as text (a refusal's body, the
 * headers that name the file, every message) has the API key masked (../secrecy.ts).
 */
import {
	NodeOperationError,
	type IBinaryData,
	type ICredentialDataDecryptedObject,
	type IExecuteFunctions,
	type IHttpRequestOptions,
	type INodeProperties,
} from 'n8n-workflow';

import {
	bytesOfMb,
	DEFAULT_MAX_DOWNLOAD_MB,
	describeSize,
	displayUrl,
	downloadRefusalHint,
	fileFacts,
	MAX_REDIRECTS,
	mayCarryCredential,
	redirectTarget,
} from '../download';
import { deckFileVerdict, FILE_HEAD_BYTES, headOfDeckFile } from '../deckFile';
import type { FileCheck } from '../status';
import { failureMessage } from './errors';
import { parseFailure } from '../problem';
import { keyMasker } from '../secrecy';
import { lowerCaseHeaders } from '../transport';
import { CREDENTIAL_TYPE, decryptedCredential, type DeckGenCredential } from './transport';

const DOWNLOAD_TIMEOUT_MS = 5 * 60_000;

/**
 * The download options both nodes offer (the Wait node adds its Download File switch). Which link is the deck's
 * file is File Link Path, a reading option (reading.ts): it counts for the judgement too.
 */
export const downloadOptions: INodeProperties[] = [
	{
		displayName: 'Binary Property',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		description: 'Name of the binary property the downloaded file is put in, for Email and Slack nodes to attach',
	},
	{
		displayName: 'Max Download Size (MB)',
		name: 'maxDownloadMb',
		type: 'number',
		typeOptions: { minValue: 0.001 },
		default: DEFAULT_MAX_DOWNLOAD_MB,
		description: 'A larger file is refused with a clear error instead of being downloaded',
	},
];

export interface DownloadSettings {
	binaryPropertyName: string;
	maxBytes: number;
}

export function readDownloadSettings(options: { binaryPropertyName?: string; maxDownloadMb?: number }): DownloadSettings {
	return {
		binaryPropertyName: (options.binaryPropertyName ?? '').trim() || 'data',
		maxBytes: bytesOfMb(options.maxDownloadMb),
	};
}

export interface DownloadedFile {
	binary: IBinaryData;
	fileName: string;
	mimeType: string;
	fileSize: number;
}

interface RawResponse {
	statusCode: number;
	headers: Record<string, string | string[]>;
	body: unknown;
}

/** An answer to a GET of a file, its redirects followed hop by hop under the key rule, its body not read yet. */
interface OpenedFile {
	url: string;
	status: number;
	headers: Record<string, string>;
	body: unknown;
	carriesKey: boolean;
	connection: ClosableConnection;
}

/**
 * GETs a file's link: the key only where `mayCarryCredential` allows (the Base URL's origin), every redirect
 * followed here one hop at a time so each hop is judged again. `range` asks for the first bytes only (a check,
 * not a download: a GET, since presigned links are signed for GET alone).
 */
async function openFile(
	ctx: IExecuteFunctions,
	baseUrl: string,
	url: string,
	fail: (message: string, description: string) => NodeOperationError,
	request: { range?: string; timeoutMs: number },
): Promise<OpenedFile> {
	const decrypted = await credentialOf(ctx);
	const credential = decrypted as unknown as DeckGenCredential;
	let current = url;
	for (let hop = 0; ; hop++) {
		const connection = closableConnection(ctx.getExecutionCancelSignal?.());
		const options: IHttpRequestOptions = {
			method: 'GET',
			url: current,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			disableFollowRedirect: true,
			encoding: 'stream',
			json: false,
			timeout: request.timeoutMs,
			abortSignal: connection.signal,
			...(request.range ? { headers: { range: request.range } } : {}),
		};
		let response: RawResponse;
		const carriesKey = mayCarryCredential(current, baseUrl, credential.allowPlainHttp === true);
		try {
			response = (
				carriesKey
					? await ctx.helpers.httpRequestWithAuthentication.call(ctx, CREDENTIAL_TYPE, options, { credentialsDecrypted: decryptedCredential(ctx, decrypted) })
					: await ctx.helpers.httpRequest(options)
			) as RawResponse;
		} catch (error) {
			connection.release();
			// n8n's error carries the request config (headers included): only its first line leaves here.
			const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
			throw fail(`Could not download ${displayUrl(current)}: ${message}`, 'Check that the link is reachable from n8n; presigned links expire, so read the status again for a fresh one.');
		}
		const headers = lowerCaseHeaders(response.headers ?? {});
		const next = redirectTarget(response.statusCode, headers, current);
		if (!next) return { url: current, status: response.statusCode, headers, body: response.body, carriesKey, connection };
		connection.close(response.body);
		if (hop >= MAX_REDIRECTS) throw fail(`Could not download ${displayUrl(url)}: more than ${MAX_REDIRECTS} redirects`, 'The link keeps redirecting; open it in a browser to see where it leads.');
		current = next;
	}
}

/** The credential, read (and decrypted) once per node run however many files it fetches or checks. */
const credentials = new WeakMap<IExecuteFunctions, Promise<ICredentialDataDecryptedObject>>();

async function credentialOf(ctx: IExecuteFunctions): Promise<ICredentialDataDecryptedObject> {
	let credential = credentials.get(ctx);
	if (!credential) credentials.set(ctx, (credential = ctx.getCredentials(CREDENTIAL_TYPE)));
	return await credential;
}

/** An error of this item, with the API key masked in what it says. */
async function failWith(ctx: IExecuteFunctions, itemIndex: number) {
	const credential = (await credentialOf(ctx)) as unknown as DeckGenCredential;
	const mask = keyMasker(credential.apiKey);
	return {
		mask,
		fail: (message: string, description: string) => new NodeOperationError(ctx.getNode(), mask.text(message), { itemIndex, description: mask.text(description) }),
	};
}

/** A file's link fetched whole, as n8n binary data (Deck → Download from a URL, and every deck file). */
export async function downloadFile(
	ctx: IExecuteFunctions,
	baseUrl: string,
	url: string,
	maxBytes: number,
	itemIndex: number,
): Promise<DownloadedFile & { bytes: Buffer }> {
	const { mask, fail } = await failWith(ctx, itemIndex);
	const opened = await openFile(ctx, baseUrl, url, fail, { timeoutMs: DOWNLOAD_TIMEOUT_MS });
	const { connection, headers, status, body, url: current } = opened;
	if (status < 200 || status >= 300) {
		const text = (await readCapped(body, 64 * 1024, connection)).data.toString('utf8');
		connection.close(body);
		const failure = parseFailure(mask.response({ status, headers, text }));
		throw fail(`Could not download ${displayUrl(current)}: ${failureMessage(failure)}`, downloadRefusalHint(status, opened.carriesKey, current, baseUrl));
	}
	const declared = Number(headers['content-length']);
	if (Number.isFinite(declared) && declared > maxBytes) {
		connection.close(body);
		throw tooLarge(fail, current, declared, maxBytes);
	}
	const read = await readCapped(body, maxBytes, connection);
	connection.release();
	if (read.truncated) throw tooLarge(fail, current, undefined, maxBytes);
	const facts = fileFacts(mask.headers(headers), mask.text(current));
	const binary = await ctx.helpers.prepareBinaryData(read.data, facts.fileName, facts.mimeType);
	return { binary, fileName: facts.fileName, mimeType: facts.mimeType, fileSize: read.data.length, bytes: read.data };
}

/** A check of a file reads no longer than this: it stands between two status reads. */
const CHECK_TIMEOUT_MS = 30_000;

/** Statuses of a file host that say the file is not (yet, or any more) at its link. */
const NOT_THERE = new Set([403, 404, 410, 416]);

/**
 * Whether a deck's file is at its link and is a deck (status/judge.ts `fileToCheck`): a ranged GET of its
 * first bytes (FILE_HEAD_BYTES) under the download's rules (the key only where it may go, redirects hop by
 * hop), its connection closed once they are read. A 403, 404, 410, an answer that is not a deck (an HTML page,
 * an image, an XML `NoSuchKey`), a refusal or no answer at all: not there, in words. Never throws for the file.
 */
export async function checkDeckFile(ctx: IExecuteFunctions, baseUrl: string, url: string): Promise<FileCheck> {
	const { fail } = await failWith(ctx, 0);
	let opened: OpenedFile;
	try {
		opened = await openFile(ctx, baseUrl, url, fail, { range: `bytes=0-${FILE_HEAD_BYTES - 1}`, timeoutMs: CHECK_TIMEOUT_MS });
	} catch (error) {
		// a cancelled execution ends where it waits next; the check itself only says it did not see the file
		return { there: false, why: (error as Error).message.replace(/^Could not download [^:]+: /, 'no answer: ') };
	}
	const { connection, status, body } = opened;
	if (status < 200 || status >= 300) {
		connection.close(body);
		// a file not (yet) there says so by its 404 or 410; any other refusal has a fix, said beside it
		const hint = status === 404 || status === 410 ? undefined : downloadRefusalHint(status, opened.carriesKey, opened.url, baseUrl);
		return { there: false, why: `the file host answered ${status}${NOT_THERE.has(status) ? '' : ', not the file'}`, ...(hint ? { hint } : {}) };
	}
	const head = await readCapped(body, FILE_HEAD_BYTES, connection, true);
	connection.close(body);
	const verdict = headOfDeckFile(head.data);
	return verdict.deck ? { there: true } : { there: false, why: `the link gives ${verdict.what}, not a deck` };
}

function tooLarge(fail: (m: string, d: string) => NodeOperationError, url: string, size: number | undefined, maxBytes: number) {
	return fail(
		`The file at ${displayUrl(url)} is ${size !== undefined ? describeSize(size) : 'larger than that'}, above Max Download Size (${describeSize(maxBytes)}); nothing was kept`,
		'Raise "Max Download Size (MB)" in the options, or pass deckUrl on as a link instead of a file.',
	);
}

/**
 * Reads a body (stream or bytes) up to `maxBytes`; past it, closes the connection and says so. `head`: keep
 * the first `maxBytes` instead (a check reads no more, whatever the host sends).
 */
async function readCapped(body: unknown, maxBytes: number, connection: ClosableConnection, head = false): Promise<{ data: Buffer; truncated: boolean }> {
	if (body === undefined || body === null) return { data: Buffer.alloc(0), truncated: false };
	if (Buffer.isBuffer(body) || body instanceof ArrayBuffer || ArrayBuffer.isView(body) || typeof body === 'string') {
		const data = typeof body === 'string' ? Buffer.from(body) : Buffer.isBuffer(body) ? body : Buffer.from(body as ArrayBuffer);
		if (data.length <= maxBytes) return { data, truncated: false };
		return head ? { data: data.subarray(0, maxBytes), truncated: true } : { data: Buffer.alloc(0), truncated: true };
	}
	const stream = body as AsyncIterable<Buffer> & { destroy?: () => void };
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of stream) {
		const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
		if (size + bytes.length > maxBytes) {
			connection.close(stream);
			return head ? { data: Buffer.concat([...chunks, bytes.subarray(0, maxBytes - size)]), truncated: true } : { data: Buffer.alloc(0), truncated: true };
		}
		size += bytes.length;
		chunks.push(bytes);
	}
	return { data: Buffer.concat(chunks), truncated: false };
}

interface ClosableConnection {
	signal: AbortSignal;
	/** The request is done and its body read whole: nothing to close, only the cancel listener to take off. */
	release(): void;
	/** Ends the transfer: the socket is closed, not only the body stream n8n handed back. */
	close(body: unknown): void;
}

/**
 * One download request's connection, closable by the node. n8n's request helper (axios 1.x with
 * `maxContentLength: Infinity`) returns a stream body as `Readable.from(generator)` wrapped around
 * the response when it enforces a length; destroying that wrapper before anything read from it ends
 * a generator that never started, so the response, and the socket under it, stayed open with the
 * sender still sending until the download timeout. Two things reach the socket:
 * - the request's own abort signal: axios destroys the request (and its socket) on abort while the
 *   body is unfinished. `httpRequest` takes our signal; `httpRequestWithAuthentication` replaces it
 *   with the execution's, so for links on the Base URL this alone is not enough;
 * - starting the wrapper's read (`read(0)`) before destroying it: the generator is then inside its
 *   loop over the response, and destroying the wrapper returns the generator, which closes that
 *   loop and destroys the response and its socket (once the next chunk is in, which the sender is
 *   sending). A plain response stream is destroyed directly.
 * The execution's cancel signal aborts it too.
 */
function closableConnection(cancel: AbortSignal | undefined): ClosableConnection {
	const controller = new AbortController();
	const onCancel = () => controller.abort();
	if (cancel?.aborted) controller.abort();
	else cancel?.addEventListener('abort', onCancel, { once: true });
	return {
		signal: controller.signal,
		// Taken off the execution's signal once the request is done, so a run of many downloads leaves none behind.
		release: () => cancel?.removeEventListener('abort', onCancel),
		close(body: unknown): void {
			cancel?.removeEventListener('abort', onCancel);
			const stream = body as { destroy?: () => void; on?: (event: string, listener: () => void) => void } | undefined;
			// axios reports the abort as an 'error' event on the body: nobody reads it any more.
			stream?.on?.('error', () => undefined);
			if (!controller.signal.aborted) controller.abort();
			try {
				(stream as { read?: (size: number) => unknown } | undefined)?.read?.(0);
			} catch {
				// a stream that cannot be read any more is destroyed below all the same
			}
			stream?.destroy?.();
		},
	};
}

/**
 * A completed deck's file, as both nodes hand it over (Deck → Download after reading the status, the Wait
 * node's Download File for each Completed item): its link (deckUrl) fetched under the one key rule
 * (`downloadFile`), and the bytes checked to be the deck it claims to be (../deckFile.ts): a file that is not
 * (an HTML page, an image, a ZIP with no presentation) is refused, never handed over as the deck.
 */
export async function downloadDeckFile(ctx: IExecuteFunctions, baseUrl: string, url: string, maxBytes: number, itemIndex: number): Promise<DownloadedFile> {
	const { bytes, ...file } = await downloadFile(ctx, baseUrl, url, maxBytes, itemIndex);
	const verdict = deckFileVerdict(bytes, file);
	if (!verdict.deck) {
		const { fail } = await failWith(ctx, itemIndex);
		const error = fail(
			`The file at ${displayUrl(url)} is ${verdict.what}, not the deck`,
			'The deck’s link leads to something else (a sign-in page, a preview, a storage error): nothing was handed over as the deck. Read the status again for a fresh link, or set File Link Path to where the record gives the deck’s file.',
		);
		error.context.notTheDeck = verdict.what;
		throw error;
	}
	return file;
}

/** What an item says of its downloaded file, in this order. */
export function fileFields(file: DownloadedFile): { fileName: string; mimeType: string; fileSize: number } {
	return { fileName: file.fileName, mimeType: file.mimeType, fileSize: file.fileSize };
}
