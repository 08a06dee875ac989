/** The value at a dot path inside plain objects (`body`, `options.purchaseReference`); `value` itself for ''. */
export function valueAtPath(value: unknown, path: string): unknown {
	if (!path) return value;
	return path.split('.').reduce<unknown>((at, key) => (at && typeof at === 'object' ? (at as Record<string, unknown>)[key] : undefined), value);
}
