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
  const forms = new CanonicalForms(shareableNames);
  const counts = new Map<number, number>();
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
    for (const top of tops) forms.formOf(top.node);
    regions.push({ schema, tops });
  }
  // Every candidate occurrence counted, nested ones too: a text is worth sharing by all its copies.
  const candidate = (node: unknown): node is SchemaObject =>
    isSchemaObject(node) && forms.refsShared(node) && !Object.hasOwn(node, '$defs') && !Object.hasOwn(node, 'definitions') && forms.length(node) >= MIN_TEXT;
  for (const region of regions) {
    for (const top of region.tops) {
      forEachNode(top.node, top.candidate, (node) => {
        if (candidate(node)) counts.set(forms.formOf(node), (counts.get(forms.formOf(node)) ?? 0) + 1);
        return true;
      });
    }
  }
  const selected = new Set([...counts].filter(([form, n]) => n > 1 && (n - 1) * forms.lengthOfForm(form) >= threshold).map(([form]) => form));
  const plan: InlinePlan = { entries: new Map(), stubs: new Map(), roots: new Map() };
  const keyOf = new Map<number, string | null>();
  for (const region of regions) {
    const stubs = new Map<SchemaObject, string>();
    for (const top of region.tops) {
      // A root made a stub takes its definitions with it (withSharedStubs): none of them is looked at.
      if (plan.roots.has(region.schema)) break;
      // The outermost selected copy becomes the stub; what it holds is compiled with it.
      forEachNode(top.node, top.candidate, (node) => {
        if (!candidate(node) || !selected.has(forms.formOf(node))) return true;
        const key = entryKey(forms, node, keyOf, plan, taken);
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

/** The entry key of a node's text (its first copy is the entry); undefined when the key is taken or collides. */
function entryKey(forms: CanonicalForms, node: SchemaObject, keyOf: Map<number, string | null>, plan: InlinePlan, taken: ReadonlySet<string>): string | undefined {
  const form = forms.formOf(node);
  const known = keyOf.get(form);
  if (known !== undefined) return known ?? undefined;
  const key = `${KEY_PREFIX}${sha256Hex(forms.textOfForm(form)).slice(0, 32)}`;
  const ok = !taken.has(key) && !plan.entries.has(key);
  keyOf.set(form, ok ? key : null);
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
 * Schema nodes by the text ajv compiles (annotations left out): nodes of equal text get the same
 * form, a small number. The text itself is made only when asked for (an entry's key is its hash):
 * a node's form is its own keywords with each subschema's form in place of its text, so a node
 * costs its own size, where building the texts bottom-up copied each subtree once per level above
 * it (a fifth of a warm 1,000-tool run). Also: whether every `$ref` in a node reaches one of
 * `sharedNames` (a definition that means the same in every tool).
 */
export class CanonicalForms {
  private readonly forms = new Map<object, number>();
  private readonly shared = new Map<object, boolean>();
  /** Form by its shape: literal JSON pieces and the forms of subschemas, joined (see shapeKey). */
  private readonly byShape = new Map<string, number>();
  /** Per form: its pieces (literal JSON text, or a subschema's form) and its text's length. */
  private readonly pieces: (string | number)[][] = [];
  private readonly lengths: number[] = [];

  constructor(private readonly sharedNames: ReadonlySet<string>) {}

  /** The form of a schema object (computed once per object, with all under it). */
  formOf(node: SchemaObject): number;
  formOf(node: unknown): number | undefined;
  formOf(node: unknown): number | undefined {
    if (!isSchemaObject(node)) return undefined;
    const known = this.forms.get(node);
    if (known !== undefined) return known;
    let ok = true;
    const pieces: (string | number)[] = [];
    // Literal text runs are joined, so one shape has one list of pieces.
    const literal = (text: string): void => {
      const last = pieces.length - 1;
      if (last >= 0 && typeof pieces[last] === 'string') pieces[last] += text;
      else pieces.push(text);
    };
    const sub = (value: unknown): void => {
      if (!isSubschema(value) || !isSchemaObject(value)) {
        literal(JSON.stringify(value));
        return;
      }
      pieces.push(this.formOf(value));
      if (this.shared.get(value) !== true) ok = false;
    };
    literal('{');
    let first = true;
    for (const [key, value] of Object.entries(node)) {
      if (ANNOTATION_KEYWORDS.has(key)) continue;
      literal(`${first ? '' : ','}${JSON.stringify(key)}:`);
      first = false;
      const slot = subschemaSlot(key, value);
      if (slot === 'one') sub(value);
      else if (slot === 'list') {
        literal('[');
        (value as unknown[]).forEach((item, i) => {
          if (i > 0) literal(',');
          sub(item);
        });
        literal(']');
      } else if (slot === 'map') {
        literal('{');
        Object.entries(value as SchemaObject).forEach(([name, item], i) => {
          literal(`${i > 0 ? ',' : ''}${JSON.stringify(name)}:`);
          sub(item);
        });
        literal('}');
      } else literal(JSON.stringify(value));
    }
    literal('}');
    const ref = node['$ref'];
    if (ref !== undefined) {
      const m = typeof ref === 'string' ? LOCAL_DEF_REF.exec(ref) : null;
      if (!m || !this.sharedNames.has(decodeToken(m[2] as string))) ok = false;
    }
    const shape = shapeKey(pieces);
    let form = this.byShape.get(shape);
    if (form === undefined) {
      form = this.pieces.length;
      this.byShape.set(shape, form);
      this.pieces.push(pieces);
      this.lengths.push(pieces.reduce<number>((sum, piece) => sum + (typeof piece === 'string' ? piece.length : (this.lengths[piece] as number)), 0));
    }
    this.forms.set(node, form);
    this.shared.set(node, ok);
    return form;
  }

  /** Whether every `$ref` in the node (already given a form) reaches a shared definition. */
  refsShared(node: object): boolean {
    return this.shared.get(node) === true;
  }

  /** The length of the node's text. */
  length(node: SchemaObject): number {
    return this.lengthOfForm(this.formOf(node));
  }

  lengthOfForm(form: number): number {
    return this.lengths[form] as number;
  }

  /** The text of a form: the node's JSON without annotations, keys in their order. */
  textOfForm(form: number): string {
    return (this.pieces[form] as (string | number)[]).map((piece) => (typeof piece === 'string' ? piece : this.textOfForm(piece))).join('');
  }
}

/**
 * A shape's key: literal pieces as they are, a subschema's form as `@` and its number. JSON text
 * never has `@` outside a string and each literal piece is whole JSON tokens, so two shapes have
 * one key only when their pieces are the same.
 */
function shapeKey(pieces: readonly (string | number)[]): string {
  let key = '';
  for (const piece of pieces) key += typeof piece === 'string' ? piece : `@${piece}`;
  return key;
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
