/**
 * Tool arguments → the parts of an HTTP request, by OpenAPI 3's parameter styles (`style`,
 * `explode`, `allowReserved`), with percent-encoding as RFC 6570 expansions do it: everything but
 * the unreserved characters is encoded (and, with `allowReserved`, the reserved ones are kept).
 * Copied into generated servers whose manifest has `http` bindings; it uses no module at all.
 */

/** Where one upstream parameter comes from and how it is written (style and explode explicit). */
export interface HttpParameter {
  in: 'path' | 'query' | 'header' | 'cookie';
  name: string;
  argument: string;
  style: 'simple' | 'label' | 'matrix' | 'form' | 'spaceDelimited' | 'pipeDelimited' | 'deepObject';
  explode: boolean;
  allowReserved?: true;
  contentType?: 'application/json';
}

/** The request parts the parameters make: path values by name, query pairs, headers, cookies. */
export interface SerializedParameters {
  path: Map<string, string>;
  /** Already encoded `name=value` (or bare `name`) pieces, joined with `&`. */
  query: string[];
  headers: [string, string][];
  /** Already encoded `name=value` pieces, joined with `; `. */
  cookies: string[];
}

const utf8 = new TextEncoder();
const UNRESERVED = /[^A-Za-z0-9\-._~]/gu;
const UNRESERVED_OR_RESERVED = /[^A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]/gu;

