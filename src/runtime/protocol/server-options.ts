/**
 * What `createServer` takes besides the definition and the handlers: the logger, the state secret,
 * the limits and the task settings. Kept apart from api.ts (the contract with generated code),
 * which re-exports them.
 */
import type { TaskStore } from './task-types.js';

export interface ServerOptions {
  /** Where diagnostics go; the stdio transport must never write them to stdout. Default: stderr. */
  logger?: (line: string) => void;
  /**
   * Key that signs the `requestState` of 2026-07-28 input-required results (HMAC-SHA256), so a
   * client cannot alter it. Default: random per process; give every process behind one load
   * balancer the same secret.
   */
  stateSecret?: string;
  /** Bounds on what one client may make the server do; every field has a default (`DEFAULT_LIMITS`). */
  limits?: ServerLimits;
  /** Tasks (tools with `execution.taskSupport`): lifetimes, poll interval and where their state lives. */
  tasks?: TaskOptions;
  /**
   * OpenTelemetry spans and metrics for every request (docs/tracing.md). Off by default: nothing of
   * OpenTelemetry is loaded then. `true` loads `@opentelemetry/api` before the server serves.
   */
  tracing?: boolean | TracingOptions;
}

/** Tracing settings, for the server (`ServerOptions.tracing`) and the client (`connect`'s `tracing`). */
export interface TracingOptions {
  /**
   * The `@opentelemetry/api` module object, when the app has it at hand (a bundle). Default: it
   * is imported from the app's node_modules when tracing starts.
   */
  api?: object;
  /** The instrumentation scope of the tracer and the meter. Default `mcp-gen`. */
  scope?: string;
}

export interface TaskOptions {
  /** How long a task is kept from its creation when the client asks for no TTL. Default 1 hour. */
  ttlMs?: number;
  /** The longest TTL a 2025-11-25 client may ask for. Default 24 hours. */
  maxTtlMs?: number;
  /** The poll interval suggested to clients. Default: `taskSettings` in server/task-settings.ts. */
  pollIntervalMs?: number;
  /** Tasks whose handlers may run at once in this process; a call beyond that is refused with -32000. Default 1000. */
  maxRunning?: number;
  /**
   * Where task state lives (`InMemoryTaskStore` by default). Several processes sharing one store
   * (`connectRedisStores`) answer `tasks/get` for each other's tasks.
   */
  store?: TaskStore;
}

/** Limits of both transports. HTTP adds its own in `HttpOptions`. */
export interface ServerLimits {
  /**
   * The largest message, in bytes of UTF-8: a longer stdio line is dropped and answered with
   * -32600 (id null); on HTTP it is the default of `maxBodyBytes` (413). Default 4 MiB.
   */
  maxMessageBytes?: number;
  /** The deepest nesting of arrays and objects in a message; deeper gets -32600 (id null). Default 64. */
  maxDepth?: number;
  /**
   * Requests whose handlers may run at once on one stdio connection or HTTP session; a request
   * beyond that is answered -32000 at once (ping is always answered). Default 64.
   */
  maxInFlight?: number;
  /**
   * A handler still running after this long is cancelled (its signal aborts) and its request is
   * answered with an error: a tool with `isError: true`, anything else with -32603. 0 disables it.
   * Default: `DEFAULT_LIMITS` (server/server-settings.ts).
   */
  handlerTimeoutMs?: number;
}
