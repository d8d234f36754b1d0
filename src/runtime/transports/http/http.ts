/// <reference types="node" />
/**
 * Streamable HTTP on `node:http`: the adapter that serves the endpoint (http-endpoint.ts, where
 * every rule of the transport lives) from a node:http server. Node's `IncomingMessage` and
 * `ServerResponse` are the shapes the rules take (http-exchange.ts), so they pass straight through;
 * what is Node's own is here: the server, its header size and timeout limits (431, 408), reading a
 * body from the request stream, and the idle-session sweep on a timer.
 *
 * A POST carrying requests is answered with `application/json` unless a handler sends something
 * (progress, a log message, a server→client request) before its result; from that first message on
 * the response is an SSE stream that ends with the result. Session streams are resumable: each
 * starts with a priming event (an id and empty data), every event is stored first (EventStore) and
 * carries its id, and a stream the client lost (or the server closed early with `retry:`, for
 * polling) is resumed by a GET with `Last-Event-ID`, which replays what was missed and then carries
 * the rest of that stream. Each message goes to exactly one stream: a request's own messages to its
 * POST stream, notifications that belong to no request to the standalone GET stream. A POST without
 * a session whose `_meta` or `MCP-Protocol-Version` names the stateless revision is served
 * statelessly (http-stateless.ts). Beside the endpoint, `sse` and `messages` serve the legacy
 * HTTP+SSE transport of 2024-11-05 for the clients that still use it (legacy-sse.ts; `legacySse: false`
 * turns it off).
 */
import { Buffer } from 'node:buffer';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { DEFAULT_HTTP_LIMITS, type ServerCore } from '../../server/server.js';
import { BodyCollector, type DecodeBody } from './http-body.js';
import { HttpEndpoint } from './http-endpoint.js';
import type { HttpListener, HttpOptions } from './http-options.js';
import { LegacySse } from './legacy-sse.js';
import { HttpDrain } from './http-drain.js';

export type { HttpListener, HttpOptions } from './http-options.js';

export function listenHttp(core: ServerCore, options: HttpOptions): Promise<HttpListener> {
  return new HttpTransport(core, options).listen(options.port ?? 0);
}

/** Most bodies arrive in one chunk: decoding it directly saves a copy of every large body. */
const decodeBuffers: DecodeBody = (chunks, size) =>
  chunks.length === 1
    ? (chunks[0] as Buffer).toString('utf8')
    : Buffer.concat(chunks, size).toString('utf8');

/** The body of a node:http request, chunk by chunk, under the shared limit (http-body.ts). */
function readNodeBody(
  req: IncomingMessage,
  maxBytes: number,
  done: (body: string) => void,
  tooLarge: (idText: string) => void,
): void {
  const body = new BodyCollector(maxBytes, decodeBuffers, done, tooLarge);
  req.on('data', (chunk: Buffer) => body.push(chunk));
  req.on('end', () => body.end());
}

/** The node:http server in front of the endpoint. */
class HttpTransport {
  private readonly host: string;
  private readonly path: string;
  private readonly endpoint: HttpEndpoint<IncomingMessage>;
  private readonly server: Server;
  private sweeper: NodeJS.Timeout | undefined;
  /** What runs here, and the refusals once draining (http-drain.ts). */
  private readonly draining: HttpDrain;

  constructor(core: ServerCore, options: HttpOptions) {
    this.host = options.host ?? '127.0.0.1';
    this.path = options.path ?? '/mcp';
    this.endpoint = new HttpEndpoint<IncomingMessage>(core, options, {
      bindHost: this.host,
      path: this.path,
      authorize: options.authorize,
      readBody: readNodeBody,
      sessions: true,
      // Not with a shared sessionStore: a legacy session lives in the process holding its stream.
      legacy:
        options.legacySse === false || options.sessionStore !== undefined
          ? undefined
          : new LegacySse<IncomingMessage>(core, this.path, readNodeBody, {
              maxBodyBytes: options.maxBodyBytes ?? core.limits.maxMessageBytes,
              maxSessions: options.maxSessions ?? DEFAULT_HTTP_LIMITS.maxSessions,
              maxUnsentBytes: options.maxUnsentBytes ?? DEFAULT_HTTP_LIMITS.maxUnsentBytes,
            }),
    });
    this.draining = new HttpDrain(core, this.endpoint.legacy);
    const headersTimeout = options.headersTimeoutMs ?? DEFAULT_HTTP_LIMITS.headersTimeoutMs;
    const requestTimeout = options.requestTimeoutMs ?? DEFAULT_HTTP_LIMITS.requestTimeoutMs;
    this.server = createServer(
      {
        maxHeaderSize: options.maxHeaderBytes ?? DEFAULT_HTTP_LIMITS.maxHeaderBytes,
        headersTimeout,
        requestTimeout,
        keepAliveTimeout: options.keepAliveTimeoutMs ?? DEFAULT_HTTP_LIMITS.keepAliveTimeoutMs,
        // node:http enforces the two timeouts only when it checks its connections: often enough.
        connectionsCheckingInterval: Math.max(
          10,
          Math.min(headersTimeout, requestTimeout, 30_000) / 4,
        ),
      },
      (req, res) => {
        if (this.draining.admit(req, res)) this.endpoint.handle(req, res);
      },
    );
  }

  listen(port: number): Promise<HttpListener> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, this.host, () => {
        this.server.off('error', reject);
        const address = this.server.address();
        const boundPort = typeof address === 'object' && address !== null ? address.port : port;
        const host = this.host.includes(':') ? `[${this.host}]` : this.host;
        this.sweeper = setInterval(
          () => this.endpoint.stateful.sweep(),
          Math.min(this.endpoint.idleTimeout / 2, 60_000),
        );
        this.sweeper.unref();
        resolve({
          url: `http://${host}:${boundPort}${this.path}`,
          close: () => this.close(),
          drain: (deadlineMs) =>
            this.draining.drain(
              deadlineMs,
              () => {
                this.server.close();
                this.server.closeIdleConnections();
              },
              () => this.close(),
            ),
        });
      });
    });
  }

  private close(): Promise<void> {
    clearInterval(this.sweeper);
    this.endpoint.stateful.endAll();
    this.endpoint.legacy?.endAll();
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }
}
