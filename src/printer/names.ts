import { stringLiteral } from './escape.js';

/**
 * Identifier assignment: one deterministic pass over wire names sorted by code unit, against a
 * reserved-word table, with a collision suffix that input can never produce.
 */

/** ES reserved words, strict-mode words, TS type keywords, and globals a generated file must not shadow. */
const RESERVED = new Set([
  'break', 'case', 'catch', 'class', 'const', 'continue', 'debugger', 'default', 'delete', 'do',
  'else', 'enum', 'export', 'extends', 'false', 'finally', 'for', 'function', 'if', 'import', 'in',
  'instanceof', 'new', 'null', 'return', 'super', 'switch', 'this', 'throw', 'true', 'try',
  'typeof', 'var', 'void', 'while', 'with', 'yield', 'let', 'static', 'implements', 'interface',
  'package', 'private', 'protected', 'public', 'await', 'async', 'arguments', 'eval', 'any',
  'boolean', 'never', 'number', 'object', 'string', 'symbol', 'undefined', 'unknown', 'bigint',
  'type', 'declare', 'namespace', 'module', 'readonly', 'keyof', 'infer', 'is', 'asserts', 'as',
  'satisfies', 'of', 'constructor', 'prototype', '__proto__', 'Object', 'Array', 'String', 'Number',
  'Boolean', 'Symbol', 'Promise', 'Error', 'JSON', 'Math', 'Date', 'Record', 'Partial', 'Required',
  'Readonly', 'Pick', 'Omit', 'Function', 'globalThis', 'NaN', 'Infinity',
  // A `then` export or member makes a module namespace or object thenable: `await import(…)` and
  // `await connect()` would call it.
  'then',
]);

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** True when `name` can be written as a bare identifier (and is not reserved). */
export function isSafeIdentifier(name: string): boolean {
  return IDENTIFIER.test(name) && !RESERVED.has(name);
}

/** Orders strings by UTF-16 code unit: the same everywhere, whatever the locale. */
export function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * A property name for an object literal or type written from a wire name. `__proto__` is computed,
 * since in an object literal a plain or quoted `__proto__` key sets the prototype instead.
 */
export function propertyKey(wire: string): string {
  if (wire === '__proto__') return `[${stringLiteral(wire)}]`;
  return IDENTIFIER.test(wire) ? wire : stringLiteral(wire);
}

/**
 * Splits a wire name into alphanumeric words, also at lower→upper case changes. Accented letters
 * keep their base letter (`résumé` → `resume`): NFD splits them into letter + combining mark, and
 * the marks go. Other non-ASCII characters separate words.
 */
function words(wire: string): string[] {
  return wire
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== '');
}

/** `get_weather` → `GetWeather`; never contains `_` except a leading one before a digit. */
export function pascalCase(wire: string): string {
  const joined = words(wire)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');
  if (joined === '') return 'X';
  return /^[0-9]/.test(joined) ? `_${joined}` : joined;
}

/** `get_weather` → `getWeather`. */
export function camelCase(wire: string): string {
  return camelFromPascal(pascalCase(wire));
}

function camelFromPascal(pascal: string): string {
  if (pascal.startsWith('_')) return pascal;
  const camel = pascal.charAt(0).toLowerCase() + pascal.slice(1);
  return RESERVED.has(camel) ? `${camel}_` : camel;
}

export interface AssignedName {
  wire: string;
  pascal: string;
  camel: string;
  /** Set when the natural name was taken and a suffix was added; the message explains it. */
  renamedBecause?: string;
}

/**
 * Gives each wire name a PascalCase and camelCase identifier, unique even case-insensitively
 * (the camel form also names files, and some file systems ignore case). Names are processed in
 * sorted order so that adding a tool never renames another that sorts before it. A clash gets
 * `_2`, `_3`, … — converted names never contain `_` elsewhere than at the start, so the suffix
 * cannot collide with another input.
 */
export function assignNames(wireNames: readonly string[], taken: readonly string[] = []): Map<string, AssignedName> {
  const used = new Set(taken.map((t) => t.toLowerCase()));
  const result = new Map<string, AssignedName>();
  const sorted = [...new Set(wireNames)].sort(byCodeUnit);
  for (const wire of sorted) {
    const base = pascalCase(wire);
    let pascal = base;
    let n = 1;
    while (used.has(pascal.toLowerCase()) || RESERVED.has(pascal)) {
      n += 1;
      pascal = `${base}_${n}`;
    }
    used.add(pascal.toLowerCase());
    const entry: AssignedName = { wire, pascal, camel: camelFromPascal(pascal) };
    if (pascal !== base) {
      const other = sorted.find((w) => w !== wire && pascalCase(w).toLowerCase() === base.toLowerCase());
      entry.renamedBecause = `'${wire}' would be named ${base}, like '${other ?? base}'; it is named ${pascal} instead`;
    }
    result.set(wire, entry);
  }
  return result;
}
