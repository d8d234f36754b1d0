/**
 * OpenAPI Schema Objects (3.0's dialect, or 3.1's JSON Schema 2020-12) → JSON Schema 2020-12 for the
 * manifest. `#/components/schemas/X` becomes `#/$defs/X` (kept as a reference, so recursion stays
 * recursion); any other local reference gets a `$defs` entry of its own named after its pointer.
 *
 * 3.0's own keywords are translated (`nullable`, boolean `exclusiveMinimum`/`exclusiveMaximum`,
 * `example`); annotations with no JSON Schema meaning (`discriminator`, `xml`, `externalDocs`,
 * `x-*`) are dropped, and so are formats and patterns the generated validators could not compile
 * (`int32`, `binary`, a regex JavaScript's `u` mode refuses): they would make the manifest invalid,
 * and each only narrows what is accepted. The conversion never fails: odd input yields a looser schema.
 */
import { parsePointer } from '../load/yaml-positions.js';

type Json = { [key: string]: unknown };

const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

/** Keywords whose value is one schema. */
const ONE_SCHEMA = ['additionalProperties', 'items', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedProperties', 'unevaluatedItems', 'additionalItems'];
/** Keywords whose value is a list of schemas. */
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
/** Keywords whose value maps names to schemas. */
const SCHEMA_MAPS = ['properties', 'patternProperties', 'dependentSchemas'];
/** Keywords copied as they are (after a type check where it matters). */
const PLAIN = new Set([
  'title', 'description', 'default', 'examples', 'deprecated', 'readOnly', 'writeOnly', 'const', 'enum',
  'multipleOf', 'maximum', 'minimum', 'exclusiveMaximum', 'exclusiveMinimum', 'maxLength', 'minLength',
  'maxItems', 'minItems', 'uniqueItems', 'maxContains', 'minContains', 'maxProperties', 'minProperties',
  'required', 'dependentRequired', 'contentEncoding', 'contentMediaType',
]);
const NUMERIC = new Set(['multipleOf', 'maximum', 'minimum', 'exclusiveMaximum', 'exclusiveMinimum']);
const COUNTS = new Set(['maxLength', 'minLength', 'maxItems', 'minItems', 'maxContains', 'minContains', 'maxProperties', 'minProperties']);

export interface SchemaConverter {
  /** Converts one schema (an operation's parameter, body or response schema). */
  convert(schema: unknown): unknown;
  /** The `$defs` every converted schema so far refers to, directly or not, sorted by name. */
  defs(): Record<string, unknown>;
  /** One converted `$defs` entry by name. */
  def(name: string): unknown;
  /** How many formats and patterns were dropped (reported once, as a count). */
  readonly dropped: { formats: Set<string>; patterns: number };
}

/**
 * @param document the bundled OpenAPI document (references are local to it)
 * @param knownFormats the formats the manifest's schema compiler knows
 * @param openapi30 the document is OpenAPI 3.0 (or converted from 2.0): its dialect applies
 */
export function schemaConverter(document: unknown, knownFormats: ReadonlySet<string>, openapi30: boolean): SchemaConverter {
  const defs = new Map<string, unknown>();
  /** `$ref` target pointer → its `$defs` name. */
  const defNames = new Map<string, string>();
  const taken = new Set<string>();
  const dropped = { formats: new Set<string>(), patterns: 0 };

  const nameFor = (pointer: string): string => {
    const existing = defNames.get(pointer);
    if (existing !== undefined) return existing;
    const segments = parsePointer(pointer.slice(1));
    const raw = pointer.startsWith('#/components/schemas/') && segments.length === 3 ? segments[2]! : segments.join('_');
    let name = raw.replace(/[^A-Za-z0-9_.-]+/g, '_').replace(/^[^A-Za-z_]+/, '') || 'schema';
    if (taken.has(name)) {
      let n = 2;
      while (taken.has(`${name}_${n}`)) n += 1;
      name = `${name}_${n}`;
    }
    taken.add(name);
    defNames.set(pointer, name);
    return name;
  };

  const refTo = (ref: string): Json => {
    const pointer = ref.startsWith('#') ? decodeURIComponent(ref) : '';
    const target = pointer === '' ? undefined : resolvePointer(document, pointer.slice(1));
    if (target === undefined) return {}; // a reference leading nowhere (the parser let it through): accept anything
    const known = defNames.has(pointer);
    const name = nameFor(pointer);
    if (!known) {
      defs.set(name, {}); // placeholder first: a recursive reference finds the name already given
      defs.set(name, convert(target));
    }
    return { $ref: `#/$defs/${name}` };
  };

  const convert = (schema: unknown): unknown => {
    if (typeof schema === 'boolean') return schema;
    if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return {};
    const source = schema as Json;
    if (typeof source['$ref'] === 'string') {
      const ref = refTo(source['$ref']);
      // 3.0 ignores siblings of $ref; 3.1 keeps them: keep the description, the one that matters to a model.
      if (!openapi30 && typeof source['description'] === 'string') ref['description'] = source['description'];
      return ref;
    }
    const out: Json = {};
    for (const [key, value] of Object.entries(source)) {
      if (PLAIN.has(key)) copyPlain(out, key, value, openapi30);
      else if (key === 'type') copyType(out, value);
      else if (key === 'format') copyFormat(out, value, knownFormats, dropped);
      else if (key === 'pattern') copyPattern(out, value, dropped);
      else if (key === 'example' && !('examples' in source)) out['examples'] = [value];
      else if (ONE_SCHEMA.includes(key)) {
        if (key === 'items' && Array.isArray(value)) out['prefixItems'] = value.map(convert);
        else if (key !== 'additionalItems') out[key] = convert(value);
      } else if (SCHEMA_LISTS.includes(key) && Array.isArray(value) && value.length > 0) out[key] = value.map(convert);
      else if (SCHEMA_MAPS.includes(key) && isObject(value)) out[key] = mapValues(value, convert);
    }
    if (openapi30) translate30(source, out);
    return ownPropertiesIntoAllOf(out);
  };

  return {
    convert,
    def: (name) => defs.get(name),
    defs: () => Object.fromEntries([...defs.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    dropped,
  };
}

/** A JSON pointer (without its leading `#`) into `document`; undefined when it leads nowhere. */
export function resolvePointer(document: unknown, pointer: string): unknown {
  let node = document;
  for (const segment of parsePointer(pointer)) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, segment)) return undefined;
    node = (node as Json)[segment];
  }
  return node;
}

