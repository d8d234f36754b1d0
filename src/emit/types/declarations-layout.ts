import { prettierString } from '../../printer/prettier-layout.js';
import { typeText, type TypeText } from './type-text.js';

/**
 * json-schema-to-typescript's unformatted declarations (`format: false`: one member a line, no
 * indentation, no semicolons) in prettier's layout, without prettier, for the plain shapes nearly
 * every tool schema gives: interfaces (empty ones too) of members whose types are names, string or
 * integer literals, arrays, tuples and unions (type-text.ts), object types nested in them
 * (`{…} | null` hugged on the member's line, any other union holding one broken one member a
 * line, as prettier prints them), JSDoc comments (of any width and text, which prettier keeps).
 * Anything else (a code line too wide, which prettier would break; a tuple or a union in
 * parentheses that would have to break; intersections, generics, non-ASCII code) gives
 * undefined and the caller formats the unit with prettier. test/types/declarations-layout.test.ts
 * holds it against prettier over every unit of the scale manifest and the test fixtures.
 */

const WIDTH = 100;
const NAME = /^[A-Za-z_$][\w$]*$/;
const KEY = String.raw`(?:[A-Za-z_$][\w$]*|"(?:[^"\\]|\\.)*")`;
const MEMBER = new RegExp(String.raw`^(${KEY})(\??): (.+)$`);
const INDEX = /^\[k: string\]: (.+)$/;
const INTERFACE = /^export interface ([A-Za-z_$][\w$]*) \{(\})?$/;
const ALIAS = /^export type ([A-Za-z_$][\w$]*) = (.+)$/;

/** A type as read: tokens (see TOKEN) and object types, each the members between its braces. */
type Part = string | { members: Member[] };

interface Member {
  /** The inner lines of its JSDoc comment, if it has one. */
  comment?: string[];
  /** `name?`, or `[k: string]`, as prettier prints it. */
  head: string;
  type: Part[];
}

/** The lines read so far and where reading is. */
interface Cursor {
  lines: string[];
  at: number;
}

/** Lines laid out, and which of them are comment lines (exempt from the width check). */
interface Out {
  lines: string[];
  comments: Set<number>;
}

/** The unit as formatUnit would give it (trimmed, one final line feed), or undefined. */
export function declarationsLayout(code: string): string | undefined {
  const cursor: Cursor = { lines: code.trim().split('\n'), at: 0 };
  const out: Out = { lines: [], comments: new Set() };
  while (cursor.at < cursor.lines.length) {
    const line = cursor.lines[cursor.at] as string;
    if (line === '') {
      // Between declarations one blank line stays.
      if (out.lines[out.lines.length - 1] !== '') out.lines.push('');
      cursor.at++;
      continue;
    }
    const comment = readComment(cursor);
    if (comment === null) return undefined;
    if (comment !== undefined) {
      pushComment(out, comment, '');
      continue;
    }
    cursor.at++;
    const declared = INTERFACE.exec(line);
    if (declared) {
      // `{` blank `}`: an interface without members, which prettier closes on its line.
      if (declared[2] === undefined && cursor.lines[cursor.at] === '' && cursor.lines[cursor.at + 1] === '}') {
        out.lines.push(`${line}}`);
        cursor.at += 2;
        continue;
      }
      out.lines.push(line);
      if (declared[2] !== undefined) continue;
      const members = readMembers(cursor);
      if (members === undefined || cursor.lines[cursor.at] !== '}' || !pushMembers(out, members, '  ')) return undefined;
      out.lines.push('}');
      cursor.at++;
      continue;
    }
    const alias = ALIAS.exec(line);
    const type = alias ? readType(alias[2] as string, cursor) : undefined;
    if (alias === null || type === undefined || !pushType(out, `export type ${alias[1]} =`, type, '')) return undefined;
  }
  // Printable ASCII code within the width: the width of every line is then its length.
  for (const [index, line] of out.lines.entries()) {
    if (!out.comments.has(index) && (line.length > WIDTH || !/^[\x20-\x7e]*$/.test(line))) return undefined;
  }
  return `${out.lines.join('\n')}\n`;
}

/** The first line of a top-level declaration in json-schema-to-typescript's output (member lines never start so: a key with a space is quoted). */
const DECLARATION_START = /^export (?:interface|type) [A-Za-z_$]/;

/** One top-level declaration's source (with the JSDoc comment right before it) and whether a blank line came before it. */
export interface DeclarationSource {
  text: string;
  blankBefore: boolean;
}

