/**
 * Streamable HTTP server transport on `node:http`: one endpoint, POST for client messages,
 * DELETE to end a session, GET answered 405 (the standalone SSE stream comes later).
 *
 * A POST carrying requests is answered with `application/json` unless a handler sends something
 * (progress, a log message, a server→client request) before its result and the client accepts
 * `text/event-stream`; from that first message on, the response is an SSE stream that ends with the
 * result. A POST carrying only notifications or responses gets 202.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { EventStore } from './event-store.js';

import {
  NULL_ID,
  PARSE_ERROR_MESSAGE,
  SESSION_NOT_FOUND,
  TRANSPORT_ERROR,
  errorMessage,
  nestsDeeperThan,
  quote,
  tooDeepMessage,
} from './jsonrpc.js';
import { DEFAULT_HTTP_LIMITS, type ServerCore } from './server.js';
import { INVALID_MESSAGE, NO_RESPONSE, Session, type Delivery, type Outbound } from './session.js';

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
  /** Stores SSE events and gives them ids, for resumption; see event-store.ts. */
  eventStore?: EventStore;
  /**
   * Called for every request to the endpoint, after the Host and Origin checks and before anything
   * else: false (or a promise of false) answers 401. Put your authentication here, e.g. check an
   * `Authorization: Bearer …` header. Default: everyone is allowed.
   */
  authorize?: (req: IncomingMessage) => boolean | Promise<boolean>;
}

export interface HttpListener {
  /** The endpoint, e.g. `http://127.0.0.1:53127/mcp`. */
  url: string;
  /** Stops listening, ends every session and closes open connections. */
  close(): Promise<void>;
}

const DEFAULT_IDLE_TIMEOUT = 30 * 60 * 1000;
const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];
const JSON_HEADERS = { 'content-type': 'application/json' };
const ACCEPTS_JSON = /application\/json|application\/\*|\*\/\*/;

interface SessionEntry {
  readonly session: Session;
  lastActive: number;
  openRequests: number;
}

export function listenHttp(core: ServerCore, options: HttpOptions): Promise<HttpListener> {
  return new HttpTransport(core, options).listen(options.port ?? 0);
}

class HttpTransport {
  private readonly core: ServerCore;
  private readonly host: string;
  private readonly path: string;
  private readonly allowedOrigins: ReadonlySet<string> | undefined;
  private readonly allowedHosts: ReadonlySet<string> | undefined;
  private readonly maxBodyBytes: number;
  private readonly idleTimeout: number;
  private readonly maxSessions: number;
  private readonly authorize: HttpOptions['authorize'];
  private readonly eventStore: EventStore | undefined;
  private readonly sessions = new Map<string, SessionEntry>();
  private readonly server: Server;
  private sweeper: NodeJS.Timeout | undefined;

