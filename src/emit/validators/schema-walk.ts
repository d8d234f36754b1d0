/**
 * A walk over JSON Schema documents that visits only the subschema positions src/schema/keywords.ts
 * names, so a *property* named `description` or `$ref`, an enum value or a const is data and is
 * never touched.
 */
import { ANNOTATION_KEYWORDS, defineOwn, isSchemaObject, subschemaSlot } from '../../schema/keywords.js';

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

/** Calls `visit` on every schema object of `schema` (outermost first), changing nothing itself. */
export function forEachSchemaNode(schema: Json, visit: (node: JsonObject) => void): void {
  if (!isSchemaObject(schema)) return;
  visit(schema);
  for (const [key, value] of Object.entries(schema)) {
    switch (subschemaSlot(key, value)) {
      case 'list':
        for (const item of value as Json[]) forEachSchemaNode(item, visit);
        break;
      case 'one':
        forEachSchemaNode(value, visit);
        break;
      case 'map':
        for (const item of Object.values(value as JsonObject)) forEachSchemaNode(item, visit);
        break;
      default:
    }
  }
}

/**
 * ajv standalone embeds every schema object a validator refers to, descriptions included. The MCP
 * schemas are mostly prose, so annotations go before compiling.
 */
export function stripAnnotations(schema: Json): Json {
  return rewriteSchema(schema, (node) => {
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
  const rewritten = rewriteSchema(schema, (node) => {
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
  return rewriteSchema(rewritten, (node) => {
    const ref = node['$ref'];
    if (typeof ref === 'string') node['$ref'] = ref.replace(/\/properties\/__proto__(?=\/|$)/g, `/patternProperties/${encodeURIComponent(PROTO_PATTERN)}`);
    return node;
  });
}
