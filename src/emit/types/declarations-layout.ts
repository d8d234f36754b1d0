import { prettierString } from '../../printer/prettier-layout.js';

/**
 * json-schema-to-typescript's unformatted declarations (`format: false`: one member a line, no
 * indentation, no semicolons) in prettier's layout, without prettier, for the plain shapes nearly
 * every tool schema gives: interfaces of members whose types are names, string or integer
 * literals, arrays and unions, nested object types, JSDoc comments (of any width and text, which
 * prettier keeps). Anything else (a code line too wide, which prettier would break; tuples,
 * intersections, generics, non-ASCII code) gives
 * undefined and the caller formats the unit with prettier. test/types/declarations-layout.test.ts
 * holds it against prettier over every unit of the scale manifest and the test fixtures.
 */

const WIDTH = 100;
const NAME = /^[A-Za-z_$][\w$]*$/;
const KEY = String.raw`(?:[A-Za-z_$][\w$]*|"(?:[^"\\]|\\.)*")`;
const MEMBER = new RegExp(String.raw`^(${KEY})(\??): (.+)$`);
const INDEX = /^\[k: string\]: (.+)$/;
const CLOSE = /^\}((?:\[\])*)$/;
const INTERFACE = /^export interface ([A-Za-z_$][\w$]*) \{(\})?$/;
const ALIAS = /^export type ([A-Za-z_$][\w$]*) = (.+)$/;

/** The unit as formatUnit would give it (trimmed, one final line feed), or undefined. */
export function declarationsLayout(code: string): string | undefined {
  const lines = code.trim().split('\n');
  const out: string[] = [];
  // Lines of JSDoc comments: prettier prints them as they are however wide, whatever their characters.
  const comments = new Set<number>();
  let depth = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const pad = '  '.repeat(depth);
    if (line === '') {
      // Between declarations one blank line stays; inside a body there are none to keep.
      if (depth !== 0) return undefined;
      if (out[out.length - 1] !== '') out.push('');
      continue;
    }
    if (line === '/**') {
      const end = lines.indexOf(' */', i);
      if (end < 0) return undefined;
      out.push(`${pad}/**`);
      for (const inner of lines.slice(i + 1, end)) {
        // `.` stops at a line terminator (\r, U+2028, U+2029): such a comment is prettier's to print.
        if (!/^ \*(?: .*)?$/.test(inner)) return undefined;
        comments.add(out.length);
        out.push(`${pad} ${inner.trim()}`);
      }
      out.push(`${pad} */`);
      i = end;
      continue;
    }
    if (depth === 0) {
      const declared = INTERFACE.exec(line);
      if (declared) {
        out.push(line);
        if (declared[2] === undefined) depth = 1;
        continue;
      }
      const alias = ALIAS.exec(line);
      const type = alias ? typeText(alias[2] as string) : undefined;
      if (alias === null || type === undefined) return undefined;
      out.push(...unionLines(`export type ${alias[1]} =`, type, ''));
      continue;
    }
    const close = CLOSE.exec(line);
    if (close) {
      depth--;
      if (depth === 0) {
        if (close[1] !== '') return undefined;
        out.push('}');
      } else {
        out.push(`${'  '.repeat(depth)}}${close[1]};`);
      }
      continue;
    }
    const index = INDEX.exec(line);
    const member = index ? null : MEMBER.exec(line);
    let head: string;
    let rest: string;
    if (index) {
      head = '[k: string]';
      rest = index[1] as string;
    } else if (member) {
      const key = keyText(member[1] as string);
      if (key === undefined) return undefined;
      head = `${key}${member[2]}`;
      rest = member[3] as string;
    } else {
      return undefined;
    }
    if (rest === '{') {
      out.push(`${pad}${head}: {`);
      depth++;
      continue;
    }
    const type = typeText(rest);
    if (type === undefined) return undefined;
    out.push(...unionLines(`${pad}${head}:`, type, pad));
  }
  if (depth !== 0) return undefined;
  // Printable ASCII code within the width: the width of every line is then its length.
  for (const [index, line] of out.entries()) if (!comments.has(index) && (line.length > WIDTH || !/^[\x20-\x7e]*$/.test(line))) return undefined;
  return `${out.join('\n')}\n`;
}

/**
 * `head type;` on one line, or, when that is too wide and the type is a union at its top level,
 * the union on the next line, or each of its members on a line of its own after a bar, as prettier
 * breaks a union (a line still too wide is left for the caller's width check to decline).
 */
