/// <reference types="node" />
/**
 * The client runtime's entry point: everything generated `client.ts` and apps import. Generated
 * `client.ts` calls `openSession` with the app's connection options (connect-options.ts) and binds
 * one typed method per tool to `callTool` (tool-calls.ts); other requests are plain-requests.ts.
 * Where it connects, and on which wire, is connect.ts: Node's (stdio, HTTP on node:http), or in a
 * client generated with `--browser` connect-browser.ts under that name (HTTP on fetch), so this
 * module imports no `node:*`.
 */
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
export {
  listCacheFor,
  openSession,
  type ClientOptions,
  type ConnectOptions,
} from './connect-options.js';
export {
  bindListedTool,
  callTool,
  callToolByName,
  callToolFull,
  rememberListedTools,
  type ClientToolBinding,
} from './tool-calls.js';
export { expandUriTemplate, listAll, ping, requestWith } from './plain-requests.js';

export type { ServerIdentity as Server } from './session.js';
