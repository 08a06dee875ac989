// Range requests on deck files, as S3 answers them (and the API's own file endpoint the same way): one range
// `bytes=a-b`, `bytes=a-` or `bytes=-n` gives 206 with `Content-Range: bytes a-b/size` (an end past the file is
// cut to the file); a range that starts past the end is 416 with `Content-Range: bytes */size`; no Range, a
// malformed one or several ranges at once are ignored and the whole file is a 200 (S3 serves no multipart ranges).

export type RangeAnswer = { kind: 'whole' } | { kind: 'part'; start: number; end: number } | { kind: 'unsatisfiable' };

export function rangeOf(header: string | string[] | undefined, size: number): RangeAnswer {
	if (typeof header !== 'string') return { kind: 'whole' };
	const m = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
	if (!m || (m[1] === '' && m[2] === '')) return { kind: 'whole' };
	if (m[1] === '') {
		// the last n bytes
		const n = Number(m[2]);
		if (n === 0) return { kind: 'unsatisfiable' };
		return { kind: 'part', start: Math.max(0, size - n), end: size - 1 };
	}
	const start = Number(m[1]);
	if (start >= size) return { kind: 'unsatisfiable' };
	const end = m[2] === '' ? size - 1 : Number(m[2]);
	if (end < start) return { kind: 'whole' };
	return { kind: 'part', start, end: Math.min(end, size - 1) };
}

export const contentRange = (start: number, end: number, size: number) => `bytes ${start}-${end}/${size}`;
export const unsatisfiedRange = (size: number) => `bytes */${size}`;
