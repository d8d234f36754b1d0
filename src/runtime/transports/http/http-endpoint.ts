/**
 * The Streamable HTTP endpoint with every rule of the transport, whatever serves it: node:http
 * (http.ts) and the Web-standard handler (web.ts) are adapters that hand it their requests and
 * answers in the shapes of http-exchange.ts. One endpoint for POST (client messages), GET (the
 * standalone SSE stream, or the resumption of any stream with `Last-Event-ID`) and DELETE (end a
 * session); both protocol eras share it.
 *
 * The rules are split by concern: the checks a request passes before it is routed
 * (http-admission.ts), a POST up to its era (http-post.ts), the stateful sessions
 * (http-sessions.ts), the stateless path (http-stateless.ts), SSE streams and their resumption
 * (http-sse.ts), the relay of another process's stream (http-relay.ts), a POST's answer channel
 * (http-outbound.ts) and the seam to an OAuth resource server, with its metadata document
 * (http-auth.ts).
 */
import type { AuthInfo } from '../../api.js';
import { InMemoryEventStore, type EventStore } from './event-store.js';
import { TRANSPORT_ERROR, quote } from '../../protocol/jsonrpc.js';
import { DEFAULT_HTTP_LIMITS, STATELESS_REVISION, type ServerCore } from '../../server/server.js';
import type { ReadBody } from './http-body.js';
import type { HttpRequestIn, HttpResponseOut } from './http-exchange.js';
import { SESSIONS_OFF, headerText, pathOf, statelessGetOrDelete } from './http-rules.js';
import { sendError } from './http-reply.js';
import { HttpSessions } from './http-sessions.js';
import { SseStreams } from './http-sse.js';
import { serveMetadata, type ResourceServerAuth } from './http-auth.js';
import { HttpAdmission, type AuthorizeHook } from './http-admission.js';
import type { HttpRulesOptions } from './http-options.js';
import { HttpPost } from './http-post.js';
import type { LegacySse } from './legacy-sse.js';

const DEFAULT_IDLE_TIMEOUT = 30 * 60 * 1000;
const DEFAULT_IDLE_STREAM_TIMEOUT = 5 * 60 * 1000;

/** What an adapter adds to the shared options. */
export interface EndpointSetup<Req extends HttpRequestIn> {
  /** The address served on (the default Host check allows the loopback names for a loopback one). */
  bindHost: string;
  path: string;
  authorize: AuthorizeHook<Req> | undefined;
  readBody: ReadBody<Req>;
  /** False: the stateful era is refused with a 400 that says why (web.ts, on platforms without a process). */
  sessions: boolean;
  /** The legacy HTTP+SSE transport's two paths (legacy-sse.ts), where sessions live in the process. */
  legacy?: LegacySse<Req> | undefined;
}

export class HttpEndpoint<Req extends HttpRequestIn> {
  private readonly core: ServerCore;
  private readonly path: string;
  private readonly auth: ResourceServerAuth | undefined;
  /** Host, Origin, `authorize` and bearer-token checks (http-admission.ts). */
  private readonly admission: HttpAdmission<Req>;
  /** The stateful era: sessions, their POSTs, GET streams and DELETE. */
  readonly stateful: HttpSessions;
  /** POSTs of either era. */
  private readonly posts: HttpPost<Req>;
  private readonly sessions: boolean;
  /** The legacy HTTP+SSE transport, where served (not with manifest `auth`). */
  readonly legacy: LegacySse<Req> | undefined;
  /** Sessions without traffic for this long are ended (`sweep`). */
  readonly idleTimeout: number;

  constructor(core: ServerCore, options: HttpRulesOptions, setup: EndpointSetup<Req>) {
    this.core = core;
    this.path = setup.path;
    this.sessions = setup.sessions;
    this.idleTimeout = options.sessionIdleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT;
    this.auth = options.auth;
    this.legacy = options.auth === undefined ? setup.legacy : undefined;
    this.admission = new HttpAdmission<Req>(
      setup.bindHost,
      { ...options, authorize: setup.authorize },
      (line) => core.log(line),
      (res, error) => this.failed(res, error),
    );
    if (options.taskStore !== undefined) core.taskStore = options.taskStore;
    const eventStore: EventStore = options.eventStore ?? new InMemoryEventStore();
    const streams = new SseStreams(
      core,
      eventStore,
      options.idleStreamTimeoutMs ?? DEFAULT_IDLE_STREAM_TIMEOUT,
      options.maxUnsentBytes ?? DEFAULT_HTTP_LIMITS.maxUnsentBytes,
    );
    const maxSessions = options.maxSessions ?? DEFAULT_HTTP_LIMITS.maxSessions;
    this.stateful = new HttpSessions(
      core,
      streams,
      options.sessionStore,
      this.idleTimeout,
      maxSessions,
    );
    this.posts = new HttpPost<Req>(
      core,
      options.maxBodyBytes ?? core.limits.maxMessageBytes,
      setup.readBody,
      this.auth,
      streams,
      this.sessions ? this.stateful : undefined,
      (res, error) => this.failed(res, error),
    );
  }

  /** Every request the adapter receives, whatever its path. */
  handle(req: Req, res: HttpResponseOut): void {
    const path = pathOf(req.url ?? '/');
    if (path !== this.path) {
      const legacy = this.legacy;
      if (legacy !== undefined && legacy.serves(path)) {
        this.admission.admit(req, res, () => legacy.route(path, req, res));
        return;
      }
      const metadata = this.auth?.metadataAt(path);
      if (metadata !== undefined && this.admission.hostAllowed(headerText(req.headers, 'host')))
        serveMetadata(req, res, metadata);
      else sendError(res, 404, TRANSPORT_ERROR, 'Not Found');
      return;
    }
    this.admission.admit(req, res, (auth) => this.route(req, res, auth));
  }

  private route(req: Req, res: HttpResponseOut, auth: AuthInfo | undefined): void {
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
    } else if ((req.method === 'GET' || req.method === 'DELETE') && !this.sessions) {
      res.setHeader('allow', 'POST');
      sendError(res, 405, TRANSPORT_ERROR, `Method Not Allowed: ${SESSIONS_OFF}`);
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
  private failed(res: HttpResponseOut, error: unknown): void {
    this.core.log(
      `HTTP request failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    if (!res.headersSent) sendError(res, 500, TRANSPORT_ERROR, 'Internal Server Error');
    else res.destroy();
  }
}
