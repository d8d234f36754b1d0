/**
 * The HTTP tests run against both adapters of the one endpoint: node:http (`listenHttp`) and the
 * Web-standard handler (`fetchHandler`). A test listens through `listen` here; a file under
 * test/transports/ selects the web adapter with `useAdapter('web')` and imports the Node test file,
 * so the very same cases run against both. The web handler is served from a node:http server that
 * only converts (web-bridge.ts), as Bun or Deno would serve it: what the platform's server does
 * (header size, request timeouts) is that server's, everything else is the handler's.
 */
import type { IncomingMessage } from 'node:http';
import type { HttpListener, HttpOptions, McpServer } from '../../src/runtime/index.js';
import { serveFetch } from './web-bridge.js';

export type Adapter = 'node' | 'web';
let current: Adapter = 'node';

export function useAdapter(adapter: Adapter): void {
  current = adapter;
}

export function adapter(): Adapter {
  return current;
}

/** How many endpoints each adapter served: a web run that served none proves nothing. */
export const served: Record<Adapter, number> = { node: 0, web: 0 };

/** `server.listenHttp(options)`, or the same options given to the web handler behind a bridge. */
export function listen(server: Pick<McpServer, 'listenHttp' | 'fetchHandler'>, options: HttpOptions = {}): Promise<HttpListener> {
  served[current]++;
  if (current === 'node') return server.listenHttp(options);
  const { port, host, path, maxHeaderBytes, headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs, authorize, ...rules } = options;
  const handler = server.fetchHandler({
    ...rules,
    ...(path === undefined ? {} : { path }),
    // The hooks of these tests read headers only: the Request's, in node:http's shape.
    ...(authorize === undefined ? {} : { authorize: (request: Request) => authorize(asIncoming(request)) }),
  });
  return serveFetch(handler, { port, host, path, maxHeaderBytes, headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs });
}

function asIncoming(request: Request): IncomingMessage {
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => (headers[name] = value));
  return { method: request.method, url: new URL(request.url).pathname, headers } as unknown as IncomingMessage;
}
