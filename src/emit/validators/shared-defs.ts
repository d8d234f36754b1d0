import { _, Name, type Code, type KeywordCxt, type KeywordDefinition } from 'ajv';
import { strConcat } from 'ajv/dist/compile/codegen/index.js';
import namesModule from 'ajv/dist/compile/names.js';
import { stringLiteral } from '../../printer/escape.js';
import { ANNOTATION_KEYWORDS, defineOwn, isSchemaObject, type SchemaObject } from '../../schema/keywords.js';
import { isMetaChecked } from '../../schema/meta-checked.js';
import { RESERVED_KEYWORD_PREFIX } from '../../schema/reserved-keywords.js';
import { forEachSchemaNode, mapSubschemas } from '../../schema/walk.js';
import { planInlineEntries } from './shared-inline.js';
import { matchRootsToDefinitions } from './shared-roots.js';

/**
 * Definitions shared by the tools' validators. A manifest imported from OpenAPI gives each tool
 * its own copy of every `$defs` entry it reaches (GitHub: 3,585 copies of 499 definitions), and
 * compiled one tool at a time each copy became its own validator code: tens of MB, most of the
 * time of a run. A definition that two or more tools hold with the same text (and whose every
 * reference reaches only such definitions) is compiled once, into a table `$shared` keyed by its
 * name; in each tool it becomes a stub `{ "x-mcp-gen-shared": name }` that calls the table.
 *
 * Only where it cannot change a verdict: every `$ref` is a local pointer into the tool's own
 * definitions, nothing sets a base URI or anchor, and no `unevaluated*` keyword needs what a call
 * evaluated (the stub does not pass that back). Anything else is compiled per tool as before.
 */

// ajv's names module is CommonJS (`exports.default = names`): under Node's ESM its default import
// is the exports object, under a bundler the names themselves.
const names = ((namesModule as unknown as { default?: unknown }).default ?? namesModule) as typeof namesModule.default;

/** Reserved (schema/reserved-keywords.ts): the manifest and snapshot loaders refuse it in any schema they are given. */
export const SHARED_KEYWORD = `${RESERVED_KEYWORD_PREFIX}shared`;
/** The identifier of the table in generated code. */
export const SHARED_TABLE = '$shared';

/** ajv's code for the stub: call the shared validator with this position, take its errors on failure (as ajv's own `$ref`). */
export const sharedKeyword: KeywordDefinition = {
  keyword: SHARED_KEYWORD,
  schemaType: 'string',
  code(cxt: KeywordCxt) {
    const { gen, it, data } = cxt;
    const fn = _`${new Name(SHARED_TABLE)}[${cxt.schema as string}]`;
    const members: [Name, Code | number][] = [
      [names.instancePath, strConcat(names.instancePath, it.errorPath)],
      [names.parentData, it.parentData],
      [names.parentDataProperty, it.parentDataProperty],
      [names.rootData, names.rootData],
    ];
    if (it.opts.dynamicRef) members.push([names.dynamicAnchors, names.dynamicAnchors]);
    const context = gen.object(...(members as [Name, Code][]));
    cxt.result(_`${fn}(${data}, ${context})`, undefined, () => {
      gen.assign(names.vErrors, _`${names.vErrors} === null ? ${fn}.errors : ${names.vErrors}.concat(${fn}.errors)`);
      gen.assign(names.errors, _`${names.vErrors}.length`);
    });
  },
};

const LOCAL_DEF_REF = /^#\/(\$defs|definitions)\/([^/]+)(\/.*)?$/;
/** Keywords whose meaning a call to a separately compiled validator would lose. */
const UNSHAREABLE_KEYWORDS = ['$id', '$anchor', '$dynamicAnchor', '$dynamicRef', '$recursiveAnchor', '$recursiveRef', 'unevaluatedProperties', 'unevaluatedItems'];

/** Schema text (JSON characters) that the copies of a definition beyond its first must add up to for it to be shared. */
export const SHARED_TEXT_THRESHOLD = 2000;
/** The same for inline subschemas, counted without annotations (what ajv compiles): denser text, a lower bar. */
export const INLINE_TEXT_THRESHOLD = 1000;

export interface SharedDefinitions {
  /** Definitions keyword of the dialect. */
  keyword: '$defs' | 'definitions';
  /** Shared definitions by name, and shared inline subschemas by key (shared-inline.ts), sorted by key. */
  defs: Record<string, unknown>;
  /** Per tool schema (by identity): its inline subschemas that become stubs, with their keys. */
  inline?: ReadonlyMap<SchemaObject, ReadonlyMap<SchemaObject, string>>;
  /** Tool schemas (by identity) whose whole root is a stub, with the key it calls (shared-roots.ts). */
  roots?: ReadonlyMap<SchemaObject, string>;
  /** Every schema they were taken from was found valid against the meta-schema (schema/meta-checked.ts): so are they, being parts of them. */
  metaChecked?: boolean;
}

