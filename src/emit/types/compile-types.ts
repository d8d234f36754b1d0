import type { Options } from 'json-schema-to-typescript';
import { defineOwn, isSchemaObject, isSubschema, subschemaSlot, type SchemaObject } from '../../schema/keywords.js';
import { commentText } from '../../printer/escape.js';
import { scanDeclarations } from './scan.js';
import { typeCompiler } from './type-compiler.js';

/**
 * A TypeScript type our callers set on a node they made themselves (never on input): a symbol key
 * cannot come from JSON or YAML, so no schema can smuggle raw TypeScript through it.
 */
export const OWN_TS_TYPE: unique symbol = Symbol('mcp-gen tsType');

export interface CompileTypesOptions extends Partial<Options> {
  /** Keywords of the caller's own to keep (e.g. the one that names types); everything unknown goes. */
  keepKeywords?: readonly string[];
}

/**
 * json-schema-to-typescript as every emitter of ours calls it: no banner, no formatting (the
 * writer runs prettier), open object types and `unknown` for untyped values, and no `$ref` ever
 * followed to a file or URL (schemas reach us bundled and local). Callers hand it one root that
 * reaches every definition, so its pass over unreachable ones would only add prose. Each caller
 * adds how it names types and how strict index signatures are.
 *
 * The schema first goes through `compilerSafe` (see there), and the names it had to hide are put
 * back into the printed code as string-literal member names.
 */
export async function compileTypes(schema: SchemaObject, rootName: string, options: CompileTypesOptions): Promise<string> {
  const { keepKeywords = [], ...compilerOptions } = options;
  const safe = compilerSafe(schema, new Set(keepKeywords));
  // Loaded on first use: a run whose types all come from the unit cache never loads it.
  const { compile } = typeCompiler();
  const code = await compile(safe.schema as Parameters<typeof compile>[0], rootName, {
    bannerComment: '',
    format: false,
    additionalProperties: true,
    unknownAny: true,
    declareExternallyReferenced: true,
    unreachableDefinitions: false,
    $refOptions: { resolve: { external: false } },
    ...compilerOptions,
  });
  return scanDeclarations(code, { dropComments: false, placeholders: safe.placeholders }).text;
}

interface SafeSchema {
  schema: SchemaObject;
  /** Placeholder word → the member name it stands for. */
  placeholders: Map<string, string>;
}

/** What json-schema-to-typescript reads to shape a type; every other keyword is dropped. */
const TYPE_KEYWORDS = new Set([
  'type', 'properties', 'patternProperties', 'additionalProperties', 'required', 'items', 'additionalItems',
  'prefixItems', 'minItems', 'maxItems', 'enum', 'const', 'allOf', 'anyOf', 'oneOf', '$ref', '$defs',
  'definitions', 'description', 'deprecated',
]);

/** Keywords that make a node more than "any value" for the compiler. */
const SHAPING = ['type', 'properties', 'patternProperties', 'additionalProperties', 'items', 'enum', 'const', 'allOf', 'anyOf', 'oneOf', '$ref'];
const OBJECT_KEYWORDS = ['properties', 'patternProperties', 'additionalProperties', 'required'];
const ARRAY_KEYWORDS = ['items', 'additionalItems', 'minItems', 'maxItems'];
/** Past this, a bounded array is typed as a plain array: a tuple of thousands of members helps nobody. */
const MAX_TUPLE_BOUND = 20;

/**
 * Names the compiler (or lodash under it) would look up on its own objects: a property, `$defs`
 * entry or pattern named `hasOwnProperty` makes it call the schema instead of the method, and
 * `__proto__` is lost on copy. They go in as placeholders.
 */
const PROTOTYPE_NAMES = new Set([...Object.getOwnPropertyNames(Object.prototype), '__proto__']);

/**
 * The schema as json-schema-to-typescript can take it without crashing, running input as code, or
 * typing values the validators accept as errors:
 * - only the keywords it shapes types from stay (unknown keywords could be named `hasOwnProperty`;
 *   `tsType`, `tsEnumNames`, `extends`, `title`, `$id` are raw code or names); descriptions pass
 *   the comment sink; `default` goes, since the compiler guesses a type from it;
 * - member and definition names that are Object.prototype names become placeholders (refs too);
 * - a node with no shaping keyword (only a description, say) becomes `unknown` — the compiler
 *   would type it as an object, which made types depend on whether descriptions were kept;
 * - object or array keywords without `type` only constrain objects or arrays, so such a node also
 *   admits every other JSON type;
 * - `prefixItems` (2020-12) becomes the draft-07 tuple the compiler knows, a tuple without
 *   `additionalItems` stays open, `const`/`enum` with non-primitive values go (the type widens).
 */
