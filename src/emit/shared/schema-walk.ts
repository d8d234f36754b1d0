/**
 * Schema-aware copying. Only the subschema positions src/schema/keywords.ts names are visited, so data
 * (`enum`, `const`, `default`, `examples`) and property *names* are never mistaken for keywords: a
 * property called `$ref` or `title` stays a property.
 */
import { defineOwn, isSchemaObject, pointerSegment, subschemaSlot, type SchemaObject } from '../../schema/keywords.js';


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
  // Not a schema object: a boolean schema, or data in a list or map slot (a `dependencies` array).
  if (!isSchemaObject(schema)) return structuredClone(schema);
  const out: SchemaObject = {};
  for (const [key, value] of Object.entries(schema)) {
    defineOwn(out, key, mapKeyword(key, value, visit, position));
  }
  return visit(out, position);
}

function mapKeyword(key: string, value: unknown, visit: SchemaVisitor, parent: SchemaPosition): unknown {
  const pointer = `${parent.pointer}/${pointerSegment(key)}`;
  const at = (suffix: string, isDefinition = false, name?: string): SchemaPosition => ({
    pointer: `${pointer}/${suffix}`,
    definitions: name === undefined ? parent.definitions : [...parent.definitions, name],
    isDefinition,
  });
  switch (subschemaSlot(key, value)) {
    case 'list':
      return (value as unknown[]).map((item, i) => mapSchema(item, visit, at(String(i))));
    case 'one':
      return mapSchema(value, visit, { pointer, definitions: parent.definitions, isDefinition: false });
    case 'map': {
      const definitions = key === '$defs' || key === 'definitions';
      const out: SchemaObject = {};
      for (const [name, v] of Object.entries(value as SchemaObject)) {
        defineOwn(out, name, mapSchema(v, visit, at(pointerSegment(name), definitions, definitions ? name : undefined)));
      }
      return out;
    }
    default:
      return structuredClone(value);
  }
}

/**
 * Rewrites every local `$ref` (`#…`) so that it still points at the same place once the schema is
 * embedded at `pointer` (e.g. `/$defs/GetWeatherInput`) in a larger document. Schemas in the
 * ServiceModel are self-contained, so any other `$ref` is a bug upstream. Every schema object is a
 * fresh copy; data (`enum`, `const`, `default`…) is the input's own, shared, as nothing that reads
 * the result changes it. (A thousand tools' roots are built on the main thread of a cold run: a
 * copy without positions or data clones takes a third of mapSchema's time.)
 */
export function embedAt(schema: SchemaObject, pointer: string): SchemaObject {
  const copy = embedNode(schema, `#${pointer}`, pointer) as SchemaObject;
  // An embedded `$id` would start a new resource and change what `#…` means inside it.
  delete copy['$id'];
  delete copy['$schema'];
  return copy;
}

function embedNode(schema: unknown, prefix: string, pointer: string): unknown {
  if (!isSchemaObject(schema)) return schema;
  const out: SchemaObject = {};
  for (const [key, value] of Object.entries(schema)) {
    switch (subschemaSlot(key, value)) {
      case 'list':
        defineOwn(out, key, (value as unknown[]).map((item) => embedNode(item, prefix, pointer)));
        break;
      case 'one':
        defineOwn(out, key, embedNode(value, prefix, pointer));
        break;
      case 'map': {
        const map: SchemaObject = {};
        for (const [name, v] of Object.entries(value as SchemaObject)) defineOwn(map, name, embedNode(v, prefix, pointer));
        defineOwn(out, key, map);
        break;
      }
      default:
        defineOwn(out, key, value);
    }
  }
  const ref = out['$ref'];
  if (typeof ref === 'string') {
    if (!ref.startsWith('#')) {
      throw new Error(`schema at ${pointer} has a $ref that is not local (${JSON.stringify(ref)}); the manifest loader bundles those`);
    }
    out['$ref'] = prefix + ref.slice(1);
  }
  return out;
}
