import { isSchemaObject, refSegmentKey, type SchemaObject } from '../../schema/keywords.js';
import { mapSchema, type JsonSchema } from '../../schema/walk.js';
import { BINDING_NAMES, type ProtocolModel } from '../../model/protocol.js';

export type DocsMode = 'full' | 'link' | 'none';

export const ROOT_NAME = BINDING_NAMES.definitions;

/**
 * The one document handed to json-schema-to-typescript: every definition under `$defs`, keyed by
 * its identifier (so the compiler's own naming has nothing to change), plus a root object with one
 * required member per definition, keyed by wire name. The root makes every definition reachable,
 * so each is declared exactly once, and it becomes the exported `ProtocolDefinitions` map
 * (`ProtocolDefinitions['CallToolRequest']`).
 *
 * Descriptions stay only when the docs are `full`, `deprecated` unless they are `none`; the rest
 * of what the compiler must not see (names, raw code, prototype names, annotation-only nodes) is
 * compileTypes' business, the same for every emitter.
 */
export function compilerInput(model: ProtocolModel, docs: DocsMode): SchemaObject {
  const definitions = Object.values(model.definitions);
  const identifiers = new Map(definitions.map((d) => [d.name, d.identifier]));

  const prepare = (node: SchemaObject): SchemaObject =>
    Object.fromEntries(
      Object.entries(node).filter(([key]) => (key !== 'description' || docs === 'full') && (key !== 'deprecated' || docs !== 'none')),
    );
  const renameRefs = (node: SchemaObject): SchemaObject =>
    typeof node['$ref'] === 'string' ? { ...node, $ref: refToIdentifier(node['$ref'], identifiers) } : node;

  const defs = Object.fromEntries(
    definitions.map((definition) => {
      const schema = pureRefAsAllOf(mapSchema(definition.schema, '', (node) => prepare(renameRefs(node))));
      if (docs !== 'full' || !isSchemaObject(schema)) return [definition.identifier, schema];
      const see = `@see ${definition.docUrl}`;
      const text = typeof schema['description'] === 'string' ? `${schema['description']}\n\n${see}` : see;
      return [definition.identifier, { ...schema, description: text }];
    }),
  );

  return {
    ...(docs === 'full' ? { description: rootDescription(model.revision) } : {}),
    $defs: defs,
    type: 'object',
    properties: Object.fromEntries(definitions.map((d) => [d.name, { $ref: `#/$defs/${d.identifier}` }])),
    required: definitions.map((d) => d.name),
    additionalProperties: false,
  };
}

export function rootDescription(revision: string): string {
  return `Every definition of the ${revision} schema, by name.`;
}

/** `#/$defs/<wire name>/rest` → `#/$defs/<identifier>/rest` (the loader admits no other refs). */
function refToIdentifier(ref: string, identifiers: ReadonlyMap<string, string>): string {
  const match = /^#\/\$defs\/([^/]*)(\/.*)?$/.exec(ref);
  if (!match) return ref;
  const name = refSegmentKey(match[1]!);
  const identifier = name === undefined ? undefined : identifiers.get(name);
  return identifier === undefined ? ref : `#/$defs/${identifier}${match[2] ?? ''}`;
}

/**
 * A definition that is only a ref (`EmptyResult` → `Result`) is the very same object as its target
 * once refs are resolved, and the compiler would give both one name. As a one-member allOf it stays
 * a declaration of its own: `type EmptyResult = Result`.
 */
function pureRefAsAllOf(schema: JsonSchema): JsonSchema {
  return isSchemaObject(schema) && typeof schema['$ref'] === 'string' && Object.keys(schema).length === 1 ? { allOf: [schema] } : schema;
}
