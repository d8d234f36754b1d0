import { escapeInvisible } from '../../printer/escape.js';
import { pascalCase } from '../../printer/names.js';
import { defineOwn, isSchemaObject, pointerSegment, refSegmentKey, type SchemaObject } from '../../schema/keywords.js';
import { copySchema, type SchemaPosition } from '../../schema/walk.js';
import { typeBase } from '../shared/naming.js';
import { compileTypes, OWN_TS_TYPE } from './compile-types.js';

/**
 * One unit of a types file compiled through json-schema-to-typescript: a tool's input and output
 * types, or the shared definitions. Pure and self-contained (plain data in, code out), so a unit
 * compiles the same in-process or on a worker thread (type-units-worker.ts).
 */

/** json-schema-to-typescript reads the name of every type it declares from this keyword (ours only). */
const NAME_KEYWORD = 'x-mcp-gen-type-name';

/** What a tool unit is compiled from (plain data: it crosses to worker threads). */
export interface ToolSchemas {
  inputSchema: SchemaObject;
  outputSchema?: SchemaObject | undefined;
}

/** The names a tool unit declares. */
export interface UnitTypeNames {
  input: string;
  output?: string | undefined;
}

/** A definition the manifest's tools share, declared once under `name`. */
export interface SharedDefinition {
  name: string;
  schema: SchemaObject;
}

/** A tool's input and output types, unformatted (one unit of types.ts). */
export async function compileToolUnit(tool: ToolSchemas, n: UnitTypeNames, shared: ReadonlyMap<string, SharedDefinition>): Promise<string> {
  const parts = [await compileNamed(typeSchema(tool.inputSchema, n.input, shared), n.input)];
  if (tool.outputSchema && n.output) parts.push(await compileNamed(typeSchema(tool.outputSchema, n.output, shared), n.output));
  return parts.join('\n');
}

/** The shared definitions' types, unformatted (the unit before the tools'). */
export async function compileShared(shared: ReadonlyMap<string, SharedDefinition>): Promise<string> {
  const parts: string[] = [];
  for (const definition of shared.values()) {
    // A shared definition refers only to shared definitions (tool-types.ts): to their types.
    const schema = copySchema(definition.schema, (node) => sharedReference(stripForTypes(node), shared)) as SchemaObject;
    schema[NAME_KEYWORD] = definition.name;
    parts.push(await compileNamed(schema, definition.name));
  }
  return parts.join('\n');
}

/** One schema compiled as the root type `name` (a root is always declared, even when it is `unknown`). */
async function compileNamed(schema: SchemaObject, name: string): Promise<string> {
  const code = await compileTypes(schema, name, {
    strictIndexSignatures: false,
    keepKeywords: [NAME_KEYWORD],
    customName: (node) => {
      const given = (node as SchemaObject)[NAME_KEYWORD];
      return typeof given === 'string' ? given : undefined;
    },
  });
  // String literal types come out of JSON.stringify, which leaves U+2028/U+2029 raw.
  const escaped = escapeInvisible(code);
  if (declares(code, name)) return escaped;
  // A root it types as `unknown` (say `allOf: [true]`) it prints inline and declares under no name
  // (test/fuzz/regressions.test.ts): the name still has to exist for Tools and the handlers.
  return `export type ${name} = unknown;\n${escaped}`;
}

/** Whether `code` has a line `export interface <name>` or `export type <name>` (the name ending there). */
function declares(code: string, name: string): boolean {
  for (const head of [`export interface ${name}`, `export type ${name}`]) {
    for (let at = code.indexOf(head); at >= 0; at = code.indexOf(head, at + 1)) {
      const next = code.charAt(at + head.length);
      if ((at === 0 || code[at - 1] === '\n') && !/[\w$]/.test(next)) return true;
    }
  }
  return false;
}

/** Removes our naming keyword from input: every declared name comes from us, so none can clash with or shadow another. */
function stripForTypes(node: SchemaObject): SchemaObject {
  delete node[NAME_KEYWORD];
  return node;
}

