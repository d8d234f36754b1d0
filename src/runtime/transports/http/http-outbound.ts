/** One POST's answer channel: JSON, or an SSE stream once a handler sends before its result. */
import type { HttpResponseOut } from './http-exchange.js';
import type { AuthInfo } from '../../api.js';
import { JSON_HEADERS, isOpen, writeLive } from './http-reply.js';
import type { SessionEntry } from './http-sessions.js';
import { sseHeaders, type SseStream, type SseStreams } from './http-sse.js';
import { MISSING_CAPABILITY } from '../../protocol/jsonrpc.js';
import {
  INVALID_MESSAGE,
  NO_RESPONSE,
  type Delivery,
  type Outbound,
} from '../../server/outbound.js';
import type { Session } from '../../server/session.js';
import { STATE_CLOSED } from '../../server/lifecycle.js';
import { withResultFields } from '../../server/stateless.js';

/**
 * One POST's answer channel. Answers produced while `Session.receive` runs are held until it
 * returns, so the status (400 for a message that is not JSON-RPC) and the session header of a new
 * session can still be set. In a session, an SSE answer is a resumable stream; a stateless answer
 * (no session) is a plain SSE stream without ids.
 */
export class HttpOutbound implements Outbound {
  readonly canEmit = true;
  finished = false;
  sessionId: string | undefined = undefined;
  /** The verified caller of this POST (manifest `auth`). */
  auth: AuthInfo | undefined = undefined;
  /** The POST's headers, set only with tracing on (server/tracing.ts reads `traceparent`). */
  declare traceHeaders?: Outbound['traceHeaders'];
  private readonly res: HttpResponseOut;
  private readonly transport: SseStreams;
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

  constructor(
    res: HttpResponseOut,
    transport: SseStreams,
    entry: SessionEntry | undefined,
    session: Session,
  ) {
    this.res = res;
    this.transport = transport;
    this.entry = entry;
    this.session = session;
    // The listener closes over this outbound alone, never over the caller's scope. Node's response
    // objects can outlive young-generation collections, and whatever their listeners hold survives
    // with them: a listener sharing a scope with the parsed request and its session keeps them
    // alive too, and the server's heap grows with every call.
    res.on('close', this.closed);
    res.on('error', this.failed);
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

  /**
   * The last resort (docs/faults.md): an 'error' on this response ends its session, or this
   * 2026-07-28 request, and never the process. Nothing should emit it: every write checks `isOpen`.
   */
  private readonly failed = (error: Error): void => {
    if (this.entry !== undefined) this.transport.sessionFailed(this.entry, error);
    else {
      this.session.core.log(`A request ended after an error: ${error.stack ?? String(error)}`);
      this.session.close(true);
    }
  };

  private get streaming(): boolean {
    return this.stream !== undefined || this.plainStreaming;
  }

  respond(text: string): void {
    if (this.finished) return;
    const final =
      this.statelessId === undefined
        ? text
        : withResultFields(text, this.statelessId, this.statelessMethod, this.session.core);
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
      if (!isOpen(this.res)) return;
      const headers =
        this.sessionId === undefined
          ? JSON_HEADERS
          : { ...JSON_HEADERS, 'mcp-session-id': this.sessionId };
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
    // Stateless, or a session that has ended (its cancelled calls end here): a plain stream, never stored.
    if (this.entry === undefined || this.session.state === STATE_CLOSED) {
      this.plainStreaming = true;
      if (!this.res.headersSent) this.res.writeHead(200, sseHeaders(undefined));
      return;
    }
    this.stream = this.transport.newStream(this.entry);
    this.transport.attach(this.entry, this.stream, this.res);
    this.transport.prime(this.stream);
  }

  private write(text: string): void {
    if (this.stream !== undefined) this.transport.queue(this.stream, text);
    else
      writeLive(this.res, 'event: message\ndata: ' + text + '\n\n', this.transport.maxUnsentBytes);
  }

  private endStream(): void {
    if (this.stream !== undefined) this.transport.finish(this.entry!, this.stream);
    else if (isOpen(this.res)) this.res.end();
  }
}

const ERROR_MARKER = ',"error":{"code":';

/**
 * The HTTP status of a JSON response: the 2026-07-28 error codes that the spec maps to 400/404.
 * A message names its result or error right after its id: the marker is looked for only before
 * `"result"`, so a large result is not scanned (nor an error object in its data mistaken for one).
 */
function statusOf(text: string): number {
  const resultAt = text.indexOf(',"result":');
  const marker = (resultAt === -1 ? text : text.slice(0, resultAt)).indexOf(ERROR_MARKER);
  if (marker === -1) return 200;
  const code = Number.parseInt(text.slice(marker + 17, marker + 24), 10);
  if (code === MISSING_CAPABILITY) return 400;
  return 200;
}
