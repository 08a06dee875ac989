/**
 * The uploaded material's id. The contract does not show the uploaded-material record, so no
 * member name is assumed: `materialId`, `material_id` or `id`, at the top level, inside a `data`
 * envelope (`{"data": {"id": …}}`, also JSON:API's `{"data": {"type": "material", "id": …,
 * "attributes": {…}}}`) or a `material` object. A name that says "material" wins over a bare `id`,
 * and the top level over an envelope. An answer with none of them has no usable id: the upload is
 * then an error that keeps the whole answer, never a quiet success that a Create would use to buy
 * a deck without its material.
 */

const NAMED = ['materialId', 'material_id'] as const;
const BARE = ['id'] as const;

function idAt(value: unknown, members: readonly string[]): string | number | undefined {
	if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
	for (const member of members) {
		const id = (value as Record<string, unknown>)[member];
		if (typeof id === 'string' && id.trim() !== '') return id.trim();
		if (typeof id === 'number' && Number.isFinite(id)) return id;
	}
	return undefined;
}

/** The places an id may sit, in the order they are tried. */
function places(body: Record<string, unknown>): unknown[] {
	const data = Array.isArray(body.data) && body.data.length === 1 ? body.data[0] : body.data;
	const attributes = data && typeof data === 'object' ? (data as Record<string, unknown>).attributes : undefined;
	return [body, data, body.material, attributes];
}

/**
 * The id as the service gave it: text stays text, a number stays a number (a service that issues
 * integer ids, e.g. a database serial, may want them back as integers in `material_ids`).
 */
export function materialIdOf(body: Record<string, unknown>): string | number | undefined {
	const where = places(body);
	for (const members of [NAMED, BARE]) {
		for (const place of where) {
			const id = idAt(place, members);
			if (id !== undefined) return id;
		}
	}
	return undefined;
}

/**
 * An upload answer with the record in an envelope, its members lifted to the top level as Create
 * does for a deck in `data`: `{"data": {"id", …}}` and JSON:API's `{"data": {"type", "id",
 * "attributes": {…}}}` give `{id, type, filename, …}` beside the envelope's other members, so
 * `{{ $json.filename }}` reads the same whatever the shape. A body with an id of its own, or whose
 * `data` has none, is taken as it is.
 */
export function withoutMaterialEnvelope(body: Record<string, unknown>): Record<string, unknown> {
	const { data, ...rest } = body;
	const record = Array.isArray(data) && data.length === 1 ? data[0] : data;
	if (!record || typeof record !== 'object' || Array.isArray(record)) return body;
	if (idAt(body, [...NAMED, ...BARE]) !== undefined || idAt(record, [...NAMED, ...BARE]) === undefined) return body;
	const { attributes, ...members } = record as Record<string, unknown>;
	const lifted = attributes && typeof attributes === 'object' && !Array.isArray(attributes) ? (attributes as Record<string, unknown>) : {};
	return { ...rest, ...lifted, ...members };
}
