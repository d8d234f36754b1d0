/**
 * A tool's schema placed inside a larger document (the validators' and types' `$defs`): its local
 * `$ref`s rewritten to point where they now sit.
 */
import { isSchemaObject, type SchemaObject } from '../../schema/keywords.js';
import { mapSubschemas } from '../../schema/walk.js';

/**
 * Rewrites every local `$ref` (`#…`) so that it still points at the same place once the schema is
 * embedded at `pointer` (e.g. `/$defs/GetWeatherInput`) in a larger document. Schemas in the
 * ServiceModel are self-contained, so any other `$ref` is a bug upstream. Every schema object is a
 * fresh copy; data (`enum`, `const`, `default`…) is the input's own, shared, as nothing that reads
 * the result changes it. (A thousand tools' roots are built on the main thread of a cold run: a
 * copy without positions or data clones takes a third of copySchema's time.)
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
  const out = mapSubschemas(schema, (value) => embedNode(value, prefix, pointer));
  const ref = out['$ref'];
  if (typeof ref === 'string') {
    if (!ref.startsWith('#')) {
      throw new Error(`schema at ${pointer} has a $ref that is not local (${JSON.stringify(ref)}); the manifest loader bundles those`);
    }
    out['$ref'] = prefix + ref.slice(1);
  }
  return out;
}