  constructor(core: ServerCore, options: HttpOptions) {
    this.core = core;
    this.host = options.host ?? '127.0.0.1';
    this.path = options.path ?? '/mcp';
    this.allowedOrigins = options.allowedOrigins && new Set(options.allowedOrigins.map((o) => o.toLowerCase()));
    if (options.allowedHosts !== undefined) {
      this.allowedHosts = new Set(options.allowedHosts.map((h) => h.toLowerCase()));
    } else if (isLoopbackName(this.host)) {
      this.allowedHosts = new Set(LOOPBACK_HOSTS);
    }
    this.maxBodyBytes = options.maxBodyBytes ?? core.limits.maxMessageBytes;
    this.idleTimeout = options.sessionIdleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT;
    this.maxSessions = options.maxSessions ?? DEFAULT_HTTP_LIMITS.maxSessions;
    this.eventStore = options.eventStore;
    this.authorize = options.authorize;
    const headersTimeout = options.headersTimeoutMs ?? DEFAULT_HTTP_LIMITS.headersTimeoutMs;
    const requestTimeout = options.requestTimeoutMs ?? DEFAULT_HTTP_LIMITS.requestTimeoutMs;
    this.server = createServer(
      {
        maxHeaderSize: options.maxHeaderBytes ?? DEFAULT_HTTP_LIMITS.maxHeaderBytes,
        headersTimeout,
        requestTimeout,
        keepAliveTimeout: options.keepAliveTimeoutMs ?? DEFAULT_HTTP_LIMITS.keepAliveTimeoutMs,
        // node:http enforces the two timeouts only when it checks its connections: often enough.
        connectionsCheckingInterval: Math.max(10, Math.min(headersTimeout, requestTimeout, 30_000) / 4),
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
        this.sweeper = setInterval(() => this.sweep(), Math.min(this.idleTimeout / 2, 60_000));
        this.sweeper.unref();
        resolve({ url: `http://${host}:${boundPort}${this.path}`, close: () => this.close() });
      });
    });
  }

  private close(): Promise<void> {
    clearInterval(this.sweeper);
    for (const entry of this.sessions.values()) entry.session.close(true);
    this.sessions.clear();
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  private sweep(): void {
    const cutoff = Date.now() - this.idleTimeout;
    for (const [id, entry] of this.sessions) {
      if (entry.lastActive < cutoff && entry.openRequests === 0 && !entry.session.busy) {
        this.sessions.delete(id);
        entry.session.close(true);
      }
    }
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    if ((query === -1 ? url : url.slice(0, query)) !== this.path) {
      sendError(res, 404, TRANSPORT_ERROR, 'Not Found');
      return;
    }
    if (!this.hostAllowed(req.headers.host)) {
      sendError(res, 403, TRANSPORT_ERROR, `Forbidden: Host ${quote(req.headers.host ?? '(missing)')} is not allowed`);
      return;
    }
    const origin = req.headers.origin;
    if (origin !== undefined && !this.originAllowed(origin)) {
      sendError(res, 403, TRANSPORT_ERROR, `Forbidden: Origin ${quote(origin)} is not allowed`);
      return;
    }
    if (this.authorize === undefined) this.route(req, res);
    else {
      const allow = (allowed: boolean): void => {
        if (allowed === true) this.route(req, res);
        else sendError(res, 401, TRANSPORT_ERROR, 'Unauthorized');
      };
      try {
        const verdict = this.authorize(req);
        if (typeof verdict === 'boolean') allow(verdict);
        else
          verdict.then(allow, (error: unknown) => {
            this.core.log(`authorize failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
            sendError(res, 500, TRANSPORT_ERROR, 'Internal Server Error');
          });
      } catch (error) {
        this.core.log(`authorize failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        sendError(res, 500, TRANSPORT_ERROR, 'Internal Server Error');
      }
    }
  }

  private route(req: IncomingMessage, res: ServerResponse): void {
    if (req.method === 'POST') this.post(req, res);
    else if (req.method === 'DELETE') this.delete(req, res);
    else {
      res.setHeader('allow', 'POST, DELETE');
      sendError(res, 405, TRANSPORT_ERROR, `Method Not Allowed: ${quote(req.method ?? '')}`);
    }
  }

  private hostAllowed(host: string | undefined): boolean {
    if (this.allowedHosts === undefined) return true;
    if (host === undefined) return false;
    const lower = host.toLowerCase();
    if (this.allowedHosts.has(lower)) return true;
    const colon = lower.lastIndexOf(':');
    return colon > lower.lastIndexOf(']') && this.allowedHosts.has(lower.slice(0, colon));
  }

  private originAllowed(origin: string): boolean {
    if (this.allowedOrigins !== undefined) return this.allowedOrigins.has(origin.toLowerCase());
    try {
      const parsed = new URL(origin);
      return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && isLoopbackName(parsed.hostname);
    } catch {
      return false;
    }
  }

  private post(req: IncomingMessage, res: ServerResponse): void {
    const contentType = req.headers['content-type'];
    if (contentType === undefined || mediaType(contentType) !== 'application/json') {
      sendError(res, 415, TRANSPORT_ERROR, 'Unsupported Media Type: the body must be application/json');
      return;
    }
    const accept = req.headers.accept ?? '';
    const acceptsSse = accept.includes('text/event-stream');
    const acceptsJson = accept === '' || ACCEPTS_JSON.test(accept);
    if (!acceptsJson && !acceptsSse) {
      sendError(res, 406, TRANSPORT_ERROR, 'Not Acceptable: accept application/json or text/event-stream');
      return;
    }
    if (Number(req.headers['content-length']) > this.maxBodyBytes) {
      this.tooLarge(res);
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    req.on('data', (chunk: Buffer) => {
      if (refused) return;
      size += chunk.length;
      if (size > this.maxBodyBytes) {
        refused = true;
        this.tooLarge(res);
      } else {
        chunks.push(chunk);
      }
    });
    req.on('end', () => {
      if (!refused) this.receive(req, res, Buffer.concat(chunks).toString('utf8'), acceptsJson, acceptsSse);
    });
  }

  private tooLarge(res: ServerResponse): void {
    res.setHeader('connection', 'close');
    sendError(res, 413, TRANSPORT_ERROR, `Payload Too Large: the limit is ${this.maxBodyBytes} bytes`);
  }

  private receive(req: IncomingMessage, res: ServerResponse, body: string, acceptsJson: boolean, acceptsSse: boolean): void {
    const maxDepth = this.core.limits.maxDepth;
    if (body.length > maxDepth && nestsDeeperThan(body, maxDepth)) {
      send(res, 400, tooDeepMessage(maxDepth));
      return;
    }
    let message: unknown;
    try {
      message = JSON.parse(body);
    } catch {
      send(res, 400, PARSE_ERROR_MESSAGE);
      return;
    }
    let entry: SessionEntry | undefined;
    if (isInitializeRequest(message)) {
      if (this.sessions.size >= this.maxSessions) {
        res.setHeader('retry-after', '60');
        sendError(res, 503, TRANSPORT_ERROR, `Service Unavailable: the server has its maximum of ${this.maxSessions} sessions`);
        return;
      }
      // initialize always opens a new session; its id is issued only if initialization succeeds.
      entry = { session: new Session(this.core, randomUUID()), lastActive: 0, openRequests: 0 };
    } else {
      entry = this.sessionOf(req, res);
      if (entry === undefined) return;
      const version = req.headers['mcp-protocol-version'];
      if (version !== undefined && (typeof version !== 'string' || !this.core.versions.includes(version))) {
        sendError(res, 400, TRANSPORT_ERROR, `Bad Request: unsupported MCP-Protocol-Version ${quote(String(version))}`);
        return;
      }
    }
    const session = entry.session;
    const out = new HttpOutbound(res, acceptsJson, acceptsSse, this.eventStore, this.core.log);
    entry.lastActive = Date.now();
    entry.openRequests++;
    const opened = entry;
    res.on('close', () => {
      opened.openRequests--;
      opened.lastActive = Date.now();
      if (!out.finished) {
        out.finished = true;
        session.cancelOutbound(out);
      }
    });
    const delivery = session.receive(message, out);
    if (session.id !== undefined && !this.sessions.has(session.id) && session.initialized) {
      this.sessions.set(session.id, entry);
      out.sessionId = session.id;
    }
    out.received(delivery);
  }

  private delete(req: IncomingMessage, res: ServerResponse): void {
    const entry = this.sessionOf(req, res);
    if (entry === undefined) return;
    this.sessions.delete(entry.session.id!);
    entry.session.close(true);
    res.writeHead(204).end();
  }

  /** The session named by the request's `Mcp-Session-Id`; undefined once the refusal is sent. */
  private sessionOf(req: IncomingMessage, res: ServerResponse): SessionEntry | undefined {
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId !== 'string') {
      sendError(res, 400, TRANSPORT_ERROR, 'Bad Request: Mcp-Session-Id header is required');
      return undefined;
    }
    const entry = this.sessions.get(sessionId);
    if (entry === undefined) sendError(res, 404, SESSION_NOT_FOUND, 'Session not found');
    return entry;
  }
}

/**
 * One POST's answer channel. Answers produced while `Session.receive` runs are held until it
 * returns, so the status (400 for a message that is not JSON-RPC) and the session header of a new
 * session can still be set.
 */
class HttpOutbound implements Outbound {
  readonly canEmit: boolean;
  finished = false;
  sessionId: string | undefined = undefined;
  private readonly res: ServerResponse;
  private readonly acceptsJson: boolean;
  private readonly eventStore: EventStore | undefined;
  private readonly log: (line: string) => void;
  private receiving = true;
  private held: string | undefined = undefined;
  private heldAbandon = false;
  private streaming = false;
  private streamId = '';
  private storing: Promise<void> = Promise.resolve();

  constructor(
    res: ServerResponse,
    acceptsJson: boolean,
    acceptsSse: boolean,
    eventStore: EventStore | undefined,
    log: (line: string) => void,
  ) {
    this.res = res;
    this.acceptsJson = acceptsJson;
    this.canEmit = acceptsSse;
    this.eventStore = eventStore;
    this.log = log;
  }

  respond(text: string): void {
    if (this.finished) return;
    if (this.receiving && !this.streaming) this.held = text;
    else this.deliver(text, 200);
  }

  emit(text: string): void {
    if (this.finished || !this.canEmit) return;
    if (!this.streaming) this.startStream();
    this.writeEvent(text);
  }

  abandon(): void {
    if (this.finished) return;
    if (this.receiving && !this.streaming) this.heldAbandon = true;
    else this.finishAbandoned();
  }

  /** `Session.receive` returned: send what it produced synchronously. */
  received(delivery: Delivery): void {
    this.receiving = false;
    if (this.finished) return;
    if (delivery === NO_RESPONSE) {
      this.finished = true;
      this.res.writeHead(202).end();
    } else if (this.held !== undefined) {
      this.deliver(this.held, delivery === INVALID_MESSAGE ? 400 : 200);
    } else if (this.heldAbandon) {
      this.finishAbandoned();
    }
  }

  private deliver(text: string, status: number): void {
    this.finished = true;
    if (!this.streaming && this.acceptsJson) {
      const headers = this.sessionId === undefined ? JSON_HEADERS : { ...JSON_HEADERS, 'mcp-session-id': this.sessionId };
      this.res.writeHead(status, headers).end(text);
      return;
    }
    if (!this.streaming) this.startStream();
    this.writeEvent(text);
    this.endStream();
  }

  /** A cancelled request gets no response: an SSE stream that ends without one, or 202 without SSE. */
  private finishAbandoned(): void {
    this.finished = true;
    if (this.streaming) this.endStream();
    else if (this.canEmit) {
      this.startStream();
      this.endStream();
    } else {
      this.res.writeHead(202).end();
    }
  }

  private startStream(): void {
    this.streaming = true;
    const headers: Record<string, string> = {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    };
    if (this.sessionId !== undefined) headers['mcp-session-id'] = this.sessionId;
    this.res.writeHead(200, headers);
    if (this.eventStore !== undefined) this.streamId = randomUUID();
  }

  private writeEvent(text: string): void {
    const store = this.eventStore;
    if (store === undefined) {
      this.res.write('event: message\ndata: ' + text + '\n\n');
      return;
    }
    // Stored before written, in order, so an event id never reaches the client ahead of its storage.
    const stored = store.storeEvent(this.streamId, text);
    this.storing = this.storing
      .then(() => stored)
      .then(
        (eventId) => {
          this.res.write('id: ' + eventId + '\nevent: message\ndata: ' + text + '\n\n');
        },
        (error: unknown) => {
          this.log(`The event store failed; ending the stream: ${error instanceof Error ? error.message : String(error)}`);
          this.res.destroy();
        },
      );
  }

  private endStream(): void {
    if (this.eventStore === undefined) this.res.end();
    else void this.storing.then(() => this.res.end());
  }
}

function send(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, JSON_HEADERS).end(body);
}

function sendError(res: ServerResponse, status: number, code: number, message: string): void {
  send(res, status, errorMessage(NULL_ID, code, message));
}

function isInitializeRequest(message: unknown): boolean {
  return typeof message === 'object' && message !== null && (message as { method?: unknown }).method === 'initialize';
}

/** A bind address or URL hostname naming this machine (`::1` as bound, `[::1]` as in a URL). */
function isLoopbackName(host: string): boolean {
  return host === '::1' || LOOPBACK_HOSTS.includes(host);
}

function mediaType(header: string): string {
  const semicolon = header.indexOf(';');
  return (semicolon === -1 ? header : header.slice(0, semicolon)).trim().toLowerCase();
}