/**
 * A unit's top-level declarations, each with the comment right before it. prettier formats
 * top-level statements one by one (format.ts batches units on that ground), keeping one blank line
 * where the source has any: a unit the direct layout declines is laid out a declaration at a time,
 * prettier getting only the declarations it declines. Undefined when the unit holds anything else
 * at its top level (a comment of its own, say).
 */
export function splitDeclarations(code: string): DeclarationSource[] | undefined {
  const lines = code.trim().split('\n');
  const starts: number[] = [];
  for (const [i, line] of lines.entries()) {
    if (!DECLARATION_START.test(line)) continue;
    let start = i;
    if (lines[i - 1] === ' */') {
      start = lines.lastIndexOf('/**', i - 1);
      if (start < 0) return undefined;
    }
    starts.push(start);
  }
  if (starts[0] !== 0) return undefined;
  const pieces: DeclarationSource[] = [];
  for (const [n, start] of starts.entries()) {
    const piece = lines.slice(start, starts[n + 1] ?? lines.length);
    let end = piece.length;
    while (end > 0 && piece[end - 1] === '') end--;
    // A comment left at a declaration's end belongs to no declaration: prettier's to place.
    if (piece[end - 1] === ' */') return undefined;
    pieces.push({ text: `${piece.slice(0, end).join('\n')}\n`, blankBefore: n > 0 && lines[start - 1] === '' });
  }
  return pieces;
}

/** A JSDoc comment's inner lines where one starts (the cursor moved past it), undefined where none does, null for one prettier must print. */
function readComment(cursor: Cursor): string[] | null | undefined {
  if (cursor.lines[cursor.at] !== '/**') return undefined;
  const end = cursor.lines.indexOf(' */', cursor.at);
  if (end < 0) return null;
  const inner = cursor.lines.slice(cursor.at + 1, end);
  // `.` stops at a line terminator (\r, U+2028, U+2029): such a comment is prettier's to print.
  if (!inner.every((line) => /^ \*(?: .*)?$/.test(line))) return null;
  cursor.at = end + 1;
  return inner;
}

function pushComment(out: Out, inner: readonly string[], pad: string): void {
  out.lines.push(`${pad}/**`);
  for (const line of inner) {
    out.comments.add(out.lines.length);
    out.lines.push(`${pad} ${line.trim()}`);
  }
  out.lines.push(`${pad} */`);
}

/** The members of a body up to the line that closes it (a line starting with `}`, not read), or undefined. */
function readMembers(cursor: Cursor): Member[] | undefined {
  const members: Member[] = [];
  while (cursor.at < cursor.lines.length && !(cursor.lines[cursor.at] as string).startsWith('}')) {
    const comment = readComment(cursor);
    if (comment === null) return undefined;
    const line = cursor.lines[cursor.at++];
    if (line === undefined) return undefined;
    const index = INDEX.exec(line);
    const member = index ? null : MEMBER.exec(line);
    let head: string;
    if (index) {
      head = '[k: string]';
    } else if (member) {
      const key = keyText(member[1] as string);
      if (key === undefined) return undefined;
      head = `${key}${member[2]}`;
    } else {
      return undefined;
    }
    const type = readType((index ? index[1] : (member as RegExpExecArray)[3]) as string, cursor);
    if (type === undefined) return undefined;
    members.push({ ...(comment === undefined ? {} : { comment }), head, type });
  }
  return members;
}

/** One token of a type: a name, a string or integer literal, a bracket pair, a tuple's bracket, comma or `...`, `&`, a parenthesis, a union bar or an opening brace at the line's end. */
const TOKEN = /\s*(?:("(?:[^"\\]|\\.)*")|(-?\d+)(?![\w.])|([A-Za-z_$][\w$]*)|(\[\]|\.\.\.|[[\],&])|([()])|(\|)|(\{)$)/y;

/**
 * A type starting with `text`: its tokens, string literals in prettier's quotes, and each object
 * type as its members (read from the lines that follow, up to the `}` that closes it, after which
 * the type goes on). Undefined for anything else.
 */
