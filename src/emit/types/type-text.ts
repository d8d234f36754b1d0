/**
 * A type of json-schema-to-typescript's declarations, given as tokens (names, literals in
 * prettier's quotes, `(`, `)`, `|`, `[]`, `[`, `]`, `,`, `...`), printed flat as prettier prints
 * it: parentheses around a lone type dropped (`("patch")[]` → `'patch'[]`), kept around a union
 * or an intersection that is an array's element or a member of another union, dropped around the
 * whole type and a tuple's element; tuples as `[a, ...b[]]`. Undefined for any other token or
 * shape (generics, object types: declarations-layout.ts handles those or declines).
 */

export interface TypeText {
  /** The type on one line. */
  text: string;
  /** The members of a union at the type's top level, as printed; one (the text) for any other type. */
  operands: string[];
  /** For each top-level member that is itself a union in parentheses, its members as printed (prettier breaks those its own way). */
  groups: (string[] | undefined)[];
}

/** One member of a union: its text, and the members it is a union of when it is one in parentheses, or whether it is an intersection. */
interface Operand {
  text: string;
  group?: Operand[];
  intersection?: true;
}

interface Reader {
  tokens: readonly string[];
  at: number;
}

export function typeText(tokens: readonly string[]): TypeText | undefined {
  const reader: Reader = { tokens, at: 0 };
  let operands = readUnion(reader);
  if (operands === undefined || reader.at !== tokens.length) return undefined;
  // `(a | b)` as the whole type: prettier drops those parentheses.
  while (operands.length === 1 && operands[0]?.group !== undefined) operands = operands[0].group;
  const printed = unionText(operands);
  return { text: printed.join(' | '), operands: printed, groups: operands.map((o) => (o.group === undefined ? undefined : o.group.map(memberText))) };
}

/** A member as a union, an intersection or an array prints it: in parentheses when it is a union or an intersection itself. */
function memberText(operand: Operand): string {
  return operand.group === undefined && operand.intersection === undefined ? operand.text : `(${operand.text})`;
}

/** A union's members as printed; a lone one (an intersection, say) needs no parentheses. */
function unionText(operands: readonly Operand[]): string[] {
  return operands.length === 1 ? [(operands[0] as Operand).text] : operands.map(memberText);
}

function readUnion(reader: Reader): Operand[] | undefined {
  const operands: Operand[] = [];
  do {
    const operand = readIntersection(reader);
    if (operand === undefined) return undefined;
    operands.push(operand);
  } while (reader.tokens[reader.at] === '|' && ++reader.at);
  return operands;
}

function readIntersection(reader: Reader): Operand | undefined {
  const members: Operand[] = [];
  do {
    const member = readPostfix(reader);
    if (member === undefined) return undefined;
    members.push(member);
  } while (reader.tokens[reader.at] === '&' && ++reader.at);
  return members.length === 1 ? members[0] : { text: members.map(memberText).join(' & '), intersection: true };
}

/** A type and the `[]`s after it. */
function readPostfix(reader: Reader): Operand | undefined {
  const primary = readPrimary(reader);
  if (primary === undefined) return undefined;
  let arrays = '';
  while (reader.tokens[reader.at] === '[]') {
    arrays += '[]';
    reader.at++;
  }
  return arrays === '' ? primary : { text: `${memberText(primary)}${arrays}` };
}

const PUNCTUATION = new Set(['(', ')', '|', '&', '[', ']', ',', '...']);

function readPrimary(reader: Reader): Operand | undefined {
  const token = reader.tokens[reader.at++];
  if (token === undefined) return undefined;
  if (token === '(') {
    const inner = readUnion(reader);
    if (inner === undefined || reader.tokens[reader.at++] !== ')') return undefined;
    // A lone type in parentheses is printed without them.
    if (inner.length === 1) return inner[0];
    return { text: inner.map(memberText).join(' | '), group: inner };
  }
  if (token === '[') return readTuple(reader);
  // In a type's first place `[]` is the empty tuple.
  if (token === '[]') return { text: '[]' };
  return PUNCTUATION.has(token) ? undefined : { text: token };
}

/** `[a, b, ...c[]]` after its `[`: each element without parentheses around it, a rest element's type as it is. */
function readTuple(reader: Reader): Operand | undefined {
  const elements: string[] = [];
  for (;;) {
    let element: string | undefined;
    if (reader.tokens[reader.at] === '...') {
      reader.at++;
      const rest = readPostfix(reader);
      element = rest === undefined || rest.group !== undefined ? undefined : `...${rest.text}`;
    } else {
      let union = readUnion(reader);
      while (union?.length === 1 && union[0]?.group !== undefined) union = union[0].group;
      element = union === undefined ? undefined : unionText(union).join(' | ');
    }
    if (element === undefined) return undefined;
    elements.push(element);
    const next = reader.tokens[reader.at++];
    if (next === ']') return { text: `[${elements.join(', ')}]` };
    if (next !== ',') return undefined;
  }
}
