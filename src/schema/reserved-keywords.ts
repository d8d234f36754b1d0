import { pointerSegment, subschemaSlot } from './keywords.js';

/**
 * Keywords of mcp-gen's own. The generated validators compile a definition many tools share once
 * and leave a stub `{ "x-mcp-gen-shared": key }` in each tool that calls it; the types compiler
 * reads type names from `x-mcp-gen-type-name`. Written into a user's or a server's schema, such a
 * keyword would make the generated code call a validator the schema never named, or name a type, so
 * any key starting with this prefix is refused wherever ajv could read it as a keyword: in every
 * object of a tool schema (a `$ref` may point into `default` or `examples`), except the names of a
 * map (`properties`, `$defs`, …), which are property and definition names, never keywords.
 */
export const RESERVED_KEYWORD_PREFIX = 'x-mcp-gen-';

/** Where in `schema` the first reserved keyword is (a JSON pointer to the key), or undefined. */
export function reservedKeywordIn(schema: unknown): { pointer: string; keyword: string } | undefined {
  return find(schema, '', true);
}

function find(value: unknown, pointer: string, isSchema: boolean): { pointer: string; keyword: string } | undefined {
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = find(item, `${pointer}/${index}`, isSchema);
      if (found) return found;
    }
    return undefined;
  }
  if (value === null || typeof value !== 'object') return undefined;
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    const at = `${pointer}/${pointerSegment(key)}`;
    if (key.startsWith(RESERVED_KEYWORD_PREFIX)) return { pointer: at, keyword: key };
    // A map's names are data; its values are schemas (or, in draft-07 `dependencies`, name lists).
    const slot = isSchema ? subschemaSlot(key, child) : undefined;
    const found =
      slot === 'map'
        ? firstInMap(child as Record<string, unknown>, at)
        : find(child, at, slot !== undefined);
    if (found) return found;
  }
  return undefined;
}

function firstInMap(map: Record<string, unknown>, pointer: string): { pointer: string; keyword: string } | undefined {
  for (const [name, entry] of Object.entries(map)) {
    const found = find(entry, `${pointer}/${pointerSegment(name)}`, true);
    if (found) return found;
  }
  return undefined;
}
