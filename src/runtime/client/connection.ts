/**
 * What one connection holds beneath the session: its transport (swapped once, for the legacy
 * HTTP+SSE fallback), the identity negotiated on it, and the bookkeeping of our requests: ids,
 * progress tokens, timeouts, cancellation, and sending again on a new session when the server
 * forgot ours. The handshake is handshake.ts; what arrives is routed by incoming.ts.
 */
import type { JsonObject } from '../api.js';
import { isObject, jsonOrUndefined } from '../protocol/jsonrpc.js';
import { whenAborted } from './cancellation.js';
import { ConnectionClosedError, RequestTimeoutError, SessionExpiredError } from './errors.js';
import { IncomingMessages, type Pending } from './incoming.js';
import { STATELESS_REVISION, type ServerIdentity } from './negotiation.js';
import type { RequestOptions, SessionOptions } from './session-options.js';
import type { ClientTracing } from './tracing.js';
import { mcpNameOf, type ClientTransport, type OutgoingInfo } from './transport.js';
import { INITIALIZE } from '../protocol/methods.js';

export class Connection {
  transport: ClientTransport;
  /** Set by the handshake (handshake.ts). */
  identity: ServerIdentity | undefined;
  closedError: Error | undefined;
  /** Our requests awaiting answers, their listeners, and the server's requests we serve. */
  readonly incoming: IncomingMessages;
  private nextId = 0;
  private renewing: Promise<void> | undefined;
  /** A new session on the same revision (handshake.ts `reinitialize`), given by the session. */
  private readonly renew: () => Promise<void>;
  /** With tracing on, each request is a CLIENT span whose context rides in its `_meta` (tracing.ts). */
  private readonly tracing: ClientTracing | undefined;

  constructor(transport: ClientTransport, options: SessionOptions, renew: () => Promise<void>) {
    this.transport = transport;
    this.renew = renew;
    this.tracing = options.tracing;
    this.incoming = new IncomingMessages(
      () => options.handlers ?? {},
      (method, params) => options.onNotification?.(method, params),
      (text) => (this.closedError ? undefined : this.transport.send(text, { method: '' })),
      options.tracing,
    );
  }

  get stateless(): boolean {
    return this.identity?.protocolVersion === STATELESS_REVISION;
  }

  /** Starts the current transport, routing what it receives and noting when it closes. */
  start(): Promise<void> {
    return this.transport.start(
      (message) => this.incoming.receive(message),
      (error) => this.closed(error),
      (id, error) => this.incoming.pending.get(id)?.reject(error),
    );
  }

  /** One JSON-RPC round trip, with cancellation, timeout and progress; in a span with tracing on. */
  exchange(method: string, params: JsonObject, options: RequestOptions): Promise<JsonObject> {
    const tracing = this.tracing;
    if (tracing === undefined) return this.roundTrip(method, params, options);
    return tracing.request(method, params, this.identity?.protocolVersion, (traced) =>
      this.roundTrip(method, traced, options),
    );
  }

  private roundTrip(
    method: string,
    params: JsonObject,
    options: RequestOptions,
  ): Promise<JsonObject> {
    if (this.closedError) return Promise.reject(this.closedError);
    const signal = options.signal;
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    const id = this.nextId++;
    let sent = params;
    if (options.onProgress) {
      const meta: JsonObject = isObject(params['_meta']) ? { ...params['_meta'] } : {};
      meta['progressToken'] = id;
      sent = { ...params, _meta: meta };
      this.incoming.progress.set(id, options.onProgress);
    }
    if (options.onSubscriptionNotification)
      this.incoming.subscriptions.set(id, options.onSubscriptionNotification);
    const paramsJson = jsonOrUndefined(sent);
    if (paramsJson === undefined)
      return Promise.reject(new TypeError(`${method}: params cannot be serialized as JSON`));
    const text =
      '{"jsonrpc":"2.0","id":' +
      id +
      ',"method":' +
      JSON.stringify(method) +
      ',"params":' +
      paramsJson +
      '}';
    const info: OutgoingInfo = { method, id };
    const name = mcpNameOf(method, params);
    if (name !== undefined) info.name = name;
    if (options.headers) info.headers = options.headers;
    if (signal !== undefined || options.timeoutMs !== undefined) info.cancellable = true;

    return new Promise<JsonObject>((resolve, reject) => {
      const request = new InFlight(this.incoming, id, resolve, reject);
      this.incoming.pending.set(id, request);
      // The cancel closure only for a call that can be cancelled or time out.
      if (signal !== undefined || options.timeoutMs !== undefined) {
        const cancel = (reason: Error): void => {
          if (!this.incoming.pending.has(id)) return;
          request.reject(reason);
          // The transport tells the server its own way (cancellation.ts); initialize is never cancelled.
          if (method !== INITIALIZE && !this.closedError)
            this.transport.cancel(id, reason.message).catch(() => {});
        };
        if (signal !== undefined)
          request.stopWaiting = whenAborted(signal, () => cancel(abortReason(signal)));
        if (options.timeoutMs !== undefined)
          request.timer = setTimeout(
            () => cancel(new RequestTimeoutError(method, options.timeoutMs as number)),
            options.timeoutMs,
          );
      }
      this.transport.send(text, info).catch((error: Error) => {
        if (
          error instanceof SessionExpiredError &&
          method !== INITIALIZE &&
          !this.stateless &&
          this.incoming.pending.has(id)
        ) {
          // The server forgot us: a new session, then the same request again (with a new id).
          request.finish();
          this.renewSession().then(
            () => this.roundTrip(method, params, options).then(resolve, reject),
            reject,
          );
          return;
        }
        this.incoming.pending.get(id)?.reject(error);
      });
    });
  }

  /** One renewal at a time, however many requests found the session gone. */
  private renewSession(): Promise<void> {
    this.renewing ??= (async () => {
      await this.renew();
    })().finally(() => {
      this.renewing = undefined;
    });
    return this.renewing;
  }

  /** Ends the connection's requests with `error`; the first close wins. */
  closed(error?: Error): void {
    if (this.closedError) return;
    this.closedError = error ?? new ConnectionClosedError();
    this.incoming.closeAll(this.closedError);
  }
}

/**
 * One request of ours awaiting its answer: settling it forgets it, with its timer and abort
 * listener. A record, not closures, since every call makes one.
 */
class InFlight implements Pending {
  timer: ReturnType<typeof setTimeout> | undefined;
  stopWaiting: (() => void) | undefined;
  private readonly incoming: IncomingMessages;
  private readonly id: number;
  private readonly settle: (result: JsonObject) => void;
  private readonly fail: (error: Error) => void;

  constructor(
    incoming: IncomingMessages,
    id: number,
    settle: (result: JsonObject) => void,
    fail: (error: Error) => void,
  ) {
    this.incoming = incoming;
    this.id = id;
    this.settle = settle;
    this.fail = fail;
  }

  resolve(result: JsonObject): void {
    this.finish();
    this.settle(result);
  }

  reject(error: Error): void {
    this.finish();
    this.fail(error);
  }

  finish(): void {
    this.incoming.forget(this.id);
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.stopWaiting?.();
  }
}

function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error
    ? reason
    : new Error(reason === undefined ? 'The request was aborted' : String(reason));
}
