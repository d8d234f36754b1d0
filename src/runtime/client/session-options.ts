/**
 * What an app gives a session and each request. Apart from session.ts so the modules a session
 * uses (incoming.ts, subscriptions.ts, connection.ts) can name them without importing the session.
 */
import type { JsonObject } from '../api.js';
import type { ClientHandlers } from './input-handlers.js';
import type { ClientTracing } from './tracing.js';

export interface SessionOptions {
  clientInfo?: { name: string; version: string };
  handlers?: ClientHandlers;
  /** Revisions to offer, newest first (default: all this client speaks). */
  protocolVersions?: readonly string[];
  /** Server notifications other than progress (logging, list changes, …). */
  onNotification?: (method: string, params: JsonObject) => void;
  /** `capabilities.extensions`: the extensions this client supports, by identifier, with their settings. */
  extensions?: Readonly<Record<string, JsonObject>>;
  /** OpenTelemetry spans for requests both ways (tracing.ts); `connect`'s `tracing` starts it. */
  tracing?: ClientTracing;
  /** How long each handshake request waits for its answer (default `CONNECT_TIMEOUT_MS`). */
  connectTimeoutMs?: number;
}

/**
 * The default wait for the answer to `initialize` (and at most `DISCOVER_TIMEOUT_MS` for
 * `server/discover`): a server that starts but never answers fails `connect` instead of hanging it.
 */
export const CONNECT_TIMEOUT_MS = 60_000;

export interface RequestOptions {
  signal?: AbortSignal | undefined;
  timeoutMs?: number | undefined;
  onProgress?:
    ((progress: { progress: number; total?: number; message?: string }) => void) | undefined;
  /** Extra HTTP headers for this request (`Mcp-Param-*`). */
  headers?: Readonly<Record<string, string>> | undefined;
  /**
   * For `subscriptions/listen`: the notifications of the subscription this request opens (those
   * whose `_meta` names its id), instead of `onNotification`.
   */
  onSubscriptionNotification?: ((method: string, params: JsonObject) => void) | undefined;
}
