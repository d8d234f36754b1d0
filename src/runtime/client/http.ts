/// <reference types="node" />
/**
 * HTTP client transports, on the wire the entry gives (`exchange`: node-wire.ts or fetch-wire.ts):
 * - Streamable HTTP: one POST per message, answered with JSON or an SSE stream; the session id from
 *   the initialize response on every later request; 404 → SessionExpiredError (the session starts
 *   over); a stream that ends before its answer is resumed with GET + `Last-Event-ID` after the
 *   server's `retry`; the standalone GET stream for server-initiated messages; `Mcp-Method`,
 *   `Mcp-Name` and `Mcp-Param-*` headers. Cancelling a request closes its response (at 2026-07-28
 *   that is the whole cancellation; before, `notifications/cancelled` is posted first).
 * - Legacy HTTP+SSE (2024-11-05): a GET stream whose first `endpoint` event names the POST URL;
 *   used when the initialize POST is refused with 400/404/405 (legacy-sse.ts).
 * The SSE and exchange plumbing is in http-wire.ts; reading and resuming streams in resumable-streams.ts.
 */
import { cancelledNotification } from './cancellation.js';
import {
  ConnectionClosedError,
  DEFAULT_MAX_MESSAGE_BYTES,
  HttpStatusError,
  SessionExpiredError,
} from './errors.js';
import { headerValue } from './headers.js';
import {
  isAnswerTo,
  isEventStream,
  parseJson,
  type Exchange,
  type WireResponse,
} from './http-wire.js';
import { LegacySseTransport } from './legacy-sse.js';
import { ResumableStreams } from './resumable-streams.js';
import { authorizedExchange, type HttpAuth } from './http-auth.js';
import { STATELESS_REVISION } from './negotiation.js';
import type { ClientTransport, OutgoingInfo } from './transport.js';
import { assignOwn } from '../protocol/jsonrpc.js';
import { CANCELLED, INITIALIZE } from '../protocol/methods.js';

export interface HttpClientOptions {
  url: string | URL;
  /** The HTTP wire: `nodeExchange` (node-wire.ts) or `fetchExchange` (fetch-wire.ts). */
  exchange: Exchange;
  /** Sent on every request (e.g. `Authorization`). */
  headers?: Readonly<Record<string, string>>;
  /** Wait before resuming a stream when the server named no `retry` (default 1000 ms). */
  defaultRetryMs?: number;
  /** Whether to open the standalone GET stream after initialize (default true). */
  standaloneStream?: boolean;
  /** Authorization headers for every request, and signing in again on 401/403 (./http-auth.ts). */
  auth?: HttpAuth;
  /**
   * A response body or SSE event over this many bytes is not read: that response is closed and the
   * call it answers rejects with `MessageTooLargeError`; the session stays usable. Default 64 MiB.
   */
  maxMessageBytes?: number;
}

export class StreamableHttpTransport implements ClientTransport {
  private readonly url: URL;
  private readonly options: HttpClientOptions;
  private sessionId: string | undefined;
  private protocolVersion: string | undefined;
  private receive: (message: unknown, text: string) => void = () => {};
  private onClosed: (error?: Error) => void = () => {};
  private onLost: (id: string | number, error: Error) => void = () => {};
  private isClosed = false;
  /** The SSE streams answers and server messages arrive on, resumed while they owe something. */
  private readonly streams: ResumableStreams;
  /** Cancellable requests still waiting for their answer, by id: aborting one closes its HTTP exchange. */
  private readonly inflight = new Map<string | number, AbortController>();
  /**
   * The signal of every other request's exchange, aborted when the transport closes: a request
   * that can never be cancelled needs no controller of its own.
   */
  private readonly closing = new AbortController();
  private triedFallback = false;

  constructor(options: HttpClientOptions) {
    this.url = new URL(options.url);
    this.options = options;
    this.streams = new ResumableStreams(
      options.defaultRetryMs ?? 1000,
      options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
      (lastEventId, signal) => this.get(lastEventId, signal),
    );
  }

  start(
    receive: (message: unknown, text: string) => void,
    closed: (error?: Error) => void,
    lost?: (id: string | number, error: Error) => void,
  ): Promise<void> {
    this.receive = receive;
    this.streams.receive = receive;
    this.onClosed = closed;
    if (lost !== undefined) this.onLost = lost;
    return Promise.resolve();
  }

  setProtocolVersion(version: string | undefined): void {
    this.protocolVersion = version;
  }

  resetSession(): void {
    this.sessionId = undefined;
  }

  signingIn(): Promise<unknown> | undefined {
    return this.options.auth?.pending?.();
  }

  fallback(): ClientTransport | undefined {
    if (this.triedFallback || this.sessionId !== undefined) return undefined;
    this.triedFallback = true;
    return new LegacySseTransport(this.options);
  }

  /** The headers of every request this transport makes (POST, GET, DELETE): the one place they are built. */
  private baseHeaders(): Record<string, string> {
    const user = this.options.headers;
    const headers: Record<string, string> = user === undefined ? {} : assignOwn({}, user);
    if (this.sessionId !== undefined) headers['mcp-session-id'] = this.sessionId;
    if (this.protocolVersion !== undefined) headers['mcp-protocol-version'] = this.protocolVersion;
    return headers;
  }

  /** A message POST's headers: the base ones, then what names the message (`Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`). */
  private postHeaders(info: OutgoingInfo): Record<string, string> {
    const headers = this.baseHeaders();
    headers['content-type'] = 'application/json';
    headers['accept'] = 'application/json, text/event-stream';
    if (info.method !== '') headers['mcp-method'] = info.method;
    if (info.name !== undefined) headers['mcp-name'] = headerValue(info.name);
    if (info.headers) Object.assign(headers, info.headers);
    return headers;
  }