/**
 * A copy for type generation, compiled as its own root: stripped (see stripForTypes), each
 * `$defs` entry named `<name>_<Key>`, and references to shared definitions replaced by the shared
 * type's name (declared by the shared unit), as a conjunction when the `$ref` has siblings.
 */
function typeSchema(schema: SchemaObject, name: string, shared: ReadonlyMap<string, SharedDefinition>): SchemaObject {
  const remaining: string[] = [];
  const visit = (node: SchemaObject, position: SchemaPosition): SchemaObject => {
    stripForTypes(node);
    if (position.isDefinition) {
      node[NAME_KEYWORD] = [name, ...position.definitions.map((key) => typeBase(pascalCase(key)))].join('_');
    }
    const out = sharedReference(node, shared);
    if (typeof out['$ref'] === 'string') remaining.push(out['$ref']);
    return out;
  };
  // The copies of shared definitions are made last, and only those still referred to: the rest are
  // never declared (unreachable), yet the compiler would walk each of them in every tool. Their own
  // references are all to shared definitions (tool-types.ts), so none of them adds to `remaining`.
  const withoutShared: SchemaObject = {};
  for (const [key, value] of Object.entries(schema)) defineOwn(withoutShared, key, isDefinitionMap(key, value) ? ownDefinitions(value, shared) : value);
  const named = copySchema(withoutShared, visit) as SchemaObject;
  for (const keyword of DEFINITION_KEYWORDS) {
    const definitions = schema[keyword];
    if (!isDefinitionMap(keyword, definitions) || !Object.keys(definitions).some((key) => shared.has(key))) continue;
    const copied = named[keyword] as SchemaObject;
    const inOrder: SchemaObject = {};
    for (const [key, definition] of Object.entries(definitions)) {
      if (!shared.has(key)) {
        defineOwn(inOrder, key, copied[key]);
        continue;
      }
      // Kept when any remaining reference might point into it (a doubt keeps it).
      const spellings = [key, key.replace(/~/g, '~0').replace(/\//g, '~1'), encodeURIComponent(key)];
      if (!remaining.some((ref) => spellings.some((spelling) => ref.includes(spelling)))) continue;
      const position: SchemaPosition = { pointer: `/${keyword}/${pointerSegment(key)}`, definitions: [key], isDefinition: true };
      defineOwn(inOrder, key, copySchema(definition, visit, position));
    }
    named[keyword] = inOrder;
  }
  // A root `$id` would start a new resource; `$schema` is the validators' business.
  delete named['$id'];
  delete named['$schema'];
  named[NAME_KEYWORD] = name;
  return named;
}

const DEFINITION_KEYWORDS = ['$defs', 'definitions'] as const;

function isDefinitionMap(key: string, value: unknown): value is SchemaObject {
  return (key === '$defs' || key === 'definitions') && isSchemaObject(value);
}

/** A definitions map without the shared definitions. */
function ownDefinitions(definitions: SchemaObject, shared: ReadonlyMap<string, SharedDefinition>): SchemaObject {
  const own: SchemaObject = {};
  for (const [key, definition] of Object.entries(definitions)) if (!shared.has(key)) defineOwn(own, key, definition);
  return own;
}

const OWN_DEFINITION = /^#\/(?:\$defs|definitions)\/([^/]+)$/;

/** `node` with a `$ref` to a shared definition replaced by the shared type's name (a conjunction when the `$ref` has siblings). */
function sharedReference(node: SchemaObject, shared: ReadonlyMap<string, SharedDefinition>): SchemaObject {
  const ref = node['$ref'];
  const match = typeof ref === 'string' ? OWN_DEFINITION.exec(ref) : null;
  const key = match ? refSegmentKey(match[1] as string) : undefined;
  const definition = key === undefined ? undefined : shared.get(key);
  if (definition === undefined) return node;
  const { $ref: _replaced, allOf, ...rest } = node;
  const type = { [OWN_TS_TYPE]: definition.name };
  if (Object.keys(rest).length === 0 && allOf === undefined) return type as SchemaObject;
  const out: SchemaObject = {};
  for (const [k, v] of Object.entries(rest)) defineOwn(out, k, v);
  out['allOf'] = [type, ...(Array.isArray(allOf) ? allOf : [])];
  return out;
}
