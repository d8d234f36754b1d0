/**
 * Version negotiation facts the client session works with: the revisions it speaks, the
 * 2026-07-28 `_meta` every stateless request carries, and what a `server/discover` or
 * `initialize` result says about the server.
 */
import type { JsonObject } from '../api.js';
import { assignOwn, isObject } from '../protocol/jsonrpc.js';
import { statelessCapabilities } from './input-handlers.js';

/** The stateless revision: no handshake, `_meta` on every request. */
export const STATELESS_REVISION = '2026-07-28';
/** Every revision this client speaks, newest first. */
export const CLIENT_PROTOCOL_VERSIONS: readonly string[] = [
  STATELESS_REVISION,
  '2025-11-25',
  '2025-06-18',
  '2025-03-26',
  '2024-11-05',
];
/** JSON-RPC error a 2026-07-28 server answers a version it does not speak with (`data.supported`). */
export const UNSUPPORTED_PROTOCOL_VERSION = -32022;
export const META_VERSION = 'io.modelcontextprotocol/protocolVersion';
export const META_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
export const META_CLIENT_INFO = 'io.modelcontextprotocol/clientInfo';
/** Where a 2026-07-28 result names the server; the client reads server/discover's. */
const META_SERVER_INFO = 'io.modelcontextprotocol/serverInfo';
export const META_SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';
export interface ServerIdentity {
  protocolVersion: string;
  capabilities: JsonObject;
  serverInfo: JsonObject | undefined;
  instructions: string | undefined;
}

/**
 * A request's params with the 2026-07-28 `_meta`: revision, capabilities and client info. A
 * request may add to the session's capabilities (a task call declares the tasks extension).
 */
export function withStatelessMeta(
  params: JsonObject,
  capabilities: JsonObject,
  clientInfo: { name: string; version: string } | undefined,
): JsonObject {
  const meta: JsonObject = isObject(params['_meta']) ? { ...params['_meta'] } : {};
  meta[META_VERSION] = STATELESS_REVISION;
  const added = meta[META_CAPABILITIES];
  const declared = statelessCapabilities(capabilities);
  meta[META_CAPABILITIES] = isObject(added) ? { ...declared, ...added } : declared;
  meta[META_CLIENT_INFO] = clientInfo ?? { name: 'mcp-gen-client', version: '0.1.0' };
  // `{ ...params, _meta: meta }`, without the spread's cost (assignOwn).
  const copy = assignOwn<unknown>({}, params);
  copy['_meta'] = meta;
  return copy;
}

/** What a discover or initialize result says about the server. */
export function identity(protocolVersion: string, result: JsonObject): ServerIdentity {
  return {
    protocolVersion,
    capabilities: isObject(result['capabilities']) ? result['capabilities'] : {},
    serverInfo: isObject(result['serverInfo']) ? result['serverInfo'] : serverInfoInMeta(result),
    instructions: typeof result['instructions'] === 'string' ? result['instructions'] : undefined,
  };
}

/** `_meta`'s `io.modelcontextprotocol/serverInfo` (2026-07-28 results), when it is an object. */
function serverInfoInMeta(result: JsonObject): JsonObject | undefined {
  const meta = result['_meta'];
  const info = isObject(meta) ? meta[META_SERVER_INFO] : undefined;
  return isObject(info) ? info : undefined;
}
