/**
 * A walk over JSON Schema documents that knows which keywords hold subschemas, so a *property*
 * named `description` or `$ref`, an enum value or a const is data and is never touched.
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** Keywords whose value is one subschema. */
const SCHEMA_VALUED = new Set([
  'additionalItems',
  'additionalProperties',
  'contains',
  'contentSchema',
  'else',
  'if',
  'items',
  'not',
  'propertyNames',
  'then',
  'unevaluatedItems',
  'unevaluatedProperties',
]);

/** Keywords whose value is an array of subschemas (`items` too, in its draft-07 tuple form). */
const SCHEMA_ARRAY_VALUED = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items']);

/** Keywords whose value maps names to subschemas. */
const SCHEMA_MAP_VALUED = new Set(['$defs', 'definitions', 'dependentSchemas', 'patternProperties', 'properties']);

/**
 * A copy of `schema` in which every schema object, innermost first, has been passed through
 * `rewrite` (which receives a fresh copy it may change, and returns the node to use).
 */
export function rewriteSchema(schema: Json, rewrite: (node: JsonObject) => JsonObject): Json {
  if (!isObject(schema)) return schema;
  const copy: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) setOwn(copy, key, rewriteKeyword(key, value, rewrite));
  return rewrite(copy);
}

function rewriteKeyword(key: string, value: Json, rewrite: (node: JsonObject) => JsonObject): Json {
  const sub = (v: Json): Json => rewriteSchema(v, rewrite);
  if (SCHEMA_ARRAY_VALUED.has(key) && Array.isArray(value)) return value.map(sub);
  if (SCHEMA_VALUED.has(key)) return sub(value);
  if (SCHEMA_MAP_VALUED.has(key)) return mapValues(value, sub);
  // draft-07 `dependencies`: each value is a subschema or an array of property names.
  if (key === 'dependencies') return mapValues(value, (v) => (Array.isArray(v) ? v : sub(v)));
  return value;
}

function mapValues(value: Json, f: (v: Json) => Json): Json {
  if (!isObject(value)) return value;
  const out: JsonObject = {};
  for (const [key, v] of Object.entries(value)) setOwn(out, key, f(v));
  return out;
}

export function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Plain assignment would turn a `__proto__` key into a prototype change. */
export function setOwn(target: JsonObject, key: string, value: Json): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Keywords that only annotate: they never change a verdict (ajv ignores `default` without useDefaults). */
const ANNOTATIONS = ['description', 'title', '$comment', 'examples', 'default', 'deprecated', 'readOnly', 'writeOnly'];

/**
 * ajv standalone embeds every schema object a validator refers to, descriptions included. The MCP
 * schemas are mostly prose, so annotations go before compiling.
 */
export function stripAnnotations(schema: Json): Json {
  return rewriteSchema(schema, (node) => {
    for (const key of ANNOTATIONS) delete node[key];
    return node;
  });
}
