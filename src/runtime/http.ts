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
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { InMemoryEventStore, type EventStore } from './event-store.js';
import {
  INVALID_REQUEST,
  MISSING_CAPABILITY,
  NULL_ID,
  PARSE_ERROR_MESSAGE,
  SESSION_NOT_FOUND,
  TRANSPORT_ERROR,
  errorMessage,
  idJson,
  isObject,
  isRequestId,
  nestsDeeperThan,
  quote,
  tooDeepMessage,
} from './jsonrpc.js';
import { DEFAULT_HTTP_LIMITS, STATELESS_REVISION, type ServerCore } from './server.js';
import type { SessionStore } from './session-store.js';
import { INVALID_MESSAGE, NO_RESPONSE, Session, type Delivery, type Outbound } from './session.js';
import { checkStateless, withResultFields } from './stateless.js';
import { contentTypeProblem, servedStatelessly, statelessGetOrDelete, statelessNonRequest, versionHeader } from './http-rules.js';
import { readBody } from './http-body.js';
import { scanRequestId } from './json-scan.js';

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
  /** Stores SSE events and gives them ids, for resumption. Default: an `InMemoryEventStore`. */
  eventStore?: EventStore;
  /** Shares sessions between processes (e.g. Redis). Default: none, sessions stay in this process. */
  sessionStore?: SessionStore;
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
/** The reconnection delay suggested when an idle standalone stream is closed, or a resumed stream ends here. */
const IDLE_STREAM_RETRY_MS = 1000;
const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];
const JSON_HEADERS = { 'content-type': 'application/json' };
const ACCEPTS_JSON = /application\/json|application\/\*|\*\/\*/;
const ACCEPTS_SSE = /text\/event-stream|text\/\*|\*\/\*/;

interface SessionEntry {
  readonly session: Session;
  lastActive: number;
  openRequests: number;
  /** The session's live streams by id (POST streams until their response is written, the GET stream). */
  readonly streams: Map<string, SseStream>;
  standalone: SseStream | undefined;
  /** When the session was last written to the session store. */
  savedAt: number;
}

/**
 * One logical SSE stream of a session. Its connection (`res`) may come and go: the client may
 * lose it, or the server may close it early for polling; events sent meanwhile are only stored,
 * and a GET with `Last-Event-ID` attaches a new connection after replaying them.
 */
class SseStream {
  readonly id: string;
  res: ServerResponse | undefined = undefined;
  /** The last message has been sent: end the connection after it. */
  complete = false;
  /** Store-then-write chain: events are written in order, each after its storage. */
  chain: Promise<void> = Promise.resolve();
  idleTimer: NodeJS.Timeout | undefined = undefined;
  /** Events the last resumption replayed: their own write step must not send them again. */
  replayed: Set<string> | undefined = undefined;

  constructor(id: string) {
    this.id = id;
  }
}

export function listenHttp(core: ServerCore, options: HttpOptions): Promise<HttpListener> {
  return new HttpTransport(core, options).listen(options.port ?? 0);
}

