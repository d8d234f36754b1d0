/**
 * What an app passes to `connect`: where the server is (connect.ts) and how this client behaves
 * there (handlers, revisions, notifications, log messages, the list cache), turned into an open
 * session and, when asked for, the connection's list cache.
 */
import type { JsonObject, TracingOptions } from '../api.js';
import type { LoggingLevel } from './call-options.js';
import { transportFor, type ServerLocation } from './connect.js';
import { bindListCache, ListCache, type CacheBinding } from './list-cache.js';
import { ClientSession, type ClientHandlers } from './session.js';
import { MESSAGE } from '../protocol/methods.js';

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
  /**
   * OpenTelemetry spans and a duration metric for every request, with the trace context sent in
   * each request's `_meta` (docs/tracing.md). Off by default; loads `@opentelemetry/api` when on.
   */
  tracing?: boolean | TracingOptions;
  /**
   * How long `connect` waits for the server to answer its handshake (default 60 s): a server that
   * starts but never answers makes `connect` reject with `RequestTimeoutError`. The time a person
   * takes to sign in (OAuth in a browser) is not counted.
   */
  connectTimeoutMs?: number;
}

export type ConnectOptions = ServerLocation & ClientOptions;

/** Connects and negotiates; the session is ready for requests. */
export async function openSession(options: ConnectOptions): Promise<ClientSession> {
  const onNotification = notificationRouter(options);
  const tracing =
    options.tracing === undefined || options.tracing === false
      ? undefined
      : await (await import('./tracing.js')).startClientTracing(options.tracing);
  const session = new ClientSession(await transportFor(options), {
    ...(tracing ? { tracing } : {}),
    ...(options.clientInfo ? { clientInfo: options.clientInfo } : {}),
    ...(options.handlers ? { handlers: options.handlers } : {}),
    ...(options.protocolVersions ? { protocolVersions: options.protocolVersions } : {}),
    ...(onNotification ? { onNotification } : {}),
    ...(options.extensions ? { extensions: options.extensions } : {}),
    ...(options.connectTimeoutMs !== undefined
      ? { connectTimeoutMs: options.connectTimeoutMs }
      : {}),
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
    if (method !== MESSAGE) return onNotification?.(method, params);
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
