/**
 * The stateless revision 2026-07-28: how a request is recognized, the checks it passes before
 * dispatch (in the order the spec and the conformance suite pin; the header rules are in
 * stateless-headers.ts), and the result fields every answer carries. The signed `requestState`
 * of input-required results is input-state.ts.
 */
import type { JsonObject } from '../api.js';
import {
  HEADER_MISMATCH,
  INVALID_PARAMS,
  METHOD_NOT_FOUND,
  UNSUPPORTED_VERSION,
  errorMessage,
  idJson,
  isObject,
  isRequestId,
} from '../protocol/jsonrpc.js';
import { METHOD_INFO, STATEFUL_REVISIONS, STATELESS_REVISION } from '../protocol/methods.js';
import type { ServerCore } from './server.js';
import { headerMismatch, single } from './stateless-headers.js';
import { memberStart } from '../protocol/json-scan.js';

export const META_PROTOCOL_VERSION = 'io.modelcontextprotocol/protocolVersion';
export const META_CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
export const META_CLIENT_INFO = 'io.modelcontextprotocol/clientInfo';
export const META_LOG_LEVEL = 'io.modelcontextprotocol/logLevel';
export const META_SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';
export const META_SERVER_INFO = 'io.modelcontextprotocol/serverInfo';

/** The revisions that use initialize and sessions; any other `MCP-Protocol-Version` means stateless. */
const STATEFUL = new Set(STATEFUL_REVISIONS);

export interface Refusal {
  readonly status: number;
  readonly text: string;
}

/** What a checked stateless request declares in its `_meta`. */
export interface StatelessMeta {
  readonly clientCapabilities: JsonObject;
  readonly logLevel: string | undefined;
}

/**
 * The routing rule: a message without a session goes the stateless way when its `_meta` carries
 * any `io.modelcontextprotocol/` request key, or its `MCP-Protocol-Version` header names a revision
 * other than the stateful ones.
 */
export function isStatelessMessage(message: unknown, headerVersion: string | undefined): boolean {
  if (headerVersion !== undefined && !STATEFUL.has(headerVersion)) return true;
  if (!isObject(message) || !isObject(message['params'])) return false;
  const meta = message['params']['_meta'];
  return (
    isObject(meta) &&
    (meta[META_PROTOCOL_VERSION] !== undefined ||
      meta[META_CLIENT_CAPABILITIES] !== undefined ||
      meta[META_CLIENT_INFO] !== undefined)
  );
}

/** The id to echo in a refusal: the message's own when it is valid. */
function idOf(message: JsonObject): string {
  const id = message['id'];
  return isRequestId(id) ? idJson(id) : 'null';
}

/**
 * Checks one stateless request before dispatch, in this order: `_meta` (400, -32602), the
 * `MCP-Protocol-Version` header against it when on HTTP (400, -32020), the version (400, -32022),
 * the header rules (HTTP only; 400, -32020), the method (404, -32601).
 * `headers` is undefined on stdio.
 */
export function checkStateless(
  core: ServerCore,
  message: JsonObject,
  headers: Readonly<Record<string, string | string[] | undefined>> | undefined,
): Refusal | StatelessMeta {
  const idText = idOf(message);
  const params = message['params'];
  const meta = isObject(params) ? params['_meta'] : undefined;
  const version = isObject(meta) ? meta[META_PROTOCOL_VERSION] : undefined;
  const capabilities = isObject(meta) ? meta[META_CLIENT_CAPABILITIES] : undefined;
  if (typeof version !== 'string' || !isObject(capabilities)) {
    const missing = !isObject(meta)
      ? 'params._meta'
      : typeof version !== 'string'
        ? `_meta["${META_PROTOCOL_VERSION}"]`
        : `_meta["${META_CLIENT_CAPABILITIES}"] (an object)`;
    return refuse(
      400,
      idText,
      INVALID_PARAMS,
      `Invalid params: a ${STATELESS_REVISION} request needs ${missing}`,
    );
  }
  if (headers !== undefined) {
    const header = single(headers['mcp-protocol-version']);
    if (header !== version) {
      return refuse(
        400,
        idText,
        HEADER_MISMATCH,
        header === undefined
          ? 'Header mismatch: MCP-Protocol-Version is required'
          : `Header mismatch: MCP-Protocol-Version ${header} differs from _meta protocolVersion ${version}`,
      );
    }
  }
  if (version !== STATELESS_REVISION || !core.stateless) {
    return refuse(400, idText, UNSUPPORTED_VERSION, `Unsupported protocol version: ${version}`, {
      supported: core.stateless ? [STATELESS_REVISION] : core.statefulVersions,
      requested: version,
    });
  }
  const method = message['method'];
  if (headers !== undefined && typeof method === 'string') {
    const mismatch = headerMismatch(core, method, isObject(params) ? params : {}, headers);
    if (mismatch !== undefined)
      return refuse(400, idText, HEADER_MISMATCH, `Header mismatch: ${mismatch}`);
  }
  if (typeof method === 'string' && !statelessMethodServed(core, method)) {
    return refuse(404, idText, METHOD_NOT_FOUND, `Method not found: ${method}`);
  }
  const logLevel = (meta as JsonObject)[META_LOG_LEVEL];
  return {
    clientCapabilities: capabilities,
    logLevel: typeof logLevel === 'string' ? logLevel : undefined,
  };
}

