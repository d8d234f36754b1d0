/**
 * The one sink for untrusted text that ends up inside generated code. Everything a schema,
 * manifest or live server says passes through here before it touches a file.
 */

/**
 * A string literal for TS/JS source. JSON.stringify escapes C0 controls but leaves U+2028/U+2029,
 * C1 controls, bidi and zero-width characters raw; those are escaped too (same value, visible).
 */
export function stringLiteral(value: string): string {
  return escapeInvisible(JSON.stringify(value));
}

/**
 * Every invisible, direction-changing or line-separating character of code another tool printed
 * (json-schema-to-typescript, ajv) as a `\uXXXX` escape. In generated code such characters can only
 * stand in string, template or regex literals, where the escape means the same character, or in
 * comments, where it shows what was there. CR is left alone: it only ever ends a line.
 */
export function escapeInvisible(code: string): string {
  return code.replace(INVISIBLE_IN_CODE, visibleEscape);
}

/**
 * A value embedded as `JSON.parse("…")`, never as an object literal: an object literal would turn a
 * `"__proto__"` key into a prototype change, and parsing is also faster for large constants.
 */
export function jsonValueExpression(value: unknown): string {
  return `JSON.parse(${stringLiteral(JSON.stringify(value))})`;
}

/**
 * Characters that must never reach a comment or a terminal raw: C0 and C1 controls (NUL included,
 * tab and line feed excepted), DEL, bidirectional overrides, embeddings, isolates and marks (the
 * "Trojan Source" class: code that reads differently from what the compiler sees), zero-width
 * characters and the BOM, and the line/paragraph separators.
 */
const INVISIBLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;
const INVISIBLE_IN_CODE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;

/** `\u202E`: a code unit written out visibly, in a form that is also a valid JSON/JS escape. */
function visibleEscape(ch: string): string {
  return `\\u${ch.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * Words that make a comment act on the tools reading the file: TypeScript's `@ts-ignore`,
 * `@ts-nocheck`, `@ts-expect-error`, `@ts-check` and the `@jsx…` pragmas (honoured anywhere in a
 * line), and lines that start like a triple-slash directive or a linter/coverage switch. Their
 * leading character is replaced or escaped, so the text stays readable but inert.
 */
const PRAGMA = /@(?=ts-|jsx)/gi;
const DIRECTIVE_LINE = /^([\s*]*)(\/\/\/|<reference|<amd-|eslint-|prettier-ignore|istanbul |c8 |v8 |jshint|jscs|tslint:)/i;

/**
 * THE sink for untrusted text inside a block comment of generated or skeleton code: no `*\/`
 * terminator, no line breaks the TS scanner honours other than `\n`, no invisible or
 * direction-changing characters (written as `\uXXXX`), and no directive a tool would obey.
 */
export function commentText(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[\u2028\u2029]/g, '\n')
    .replace(INVISIBLE, visibleEscape)
    .replace(/\*\//g, '*\\/')
    .replace(PRAGMA, '\uFF20')
    .split('\n')
    .map((line) => line.replace(DIRECTIVE_LINE, '$1\\$2'))
    .join('\n');
}

/**
 * THE sink for text printed to a terminal (diagnostics, reports, `--debug-ir`): every control,
 * bidi and zero-width character but line feed and tab becomes a visible `\uXXXX`, so input can
 * neither hide nor reorder what the user reads, nor send escape sequences to the terminal.
 */
export function terminalText(text: string): string {
  return text.replace(INVISIBLE, visibleEscape);
}

/**
 * THE sink for untrusted text in an HTML page (`mcp-gen docs`): markup characters become entities,
 * so text stays text in element content and in quoted attribute values alike, and invisible or
 * direction-changing characters become a visible `\uXXXX`, as in a terminal.
 */
export function htmlText(text: string): string {
  return terminalText(text).replace(/[&<>"']/g, (ch) => HTML_ENTITIES[ch] as string);
}

const HTML_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * A `/** … *\/` block. Returns '' when there is nothing to say, so callers can always prepend it.
 * Lines are trimmed at the end; empty leading and trailing lines are dropped.
 */
export function jsdoc(text: string | readonly string[], indent = ''): string {
  const raw = typeof text === 'string' ? text : text.join('\n');
  const lines = commentText(raw)
    .split('\n')
    .map((line) => line.trimEnd());
  while (lines.length > 0 && lines[0] === '') lines.shift();
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  if (lines.length === 0) return '';
  if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`;
  const body = lines.map((line) => (line === '' ? `${indent} *` : `${indent} * ${line}`)).join('\n');
  return `${indent}/**\n${body}\n${indent} */\n`;
}

/**
 * THE sink for untrusted text in Markdown prose (the README of `mcp-gen client --package`): as in
 * HTML, plus a backslash before every character Markdown gives a meaning (links, images, emphasis,
 * code spans, headings, tables), and one line, so text cannot start a block of its own.
 */
export function markdownText(text: string): string {
  return htmlText(text.replace(/\s+/g, ' ').trim()).replace(/[\\`*_[\]()#!|~]/g, '\\$&');
}

/** A fenced code block whose fence is longer than any run of backticks in the code, so it cannot be closed early. */
export function markdownCodeBlock(code: string, language: string): string {
  const longest = Math.max(0, ...[...code.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${language}\n${escapeInvisible(code)}\n${fence}\n`;
}
