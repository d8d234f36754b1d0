import { PRETTIER_OPTIONS } from './prettier-options.js';

/**
 * Printing a few fixed shapes of code directly in prettier's layout, so the thousand small units of
 * a large server do not each go through prettier's parser and printer, the costly part. Every
 * function here either returns exactly the bytes prettier would print, or `undefined` when the
 * input is outside the cases it knows (non-ASCII text, whose width prettier measures its own way;
 * a line that would need breaking in a way not covered), and the caller falls back to prettier.
 * test/printer/prettier-layout.test.ts holds each against prettier over widths around every break.
 */

const WIDTH = PRETTIER_OPTIONS.printWidth;
/** Printable ASCII and line feeds: text whose width is its length. */
const PLAIN = /^[\x20-\x7e\n]*$/;

/** Every line of `text` printable ASCII and within the print width. */
export function fitsPlain(text: string): boolean {
  if (!PLAIN.test(text)) return false;
  for (const line of text.split('\n')) if (line.length > WIDTH) return false;
  return true;
}

/**
 * A string literal as prettier prints it with `singleQuote`: single quotes unless the text holds
 * more single than double quotes, the quote that encloses escaped and the other one unescaped,
 * every other escape kept. `literal` is a double-quoted JavaScript string literal (what
 * `stringLiteral` or `JSON.stringify` writes). `undefined` for non-ASCII text.
 */
export function prettierString(literal: string): string | undefined {
  if (!PLAIN.test(literal) || literal.length < 2 || literal[0] !== '"') return undefined;
  const raw = literal.slice(1, -1);
  // Most text has no single quote: then the doubles need no counting.
  const singles = count(raw, "'");
  const quote = singles > 0 && singles > count(raw, '"') ? '"' : "'";
  // The common case, whole strings at a time (a large server's tools/list entries are megabytes):
  // only escapes a JSON string has (`\'` is not one), so every `"` is escaped and no `'` is.
  if (!/\\[^"\\bfnrtu]/.test(raw)) return quote === '"' ? literal : `'${raw.replaceAll('\\"', '"').replaceAll("'", "\\'")}'`;
  const other = quote === '"' ? "'" : '"';
  const body = raw.replace(/\\(.)|(["'])/gs, (whole, escaped: string | undefined, bare: string | undefined) => {
    if (escaped === other) return escaped;
    if (bare === quote) return `\\${bare}`;
    if (bare !== undefined) return bare;
    // prettier drops a backslash that escapes nothing.
    return /^[^\n\r"'0-7\\bfnrt-vx\u2028\u2029]$/.test(escaped as string) ? (escaped as string) : whole;
  });
  return `${quote}${body}${quote}`;
}

function count(text: string, ch: string): number {
  let n = 0;
  for (let i = text.indexOf(ch); i >= 0; i = text.indexOf(ch, i + 1)) n++;
  return n;
}

/**
 * `line` (one member or statement, already spaced as prettier spaces it) with each double-quoted
 * string literal in prettier's quotes, if the result is plain and fits on one line; else undefined.
 */
export function flatLine(line: string): string | undefined {
  if (!PLAIN.test(line) || line.includes('\n')) return undefined;
  if (!line.includes('"')) return line.length > WIDTH ? undefined : line;
  let failed = false;
  const quoted = line.replace(/"(?:[^"\\]|\\.)*"/g, (literal) => {
    const printed = prettierString(literal);
    if (printed === undefined) failed = true;
    return printed ?? literal;
  });
  if (failed || quoted.length > WIDTH) return undefined;
  return quoted;
}

/** What a server tool statement is made of (server-file.ts): each string as source, double-quoted. */
export interface ToolStatementParts {
  constant: string;
  /** The `tools/list` entry as a double-quoted literal of its JSON. */
  wireLiteral: string;
  nameLiteral: string;
  moduleLiteral: string;
  /** Members stating facts of the entry, as printed (`taskSupport: 'optional'`, `objectOutput: false`). */
  facts: readonly string[];
  /** `validateInput: m.X`, and `validateOutput: m.Y` when the tool has one. */
  exports: readonly string[];
}

/** The statement as source, unformatted: what prettier gets for the shapes toolStatementLayout does not know. */
export function toolStatementSource(parts: ToolStatementParts): string {
  const load = `() => import(${parts.moduleLiteral}).then((m) => ({ ${parts.exports.join(', ')} }))`;
  const facts = parts.facts.map((fact) => `  ${fact},\n`).join('');
  return `const ${parts.constant}: ToolText = {\n  name: ${parts.nameLiteral},\n  text: ${parts.wireLiteral},\n${facts}  load: ${load},\n};\n`;
}

/**
 * `const tool_x: ToolText = { name, text: '…', …facts, load };` in prettier's layout for the
 * widths where it is one of the common shapes; undefined otherwise. `name` and `text` are keys
 * short enough that prettier never breaks after them: a long string stays on its key's line.
 */
export function toolStatementLayout(parts: ToolStatementParts): string | undefined {
  const wire = prettierString(parts.wireLiteral);
  const name = prettierString(parts.nameLiteral);
  const module = prettierString(parts.moduleLiteral);
  if (wire === undefined || name === undefined || module === undefined) return undefined;
  const head = `const ${parts.constant}: ToolText = {`;
  if (!fitsPlain(head) || !PLAIN.test(parts.exports.join(''))) return undefined;
  const facts = parts.facts.map((fact) => `  ${fact},`);
  if (!facts.every(fitsPlain)) return undefined;

  const call = `import(${module}).then((m) => ({ ${parts.exports.join(', ')} }))`;
  const loadFlat = `  load: () => ${call},`;
  const bodyFlat = `    ${call},`;
  const bodyOpen = `    import(${module}).then((m) => ({`;
  const members = parts.exports.map((e) => `      ${e},`);
  let loadLines: string[];
  if (loadFlat.length <= WIDTH) loadLines = [loadFlat];
  else if (bodyFlat.length <= WIDTH) loadLines = ['  load: () =>', bodyFlat];
  else if (bodyOpen.length <= WIDTH && members.every((m) => m.length <= WIDTH)) loadLines = ['  load: () =>', bodyOpen, ...members, '    })),'];
  else return undefined;
  return [head, `  name: ${name},`, `  text: ${wire},`, ...facts, ...loadLines, '};', ''].join('\n');
}