function compilerSafe(schema: SchemaObject, keep: ReadonlySet<string>): SafeSchema {
  // The schema's text, to pick placeholders it does not hold: made only for a schema that needs one (few do).
  let text: string | undefined;
  const placeholders = new Map<string, string>();
  const byName = new Map<string, string>();
  let next = 0;
  const hide = (name: string): string => {
    if (!PROTOTYPE_NAMES.has(name)) return name;
    let placeholder = byName.get(name);
    if (placeholder === undefined) {
      text ??= JSON.stringify(schema);
      while (text.includes(`mcpgen_key_${next}`)) next++;
      placeholder = `mcpgen_key_${next++}`;
      byName.set(name, placeholder);
      placeholders.set(placeholder, name);
    }
    return placeholder;
  };

  const prepare = (node: SchemaObject): SchemaObject => {
    let out: SchemaObject = {};
    for (const [key, value] of Object.entries(node)) {
      if (!TYPE_KEYWORDS.has(key) && !keep.has(key)) continue;
      if (key === 'description') {
        if (typeof value === 'string') out[key] = commentText(value);
      } else if ((key === 'properties' || key === '$defs' || key === 'definitions') && isSchemaObject(value)) {
        const required = key === 'properties' && Array.isArray(node['required']) ? node['required'] : [];
        const renamed: SchemaObject = {};
        for (const [name, sub] of Object.entries(value)) {
          const inherited = key === 'properties' && TS_OBJECT_MEMBERS.has(name) && !required.includes(name);
          defineOwn(renamed, hide(name), inherited ? orInherited(name, sub) : sub);
        }
        out[key] = renamed;
      } else if (key === 'patternProperties' && isSchemaObject(value)) {
        // The pattern is only printed in a comment; it still must not be a prototype name.
        const renamed: SchemaObject = {};
        for (const [pattern, sub] of Object.entries(value)) {
          let name = hide(commentText(pattern));
          for (let n = 2; Object.hasOwn(renamed, name); n++) name = `${hide(commentText(pattern))} #${n}`;
          defineOwn(renamed, name, sub);
        }
        out[key] = renamed;
      } else if (key === 'required' && Array.isArray(value)) {
        out[key] = value.filter((v): v is string => typeof v === 'string').map(hide);
      } else if (key === '$ref' && typeof value === 'string') {
        out[key] = value.replace(/\/([^/]*)/g, (_whole, segment: string) => `/${encodePlaceholder(segment, hide)}`);
      } else if (key === 'enum') {
        if (Array.isArray(value) && value.every(isPrimitive)) out[key] = value;
      } else if (key === 'const') {
        if (isPrimitive(value)) out[key] = value;
      } else if ((key === 'minItems' || key === 'maxItems') && (typeof value !== 'number' || value > MAX_TUPLE_BOUND)) {
        continue;
      } else {
        out[key] = value;
      }
    }
    // The compiler throws on bounds no array meets (minItems > maxItems); the type only widens without them.
    if (typeof out['minItems'] === 'number' && typeof out['maxItems'] === 'number' && out['minItems'] > out['maxItems']) {
      delete out['minItems'];
      delete out['maxItems'];
    }
    const ownTsType = (node as { [OWN_TS_TYPE]?: string })[OWN_TS_TYPE];
    if (ownTsType !== undefined) return { ...out, tsType: ownTsType };
    out = tupleForCompiler(out);
    out = refSiblingsAsAllOf(out);
    out = untypedAsAnyType(out);
    if (!SHAPING.some((k) => Object.hasOwn(out, k))) out['tsType'] = 'unknown';
    return out;
  };
  return { schema: mapEverySchema(schema, prepare) as SchemaObject, placeholders };
}

/**
 * Rebuilds a schema top-down: `visit` rewrites each schema object before its subschemas (including
 * those it made) are visited. No depth limit of its own: the loaders bound their input.
 */
function mapEverySchema(schema: unknown, visit: (node: SchemaObject) => SchemaObject): unknown {
  if (!isSchemaObject(schema)) return schema;
  const node = visit(schema);
  const sub = (value: unknown): unknown => (isSubschema(value) ? mapEverySchema(value, visit) : value);
  const out: SchemaObject = {};
  for (const [key, value] of Object.entries(node)) {
    switch (subschemaSlot(key, value)) {
      case 'list':
        defineOwn(out, key, (value as unknown[]).map(sub));
        break;
      case 'one':
        defineOwn(out, key, sub(value));
        break;
      case 'map': {
        const entries: SchemaObject = {};
        for (const [name, s] of Object.entries(value as SchemaObject)) defineOwn(entries, name, sub(s));
        defineOwn(out, key, entries);
        break;
      }
      default:
        defineOwn(out, key, value);
    }
  }
  return out;
}