  async send(text: string, info: OutgoingInfo): Promise<void> {
    if (this.isClosed) throw new ConnectionClosedError();
    const headers = this.postHeaders(info);
    const hadSession = this.sessionId !== undefined;
    // A cancellable request's exchange can be closed by `cancel`, any request's by `close`;
    // notifications and responses are not tracked.
    const id = info.id;
    const controller =
      id !== undefined && info.cancellable === true ? new AbortController() : undefined;
    if (id !== undefined && controller !== undefined) this.inflight.set(id, controller);
    const signal = id === undefined ? undefined : (controller ?? this.closing).signal;
    const forget = (): void => {
      if (id !== undefined && controller !== undefined && this.inflight.get(id) === controller)
        this.inflight.delete(id);
    };
    let streaming = false;
    try {
      const response = await authorizedExchange(
        this.options,
        this.url,
        'POST',
        headers,
        text,
        undefined,
        signal,
      );
      const sessionId = response.header('mcp-session-id');
      if (info.method === INITIALIZE && sessionId !== undefined && response.status === 200)
        this.sessionId = sessionId;
      const status = response.status;
      if (status === 202) return await response.drain();
      if (status === 404 && hadSession && info.method !== INITIALIZE) {
        await response.drain();
        throw new SessionExpiredError();
      }
      const type = (response.header('content-type') ?? '').toLowerCase();
      if (status >= 200 && status < 300 && type.startsWith('text/event-stream')) {
        streaming = true;
        void this.streams
          .read(response, id, signal)
          .then((error) => {
            if (error !== undefined && id !== undefined) this.onLost(id, error);
          })
          .finally(forget);
        return;
      }
      const body = await response.text(this.streams.maxBytes);
      if (signal?.aborted) return;
      const message = parseJson(body);
      // A JSON answer cut short (the server died while sending it) is no answer: say so now.
      if (message === undefined && id !== undefined && status >= 200 && status < 300)
        throw new ConnectionClosedError('The connection closed before the answer arrived');
      // Credentials refused (after any sign-in): an HTTP matter whatever the body says, so negotiation
      // never reads it as "no such revision".
      if (status === 401)
        throw new HttpStatusError(status, body, `${info.method || 'response'} POST`);
      // A JSON-RPC answer is delivered whatever the status (a 400 carrying -32022 is negotiation).
      if (isAnswerTo(message, id) || (status >= 200 && status < 300 && message !== undefined)) {
        this.receive(message, body);
        return;
      }
      // initialize refused with 400, 404 or 405 and no answer of its own: the URL may be a legacy
      // HTTP+SSE endpoint, which takes GET only (handshake.ts falls back on the status).
      if (
        info.method === INITIALIZE &&
        (status === 400 || status === 404 || status === 405) &&
        !isAnswerTo(message, id)
      )
        throw new HttpStatusError(status, body, 'initialize POST');
      // An error refusing this request but naming no id (a transport-level refusal) is its answer too.
      if (
        id !== undefined &&
        isAnswerTo(message, null) &&
        typeof (message as { error?: unknown }).error === 'object'
      ) {
        this.receive({ ...(message as object), id }, body);
        return;
      }
      if (status >= 200 && status < 300) return;
      throw new HttpStatusError(status, body, `${info.method || 'response'} POST`);
    } finally {
      if (!streaming) forget();
    }
  }

  /**
   * At 2026-07-28 closing the request's response is the cancellation (the server aborts the
   * handler when the client disconnects). The stateful revisions want `notifications/cancelled`
   * instead; the response is closed after it, so a stream that ends without an answer is not resumed.
   */
  async cancel(id: string | number, reason: string): Promise<void> {
    try {
      if (this.protocolVersion !== STATELESS_REVISION)
        await this.send(cancelledNotification(id, reason), { method: CANCELLED });
    } finally {
      this.inflight.get(id)?.abort();
      this.inflight.delete(id);
    }
  }

  /** Opens the standalone GET stream; servers that offer none (405, 404, 400) are fine. */
  async initialized(): Promise<void> {
    if (this.options.standaloneStream === false || this.isClosed) return;
    const response = await this.get(undefined).catch(() => undefined);
    if (!response) return;
    if (response.status !== 200 || !isEventStream(response)) {
      await response.drain();
      return;
    }
    void this.streams.read(response, undefined);
  }

  private get(lastEventId: string | undefined, signal?: AbortSignal): Promise<WireResponse> {
    const headers = this.baseHeaders();
    headers['accept'] = 'text/event-stream';
    if (lastEventId !== undefined) headers['last-event-id'] = lastEventId;
    return authorizedExchange(this.options, this.url, 'GET', headers, undefined, undefined, signal);
  }

  async close(): Promise<void> {
    if (this.isClosed) return;
    this.isClosed = true;
    // Requests still waiting are abandoned: at 2026-07-28 that cancels them on the server.
    for (const controller of this.inflight.values()) controller.abort();
    this.inflight.clear();
    this.closing.abort();
    this.streams.close();
    if (this.sessionId !== undefined) {
      // Ends the session on the server; a server that does not allow it answers 405, which is fine.
      const response = await authorizedExchange(
        this.options,
        this.url,
        'DELETE',
        this.baseHeaders(),
        undefined,
        2000,
      ).catch(() => undefined);
      if (response) await response.drain();
    }
    this.onClosed(new ConnectionClosedError());
  }
}

export { LegacySseTransport };
