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
 * This file holds the endpoint and the POST entry; the rest is split by concern: the checks a
 * request passes before it is routed (http-admission.ts), the stateful sessions (http-sessions.ts),
 * the stateless path (http-stateless.ts), SSE streams and their resumption (http-sse.ts), the relay
 * of another process's stream (http-relay.ts) and a POST's answer channel (http-outbound.ts).
 */
import type { AuthInfo } from '../../api.js';
import type { TaskStore } from '../../features/tasks/task-store.js';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { InMemoryEventStore, type EventStore } from './event-store.js';
import {
  INVALID_REQUEST,
  PARSE_ERROR_MESSAGE,
  TRANSPORT_ERROR,
  errorMessage,
  nestsDeeperThan,
  quote,
  tooDeepMessage,
} from '../../protocol/jsonrpc.js';
import { DEFAULT_HTTP_LIMITS, STATELESS_REVISION, type ServerCore } from '../../server/server.js';
import type { SessionStore } from './session-store.js';
import {
  contentTypeProblem,
  servedStatelessly,
  statelessGetOrDelete,
  versionHeader,
} from './http-rules.js';
import { readBody } from './http-body.js';
import { scanRequestId } from '../../protocol/json-scan.js';
import { ACCEPTS_JSON, ACCEPTS_SSE, send, sendError } from './http-reply.js';
import { HttpSessions } from './http-sessions.js';
import { SseStreams } from './http-sse.js';
import { receiveStateless } from './http-stateless.js';
import { sendRefusal, type ResourceServerAuth } from './http-auth.js';
import { HttpAdmission } from './http-admission.js';

export interface HttpOptions {
  /** Default 0: any free port (read it from the returned `url`). */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default /mcp. */
  path?: string;
  /**
   * Origins allowed to call the server (exact `scheme://host[:port]` strings). Default: loopback
   * origins only. Requests without an Origin header (non-browser clients) are always allowed.
   */
  allowedOrigins?: string[];
  /**
   * Allowed Host header values (`name` or `name:port`), against DNS rebinding. Default: the loopback
   * names when bound to a loopback address; no check otherwise.
   */
  allowedHosts?: string[];
  /** Larger POST bodies get 413. Default: the server's `limits.maxMessageBytes` (4 MiB). */
  maxBodyBytes?: number;
  /** Sessions without traffic or running work for this long are ended. Default 30 minutes. */
  sessionIdleTimeoutMs?: number;
  /** Open sessions at most; one more `initialize` gets 503 until one ends. Default 1000. */
  maxSessions?: number;
  /** Bytes of request line and headers; more gets 431 (node:http). Default 16 KiB. */
  maxHeaderBytes?: number;
  /** Time to receive a request's headers; slower gets 408 and the connection closed (slowloris). Default 10 s. */
  headersTimeoutMs?: number;
  /** Time to receive a whole request, body included; slower gets 408. Default 30 s. */
  requestTimeoutMs?: number;
  /** An idle keep-alive connection is closed after this long. Default 5 s. */
  keepAliveTimeoutMs?: number;
  /**
   * Called for every request to the endpoint, after the Host and Origin checks and before anything
   * else: false (or a promise of false) answers 401. Put your authentication here, e.g. check an
   * `Authorization: Bearer …` header. Default: everyone is allowed.
   */
  authorize?: (req: IncomingMessage) => boolean | Promise<boolean>;
  /**
   * Makes the endpoint an OAuth 2.1 resource server: the metadata at its well-known paths, a bearer
   * token checked on every request (401), scopes checked before a handler runs (403), sessions bound
   * to the token's subject, `context.auth` for handlers. Made by `createResourceServerAuth` in
   * `runtime/auth/` (generated for manifests with `auth`). Runs after `authorize` when both are set.
   */
  auth?: ResourceServerAuth;
  /** Stores SSE events and gives them ids, for resumption. Default: an `InMemoryEventStore`. */
  eventStore?: EventStore;
  /** Shares sessions between processes (e.g. Redis). Default: none, sessions stay in this process. */
  sessionStore?: SessionStore;
  /** Where task state lives (e.g. Redis, so any process answers `tasks/get`). Default: the server's own (`ServerOptions.tasks.store`). */
  taskStore?: TaskStore;
  /** A standalone GET stream without an event for this long is closed (the client reconnects). Default 5 minutes. */
  idleStreamTimeoutMs?: number;
}

