/// <reference types="node" />
/**
 * The client runtime's entry point. Generated `client.ts` calls `openSession` with the app's
 * connection options and binds one typed method per tool to `callTool`. Where it connects, and on
 * which wire, is connect.ts: Node's (stdio, HTTP on node:http), or in a client generated with
 * `--browser` connect-browser.ts under that name (HTTP on fetch), so this module imports no `node:*`.
 */
import type { JsonObject, Validator } from '../api.js';
import {
  prepareParams,
  requestOptions,
  type CallOptions,
  type LoggingLevel,
} from './call-options.js';
import { OutputValidationError, ToolError } from './errors.js';
import { recoverToolCall } from './input-rounds.js';
import { headerMirrors, paramHeaders, type HeaderMirror } from './headers.js';
import {
  bindListCache,
  itemsOf,
  ListCache,
  listPagesCached,
  type CacheBinding,
} from './list-cache.js';
import {
  ClientSession,
  STATELESS_REVISION,
  type ClientHandlers,
  type RequestOptions,
  type ServerIdentity,
} from './session.js';
import { transportFor, type ServerLocation } from './connect.js';

export { McpError } from '../protocol/errors.js';
export type { JsonObject, Validator } from '../api.js';
export * from './errors.js';
export { ClientSession, CLIENT_PROTOCOL_VERSIONS, STATELESS_REVISION } from './session.js';
export type { ClientHandlers, RequestOptions, ServerIdentity, SessionOptions } from './session.js';
export * from './connect.js';
export type {
  AuthOption,
  HttpAuth,
  OAuthOptions,
  StoredClient,
  StoredTokens,
  TokenProvider,
  TokenStore,
} from './http-auth.js';
export type { Subscription, SubscriptionEnd, SubscriptionNotification } from './subscriptions.js';
export { headerMirrors, headerValue, paramHeaderValue, type HeaderMirror } from './headers.js';
export type { ClientTransport, OutgoingInfo } from './transport.js';
export {
  META_LOG_LEVEL,
  setLogLevel,
  type CallOptions,
  type LoggingLevel,
  type RequestMeta,
} from './call-options.js';
export {
  listen,
  type ChangeNotification,
  type ListenFilter,
  type StopListening,
} from './listen.js';
export { ListCache, type CacheBinding } from './list-cache.js';
export {
  startToolTask,
  TaskCancelledError,
  TASKS_EXTENSION,
  type TaskHandle,
  type TaskOptions,
  type TaskState,
  type TaskStatus,
} from './tasks.js';

export interface ClientOptions {
  clientInfo?: { name: string; version: string };
  /** Answers to what the server asks; each declares its capability only when given. */
  handlers?: ClientHandlers;
  /** Revisions to offer, newest first (default: every revision the runtime speaks). */
  protocolVersions?: readonly string[];
  /** Server notifications other than progress (list changes, …; log messages too unless `onLog` is given). */
  onNotification?: (method: string, params: JsonObject) => void;
  /** `notifications/message`: the log messages the server sends at the level the app asked for. */
  onLog?: (message: { level: LoggingLevel; logger?: string; data: unknown }) => void;
  /** `capabilities.extensions`: extension identifier → its settings (`{}` for none). */
  extensions?: Readonly<Record<string, JsonObject>>;
  /** Keep list pages as long as the server's `ttlMs`/`cacheScope` allow (2026-07-28); one cache may serve several connections. */
  listCache?: ListCache | boolean;
  /**
   * The authorization context `private` cached pages belong to: connections sharing a cache and
   * naming the same context share them. Default: this connection alone.
   */
  cacheContext?: string;
}

export type ConnectOptions = ServerLocation & ClientOptions;

/** Connects and negotiates; the session is ready for requests. */
export async function openSession(options: ConnectOptions): Promise<ClientSession> {
  const onNotification = notificationRouter(options);
  const session = new ClientSession(await transportFor(options), {
    ...(options.clientInfo ? { clientInfo: options.clientInfo } : {}),
    ...(options.handlers ? { handlers: options.handlers } : {}),
    ...(options.protocolVersions ? { protocolVersions: options.protocolVersions } : {}),
    ...(onNotification ? { onNotification } : {}),
    ...(options.extensions ? { extensions: options.extensions } : {}),
  });
  try {
    await session.connect();
  } catch (error) {
    await session.close().catch(() => {});
    throw error;
  }
  return session;
}

