import { ANNOTATION_KEYWORDS, isSchemaObject, isSubschema, subschemaSlot, type SchemaObject } from '../../schema/keywords.js';
import { sha256Hex } from '../../schema/sha256.js';

/**
 * Inline schemas many tools hold alike, shared by content. An API description repeats whole
 * objects inline (GitHub: a response's `_links`, a list's item, a webhook's payload in two
 * operations, definitions of different names and the same body) that no `$defs` name ties
 * together. Two subschemas with the same text once annotations are left out (what ajv compiles)
 * compile to the same code, wherever they sit, as long as every `$ref` in them reaches a shared
 * definition (the same one in every tool). Such a subschema is compiled once into the `$shared`
 * table (shared-defs.ts) under a key made from its text, and each copy becomes a stub calling it.
 */

/** Subschemas shorter than this (annotation-free JSON characters) stay inline: a call costs more than they do. */
const MIN_TEXT = 120;
// A plain definition name (compile-plan.ts splits only those), unlike any real one: a key taken by one is not used.
const KEY_PREFIX = 'inline.';

export interface InlinePlan {
  /** Entry key → the subschema compiled under it (one of its copies). */
  entries: Map<string, SchemaObject>;
  /** Per tool schema (by identity): its subschemas (by identity) that become stubs, and their keys. */
  stubs: Map<SchemaObject, Map<SchemaObject, string>>;
  /** Tool schemas (by identity) whose whole root becomes a stub, with its key: roots alike (shared-roots.ts). */
  roots: Map<SchemaObject, string>;
}

interface Region {
  schema: SchemaObject;
  /** The subschemas where candidates are looked for: the root (its body, or its own keywords) and the unshared definitions. */
  tops: { node: unknown; candidate: boolean; root?: true }[];
}

const LOCAL_DEF_REF = /^#\/(\$defs|definitions)\/([^/]+)$/;

/**
 * Which inline subschemas of `schemas` are shared, a tool's root among them (unless `matchedRoots`
 * has it: a root that is a definition calls that one). `sharedNames`: the definitions shared by name;
 * `shareableNames`: those that could be (the same text in every tool, and so is all they reach): a
 * `$ref` to one means the same in every tool, and the caller shares what the entries reach. `unsharable`: definitions a pointer
 * reaches inside of, which must stay as they are; `taken`: definition names (an entry key must
 * not be one); a text is shared when its copies beyond the first add up to `threshold` characters.
 */
export function planInlineEntries(
  schemas: readonly SchemaObject[],
  keyword: '$defs' | 'definitions',
  sharedNames: ReadonlySet<string>,
  shareableNames: ReadonlySet<string>,
  unsharable: ReadonlySet<string>,
  taken: ReadonlySet<string>,
  threshold: number,
  matchedRoots: ReadonlyMap<SchemaObject, string> = new Map(),
): InlinePlan {
  const texts = new Map<object, string>();
  const counts = new Map<string, number>();
  const refsShared = new Map<object, boolean>();
  const regions: Region[] = [];
  for (const schema of schemas) {
    const tops: Region['tops'] = [];
    // A root that is a definition is replaced whole, its definitions with it: nothing to look for.
    if (matchedRoots.has(schema)) {
      regions.push({ schema, tops });
      continue;
    }
    // The root as a whole is a candidate too (its body: the same subschemas, and itself).
    const body = rootBody(schema, keyword);
    if (body !== undefined) tops.push({ node: body, candidate: true, root: true });
    for (const [key, value] of Object.entries(schema)) {
      if (key === keyword && isSchemaObject(value)) {
        for (const [name, def] of Object.entries(value)) if (!sharedNames.has(name) && !unsharable.has(name)) tops.push({ node: def, candidate: true });
      } else if (body === undefined && subschemaSlot(key, value) !== undefined) {
        tops.push({ node: { [key]: value }, candidate: false });
      }
    }
    for (const top of tops) canonicalText(top.node, texts, refsShared, shareableNames);
    regions.push({ schema, tops });
  }
  // Every candidate occurrence counted, nested ones too: a text is worth sharing by all its copies.
  const candidate = (node: unknown): node is SchemaObject =>
    isSchemaObject(node) && refsShared.get(node) === true && !Object.hasOwn(node, '$defs') && !Object.hasOwn(node, 'definitions') && (texts.get(node)?.length ?? 0) >= MIN_TEXT;
  for (const region of regions) {
    for (const top of region.tops) {
      forEachNode(top.node, top.candidate, (node) => {
        if (candidate(node)) counts.set(texts.get(node) as string, (counts.get(texts.get(node) as string) ?? 0) + 1);
        return true;
      });
    }
  }
  const selected = new Set([...counts].filter(([text, n]) => n > 1 && (n - 1) * text.length >= threshold).map(([text]) => text));
  const plan: InlinePlan = { entries: new Map(), stubs: new Map(), roots: new Map() };
  const keyOf = new Map<string, string | null>();
  for (const region of regions) {
    const stubs = new Map<SchemaObject, string>();
    for (const top of region.tops) {
      // A root made a stub takes its definitions with it (withSharedStubs): none of them is looked at.
      if (plan.roots.has(region.schema)) break;
      // The outermost selected copy becomes the stub; what it holds is compiled with it.
      forEachNode(top.node, top.candidate, (node) => {
        if (!candidate(node) || !selected.has(texts.get(node) as string)) return true;
        const key = entryKey(texts.get(node) as string, node, keyOf, plan, taken);
        if (key === undefined) return true;
        if (top.root === true && node === top.node) plan.roots.set(region.schema, key);
        else stubs.set(node, key);
        return false;
      });
    }
    if (stubs.size > 0) plan.stubs.set(region.schema, stubs);
  }
  return plan;
}

