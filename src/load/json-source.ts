/**
 * The fast way in for an input file (for YAML see yaml-fast.ts). For a `.json` input: JSON.parse,
 * with line and column worked out only when a message needs one. The YAML parser (yaml-positions.ts) builds a node tree with positions for
 * every value, which costs about a second and a half for a 1,000-tool manifest; most runs never
 * print a position at all.
 *
 * Anything JSON.parse rejects, and any text with a repeated member name (JSON.parse silently keeps
 * the last), goes the YAML way instead, so every problem is reported exactly as before.
 */
import type { Recall } from './bundled-tools-memo.js';
import { fastYamlValue } from './yaml-fast.js';
import { ownStrings, toolwiseYamlValue } from './yaml-tools.js';
import { parseSource, type ParsedSource, type Position, type SourceDocument, type SourceFormat } from './yaml-positions.js';

/** Parses an input file of either format (see formatOf); `recall`: the output folder's cache, for a manifest's tools (yaml-tools.ts). */
export function parseInput(text: string, file: string, format: SourceFormat, recall?: Recall): ParsedSource {
  return format === 'json' ? parseJsonSource(text, file) : parseYamlSource(text, file, recall);
}

/** YAML through js-yaml when it can vouch for the text (yaml-fast.ts), tool by tool with a cache (yaml-tools.ts); positions worked out on demand. */
export function parseYamlSource(text: string, file: string, recall?: Recall): ParsedSource {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const value = (recall !== undefined ? toolwiseYamlValue(source, recall) : undefined) ?? ownStrings(fastYamlValue(source));
  if (value === undefined) return parseSource(text, file, 'yaml');
  return { document: lazilyLocated(text, file, 'yaml', value), problems: [], warnings: [] };
}

export function parseJsonSource(text: string, file: string): ParsedSource {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch {
    return parseSource(text, file, 'json');
  }
  try {
    if (memberCount(value) !== nameSeparatorCount(source)) return parseSource(text, file, 'json');
  } catch {
    // Nesting deep enough to overflow the count: the YAML way reports it as it always did.
    return parseSource(text, file, 'json');
  }

  return { document: lazilyLocated(text, file, 'json', value), problems: [], warnings: [] };
}

/** The document with positions from the YAML parser's tree, built once, on the first question. */
function lazilyLocated(text: string, file: string, format: SourceFormat, value: unknown): SourceDocument {
  let located: SourceDocument | undefined;
  const locate = (pointer: string, part?: 'value' | 'key'): Position => {
    located ??= parseSource(text, file, format).document;
    return located ? located.locate(pointer, part) : { line: 0, column: 0 };
  };
  return { file, value, locate };
}

/** Members of every object in a parsed JSON value (a repeated name counts once). */
function memberCount(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  let count = 0;
  if (Array.isArray(value)) {
    for (const item of value) count += memberCount(item);
    return count;
  }
  // for-in walks own keys here (JSON.parse makes plain objects) without allocating a list per object;
  // an enumerable key inherited from a polluted prototype only makes the counts differ (the slow path).
  for (const key in value) count += 1 + memberCount((value as Record<string, unknown>)[key]);
  return count;
}

/**
 * The `:` outside strings in valid JSON text: one per member written, repeats included. More of
 * them than members parsed means some name was repeated.
 */
function nameSeparatorCount(text: string): number {
  // indexOf jumps from quote to quote natively: several times faster than a loop over characters.
  let count = 0;
  let from = 0;
  for (;;) {
    const open = text.indexOf('"', from);
    const end = open < 0 ? text.length : open;
    for (let colon = text.indexOf(':', from); colon !== -1 && colon < end; colon = text.indexOf(':', colon + 1)) count++;
    if (open < 0) return count;
    // Valid JSON closes every string: the next quote not escaped by an odd run of backslashes.
    let close = text.indexOf('"', open + 1);
    while (escaped(text, close)) close = text.indexOf('"', close + 1);
    from = close + 1;
  }
}

function escaped(text: string, quote: number): boolean {
  let backslashes = 0;
  while (text.charCodeAt(quote - 1 - backslashes) === 0x5c) backslashes++;
  return backslashes % 2 === 1;
}