/** Log messages to `onLog` when given; everything else to `onNotification`. */
function notificationRouter(
  options: ClientOptions,
): ((method: string, params: JsonObject) => void) | undefined {
  const { onLog, onNotification } = options;
  if (onLog === undefined) return onNotification;
  return (method, params) => {
    if (method !== 'notifications/message') return onNotification?.(method, params);
    const message: { level: LoggingLevel; logger?: string; data: unknown } = {
      level: params['level'] as LoggingLevel,
      data: params['data'],
    };
    if (typeof params['logger'] === 'string') message.logger = params['logger'];
    onLog(message);
  };
}

/** Numbers this process's connections: each one's own list-cache context unless the app names one. */
let connections = 0;

/** The list cache of a connection, when the app asked for one. */
export function listCacheFor(
  session: ClientSession,
  options: ConnectOptions,
): CacheBinding | undefined {
  if (options.listCache === undefined || options.listCache === false) return undefined;
  const cache = options.listCache === true ? new ListCache() : options.listCache;
  // Either kind of location (a browser client's connect.ts has no stdio one).
  const location: { url?: string | URL; command?: string; args?: readonly string[] } = options;
  const server =
    location.url !== undefined
      ? `url ${String(location.url)}`
      : `command ${JSON.stringify([location.command, ...(location.args ?? [])])}`;
  return bindListCache(
    session,
    cache,
    server,
    options.cacheContext ?? `connection ${++connections}`,
  );
}

/** `ping`: the stateful revisions have it; 2026-07-28 does not, and says so instead of sending it. */
export async function ping(session: ClientSession, options: CallOptions = {}): Promise<void> {
  if (session.stateless)
    throw new Error(
      `ping does not exist in protocol revision ${STATELESS_REVISION} (this session speaks it); any request shows the server is there`,
    );
  await session.request('ping', await prepareParams(session, {}, options), requestOptions(options));
}

/** What generated code knows about one tool. */
export interface ClientToolBinding {
  /** Wire name. */
  readonly name: string;
  /** Present exactly when the tool declares an outputSchema. */
  readonly validateOutput?: Validator<unknown>;
  /** Arguments mirrored into `Mcp-Param-<header>` (HTTP). */
  readonly headers?: readonly HeaderMirror[];
}

/**
 * A binding for a tool known only at run time (from tools/list): its header mirrors, or why it must
 * not be called (invalid `x-mcp-header`). Output is not validated: there is no precompiled validator.
 */
export function bindListedTool(
  tool: JsonObject,
): { binding: ClientToolBinding } | { problem: string } {
  const name = tool['name'];
  if (typeof name !== 'string') return { problem: 'the tool has no name' };
  const input = tool['inputSchema'];
  const mirrors =
    typeof input === 'object' && input !== null && !Array.isArray(input)
      ? headerMirrors(input as JsonObject)
      : { mirrors: [] };
  if ('problem' in mirrors) return { problem: `tool ${JSON.stringify(name)}: ${mirrors.problem}` };
  return { binding: mirrors.mirrors.length > 0 ? { name, headers: mirrors.mirrors } : { name } };
}

/**
 * `tools/call`, then: `isError` → ToolError; a tool with an outputSchema → its `structuredContent`,
 * validated (OutputValidationError keeps the raw result); otherwise the whole result.
 */
export async function callTool(
  session: ClientSession,
  binding: ClientToolBinding,
  input: unknown,
  options: CallOptions = {},
): Promise<unknown> {
  let result: JsonObject;
  try {
    result = await sendToolCall(session, binding, input, options);
  } catch (error) {
    result = await recovered(session, binding, input, options, error);
  }
  if (result['isError'] === true) throw new ToolError(binding.name, result);
  if (binding.validateOutput === undefined) return result;
  return validatedOutput(binding, result);
}

/**
 * `tools/call` resolving with the whole result (`content`, `structuredContent`, `_meta`, `isError`):
 * an `isError` result is returned, not thrown; otherwise a tool with an outputSchema has its
 * `structuredContent` validated as `callTool` does.
 */
export async function callToolFull(
  session: ClientSession,
  binding: ClientToolBinding,
  input: unknown,
  options: CallOptions = {},
): Promise<JsonObject> {
  let result: JsonObject;
  try {
    result = await sendToolCall(session, binding, input, options);
  } catch (error) {
    result = await recovered(session, binding, input, options, error);
  }
  if (result['isError'] !== true && binding.validateOutput !== undefined)
    validatedOutput(binding, result);
  return result;
}

