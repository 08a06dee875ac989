import type http from 'node:http';

// Replies are values, not writes: a handler returns one, and the pipeline decides whether to send it, store it
// for idempotent replay, or drop the connection instead (fault plan). Problem bodies get their requestId only at
// send time so that requestId always equals the X-Request-Id header of the response that carries it.

export interface ProblemBody {
	type: string;
	code: string;
	title: string;
	status: number;
	detail: string;
	retryable: boolean;
	requestId?: string;
	reason?: string;
	[member: string]: unknown;
}

export type ReplyBody =
	| { kind: 'json'; value: unknown }
	| { kind: 'problem'; value: ProblemBody }
	| { kind: 'raw'; contentType: string; data: string | Buffer }
	| { kind: 'empty' };

export interface Reply {
	status: number;
	headers: Record<string, string>;
	body: ReplyBody;
	/** Already rewritten into the profile's dialect (dialect.ts). */
	spoken?: boolean;
}

export interface WireReply {
	status: number;
	headers: Record<string, string>;
	data: Buffer;
}

export function json(status: number, value: unknown, headers: Record<string, string> = {}): Reply {
	return { status, headers, body: { kind: 'json', value } };
}

export function raw(status: number, contentType: string, data: string | Buffer, headers: Record<string, string> = {}): Reply {
	return { status, headers, body: { kind: 'raw', contentType, data } };
}

/** Turns a reply into bytes; fills requestId into problem bodies. */
export function serialize(reply: Reply, requestId: string): WireReply {
	const headers: Record<string, string> = { ...reply.headers };
	let data: Buffer;
	switch (reply.body.kind) {
		case 'json':
			headers['content-type'] = 'application/json';
			data = Buffer.from(JSON.stringify(reply.body.value));
			break;
		case 'problem': {
			headers['content-type'] = 'application/problem+json';
			data = Buffer.from(JSON.stringify({ ...reply.body.value, requestId }));
			break;
		}
		case 'raw':
			headers['content-type'] = reply.body.contentType;
			data = Buffer.isBuffer(reply.body.data) ? reply.body.data : Buffer.from(reply.body.data);
			break;
		case 'empty':
			data = Buffer.alloc(0);
			break;
	}
	return { status: reply.status, headers, data };
}

/** A body sent in 64 KB chunks as the client reads them, with no Content-Length (chunked transfer coding). */
export function writeChunked(res: http.ServerResponse, data: Buffer): void {
	let offset = 0;
	const more = (): void => {
		while (offset < data.length) {
			const chunk = data.subarray(offset, offset + 64 * 1024);
			offset += chunk.length;
			if (!res.write(chunk)) {
				res.once('drain', more);
				return;
			}
		}
		res.end();
	};
	more();
}
