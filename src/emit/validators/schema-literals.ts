import { jsonValueExpression } from '../../printer/escape.js';

/**
 * ajv's schema literals in its standalone code (`const schema12 = {…};`): the schema values its
 * code reads at run time (a `type` list for an error's params, an `enum` to look through). ajv
 * declares one for every schema it compiled, whole, though its code reads a few paths of it.
 */

/**
 * Rewrites ajv's schema declarations (`const schema12 = {…};`). `edit` gets the name and the
 * literal and returns the text that replaces the declaration (its `;` and line end included), or
 * undefined to keep it. A declaration starts a statement; the same text inside a string literal
 * would have its quotes escaped, so it is never taken for one.
 */
function rewriteSchemaDeclarations(code: string, edit: (name: string, literal: string) => string | undefined): string {
  const declaration = /(^|[;\n])const (schema\d+) = (?=[[{])/g;
  let out = '';
  let from = 0;
  for (let m = declaration.exec(code); m !== null; m = declaration.exec(code)) {
    const start = m.index + m[0].length;
    let end = endOfJson(code, start);
    declaration.lastIndex = end;
    const replacement = edit(m[2] as string, code.slice(start, end));
    if (replacement === undefined) continue;
    if (code[end] === ';') end += code[end + 1] === '\n' ? 2 : 1;
    out += code.slice(from, m.index + (m[1] as string).length) + replacement;
    from = end;
  }
  return out + code.slice(from);
}

/**
 * ajv embeds schema values as object literals (`const schema12 = {…};`), and in a literal a
 * `"__proto__"` key sets the prototype instead of making a property. Such literals become
 * `JSON.parse("…")`, which keeps the key as data. Anything that does not parse is refused rather
 * than guessed at.
 */
export function protectProtoKeys(code: string): string {
  if (!code.includes('"__proto__"')) return code;
  return rewriteSchemaDeclarations(code, (name, literal) => {
    if (!literal.includes('"__proto__"')) return undefined;
    let value: unknown;
    try {
      value = JSON.parse(literal);
    } catch {
      throw new Error('emitValidators: cannot isolate a schema literal in ajv output');
    }
    return `const ${name} = ${jsonValueExpression(value)};\n`;
  });
}

/**
 * ajv declares a literal for every schema it compiled and refers to few of them, and of those it
 * reads a few paths (`schema12.properties.name.type`, for the params of an error). The rest is
 * built for nothing each time the module loads (the runtime's envelope validators showed it in a
 * server's cold start; GitHub's tools had half a megabyte of it). A literal whose name appears
 * nowhere else in the code (string contents included, so a doubt keeps it) is dropped; one read
 * only along paths keeps only what those paths reach, in its own order, so every read gives the
 * same value. A literal read whole, or that does not parse, is kept as it is.
 */
export function pruneSchemaLiterals(code: string): string {
  const reads = new Map<string, Segment[][]>();
  for (const m of code.matchAll(SCHEMA_READ)) {
    // The declaration itself is no read.
    if (code.startsWith('const ', m.index - 6) && code.startsWith(' = ', m.index + m[0].length)) continue;
    const name = `schema${m[1] as string}`;
    reads.set(name, [...(reads.get(name) ?? []), readPath(m[2] as string)]);
  }
  return rewriteSchemaDeclarations(code, (name, literal) => {
    const paths = reads.get(name);
    if (paths === undefined) return '';
    let value: unknown;
    try {
      value = JSON.parse(literal);
    } catch {
      return undefined;
    }
    const kept = keptValue(value, paths.map((path) => resolvedPrefix(value, path)));
    return kept === value ? undefined : `const ${name} = ${JSON.stringify(kept)};\n`;
  });
}

type Segment = string | number;

/** `schema12` and the member accesses after it: `.name`, `["name"]`, `[0]`. */
const SCHEMA_READ = /\bschema(\d+)((?:\.[A-Za-z_$][\w$]*|\["(?:[^"\\]|\\.)*"\]|\[\d+\])*)/g;
const SEGMENT = /\.([A-Za-z_$][\w$]*)|\[("(?:[^"\\]|\\.)*")\]|\[(\d+)\]/g;

function readPath(accesses: string): Segment[] {
  return [...accesses.matchAll(SEGMENT)].map((m) => (m[1] !== undefined ? m[1] : m[2] !== undefined ? (JSON.parse(m[2]) as string) : Number(m[3])));
}

/** The part of `path` that names members `value` has (`.length` of an array, say, is read from the array kept whole). */
function resolvedPrefix(value: unknown, path: Segment[]): Segment[] {
  const prefix: Segment[] = [];
  let at = value;
  for (const segment of path) {
    if (typeof at !== 'object' || at === null || Array.isArray(at) || typeof segment !== 'string' || !Object.hasOwn(at, segment)) break;
    at = (at as Record<string, unknown>)[segment];
    prefix.push(segment);
  }
  return prefix;
}

/** `value` with only what `paths` reach: the same object when a path is empty (read whole). */
function keptValue(value: unknown, paths: Segment[][]): unknown {
  if (paths.some((p) => p.length === 0)) return value;
  const record = value as Record<string, unknown>;
  const kept: Record<string, unknown> = {};
  for (const key of Object.keys(record)) {
    const under = paths.filter((p) => p[0] === key).map((p) => p.slice(1));
    if (under.length > 0) Object.defineProperty(kept, key, { value: keptValue(record[key], under), enumerable: true, writable: true, configurable: true });
  }
  return kept;
}

/** Index just past the JSON array or object that starts at `start`. */
function endOfJson(code: string, start: number): number {
  let depth = 0;
  for (let i = start; i < code.length; i++) {
    const c = code[i];
    if (c === '"') {
      for (i++; i < code.length && code[i] !== '"'; i++) if (code[i] === '\\') i++;
    } else if (c === '{' || c === '[') {
      depth++;
    } else if (c === '}' || c === ']') {
      if (--depth === 0) return i + 1;
    }
  }
  throw new Error('emitValidators: unbalanced schema literal in ajv output');
}

