/**
 * The schema walk, one for every phase: it descends only into the subschema positions keywords.ts
 * names; everything else (`const`, `enum`, `default`, `examples`, unknown keywords, property names)
 * is data, so a property named `$ref` or `title` is never mistaken for a keyword. mapSubschemas
 * and forEachSubschema are the one step down; the walks below are the orders the phases need.
 */
import { defineOwn, isSchemaObject, isSubschema, pointerSegment, subschemaSlot, type SchemaObject } from './keywords.js';

export type JsonSchema = SchemaObject | boolean;

/** Schemas nested deeper than this are refused: no real protocol schema comes close. */
const MAX_SCHEMA_DEPTH = 128;

export class SchemaTooDeepError extends Error {
  constructor(readonly pointer: string) {
    super(`schema nested deeper than ${MAX_SCHEMA_DEPTH} levels`);
  }
}

/**
 * What a step down sees of one subschema position: the value there, its keyword, and its index
 * in a list slot or its name in a map slot (undefined for a single subschema). The value may be
 * data where a list or map slot holds some (a `dependencies` array).
 */
export type SubschemaStep<R> = (value: unknown, keyword: string, entry: number | string | undefined) => R;

/**
 * One level of every walk: a copy of `node` whose subschema positions hold what `child` returns
 * and whose other values what `data` returns (the value itself unless given). Keys keep their
 * order and are defined as own data properties, so a `__proto__` key stays an ordinary key.
 */
export function mapSubschemas(node: SchemaObject, child: SubschemaStep<unknown>, data: (value: unknown) => unknown = (value) => value): SchemaObject {
  const out: SchemaObject = {};
  for (const [key, value] of Object.entries(node)) {
    switch (subschemaSlot(key, value)) {
      case 'list':
        defineOwn(out, key, (value as unknown[]).map((item, index) => child(item, key, index)));
        break;
      case 'one':
        defineOwn(out, key, child(value, key, undefined));
        break;
      case 'map': {
        const map: SchemaObject = {};
        for (const [name, entry] of Object.entries(value as SchemaObject)) defineOwn(map, name, child(entry, key, name));
        defineOwn(out, key, map);
        break;
      }
      default:
        defineOwn(out, key, data(value));
    }
  }
  return out;
}

/** The same step, reading only: `child` for each subschema position of `node`, in key order. */
export function forEachSubschema(node: SchemaObject, child: SubschemaStep<void>): void {
  for (const [key, value] of Object.entries(node)) {
    switch (subschemaSlot(key, value)) {
      case 'list':
        (value as unknown[]).forEach((item, index) => child(item, key, index));
        break;
      case 'one':
        child(value, key, undefined);
        break;
      case 'map':
        for (const [name, entry] of Object.entries(value as SchemaObject)) child(entry, key, name);
        break;
      default:
    }
  }
}

/** The JSON pointer of a subschema position below the node at `pointer`. */
export function childPointer(pointer: string, keyword: string, entry: number | string | undefined): string {
  const at = `${pointer}/${pointerSegment(keyword)}`;
  return entry === undefined ? at : `${at}/${typeof entry === 'number' ? entry : pointerSegment(entry)}`;
}

/**
 * Rebuilds a schema top-down (the spec loader, the protocol types' compiler input): `visit` sees
 * every schema object (with its JSON pointer) before its subschemas are mapped, and returns the
 * keys to keep (it may drop or rewrite keywords). Data is the input's own, shared.
 */
export function mapSchema(schema: JsonSchema, pointer: string, visit: (node: SchemaObject, pointer: string) => SchemaObject, depth = 0): JsonSchema {
  if (!isSchemaObject(schema)) return schema;
  if (depth > MAX_SCHEMA_DEPTH) throw new SchemaTooDeepError(pointer);
  return mapSubschemas(visit(schema, pointer), (value, keyword, entry) =>
    isSubschema(value) ? mapSchema(value, childPointer(pointer, keyword, entry), visit, depth + 1) : value,
  );
}

/** Where a node sits, for copySchema's visitor. */
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

/** A position below its parent's; its pointer is made only when a visitor reads it (most never do). */
class ChildPosition implements SchemaPosition {
  private made: string | undefined;
  readonly definitions: readonly string[];
  readonly isDefinition: boolean;
  constructor(
    private readonly parent: SchemaPosition,
    private readonly keyword: string,
    private readonly entry: number | string | undefined,
  ) {
    this.isDefinition = typeof entry === 'string' && (keyword === '$defs' || keyword === 'definitions');
    this.definitions = this.isDefinition ? [...parent.definitions, entry as string] : parent.definitions;
  }
  get pointer(): string {
    return (this.made ??= childPointer(this.parent.pointer, this.keyword, this.entry));
  }
}

const ROOT: SchemaPosition = { pointer: '', definitions: [], isDefinition: false };

/** Data cloned as structuredClone would, without its cost for the strings, numbers and booleans that most data is. */
function cloneData(value: unknown): unknown {
  return typeof value === 'object' && value !== null ? structuredClone(value) : value;
}

/** A deep copy of `schema`, data cloned too, with `visit` applied bottom-up at every subschema position (the tool types). */
export function copySchema(schema: unknown, visit: SchemaVisitor, position: SchemaPosition = ROOT): unknown {
  // Not a schema object: a boolean schema, or data in a list or map slot (a `dependencies` array).
  if (!isSchemaObject(schema)) return cloneData(schema);
  const out = mapSubschemas(schema, (value, keyword, entry) => copySchema(value, visit, new ChildPosition(position, keyword, entry)), cloneData);
  return visit(out, position);
}

/**
 * A copy of `schema` in which every schema object, innermost first, has been passed through
 * `rewrite` (which receives a fresh copy it may change, and returns the node to use). Data is
 * the input's own, shared.
 */
export function rewriteSchema<S, N extends SchemaObject = SchemaObject>(schema: S, rewrite: (node: N) => N): S {
  if (!isSchemaObject(schema)) return schema;
  return rewrite(mapSubschemas(schema, (value) => rewriteSchema(value, rewrite)) as N) as unknown as S;
}

/** Calls `visit` on every schema object of `schema` (outermost first), changing nothing itself. */
export function forEachSchemaNode<N extends SchemaObject = SchemaObject>(schema: unknown, visit: (node: N) => void): void {
  if (!isSchemaObject(schema)) return;
  visit(schema as N);
  forEachSubschema(schema, (value) => forEachSchemaNode(value, visit));
}
