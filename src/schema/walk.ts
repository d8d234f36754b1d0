/**
 * A schema walk shared by the spec loader and the types emitter. It visits only the subschema
 * positions that keywords.ts names; everything else (`const`, `enum`, `default`, `examples`, unknown keywords) is data and is
 * copied untouched, so a property named `tsType` or `$ref` is never mistaken for a keyword.
 */
import { isSchemaObject, isSubschema, pointerSegment, subschemaSlot, type SchemaObject } from './keywords.js';

export type JsonSchema = SchemaObject | boolean;

/** Schemas nested deeper than this are refused: no real protocol schema comes close. */
const MAX_SCHEMA_DEPTH = 128;

export class SchemaTooDeepError extends Error {
  constructor(readonly pointer: string) {
    super(`schema nested deeper than ${MAX_SCHEMA_DEPTH} levels`);
  }
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
  const sub = (value: unknown, at: string): unknown => (isSubschema(value) ? mapSchema(value, at, visit, depth + 1) : value);
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => {
      const at = `${pointer}/${pointerSegment(key)}`;
      switch (subschemaSlot(key, value)) {
        case 'list':
          return [key, (value as unknown[]).map((item, i) => sub(item, `${at}/${i}`))];
        case 'one':
          return [key, sub(value, at)];
        case 'map':
          return [key, Object.fromEntries(Object.entries(value as SchemaObject).map(([name, s]) => [name, sub(s, `${at}/${pointerSegment(name)}`)]))];
        default:
          return [key, value];
      }
    }),
  );
}