function copyPlain(out: Json, key: string, value: unknown, openapi30: boolean): void {
  if (NUMERIC.has(key)) {
    if (typeof value === 'number' && Number.isFinite(value)) out[key] = value;
    else if (typeof value === 'boolean' && openapi30) out[key] = value; // 3.0's boolean form: translate30 rewrites it
    return;
  }
  if (COUNTS.has(key)) {
    if (Number.isInteger(value) && (value as number) >= 0) out[key] = value;
    return;
  }
  if (key === 'required') {
    if (Array.isArray(value) && value.every((v) => typeof v === 'string')) out[key] = [...new Set(value)];
    return;
  }
  if (key === 'enum') {
    if (Array.isArray(value) && value.length > 0) out[key] = value;
    return;
  }
  if (key === 'examples') {
    if (Array.isArray(value)) out[key] = value;
    return;
  }
  if (['title', 'description', 'contentEncoding', 'contentMediaType'].includes(key)) {
    if (typeof value === 'string') out[key] = value;
    return;
  }
  if (['deprecated', 'readOnly', 'writeOnly', 'uniqueItems'].includes(key)) {
    if (typeof value === 'boolean') out[key] = value;
    return;
  }
  if (key === 'dependentRequired') {
    if (isObject(value) && Object.values(value).every((v) => Array.isArray(v) && v.every((s) => typeof s === 'string'))) out[key] = value;
    return;
  }
  out[key] = value;
}

function copyType(out: Json, value: unknown): void {
  const types = (Array.isArray(value) ? value : [value]).filter((t): t is string => typeof t === 'string' && TYPES.has(t));
  const unique = [...new Set(types)];
  if (unique.length === 1) out['type'] = unique[0];
  else if (unique.length > 1) out['type'] = unique;
}

function copyFormat(out: Json, value: unknown, known: ReadonlySet<string>, dropped: SchemaConverter['dropped']): void {
  if (typeof value !== 'string') return;
  // OpenAPI's bytes (`binary`, and `byte`, already base64) travel in JSON as base64 text.
  if (value === 'binary' || value === 'byte') out['contentEncoding'] ??= 'base64';
  else if (known.has(value)) out['format'] = value;
  else dropped.formats.add(value);
}

function copyPattern(out: Json, value: unknown, dropped: SchemaConverter['dropped']): void {
  if (typeof value !== 'string') return;
  try {
    new RegExp(value, 'u');
    out['pattern'] = value;
  } catch {
    dropped.patterns += 1;
  }
}

/** OpenAPI 3.0's differences from JSON Schema, applied to the converted schema. */
function translate30(source: Json, out: Json): void {
  for (const [bound, limit] of [['exclusiveMinimum', 'minimum'], ['exclusiveMaximum', 'maximum']] as const) {
    if (typeof out[bound] !== 'boolean') continue;
    if (out[bound] === true && typeof out[limit] === 'number') {
      out[bound] = out[limit];
      delete out[limit];
    } else delete out[bound];
  }
  if (source['nullable'] !== true) return;
  if (Array.isArray(out['enum']) && !out['enum'].includes(null)) out['enum'] = [...out['enum'], null];
  if (typeof out['type'] === 'string') out['type'] = [out['type'], 'null'];
  else if (Array.isArray(out['type'])) {
    if (!out['type'].includes('null')) out['type'] = [...out['type'], 'null'];
  } else if (out['allOf'] !== undefined || out['anyOf'] !== undefined || out['oneOf'] !== undefined) {
    // `nullable` beside a composition: null is one more choice.
    const inner: Json = {};
    for (const key of ['allOf', 'anyOf', 'oneOf']) {
      if (out[key] !== undefined) {
        inner[key] = out[key];
        delete out[key];
      }
    }
    out['anyOf'] = [inner, { type: 'null' }];
  }
}

/** Keywords that describe an object's own members. */
const MEMBER_KEYWORDS = ['properties', 'patternProperties', 'additionalProperties', 'required', 'propertyNames', 'minProperties', 'maxProperties', 'unevaluatedProperties'];

/**
 * `allOf` beside the object's own members (`allOf: [Base]` plus `properties`, the usual way
 * descriptions extend a schema) becomes one more `allOf` entry holding those members. The same
 * value is accepted; the generated types then name the whole schema once (json-schema-to-typescript
 * names the intersection after the definition's key and the members after the tool, which collides
 * when two tools use the definition).
 */
function ownPropertiesIntoAllOf(out: Json): Json {
  if (!Array.isArray(out['allOf']) || !MEMBER_KEYWORDS.some((k) => k in out)) return out;
  const members: Json = {};
  for (const key of MEMBER_KEYWORDS) {
    if (key in out) {
      members[key] = out[key];
      delete out[key];
    }
  }
  out['allOf'] = [...(out['allOf'] as unknown[]), members];
  return out;
}

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function mapValues(value: Json, convert: (schema: unknown) => unknown): Json {
  const out: Json = {};
  for (const [key, schema] of Object.entries(value)) out[key] = convert(schema);
  return out;
}
