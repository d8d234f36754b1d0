/// <reference types="node" />
/**
 * The parts of the `x-mcp-header` / `Mcp-Param-*` rules that the client and the server must read
 * the same way: which annotations of a tool's inputSchema count, where each one's value sits in the
 * call arguments, and how a header value is decoded and compared with that value. The client
 * (`client/headers.ts`) mirrors with these, the server (`stateless.ts`) checks with them.
 */
type JsonObject = { [key: string]: unknown };

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** One `x-mcp-header` annotation of an inputSchema. */
export interface HeaderAnnotation {
  /** Property names from the arguments object down (one name for a top-level property). */
  readonly path: readonly string[];
  /** The annotation as written; whether it is a valid name is the caller's question. */
  readonly header: unknown;
  /** The annotated property's schema. */
  readonly schema: JsonObject;
}

/**
 * Every `x-mcp-header` annotation on a property reached from the schema root through `properties`
 * keys alone (the spec's "statically reachable"), depth first in property order. Annotations under
 * `items`, `$defs`, `allOf`, a `$ref` target and the like are not reached. Walks with a stack, so
 * a deeply nested schema from a live server cannot exhaust the call stack.
 */
export function headerAnnotations(inputSchema: JsonObject): HeaderAnnotation[] {
  const found: HeaderAnnotation[] = [];
  // Popped in the order a recursive walk would visit them: each property before its next sibling.
  // A property's path is built only when it is annotated: most are not, and a code generator walks
  // every tool of a large manifest.
  const pending: Step[] = [{ schema: inputSchema, name: '', parent: undefined }];
  while (pending.length > 0) {
    const step = pending.pop()!;
    const { schema } = step;
    if (step.parent !== undefined && Object.hasOwn(schema, 'x-mcp-header')) {
      found.push({ path: pathOf(step), header: schema['x-mcp-header'], schema });
    }
    const properties = schema['properties'];
    if (!isObject(properties)) continue;
    const names = Object.keys(properties);
    for (let i = names.length - 1; i >= 0; i--) {
      const sub = properties[names[i]!];
      if (isObject(sub)) pending.push({ schema: sub, name: names[i]!, parent: step });
    }
  }
  return found;
}

/** A schema on the walk, with the property name it was reached by and the step before. */
interface Step {
  schema: JsonObject;
  name: string;
  parent: Step | undefined;
}

function pathOf(step: Step): string[] {
  const path: string[] = [];
  for (let at: Step | undefined = step; at?.parent !== undefined; at = at.parent)
    path.push(at.name);
  return path.reverse();
}

/** The value at `path` in the call arguments; undefined when any step is missing or not an object. */
export function valueAt(args: unknown, path: readonly string[]): unknown {
  let value = args;
  for (const key of path)
    value = isObject(value) && Object.hasOwn(value, key) ? value[key] : undefined;
  return value;
}

const SENTINEL_PREFIX = '=?base64?';
const SENTINEL_SUFFIX = '?=';
const BASE64_STRICT = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** What a plain header value may hold: visible ASCII, space and tab. */
const PLAIN_VALUE = /^[\t\x20-\x7e]*$/;

/** True when a value must travel as `=?base64?…?=`: the markers are exactly these, lower case. */
export function looksEncoded(value: string): boolean {
  return (
    value.startsWith(SENTINEL_PREFIX) &&
    value.endsWith(SENTINEL_SUFFIX) &&
    value.length >= SENTINEL_PREFIX.length + SENTINEL_SUFFIX.length
  );
}

/**
 * A received `Mcp-Name` or `Mcp-Param-*` value as text: `=?base64?…?=` decoded strictly (alphabet,
 * padding, valid UTF-8), any other value as it is. Undefined when the encoding is broken or a plain
 * value holds characters a header value may not.
 */
export function decodeHeaderValue(raw: string): string | undefined {
  if (!looksEncoded(raw)) return PLAIN_VALUE.test(raw) ? raw : undefined;
  const body = raw.slice(SENTINEL_PREFIX.length, raw.length - SENTINEL_SUFFIX.length);
  if (!BASE64_STRICT.test(body)) return undefined;
  const chars = atob(body);
  const bytes = new Uint8Array(chars.length);
  for (let i = 0; i < chars.length; i++) bytes[i] = chars.charCodeAt(i);
  // Invalid UTF-8 could never match honestly: refused, not read as U+FFFD. A leading BOM is kept.
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** No `node:buffer` here: the browser client imports this module too. */
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

const DECIMAL = /^-?[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;

/**
 * Whether a decoded header value stands for an argument: strings exactly, numbers numerically (so
 * `42.0` is 42, as the spec asks of integers), booleans as `true` / `false`. Other values (objects,
 * arrays) are never mirrored, so nothing matches them.
 */
export function headerMatches(decoded: string, argument: unknown): boolean {
  if (typeof argument === 'string') return decoded === argument;
  if (typeof argument === 'number') return DECIMAL.test(decoded) && Number(decoded) === argument;
  if (typeof argument === 'boolean') return decoded === (argument ? 'true' : 'false');
  return false;
}
