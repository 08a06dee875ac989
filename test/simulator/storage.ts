// A stand-in for presigned object storage on ANOTHER origin (its own loopback port): the place a real service
// may put finished decks. A URL is valid only with its signature; like S3, a request that also carries an
// Authorization header is refused (400 InvalidArgument, "Only one auth mechanism allowed"), and every request
// is recorded with whether an Authorization header arrived, so tests can prove a client never sends its key
// to another host. A URL can be signed before its object exists (`urlFor`): until the object is put, it
// answers 404 NoSuchKey, as a real bucket does for the file a service names before it has written it. Range
// requests are answered as S3 answers them (ranges.ts).
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { noSuchKeyXml } from './deckfiles';
import { contentRange, rangeOf, unsatisfiedRange } from './ranges';
import { writeChunked } from './reply';
import { trackConnection } from './server';

export interface StoredFile {
	data: Buffer;
	contentType: string;
}

/** One request for a file (the storage's, or the API's file endpoint's: `sim.fileRequests`). */
export interface StorageRequest {
	method: string;
	path: string;
	/** Whether any Authorization header arrived (its value is never kept). */
	authorization: boolean;
	/** The Range header as sent, if any (`bytes=0-1023`). */
	range?: string;
	/** 200, 206, 404, 416, … (0 until answered). */
	status: number;
	/** Real time (Date.now()) the request's connection closed; absent while it is open. */
	closedAt?: number;
	/** Whether the whole answer had gone out (to the socket). */
	complete?: boolean;
}

export class ObjectStorage {
	readonly requests: StorageRequest[] = [];
	private readonly files = new Map<string, StoredFile>();
	private readonly server: http.Server;
	private readonly secret: string;
	url = '';

	/** `chunked`: files are sent without Content-Length (profile choice `fileLength`). */
	chunked = false;

	/**
	 * Objects the storage holds without a `put`: the decks' files, there from the moment the deck is done, whether
	 * or not anyone read its status (index.ts sets it; undefined = not there).
	 */
	resolve?: (objectPath: string) => StoredFile | undefined;

	constructor(seed: number) {
		this.secret = `storage-secret-${seed}`;
		this.server = http.createServer((req, res) => this.handle(req, res));
	}

	async listen(): Promise<void> {
		await new Promise<void>((resolve, reject) => {
			this.server.once('error', reject);
			this.server.listen(0, '127.0.0.1', () => resolve());
		});
		this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
	}

	close(): Promise<void> {
		return new Promise<void>((resolve) => {
			this.server.close(() => resolve());
			this.server.closeAllConnections();
		});
	}

	/** Stores (or replaces) an object and returns a presigned URL for it. */
	put(objectPath: string, file: StoredFile): string {
		this.files.set(objectPath, file);
		return this.urlFor(objectPath);
	}

	/** A presigned URL for an object, whether or not it exists yet (until it is put, the URL answers 404 NoSuchKey). */
	urlFor(objectPath: string): string {
		return `${this.url}${objectPath}?X-Amz-Expires=3600&X-Amz-Signature=${this.sign(objectPath)}`;
	}

	private sign(objectPath: string): string {
		return createHmac('sha256', this.secret).update(objectPath).digest('hex').slice(0, 32);
	}

	private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
		const url = new URL(req.url ?? '/', 'http://storage');
		const range = typeof req.headers.range === 'string' ? req.headers.range : undefined;
		const record: StorageRequest = { method: req.method ?? 'GET', path: url.pathname, authorization: req.headers.authorization !== undefined, ...(range !== undefined ? { range } : {}), status: 0 };
		this.requests.push(record);
		res.on('error', () => undefined);
		trackConnection(req, res, record);
		const answer = (status: number, code: string, message: string, headers: Record<string, string> = {}) => {
			record.status = status;
			const body = code === 'NoSuchKey' ? noSuchKeyXml(url.pathname.slice(1)) : `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`;
			res.writeHead(status, { 'content-type': 'application/xml', 'content-length': String(Buffer.byteLength(body)), ...headers });
			res.end(record.method === 'HEAD' ? undefined : body);
		};
		if (record.method !== 'GET' && record.method !== 'HEAD') return answer(405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.');
		if (record.authorization) return answer(400, 'InvalidArgument', 'Only one auth mechanism allowed; only the X-Amz-Algorithm query parameter, Signature query string parameter or the Authorization header should be specified');
		if (url.searchParams.get('X-Amz-Signature') !== this.sign(url.pathname)) return answer(403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided.');
		const file = this.files.get(url.pathname) ?? this.resolve?.(url.pathname);
		if (!file) return answer(404, 'NoSuchKey', 'The specified key does not exist.');
		const etag = `"${this.sign(url.pathname).slice(0, 16)}"`;
		const common = { 'content-type': file.contentType, etag, 'accept-ranges': 'bytes' };
		const part = rangeOf(range, file.data.length);
		if (part.kind === 'unsatisfiable') return answer(416, 'InvalidRange', 'The requested range is not satisfiable', { 'content-range': unsatisfiedRange(file.data.length) });
		if (part.kind === 'part') {
			record.status = 206;
			const data = file.data.subarray(part.start, part.end + 1);
			res.writeHead(206, { ...common, 'content-range': contentRange(part.start, part.end, file.data.length), 'content-length': String(data.length) });
			res.end(record.method === 'HEAD' ? undefined : data);
			return;
		}
		record.status = 200;
		if (this.chunked && record.method === 'GET') {
			res.writeHead(200, common);
			writeChunked(res, file.data);
			return;
		}
		res.writeHead(200, { ...common, 'content-length': String(file.data.length) });
		res.end(record.method === 'HEAD' ? undefined : file.data);
	}
}
