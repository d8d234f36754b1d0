/**
 * A scanner for the TypeScript declarations json-schema-to-typescript prints: it knows strings,
 * comments and words well enough to never cut inside one. It finds top-level `export`
 * declarations, can drop every comment, escapes U+2028/U+2029 inside string literals (the printer's
 * rule for literals), and puts back the member names the compiler needed a placeholder for.
 */
import { escapeInvisible, stringLiteral } from '../../printer/escape.js';

export interface ScannedDeclaration {
  /** `interface`, `type`, … */
  kind: string;
  name: string;
  /** Offset in the scanned output. */
  offset: number;
  /** Where the comments right before the declaration start (`offset` when there are none). */
  leadingOffset: number;
}

export interface ScanResult {
  text: string;
  declarations: ScannedDeclaration[];
}

export interface ScanOptions {
  dropComments: boolean;
  /** Placeholder words to print as the string literal of the name they stand for (in comments: the name). */
  placeholders?: ReadonlyMap<string, string>;
}

const DECLARATION = /^export\s+(?:declare\s+)?(interface|type|const|enum|class|function)\s+([A-Za-z_$][A-Za-z0-9_$]*)/;
const WORD_START = /[A-Za-z_$]/;
const WORD = /[A-Za-z0-9_$]*/y;

export function scanDeclarations(source: string, options: ScanOptions): ScanResult {
  let out = '';
  const declarations: ScannedDeclaration[] = [];
  let depth = 0;
  let i = 0;
  // Start of the comments kept since the last token, if any: they belong to what follows.
  let leading: number | undefined;

  while (i < source.length) {
    const c = source[i]!;
    if (c === '"' || c === "'" || c === '`') {
      const end = stringEnd(source, i);
      const literal = source.slice(i, end);
      leading = undefined;
      const hidden = options.placeholders?.get(literal.slice(1, -1));
      out += hidden !== undefined ? stringLiteral(hidden) : escapeInvisible(literal);
      i = end;
      continue;
    }
    if (c === '/' && (source[i + 1] === '*' || source[i + 1] === '/')) {
      const block = source[i + 1] === '*';
      const close = block ? source.indexOf('*/', i + 2) : source.indexOf('\n', i);
      const end = close === -1 ? source.length : block ? close + 2 : close;
      if (!options.dropComments) {
        leading ??= out.length;
        const comment = source.slice(i, end).replace(/[ \t]+$/gm, '');
        out += options.placeholders ? comment.replace(/\bmcpgen_key_\d+\b/g, (word) => options.placeholders?.get(word) ?? word) : comment;
        i = end;
        continue;
      }
      // A comment alone on its line goes together with its indentation and line break.
      const indentation = trailingIndentation(out);
      const rest = /^[ \t]*(?:\r?\n|$)/.exec(source.slice(end, end + 200));
      const lineStart = out.length - indentation;
      if (rest && (lineStart === 0 || out[lineStart - 1] === '\n')) {
        out = out.slice(0, lineStart);
        i = end + rest[0].length;
      } else {
        i = end;
      }
      continue;
    }
    if (WORD_START.test(c)) {
      WORD.lastIndex = i + 1;
      WORD.exec(source);
      const word = source.slice(i, WORD.lastIndex);
      if (word === 'export' && depth === 0 && (out.length === 0 || out.endsWith('\n'))) {
        const match = DECLARATION.exec(source.slice(i, i + 300));
        if (match) declarations.push({ kind: match[1]!, name: match[2]!, offset: out.length, leadingOffset: leading ?? out.length });
      }
      leading = undefined;
      const hidden = options.placeholders?.get(word);
      out += hidden !== undefined ? stringLiteral(hidden) : word;
      i = WORD.lastIndex;
      continue;
    }
    if (c === '{' || c === '(' || c === '[') depth++;
    else if (c === '}' || c === ')' || c === ']') depth--;
    if (!/\s/.test(c)) leading = undefined;
    out += c;
    i++;
  }
  return { text: out, declarations };
}

/** How many spaces and tabs end the text. */
function trailingIndentation(text: string): number {
  let n = 0;
  while (n < text.length && (text[text.length - 1 - n] === ' ' || text[text.length - 1 - n] === '\t')) n++;
  return n;
}

/** Offset just past the string literal that starts at `start`. */
function stringEnd(source: string, start: number): number {
  const quote = source[start];
  let i = start + 1;
  while (i < source.length) {
    const ch = source[i];
    if (ch === '\\') i += 2;
    else if (ch === quote) return i + 1;
    else i++;
  }
  return source.length;
}
