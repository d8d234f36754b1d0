/// <reference types="node" />
/**
 * Streamable HTTP server transport on `node:http`: one endpoint for POST (client messages), GET
 * (the standalone SSE stream, or the resumption of any stream with `Last-Event-ID`) and DELETE
 * (end a session). Both protocol eras share it: a POST without a session whose `_meta` or
 * `MCP-Protocol-Version` names the stateless revision is served statelessly (stateless.ts).
 *
 * A POST carrying requests is answered with `application/json` unless a handler sends something
 * (progress, a log message, a server→client request) before its result; from that first message on
 * the response is an SSE stream that ends with the result. Session streams are resumable: each
 * starts with a priming event (an id and empty data), every event is stored first (EventStore) and
 * carries its id, and a stream the client lost (or the server closed early with `retry:`, for
 * polling) is resumed by a GET with `Last-Event-ID`, which replays what was missed and then carries
 * the rest of that stream. Each message goes to exactly one stream: a request's own messages to its
 * POST stream, notifications that belong to no request to the standalone GET stream.
 *
 * This file holds the endpoint; the rest is split by concern: what `listenHttp` takes
 * (http-options.ts), the checks a request passes before it is routed (http-admission.ts), a POST
 * up to its era (http-post.ts), the stateful sessions (http-sessions.ts), the stateless path
 * (http-stateless.ts), SSE streams and their resumption (http-sse.ts), the relay of another
 * process's stream (http-relay.ts), a POST's answer channel (http-outbound.ts) and the seam to an
 * OAuth resource server, with its metadata document (http-auth.ts).
 */
import type { AuthInfo } from '../../api.js';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { InMemoryEventStore, type EventStore } from './event-store.js';
import { TRANSPORT_ERROR, quote } from '../../protocol/jsonrpc.js';
import { DEFAULT_HTTP_LIMITS, STATELESS_REVISION, type ServerCore } from '../../server/server.js';
import { statelessGetOrDelete } from './http-rules.js';
import { sendError } from './http-reply.js';
import { HttpSessions } from './http-sessions.js';
import { SseStreams } from './http-sse.js';
import { serveMetadata, type ResourceServerAuth } from './http-auth.js';
import { HttpAdmission } from './http-admission.js';
import type { HttpListener, HttpOptions } from './http-options.js';
import { HttpPost } from './http-post.js';
import { HttpDrain } from './http-drain.js';

export type { HttpListener, HttpOptions } from './http-options.js';

const DEFAULT_IDLE_TIMEOUT = 30 * 60 * 1000;
const DEFAULT_IDLE_STREAM_TIMEOUT = 5 * 60 * 1000;

export function listenHttp(core: ServerCore, options: HttpOptions): Promise<HttpListener> {
  return new HttpTransport(core, options).listen(options.port ?? 0);
}

/** The endpoint: the admission checks (http-admission.ts), then POST (either era), GET and DELETE. */
class HttpTransport {
  private readonly core: ServerCore;
  private readonly host: string;
  private readonly path: string;
  private readonly idleTimeout: number;
  private readonly auth: ResourceServerAuth | undefined;
  /** Host, Origin, `authorize` and bearer-token checks (http-admission.ts). */
  private readonly admission: HttpAdmission;
  /** The stateful era: sessions, their POSTs, GET streams and DELETE. */
  private readonly stateful: HttpSessions;
  /** POSTs of either era. */
  private readonly posts: HttpPost;
  private readonly server: Server;
  private sweeper: NodeJS.Timeout | undefined;
  /** What runs here, and the refusals once draining (http-drain.ts). */
  private readonly draining: HttpDrain;

  constructor(core: ServerCore, options: HttpOptions) {
    this.core = core;
    this.host = options.host ?? '127.0.0.1';
    this.path = options.path ?? '/mcp';
    this.idleTimeout = options.sessionIdleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT;
    this.auth = options.auth;
    this.draining = new HttpDrain(core);
    this.admission = new HttpAdmission(
      this.host,
      options,
      (line) => core.log(line),
      (res, error) => this.failed(res, error),
    );
    if (options.taskStore !== undefined) core.taskStore = options.taskStore;
    const eventStore: EventStore = options.eventStore ?? new InMemoryEventStore();
    const streams = new SseStreams(
      core,
      eventStore,
      options.idleStreamTimeoutMs ?? DEFAULT_IDLE_STREAM_TIMEOUT,
    );
    const maxSessions = options.maxSessions ?? DEFAULT_HTTP_LIMITS.maxSessions;
    this.stateful = new HttpSessions(
      core,
      streams,
      options.sessionStore,
      this.idleTimeout,
      maxSessions,
    );
    this.posts = new HttpPost(
      core,
      options.maxBodyBytes ?? core.limits.maxMessageBytes,
      this.auth,
      streams,
      this.stateful,
      (res, error) => this.failed(res, error),
    );
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
      (req, res) => this.handle(req, res),
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
          () => this.stateful.sweep(),
          Math.min(this.idleTimeout / 2, 60_000),
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
    this.stateful.endAll();
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    const path = query === -1 ? url : url.slice(0, query);
    if (path !== this.path) {
      const metadata = this.auth?.metadataAt(path);
      if (metadata !== undefined && this.admission.hostAllowed(req.headers.host))
        serveMetadata(req, res, metadata);
      else sendError(res, 404, TRANSPORT_ERROR, 'Not Found');
      return;
    }
    if (!this.draining.admit(req, res)) return;
    this.admission.admit(req, res, (auth) => this.route(req, res, auth));
  }

  private route(req: IncomingMessage, res: ServerResponse, auth: AuthInfo | undefined): void {
    if (req.method === 'POST') this.posts.post(req, res, auth);
    else if (
      (req.method === 'GET' || req.method === 'DELETE') &&
      statelessGetOrDelete(this.core, req.headers)
    ) {
      res.setHeader('allow', 'POST');
      sendError(
        res,
        405,
        TRANSPORT_ERROR,
        `Method Not Allowed: ${STATELESS_REVISION} has no ${req.method} on the endpoint, only POST`,
      );
    } else if (req.method === 'GET')
      void this.stateful.get(req, res, auth).catch((error: unknown) => this.failed(res, error));
    else if (req.method === 'DELETE')
      void this.stateful.delete(req, res, auth).catch((error: unknown) => this.failed(res, error));
    else {
      res.setHeader('allow', 'GET, POST, DELETE');
      sendError(res, 405, TRANSPORT_ERROR, `Method Not Allowed: ${quote(req.method ?? '')}`);
    }
  }

  /** A store failed while serving a request: 500 if nothing was sent yet, otherwise drop the connection. */
  private failed(res: ServerResponse, error: unknown): void {
    this.core.log(
      `HTTP request failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    if (!res.headersSent) sendError(res, 500, TRANSPORT_ERROR, 'Internal Server Error');
    else res.destroy();
  }
}
