/// <reference types="node" />
/**
 * Draining an HTTP endpoint before the process exits (`HttpListener.drain`, called on SIGTERM by
 * the generated main.ts): the listening socket closes and idle keep-alive connections with it; a
 * new request is answered 503 with `Retry-After` and `Connection: close` (a load balancer sends it
 * elsewhere), except a POST of a session whose requests are still running here (the client's
 * answer to an elicitation they wait for, or its cancellation). Standalone GET streams end at once
 * (their clients resume elsewhere with `Last-Event-ID`); a legacy HTTP+SSE stream, which carries
 * its session's answers, ends once its session has nothing running (legacy-sse.ts). The requests
 * and tasks in flight get until the deadline to finish; then each task still running is saved as
 * `failed` with a message saying its process stopped, its handler is cancelled, and the
 * connections left are closed (a client waiting on one sees the connection close before its
 * answer and rejects the call at once).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { TRANSPORT_ERROR } from '../../protocol/jsonrpc.js';
import { SUBSCRIPTIONS_LISTEN } from '../../protocol/methods.js';
import type { ServerCore } from '../../server/server.js';
import { sendError } from './http-reply.js';
import { pathOf } from './http-rules.js';
import type { LegacyDrain } from './legacy-sse.js';

/** The message of a task its process gave up at the drain deadline. */
export const DRAINED_TASK_MESSAGE =
  'The server process stopped (it was shut down) before the task finished';

export class HttpDrain {
  private readonly core: ServerCore;
  /** POSTs being answered. */
  private posts = 0;
  /** Of those, how many each session has (a 2026-07-28 POST has none). */
  private readonly sessionPosts = new Map<string, number>();
  /** GET streams open. */
  private readonly streams = new Set<ServerResponse>();
  private draining = false;
  /** The legacy HTTP+SSE transport, where served: its streams and POSTs are its own to drain. */
  private readonly legacy: LegacyDrain | undefined;

  constructor(core: ServerCore, legacy: LegacyDrain | undefined) {
    this.core = core;
    this.legacy = legacy;
  }

  /** Notes the request; when draining, answers 503 and returns false unless it belongs to work held here. */
  admit(req: IncomingMessage, res: ServerResponse): boolean {
    if (this.legacy?.serves(pathOf(req.url ?? '/')) === true)
      return this.admitLegacy(req, res, this.legacy);
    const sessionId = req.headers['mcp-session-id'];
    const session = typeof sessionId === 'string' ? sessionId : undefined;
    if (this.draining && !(req.method === 'POST' && this.holds(session))) {
      this.refuse(res);
      return false;
    }
    // A GET stream, or a 2026-07-28 `subscriptions/listen`, lasts as long as the client wants: ended when draining.
    if (req.method === 'GET' || req.headers['mcp-method'] === SUBSCRIPTIONS_LISTEN) {
      this.streams.add(res);
      res.once('close', () => this.streams.delete(res));
    } else if (req.method === 'POST') {
      // Counted, not kept in a map: a map of every POST copied its table as calls came and went.
      this.posts++;
      if (session === undefined) res.on('close', this.postClosed);
      else {
        this.sessionPosts.set(session, (this.sessionPosts.get(session) ?? 0) + 1);
        res.on('close', () => this.sessionPostClosed(session));
      }
    }
    return true;
  }

  /** A legacy POST is answered 202 at once: when draining, only one of a session with work running here is let in. */
  private admitLegacy(req: IncomingMessage, res: ServerResponse, legacy: LegacyDrain): boolean {
    if (this.draining && !(req.method === 'POST' && legacy.holds(req.url ?? ''))) {
      this.refuse(res);
      return false;
    }
    return true;
  }

  private refuse(res: ServerResponse): void {
    res.setHeader('retry-after', '1');
    res.setHeader('connection', 'close');
    sendError(res, 503, TRANSPORT_ERROR, 'Service Unavailable: the server is shutting down');
  }

  /**
   * Stops new work, waits up to `deadlineMs` for what runs to finish, then fails what is left.
   * `closeListener` stops accepting connections; `closeAll` ends the sessions and connections left.
   */
  async drain(
    deadlineMs: number,
    closeListener: () => void,
    closeAll: () => Promise<void>,
  ): Promise<void> {
    this.draining = true;
    closeListener();
    for (const stream of this.streams) stream.end();
    this.legacy?.drain();
    const deadline = Date.now() + deadlineMs;
    const busy = (): boolean =>
      this.posts > 0 || this.core.taskRuns.size > 0 || this.legacy?.busy() === true;
    while (busy() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
    await this.failTasks();
    await closeAll();
  }

  private readonly postClosed = (): void => {
    this.posts--;
  };

  private sessionPostClosed(sessionId: string): void {
    this.posts--;
    const left = (this.sessionPosts.get(sessionId) ?? 1) - 1;
    if (left === 0) this.sessionPosts.delete(sessionId);
    else this.sessionPosts.set(sessionId, left);
  }

  private holds(sessionId: string | undefined): boolean {
    return sessionId !== undefined && this.sessionPosts.has(sessionId);
  }

  /** The tasks still running here end `failed`, saved before the process goes. */
  private async failTasks(): Promise<void> {
    const saves: Promise<void>[] = [];
    for (const run of [...this.core.taskRuns.values()]) {
      run.record.error = { code: -32603, message: DRAINED_TASK_MESSAGE };
      run.transition('failed', DRAINED_TASK_MESSAGE);
      run.context.cancel(DRAINED_TASK_MESSAGE);
      saves.push(
        run
          .save()
          .catch((error: unknown) =>
            this.core.log(`Saving a drained task failed: ${String(error)}`),
          ),
      );
    }
    await Promise.all(saves);
  }
}
