/**
 * The HTTP+SSE transport of 2024-11-05, which Streamable HTTP replaced, for the clients that still
 * offer it (the AI SDK's `{ type: 'sse' }`, LangChain's and mcp-use's `sse` connections, the OpenAI
 * Agents SDK's `MCPServerSSE`, the Inspector's `--transport sse`). GET `/sse` opens a session and
 * its one event stream, whose first event (`endpoint`) names where to POST
 * (`/messages?sessionId=…`); every answer, notification and server→client request travels on that
 * stream, and each POST is answered 202. The session lives as long as its stream; the two paths are
 * at the root, whatever the endpoint's path. A POST's text is
 * read as a stdio line is (stdio-messages.ts): the size and depth limits, parse errors under the
 * request's id when it can be read, batches where the revision allows them.
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
import { refuseSessionLimit, send, sendError } from './http-reply.js';
import { headerText } from './http-rules.js';
import { sseHeaders } from './http-sse.js';
import { randomId } from './random-id.js';
import { testHook } from './test-hook.js';

export const LEGACY_SSE_PATH = '/sse';
export const LEGACY_MESSAGES_PATH = '/messages';
/** A comment line this often keeps proxies from closing a quiet stream. */
const KEEPALIVE_MS = 25_000;

/** Everything the session sends, as `message` events on its stream. */
class StreamOutbound implements Outbound {
  readonly canEmit = true;
  private readonly res: HttpResponseOut;
  /** The stream closed (the client left, or the server ends it): nothing more is written. */
  closed = false;

  constructor(res: HttpResponseOut) {
    this.res = res;
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
    if (!this.closed && !this.res.writableEnded)
      this.res.write('event: message\ndata: ' + text + '\n\n');
  }
}

interface LegacySession {
  session: Session;
  messages: StdioMessages;
}

export class LegacySse<Req extends HttpRequestIn> {
  private readonly core: ServerCore;
  private readonly readBody: ReadBody<Req>;
  private readonly maxBodyBytes: number;
  private readonly maxSessions: number;
  private readonly sessions = new Map<string, LegacySession>();

  constructor(
    core: ServerCore,
    readBody: ReadBody<Req>,
    maxBodyBytes: number,
    maxSessions: number,
  ) {
    this.core = core;
    this.readBody = readBody;
    this.maxBodyBytes = maxBodyBytes;
    this.maxSessions = maxSessions;
    testHook.watchLegacy?.(this.sessions);
  }

  serves(path: string): boolean {
    return path === LEGACY_SSE_PATH || path === LEGACY_MESSAGES_PATH;
  }

  /** A request to one of the two paths, admitted (Host, Origin, `authorize`). */
  route(path: string, req: Req, res: HttpResponseOut): void {
    const method = path === LEGACY_SSE_PATH ? 'GET' : 'POST';
    if (req.method !== method) {
      res.setHeader('allow', method);
      sendError(res, 405, TRANSPORT_ERROR, `Method Not Allowed: ${path} takes ${method}`);
    } else if (method === 'GET') this.open(res);
    else this.post(req, res);
  }

  /** GET /sse: a new session, its stream, and the `endpoint` event naming where to POST. */
  private open(res: HttpResponseOut): void {
    if (this.sessions.size >= this.maxSessions) {
      refuseSessionLimit(res, this.maxSessions);
      return;
    }
    const id = randomId(16);
    const session = new Session(this.core, id);
    const out = new StreamOutbound(res);
    session.standalone = out;
    this.sessions.set(id, { session, messages: new StdioMessages(this.core, session, out) });
    res.writeHead(200, sseHeaders(undefined));
    res.write('event: endpoint\ndata: ' + LEGACY_MESSAGES_PATH + '?sessionId=' + id + '\n\n');
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
    const url = req.url ?? '';
    const query = url.indexOf('?');
    const id = query === -1 ? null : new URLSearchParams(url.slice(query + 1)).get('sessionId');
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
      this.maxBodyBytes,
      (body) => void this.deliver(entry, body, res),
      (idText) => send(res, 413, tooLargeMessage(this.maxBodyBytes, idText)),
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
