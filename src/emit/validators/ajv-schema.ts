/**
 * Tool and protocol schemas made ready for ajv standalone: annotations stripped, `__proto__`
 * members written the ways ajv checks. Both rewrite through the one schema walk (src/schema/walk.ts).
 */
import { ANNOTATION_KEYWORDS, defineOwn, isSchemaObject } from '../../schema/keywords.js';
import { rewriteSchema } from '../../schema/walk.js';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/**
 * ajv standalone embeds every schema object a validator refers to, descriptions included. The MCP
 * schemas are mostly prose, so annotations go before compiling.
 */
export function stripAnnotations(schema: Json): Json {
  return rewriteSchema<Json, JsonObject>(schema, (node) => {
    for (const key of ANNOTATION_KEYWORDS) delete node[key];
    return node;
  });
}

/** The pattern that stands for a `__proto__` member; ajv skips that name wherever it names a member. */
const PROTO_PATTERN = '^__proto__$';

/**
 * ajv silently ignores a member named `__proto__` in `properties`, `dependentRequired`,
 * `dependentSchemas` and `dependencies` (a guard of its own against prototype pollution), so such
 * a member would never be validated. The same constraints, written the ways ajv does check:
 * the property as a `^__proto__$` pattern property (which additionalProperties and
 * unevaluatedProperties count alike), a dependency as `if: { required: ["__proto__"] }, then: …`.
 * Refs into a moved `properties/__proto__` follow it.
 */
export function protoMembersForAjv(schema: Json): Json {
  // Almost no schema has such a member: a look at its text (native, no copy) spares the walk.
  if (!JSON.stringify(schema).includes('"__proto__"')) return schema;
  let moved = false;
  const rewritten = rewriteSchema<Json, JsonObject>(schema, (node) => {
    const properties = node['properties'];
    if (isSchemaObject(properties) && Object.hasOwn(properties, '__proto__')) {
      moved = true;
      const patterns: JsonObject = isSchemaObject(node['patternProperties']) ? { ...node['patternProperties'] } : {};
      const existing = patterns[PROTO_PATTERN];
      const member = properties['__proto__'] as Json;
      patterns[PROTO_PATTERN] = existing === undefined ? member : { allOf: [existing, member] };
      const rest: JsonObject = {};
      for (const [k, v] of Object.entries(properties)) if (k !== '__proto__') defineOwn(rest, k, v);
      node['properties'] = rest;
      node['patternProperties'] = patterns;
    }
    const conditions: Json[] = [];
    for (const keyword of ['dependentRequired', 'dependentSchemas', 'dependencies']) {
      const map = node[keyword];
      if (!isSchemaObject(map) || !Object.hasOwn(map, '__proto__')) continue;
      const then = map['__proto__'] as Json;
      conditions.push({ if: { required: ['__proto__'] }, then: Array.isArray(then) ? { required: then } : then });
      const rest: JsonObject = {};
      for (const [k, v] of Object.entries(map)) if (k !== '__proto__') defineOwn(rest, k, v);
      node[keyword] = rest;
    }
    if (conditions.length > 0) node['allOf'] = [...(Array.isArray(node['allOf']) ? node['allOf'] : []), ...conditions];
    return node;
  });
  if (!moved) return rewritten;
  return rewriteSchema<Json, JsonObject>(rewritten, (node) => {
    const ref = node['$ref'];
    if (typeof ref === 'string') node['$ref'] = ref.replace(/\/properties\/__proto__(?=\/|$)/g, `/patternProperties/${encodeURIComponent(PROTO_PATTERN)}`);
    return node;
  });
}