function readType(text: string, cursor: Cursor): Part[] | undefined {
  const parts: Part[] = [];
  let rest = text;
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < rest.length) {
    const start = TOKEN.lastIndex;
    const token = TOKEN.exec(rest);
    if (token === null || token.index !== start) return undefined;
    if (token[1] !== undefined) {
      const literal = prettierString(token[1]);
      if (literal === undefined) return undefined;
      parts.push(literal);
    } else if (token[7] !== undefined) {
      const members = readMembers(cursor);
      const close = cursor.lines[cursor.at++];
      if (members === undefined || close === undefined) return undefined;
      parts.push({ members });
      rest = close.slice(1);
      TOKEN.lastIndex = 0;
    } else {
      parts.push((token[2] ?? token[3] ?? token[4] ?? token[5] ?? token[6]) as string);
    }
  }
  return parts;
}

/** The members of an object type, one after another at `pad`; false when one cannot be laid out. */
function pushMembers(out: Out, members: readonly Member[], pad: string): boolean {
  for (const member of members) {
    if (member.comment !== undefined) pushComment(out, member.comment, pad);
    if (!pushType(out, `${pad}${member.head}:`, member.type, pad)) return false;
  }
  return true;
}

/**
 * `head` and its type, as prettier prints a member's or an alias's type: a type of tokens alone by
 * unionLines; an object type (an array of it) opened on the head's line; a union of one object type
 * and `null`s hugged there too (`{` … `} | null`); any other union holding an object type broken
 * one member a line after a bar, each object's members two further in than its bar's text.
 */
function pushType(out: Out, head: string, parts: readonly Part[], pad: string): boolean {
  if (parts.every((part) => typeof part === 'string')) {
    const type = typeText(parts as string[]);
    const lines = type === undefined ? undefined : unionLines(head, type, pad);
    if (lines === undefined) return false;
    out.lines.push(...lines);
    return true;
  }
  const wrapped = parts[0] === '(' && closing(parts, 0) === parts.length - 1;
  const operands = unionOperands(wrapped ? parts.slice(1, -1) : parts);
  if (operands === undefined) return false;
  const objects = operands.filter((operand) => typeof operand !== 'string');
  // `Name & {…}` is the whole type, or a member of a union in its own parentheses; a lone object type has none.
  const alone = operands.length === 1;
  if (objects.some((o) => (o.base !== undefined && o.parenthesized === alone) || (o.base === undefined && o.parenthesized)) || (wrapped && alone && objects[0]?.base === undefined && objects[0]?.baseUnion === undefined)) return false;
  const hugged = objects.length === 1 && objects[0]?.suffix === '' && objects[0].base === undefined && operands.every((o) => o === 'null' || typeof o !== 'string');
  if (alone || hugged) {
    const at = operands.findIndex((operand) => typeof operand !== 'string');
    const object = operands[at] as ObjectOperand;
    const before = operands.slice(0, at).map((text) => `${text as string} | `).join('');
    const after = operands.slice(at + 1).map((text) => ` | ${text as string}`).join('');
    if (object.baseUnion !== undefined) {
      // `(…broken union…) & {`: the union one member a line inside the parentheses, the object after them.
      out.lines.push(`${head} (`);
      if (!pushBrokenUnion(out, object.baseUnion, pad, '')) return false;
      out.lines.push(`${pad}) & {`);
    } else {
      out.lines.push(`${head} ${before}${object.base === undefined ? '' : `${object.base} & `}{`);
    }
    if (!pushMembers(out, object.members, `${pad}  `)) return false;
    out.lines.push(`${pad}}${object.suffix}${after};`);
    return true;
  }
  out.lines.push(head);
  return pushBrokenUnion(out, operands, pad, ';');
}