export interface HttpListener {
  /** The endpoint, e.g. `http://127.0.0.1:53127/mcp`. */
  url: string;
  /** Stops listening, ends every session and closes open connections. */
  close(): Promise<void>;
}

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
  private readonly maxBodyBytes: number;
  private readonly idleTimeout: number;
  private readonly auth: ResourceServerAuth | undefined;
  /** Host, Origin, `authorize` and bearer-token checks (http-admission.ts). */
  private readonly admission: HttpAdmission;
  private readonly streams: SseStreams;
  /** The stateful era: sessions, their POSTs, GET streams and DELETE. */
  private readonly stateful: HttpSessions;
  private readonly server: Server;
  private sweeper: NodeJS.Timeout | undefined;

  constructor(core: ServerCore, options: HttpOptions) {
    this.core = core;
    this.host = options.host ?? '127.0.0.1';
    this.path = options.path ?? '/mcp';
    this.maxBodyBytes = options.maxBodyBytes ?? core.limits.maxMessageBytes;
    this.idleTimeout = options.sessionIdleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT;
    this.auth = options.auth;
    this.admission = new HttpAdmission(
      this.host,
      options,
      (line) => core.log(line),
      (res, error) => this.failed(res, error),
    );
    if (options.taskStore !== undefined) core.taskStore = options.taskStore;
    const eventStore: EventStore = options.eventStore ?? new InMemoryEventStore();
    this.streams = new SseStreams(
      core,
      eventStore,
      options.idleStreamTimeoutMs ?? DEFAULT_IDLE_STREAM_TIMEOUT,
    );
    const maxSessions = options.maxSessions ?? DEFAULT_HTTP_LIMITS.maxSessions;
    this.stateful = new HttpSessions(
      core,
      this.streams,
      options.sessionStore,
      this.idleTimeout,
      maxSessions,
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
        resolve({ url: `http://${host}:${boundPort}${this.path}`, close: () => this.close() });
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
    this.admission.admit(req, res, (auth) => this.route(req, res, auth));
  }

  private route(req: IncomingMessage, res: ServerResponse, auth: AuthInfo | undefined): void {
    if (req.method === 'POST') this.post(req, res, auth);
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

  // ---- POST ------------------------------------------------------------------------------------

  private post(req: IncomingMessage, res: ServerResponse, auth: AuthInfo | undefined): void {
    const badType = contentTypeProblem(req.headers['content-type']);
    if (badType !== undefined) {
      sendError(res, 415, TRANSPORT_ERROR, `Unsupported Media Type: ${badType}`);
      return;
    }
    const accept = req.headers.accept ?? '';
    if (!ACCEPTS_JSON.test(accept) || !ACCEPTS_SSE.test(accept)) {
      sendError(
        res,
        406,
        TRANSPORT_ERROR,
        'Not Acceptable: Accept must list both application/json and text/event-stream',
      );
      return;
    }
    readBody(
      req,
      this.maxBodyBytes,
      (body) => {
        try {
          this.receive(req, res, body, auth);
        } catch (error) {
          this.failed(res, error);
        }
      },
      (idText) => {
        res.setHeader('connection', 'close');
        send(
          res,
          413,
          errorMessage(
            idText,
            INVALID_REQUEST,
            `Payload Too Large: the limit is ${this.maxBodyBytes} bytes`,
          ),
        );
      },
    );
  }

  /** Synchronous up to the stateless path, which needs no store: only stateful requests make a promise. */
  private receive(
    req: IncomingMessage,
    res: ServerResponse,
    body: string,
    auth: AuthInfo | undefined,
  ): void {
    const maxDepth = this.core.limits.maxDepth;
    if (body.length > maxDepth && nestsDeeperThan(body, maxDepth)) {
      send(res, 400, tooDeepMessage(maxDepth, scanRequestId(body, this.maxBodyBytes)));
      return;
    }
    let message: unknown;
    try {
      message = JSON.parse(body);
    } catch {
      send(res, 400, PARSE_ERROR_MESSAGE);
      return;
    }
    if (auth !== undefined) {
      const refusal = this.auth!.authorize(message, req, auth);
      if (refusal !== undefined) {
        sendRefusal(res, refusal, scanRequestId(body, this.maxBodyBytes));
        return;
      }
    }
    if (servedStatelessly(message, req.headers)) {
      receiveStateless(this.core, this.streams, req, res, message, auth);
      return;
    }
    this.stateful
      .receive(req, res, message, versionHeader(req.headers), auth)
      .catch((error: unknown) => this.failed(res, error));
  }
}

/** The Protected Resource Metadata: public, so any origin may read it (browser-based clients discover with it). */
function serveMetadata(req: IncomingMessage, res: ServerResponse, metadata: string): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('allow', 'GET, HEAD');
    sendError(res, 405, TRANSPORT_ERROR, `Method Not Allowed: ${quote(req.method ?? '')}`);
    return;
  }
  res.writeHead(200, {
    'content-type': 'application/json',
    'access-control-allow-origin': '*',
    'cache-control': 'max-age=3600',
  });
  res.end(req.method === 'HEAD' ? undefined : metadata);
}
