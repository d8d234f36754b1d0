/**
 * A node:http server that serves a `fetch(Request) → Promise<Response>` handler, converting and
 * nothing else, as Bun, Deno or a Workers runtime would: request line and headers (each header
 * line kept, as the platform's `Headers` joins repeats), the body as a stream, the client's
 * disconnection as the request's abort signal, and the response's status, headers and body
 * (streamed chunk by chunk, so SSE arrives as it is written). Test support only.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { HttpListener } from '../../src/runtime/index.js';

export interface BridgeOptions {
  port?: number | undefined;
  host?: string | undefined;
  path?: string | undefined;
  maxHeaderBytes?: number | undefined;
  headersTimeoutMs?: number | undefined;
  requestTimeoutMs?: number | undefined;
  keepAliveTimeoutMs?: number | undefined;
}

type FetchHandler = (request: Request) => Promise<Response>;

export function serveFetch(handler: FetchHandler, options: BridgeOptions = {}): Promise<HttpListener> {
  const host = options.host ?? '127.0.0.1';
  const headersTimeout = options.headersTimeoutMs ?? 10_000;
  const requestTimeout = options.requestTimeoutMs ?? 30_000;
  const server = createServer(
    {
      maxHeaderSize: options.maxHeaderBytes ?? 16 * 1024,
      headersTimeout,
      requestTimeout,
      keepAliveTimeout: options.keepAliveTimeoutMs ?? 5_000,
      connectionsCheckingInterval: Math.max(10, Math.min(headersTimeout, requestTimeout, 30_000) / 4),
    },
    (req, res) => void bridge(handler, req, res, base),
  );
  let base = '';
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      base = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
      const close = (): Promise<void> =>
        new Promise<void>((done) => {
          server.close(() => done());
          server.closeAllConnections();
        });
      resolve({
        url: `${base}${options.path ?? '/mcp'}`,
        close,
        // Draining is the node:http adapter's (http-drain.ts); the platform serving a fetch handler owns its shutdown.
        drain: () => close(),
      });
    });
  });
}

async function bridge(handler: FetchHandler, req: IncomingMessage, res: ServerResponse, base: string): Promise<void> {
  const aborted = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) aborted.abort();
  });
  let request: Request;
  try {
    const headers = new Headers();
    for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    request = new Request(new URL(req.url ?? '/', base), {
      method: req.method ?? 'GET',
      headers,
      signal: aborted.signal,
      ...(hasBody ? { body: bodyOf(req), duplex: 'half' } : {}),
    } as RequestInit);
  } catch {
    // What the platform refuses before any handler sees it.
    res.writeHead(400).end();
    return;
  }
  try {
    const response = await handler(request);
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => (headers[name] = value));
    res.writeHead(response.status, headers);
    if (response.body === null) {
      res.end();
      return;
    }
    res.flushHeaders();
    const reader = response.body.getReader();
    res.on('close', () => void reader.cancel().catch(() => {}));
    // Reads the body only as fast as the client takes it, as Bun, Deno and Workers do.
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) break;
      if (!res.write(chunk.value)) await drained(res);
      if (res.destroyed) return;
    }
    res.end();
  } catch {
    res.destroy();
  }
}

/** Resolves once `res` takes writes again, or has closed. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done).off('close', done);
      resolve();
    };
    res.on('drain', done).on('close', done);
  });
}

/** The request body as a Web stream; a cancelled one is drained, never reset (the answer still goes out). */
function bodyOf(req: IncomingMessage): ReadableStream<Uint8Array> {
  let open = true;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      req.on('data', (chunk: Buffer) => {
        if (!open) return;
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length));
        if ((controller.desiredSize ?? 1) <= 0) req.pause();
      });
      req.on('end', () => {
        if (open) controller.close();
        open = false;
      });
      req.on('error', (error) => {
        if (open) controller.error(error);
        open = false;
      });
    },
    pull() {
      req.resume();
    },
    cancel() {
      open = false;
      req.resume();
    },
  });
}