/**
 * Members TypeScript's `Object` interface declares. An object literal without such a member still
 * has it, inherited, in TypeScript's eyes: `{}` is not a `{ toString?: string }`. An optional
 * property of that name is therefore typed to admit the inherited member too (which is also what
 * reading it gives when it is absent), or values the validators accept would not type-check.
 */
const TS_OBJECT_MEMBERS = new Set(['constructor', 'toString', 'toLocaleString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf', 'propertyIsEnumerable']);

function orInherited(name: string, sub: unknown): SchemaObject {
  const description = isSchemaObject(sub) && typeof sub['description'] === 'string' ? { description: sub['description'] } : {};
  return { ...description, anyOf: [sub, { [OWN_TS_TYPE]: `Object[${JSON.stringify(name)}]` }] };
}

function isPrimitive(value: unknown): boolean {
  return value === null || typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
}

/** One `$ref` segment: decoded, hidden if it names a prototype member, encoded again. */
function encodePlaceholder(segment: string, hide: (name: string) => string): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(segment).replace(/~1/g, '/').replace(/~0/g, '~');
  } catch {
    return segment;
  }
  const hidden = hide(decoded);
  return hidden === decoded ? segment : hidden;
}

/**
 * `prefixItems` + `items` (2020-12) as draft-07 `items` (tuple) + `additionalItems`, and a tuple
 * with no word on further items left open, as JSON Schema reads it.
 */
function tupleForCompiler(node: SchemaObject): SchemaObject {
  if (Array.isArray(node['prefixItems'])) {
    const { prefixItems, items, additionalItems: _ignored, ...rest } = node;
    return { ...rest, items: prefixItems, additionalItems: items === undefined ? {} : items };
  }
  if (Array.isArray(node['items']) && node['additionalItems'] === undefined) return { ...node, additionalItems: {} };
  return node;
}

/**
 * `{ $ref, …siblings }` as `{ …siblings, allOf: [{ $ref }] }`. The compiler would otherwise copy the
 * target, name the copy after it, and push the definition itself to `Name1`. For the type the two
 * are the same (2020-12 reads siblings of `$ref` as a conjunction; draft-07 schemas like MCP's only
 * put annotations there).
 */
function refSiblingsAsAllOf(node: SchemaObject): SchemaObject {
  if (typeof node['$ref'] !== 'string' || Object.keys(node).length === 1) return node;
  const { $ref, allOf, ...rest } = node;
  return { ...rest, allOf: [{ $ref }, ...(Array.isArray(allOf) ? allOf : [])] };
}

/**
 * Object and array keywords without `type` constrain only objects and arrays; every other JSON
 * value passes them. The compiler would type such a node as an object or array alone.
 */
function untypedAsAnyType(node: SchemaObject): SchemaObject {
  if (node['type'] !== undefined) return node;
  const objectKeys = OBJECT_KEYWORDS.filter((k) => Object.hasOwn(node, k));
  const arrayKeys = ARRAY_KEYWORDS.filter((k) => Object.hasOwn(node, k));
  if (objectKeys.length === 0 && arrayKeys.length === 0) return node;
  const rest: SchemaObject = {};
  const objectPart: SchemaObject = { type: 'object' };
  const arrayPart: SchemaObject = { type: 'array' };
  for (const [key, value] of Object.entries(node)) {
    if (objectKeys.includes(key)) defineOwn(objectPart, key, value);
    else if (arrayKeys.includes(key)) defineOwn(arrayPart, key, value);
    else defineOwn(rest, key, value);
  }
  const others = ['string', 'number', 'boolean', 'null', ...(objectKeys.length === 0 ? ['object'] : []), ...(arrayKeys.length === 0 ? ['array'] : [])];
  const anyType: SchemaObject = {
    anyOf: [...(objectKeys.length > 0 ? [objectPart] : []), ...(arrayKeys.length > 0 ? [arrayPart] : []), { type: others }],
  };
  const allOf = Array.isArray(rest['allOf']) ? rest['allOf'] : [];
  // Only the description left: the anyOf itself is the node, so it keeps its comment.
  if (Object.keys(rest).every((k) => k === 'description' || k === 'deprecated')) return { ...rest, ...anyType };
  return { ...rest, allOf: [...allOf, anyType] };
}
