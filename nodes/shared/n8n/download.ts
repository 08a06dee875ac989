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
import { chooseLink, type FoundLink } from '../links';
import { failureMessage } from './errors';
import { parseFailure } from '../problem';
import { keyMasker } from '../secrecy';
import { lowerCaseHeaders } from '../transport';
import { CREDENTIAL_TYPE, type DeckGenCredential } from './transport';

const DOWNLOAD_TIMEOUT_MS = 5 * 60_000;

/** The download options both nodes offer (the Wait node adds its Download File switch). */
export const downloadOptions: INodeProperties[] = [
	{
		displayName: 'Binary Property',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		description: 'Name of the binary property the downloaded file is put in, for Email and Slack nodes to attach',
	},
	{
		// Named `downloadLink` since 0.1; the label says it is a path into `links`, not a URL.
		displayName: 'Download Link Path',
		name: 'downloadLink',
		type: 'string',
		default: '',
		placeholder: 'e.g. files.pdf',
		description:
			'Which of the status\'s links to download, by its path in the item\'s links (links[].path, e.g. files.pdf), not a URL. Empty: deckUrl, the most likely deck file.',
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
	downloadLink?: string;
	maxBytes: number;
}

export function readDownloadSettings(options: { binaryPropertyName?: string; downloadLink?: string; maxDownloadMb?: number }): DownloadSettings {
	return {
		binaryPropertyName: (options.binaryPropertyName ?? '').trim() || 'data',
		downloadLink: (options.downloadLink ?? '').trim() || undefined,
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

export async function downloadFile(
	ctx: IExecuteFunctions,
	baseUrl: string,
	url: string,
	maxBytes: number,
	itemIndex: number,
): Promise<DownloadedFile> {
	const credential = (await ctx.getCredentials(CREDENTIAL_TYPE)) as unknown as DeckGenCredential;
	const mask = keyMasker(credential.apiKey);
	const fail = (message: string, description: string) =>
		new NodeOperationError(ctx.getNode(), mask.text(message), { itemIndex, description: mask.text(description) });
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
			timeout: DOWNLOAD_TIMEOUT_MS,
			abortSignal: connection.signal,
		};
		let response: RawResponse;
		const carriesKey = mayCarryCredential(current, baseUrl, credential.allowPlainHttp === true);
		try {
			response = (
				carriesKey
					? await ctx.helpers.httpRequestWithAuthentication.call(ctx, CREDENTIAL_TYPE, options)
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
		if (next) {
			connection.close(response.body);
			if (hop >= MAX_REDIRECTS) throw fail(`Could not download ${displayUrl(url)}: more than ${MAX_REDIRECTS} redirects`, 'The link keeps redirecting; open it in a browser to see where it leads.');
			current = next;
			continue;
		}
		if (response.statusCode < 200 || response.statusCode >= 300) {
			const text = (await readCapped(response.body, 64 * 1024, connection)).data.toString('utf8');
			connection.close(response.body);
			const failure = parseFailure(mask.response({ status: response.statusCode, headers, text }));
			throw fail(
				`Could not download ${displayUrl(current)}: ${failureMessage(failure)}`,
				downloadRefusalHint(response.statusCode, carriesKey, current, baseUrl),
			);
		}
		const declared = Number(headers['content-length']);
		if (Number.isFinite(declared) && declared > maxBytes) {
			connection.close(response.body);
			throw tooLarge(fail, current, declared, maxBytes);
		}
		const read = await readCapped(response.body, maxBytes, connection);
		connection.release();
		if (read.truncated) throw tooLarge(fail, current, undefined, maxBytes);
		const facts = fileFacts(mask.headers(headers), mask.text(current));
		const binary = await ctx.helpers.prepareBinaryData(read.data, facts.fileName, facts.mimeType);
		return { binary, fileName: facts.fileName, mimeType: facts.mimeType, fileSize: read.data.length };
	}
}

function tooLarge(fail: (m: string, d: string) => NodeOperationError, url: string, size: number | undefined, maxBytes: number) {
	return fail(
		`The file at ${displayUrl(url)} is ${size !== undefined ? describeSize(size) : 'larger than that'}, above Max Download Size (${describeSize(maxBytes)}); nothing was kept`,
		'Raise "Max Download Size (MB)" in the options, or pass deckUrl on as a link instead of a file.',
	);
}

/** Reads a body (stream or bytes) up to `maxBytes`; past it, closes the connection and says so. */
async function readCapped(body: unknown, maxBytes: number, connection: ClosableConnection): Promise<{ data: Buffer; truncated: boolean }> {
	if (body === undefined || body === null) return { data: Buffer.alloc(0), truncated: false };
	if (Buffer.isBuffer(body) || body instanceof ArrayBuffer || ArrayBuffer.isView(body) || typeof body === 'string') {
		const data = typeof body === 'string' ? Buffer.from(body) : Buffer.isBuffer(body) ? body : Buffer.from(body as ArrayBuffer);
		return data.length > maxBytes ? { data: Buffer.alloc(0), truncated: true } : { data, truncated: false };
	}
	const stream = body as AsyncIterable<Buffer> & { destroy?: () => void };
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of stream) {
		size += chunk.length;
		if (size > maxBytes) {
			connection.close(stream);
			return { data: Buffer.alloc(0), truncated: true };
		}
		chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
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

/** A deck's file, fetched; or, when the deck has no such link, which link was wanted and which it has. */
export type DeckFile =
	| { url: string; file: DownloadedFile; missing?: undefined; paths?: undefined }
	| { url?: undefined; file?: undefined; missing: string; paths: string };

/**
 * A finished deck's file from its links, as both nodes download it (Deck → Download after reading
 * the status, the Wait node's Download File for each Completed item): the link at Download Link
 * Path, else deckUrl, fetched under the one key rule (`downloadFile`). A deck without that link is
 * not an exception here: each node says so in its own place (an error on the form, `downloadError`
 * on a Wait item).
 */
export async function downloadDeckFile(
	ctx: IExecuteFunctions,
	baseUrl: string,
	deck: { links: FoundLink[]; deckUrl?: string },
	settings: DownloadSettings,
	itemIndex: number,
): Promise<DeckFile> {
	const url = chooseLink(deck, settings.downloadLink);
	if (!url) {
		return {
			missing: settings.downloadLink ? `at "${settings.downloadLink}"` : 'to download',
			paths: deck.links.map((link) => link.path).join(', ') || 'none',
		};
	}
	return { url, file: await downloadFile(ctx, baseUrl, url, settings.maxBytes, itemIndex) };
}

/** What an item says of its downloaded file, in this order. */
export function fileFields(file: DownloadedFile): { fileName: string; mimeType: string; fileSize: number } {
	return { fileName: file.fileName, mimeType: file.mimeType, fileSize: file.fileSize };
}
