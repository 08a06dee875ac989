/**
 * A multipart/form-data body with one file part, built by hand so the package needs no form
 * library at run time. The boundary is derived from the content, so the same file gives
 * byte-identical bytes on every retry (and therefore the same idempotency key).
 */
import { sha256Hex } from './idempotency';

export interface FilePart {
	field: string;
	filename: string;
	contentType: string;
	bytes: Buffer;
}

/** Quotes a filename for Content-Disposition; non-ASCII names also go in `filename*` (RFC 5987). */
function dispositionFilename(filename: string): string {
	const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
	// RFC 8187 attr-char: encodeURIComponent leaves ' ( ) * as they are; ' is the value's delimiter.
	const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
	return ascii === filename ? `filename="${ascii}"` : `filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

export function multipartBody(part: FilePart): { bytes: Buffer; contentType: string } {
	const boundary = `----deckgen${sha256Hex(Buffer.concat([Buffer.from(part.filename), part.bytes])).slice(0, 32)}`;
	const head =
		`--${boundary}\r\n` +
		`Content-Disposition: form-data; name="${part.field}"; ${dispositionFilename(part.filename)}\r\n` +
		`Content-Type: ${part.contentType}\r\n\r\n`;
	const tail = `\r\n--${boundary}--\r\n`;
	return {
		bytes: Buffer.concat([Buffer.from(head, 'utf8'), part.bytes, Buffer.from(tail, 'utf8')]),
		contentType: `multipart/form-data; boundary=${boundary}`,
	};
}