/** A session id: 128 random bits from the CSPRNG, base64url (visible ASCII only). */
function newSessionId(): string {
  return randomBytes(16).toString('base64url');
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
  private readonly idleStreamTimeout: number;
  private readonly eventStore: EventStore;
  private readonly sessionStore: SessionStore | undefined;
  private readonly sessions = new Map<string, SessionEntry>();
  /** Streams of other processes relayed here, by stream id: how to end the connection carrying each. */
  private readonly relays = new Map<string, () => void>();
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
    this.authorize = options.authorize;
    this.idleStreamTimeout = options.idleStreamTimeoutMs ?? DEFAULT_IDLE_STREAM_TIMEOUT;
    this.eventStore = options.eventStore ?? new InMemoryEventStore();
    this.sessionStore = options.sessionStore;
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
    for (const entry of this.sessions.values()) this.endSession(entry);
    this.sessions.clear();
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  private endSession(entry: SessionEntry): void {
    entry.session.close(true);
    for (const stream of entry.streams.values()) {
      clearTimeout(stream.idleTimer);
      stream.res?.end();
    }
    entry.streams.clear();
  }

  private sweep(): void {
    const cutoff = Date.now() - this.idleTimeout;
    for (const [id, entry] of this.sessions) {
      if (entry.lastActive < cutoff && entry.openRequests === 0 && !entry.session.busy) {
        this.sessions.delete(id);
        this.endSession(entry);
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
    else if ((req.method === 'GET' || req.method === 'DELETE') && statelessGetOrDelete(this.core, req.headers)) {
      res.setHeader('allow', 'POST');
      sendError(res, 405, TRANSPORT_ERROR, `Method Not Allowed: ${STATELESS_REVISION} has no ${req.method} on the endpoint, only POST`);
    } else if (req.method === 'GET') void this.get(req, res).catch((error: unknown) => this.failed(res, error));
    else if (req.method === 'DELETE') void this.delete(req, res).catch((error: unknown) => this.failed(res, error));
    else {
      res.setHeader('allow', 'GET, POST, DELETE');
      sendError(res, 405, TRANSPORT_ERROR, `Method Not Allowed: ${quote(req.method ?? '')}`);
    }
  }

  /** A store failed while serving a request: 500 if nothing was sent yet, otherwise drop the connection. */
  private failed(res: ServerResponse, error: unknown): void {
    this.core.log(`HTTP request failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    if (!res.headersSent) sendError(res, 500, TRANSPORT_ERROR, 'Internal Server Error');
    else res.destroy();
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

  // ---- POST ------------------------------------------------------------------------------------

  private post(req: IncomingMessage, res: ServerResponse): void {
    const badType = contentTypeProblem(req.headers['content-type']);
    if (badType !== undefined) {
      sendError(res, 415, TRANSPORT_ERROR, `Unsupported Media Type: ${badType}`);
      return;
    }
    const accept = req.headers.accept ?? '';
    if (!ACCEPTS_JSON.test(accept) || !ACCEPTS_SSE.test(accept)) {
      sendError(res, 406, TRANSPORT_ERROR, 'Not Acceptable: Accept must list both application/json and text/event-stream');
      return;
    }
    readBody(
      req,
      this.maxBodyBytes,
      (body) => {
        try {
          this.receive(req, res, body);
        } catch (error) {
          this.failed(res, error);
        }
      },
      (idText) => {
        res.setHeader('connection', 'close');
        send(res, 413, errorMessage(idText, INVALID_REQUEST, `Payload Too Large: the limit is ${this.maxBodyBytes} bytes`));
      },
    );
  }

  /** Synchronous up to the stateless path, which needs no store: only stateful requests make a promise. */
  private receive(req: IncomingMessage, res: ServerResponse, body: string): void {
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
    if (servedStatelessly(message, req.headers)) {
      this.receiveStateless(req, res, message);
      return;
    }
    this.receiveStateful(req, res, message, versionHeader(req.headers)).catch((error: unknown) => this.failed(res, error));
  }

  private async receiveStateful(req: IncomingMessage, res: ServerResponse, message: unknown, version: string | undefined): Promise<void> {
    if (version !== undefined && !this.core.statefulVersions.includes(version)) {
      sendError(res, 400, TRANSPORT_ERROR, `Bad Request: unsupported MCP-Protocol-Version ${quote(version)}`);
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
      entry = { session: new Session(this.core, newSessionId()), lastActive: 0, openRequests: 0, streams: new Map(), standalone: undefined, savedAt: 0 };
    } else {
      entry = await this.sessionOf(req, res);
      if (entry === undefined) return;
    }
    const session = entry.session;
    const out = new HttpOutbound(res, this, entry, session);
    entry.lastActive = Date.now();
    entry.openRequests++;
    const delivery = session.receive(message, out);
    if (session.id !== undefined && !this.sessions.has(session.id) && session.initialized) {
      this.sessions.set(session.id, entry);
      out.sessionId = session.id;
      await this.saveSession(entry);
    } else if (this.sessionStore !== undefined && changesSession(message)) {
      await this.saveSession(entry);
    }
    out.received(delivery);
  }

  /** A 2026-07-28 request: checked, then served by a session of its own that ends with it. */
  private receiveStateless(req: IncomingMessage, res: ServerResponse, message: unknown): void {
    if (!isObject(message)) {
      send(res, 400, errorMessage(NULL_ID, INVALID_REQUEST, 'Invalid Request: a JSON-RPC message must be an object (batches are not part of 2026-07-28)'));
      return;
    }
    const id = message['id'];
    if (typeof message['method'] !== 'string' || id === undefined) {
      // A notification is accepted (and means nothing without a session); anything else is refused.
      const refusal = statelessNonRequest(message);
      if (refusal === undefined) res.writeHead(202).end();
      else send(res, 400, refusal);
      return;
    }
    const checked = checkStateless(this.core, message, req.headers);
    if ('status' in checked) {
      send(res, checked.status, checked.text);
      return;
    }
    const session = Session.stateless(this.core, checked);
    const out = new HttpOutbound(res, this, undefined, session);
    out.statelessResult(isRequestId(id) ? idJson(id) : NULL_ID, message['method'] as string);
    out.received(session.receive(message, out));
  }

  // ---- GET: the standalone stream, or the resumption of a stream -----------------------------

  private async get(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!ACCEPTS_SSE.test(req.headers.accept ?? '')) {
      sendError(res, 406, TRANSPORT_ERROR, 'Not Acceptable: a GET stream needs Accept: text/event-stream');
      return;
    }
    const rawVersion = req.headers['mcp-protocol-version'];
    if (rawVersion !== undefined && (typeof rawVersion !== 'string' || !this.core.statefulVersions.includes(rawVersion.trim()))) {
      sendError(res, 400, TRANSPORT_ERROR, `Bad Request: unsupported MCP-Protocol-Version ${quote(String(rawVersion))}`);
      return;
    }
    const entry = await this.sessionOf(req, res);
    if (entry === undefined) return;
    entry.lastActive = Date.now();
    const lastEventId = req.headers['last-event-id'];
    if (typeof lastEventId === 'string' && lastEventId !== '') {
      await this.resume(entry, lastEventId, res);
      return;
    }
    if (entry.standalone?.res !== undefined) {
      sendError(res, 409, TRANSPORT_ERROR, 'Conflict: this session already has a standalone stream');
      return;
    }
    const stream = entry.standalone ?? this.newStream(entry);
    entry.standalone = stream;
    this.attach(entry, stream, res);
    this.prime(stream);
    entry.session.standalone = new StandaloneOutbound(this, stream);
    this.touchIdle(entry, stream);
  }

  /** Replays what the client missed on the stream `lastEventId` belongs to, then carries the rest of it. */
  private async resume(entry: SessionEntry, lastEventId: string, res: ServerResponse): Promise<void> {
    const missed: [eventId: string, message: string][] = [];
    const streamId = await this.eventStore.replayEventsAfter(lastEventId, (eventId, message) => {
      missed.push([eventId, message]);
    });
    // Event ids are unique per session; a stream of another session is never replayed.
    if (streamId === undefined || !streamId.startsWith(entry.session.id! + '/')) {
      sendError(res, 400, TRANSPORT_ERROR, 'Bad Request: Last-Event-ID names no stream of this session');
      return;
    }
    res.writeHead(200, sseHeaders(entry.session.id));
    // Sent now, not with the first event: a relayed stream may have nothing to send for a while.
    res.flushHeaders();
    const live = entry.streams.get(streamId);
    if (live === undefined) {
      // The stream is complete, or lives in another process.
      if (this.eventStore.watchStream !== undefined) {
        await this.relay(streamId, lastEventId, missed, res);
        return;
      }
      // Without a shared store to watch: send what is stored and end with a retry hint, so a client
      // still missing its response resumes again for the rest.
      for (const [eventId, message] of missed) res.write(sseEvent(eventId, message === '' ? undefined : message));
      res.end(`retry: ${IDLE_STREAM_RETRY_MS}\n\n`);
      return;
    }
    // A stream has one connection: the new one takes over. The replay runs in the stream's write
    // chain, so events queued meanwhile are written after it, and the ones it replayed are skipped.
    const previous = live.res;
    live.res = undefined;
    previous?.end();
    live.chain = live.chain.then(async () => {
      const replayed = new Set<string>();
      await this.eventStore.replayEventsAfter(lastEventId, (eventId, message) => {
        replayed.add(eventId);
        res.write(sseEvent(eventId, message === '' ? undefined : message));
      });
      live.replayed = replayed;
      live.res = res;
    });
    res.on('close', () => {
      if (live.res === res) live.res = undefined;
    });
    if (live === entry.standalone) {
      entry.session.standalone = new StandaloneOutbound(this, live);
      this.touchIdle(entry, live);
    }
  }

  /**
   * A stream another process is producing (or has completed), through a shared store: what was
   * stored, then each event as it is stored, until the stream completes. Quiet for the idle stream
   * timeout (that process may be gone), it ends with a retry hint, and the client resumes again.
   */
  private async relay(streamId: string, lastEventId: string, missed: readonly [string, string][], res: ServerResponse): Promise<void> {
    const written = new Set<string>();
    let newest = lastEventId;
    let ended = false;
    let stop: (() => void) | undefined;
    let idle: NodeJS.Timeout | undefined;
    const write = (eventId: string, message: string): void => {
      if (ended || written.has(eventId)) return;
      written.add(eventId);
      newest = eventId;
      res.write(sseEvent(eventId, message === '' ? undefined : message));
    };
    const end = (tail: string): void => {
      if (ended) return;
      ended = true;
      clearTimeout(idle);
      stop?.();
      if (this.relays.get(streamId) === takenOver) this.relays.delete(streamId);
      res.end(tail);
    };
    // A stream has one connection: a second resumption of it takes over from the first.
    const takenOver = (): void => end('');
    this.relays.get(streamId)?.();
    this.relays.set(streamId, takenOver);
    const touch = (): void => {
      clearTimeout(idle);
      idle = setTimeout(() => end(`retry: ${IDLE_STREAM_RETRY_MS}\n\n`), this.idleStreamTimeout);
      idle.unref();
    };
    res.on('close', () => end(''));
    for (const [eventId, message] of missed) write(eventId, message);
    // Live events wait here until the catch-up below is written, so the stream stays in order.
    let early: [string, string][] | undefined = [];
    let endedEarly = false;
    const watch = await this.eventStore.watchStream!(streamId, {
      event: (eventId, message) => {
        if (early !== undefined) early.push([eventId, message]);
        else {
          write(eventId, message);
          touch();
        }
      },
      ended: () => {
        if (early !== undefined) endedEarly = true;
        else end('');
      },
    });
    stop = watch.stop;
    if (ended) {
      stop(); // the client left while the subscription was being made
      return;
    }
    // Events stored between the first replay and the subscription.
    await this.eventStore.replayEventsAfter(newest, write);
    for (const [eventId, message] of early) write(eventId, message);
    early = undefined;
    if (watch.complete || endedEarly) end('');
    else touch();
  }

  // ---- DELETE ----------------------------------------------------------------------------------

  private async delete(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const entry = await this.sessionOf(req, res);
    if (entry === undefined) return;
    this.sessions.delete(entry.session.id!);
    this.endSession(entry);
    await this.sessionStore?.delete(entry.session.id!);
    res.writeHead(204).end();
  }

  /** The session named by the request's `Mcp-Session-Id`; undefined once the refusal is sent. */
  private async sessionOf(req: IncomingMessage, res: ServerResponse): Promise<SessionEntry | undefined> {
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId !== 'string') {
      sendError(res, 400, TRANSPORT_ERROR, 'Bad Request: Mcp-Session-Id header is required');
      return undefined;
    }
    let entry = this.sessions.get(sessionId);
    if (this.sessionStore !== undefined) {
      // The store is the truth when shared: a session another process began is rebuilt here, and
      // one another process ended (DELETE, expiry) is ended here too.
      const snapshot = await this.sessionStore.load(sessionId);
      entry = this.sessions.get(sessionId);
      if (snapshot === undefined && entry !== undefined) {
        this.sessions.delete(sessionId);
        this.endSession(entry);
        entry = undefined;
      } else if (entry === undefined && snapshot !== undefined) {
        entry = { session: Session.restore(this.core, sessionId, snapshot), lastActive: Date.now(), openRequests: 0, streams: new Map(), standalone: undefined, savedAt: Date.now() };
        this.sessions.set(sessionId, entry);
      } else if (entry !== undefined && Date.now() - entry.savedAt > this.idleTimeout / 2) {
        await this.saveSession(entry); // keeps the shared record from expiring while in use
      }
    }
    if (entry === undefined) sendError(res, 404, SESSION_NOT_FOUND, 'Session not found');
    return entry;
  }

  private async saveSession(entry: SessionEntry): Promise<void> {
    if (this.sessionStore === undefined) return;
    entry.savedAt = Date.now();
    await this.sessionStore.save(entry.session.id!, entry.session.snapshot(), this.idleTimeout);
  }

  // ---- streams ---------------------------------------------------------------------------------

  /** @internal A new logical stream of the session; its id names the session, so replay can check it. */
  newStream(entry: SessionEntry): SseStream {
    const stream = new SseStream(`${entry.session.id!}/${randomBytes(9).toString('base64url')}`);
    entry.streams.set(stream.id, stream);
    return stream;
  }

  /** @internal */
  attach(entry: SessionEntry, stream: SseStream, res: ServerResponse): void {
    if (!res.headersSent) res.writeHead(200, sseHeaders(entry.session.id));
    stream.res = res;
    res.on('close', () => {
      if (stream.res === res) stream.res = undefined;
    });
  }

  /** @internal The priming event: an id the client can resume from, before any message. */
  prime(stream: SseStream): void {
    this.queue(stream, '');
  }

  /** @internal Stores the message, then writes it with its id if the stream has a connection. */
  queue(stream: SseStream, message: string): void {
    const stored = this.eventStore.storeEvent(stream.id, message);
    stream.chain = stream.chain
      .then(() => stored)
      .then(
        (eventId) => {
          if (stream.replayed?.has(eventId) !== true) stream.res?.write(sseEvent(eventId, message === '' ? undefined : message));
        },
        (error: unknown) => {
          this.core.log(`The event store failed; ending the stream: ${error instanceof Error ? error.message : String(error)}`);
          stream.res?.destroy();
        },
      );
  }

  /** @internal The stream's last message is queued: end its connection after it and forget it. */
  finish(entry: SessionEntry, stream: SseStream): void {
    stream.complete = true;
    void stream.chain.then(() => {
      entry.streams.delete(stream.id);
      stream.res?.end();
      stream.res = undefined;
      // A process relaying this stream ends its connection too (see `relay`).
      this.eventStore.endStream?.(stream.id).catch((error: unknown) => this.core.log(`The event store failed to end a stream: ${String(error)}`));
    });
  }

  /** @internal Polling: tell the client when to come back, and close the connection (not the stream). */
  poll(stream: SseStream, retryMs: number): void {
    stream.chain = stream.chain.then(() => {
      const res = stream.res;
      stream.res = undefined;
      res?.end(`retry: ${Math.max(0, Math.floor(retryMs))}\n\n`);
    });
  }

  /** Closes a standalone stream that has been quiet too long; the client reconnects after the retry delay. */
  touchIdle(entry: SessionEntry, stream: SseStream): void {
    clearTimeout(stream.idleTimer);
    stream.idleTimer = setTimeout(() => {
      if (entry.standalone === stream && stream.res !== undefined) this.poll(stream, IDLE_STREAM_RETRY_MS);
    }, this.idleStreamTimeout);
    stream.idleTimer.unref();
  }
}

/** The standalone stream as the session sees it: where notifications that belong to no request go. */
class StandaloneOutbound implements Outbound {
  readonly canEmit = true;
  private readonly transport: HttpTransport;
  private readonly stream: SseStream;

  constructor(transport: HttpTransport, stream: SseStream) {
    this.transport = transport;
    this.stream = stream;
  }

  respond(): void {}
  abandon(): void {}

  emit(text: string): void {
    this.transport.queue(this.stream, text);
  }
}

/**
 * One POST's answer channel. Answers produced while `Session.receive` runs are held until it
 * returns, so the status (400 for a message that is not JSON-RPC) and the session header of a new
 * session can still be set. In a session, an SSE answer is a resumable stream; a stateless answer
 * (no session) is a plain SSE stream without ids.
 */
class HttpOutbound implements Outbound {
  readonly canEmit = true;
  finished = false;
  sessionId: string | undefined = undefined;
  private readonly res: ServerResponse;
  private readonly transport: HttpTransport;
  /** Undefined for a stateless request. */
  private readonly entry: SessionEntry | undefined;
  /** The session serving the request: the HTTP session's, or the stateless request's own. */
  private readonly session: Session;
  /** Stateless requests: the id and method `withResultFields` needs to complete results. */
  private statelessId: string | undefined = undefined;
  private statelessMethod = '';
  private receiving = true;
  private held: string | undefined = undefined;
  private heldAbandon = false;
  private stream: SseStream | undefined = undefined;
  private plainStreaming = false;

  constructor(res: ServerResponse, transport: HttpTransport, entry: SessionEntry | undefined, session: Session) {
    this.res = res;
    this.transport = transport;
    this.entry = entry;
    this.session = session;
    // The listener closes over this outbound alone, never over the caller's scope. Node's response
    // objects can outlive young-generation collections, and whatever their listeners hold survives
    // with them: when the stateless listener shared a scope with the parsed request and its
    // session, a fresh server's young generation grew from 2 to 32 MB in its first 30k calls, and
    // its RSS ended about 28 MiB higher.
    res.on('close', this.closed);
  }

  /** Results of a 2026-07-28 request get `resultType` and the cache fields. */
  statelessResult(idText: string, method: string): void {
    this.statelessId = idText;
    this.statelessMethod = method;
  }

  private readonly closed = (): void => {
    if (this.entry !== undefined) {
      this.entry.openRequests--;
      this.entry.lastActive = Date.now();
    }
    if (!this.finished) this.disconnected();
  };

  private get streaming(): boolean {
    return this.stream !== undefined || this.plainStreaming;
  }

  respond(text: string): void {
    if (this.finished) return;
    const final =
      this.statelessId === undefined
        ? text
        : withResultFields(text, this.statelessId, this.statelessMethod, this.session.core.serverInfoMember);
    if (this.receiving && !this.streaming) this.held = final;
    else this.deliver(final, statusOf(final));
  }

  emit(text: string): void {
    if (this.finished) return;
    if (!this.streaming) this.startStream();
    this.write(text);
  }

  abandon(): void {
    if (this.finished) return;
    if (this.receiving && !this.streaming) this.heldAbandon = true;
    else this.finishAbandoned();
  }

  closeStream(retryMs: number): void {
    if (this.finished || this.entry === undefined) return;
    if (!this.streaming) this.startStream();
    this.transport.poll(this.stream!, retryMs);
  }

  /** The client closed the connection before the response was complete. */
  disconnected(): void {
    // A resumable stream lives on: its events are stored until the client resumes it.
    if (this.stream !== undefined) return;
    this.finished = true;
    this.session.cancelOutbound(this);
  }

  /** `Session.receive` returned: send what it produced synchronously. */
  received(delivery: Delivery): void {
    this.receiving = false;
    if (this.finished) return;
    if (delivery === NO_RESPONSE) {
      this.finished = true;
      this.res.writeHead(202).end();
    } else if (this.held !== undefined) {
      this.deliver(this.held, delivery === INVALID_MESSAGE ? 400 : statusOf(this.held));
    } else if (this.heldAbandon) {
      this.finishAbandoned();
    }
  }

  private deliver(text: string, status: number): void {
    this.finished = true;
    if (!this.streaming) {
      const headers = this.sessionId === undefined ? JSON_HEADERS : { ...JSON_HEADERS, 'mcp-session-id': this.sessionId };
      this.res.writeHead(status, headers).end(text);
      return;
    }
    this.write(text);
    this.endStream();
  }

  /** A cancelled request gets no response: an SSE stream that ends without one. */
  private finishAbandoned(): void {
    this.finished = true;
    if (!this.streaming) this.startStream();
    this.endStream();
  }

  private startStream(): void {
    if (this.entry === undefined) {
      this.plainStreaming = true;
      this.res.writeHead(200, sseHeaders(undefined));
      return;
    }
    this.stream = this.transport.newStream(this.entry);
    this.transport.attach(this.entry, this.stream, this.res);
    this.transport.prime(this.stream);
  }

  private write(text: string): void {
    if (this.stream !== undefined) this.transport.queue(this.stream, text);
    else this.res.write('event: message\ndata: ' + text + '\n\n');
  }

  private endStream(): void {
    if (this.stream !== undefined) this.transport.finish(this.entry!, this.stream);
    else this.res.end();
  }
}

function sseHeaders(sessionId: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  };
  if (sessionId !== undefined) headers['mcp-session-id'] = sessionId;
  return headers;
}

/** An SSE event with an id; without a message it is a priming event (empty data). */
function sseEvent(eventId: string, message: string | undefined): string {
  return message === undefined ? 'id: ' + eventId + '\ndata: \n\n' : 'id: ' + eventId + '\nevent: message\ndata: ' + message + '\n\n';
}

/** The HTTP status of a JSON response: the 2026-07-28 error codes that the spec maps to 400/404. */
function statusOf(text: string): number {
  const marker = text.indexOf(',"error":{"code":');
  if (marker === -1) return 200;
  const code = Number.parseInt(text.slice(marker + 17, marker + 24), 10);
  if (code === MISSING_CAPABILITY) return 400;
  return 200;
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

/** Requests after which a shared session's snapshot must be saved again. */
function changesSession(message: unknown): boolean {
  const method = isObject(message) ? message['method'] : undefined;
  return method === 'logging/setLevel' || method === 'resources/subscribe' || method === 'resources/unsubscribe';
}

/** A bind address or URL hostname naming this machine (`::1` as bound, `[::1]` as in a URL). */
function isLoopbackName(host: string): boolean {
  return host === '::1' || LOOPBACK_HOSTS.includes(host);
}

