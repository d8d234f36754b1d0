/**
 * The HTTP header rules of 2026-07-28 requests: `Mcp-Method`, `Mcp-Name` (the param it mirrors is
 * the method table's `named`) and `Mcp-Param-*` for the tool arguments that carry `x-mcp-header`.
 */
import type { JsonObject } from '../api.js';
import { quote } from '../protocol/jsonrpc.js';
import { METHOD_TABLE, TOOLS_CALL } from '../protocol/methods.js';
import { decodeHeaderValue, headerMatches, valueAt } from '../protocol/header-params.js';
import type { ServerCore } from './server.js';
import { mirroredHeaders } from './server-index.js';

/** The methods `Mcp-Name` applies to, and the param it mirrors (the method table's `named`). */
const NAMED: ReadonlyMap<string, string> = new Map(
  METHOD_TABLE.flatMap((m) => (m.named === undefined ? [] : [[m.name, m.named] as const])),
);

/** One header's value; node:http joins repeated unknown headers with ", ", which then mismatches. */
export function single(value: string | string[] | undefined): string | undefined {
  if (value === undefined) return undefined;
  return (Array.isArray(value) ? value.join(', ') : value).trim();
}

/**
 * SEP-2243: `Mcp-Method` on every request, `Mcp-Name` for tools/call, prompts/get and
 * resources/read, and `Mcp-Param-{Name}` for each argument whose property carries `x-mcp-header`
 * (nested ones too, at their path). Values are trimmed, `=?base64?…?=` values decoded, then compared
 * case-sensitively; numbers numerically (header-params.ts).
 */
export function headerMismatch(
  core: ServerCore,
  method: string,
  params: JsonObject,
  headers: Readonly<Record<string, string | string[] | undefined>>,
): string | undefined {
  const mcpMethod = single(headers['mcp-method']);
  if (mcpMethod === undefined) return 'the Mcp-Method header is required';
  if (mcpMethod !== method)
    return `Mcp-Method ${quote(mcpMethod)} differs from the body's method ${quote(method)}`;
  const field = NAMED.get(method);
  if (field === undefined) return undefined;
  const rawName = single(headers['mcp-name']);
  const value = params[field];
  if (rawName === undefined) return 'the Mcp-Name header is required';
  const name = decodeHeaderValue(rawName);
  if (name === undefined) {
    return `Mcp-Name ${quote(rawName)} is not valid: a malformed =?base64?…?= value, or characters a header may not hold`;
  }
  if (typeof value !== 'string' || name !== value)
    return `Mcp-Name ${quote(name)} differs from params.${field}`;
  if (method !== TOOLS_CALL) return undefined;
  const tool = core.tools.get(value);
  if (tool === undefined) return undefined;
  const mirrored = mirroredHeaders(tool);
  const args = params['arguments'];
  for (const { path, header } of mirrored) {
    const raw = single(headers[header]);
    const argument = valueAt(args, path);
    const property = quote(path.join('.'));
    if (argument === undefined || argument === null) {
      if (raw !== undefined) return `${header} is set but argument ${property} is absent`;
      continue;
    }
    if (raw === undefined) return `the ${header} header is required (argument ${property} is set)`;
    const decoded = decodeHeaderValue(raw);
    if (decoded === undefined)
      return `${header} is not valid: a malformed =?base64?…?= value, or characters a header may not hold`;
    if (!headerMatches(decoded, argument)) return `${header} differs from argument ${property}`;
  }
  return undefined;
}
