/**
 * What one typed call may add to its request: `_meta` (trace context, vendor keys) and the level of
 * the log messages the app wants while it runs. At 2026-07-28 the level travels in the request's
 * `_meta` (`io.modelcontextprotocol/logLevel`); the stateful revisions only know a session-wide
 * level, so the call sends `logging/setLevel` first when the level it asks for is not the one set.
 */
import type { JsonObject } from '../api.js';
import { isObject } from '../protocol/jsonrpc.js';
import type { ClientSession, RequestOptions } from './session.js';
import { LOGGING_SET_LEVEL } from '../protocol/methods.js';

export type LoggingLevel =
  'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

/** Where 2026-07-28 reads a request's log level. */
export const META_LOG_LEVEL = 'io.modelcontextprotocol/logLevel';

/** `_meta` a call may carry. The runtime's own keys (revision, capabilities, client info, progress token) win over these. */
export interface RequestMeta {
  /** W3C Trace Context of the caller's span (OpenTelemetry). */
  traceparent?: string;
  tracestate?: string;
  /** W3C Baggage. */
  baggage?: string;
  [key: string]: unknown;
}

/** Options of one call. */
export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
  /** Added to the request's `_meta`. */
  _meta?: RequestMeta;
  /**
   * The least severe log message the app wants while this call runs (delivered to `onLog`). At
   * 2026-07-28 it applies to this request alone; in the stateful revisions it becomes the session's
   * level (`logging/setLevel`, sent only when it changes).
   */
  logLevel?: LoggingLevel;
}

/** Per session: the level set with `logging/setLevel` (stateful), or the default put on every request (2026-07-28). */
const sessionLevels = new WeakMap<ClientSession, LoggingLevel>();

/**
 * The session's log level: at 2026-07-28 every later request asks for it in `_meta` (a call's own
 * `logLevel` wins); in the stateful revisions `logging/setLevel` is sent now.
 */
export async function setLogLevel(
  session: ClientSession,
  level: LoggingLevel,
  options: CallOptions = {},
): Promise<void> {
  if (!session.stateless)
    await session.request(LOGGING_SET_LEVEL, { level }, requestOptions(options));
  sessionLevels.set(session, level);
}

/** The options of a call that gives none: shared, never written to. */
const NO_REQUEST_OPTIONS: RequestOptions = Object.freeze({});

/** The transport-level options of a call (the rest goes into params). */
export function requestOptions(options: CallOptions | undefined): RequestOptions {
  if (options === undefined) return NO_REQUEST_OPTIONS;
  return {
    signal: options.signal,
    timeoutMs: options.timeoutMs,
    onProgress: options.onProgress,
  };
}

/**
 * The params of a request with the call's `_meta` and log level put in; in a stateful session,
 * `logging/setLevel` goes first when the call asks for a level the session does not have.
 */
export async function prepareParams(
  session: ClientSession,
  params: JsonObject,
  options: CallOptions | undefined,
): Promise<JsonObject> {
  const level = levelToSet(session, options);
  if (level !== undefined) await setLogLevel(session, level, options);
  return paramsWithMeta(session, params, options);
}

/**
 * The level a stateful session must set with `logging/setLevel` before this call, if any. A call
 * with none to set skips prepareParams' wait and builds its params at once (paramsWithMeta).
 */
export function levelToSet(
  session: ClientSession,
  options: CallOptions | undefined,
): LoggingLevel | undefined {
  const level = options?.logLevel;
  if (level === undefined || session.stateless || sessionLevels.get(session) === level)
    return undefined;
  return level;
}

/** The params with the call's `_meta` and log level put in (after any `levelToSet` was set). */
export function paramsWithMeta(
  session: ClientSession,
  params: JsonObject,
  options: CallOptions | undefined,
): JsonObject {
  if (!session.stateless) return withMeta(params, options?._meta, undefined);
  // A level named in the call's own `_meta` is left as it is; the session default fills a gap only.
  const fallback =
    options?._meta?.[META_LOG_LEVEL] === undefined ? sessionLevels.get(session) : undefined;
  return withMeta(params, options?._meta, options?.logLevel ?? fallback);
}

function withMeta(
  params: JsonObject,
  extra: RequestMeta | undefined,
  level: LoggingLevel | undefined,
): JsonObject {
  if (extra === undefined && level === undefined) return params;
  const meta: JsonObject = isObject(params['_meta']) ? { ...params['_meta'] } : {};
  if (extra !== undefined)
    for (const key of Object.keys(extra))
      if (extra[key] !== undefined) defineOwn(meta, key, extra[key]);
  if (level !== undefined) meta[META_LOG_LEVEL] = level;
  return { ...params, _meta: meta };
}

/** An own, enumerable property even for a key such as `__proto__`. */
function defineOwn(target: JsonObject, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}
