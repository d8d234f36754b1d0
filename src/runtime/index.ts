/// <reference types="node" />
/**
 * The runtime's one entry point. Generated `server.ts` calls `createServer` with the definition it
 * built from the manifest and the user's handlers, then starts a transport.
 */
import type { Readable, Writable } from 'node:stream';
import type {
  ListControl,
  Notifier,
  RequestContext,
  ServerDefinition,
  ServerHandlers,
  ServerOptions,
  TracingOptions,
} from './api.js';
import type { HttpListener, HttpOptions } from './transports/http/http.js';
import type { FetchHandler, WebHttpOptions } from './transports/http/web.js';
import { installFeatures } from './features/index.js';
import { ServerCore } from './server/server.js';
import { serveStdio } from './transports/stdio/stdio.js';

export type * from './api.js';
export { McpError } from './protocol/errors.js';
export { ClientCapabilityError } from './features/input/input-capabilities.js';
export {
  UrlElicitationRequiredError,
  URL_ELICITATION_REQUIRED,
  type RequiredUrlElicitation,
} from './features/input/url-elicitation.js';
export {
  InMemoryEventStore,
  type EventStore,
  type InMemoryEventStoreLimits,
} from './transports/http/event-store.js';
export type { HttpListener, HttpOptions } from './transports/http/http.js';
export type { FetchHandler, WebHttpOptions } from './transports/http/web.js';
export {
  DEFAULT_HTTP_LIMITS,
  DEFAULT_LIMITS,
  RUNTIME_PROTOCOL_VERSIONS,
} from './server/server-settings.js';
export { STATELESS_REVISION } from './protocol/methods.js';
export type { SessionStore } from './transports/http/session-store.js';
export { InMemorySessionStore } from './transports/http/session-store.js';
export { InMemoryTaskStore } from './server/task-store.js';
export type { MessageBus } from './server/message-bus.js';

/**
 * A running server. `Tool` and `Prompt` are the manifest's names (generated `createServer` sets
 * them), so `server.tools.disable('get_weather')` accepts only a tool the manifest lists.
 */
export interface McpServer<Tool extends string = string, Prompt extends string = string> {
  /**
   * Serves one client over newline-delimited JSON on `io` (default: process stdin/stdout).
   * Resolves when the input ends and every in-flight request has been answered.
   */
  serveStdio(io?: { input: Readable; output: Writable }): Promise<void>;
  /** Serves Streamable HTTP clients, each in its own session, until `close` is called. */
  listenHttp(options?: HttpOptions): Promise<HttpListener>;
  /**
   * The same Streamable HTTP endpoint as a Web-standard handler, for Bun, Deno, Workers, Next.js,
   * Hono…: `export default { fetch: server.fetchHandler() }`. Both eras; sessions where a process
   * lives between requests (see `WebHttpOptions.sessions`).
   */
  fetchHandler(options?: WebHttpOptions): FetchHandler;
  /** Announces list changes and resource updates to every listening client (as `context.notify`). */
  readonly notify: Notifier;
  /** Enables, disables and filters tools at run time; each change announces `notifications/tools/list_changed`. */
  readonly tools: ListControl<Tool>;
  /** The same for prompts (`notifications/prompts/list_changed`). */
  readonly prompts: ListControl<Prompt>;
}

/** Checks the definition against the handlers (throws on a missing handler) and precomputes the wire payloads. */
export function createServer<Tool extends string = string, Prompt extends string = string>(
  definition: ServerDefinition,
  handlers: ServerHandlers<RequestContext<Tool, Prompt>>,
  options: ServerOptions = {},
): McpServer<Tool, Prompt> {
  // Handlers typed for `RequestContext<Tool, Prompt>` get the runtime's context: its lists are
  // checked at run time, and their filter only ever sees manifest names, which `Tool` lists.
  const core = new ServerCore(
    definition,
    handlers as unknown as ServerHandlers,
    options,
    installFeatures(),
  );
  // Tracing (docs/tracing.md) loads its module and @opentelemetry/api only when asked for; the
  // transports start once it is on, so every request is traced.
  const tracing =
    options.tracing === undefined || options.tracing === false
      ? undefined
      : import('./server/tracing.js').then((module) =>
          module.startTracing(core, options.tracing as TracingOptions | true),
        );
  // Reported by serveStdio/listenHttp; not an unhandled rejection while main.ts awaits something else.
  tracing?.catch(() => undefined);
  return {
    serveStdio: (io) =>
      tracing === undefined ? serveStdio(core, io) : tracing.then(() => serveStdio(core, io)),
    notify: core.notifier,
    // The filter is only ever called with names from the manifest, which is what `Tool` lists.
    tools: core.toolList as unknown as ListControl<Tool>,
    prompts: core.promptList as unknown as ListControl<Prompt>,
    // Loaded on first use: a stdio server never pays for node:http and node:crypto at start-up.
    listenHttp: async (httpOptions) => {
      await tracing;
      return (await import('./transports/http/http.js')).listenHttp(core, httpOptions ?? {});
    },
    fetchHandler: (webOptions) => lazyFetchHandler(core, webOptions ?? {}, tracing),
  };
}

/**
 * The handler is built on the first request: its modules load only for servers that use it, and a
 * Worker may not make timers or random values at start-up, outside a request.
 */
function lazyFetchHandler(
  core: ServerCore,
  options: WebHttpOptions,
  tracing: Promise<void> | undefined,
): FetchHandler {
  let ready: FetchHandler | undefined;
  let loading: Promise<FetchHandler> | undefined;
  return (request) => {
    if (ready !== undefined) return ready(request);
    // With tracing on, the first request waits for it too.
    loading ??= Promise.all([import('./transports/http/web.js'), tracing])
      .then(([web]) => web)
      .then((web) => (ready = web.createFetchHandler(core, options)));
    return loading.then((handler) => handler(request));
  };
}
