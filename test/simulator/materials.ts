// Materials upload: the contract's six 415 rules. Three things must agree: the filename extension, the declared
// Content-Type and the sniffed bytes. `reason` says which rule refused; `detail` names the disagreement.
import { createHash } from 'node:crypto';
import { problem, type ValidationIssue } from './problem';
import type { Reply } from './reply';
import { EXECUTABLES, FORMAT_LABEL, MARKUP, sniff, type Format } from './sniff';

interface ExtensionRule {
	/** Declared Content-Types acceptable for the extension. */
	types: string[];
	/** Sniffed formats the extension may hold. */
	formats: Format[];
	/** The type the stored record reports. */
	canonical: string;
	/** Text extensions may hold markup (rule 5). */
	text?: boolean;
}

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const PPTX = 'application/vnd.openxmlformats-officedocument.presentationml.presentation';
const TEXT_FORMATS: Format[] = ['text', 'html', 'svg'];

export const EXTENSIONS: Record<string, ExtensionRule> = {
	pdf: { types: ['application/pdf'], formats: ['pdf'], canonical: 'application/pdf' },
	docx: { types: [DOCX], formats: ['docx'], canonical: DOCX },
	xlsx: { types: [XLSX], formats: ['xlsx'], canonical: XLSX },
	pptx: { types: [PPTX], formats: ['pptx'], canonical: PPTX },
	doc: { types: ['application/msword'], formats: ['doc', 'ole'], canonical: 'application/msword' },
	xls: { types: ['application/vnd.ms-excel'], formats: ['xls', 'ole'], canonical: 'application/vnd.ms-excel' },
	ppt: { types: ['application/vnd.ms-powerpoint'], formats: ['ppt', 'ole'], canonical: 'application/vnd.ms-powerpoint' },
	csv: { types: ['text/csv', 'application/csv', 'text/plain'], formats: TEXT_FORMATS, canonical: 'text/csv', text: true },
	txt: { types: ['text/plain'], formats: TEXT_FORMATS, canonical: 'text/plain', text: true },
	md: { types: ['text/markdown', 'text/x-markdown', 'text/plain'], formats: TEXT_FORMATS, canonical: 'text/markdown', text: true },
	png: { types: ['image/png'], formats: ['png'], canonical: 'image/png' },
	jpg: { types: ['image/jpeg', 'image/jpg', 'image/pjpeg'], formats: ['jpeg'], canonical: 'image/jpeg' },
	jpeg: { types: ['image/jpeg', 'image/jpg', 'image/pjpeg'], formats: ['jpeg'], canonical: 'image/jpeg' },
	webp: { types: ['image/webp'], formats: ['webp'], canonical: 'image/webp' },
	gif: { types: ['image/gif'], formats: ['gif'], canonical: 'image/gif' },
	heic: { types: ['image/heic', 'image/heif', 'image/heic-sequence', 'image/heif-sequence'], formats: ['heic'], canonical: 'image/heic' },
};

/** Refused by name whatever the bytes (rule 1). */
export const REFUSED_EXTENSIONS = ['svg', 'svgz', 'html', 'htm', 'xhtml'];

/** Declared types that say nothing and are ignored (rule 2). */
const UNINFORMATIVE_TYPES = ['', 'application/octet-stream'];

export interface Material {
	materialId: string;
	principalId: string;
	filename: string;
	contentType: string;
	size: number;
	sha256: string;
}

function unsupported(reason: string, detail: string, extra: Record<string, unknown>): Reply {
	return problem(415, 'unsupported_media_type', {
		detail: `${detail} Identical bytes under the identical name will be refused again; do not retry.`,
		retryable: false,
		reason,
		extra,
	});
}

export type FileVerdict = { ok: true; contentType: string } | { ok: false; reply: Reply };

/** Applies rules 1–5 in order; the first disagreement found is the one reported. */
export function checkFile(filename: string, declared: string | undefined, data: Buffer): FileVerdict {
	const dot = filename.lastIndexOf('.');
	const extension = dot > 0 ? filename.slice(dot + 1).toLowerCase() : '';
	const declaredType = (declared ?? '').split(';')[0].trim().toLowerCase();
	const format = sniff(data);
	const facts = { filename, extension, declaredContentType: declaredType || null, sniffedFormat: format };
	const ext = `".${extension}"`;

	// Rule 1: the extension decides first.
	if (REFUSED_EXTENSIONS.includes(extension)) {
		return { ok: false, reply: unsupported('extension_refused', `The extension ${ext} is refused: markup files cannot be uploaded.`, facts) };
	}
	const rule = EXTENSIONS[extension];
	if (!rule) {
		const what = extension ? `The extension ${ext} is not on the allow-list` : `The filename "${filename}" has no extension`;
		return { ok: false, reply: unsupported('extension_not_allowed', `${what} (allowed: ${Object.keys(EXTENSIONS).join(', ')}).`, facts) };
	}
	// Rule 5: executables under every extension, markup under every extension but txt/md/csv.
	if (EXECUTABLES.includes(format)) {
		return { ok: false, reply: unsupported('executable_content', `The content is ${FORMAT_LABEL[format]}, refused under every extension.`, facts) };
	}
	if (MARKUP.includes(format) && !rule.text) {
		return { ok: false, reply: unsupported('markup_content', `The content is ${FORMAT_LABEL[format]}, refused under ${ext}; markup is accepted only as .txt, .md or .csv.`, facts) };
	}
	// Rule 2: a declared type must suit the extension; octet-stream or none is ignored.
	if (!UNINFORMATIVE_TYPES.includes(declaredType) && !rule.types.includes(declaredType)) {
		return {
			ok: false,
			reply: unsupported('content_type_mismatch', `The declared Content-Type ${declaredType} does not suit the extension ${ext} (acceptable: ${rule.types.join(', ')}).`, facts),
		};
	}
	// Rules 3 and 4: the real format must be what the extension says (so renaming changes the verdict).
	if (!rule.formats.includes(format)) {
		const expected = rule.text ? 'UTF-8 text' : rule.formats.map((f) => FORMAT_LABEL[f]).join(' or ');
		return { ok: false, reply: unsupported('content_mismatch', `The content is ${FORMAT_LABEL[format]} but the extension ${ext} expects ${expected}.`, facts) };
	}
	return { ok: true, contentType: rule.canonical };
}

export function fileIssue(msg: string, type = 'value_error', input?: unknown): ValidationIssue {
	return { type, loc: ['body', 'file'], msg, input };
}

export function sha256(data: Buffer): string {
	return createHash('sha256').update(data).digest('hex');
}