/** Percent-encodes the UTF-8 bytes of every character outside the allowed set. */
export function encode(text: string, allowReserved = false): string {
  const encoded = text.replace(allowReserved ? UNRESERVED_OR_RESERVED : UNRESERVED, (char) =>
    Array.from(
      utf8.encode(char),
      (byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`,
    ).join(''),
  );
  // A `%` kept by allowReserved must start a triplet; a lone one is encoded.
  return allowReserved ? encoded.replace(/%(?![0-9A-Fa-f]{2})/g, '%25') : encoded;
}

/** A primitive as text; nested objects and arrays (which no style defines) as their JSON text. */
function text(value: unknown): string {
  if (value === null) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

type Shape =
  | { kind: 'primitive'; value: string }
  | { kind: 'array'; items: string[] }
  | { kind: 'object'; entries: [string, string][] };

function shapeOf(value: unknown): Shape {
  if (Array.isArray(value)) return { kind: 'array', items: value.map(text) };
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    return { kind: 'object', entries: entries.map(([k, v]) => [k, text(v)]) };
  }
  return { kind: 'primitive', value: text(value) };
}

/** The flat list of a non-exploded array or object: `a,b` or `k1,v1,k2,v2`. */
function flat(shape: Shape): string[] {
  if (shape.kind === 'primitive') return [shape.value];
  if (shape.kind === 'array') return shape.items;
  return shape.entries.flat();
}

/** A path value by style: `simple` `a,b`, `label` `.a.b`, `matrix` `;id=a;id=b` (RFC 6570 levels 3 and 4). */
function pathValue(p: HttpParameter, value: unknown): string {
  const shape = p.contentType
    ? { kind: 'primitive' as const, value: JSON.stringify(value) }
    : shapeOf(value);
  const enc = (s: string): string => encode(s);
  const name = enc(p.name);
  if (p.style === 'matrix') {
    const pair = (k: string, v: string): string => (v === '' ? `;${k}` : `;${k}=${v}`);
    if (shape.kind === 'primitive') return pair(name, enc(shape.value));
    if (p.explode && shape.kind === 'array')
      return shape.items.map((item) => pair(name, enc(item))).join('');
    if (p.explode && shape.kind === 'object')
      return shape.entries.map(([k, v]) => pair(enc(k), enc(v))).join('');
    return pair(name, flat(shape).map(enc).join(','));
  }
  const separator = p.style === 'label' && p.explode ? '.' : ',';
  const prefix = p.style === 'label' ? '.' : '';
  if (p.explode && shape.kind === 'object')
    return prefix + shape.entries.map(([k, v]) => `${enc(k)}=${enc(v)}`).join(separator);
  return prefix + flat(shape).map(enc).join(separator);
}

/** Query pairs by style: `form`, `spaceDelimited`, `pipeDelimited` and `deepObject`. */
function queryPairs(p: HttpParameter, value: unknown): string[] {
  const enc = (s: string): string => encode(s, p.allowReserved === true);
  const name = enc(p.name);
  if (p.contentType) return [`${name}=${enc(JSON.stringify(value))}`];
  if (p.style === 'deepObject') return deepPairs(name, value, enc);
  const shape = shapeOf(value);
  if (shape.kind === 'primitive') return [`${name}=${enc(shape.value)}`];
  if (p.explode && shape.kind === 'array') return shape.items.map((item) => `${name}=${enc(item)}`);
  if (p.explode && shape.kind === 'object')
    return shape.entries.map(([k, v]) => `${enc(k)}=${enc(v)}`);
  const separator = p.style === 'spaceDelimited' ? '%20' : p.style === 'pipeDelimited' ? '|' : ',';
  return [`${name}=${flat(shape).map(enc).join(separator)}`];
}

/** `name[key]=value`, nested objects as further brackets, array members repeated. */
function deepPairs(name: string, value: unknown, enc: (s: string) => string): string[] {
  if (Array.isArray(value)) return value.flatMap((item) => deepPairs(name, item, enc));
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([k, v]) =>
      v === undefined ? [] : deepPairs(`${name}[${enc(k)}]`, v, enc),
    );
  }
  return [`${name}=${enc(text(value))}`];
}

/** A header value (`simple`, not percent-encoded: headers are not URLs). */
function headerValue(p: HttpParameter, value: unknown): string {
  if (p.contentType) return JSON.stringify(value);
  const shape = shapeOf(value);
  if (p.explode && shape.kind === 'object')
    return shape.entries.map(([k, v]) => `${k}=${v}`).join(',');
  return flat(shape).join(',');
}

/** Cookie pairs (`form`): `name=a,b`, or one pair per member when exploded. */
function cookiePairs(p: HttpParameter, value: unknown): string[] {
  const enc = (s: string): string => encode(s);
  if (p.contentType) return [`${enc(p.name)}=${enc(JSON.stringify(value))}`];
  const shape = shapeOf(value);
  if (p.explode && shape.kind === 'array')
    return shape.items.map((item) => `${enc(p.name)}=${enc(item)}`);
  if (p.explode && shape.kind === 'object')
    return shape.entries.map(([k, v]) => `${enc(k)}=${enc(v)}`);
  return [`${enc(p.name)}=${flat(shape).map(enc).join(',')}`];
}

/** The request parts of `args` by `parameters`; an argument left out sends nothing. */
export function serializeParameters(
  parameters: readonly HttpParameter[],
  args: Record<string, unknown>,
): SerializedParameters {
  const out: SerializedParameters = { path: new Map(), query: [], headers: [], cookies: [] };
  for (const p of parameters) {
    if (!Object.hasOwn(args, p.argument) || args[p.argument] === undefined) continue;
    const value = args[p.argument];
    if (p.in === 'path') out.path.set(p.name, pathValue(p, value));
    else if (p.in === 'query') out.query.push(...queryPairs(p, value));
    else if (p.in === 'header') out.headers.push([p.name, headerValue(p, value)]);
    else out.cookies.push(...cookiePairs(p, value));
  }
  return out;
}

/** A path value a URL parser would take as `.` or `..` (percent-encoded dots included): it would climb out of the template. */
const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

/** The path template with each `{name}` replaced by its serialized value; throws for a dot segment. */
export function fillPath(template: string, values: ReadonlyMap<string, string>): string {
  return template.replace(/\{([^{}]*)\}/g, (_, name: string) => {
    const value = values.get(name);
    if (value === undefined) throw new Error(`path parameter ${name} has no value`);
    if (DOT_SEGMENT.test(value)) throw new Error(`path parameter ${name} may not be '${value}'`);
    return value;
  });
}
