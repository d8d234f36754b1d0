/**
 * The one place that knows where JSON Schema keywords hold subschemas (draft-07 and 2020-12).
 * Everything else in a schema (`const`, `enum`, `default`, `examples`, unknown keywords) is data
 * and is copied untouched, so a property named `tsType` or `$ref` is never mistaken for a keyword.
 */

export type JsonSchema = { [key: string]: unknown } | boolean;
export type SchemaObject = { [key: string]: unknown };

const SINGLE = new Set([
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
const LIST = new Set(['allOf', 'anyOf', 'items', 'oneOf', 'prefixItems']);
const MAP = new Set(['$defs', 'definitions', 'dependencies', 'dependentSchemas', 'patternProperties', 'properties']);

/** Schemas nested deeper than this are refused: no real protocol schema comes close. */
export const MAX_SCHEMA_DEPTH = 128;

export class SchemaTooDeepError extends Error {
  constructor(readonly pointer: string) {
    super(`schema nested deeper than ${MAX_SCHEMA_DEPTH} levels`);
  }
}

export function isSchemaObject(value: unknown): value is SchemaObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** RFC 6901 escaping of one pointer segment. */
export function pointerSegment(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * Rebuilds a schema bottom-up: `visit` sees every schema object (with its JSON pointer) before its
 * subschemas are mapped, and returns the keys to keep (it may drop or rewrite keywords). Objects are
 * rebuilt with Object.fromEntries, so a `__proto__` key stays an ordinary own property.
 */
export function mapSchema(
  schema: JsonSchema,
  pointer: string,
  visit: (node: SchemaObject, pointer: string) => SchemaObject,
  depth = 0,
): JsonSchema {
  if (!isSchemaObject(schema)) return schema;
  if (depth > MAX_SCHEMA_DEPTH) throw new SchemaTooDeepError(pointer);
  const node = visit(schema, pointer);
  const sub = (value: unknown, at: string): unknown =>
    typeof value === 'boolean' || isSchemaObject(value) ? mapSchema(value, at, visit, depth + 1) : value;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => {
      const at = `${pointer}/${pointerSegment(key)}`;
      if (LIST.has(key) && Array.isArray(value)) return [key, value.map((item, i) => sub(item, `${at}/${i}`))];
      if (SINGLE.has(key)) return [key, sub(value, at)];
      if (MAP.has(key) && isSchemaObject(value)) {
        return [key, Object.fromEntries(Object.entries(value).map(([name, s]) => [name, sub(s, `${at}/${pointerSegment(name)}`)]))];
      }
      return [key, value];
    }),
  );
}
