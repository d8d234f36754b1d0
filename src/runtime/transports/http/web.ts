/**
 * Streamable HTTP as a Web-standard handler, `fetch(Request) → Promise<Response>`, for Bun, Deno,
 * Cloudflare Workers, Next.js route handlers, Hono and anything else that speaks `fetch`: the same
 * endpoint as node:http's (http-endpoint.ts, where every rule lives), reached through
 * web-exchange.ts. It imports no `node:*` module of its own; the server core it serves uses
 * `node:buffer` and `node:crypto` (Workers: the `nodejs_compat` flag).
 *
 * What node:http does for `listenHttp` is the platform's here: header size limits and request
 * timeouts. Idle sessions are swept as requests arrive, not on a timer (a Worker may not keep one).
 */
import { DEFAULT_HTTP_LIMITS, type ServerCore } from '../../server/server.js';
import { HttpEndpoint } from './http-endpoint.js';
import type { WebHttpOptions } from './http-options.js';
import { LegacySse } from './legacy-sse.js';
import { WebRequestIn, WebResponseOut, readWebBody } from './web-exchange.js';

export type { WebHttpOptions } from './http-options.js';

/** Serves one request; what `server.fetchHandler()` returns. */
export type FetchHandler = (request: Request) => Promise<Response>;

/** Cloudflare Workers run each request in whichever isolate is at hand: memory is no session store. */
function onWorkers(): boolean {
  const platform = globalThis as { navigator?: { userAgent?: unknown } };
  return platform.navigator?.userAgent === 'Cloudflare-Workers';
}

export function createFetchHandler(core: ServerCore, options: WebHttpOptions): FetchHandler {
  const authorize = options.authorize;
  const sessions = options.sessions ?? !(onWorkers() && options.sessionStore === undefined);
  const path = options.path ?? '/mcp';
  const endpoint = new HttpEndpoint<WebRequestIn>(core, options, {
    // Nothing tells a handler where it is served: the Host check allows the loopback names
    // unless `allowedHosts` lists the public ones.
    bindHost: '127.0.0.1',
    path,
    authorize: authorize === undefined ? undefined : (req) => authorize(req.request),
    readBody: readWebBody,
    sessions,
    // Where sessions live in this process (legacy-sse.ts).
    legacy:
      sessions && options.legacySse !== false && options.sessionStore === undefined
        ? new LegacySse<WebRequestIn>(core, path, readWebBody, {
            maxBodyBytes: options.maxBodyBytes ?? core.limits.maxMessageBytes,
            maxSessions: options.maxSessions ?? DEFAULT_HTTP_LIMITS.maxSessions,
            maxUnsentBytes: options.maxUnsentBytes ?? DEFAULT_HTTP_LIMITS.maxUnsentBytes,
          })
        : undefined,
  });
  const sweepEvery = Math.min(endpoint.idleTimeout / 2, 60_000);
  let swept = Date.now();
  return (request) => {
    const now = Date.now();
    if (now - swept >= sweepEvery) {
      swept = now;
      endpoint.stateful.sweep();
    }
    const res = new WebResponseOut(request.signal);
    try {
      endpoint.handle(new WebRequestIn(request), res);
    } catch (error) {
      core.log(`HTTP request failed: ${error instanceof Error ? error.message : String(error)}`);
      if (!res.headersSent) res.writeHead(500).end();
    }
    return res.response;
  };
}
