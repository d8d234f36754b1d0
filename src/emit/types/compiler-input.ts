import type { JsonSchema, SchemaObject } from '../../load/spec.js';
import { isSchemaObject, refSegmentKey } from '../../load/schema-keywords.js';
import { mapSchema } from '../../load/spec-walk.js';
import { BINDING_NAMES, type ProtocolModel } from '../../model/protocol.js';
import { commentText } from '../../printer/escape.js';

export type DocsMode = 'full' | 'link' | 'none';

export const ROOT_NAME = BINDING_NAMES.definitions;

export interface CompilerInput {
  schema: SchemaObject;
  /**
   * The compiler silently drops members named `__proto__` (it copies schemas with plain
   * assignment), so they go in under this placeholder, which appears nowhere in the input, and the
   * printed placeholder is turned back into `"__proto__"` afterwards.
   */
  protoPlaceholder: string;
}

/**
 * The one document handed to json-schema-to-typescript: every definition under `$defs`, keyed by
 * its identifier (so the compiler's own naming has nothing to change), plus a root object with one
 * required member per definition, keyed by wire name. The root makes every definition reachable,
 * so each is declared exactly once, and it becomes the exported `ProtocolDefinitions` map
 * (`ProtocolDefinitions['CallToolRequest']`).
 *
 * Only what shapes types goes in. Keywords that make the compiler write comments or pick names are
 * removed: `title`/`$id` (would name inline types), `minItems`/`maxItems` (typed as plain arrays,
 * like the spec's own schema.ts, and otherwise turned into comments), and descriptions unless the
 * docs are `full`, in which case they pass the printer's comment escaping first.
 */
export function compilerInput(model: ProtocolModel, docs: DocsMode): CompilerInput {
  const definitions = Object.values(model.definitions);
  const identifiers = new Map(definitions.map((d) => [d.name, d.identifier]));
  const protoPlaceholder = unusedName(JSON.stringify(definitions.map((d) => d.schema)));
  const member = (name: string): string => (name === '__proto__' ? protoPlaceholder : name);

  const prepare = (node: SchemaObject): SchemaObject =>
    refWithSiblingsAsAllOf(
      Object.fromEntries(
        Object.entries(node).flatMap(([key, value]): Array<[string, unknown]> => {
          if (NAMING_OR_COMMENTING.has(key)) return [];
          if (key === 'description') return docs === 'full' && typeof value === 'string' ? [[key, commentText(value)]] : [];
          if (key === 'deprecated' && docs === 'none') return [];
          if (key === 'properties' && isSchemaObject(value)) return [[key, Object.fromEntries(Object.entries(value).map(([k, v]) => [member(k), v]))]];
          if (key === 'required' && Array.isArray(value)) return [[key, value.map((k) => (typeof k === 'string' ? member(k) : k))]];
          return [[key, value]];
        }),
      ),
    );

  // Refs first, in a pass of their own: `prepare` moves refs into new allOf nodes, which the walk
  // then visits again.
  const renameRefs = (node: SchemaObject): SchemaObject =>
    typeof node['$ref'] === 'string' ? { ...node, $ref: refToIdentifier(node['$ref'], identifiers) } : node;

  const defs = Object.fromEntries(
    definitions.map((definition) => {
      const schema = pureRefAsAllOf(mapSchema(mapSchema(definition.schema, '', renameRefs), '', prepare));
      if (docs !== 'full' || !isSchemaObject(schema)) return [definition.identifier, schema];
      const see = `@see ${definition.docUrl}`;
      const text = typeof schema['description'] === 'string' ? `${schema['description']}\n\n${see}` : see;
      return [definition.identifier, { ...schema, description: commentText(text) }];
    }),
  );

  return {
    schema: {
      ...(docs === 'full' ? { description: rootDescription(model.revision) } : {}),
      $defs: defs,
      type: 'object',
      properties: Object.fromEntries(definitions.map((d) => [member(d.name), { $ref: `#/$defs/${d.identifier}` }])),
      required: definitions.map((d) => member(d.name)),
      additionalProperties: false,
    },
    protoPlaceholder,
  };
}

export function rootDescription(revision: string): string {
  return commentText(`Every definition of the ${revision} schema, by name.`);
}

/** Keywords that would make the compiler name an inline type or write a comment of its own. */
const NAMING_OR_COMMENTING = new Set(['title', '$id', 'id', '$schema', 'minItems', 'maxItems']);

/** `#/$defs/<wire name>/rest` → `#/$defs/<identifier>/rest` (the loader admits no other refs). */
function refToIdentifier(ref: string, identifiers: ReadonlyMap<string, string>): string {
  const match = /^#\/\$defs\/([^/]*)(\/.*)?$/.exec(ref);
  if (!match) return ref;
  const name = refSegmentKey(match[1]!);
  const identifier = name === undefined ? undefined : identifiers.get(name);
  return identifier === undefined ? ref : `#/$defs/${identifier}${match[2] ?? ''}`;
}

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

function unusedName(text: string): string {
  let n = 0;
  while (text.includes(`mcpgen_proto_${n}`)) n++;
  return `mcpgen_proto_${n}`;
}
