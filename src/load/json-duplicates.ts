/**
 * Duplicate member names in JSON text (`{"name":"a","name":"b"}`). JSON.parse silently keeps the
 * last one, while another reader (a proxy, the server's own framework) may keep the first: the
 * server's word is then ambiguous, so the untrusted-server paths look at the raw text for them.
 */

export interface DuplicateKey {
  /** JSON pointer of the repeated member (the object's pointer plus the key). */
  pointer: string;
  key: string;
  /** Offset of the repeated key's opening quote in the text. */
  offset: number;
  /**
   * The values the earlier members of that name had (JSON.parse dropped them), so a warning can
   * name what they held: every name a tool gave itself, every tool of a list sent twice.
   */
  earlier: unknown[];
}

interface Frame {
  /** Member names seen so far, with where their values start (parsed only for a repeat); undefined for an array. */
  keys: Map<string, number[]> | undefined;
  /** The current member name, or the current index of an array. */
  at: string | number;
  expectingKey: boolean;
}

/**
 * Every repeated member name in `text`, which must be valid JSON (JSON.parse accepted it). One
 * pass with its own stack: nesting depth costs nothing.
 */
export function duplicateKeys(text: string): DuplicateKey[] {
  const found: DuplicateKey[] = [];
  const stack: Frame[] = [];
  const pointer = (extra: string): string =>
    [...stack.slice(0, -1).map((f) => String(f.at)), extra].map((s) => `/${s.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    const top = stack[stack.length - 1];
    if (c === '{' || c === '[') {
      stack.push({ keys: c === '{' ? new Map() : undefined, at: c === '{' ? '' : 0, expectingKey: c === '{' });
      i++;
    } else if (c === '}' || c === ']') {
      stack.pop();
      i++;
    } else if (c === ',') {
      if (top?.keys !== undefined) top.expectingKey = true;
      else if (top !== undefined) top.at = (top.at as number) + 1;
      i++;
    } else if (c === '"') {
      const end = stringEnd(text, i);
      if (top?.keys !== undefined && top.expectingKey) {
        const key = JSON.parse(text.slice(i, end)) as string;
        const value = valueStart(text, end);
        const seen = top.keys.get(key);
        if (seen !== undefined) {
          const earlier = seen.map((start) => JSON.parse(text.slice(start, valueEnd(text, start))) as unknown);
          found.push({ pointer: pointer(key), key, offset: i, earlier });
        }
        top.keys.set(key, [...(seen ?? []), value]);
        top.at = key;
        top.expectingKey = false;
      }
      i = end;
    } else {
      i++;
    }
  }
  return found;
}

/** Where the member's value starts (`end` is just past its key). */
function valueStart(text: string, end: number): number {
  let i = end;
  while (i < text.length && (text[i] === ':' || text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  return i;
}

/** The index just past the JSON value starting at `start` (only called for repeated members). */
function valueEnd(text: string, start: number): number {
  const first = text[start];
  if (first === '"') return stringEnd(text, start);
  if (first !== '{' && first !== '[') {
    let i = start;
    while (i < text.length && !',}] \t\n\r'.includes(text[i] as string)) i++;
    return i;
  }
  let depth = 0;
  let i = start;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      i = stringEnd(text, i);
      continue;
    }
    if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
    i++;
    if (depth === 0) return i;
  }
  return i;
}

/** The index just past the string literal starting at `start` (a `"`). */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
  return i + 1;
}

/** 1-based line and column of an offset, for `file:line:col` messages. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}
