/**
 * Streamable HTTP rules that decide a request before any session is looked at: the body's media
 * type and charset (both eras), and which era a request belongs to. Under 2026-07-28 the endpoint
 * is POST only, carries no sessions, and takes requests and notifications but never responses;
 * the stateful revisions keep GET, DELETE and `Mcp-Session-Id` on the same endpoint.
 */
import type { HeaderValues } from './http-exchange.js';
import { INVALID_REQUEST, NULL_ID, errorMessage, isObject } from '../../protocol/jsonrpc.js';
import {
  INITIALIZE,
  LOGGING_SET_LEVEL,
  RESOURCES_SUBSCRIBE,
  RESOURCES_UNSUBSCRIBE,
  STATELESS_REVISION,
} from '../../protocol/methods.js';
import type { ServerCore } from '../../server/server.js';
import { isStatelessMessage } from '../../server/stateless.js';

/**
 * Why a POST's `Content-Type` is refused (415), or undefined when it is `application/json`, with
 * no charset or UTF-8: JSON travels as UTF-8, and a body announced in another charset would be
 * read as something the client did not send.
 */
export function contentTypeProblem(header: string | undefined): string | undefined {
  if (header === 'application/json') return undefined; // nearly every request: no parsing
  if (header === undefined) return 'the body must be application/json';
  const [type = '', ...parameters] = header.split(';');
  if (type.trim().toLowerCase() !== 'application/json') return 'the body must be application/json';
  for (const parameter of parameters) {
    const equals = parameter.indexOf('=');
    if (equals === -1 || parameter.slice(0, equals).trim().toLowerCase() !== 'charset') continue;
    const charset = parameter
      .slice(equals + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .toLowerCase();
    if (charset !== 'utf-8' && charset !== 'utf8') {
      return 'application/json must be UTF-8, not charset ' + JSON.stringify(charset.slice(0, 40));
    }
  }
  return undefined;
}

/** Why a stateful request is refused where sessions are off (the Web handler's `sessions: false`). */
export const SESSIONS_OFF = `this endpoint serves ${STATELESS_REVISION} only: sessions need a server process that lives between requests, or a shared session store`;

/** A request target's path: what comes before its query. */
export function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/** A header's value when it came once; undefined when absent or (node:http) repeated as an array. */
export function headerText(headers: HeaderValues, name: string): string | undefined {
  const value = headers[name];
  return typeof value === 'string' ? value : undefined;
}

/** The `MCP-Protocol-Version` header, trimmed; undefined when absent or repeated. */
export function versionHeader(headers: HeaderValues): string | undefined {
  const raw = headers['mcp-protocol-version'];
  return typeof raw === 'string' ? raw.trim() : undefined;
}

/**
 * Whether a POSTed message is served statelessly. Without `Mcp-Session-Id`: when the body's `_meta`
 * or the version header says so (`isStatelessMessage`). With one: when the version header names
 * 2026-07-28 (which every 2026-07-28 POST carries); the session id is then ignored, as that
 * revision asks. Any other version beside a session id stays with the session's checks.
 */
export function servedStatelessly(message: unknown, headers: HeaderValues): boolean {
  const version = versionHeader(headers);
  if (headers['mcp-session-id'] !== undefined) return version === STATELESS_REVISION;
  return isStatelessMessage(message, version);
}

/** True for a GET or DELETE of the 2026-07-28 era, which has neither: 405 with `Allow: POST`. */
export function statelessGetOrDelete(core: ServerCore, headers: HeaderValues): boolean {
  return core.stateless && versionHeader(headers) === STATELESS_REVISION;
}

/**
 * A 2026-07-28 body that is not a request: a notification is accepted (undefined: 202); a
 * response, which a 2026-07-28 client never sends, or any other shape is refused with the 400 text.
 */
export function statelessNonRequest(message: { [key: string]: unknown }): string | undefined {
  if (typeof message['method'] === 'string' && message['id'] === undefined) return undefined;
  const why =
    message['method'] === undefined && ('result' in message || 'error' in message)
      ? 'a 2026-07-28 client sends no JSON-RPC responses'
      : 'the body is neither a JSON-RPC request nor a notification';
  return errorMessage(NULL_ID, INVALID_REQUEST, `Invalid Request: ${why}`);
}

/** A stateful POST that opens a new session. */
export function isInitializeRequest(message: unknown): boolean {
  return (
    typeof message === 'object' &&
    message !== null &&
    (message as { method?: unknown }).method === INITIALIZE
  );
}

/** Requests after which a shared session's snapshot must be saved again. */
export function changesSession(message: unknown): boolean {
  const method = isObject(message) ? message['method'] : undefined;
  return (
    method === LOGGING_SET_LEVEL ||
    method === RESOURCES_SUBSCRIBE ||
    method === RESOURCES_UNSUBSCRIBE
  );
}
