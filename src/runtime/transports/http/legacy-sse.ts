/**
 * The HTTP+SSE transport of 2024-11-05, which Streamable HTTP replaced, for the clients that still
 * offer it (the AI SDK's `{ type: 'sse' }`, LangChain's and mcp-use's `sse` connections, the OpenAI
 * Agents SDK's `MCPServerSSE`, the Inspector's `--transport sse`). GET `/sse` opens a session and
 * its one event stream, whose first event (`endpoint`) names where to POST
 * (`/messages?sessionId=…`); every answer, notification and server→client request travels on that
 * stream, and each POST is answered 202. The session lives as long as its stream. The two paths are
 * the endpoint's siblings: `/sse` and `/messages` beside `/mcp`, `/api/sse` beside `/api/mcp`. When
 * the server drains, each stream ends once its session has nothing running: the answers of the
 * calls in flight go out first (http-drain.ts). A POST's text is read as a stdio line is
 * (stdio-messages.ts): the size and depth limits, parse errors under the request's id when it can
 * be read, batches where the revision allows them.
 *
 * Served beside the Streamable HTTP endpoint (http-endpoint.ts), by node:http and the Web-standard
 * handler alike, through the same Host, Origin and `authorize` checks. A legacy session lives in
 * the process that holds its stream: not served with a shared `sessionStore`, nor where sessions
 * are off (Workers); and not for a server with manifest `auth` (its OAuth flow is Streamable HTTP's).
 */
import { SESSION_NOT_FOUND, TRANSPORT_ERROR, tooLargeMessage } from '../../protocol/jsonrpc.js';
import type { Outbound } from '../../server/outbound.js';
import type { ServerCore } from '../../server/server.js';
import { Session } from '../../server/session.js';
import { StdioMessages } from '../stdio/stdio-messages.js';
import type { ReadBody } from './http-body.js';
import type { HttpRequestIn, HttpResponseOut } from './http-exchange.js';
import { refuseSessionLimit, send, sendError, writeLive } from './http-reply.js';
import { headerText } from './http-rules.js';
import { sseHeaders } from './http-sse.js';
import { randomId } from './random-id.js';
import { testHook } from './test-hook.js';

/** The legacy transport's two paths beside the endpoint at `endpointPath`. */
export function legacyPaths(endpointPath: string): { sse: string; messages: string } {
  const folder = endpointPath.slice(0, endpointPath.lastIndexOf('/') + 1) || '/';
  return { sse: folder + 'sse', messages: folder + 'messages' };
}

/** A comment line this often keeps proxies from closing a quiet stream. */
const KEEPALIVE_MS = 25_000;

/** Everything the session sends, as `message` events on its stream. */
class StreamOutbound implements Outbound {
  readonly canEmit = true;
  private readonly res: HttpResponseOut;
  /** The stream closed (the client left, or the server ends it): nothing more is written. */
  closed = false;
  private readonly maxUnsentBytes: number;

  constructor(res: HttpResponseOut, maxUnsentBytes: number) {
    this.res = res;
    this.maxUnsentBytes = maxUnsentBytes;
  }

  respond(text: string): void {
    this.write(text);
  }

  emit(text: string): void {
    this.write(text);
  }

  abandon(): void {}

  private write(text: string): void {
    // JSON text holds no line break, so the message is one `data:` line.
    // A client this far behind loses its stream, and with it the session (`writeLive`).
    if (!this.closed)
      writeLive(this.res, 'event: message\ndata: ' + text + '\n\n', this.maxUnsentBytes);
  }
}

interface LegacySession {
  session: Session;
  messages: StdioMessages;
  /** Its stream. */
  res: HttpResponseOut;
}

/** What draining needs of the legacy transport (http-drain.ts). */
export interface LegacyDrain {
  serves(path: string): boolean;
  /** Whether a POST to this URL belongs to a session with work running here (a cancellation, an elicitation's answer). */
  holds(url: string): boolean;
  /** Whether any session has work running here. */
  busy(): boolean;
  /** Each stream ends once its session has nothing running. */
  drain(): void;
}

/** The endpoint's limits, as they apply here (`HttpRulesOptions`, defaults resolved). */
export interface LegacyLimits {
  readonly maxBodyBytes: number;
  readonly maxSessions: number;
  readonly maxUnsentBytes: number;
}

export class LegacySse<Req extends HttpRequestIn> implements LegacyDrain {
  private readonly core: ServerCore;
  private readonly paths: { sse: string; messages: string };
  private readonly readBody: ReadBody<Req>;
  private readonly limits: LegacyLimits;
  private readonly sessions = new Map<string, LegacySession>();

