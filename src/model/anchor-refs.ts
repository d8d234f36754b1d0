/**
 * `"$ref": "#name"` to a subschema with `"$anchor": "name"` (or draft-07's `"$id": "#name"`), as a
 * live server may write. The emitters embed each tool schema into a larger document and rewrite
 * `#…` refs as JSON pointers, which an anchor is not; so here each anchor ref becomes the pointer
 * of its target, and the anchors go (two tools may use the same name, and they end up side by
 * side). Callers bound the nesting depth first (src/load/deep-json.ts): this walk recurses.
 */
import { isSchemaObject, pointerSegment, subschemaSlot, type SchemaObject } from '../schema/keywords.js';

const ANCHOR_REF = /^#([A-Za-z_][-A-Za-z0-9._]*)$/;

/** The schema with anchor refs as pointers and no anchors, or why that cannot be done. */
export function resolveAnchorRefs(schema: SchemaObject): { schema: SchemaObject } | { problem: string } {
  const anchors = new Map<string, string>();
  let problem: string | undefined;
  visit(schema, '', (node, pointer) => {
    for (const name of anchorNames(node)) {
      if (anchors.has(name)) problem ??= `$anchor ${JSON.stringify(name)} is defined twice (at ${anchors.get(name) || 'the root'} and ${pointer || 'the root'})`;
      anchors.set(name, pointer);
    }
  });
  if (problem !== undefined) return { problem };
  if (anchors.size === 0 && !usesAnchorRef(schema)) return { schema };
  const copy = structuredClone(schema);
  visit(copy, '', (node) => {
    const ref = node['$ref'];
    const name = typeof ref === 'string' ? ANCHOR_REF.exec(ref)?.[1] : undefined;
    if (name !== undefined) {
      const target = anchors.get(name);
      if (target === undefined) problem ??= `$ref ${JSON.stringify(ref)} names no $anchor of the schema`;
      else node['$ref'] = `#${target.split('/').map(encodeURIComponent).join('/')}`;
    }
    delete node['$anchor'];
    if (typeof node['$id'] === 'string' && node['$id'].startsWith('#')) delete node['$id'];
  });
  return problem === undefined ? { schema: copy } : { problem };
}

function anchorNames(node: SchemaObject): string[] {
  const names: string[] = [];
  if (typeof node['$anchor'] === 'string') names.push(node['$anchor']);
  const id = node['$id'];
  if (typeof id === 'string' && ANCHOR_REF.test(id)) names.push(id.slice(1));
  return names;
}

function usesAnchorRef(schema: SchemaObject): boolean {
  let found = false;
  visit(schema, '', (node) => {
    if (typeof node['$ref'] === 'string' && ANCHOR_REF.test(node['$ref'])) found = true;
  });
  return found;
}

/** Calls `fn` on every schema object, parents first, with its JSON pointer. */
function visit(schema: unknown, pointer: string, fn: (node: SchemaObject, pointer: string) => void): void {
  if (!isSchemaObject(schema)) return;
  fn(schema, pointer);
  for (const [key, value] of Object.entries(schema)) {
    const at = `${pointer}/${pointerSegment(key)}`;
    const slot = subschemaSlot(key, value);
    if (slot === 'one') visit(value, at, fn);
    else if (slot === 'list') (value as unknown[]).forEach((item, i) => visit(item, `${at}/${i}`, fn));
    else if (slot === 'map') for (const [name, sub] of Object.entries(value as SchemaObject)) visit(sub, `${at}/${pointerSegment(name)}`, fn);
  }
}
