/**
 * The one sink for untrusted text that ends up inside generated code. Everything a schema,
 * manifest or live server says passes through here before it touches a file.
 */

/** A string literal for TS/JS source. JSON.stringify leaves U+2028/U+2029 raw; escape them too. */
export function stringLiteral(value: string): string {
  return escapeLineSeparators(JSON.stringify(value));
}

/** U+2028/U+2029 as escapes, also for string literals another tool printed with JSON.stringify. */
export function escapeLineSeparators(code: string): string {
  return code.replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/**
 * A value embedded as `JSON.parse("…")`, never as an object literal: an object literal would turn a
 * `"__proto__"` key into a prototype change, and parsing is also faster for large constants.
 */
export function jsonValueExpression(value: unknown): string {
  return `JSON.parse(${stringLiteral(JSON.stringify(value))})`;
}

/** Text safe inside a block comment: no `*\/` terminator, no line breaks the TS scanner honours. */
export function commentText(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[\u2028\u2029]/g, '\n')
    .replace(/\*\//g, '*\\/');
}

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
