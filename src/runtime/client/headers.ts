/**
 * `x-mcp-header`: tool parameters a client mirrors into `Mcp-Param-<Name>` HTTP headers. The rules
 * for a valid annotation, and the encoding of values (plain when safe, else `=?base64?…?=`), as the
 * Streamable HTTP transport and the conformance suite define them.
 */
import { Buffer } from 'node:buffer';
import { headerAnnotations, valueAt } from '../header-params.js';

type JsonObject = { [key: string]: unknown };

export interface HeaderMirror {
  /** Property names from the arguments object down. */
  readonly path: readonly string[];
  readonly header: string;
}

/** Visible ASCII except `:`. */
const HEADER_NAME = /^[\x21-\x39\x3b-\x7e]+$/;
/** Parameter types whose values can be mirrored. */
const MIRRORED_TYPES = ['string', 'integer', 'boolean'];

/**
 * The header mirrors of an inputSchema, or why its annotations are invalid (a tool with invalid ones
 * must be left out): each name non-empty visible ASCII without `:`, unique ignoring case, on a
 * string, integer or boolean property.
 */
export function headerMirrors(inputSchema: JsonObject): { mirrors: HeaderMirror[] } | { problem: string } {
  const mirrors: HeaderMirror[] = [];
  const seen = new Set<string>();
  // The same walk the server checks with (header-params.ts): both agree on which properties count.
  for (const { path, header, schema } of headerAnnotations(inputSchema)) {
    const where = '/' + path.join('/');
    if (typeof header !== 'string' || !HEADER_NAME.test(header)) {
      return { problem: `x-mcp-header ${JSON.stringify(header)} at ${where} is not a non-empty ASCII name without spaces, control characters and ':'` };
    }
    if (seen.has(header.toLowerCase())) return { problem: `x-mcp-header ${JSON.stringify(header)} at ${where} is used twice (ignoring case)` };
    seen.add(header.toLowerCase());
    const type = schema['type'];
    if (typeof type !== 'string' || !MIRRORED_TYPES.includes(type)) {
      return { problem: `x-mcp-header ${JSON.stringify(header)} at ${where} is on a property that is not a string, integer or boolean` };
    }
    mirrors.push({ path, header });
  }
  return { mirrors };
}

/**
 * A header value: as is when every character is printable ASCII and there is no leading or trailing
 * space (an empty string too), otherwise `=?base64?<UTF-8 as base64>?=`. A value that itself looks
 * like that wrapper is encoded, so it cannot be misread.
 */
export function headerValue(value: string): string {
  const plain = /^[\x20-\x7e]*$/.test(value) && value === value.trim() && !value.startsWith('=?base64?');
  return plain ? value : `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

/** The `Mcp-Param-*` value of one argument; undefined (no header) for null, absent or non-primitive values. */
export function paramHeaderValue(value: unknown): string | undefined {
  if (typeof value === 'string') return headerValue(value);
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return undefined;
}

/** `mcp-param-<name>` headers for the arguments of one call. */
export function paramHeaders(mirrors: readonly HeaderMirror[], input: unknown): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const { path, header } of mirrors) {
    const text = paramHeaderValue(valueAt(input, path));
    if (text !== undefined) headers[`mcp-param-${header.toLowerCase()}`] = text;
  }
  return headers;
}
