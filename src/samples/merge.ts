/**
 * Combining two subschemas into one the generator can follow (for `allOf`, a chosen `anyOf`/`oneOf`
 * branch, `$ref` with siblings, `if`/`then`). What merges exactly (bounds, `required`, `type`,
 * `enum`, `properties`) is merged; what does not (two `pattern`s, two `format`s) keeps the first,
 * and the validator run on every finished sample is the judge of the rest.
 */
export type Schema = { [key: string]: unknown } | boolean;
type SchemaObject = { [key: string]: unknown };

const LOWER_BOUNDS = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties', 'minContains'];
const UPPER_BOUNDS = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties', 'maxContains'];
const SCHEMA_MAPS = ['properties', 'patternProperties', 'dependentSchemas'];
const ONE_SCHEMA = ['additionalProperties', 'items', 'contains', 'propertyNames', 'unevaluatedProperties', 'unevaluatedItems', 'additionalItems'];

/** Sets an own property, even one named `__proto__`. */
export function defineOwn(target: SchemaObject, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

export function isObject(value: unknown): value is SchemaObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function both(a: unknown, b: unknown): unknown {
  if (a === true || b === false) return b;
  if (b === true || a === false) return a;
  return { allOf: [a, b] };
}

function asList(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [value];
}

export function mergeSchemas(a: Schema, b: Schema): Schema {
  if (a === false || b === false) return false;
  if (a === true) return b;
  if (b === true) return a;
  const out: SchemaObject = {};
  for (const key of Object.keys(a)) defineOwn(out, key, a[key]);
  for (const key of Object.keys(b)) {
    const incoming = b[key];
    if (!Object.hasOwn(out, key)) {
      defineOwn(out, key, incoming);
      continue;
    }
    const current = out[key];
    if (LOWER_BOUNDS.includes(key) && typeof current === 'number' && typeof incoming === 'number') out[key] = Math.max(current, incoming);
    else if (UPPER_BOUNDS.includes(key) && typeof current === 'number' && typeof incoming === 'number') out[key] = Math.min(current, incoming);
    else if (key === 'required' && Array.isArray(current) && Array.isArray(incoming)) out[key] = [...new Set([...current, ...incoming])];
    else if (key === 'type') {
      const allowed = new Set(asList(incoming));
      // integer is a number: number ∩ integer is integer.
      out[key] = asList(current).flatMap((t) => (allowed.has(t) ? [t] : t === 'number' && allowed.has('integer') ? ['integer'] : t === 'integer' && allowed.has('number') ? ['integer'] : []));
    } else if (key === 'enum' && Array.isArray(current) && Array.isArray(incoming)) {
      const texts = new Set(incoming.map((v) => JSON.stringify(v)));
      out[key] = current.filter((v) => texts.has(JSON.stringify(v)));
    } else if (SCHEMA_MAPS.includes(key) && isObject(current) && isObject(incoming)) {
      const map: SchemaObject = {};
      for (const name of Object.keys(current)) defineOwn(map, name, current[name]);
      for (const name of Object.keys(incoming)) defineOwn(map, name, Object.hasOwn(map, name) ? both(map[name], incoming[name]) : incoming[name]);
      out[key] = map;
    } else if (ONE_SCHEMA.includes(key) && !Array.isArray(current) && !Array.isArray(incoming)) out[key] = both(current, incoming);
    else if (key === 'allOf' && Array.isArray(current) && Array.isArray(incoming)) out[key] = [...current, ...incoming];
    else if ((key === 'anyOf' || key === 'oneOf') && Array.isArray(incoming)) out['allOf'] = [...(Array.isArray(out['allOf']) ? out['allOf'] : []), { [key]: incoming }];
    else if (key === 'not') out[key] = { anyOf: [current, incoming] };
    else if (key === 'dependentRequired' && isObject(current) && isObject(incoming)) {
      const map: SchemaObject = {};
      for (const name of Object.keys(current)) defineOwn(map, name, current[name]);
      for (const name of Object.keys(incoming)) defineOwn(map, name, [...new Set([...asList(map[name] ?? []), ...asList(incoming[name])])]);
      out[key] = map;
    }
    // Anything else (pattern, format, const, multipleOf, …): the first stays; validation decides.
  }
  return out;
}