export function statelessMethodServed(core: ServerCore, method: string): boolean {
  const info = METHOD_INFO.get(method);
  if (info === undefined || info.kind !== 'client-request' || !info.eras.includes('stateless'))
    return false;
  if (info.offer === 'listen') return listenFilterOffered(core) !== undefined;
  return core.offered.has(info.offer ?? 'always');
}

/** The `subscriptions/listen` filter fields this server honours; undefined when it offers none. */
export function listenFilterOffered(core: ServerCore): Set<string> | undefined {
  const caps = core.definition.capabilities;
  const offered = new Set<string>();
  const flag = (cap: unknown, key: string): boolean => isObject(cap) && cap[key] === true;
  if (flag(caps['tools'], 'listChanged')) offered.add('toolsListChanged');
  if (flag(caps['prompts'], 'listChanged')) offered.add('promptsListChanged');
  if (flag(caps['resources'], 'listChanged')) offered.add('resourcesListChanged');
  if (flag(caps['resources'], 'subscribe')) offered.add('resourceSubscriptions');
  return offered.size === 0 ? undefined : offered;
}

function refuse(
  status: number,
  idText: string,
  code: number,
  message: string,
  data?: unknown,
): Refusal {
  return { status, text: errorMessage(idText, code, message, data) };
}

const MESSAGE_START = '{"jsonrpc":"2.0","id":';
const RESULT_START = ',"result":{';
/** Per server and method, the text `completeResultHead` made. */
const heads = new WeakMap<object, Map<string, string>>();

/**
 * The members `withResultFields` puts first in a `method` result that has no `_meta`: `resultType`,
 * the cache fields and `_meta` with the server's identity, closed (a `,` and the result's own
 * members follow). Made once per server and method; tool results are built with it (tool-results.ts).
 */
export function completeResultHead(
  core: Pick<ServerCore, 'serverInfoMember' | 'cacheFields'>,
  method: string,
): string {
  let byMethod = heads.get(core);
  if (byMethod === undefined) heads.set(core, (byMethod = new Map()));
  let head = byMethod.get(method);
  if (head === undefined) {
    head =
      '"resultType":"complete",' +
      (core.cacheFields.get(method) ?? '') +
      '"_meta":{' +
      core.serverInfoMember +
      '}';
    byMethod.set(method, head);
  }
  return head;
}

/**
 * Adds `resultType` (and for cacheable results `ttlMs` and `cacheScope`, `ServerCore.cacheFields`) and the server's identity
 * (`_meta["io.modelcontextprotocol/serverInfo"]`, `ServerCore.serverInfoMember`, serialized once)
 * to a result message built by `resultMessage`, in front of the result's own fields. Results that
 * already start with `resultType` (input-required) keep theirs; errors pass unchanged. A result
 * with a `_meta` of its own (rare: a handler's) gets the identity merged into it, unless it already
 * names one. A result built already opening with `completeResultHead` passes unchanged, unscanned.
 */
export function withResultFields(
  text: string,
  idText: string,
  method: string,
  core: Pick<ServerCore, 'serverInfoMember' | 'cacheFields'>,
): string {
  // Opening with what would be added (tool results), the text is kept by the rest whatever its
  // prefix: one comparison where the rest would scan a large result for "_meta". (A slice compares
  // in a third of the time `startsWith` takes with a search string the compiler cannot see.)
  const start = MESSAGE_START.length + idText.length + RESULT_START.length;
  const head = completeResultHead(core, method);
  if (text.slice(start, start + head.length) === head) return text;
  const serverInfoMember = core.serverInfoMember;
  const prefix = MESSAGE_START + idText + RESULT_START;
  if (!text.startsWith(prefix)) return text;
  const fields = text.startsWith('"resultType"', prefix.length)
    ? ''
    : '"resultType":"complete",' + (core.cacheFields.get(method) ?? '');
  const rest = text.slice(prefix.length);
  // No "_meta" anywhere in the text, so none at the result's top level: one search, no parsing.
  const metaAt =
    rest.indexOf('"_meta"') === -1 ? -1 : memberStart(text, prefix.length - 1, '_meta');
  if (metaAt === -1)
    return (
      prefix + fields + '"_meta":{' + serverInfoMember + (rest.startsWith('}') ? '}' : '},') + rest
    );
  // A handler's own _meta: merged into, unless it is not an object or already names a server.
  if (
    metaAt === undefined ||
    text.charCodeAt(metaAt) !== 0x7b ||
    memberStart(text, metaAt, META_SERVER_INFO) !== -1
  ) {
    return prefix + fields + rest;
  }
  const inside = text.slice(metaAt + 1);
  const merged =
    text.slice(prefix.length, metaAt + 1) +
    serverInfoMember +
    (/^\s*\}/.test(inside) ? '' : ',') +
    inside;
  return prefix + fields + merged;
}
