import type { JsonSchema, SchemaObject } from '../../load/spec.js';
import { isSchemaObject, mapSchema } from '../../load/spec-walk.js';
import { BINDING_NAMES, type ProtocolModel } from '../../model/protocol.js';
import { commentText } from '../../printer/escape.js';

export type DocsMode = 'full' | 'link' | 'none';

/**
 * The one document handed to json-schema-to-typescript: every definition under `$defs`, plus a
 * root object with one required property per definition. The root makes every definition
 * reachable, so the compiler declares each exactly once under its own name, and it becomes the
 * exported `ProtocolDefinitions` map (`ProtocolDefinitions['CallToolRequest']`).
 *
 * Only what shapes types goes in. Keywords that make the compiler write comments or pick names are
 * removed: `title`/`$id` (would name inline types), `minItems`/`maxItems` (typed as plain arrays,
 * like the spec's own schema.ts, and otherwise turned into comments), and descriptions unless the
 * docs are `full`, in which case they pass the printer's comment escaping first.
 */
export function compilerInput(model: ProtocolModel, docs: DocsMode): SchemaObject {
  const names = Object.keys(model.definitions);
  const prepare = (node: SchemaObject): SchemaObject =>
    refWithSiblingsAsAllOf(
      Object.fromEntries(
        Object.entries(node).flatMap(([key, value]): Array<[string, unknown]> => {
          if (NAMING_OR_COMMENTING.has(key)) return [];
          if (key === 'description') return docs === 'full' && typeof value === 'string' ? [[key, commentText(value)]] : [];
          if (key === 'deprecated' && docs === 'none') return [];
          return [[key, value]];
        }),
      ),
    );

  const defs = Object.fromEntries(
    names.map((name) => {
      const definition = model.definitions[name]!;
      const schema = pureRefAsAllOf(mapSchema(definition.schema, '', prepare));
      const see = `@see ${definition.docUrl}`;
      if (!isSchemaObject(schema) || docs === 'none') return [name, schema];
      const description = docs === 'full' && typeof schema['description'] === 'string' ? `${schema['description']}\n\n${see}` : see;
      return [name, { ...schema, description: commentText(description) }];
    }),
  );

  return {
    $defs: defs,
    type: 'object',
    properties: Object.fromEntries(names.map((name) => [name, { $ref: `#/$defs/${refSegment(name)}` }])),
    required: names,
    additionalProperties: false,
  };
}

export const ROOT_NAME = BINDING_NAMES.definitions;

/** Keywords that would make the compiler name an inline type or write a comment of its own. */
const NAMING_OR_COMMENTING = new Set(['title', '$id', 'id', '$schema', 'minItems', 'maxItems']);

/**
 * `{ $ref, description }` as `{ description, allOf: [{ $ref }] }`. The compiler would otherwise
 * copy the target, name the copy after it, and push the definition itself to `Name1`. For the
 * type the two are the same (2020-12 reads siblings of `$ref` as a conjunction; the MCP draft-07
 * schemas only put annotations there).
 */
function refWithSiblingsAsAllOf(node: SchemaObject): SchemaObject {
  if (typeof node['$ref'] !== 'string' || Object.keys(node).length === 1) return node;
  const { $ref, allOf, ...rest } = node;
  return { ...rest, allOf: [{ $ref }, ...(Array.isArray(allOf) ? allOf : [])] };
}

/**
 * A definition that is only a ref (`EmptyResult` → `Result`) is the very same object as its target
 * once refs are resolved, and the compiler would give both one name. As a one-member allOf it stays
 * a declaration of its own: `type EmptyResult = Result`.
 */
function pureRefAsAllOf(schema: JsonSchema): JsonSchema {
  return isSchemaObject(schema) && typeof schema['$ref'] === 'string' && Object.keys(schema).length === 1 ? { allOf: [schema] } : schema;
}

function refSegment(name: string): string {
  return encodeURIComponent(name.replace(/~/g, '~0').replace(/\//g, '~1'));
}
