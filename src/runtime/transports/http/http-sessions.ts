/**
 * The stateful side of Streamable HTTP: sessions by `Mcp-Session-Id` (opened by initialize, shared
 * through a SessionStore when one is given, ended by DELETE or when idle), POSTs to a session, and
 * the GET that opens the standalone stream or resumes a stream.
 */
import { randomId } from './random-id.js';
import type { HttpRequestIn, HttpResponseOut } from './http-exchange.js';
import type { AuthInfo } from '../../api.js';
import { ownerOf } from '../../server/owner.js';
import { HttpOutbound } from './http-outbound.js';
import { ACCEPTS_SSE, refuseSessionLimit, sendError } from './http-reply.js';
import { changesSession, headerText, isInitializeRequest } from './http-rules.js';
import { StandaloneOutbound, type SseStream, type SseStreams } from './http-sse.js';
import { SESSION_NOT_FOUND, TRANSPORT_ERROR, quote } from '../../protocol/jsonrpc.js';
import type { ServerCore } from '../../server/server.js';
import type { SessionStore } from './session-store.js';
import { testHook } from './test-hook.js';
import { Session } from '../../server/session.js';
import { attachBus } from '../../server/message-bus.js';

export interface SessionEntry {
  readonly session: Session;
  lastActive: number;
  openRequests: number;
  /** The session's live streams by id (POST streams until their response is written, the GET stream). */
  readonly streams: Map<string, SseStream>;
  standalone: SseStream | undefined;
  /** When the session was last written to the session store. */
  savedAt: number;
}

export class HttpSessions {
  private readonly core: ServerCore;
  private readonly streams: SseStreams;
  private readonly sessionStore: SessionStore | undefined;
  private readonly idleTimeout: number;
  private readonly maxSessions: number;
  private readonly sessions = new Map<string, SessionEntry>();

  constructor(
    core: ServerCore,
    streams: SseStreams,
    sessionStore: SessionStore | undefined,
    idleTimeout: number,
    maxSessions: number,
  ) {
    this.core = core;
    this.streams = streams;
    this.sessionStore = sessionStore;
    this.idleTimeout = idleTimeout;
    this.maxSessions = maxSessions;
    streams.sessionFailed = this.failed;
    testHook.watch?.(this);
    if (sessionStore?.bus === undefined) return;
    attachBus(core, sessionStore.bus, (id) => this.find(id));
    // A session deleted on another process ends here at once, not after its idle timeout.
    core.bus?.on('end', ({ s }) => typeof s === 'string' && this.drop(s));
  }

  private drop(sessionId: string): void {
    const entry = this.sessions.get(sessionId);
    if (entry === undefined) return;
    this.sessions.delete(sessionId);
    this.endSession(entry);
  }

  /** The session with this id, if this process holds it. */
  find(sessionId: string): Session | undefined {
    return this.sessions.get(sessionId)?.session;
  }

  /** The transport is closing: every session ends. */
  endAll(): void {
    for (const entry of this.sessions.values()) this.endSession(entry);
    this.sessions.clear();
  }

  /** Its streams end first, so the calls it cancels next find nothing left to write to. */
  endSession(entry: SessionEntry): void {
    this.streams.closeAll(entry);
    entry.session.standalone = undefined;
    entry.session.close(true);
  }

  /**
   * The last resort: a response or stream step of this session failed unexpectedly (a bug, not the
   * client's doing). Logged, and this session ends; the process and the other sessions carry on.
   */
  private readonly failed = (entry: SessionEntry, error: unknown): void => {
    const id = entry.session.id!;
    this.core.log(
      `Session ${id} ended after an error: ${(error as Error)?.stack ?? String(error)}`,
    );
    if (this.sessions.get(id) === entry) this.sessions.delete(id);
    this.endSession(entry);
  };

  sweep(): void {
    const cutoff = Date.now() - this.idleTimeout;
    for (const [id, entry] of this.sessions) {
      if (entry.lastActive < cutoff && entry.openRequests === 0 && !entry.session.busy) {
        this.sessions.delete(id);
        this.endSession(entry);
      }
    }
  }