/** A union's members one a line after a bar at `pad` + 2, each object's members two further in than its bar's text; `end` after the last. */
function pushBrokenUnion(out: Out, operands: readonly (string | ObjectOperand)[], pad: string, end: string): boolean {
  for (const [i, operand] of operands.entries()) {
    const last = i === operands.length - 1 ? end : '';
    if (typeof operand === 'string') {
      out.lines.push(`${pad}  | ${operand}${last}`);
      continue;
    }
    if (operand.baseUnion !== undefined) return false;
    const intersected = operand.base !== undefined;
    out.lines.push(`${pad}  | ${intersected ? `(${operand.base} & ` : ''}{`);
    if (!pushMembers(out, operand.members, `${pad}      `)) return false;
    out.lines.push(`${pad}    }${operand.suffix}${intersected ? ')' : ''}${last}`);
  }
  return true;
}

/** An object type (with the `[]` of arrays of it, or a name it is intersected with) as one member of a union. */
interface ObjectOperand {
  members: Member[];
  suffix: string;
  /** `Name` of `Name & {…}`. */
  base?: string;
  /** The members of `(A | {…}) & {…}`'s union (one of them an object type, so prettier breaks it). */
  baseUnion?: (string | ObjectOperand)[];
  /** It came in parentheses of its own: `(Name & {…})`. */
  parenthesized: boolean;
}

/** `Name & {…}` or `(A | {…}) & {…}`, or the first in parentheses. */
function intersectionOperand(group: readonly Part[]): ObjectOperand | undefined {
  const parenthesized = group[0] === '(' && closing(group, 0) === group.length - 1;
  const inner = parenthesized ? group.slice(1, -1) : group;
  const object = inner[inner.length - 1];
  if (inner[inner.length - 2] !== '&' || object === undefined || typeof object === 'string') return undefined;
  const base = inner.slice(0, -2);
  const [name] = base;
  if (base.length === 1 && typeof name === 'string' && NAME.test(name)) return { members: object.members, suffix: '', base: name, parenthesized };
  if (parenthesized || base[0] !== '(' || closing(base, 0) !== base.length - 1) return undefined;
  const baseUnion = unionOperands(base.slice(1, -1));
  if (baseUnion === undefined || baseUnion.length < 2 || baseUnion.every((operand) => typeof operand === 'string')) return undefined;
  return { members: object.members, suffix: '', baseUnion, parenthesized: false };
}

/**
 * The members of a union at its top level (one for any other type): each printed as a type of
 * tokens alone (and itself no union), an object type with `[]`s only, or `Name & {…}`; undefined otherwise.
 */
function unionOperands(parts: readonly Part[]): (string | ObjectOperand)[] | undefined {
  const groups: Part[][] = [[]];
  let level = 0;
  for (const part of parts) {
    if (part === '(' || part === '[') level++;
    else if (part === ')' || part === ']') level--;
    if (part === '|' && level === 0) groups.push([]);
    else groups[groups.length - 1]?.push(part);
  }
  const operands: (string | ObjectOperand)[] = [];
  for (const group of groups) {
    const [first, ...rest] = group;
    if (first !== undefined && typeof first !== 'string' && rest.every((part) => part === '[]')) {
      operands.push({ members: first.members, suffix: rest.join(''), parenthesized: false });
      continue;
    }
    const intersection = intersectionOperand(group);
    if (intersection !== undefined) {
      operands.push(intersection);
      continue;
    }
    if (!group.every((part) => typeof part === 'string')) return undefined;
    const type = typeText(group as string[]);
    if (type === undefined) return undefined;
    // A union in parentheses keeps them as a member of another (a line too wide for it is declined later).
    operands.push(type.operands.length === 1 ? type.text : `(${type.text})`);
  }
  return operands;
}

/**
 * `head type;` on one line, or, when that is too wide and the type is a union at its top level,
 * the union on the next line, or each of its members on a line of its own after a bar, as prettier
 * breaks a union (a line still too wide is left for the caller's width check to decline).
 */
function unionLines(head: string, type: TypeText, pad: string): string[] | undefined {
  const line = `${head} ${type.text};`;
  if (line.length <= WIDTH || type.operands.length < 2) return [line];
  // prettier first moves the whole union to the next line, and breaks it only when it is still too wide.
  const moved = `${pad}  ${type.text};`;
  if (moved.length <= WIDTH) return [head, moved];
  const lines = [head];
  for (const [i, operand] of type.operands.entries()) {
    const end = i === type.operands.length - 1 ? ';' : '';
    const line = `${pad}  | ${operand}${end}`;
    const group = type.groups[i];
    // A member that is a union in parentheses, too wide for its line: broken inside them too.
    if (group === undefined || line.length <= WIDTH) lines.push(line);
    else lines.push(`${pad}  | (`, ...group.map((inner) => `${pad}      | ${inner}`), `${pad}    )${end}`);
  }
  return lines;
}

/** A member name as prettier prints it: names bare, other keys single-quoted (never one prettier would unquote). */
function keyText(key: string): string | undefined {
  if (!key.startsWith('"')) return key;
  const value = JSON.parse(key) as string;
  if (NAME.test(value) || /^\d/.test(value) || value === '') return undefined;
  return prettierString(key);
}

/** Index of the parenthesis closing the one at `open`. */
function closing(parts: readonly Part[], open: number): number {
  let depth = 0;
  for (let i = open; i < parts.length; i++) {
    if (parts[i] === '(') depth++;
    else if (parts[i] === ')' && --depth === 0) return i;
  }
  return -1;
}