/** The entry key of a text (its first copy is the entry); undefined when the key is taken or collides. */
function entryKey(text: string, node: SchemaObject, keyOf: Map<string, string | null>, plan: InlinePlan, taken: ReadonlySet<string>): string | undefined {
  const known = keyOf.get(text);
  if (known !== undefined) return known ?? undefined;
  const key = `${KEY_PREFIX}${sha256Hex(text).slice(0, 32)}`;
  const ok = !taken.has(key) && !plan.entries.has(key);
  keyOf.set(text, ok ? key : null);
  if (!ok) return undefined;
  plan.entries.set(key, node);
  return key;
}

/**
 * Calls `visit` for `node` (when `self`) and every subschema under it, top-down; `visit` returning
 * false skips what is under that node.
 */
function forEachNode(node: unknown, self: boolean, visit: (node: unknown) => boolean): void {
  if (!isSchemaObject(node)) return;
  if (self && !visit(node)) return;
  for (const [key, value] of Object.entries(node)) {
    const slot = subschemaSlot(key, value);
    if (slot === 'one') forEachNode(value, true, visit);
    else if (slot === 'list') for (const item of value as unknown[]) forEachNode(item, true, visit);
    else if (slot === 'map') for (const item of Object.values(value as SchemaObject)) forEachNode(item, true, visit);
  }
}

/**
 * The text of `node` as ajv compiles it (annotations left out), recorded for every schema object
 * under it, bottom-up; and whether every `$ref` in it reaches a shared definition.
 */
export function canonicalText(node: unknown, texts: Map<object, string>, refsShared: Map<object, boolean>, sharedNames: ReadonlySet<string>): string {
  if (!isSchemaObject(node)) return JSON.stringify(node);
  const known = texts.get(node);
  if (known !== undefined) return known;
  let ok = true;
  const sub = (value: unknown): string => {
    if (!isSubschema(value)) return JSON.stringify(value);
    const text = canonicalText(value, texts, refsShared, sharedNames);
    if (isSchemaObject(value) && refsShared.get(value) !== true) ok = false;
    return text;
  };
  const parts: string[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (ANNOTATION_KEYWORDS.has(key)) continue;
    const slot = subschemaSlot(key, value);
    let text: string;
    if (slot === 'one') text = sub(value);
    else if (slot === 'list') text = `[${(value as unknown[]).map(sub).join(',')}]`;
    else if (slot === 'map') text = `{${Object.entries(value as SchemaObject).map(([name, item]) => `${JSON.stringify(name)}:${sub(item)}`).join(',')}}`;
    else text = JSON.stringify(value);
    parts.push(`${JSON.stringify(key)}:${text}`);
  }
  const ref = node['$ref'];
  if (ref !== undefined) {
    const m = typeof ref === 'string' ? LOCAL_DEF_REF.exec(ref) : null;
    if (!m || !sharedNames.has(decodeToken(m[2] as string))) ok = false;
  }
  const text = `{${parts.join(',')}}`;
  texts.set(node, text);
  refsShared.set(node, ok);
  return text;
}

/** The root without its definitions, as ajv compiles it; undefined for a root that must stay with its tool. */
export function rootBody(schema: SchemaObject, keyword: '$defs' | 'definitions'): SchemaObject | undefined {
  // `$schema` names the dialect of the document: a root that has one is compiled where it is.
  if (Object.hasOwn(schema, '$schema')) return undefined;
  const body: SchemaObject = {};
  for (const [key, value] of Object.entries(schema)) if (key !== keyword) body[key] = value;
  return body;
}

function decodeToken(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}
