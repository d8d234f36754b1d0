/**
 * When compiling a tool schema can be skipped. The load step compiles every tool schema with ajv
 * only to learn what compiling finds (bad references, unknown formats, strict-mode notes), and
 * throws the code away, a large share of loading a big manifest. Most tool schemas use only keywords whose
 * compilation, once the schema passed its meta-schema, can neither fail nor note anything; for
 * those, this walk stands in for the compile. Anything else, or anything it is unsure of, is
 * compiled as before, so the messages stay ajv's own.
 */
import { isSchemaObject, subschemaSlot, type SchemaObject } from '../schema/keywords.js';

/**
 * Keywords that compile without a throw or a strict-mode note whatever their (meta-schema valid)
 * value, under the check's options (strictTypes, strictTuples, strictRequired off; no useDefaults).
 * Left out on purpose: if/then/else, contains/minContains/maxContains, additionalItems and array
 * `items` (strict-mode notes), patternProperties (a note when a property matches a pattern),
 * `$anchor`/`$id`/nested `$schema` (reference bookkeeping), dependencies, anything dynamic.
 * `enum`, `format`, `pattern` and `$ref` are safe only with the value checks in safeValue().
 */
const SAFE_KEYWORDS = new Set([
  'type', 'enum', 'const', 'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum',
  'maxLength', 'minLength', 'pattern', 'format', 'maxItems', 'minItems', 'uniqueItems', 'maxProperties',
  'minProperties', 'required', 'dependentRequired', 'dependentSchemas', 'properties', 'additionalProperties',
  'propertyNames', 'items', 'allOf', 'anyOf', 'oneOf', 'not', 'unevaluatedProperties', 'unevaluatedItems',
  '$defs', 'definitions', '$ref', '$comment', 'title', 'description', 'default', 'examples', 'deprecated',
  'readOnly', 'writeOnly', 'contentMediaType', 'contentEncoding', 'x-mcp-header',
]);

/** What the compiling ajv knows: its keywords (by dialect) and its formats. */
export interface CompilerKnowledge {
  keyword(name: string): boolean;
  format(name: string): boolean;
}

/**
 * True when compiling `schema` (already valid against its meta-schema) would succeed with no
 * strict-mode note; false when only compiling can tell.
 */
export function compilesCleanly(schema: SchemaObject, knows: CompilerKnowledge): boolean {
  return safeSchema(schema, schema, knows, true);
}

function safeSchema(schema: unknown, root: SchemaObject, knows: CompilerKnowledge, isRoot: boolean): boolean {
  if (typeof schema === 'boolean') return true;
  if (!isSchemaObject(schema)) return false;
  for (const key of Object.keys(schema)) {
    const value = schema[key];
    // Extension keywords are unknown to ajv; its note about them is dropped by design (manifest-checks.ts).
    if (key.startsWith('x-') && key !== 'x-mcp-header') continue;
    if (key === '$schema') {
      if (!isRoot) return false;
      continue;
    }
    if (!SAFE_KEYWORDS.has(key) || !knows.keyword(key) || !safeValue(key, value, root, knows)) return false;
    const slot = subschemaSlot(key, value);
    if (slot === 'one' && !safeSchema(value, root, knows, false)) return false;
    if (slot === 'list' && !(value as unknown[]).every((item) => safeSchema(item, root, knows, false))) return false;
    if (slot === 'map' && !Object.values(value as SchemaObject).every((item) => safeSchema(item, root, knows, false))) return false;
    // A list under `items` is a draft-07 tuple (strict-mode notes); a map that is not all schemas is dependencies' data.
    if ((key === 'items' && slot !== 'one') || (slot === undefined && ['properties', 'dependentSchemas', '$defs', 'definitions', 'not', 'additionalProperties', 'propertyNames', 'unevaluatedProperties', 'unevaluatedItems', 'allOf', 'anyOf', 'oneOf'].includes(key))) {
      return false;
    }
  }
  return true;
}

/** The value checks compiling would make for the keywords that have them. */
function safeValue(key: string, value: unknown, root: SchemaObject, knows: CompilerKnowledge): boolean {
  switch (key) {
    case 'enum':
      return Array.isArray(value) && value.length > 0;
    case 'format':
      return typeof value === 'string' && knows.format(value);
    case 'pattern':
      return typeof value === 'string' && compilesAsRegExp(value);
    case 'x-mcp-header':
      return typeof value === 'string';
    case '$ref':
      return typeof value === 'string' && safeRef(value, root);
    default:
      return true;
  }
}

function compilesAsRegExp(pattern: string): boolean {
  try {
    // ajv compiles patterns with the `u` flag.
    new RegExp(pattern, 'u');
    return true;
  } catch {
    return false;
  }
}

/**
 * The references the bundler writes: to the root (`#`) or to one of the root's own definitions
 * (`#/$defs/Name`). The target must be a schema that is not itself a reference, so that no chain
 * of references can loop without describing a value.
 */
function safeRef(ref: string, root: SchemaObject): boolean {
  let target: unknown;
  if (ref === '#') target = root;
  else {
    const match = /^#\/(\$defs|definitions)\/([A-Za-z0-9_.-]+)$/.exec(ref);
    if (!match) return false;
    const defs = root[match[1]!];
    if (!isSchemaObject(defs) || !Object.hasOwn(defs, match[2]!)) return false;
    target = defs[match[2]!];
  }
  if (typeof target === 'boolean') return true;
  return isSchemaObject(target) && !Object.hasOwn(target, '$ref');
}