  /** A message for a session, or the initialize that opens one. */
  async receive(
    req: HttpRequestIn,
    res: HttpResponseOut,
    message: unknown,
    version: string | undefined,
    auth?: AuthInfo,
  ): Promise<void> {
    if (version !== undefined && !this.core.statefulVersions.includes(version)) {
      sendError(
        res,
        400,
        TRANSPORT_ERROR,
        `Bad Request: unsupported MCP-Protocol-Version ${quote(version)}`,
      );
      return;
    }
    let entry: SessionEntry | undefined;
    if (isInitializeRequest(message)) {
      if (this.sessions.size >= this.maxSessions) {
        refuseSessionLimit(res, this.maxSessions);
        return;
      }
      // initialize always opens a new session; its id is issued only if initialization succeeds.
      entry = {
        session: new Session(this.core, newSessionId()),
        lastActive: 0,
        openRequests: 0,
        streams: new Map(),
        standalone: undefined,
        savedAt: 0,
      };
      entry.session.owner = auth === undefined ? undefined : ownerOf(auth);
    } else {
      entry = await this.sessionOf(req, res, auth);
      if (entry === undefined) return;
      // The request validators load with the first message after initialize (a failure: dispatch.ts).
      if (!this.core.validators) await this.core.loadRequestValidators().catch(() => {});
    }
    const session = entry.session;
    const out = new HttpOutbound(res, this.streams, entry, session);
    out.auth = auth;
    if (this.core.tracing !== undefined) out.traceHeaders = req.headers;
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

  // ---- GET: the standalone stream, or the resumption of a stream -----------------------------

  async get(req: HttpRequestIn, res: HttpResponseOut, auth?: AuthInfo): Promise<void> {
    if (!ACCEPTS_SSE.test(headerText(req.headers, 'accept') ?? '')) {
      sendError(
        res,
        406,
        TRANSPORT_ERROR,
        'Not Acceptable: a GET stream needs Accept: text/event-stream',
      );
      return;
    }
    const rawVersion = req.headers['mcp-protocol-version'];
    if (
      rawVersion !== undefined &&
      (typeof rawVersion !== 'string' || !this.core.statefulVersions.includes(rawVersion.trim()))
    ) {
      sendError(
        res,
        400,
        TRANSPORT_ERROR,
        `Bad Request: unsupported MCP-Protocol-Version ${quote(String(rawVersion))}`,
      );
      return;
    }
    const entry = await this.sessionOf(req, res, auth);
    if (entry === undefined) return;
    res.on('error', (error) => this.failed(entry, error));
    entry.lastActive = Date.now();
    const lastEventId = req.headers['last-event-id'];
    if (typeof lastEventId === 'string' && lastEventId !== '') {
      await this.streams.resume(entry, lastEventId, res);
      return;
    }
    if (entry.standalone?.res !== undefined) {
      sendError(
        res,
        409,
        TRANSPORT_ERROR,
        'Conflict: this session already has a standalone stream',
      );
      return;
    }
    const stream = entry.standalone ?? this.streams.newStream(entry);
    entry.standalone = stream;
    this.streams.attach(entry, stream, res);
    this.streams.prime(stream);
    entry.session.standalone = new StandaloneOutbound(this.streams, stream);
    this.streams.touchIdle(entry, stream);
  }

  // ---- DELETE ----------------------------------------------------------------------------------

  async delete(req: HttpRequestIn, res: HttpResponseOut, auth?: AuthInfo): Promise<void> {
    const entry = await this.sessionOf(req, res, auth);
    if (entry === undefined) return;
    this.sessions.delete(entry.session.id!);
    this.endSession(entry);
    await this.sessionStore?.delete(entry.session.id!);
    this.core.bus?.send('end', { s: entry.session.id! });
    res.writeHead(204).end();
  }

  /**
   * The session named by the request's `Mcp-Session-Id`; undefined once the refusal is sent. With
   * `auth`, a session belongs to the owner (`ownerOf`) of the token that opened it: another's request is
   * answered exactly as for an unknown id (404), so a leaked or guessed id tells its holder nothing.
   */
  private async sessionOf(
    req: HttpRequestIn,
    res: HttpResponseOut,
    auth?: AuthInfo,
  ): Promise<SessionEntry | undefined> {
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
        entry = {
          session: Session.restore(this.core, sessionId, snapshot),
          lastActive: Date.now(),
          openRequests: 0,
          streams: new Map(),
          standalone: undefined,
          savedAt: Date.now(),
        };
        this.sessions.set(sessionId, entry);
      } else if (entry !== undefined && Date.now() - entry.savedAt > this.idleTimeout / 2) {
        await this.saveSession(entry); // keeps the shared record from expiring while in use
      }
    }
    if (
      entry !== undefined &&
      entry.session.owner !== (auth === undefined ? undefined : ownerOf(auth))
    )
      entry = undefined;
    if (entry === undefined) sendError(res, 404, SESSION_NOT_FOUND, 'Session not found');
    return entry;
  }

  private async saveSession(entry: SessionEntry): Promise<void> {
    if (this.sessionStore === undefined) return;
    entry.savedAt = Date.now();
    await this.sessionStore.save(entry.session.id!, entry.session.snapshot(), this.idleTimeout);
  }
}

/** A session id: 128 random bits from the CSPRNG, base64url (visible ASCII only). */
function newSessionId(): string {
  return randomId(16);
}
