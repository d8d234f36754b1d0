/**
 * YAML and JSON text → plain value plus a way back from a JSON pointer to line:column. JSON is
 * parsed by the same YAML parser (JSON is YAML 1.2), so both formats get positions the same way;
 * JSON files are additionally held to strict JSON.
 */
import { createRequire } from 'node:module';
import type { Document, Node as YamlNode } from 'yaml';
import type { Diagnostic } from './diagnostics.js';
import { pointerSegment } from '../schema/keywords.js';
import { locateJsonSyntaxError } from './spec-json.js';

export type SourceFormat = 'yaml' | 'json';

export interface Position {
  line: number;
  column: number;
}

/** A parsed input file whose every node can be found again by JSON pointer. */
export interface SourceDocument {
  /** The file as shown in messages. */
  readonly file: string;
  readonly value: unknown;
  /**
   * Where the node at `pointer` starts; `part: 'key'` gives its property name instead. A pointer
   * that leads nowhere yields the position of the deepest node that exists on its way.
   */
  locate(pointer: string, part?: 'value' | 'key'): Position;
}

export interface ParsedSource {
  /** Absent when the text could not be parsed at all. */
  document?: SourceDocument;
  problems: Diagnostic[];
  warnings: Diagnostic[];
}

type YamlLibrary = typeof import('yaml');
let library: YamlLibrary | undefined;

/** The YAML library, loaded on first use (loading it is not free): JSON inputs mostly never need it (json-source.ts). */
function yaml(): YamlLibrary {
  library ??= createRequire(import.meta.url)('yaml') as YamlLibrary;
  return library;
}

/** More aliases than this in one file is an alias bomb, not a manifest. */
const MAX_ALIAS_COUNT = 1000;

export function formatOf(path: string): SourceFormat {
  return path.toLowerCase().endsWith('.json') ? 'json' : 'yaml';
}

export function parseSource(text: string, file: string, format: SourceFormat): ParsedSource {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const { isAlias, isMap, isPair, isSeq, LineCounter, parseDocument } = yaml();
  const lineCounter = new LineCounter();
  const at = (offset: number): Position => {
    const { line, col } = lineCounter.linePos(offset);
    return { line, column: col };
  };
  const problem = (offset: number | undefined, message: string, hint?: string): Diagnostic => ({
    file,
    ...(offset === undefined ? { line: 0, column: 0 } : at(offset)),
    pointer: '',
    message,
    ...(hint ? { hint } : {}),
  });

  let doc: Document.Parsed;
  try {
    doc = parseDocument(source, { lineCounter, prettyErrors: false, uniqueKeys: true });
  } catch (error) {
    // The parser recurses per nesting level; absurdly deep input overflows the stack.
    return { problems: [problem(undefined, `cannot parse: ${(error as Error).message}`)], warnings: [] };
  }

  const problems: Diagnostic[] = [];
  if (format === 'json') {
    try {
      JSON.parse(source);
    } catch (error) {
      // V8's message names a position only sometimes (not for input that ends too early).
      const { offset } = locateJsonSyntaxError(source);
      problems.push(problem(offset, `invalid JSON: ${(error as Error).message.replace(/ in JSON at position \d+.*$/s, '')}`));
    }
  }
  for (const error of doc.errors) {
    if (format === 'json' && problems.length > 0) break;
    problems.push(problem(error.pos[0], `${format === 'json' ? 'invalid JSON' : 'YAML syntax error'}: ${firstLine(error.message)}`));
  }
  const warnings = doc.warnings.map((w) => problem(w.pos[0], firstLine(w.message)));
  if (problems.length > 0) return { problems, warnings };

  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    return { problems: [problem(0, firstLine((error as Error).message))], warnings };
  }

  const locate = (pointer: string, part: 'value' | 'key' = 'value'): Position => {
    let node: unknown = doc.contents;
    let keyOffset: number | undefined;
    for (const segment of parsePointer(pointer)) {
      if (isAlias(node)) node = node.resolve(doc);
      let next: unknown;
      keyOffset = undefined;
      if (isMap(node)) {
        const pair = node.items.find((p) => isPair(p) && keyString(p.key) === segment);
        if (pair) {
          next = pair.value ?? pair.key;
          keyOffset = rangeStart(pair.key);
        }
      } else if (isSeq(node) && /^(0|[1-9][0-9]*)$/.test(segment)) {
        next = node.items[Number(segment)];
      }
      if (next === undefined || next === null) return at(rangeStart(node) ?? 0);
      node = next;
    }
    if (part === 'key' && keyOffset !== undefined) return at(keyOffset);
    return at(rangeStart(node) ?? 0);
  };

  return { document: { file, value, locate }, problems: [], warnings };
}

function firstLine(message: string): string {
  return message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
}

function keyString(key: unknown): string | undefined {
  if (yaml().isScalar(key)) return String(key.value);
  return undefined;
}

function rangeStart(node: unknown): number | undefined {
  const range = (node as YamlNode | null)?.range;
  return range ? range[0] : undefined;
}

/** RFC 6901. */
export function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  // Most pointers escape nothing: skip the two regex passes per segment.
  if (!pointer.includes('~')) return pointer.slice(1).split('/');
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

export function joinPointer(base: string, ...segments: (string | number)[]): string {
  let pointer = base;
  for (const segment of segments) pointer += '/' + (typeof segment === 'number' ? String(segment) : pointerSegment(segment));
  return pointer;
}

/** A problem at the node `pointer` of `doc`. */
export function diagnosticAt(
  doc: SourceDocument,
  pointer: string,
  message: string,
  hint?: string,
  part: 'value' | 'key' = 'value',
): Diagnostic {
  return { file: doc.file, ...doc.locate(pointer, part), pointer, message, ...(hint ? { hint } : {}) };
}
