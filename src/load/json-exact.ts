/**
 * Whether a parsed value comes back the same from its JSON text: only plain objects, arrays,
 * strings, booleans, null and finite numbers other than -0. A YAML `.inf` or `.nan` (and a JSON
 * `1e999`, which JSON.parse reads as Infinity) is written `null`, a `-0` is written `0`: a key made
 * from such a value's JSON text would stand for another value too (bundled-tools-memo.ts).
 */
export function survivesJson(value: unknown): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value) && !Object.is(value, -0);
    case 'object': {
      if (value === null) return true;
      if (Array.isArray(value)) {
        for (const item of value) if (!survivesJson(item)) return false;
        return true;
      }
      const prototype = Object.getPrototypeOf(value) as unknown;
      if (prototype !== Object.prototype && prototype !== null) return false;
      // for-in: own keys of a parsed value, without a list per object (an inherited key only refuses).
      for (const key in value) if (!Object.hasOwn(value, key) || !survivesJson((value as Record<string, unknown>)[key])) return false;
      return true;
    }
    default:
      return false;
  }
}
