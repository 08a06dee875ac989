// A small multipart/form-data parser: enough for one upload per request, strict about structure.

export interface Part {
	name: string;
	filename?: string;
	contentType?: string;
	data: Buffer;
}

export function boundaryOf(contentType: string | undefined): string | undefined {
	const [mime, ...params] = (contentType ?? '').split(';');
	if (mime.trim().toLowerCase() !== 'multipart/form-data') return undefined;
	for (const param of params) {
		const m = /^\s*boundary=(?:"([^"]+)"|(\S+))\s*$/i.exec(param);
		if (m) return m[1] ?? m[2];
	}
	return undefined;
}

/** The parts, or undefined when the body is not well-formed multipart. */
export function parseMultipart(body: Buffer, boundary: string): Part[] | undefined {
	const delimiter = Buffer.from(`--${boundary}`);
	const parts: Part[] = [];
	let pos = body.indexOf(delimiter);
	if (pos < 0) return undefined;
	for (;;) {
		pos += delimiter.length;
		if (body.subarray(pos, pos + 2).toString() === '--') return parts; // closing delimiter
		if (body.subarray(pos, pos + 2).toString() !== '\r\n') return undefined;
		pos += 2;
		const headerEnd = body.indexOf('\r\n\r\n', pos);
		if (headerEnd < 0) return undefined;
		const headers = parseHeaders(body.subarray(pos, headerEnd).toString('utf8'));
		const dataStart = headerEnd + 4;
		const next = body.indexOf(Buffer.concat([Buffer.from('\r\n'), delimiter]), dataStart);
		if (next < 0) return undefined;
		const disposition = parseDisposition(headers['content-disposition']);
		if (!disposition) return undefined;
		parts.push({ ...disposition, contentType: headers['content-type'], data: body.subarray(dataStart, next) });
		pos = next + 2;
	}
}

function parseHeaders(block: string): Record<string, string> {
	const out: Record<string, string> = {};
	for (const line of block.split('\r\n')) {
		const i = line.indexOf(':');
		if (i > 0) out[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
	}
	return out;
}

function parseDisposition(value: string | undefined): { name: string; filename?: string } | undefined {
	if (!value || !/^form-data\b/i.test(value)) return undefined;
	const params: Record<string, string> = {};
	const re = /;\s*([a-zA-Z*]+)=(?:"((?:[^"\\]|\\.)*)"|([^;]*))/g;
	for (let m = re.exec(value); m; m = re.exec(value)) params[m[1].toLowerCase()] = m[2] !== undefined ? m[2].replace(/\\(.)/g, '$1') : m[3].trim();
	if (params.name === undefined) return undefined;
	let filename = params.filename;
	const extended = params['filename*'];
	if (extended) {
		const m = /^UTF-8''(.*)$/i.exec(extended);
		if (m) filename = decodeURIComponent(m[1]);
	}
	return { name: params.name, filename };
}
