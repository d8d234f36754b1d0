/// <reference types="node" />
/**
 * `x-mcp-header`: tool parameters a client mirrors into `Mcp-Param-<Name>` HTTP headers. The rules
 * for a valid annotation, and the encoding of values (plain when safe, else `=?base64?…?=`), as the
 * Streamable HTTP transport and the conformance suite define them.
 */
import { valueAt } from '../protocol/header-params.js';

type JsonObject = { [key: string]: unknown };

export interface HeaderMirror {
  /** Property names from the arguments object down. */
  readonly path: readonly string[];
  readonly header: string;
}

/** RFC 9110 field-name token: `1*tchar`. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Parameter types whose values can be mirrored. */
const MIRRORED_TYPES = ['string', 'integer', 'boolean'];

/**
 * Keywords holding subschemas, in draft-07 and 2020-12 (as src/schema/keywords.ts, which the
 * runtime cannot import): an `x-mcp-header` below any of them but `properties` is not statically
 * reachable. Values of other keywords (`enum`, `const`, `default`, …) are data.
 */
const SCHEMA_ONE = new Set([
  'additionalItems',
  'additionalProperties',
  'contains',
  'contentSchema',
  'else',
  'if',
  'items',
  'not',
  'propertyNames',
  'then',
  'unevaluatedItems',
  'unevaluatedProperties',
]);
const SCHEMA_LIST = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items']);
const SCHEMA_MAP = new Set([
  '$defs',
  'definitions',
  'dependencies',
  'dependentSchemas',
  'patternProperties',
  'properties',
]);

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
/** RFC 6901: a key as one JSON pointer segment. */
const segment = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * The header mirrors of an inputSchema, or why its annotations are invalid (a tool with invalid ones
 * must be left out): each name an HTTP token, unique ignoring case, on a string, integer or boolean
 * property reached from the root through `properties` alone (not through `items`, `anyOf`, `$defs`,
 * `additionalProperties`, …). The walk keeps its own stack, so no nesting depth overflows it.
 * The server checks the same properties (`headerAnnotations` in header-params.ts walks `properties`
 * alone); this walk also visits the rest, to refuse annotations the server would never check.
 */
export function headerMirrors(
  inputSchema: JsonObject,
): { mirrors: HeaderMirror[] } | { problem: string } {
  const mirrors: HeaderMirror[] = [];
  const seen = new Set<string>();
  for (const node of schemaNodes(inputSchema)) {
    if (!Object.hasOwn(node.schema, 'x-mcp-header')) continue;
    const header = node.schema['x-mcp-header'];
    const where = node.parent === null ? 'the root' : pointerOf(node);
    if (!node.reachable || node.parent === null) {
      return {
        problem: `x-mcp-header ${JSON.stringify(header)} at ${where} is not statically reachable: only properties reached from the root through properties alone may carry one`,
      };
    }
    if (typeof header !== 'string' || !HEADER_NAME.test(header)) {
      return {
        problem: `x-mcp-header ${JSON.stringify(header)} at ${where} is not an HTTP header token (letters, digits and !#$%&'*+-.^_\`|~; no spaces, control characters or ':')`,
      };
    }
    if (seen.has(header.toLowerCase()))
      return {
        problem: `x-mcp-header ${JSON.stringify(header)} at ${where} is a duplicate: header names must differ ignoring case`,
      };
    seen.add(header.toLowerCase());
    const type = node.schema['type'];
    if (typeof type !== 'string' || !MIRRORED_TYPES.includes(type)) {
      return {
        problem: `x-mcp-header ${JSON.stringify(header)} at ${where} is on a property that is not a string, integer or boolean`,
      };
    }
    mirrors.push({ path: propertyPath(node), header });
  }
  return { mirrors };
}

/** One schema object of the walk; the way back up is kept as links, so deep schemas cost linear memory. */
interface SchemaNode {
  schema: JsonObject;
  parent: SchemaNode | null;
  /** Pointer segments from the parent: the keyword, then the index or name when there is one. */
  steps: readonly string[];
  /** Reached from the root through `properties` alone. */
  reachable: boolean;
}

/** Every schema object under `root`, depth first in document order, without recursion. */
function schemaNodes(root: JsonObject): SchemaNode[] {
  const nodes: SchemaNode[] = [];
  const stack: SchemaNode[] = [{ schema: root, parent: null, steps: [], reachable: true }];
  while (stack.length > 0) {
    const node = stack.pop() as SchemaNode;
    nodes.push(node);
    const children: SchemaNode[] = [];
    const child = (schema: unknown, steps: string[], reachable: boolean): void => {
      if (isObject(schema)) children.push({ schema, parent: node, steps, reachable });
    };
    for (const [key, value] of Object.entries(node.schema)) {
      if (SCHEMA_LIST.has(key) && Array.isArray(value))
        value.forEach((item, i) => child(item, [key, String(i)], false));
      else if (SCHEMA_ONE.has(key)) child(value, [key], false);
      else if (SCHEMA_MAP.has(key) && isObject(value)) {
        for (const [name, sub] of Object.entries(value))
          child(sub, [key, name], key === 'properties' && node.reachable);
      }
    }
    // Pushed in reverse, so properties are visited (and mirrors listed) in document order.
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i] as SchemaNode);
  }
  return nodes;
}

function pointerOf(node: SchemaNode): string {
  const segments: string[] = [];
  for (let n: SchemaNode | null = node; n !== null; n = n.parent)
    segments.push(...[...n.steps].reverse());
  return segments
    .reverse()
    .map((s) => `/${segment(s)}`)
    .join('');
}

/** The property names from the arguments object down to a reachable node. */
function propertyPath(node: SchemaNode): string[] {
  const path: string[] = [];
  for (let n: SchemaNode | null = node; n !== null && n.parent !== null; n = n.parent)
    path.push(n.steps[1] as string);
  return path.reverse();
}

/**
 * A header value: as is when every character is printable ASCII and there is no leading or trailing
 * space (an empty string too), otherwise `=?base64?<UTF-8 as base64>?=`. A value that itself looks
 * like that wrapper is encoded, so it cannot be misread.
 */
export function headerValue(value: string): string {
  const plain =
    /^[\x20-\x7e]*$/.test(value) && value === value.trim() && !value.startsWith('=?base64?');
  return plain ? value : `=?base64?${utf8Base64(value)}?=`;
}

const utf8 = new TextEncoder();

/** Base64 of the text's UTF-8 bytes, with what browsers and Node both have (`btoa` takes bytes as chars). */
function utf8Base64(text: string): string {
  let bytes = '';
  for (const byte of utf8.encode(text)) bytes += String.fromCharCode(byte);
  return btoa(bytes);
}

/** The `Mcp-Param-*` value of one argument; undefined (no header) for null, absent or non-primitive values. */
export function paramHeaderValue(value: unknown): string | undefined {
  if (typeof value === 'string') return headerValue(value);
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return undefined;
}

/** `mcp-param-<name>` headers for the arguments of one call. */
export function paramHeaders(
  mirrors: readonly HeaderMirror[],
  input: unknown,
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const { path, header } of mirrors) {
    const text = paramHeaderValue(valueAt(input, path));
    if (text !== undefined) headers[`mcp-param-${header.toLowerCase()}`] = text;
  }
  return headers;
}