async function sendToolCall(
  session: ClientSession,
  binding: ClientToolBinding,
  input: unknown,
  options: CallOptions,
): Promise<JsonObject> {
  const request = requestOptions(options);
  if (binding.headers !== undefined && binding.headers.length > 0)
    request.headers = paramHeaders(binding.headers, input);
  return session.request(
    'tools/call',
    await prepareParams(session, { name: binding.name, arguments: input ?? {} }, options),
    request,
  );
}

/** A refused call: a URL elicitation first, or an undeclared capability as ToolError (input-rounds.ts). */
function recovered(
  session: ClientSession,
  binding: ClientToolBinding,
  input: unknown,
  options: CallOptions,
  error: unknown,
): Promise<JsonObject> {
  return recoverToolCall(
    binding.name,
    session.handlers,
    error,
    () => sendToolCall(session, binding, input, options),
    options.signal,
  );
}

/**
 * A tool by wire name, known at generation (`known`: validated and typed as its method), listed by
 * `listTools()` since (`listed`: its header mirrors, and its `structuredContent` when it declares an
 * outputSchema), or neither (the whole result). `isError` rejects with ToolError either way.
 */
export function callToolByName(
  session: ClientSession,
  known: ReadonlyMap<string, ClientToolBinding>,
  listed: ReadonlyMap<string, ClientToolBinding>,
  name: string,
  input: unknown,
  options: CallOptions = {},
): Promise<unknown> {
  return callTool(session, known.get(name) ?? listed.get(name) ?? { name }, input, options);
}

/** Keeps a binding for each listed tool (`callToolByName`); resolves with the list unchanged. */
export async function rememberListedTools(
  listing: Promise<JsonObject[]>,
  listed: Map<string, ClientToolBinding>,
): Promise<JsonObject[]> {
  const tools = await listing;
  for (const tool of tools) {
    const bound = bindListedTool(tool);
    if (!('binding' in bound)) continue;
    // No precompiled validator: the listed outputSchema only says structuredContent must be there.
    const structured = typeof tool['outputSchema'] === 'object' && tool['outputSchema'] !== null;
    listed.set(
      bound.binding.name,
      structured ? { ...bound.binding, validateOutput: anyOutput } : bound.binding,
    );
  }
  return tools;
}

const anyOutput: Validator<unknown> = Object.assign((_value: unknown): _value is unknown => true, {
  errors: null,
});

/** The result's `structuredContent` if the tool's validator accepts it; OutputValidationError (keeping the raw result) otherwise. */
function validatedOutput(binding: ClientToolBinding, result: JsonObject): unknown {
  const validate = binding.validateOutput as Validator<unknown>;
  if (!('structuredContent' in result))
    throw new OutputValidationError(binding.name, result, [], 'it has no structuredContent');
  const output = result['structuredContent'];
  if (!validate(output)) throw new OutputValidationError(binding.name, result, validate.errors);
  return output;
}

/** Any request with the call's `_meta` and log level (call-options.ts). */
export async function requestWith(
  session: ClientSession,
  method: string,
  params: JsonObject,
  options: CallOptions = {},
): Promise<JsonObject> {
  return session.request(
    method,
    await prepareParams(session, params, options),
    requestOptions(options),
  );
}

/** Every page of a list method, concatenated; through the connection's list cache when it has one. */
export async function listAll(
  session: ClientSession,
  method: string,
  field: string,
  options: CallOptions = {},
  cache?: CacheBinding,
): Promise<JsonObject[]> {
  const params = await prepareParams(session, {}, options);
  const request: RequestOptions = requestOptions(options);
  if (cache !== undefined)
    return itemsOf(await listPagesCached(session, cache, method, request, params), field);
  const pages: JsonObject[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  do {
    const result = await session.request(
      method,
      cursor === undefined ? params : { ...params, cursor },
      request,
    );
    pages.push(result);
    const next = result['nextCursor'];
    cursor = typeof next === 'string' && next !== '' && !seen.has(next) ? next : undefined;
    if (cursor !== undefined) seen.add(cursor);
  } while (cursor !== undefined);
  return itemsOf(pages, field);
}

/** Expands a level-1 (`{name}`) / reserved (`{+name}`) URI template. */
export function expandUriTemplate(
  template: string,
  variables: Readonly<Record<string, string>>,
): string {
  return template.replace(/\{(\+?)([^{}]+)\}/g, (_, reserved: string, name: string) => {
    const value = Object.hasOwn(variables, name) ? (variables[name] as string) : '';
    return reserved === '+' ? encodeURI(value) : encodeURIComponent(value);
  });
}

export type { ServerIdentity as Server };
