// A service that names the presented key in everything it says (off by default: `echoKey`). The contract does
// not show a 401 body, and some services quote a key ("The API key hk_… was revoked."): the nodes must keep the
// key out of items, errors, logs and saved executions whatever the service sends. Applied to the bytes of every
// answer, last, so no handler can forget it: every text member of a JSON or problem body (detail, title, msg,
// message, label, error, error_description, description), a `notice` member on every JSON object body (status
// bodies, upload records, credits) carrying the key as sent, percent-encoded and base64, plain-text and HTML
// bodies, `WWW-Authenticate` on every answer, and a file's `Content-Disposition` name. File bytes are left as
// they are.
import type { WireReply } from './reply';

const TEXT_MEMBERS = new Set(['detail', 'title', 'msg', 'message', 'label', 'error', 'error_description', 'description']);

/** The token after "Bearer", as presented (right or wrong); undefined without one. */
export function presentedKey(authorization: string | undefined): string | undefined {
	const m = /^Bearer\s+(.+?)\s*$/i.exec(authorization ?? '');
	return m ? m[1] : undefined;
}

export function echoNotice(key: string): string {
	return `Request made with API key ${key} (see https://app.deckgen.example/keys?key=${encodeURIComponent(key)}; token ${Buffer.from(key).toString('base64')})`;
}

export function echoKey(wire: WireReply, key: string): WireReply {
	const headers: Record<string, string> = { ...wire.headers };
	headers['www-authenticate'] = `Bearer realm="deckgen", error_description="presented key ${key}"`;
	const disposition = headers['content-disposition'];
	if (disposition) {
		const name = /filename="([^"]*)"/.exec(disposition)?.[1] ?? 'deck';
		headers['content-disposition'] = `attachment; filename*=UTF-8''${encodeURIComponent(`${key}-${name}`)}`;
	}
	const type = (headers['content-type'] ?? '').toLowerCase();
	let data = wire.data;
	if (/json/.test(type) && data.length) {
		const value = walk(JSON.parse(data.toString('utf8')), key);
		if (isRecord(value)) {
			value.notice = echoNotice(key);
			// An enveloped success body ({data, meta}) carries it inside as well, where a reader unwraps to.
			if (isRecord(value.data)) value.data.notice = echoNotice(key);
		}
		data = Buffer.from(JSON.stringify(value));
	} else if (/^text\/html/.test(type)) {
		const html = data.toString('utf8');
		const said = `<p>Presented key: ${key}</p>`;
		data = Buffer.from(html.includes('</body>') ? html.replace('</body>', `${said}</body>`) : html + said);
	} else if (/^text\//.test(type)) {
		data = Buffer.from(`${data.toString('utf8').trimEnd()} (presented key: ${key})\n`);
	}
	headers['content-length'] = String(data.length);
	return { ...wire, headers, data };
}

function walk(value: unknown, key: string, member?: string): unknown {
	if (typeof value === 'string') return member !== undefined && TEXT_MEMBERS.has(member) ? `${value} (presented key: ${key})` : value;
	if (Array.isArray(value)) return value.map((entry) => walk(entry, key, member));
	if (value && typeof value === 'object') {
		return Object.fromEntries(Object.entries(value).map(([name, entry]) => [name, walk(entry, key, name)]));
	}
	return value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return value !== null && typeof value === 'object' && !Array.isArray(value);
}