function decodeToken(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/**
 * Which definitions of `schemas` (each tool's input and output schema) are shared; undefined when
 * none is (a small manifest's validators stay exactly as they were).
 */
export function planSharedDefinitions(
  schemas: readonly SchemaObject[],
  keyword: '$defs' | 'definitions',
  threshold = SHARED_TEXT_THRESHOLD,
  inlineThreshold = INLINE_TEXT_THRESHOLD,
): SharedDefinitions | undefined {
  const texts = new Map<string, { text: string; value: unknown; uses: number } | null>();
  const refsOf = new Map<string, Set<string>>();
  const pointedInto = new Set<string>();
  let shareable = true;
  for (const schema of schemas) {
    let ok = true;
    forEachSchemaNode(schema, (node) => {
      // The loaders refuse it (reserved-keywords.ts); a schema that got past them would have its stub obeyed.
      if (Object.prototype.hasOwnProperty.call(node, SHARED_KEYWORD)) throw new Error(`planSharedDefinitions: a tool schema holds the reserved keyword ${SHARED_KEYWORD}`);
      if (UNSHAREABLE_KEYWORDS.some((k) => Object.prototype.hasOwnProperty.call(node, k))) ok = false;
      const ref = node['$ref'];
      const m = typeof ref === 'string' ? LOCAL_DEF_REF.exec(ref) : null;
      if (ref !== undefined && m?.[1] !== keyword) ok = false;
      // A pointer into a definition's inside would point into its stub: that one stays with each tool.
      else if (m?.[3] !== undefined) pointedInto.add(decodeToken(m[2] as string));
    });
    // Every schema is still walked: the reserved keyword must be found wherever it is.
    if (!ok) shareable = false;
    const defs = schema[keyword];
    if (!shareable) continue;
    if (!isSchemaObject(defs)) continue;
    for (const [name, value] of Object.entries(defs)) {
      const text = JSON.stringify(value);
      const seen = texts.get(name);
      if (seen === undefined) texts.set(name, { text, value, uses: 1 });
      else if (seen !== null && seen.text === text) seen.uses += 1;
      else texts.set(name, null);
      if (!refsOf.has(name)) {
        const refs = new Set<string>();
        forEachSchemaNode(value, (node) => {
          const m = typeof node['$ref'] === 'string' ? LOCAL_DEF_REF.exec(node['$ref']) : null;
          if (m) refs.add(decodeToken(m[2] as string));
        });
        refsOf.set(name, refs);
      }
    }
  }
  if (!shareable) return undefined;
  // Shareable: the same text everywhere, held twice or more, and all it reaches shareable too.
  const candidates = closedUnder(new Set([...texts].filter(([name, t]) => t !== null && t.uses > 1 && !pointedInto.has(name)).map(([name]) => name)), refsOf);
  // A tool's root that is one of the definitions (its text the same everywhere, held once or more) is a use of it too.
  const rootable = closedUnder(new Set([...texts].filter(([name, t]) => t !== null && !pointedInto.has(name)).map(([name]) => name)), refsOf);
  const definitions = new Map([...rootable].sort().map((name) => [name, texts.get(name)?.value]));
  const rootMatches = matchRootsToDefinitions(schemas, keyword, definitions);
  const rootUses = new Map<string, number>();
  for (const name of rootMatches.values()) rootUses.set(name, (rootUses.get(name) ?? 0) + 1);
  // Shared: those whose copies add up to enough schema text to pay for a call and a module, and
  // what they reach. A few small enums held by a handful of tools stay inline.
  const shared = new Set<string>();
  const add = (name: string): void => {
    if (shared.has(name)) return;
    shared.add(name);
    refsOf.get(name)?.forEach(add);
  };
  for (const name of new Set([...candidates, ...rootUses.keys()])) {
    const t = texts.get(name) as { text: string; uses: number };
    if ((t.uses - 1 + (rootUses.get(name) ?? 0)) * t.text.length >= threshold) add(name);
  }
  const roots = new Map([...rootMatches].filter(([, name]) => shared.has(name)));
  // Then inline subschemas alike by content, outside the definitions shared by name (shared-inline.ts).
  const inline = planInlineEntries(schemas, keyword, shared, candidates, pointedInto, new Set(texts.keys()), inlineThreshold, roots);
  for (const [schema, key] of inline.roots) roots.set(schema, key);
  // An entry's `$ref`s reach definitions that can be shared: they are, so the refs resolve in the table.
  for (const entry of inline.entries.values()) {
    forEachSchemaNode(entry, (node) => {
      const m = typeof node['$ref'] === 'string' ? LOCAL_DEF_REF.exec(node['$ref']) : null;
      if (m) add(decodeToken(m[2] as string));
    });
  }
  if (shared.size === 0 && inline.entries.size === 0) return undefined;
  const values = new Map<string, unknown>([...shared].map((name) => [name, texts.get(name)?.value]));
  for (const [key, value] of inline.entries) values.set(key, value);
  const defs: Record<string, unknown> = {};
  for (const name of [...values.keys()].sort()) defineOwn(defs, name, values.get(name));
  return { keyword, defs, inline: inline.stubs, ...(roots.size > 0 ? { roots } : {}), ...(schemas.every(isMetaChecked) ? { metaChecked: true } : {}) };
}

/** `names` without those that reach (by `refsOf`) a name outside them, until none does. */
function closedUnder(names: Set<string>, refsOf: ReadonlyMap<string, ReadonlySet<string>>): Set<string> {
  for (let changed = true; changed; ) {
    changed = false;
    for (const name of names) {
      if ([...(refsOf.get(name) ?? [])].some((r) => !names.has(r))) {
        names.delete(name);
        changed = true;
      }
    }
  }
  return names;
}

/** `schema` with each shared definition and shared inline subschema replaced by its stub (a copy; `schema` is unchanged). */
export function withSharedStubs(schema: SchemaObject, shared: SharedDefinitions | undefined): SchemaObject {
  if (shared === undefined) return schema;
  // A root that is shared whole: nothing of the tool's is compiled, its definitions included.
  const root = shared.roots?.get(schema);
  if (root !== undefined) return { [SHARED_KEYWORD]: root };
  const copy = mapSubschemas(schema, (value) => withInlineStubs(value, shared.inline?.get(schema) ?? new Map(), shared));
  const defs = copy[shared.keyword];
  if (!isSchemaObject(defs)) return copy;
  const stubbed: SchemaObject = {};
  for (const [name, value] of Object.entries(defs)) defineOwn(stubbed, name, Object.prototype.hasOwnProperty.call(shared.defs, name) ? { [SHARED_KEYWORD]: name } : value);
  return { ...copy, [shared.keyword]: stubbed };
}

function withInlineStubs(node: unknown, stubs: ReadonlyMap<SchemaObject, string>, shared: SharedDefinitions): unknown {
  if (!isSchemaObject(node)) return node;
  const key = stubs.get(node);
  if (key !== undefined) return { [SHARED_KEYWORD]: key };
  // A `$ref` to a shared definition calls the table where it stands: through the definition's stub
  // it would be a function of the tool's own that only calls the table (GitHub: a thousand of them).
  const name = sharedRefName(node, shared);
  if (name !== undefined) return Object.fromEntries(Object.entries(node).map(([k, v]) => (k === '$ref' ? [SHARED_KEYWORD, name] : [k, v])));
  return mapSubschemas(node, (value) => withInlineStubs(value, stubs, shared));
}

/** The shared definition a `$ref` with nothing but annotations beside it names (beside other keywords it stays: draft-07 ignores them). */
function sharedRefName(node: SchemaObject, shared: SharedDefinitions): string | undefined {
  const m = typeof node['$ref'] === 'string' ? LOCAL_DEF_REF.exec(node['$ref']) : null;
  if (m === null || m[1] !== shared.keyword || m[3] !== undefined) return undefined;
  if (!Object.keys(node).every((k) => k === '$ref' || ANNOTATION_KEYWORDS.has(k))) return undefined;
  const name = decodeToken(m[2] as string);
  return Object.prototype.hasOwnProperty.call(shared.defs, name) ? name : undefined;
}

/** The entries of the `$shared` table `schema`'s stubs call, sorted (what its validators' code depends on besides the schema). */
export function sharedStubKeys(schema: SchemaObject, shared: SharedDefinitions | undefined): string[] {
  if (shared === undefined) return [];
  const root = shared.roots?.get(schema);
  if (root !== undefined) return [root];
  const keys = new Set(shared.inline?.get(schema)?.values());
  const defs = schema[shared.keyword];
  if (isSchemaObject(defs)) for (const name of Object.keys(defs)) if (Object.prototype.hasOwnProperty.call(shared.defs, name)) keys.add(name);
  return [...keys].sort();
}

/** Export names of the shared unit's entries, in the order of `shared.defs`. */
export function sharedExportNames(shared: SharedDefinitions): string[] {
  return Object.keys(shared.defs).map((_name, i) => `sharedDef_${i}`);
}

/**
 * The shared unit's compiled scope (compile-unit.ts: `\nexport const [sharedDef_0, …] = (() => {…})();`)
 * as the `$shared` table: a frozen object without prototype, keyed by definition name.
 */
export function sharedTableCode(code: string, shared: SharedDefinitions, exported: boolean): string {
  const exportNames = sharedExportNames(shared);
  const head = `\nexport const [${exportNames.join(', ')}] = `;
  if (!code.startsWith(head)) throw new Error('emitToolValidators: unexpected code for the shared definitions');
  const rows = Object.keys(shared.defs).map((name, i) => `\n  [${stringLiteral(name)}, ${exportNames[i] as string}],`).join('');
  const table = `${exported ? 'export ' : ''}const ${SHARED_TABLE} = Object.freeze(Object.assign(Object.create(null), Object.fromEntries([${rows}\n])));\n`;
  return `\nconst [${exportNames.join(', ')}] = ${code.slice(head.length)}${table}`;
}
