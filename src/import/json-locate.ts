/**
 * Line and column of JSON pointers in a JSON text, all asked for at once in one pass over the text.
 * The YAML parser's position tree (src/load/yaml-positions.ts) is far too slow on a description
 * as large as GitHub's; this scanner finds a few hundred positions in one pass.
 */
import type { Position } from '../load/yaml-positions.js';
import { parsePointer } from '../load/yaml-positions.js';

/**
 * Where each pointer's value starts (a pointer that leads nowhere gets its deepest existing
 * ancestor's position). The text must be valid JSON (it was parsed before).
 */
export function locateJsonPointers(text: string, pointers: readonly string[]): Map<string, Position> {
  // Every prefix of a wanted pointer is wanted too: the fallback for one that leads nowhere.
  const wanted = new Set<string>();
  for (const pointer of pointers) {
    const segments = parsePointer(pointer);
    let prefix = '';
    wanted.add('');
    for (const segment of segments) {
      prefix += '/' + segment.replace(/~/g, '~0').replace(/\//g, '~1');
      wanted.add(prefix);
    }
  }
  const offsets = new Map<string, number>();
  scan(text, wanted, offsets);
  const lineStarts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  const result = new Map<string, Position>();
  for (const pointer of pointers) {
    let probe = pointer;
    while (!offsets.has(probe) && probe !== '') probe = probe.slice(0, probe.lastIndexOf('/'));
    result.set(pointer, positionOf(offsets.get(probe) ?? 0, lineStarts));
  }
  return result;
}

function positionOf(offset: number, lineStarts: readonly number[]): Position {
  let low = 0;
  let high = lineStarts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (lineStarts[mid]! <= offset) low = mid;
    else high = mid - 1;
  }
  return { line: low + 1, column: offset - lineStarts[low]! + 1 };
}

/** Records the offset of each value whose pointer is wanted; descends only into wanted containers. */
function scan(text: string, wanted: ReadonlySet<string>, offsets: Map<string, number>): void {
  let i = 0;
  const skipSpace = (): void => {
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0xfeff) i += 1;
      else break;
    }
  };
  const readString = (): string => {
    const start = i;
    i += 1;
    let escaped = false;
    for (;;) {
      const quote = text.indexOf('"', i);
      if (quote === -1) throw new Error('unterminated string');
      let backslashes = 0;
      for (let j = quote - 1; text.charCodeAt(j) === 0x5c; j -= 1) backslashes += 1;
      if (backslashes > 0) escaped = true;
      i = quote + 1;
      if (backslashes % 2 === 0) break;
    }
    const raw = text.slice(start, i);
    return escaped ? (JSON.parse(raw) as string) : raw.slice(1, -1);
  };
  /** Skips one value without looking inside: strings are the only place brackets do not count. */
  const skipValue = (): void => {
    const c = text[i];
    if (c === '"') {
      readString();
      return;
    }
    if (c !== '{' && c !== '[') {
      while (i < text.length && !',}] \n\r\t'.includes(text[i]!)) i += 1;
      return;
    }
    let depth = 0;
    while (i < text.length) {
      const ch = text[i]!;
      if (ch === '"') {
        readString();
        continue;
      }
      if (ch === '{' || ch === '[') depth += 1;
      else if (ch === '}' || ch === ']') {
        depth -= 1;
        if (depth === 0) {
          i += 1;
          return;
        }
      }
      i += 1;
    }
  };
  const value = (pointer: string): void => {
    skipSpace();
    offsets.set(pointer, i);
    const c = text[i];
    if (c !== '{' && c !== '[') {
      skipValue();
      return;
    }
    const isObject = c === '{';
    i += 1;
    let index = 0;
    for (;;) {
      skipSpace();
      if (text[i] === '}' || text[i] === ']') {
        i += 1;
        return;
      }
      let key: string;
      if (isObject) {
        key = readString();
        skipSpace();
        i += 1; // ':'
      } else key = String(index++);
      const child = pointer + '/' + key.replace(/~/g, '~0').replace(/\//g, '~1');
      skipSpace();
      if (wanted.has(child)) value(child);
      else skipValue();
      skipSpace();
      if (text[i] === ',') i += 1;
    }
  };
  value('');
}