  constructor(
    core: ServerCore,
    endpointPath: string,
    readBody: ReadBody<Req>,
    limits: LegacyLimits,
  ) {
    this.core = core;
    this.paths = legacyPaths(endpointPath);
    this.readBody = readBody;
    this.limits = limits;
    testHook.watchLegacy?.(this.sessions);
  }

  serves(path: string): boolean {
    return path === this.paths.sse || path === this.paths.messages;
  }

  holds(url: string): boolean {
    const id = sessionIdOf(url);
    return id !== null && this.sessions.get(id)?.session.busy === true;
  }

  busy(): boolean {
    for (const { session } of this.sessions.values()) if (session.busy) return true;
    return false;
  }

  drain(): void {
    for (const { session, res } of this.sessions.values())
      void session.whenIdle().then(() => res.end());
  }

  /** A request to one of the two paths, admitted (Host, Origin, `authorize`). */
  route(path: string, req: Req, res: HttpResponseOut): void {
    const method = path === this.paths.sse ? 'GET' : 'POST';
    if (req.method !== method) {
      res.setHeader('allow', method);
      sendError(res, 405, TRANSPORT_ERROR, `Method Not Allowed: ${path} takes ${method}`);
    } else if (method === 'GET') this.open(res);
    else this.post(req, res);
  }

  /** GET /sse: a new session, its stream, and the `endpoint` event naming where to POST. */
  private open(res: HttpResponseOut): void {
    if (this.sessions.size >= this.limits.maxSessions) {
      refuseSessionLimit(res, this.limits.maxSessions);
      return;
    }
    const id = randomId(16);
    const session = new Session(this.core, id);
    const out = new StreamOutbound(res, this.limits.maxUnsentBytes);
    session.standalone = out;
    this.sessions.set(id, { session, messages: new StdioMessages(this.core, session, out), res });
    res.writeHead(200, sseHeaders(undefined));
    res.write('event: endpoint\ndata: ' + this.paths.messages + '?sessionId=' + id + '\n\n');
    const keepalive = setInterval(() => {
      if (!out.closed && !res.writableEnded) res.write(': keepalive\n\n');
    }, KEEPALIVE_MS);
    keepalive.unref?.();
    // The stream was the session's only way out: its running handlers are aborted with it.
    res.on('close', () => {
      out.closed = true;
      clearInterval(keepalive);
      this.sessions.delete(id);
      session.close(true);
    });
  }

  /** POST /messages?sessionId=…: 202 at once; what it says is answered on the session's stream. */
  private post(req: Req, res: HttpResponseOut): void {
    const id = sessionIdOf(req.url ?? '');
    if (id === null) {
      sendError(
        res,
        400,
        TRANSPORT_ERROR,
        'Bad Request: the sessionId query parameter is required',
      );
      return;
    }
    const entry = this.sessions.get(id);
    if (entry === undefined) {
      sendError(res, 404, SESSION_NOT_FOUND, 'Session not found');
      return;
    }
    const type = headerText(req.headers, 'content-type');
    if (type !== undefined && !/^application\/json\s*(?:;|$)/i.test(type)) {
      sendError(
        res,
        415,
        TRANSPORT_ERROR,
        'Unsupported Media Type: the body must be application/json',
      );
      return;
    }
    this.readBody(
      req,
      this.limits.maxBodyBytes,
      (body) => void this.deliver(entry, body, res),
      (idText) => send(res, 413, tooLargeMessage(this.limits.maxBodyBytes, idText)),
    );
  }

  private async deliver(entry: LegacySession, body: string, res: HttpResponseOut): Promise<void> {
    // The request validators load with the first message after initialize (a failure: dispatch.ts).
    if (entry.session.initialized && !this.core.validators)
      await this.core.loadRequestValidators().catch(() => {});
    res.writeHead(202, { 'content-type': 'text/plain' });
    res.end('Accepted');
    entry.messages.receive(body);
  }

  /** Every session ends (the server closes); their streams close with the connections. */
  endAll(): void {
    for (const { session } of this.sessions.values()) {
      session.standalone = undefined;
      session.close(true);
    }
    this.sessions.clear();
  }
}

/** The `sessionId` query parameter of a POST's URL, or null. */
function sessionIdOf(url: string): string | null {
  const query = url.indexOf('?');
  return query === -1 ? null : new URLSearchParams(url.slice(query + 1)).get('sessionId');
}
