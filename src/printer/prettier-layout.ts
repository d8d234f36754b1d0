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
 * `stringLiteral` or `JSON.stringify` writes). `undefined` for non-ASCII text, unless `anyWidth`:
 * prettier keeps every character as it is, only its width is its own (for a literal that stays on
 * its line whatever its width).
 */
export function prettierString(literal: string, anyWidth = false): string | undefined {
  if ((!anyWidth && !PLAIN.test(literal)) || literal.length < 2 || literal[0] !== '"') return undefined;
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
  const quoted = quotedLine(line);
  return quoted === undefined || quoted.length > WIDTH ? undefined : quoted;
}

/** `line` with each double-quoted string literal in prettier's quotes, if plain and one line, however wide. */
export function quotedLine(line: string): string | undefined {
  if (!PLAIN.test(line) || line.includes('\n')) return undefined;
  if (!line.includes('"')) return line;
  let failed = false;
  const quoted = line.replace(/"(?:[^"\\]|\\.)*"/g, (literal) => {
    const printed = prettierString(literal);
    if (printed === undefined) failed = true;
    return printed ?? literal;
  });
  return failed ? undefined : quoted;
}

/** A property key as prettier prints it in a member: an identifier, or a quoted string. */
const KEY = String.raw`(?:[A-Za-z_$][\w$]*|'[^'\\]*')`;
/** A type written as a name: `Foo`, `T.Foo`. */
const TYPE_NAME = String.raw`[A-Za-z_$][\w$.]*`;
/** `  key: { a: A; b: B };`, the members simple names. */
const OBJECT_MEMBER = new RegExp(String.raw`^  (${KEY}): \{ ((?:[A-Za-z_$][\w$]*\??: ${TYPE_NAME}; )*[A-Za-z_$][\w$]*\??: ${TYPE_NAME}) \};$`);
/** `  key: Generic<A, B>;` */
const GENERIC_MEMBER = new RegExp(String.raw`^  (${KEY}): (${TYPE_NAME})<(${TYPE_NAME}), (${TYPE_NAME})>;$`);

/**
 * One interface member line (`  key: Type;`, spaced as prettier spaces it) in prettier's layout:
 * on its line when it fits (flatLine), else broken where prettier breaks the two shapes a large
 * server's `Tools` and `ToolHandlers` entries have (an object type of named types, one member a
 * line; a generic of two named types, one argument a line); undefined for anything else.
 */
export function memberLines(line: string): string | undefined {
  const quoted = quotedLine(line);
  if (quoted === undefined) return undefined;
  if (quoted.length <= WIDTH) return quoted;
  const fits = (lines: string[]): string | undefined => (lines.every((l) => l.length <= WIDTH) ? lines.join('\n') : undefined);
  const object = OBJECT_MEMBER.exec(quoted);
  if (object) {
    const members = (object[2] as string).split('; ').map((m) => `    ${m};`);
    return fits([`  ${object[1]}: {`, ...members, '  };']);
  }
  const generic = GENERIC_MEMBER.exec(quoted);
  if (generic) return fits([`  ${generic[1]}: ${generic[2]}<`, `    ${generic[3]},`, `    ${generic[4]}`, '  >;']);
  return undefined;
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
  // The text stays on its key's line at any width, so its characters need not be ASCII.
  // A text named in tool-definitions.ts (server-file.ts) is an expression, not a literal.
  const wire = parts.wireLiteral.startsWith('"') ? prettierString(parts.wireLiteral, true) : fitsPlain(`  text: ${parts.wireLiteral},`) ? parts.wireLiteral : undefined;
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
  else {
    // A module path too long for that too: the arrow goes on a line of its own within `.then(`.
    const then = `    import(${module}).then(`;
    const arrowFlat = `      (m) => ({ ${parts.exports.join(', ')} }),`;
    const arrowMembers = parts.exports.map((e) => `        ${e},`);
    if (then.length > WIDTH) return undefined;
    if (arrowFlat.length <= WIDTH) loadLines = ['  load: () =>', then, arrowFlat, '    ),'];
    else if (arrowMembers.every((m) => m.length <= WIDTH)) loadLines = ['  load: () =>', then, '      (m) => ({', ...arrowMembers, '      }),', '    ),'];
    else return undefined;
  }
  return [head, `  name: ${name},`, `  text: ${wire},`, ...facts, ...loadLines, '};', ''].join('\n');
}
