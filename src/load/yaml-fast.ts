/**
 * The fast way in for a YAML manifest. The `yaml` library (yaml-positions.ts) builds a node tree
 * with a position for every value, most of the load time of a large manifest (GitHub's 1,223
 * tools), though most runs never print a position. js-yaml reads the same text into plain values several times faster and
 * keeps no tree; the positions are then worked out by the `yaml` library only when a message needs
 * one (json-source.ts does the same for JSON).
 *
 * The two parsers must agree on every document the fast way accepts, so it accepts only plain
 * documents: one document, no directives, tags, anchors or aliases, every key a scalar and no key
 * that YAML reads as null. Anything else, and anything js-yaml refuses, goes the `yaml` way, which
 * reports every problem exactly as before. test/manifest/yaml-fast.test.ts holds the two parsers
 * against each other over the repository's YAML files and a set of awkward scalars and layouts.
 */
import { createRequire } from 'node:module';

type JsYaml = typeof import('js-yaml');
let library: JsYaml | undefined;

function jsYaml(): JsYaml {
  library ??= createRequire(import.meta.url)('js-yaml') as JsYaml;
  return library;
}

/** What a plain scalar reads as null in YAML 1.2's core schema; as a key `yaml` makes it "" and js-yaml "null". */
const NULL_PLAIN = /^(?:~|[Nn]ull|NULL)?$/;

/** Keys longer than this are declined (well below the 1,024 characters `yaml` allows an implicit key). */
const LONG_KEY = 1000;

/**
 * The value of a YAML text (no byte order mark) whose root is a mapping, or undefined when the
 * fast way cannot vouch for it: then the caller parses it with the `yaml` library.
 */
export function fastYamlValue(source: string): Record<string, unknown> | undefined {
  const value = plainValue(source, 'mapping');
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/**
 * The one entry of a YAML text that is a block sequence of one entry (a manifest's tool on its
 * own, yaml-tools.ts), held the same way; undefined when the fast way cannot vouch for it.
 */
export function fastYamlEntry(source: string): { entry: unknown } | undefined {
  const value = plainValue(source, 'sequence');
  return Array.isArray(value) && value.length === 1 ? { entry: value[0] } : undefined;
}

/** The one document of a plain text with a root of this kind, or undefined. */
function plainValue(source: string, root: 'mapping' | 'sequence'): unknown {
  const yaml = jsYaml();
  const { parseEvents, constructFromEvents } = yaml;
  let events: ReturnType<typeof parseEvents>;
  try {
    events = parseEvents(source, {});
  } catch {
    return undefined;
  }
  if (!isPlainDocument(events, source, yaml, root)) return undefined;
  let documents: unknown[];
  try {
    documents = constructFromEvents(events, { source, maxAliases: 0 });
  } catch {
    return undefined;
  }
  return documents.length === 1 ? documents[0] : undefined;
}

/** One document, a collection of this kind at its root, with nothing in it the two parsers might read differently. */
function isPlainDocument(events: ReturnType<JsYaml['parseEvents']>, source: string, yaml: JsYaml, kind: 'mapping' | 'sequence'): boolean {
  const { EVENT_ID: id, SCALAR_STYLE } = yaml;
  const [document, root] = events;
  if (document?.type !== id.DOCUMENT || document.directives.length > 0 || root?.type !== (kind === 'mapping' ? id.MAPPING : id.SEQUENCE)) return false;
  // For each open collection: a mapping's count of entries so far (even: a key comes next), or -1 for a sequence.
  const open: number[] = [];
  for (let at = 1; at < events.length; at++) {
    const event = events[at]!;
    if (event.type === id.POP) {
      open.pop();
      // The root mapping closed: only the document's own end may follow.
      if (open.length === 0) return at === events.length - 2 && events[at + 1]!.type === id.POP;
      continue;
    }
    if (event.type === id.DOCUMENT || event.type === id.ALIAS) return false;
    if (event.anchorStart !== -1 || event.tagStart !== -1) return false;
    const parent = open.length - 1;
    const isKey = parent >= 0 && open[parent]! >= 0 && open[parent]! % 2 === 0;
    if (parent >= 0 && open[parent]! >= 0) open[parent]!++;
    if (event.type === id.SCALAR) {
      if (isKey && event.style === SCALAR_STYLE.PLAIN && NULL_PLAIN.test(source.slice(event.valueStart, event.valueEnd))) return false;
      // `yaml` refuses an implicit key whose `:` is more than 1,024 characters from its start; js-yaml does not.
      if (isKey && source.indexOf(':', event.valueEnd) - event.valueStart > LONG_KEY) return false;
      continue;
    }
    if (isKey) return false;
    open.push(event.type === id.MAPPING ? 0 : -1);
  }
  return false;
}