function unionLines(head: string, type: TypeText, pad: string): string[] {
  const line = `${head} ${type.text};`;
  if (line.length <= WIDTH || type.operands.length < 2) return [line];
  // prettier first moves the whole union to the next line, and breaks it only when it is still too wide.
  const moved = `${pad}  ${type.text};`;
  if (moved.length <= WIDTH) return [head, moved];
  const last = type.operands.length - 1;
  return [head, ...type.operands.map((operand, i) => `${pad}  | ${operand}${i === last ? ';' : ''}`)];
}

/** A member name as prettier prints it: names bare, other keys single-quoted (never one prettier would unquote). */
function keyText(key: string): string | undefined {
  if (!key.startsWith('"')) return key;
  const value = JSON.parse(key) as string;
  if (NAME.test(value) || /^\d/.test(value) || value === '') return undefined;
  return prettierString(key);
}

/** One token of a type: a name, a string or integer literal, a bracket pair, a parenthesis or a union bar. */
const TOKEN = /\s*(?:("(?:[^"\\]|\\.)*")|(-?\d+)(?![\w.])|([A-Za-z_$][\w$]*)|(\[\])|([()])|(\|))/y;

/**
 * A member's type as prettier prints it: string literals in its quotes, the parentheses around a
 * whole union dropped (prettier's own), every other parenthesis around a union kept (they are
 * needed: `(a | b)[]`). Undefined for anything but names, literals, arrays, unions and such parens.
 */
interface TypeText {
  text: string;
  /** The members of a union at the type's top level, as printed; one (the text) for any other type. */
  operands: string[];
}

function typeText(type: string): TypeText | undefined {
  const parts: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < type.length) {
    const start = TOKEN.lastIndex;
    const token = TOKEN.exec(type);
    if (token === null || token.index !== start) return undefined;
    if (token[1] !== undefined) {
      const literal = prettierString(token[1]);
      if (literal === undefined) return undefined;
      parts.push(literal);
    } else {
      parts.push((token[2] ?? token[3] ?? token[4] ?? token[5] ?? token[6]) as string);
    }
  }
  if (!parenthesesAroundUnionsOnly(parts)) return undefined;
  // `(a | b)` as the whole type: prettier drops those parentheses.
  const whole = parts[0] === '(' && closing(parts, 0) === parts.length - 1 ? parts.slice(1, -1) : parts;
  const operands: string[] = [''];
  let level = 0;
  for (const part of whole) {
    if (part === '(') level++;
    else if (part === ')') level--;
    if (part === '|' && level === 0) operands.push('');
    else operands[operands.length - 1] += part === '|' ? ' | ' : part;
  }
  return { text: whole.map((part) => (part === '|' ? ' | ' : part)).join(''), operands };
}

/** Index of the parenthesis closing the one at `open`. */
function closing(parts: readonly string[], open: number): number {
  let depth = 0;
  for (let i = open; i < parts.length; i++) {
    if (parts[i] === '(') depth++;
    else if (parts[i] === ')' && --depth === 0) return i;
  }
  return -1;
}

/**
 * Every parenthesized group holds a union at its own level and is an array's element type or the
 * whole type (a parenthesized lone name, or a union nested right inside another, prettier would
 * unwrap), and the union bars sit between operands.
 */
function parenthesesAroundUnionsOnly(parts: readonly string[]): boolean {
  let expectOperand = true;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as string;
    if (part === '(') {
      if (!expectOperand) return false;
      const end = closing(parts, i);
      if (end < 0) return false;
      const inner = parts.slice(i + 1, end);
      let level = 0;
      let bars = 0;
      for (const p of inner) {
        if (p === '(') level++;
        else if (p === ')') level--;
        else if (p === '|' && level === 0) bars++;
      }
      if (bars === 0 || inner[0] === '(' || !parenthesesAroundUnionsOnly(inner)) return false;
      const after = parts[end + 1];
      // Only `(a | b)[]`, or the whole type (whose parentheses prettier drops).
      if (!(after === '[]' || (after === undefined && i === 0))) return false;
      i = end;
      expectOperand = false;
    } else if (part === '|') {
      if (expectOperand) return false;
      expectOperand = true;
    } else if (part === '[]') {
      if (expectOperand) return false;
    } else if (part === ')') {
      return false;
    } else {
      if (!expectOperand) return false;
      expectOperand = false;
    }
  }
  return !expectOperand;
}
