/**
 * A walk over JSON Schema documents that visits only the subschema positions schema-keywords.ts
 * names, so a *property* named `description` or `$ref`, an enum value or a const is data and is
 * never touched.
 */
import { defineOwn, isSchemaObject, subschemaSlot } from '../../load/schema-keywords.js';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/**
 * A copy of `schema` in which every schema object, innermost first, has been passed through
 * `rewrite` (which receives a fresh copy it may change, and returns the node to use).
 */
export function rewriteSchema(schema: Json, rewrite: (node: JsonObject) => JsonObject): Json {
  if (!isSchemaObject(schema)) return schema;
  const copy: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) defineOwn(copy, key, rewriteKeyword(key, value, rewrite));
  return rewrite(copy);
}

/** Anything that is not a schema object (a `dependencies` array, say) comes back as it is. */
function rewriteKeyword(key: string, value: Json, rewrite: (node: JsonObject) => JsonObject): Json {
  const sub = (v: Json): Json => rewriteSchema(v, rewrite);
  switch (subschemaSlot(key, value)) {
    case 'list':
      return (value as Json[]).map(sub);
    case 'one':
      return sub(value);
    case 'map': {
      const out: JsonObject = {};
      for (const [name, v] of Object.entries(value as JsonObject)) defineOwn(out, name, sub(v));
      return out;
    }
    default:
      return value;
  }
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
