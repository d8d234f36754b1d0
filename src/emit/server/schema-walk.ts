/**
 * Schema-aware copying. Only subschema positions are visited, so data (`enum`, `const`, `default`,
 * `examples`) and property *names* are never mistaken for keywords: a property called `$ref` or
 * `title` stays a property.
 */

export type SchemaObject = { [key: string]: unknown };

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

/** Where a node sits. */
export interface SchemaPosition {
  /** JSON pointer from the walked root. */
  pointer: string;
  /** Keys of the `$defs`/`definitions` entries on the way down, outermost first. */
  definitions: readonly string[];
  /** True when the node itself is a `$defs`/`definitions` entry. */
  isDefinition: boolean;
}

/** Called for every schema object, children first, with a fresh copy it may change and return. */
export type SchemaVisitor = (node: SchemaObject, position: SchemaPosition) => SchemaObject;

const ROOT: SchemaPosition = { pointer: '', definitions: [], isDefinition: false };

/** A deep copy of `schema` with `visit` applied at every subschema position. */
export function mapSchema(schema: unknown, visit: SchemaVisitor, position: SchemaPosition = ROOT): unknown {
  if (!isObject(schema)) return schema;
  const out: SchemaObject = {};
  for (const [key, value] of Object.entries(schema)) {
    defineOwn(out, key, mapKeyword(key, value, visit, position));
  }
  return visit(out, position);
}

function mapKeyword(key: string, value: unknown, visit: SchemaVisitor, parent: SchemaPosition): unknown {
  const pointer = `${parent.pointer}/${pointerToken(key)}`;
  const at = (suffix: string, isDefinition = false, name?: string): SchemaPosition => ({
    pointer: `${pointer}/${suffix}`,
    definitions: name === undefined ? parent.definitions : [...parent.definitions, name],
    isDefinition,
  });
  if (SCHEMA_ARRAY_VALUED.has(key) && Array.isArray(value)) {
    return value.map((item, i) => mapSchema(item, visit, at(String(i))));
  }
  if (SCHEMA_VALUED.has(key)) {
    return mapSchema(value, visit, { pointer, definitions: parent.definitions, isDefinition: false });
  }
  if (SCHEMA_MAP_VALUED.has(key)) {
    const definitions = key === '$defs' || key === 'definitions';
    return mapEntries(value, (k, v) => mapSchema(v, visit, at(pointerToken(k), definitions, definitions ? k : undefined)));
  }
  // draft-07 `dependencies`: each value is a subschema or an array of property names.
  if (key === 'dependencies') {
    return mapEntries(value, (k, v) => (Array.isArray(v) ? [...v] : mapSchema(v, visit, at(pointerToken(k)))));
  }
  return structuredClone(value);
}

function mapEntries(value: unknown, f: (key: string, value: unknown) => unknown): unknown {
  if (!isObject(value)) return structuredClone(value);
  const out: SchemaObject = {};
  for (const [key, v] of Object.entries(value)) defineOwn(out, key, f(key, v));
  return out;
}

/**
 * Rewrites every local `$ref` (`#…`) so that it still points at the same place once the schema is
 * embedded at `pointer` (e.g. `/$defs/GetWeatherInput`) in a larger document. Schemas in the
 * ServiceModel are self-contained, so any other `$ref` is a bug upstream.
 */
export function embedAt(schema: SchemaObject, pointer: string): SchemaObject {
  const copy = mapSchema(schema, (node) => {
    const ref = node['$ref'];
    if (typeof ref !== 'string') return node;
    if (!ref.startsWith('#')) {
      throw new Error(`schema at ${pointer} has a $ref that is not local (${JSON.stringify(ref)}); the manifest loader bundles those`);
    }
    node['$ref'] = `#${pointer}${ref.slice(1)}`;
    return node;
  }) as SchemaObject;
  // An embedded `$id` would start a new resource and change what `#…` means inside it.
  delete copy['$id'];
  delete copy['$schema'];
  return copy;
}

export function isObject(value: unknown): value is SchemaObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Plain assignment would turn a `__proto__` key into a prototype change. */
export function defineOwn(target: SchemaObject, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** RFC 6901 escaping of one reference token. */
export function pointerToken(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}
