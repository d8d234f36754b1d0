/**
 * Everything the server sends a client session, routed: an answer settles the request of ours it
 * names; progress goes to the request that asked for it; a subscription's notifications go to its
 * `subscriptions/listen` request; `notifications/cancelled` ends one of our subscriptions or one of
 * the server's requests we are serving; every other notification reaches the observers and then
 * `onNotification`; the server's requests are answered from the app's handlers
 * (serve-requests.ts). session.ts sends; this module holds the bookkeeping both sides share.
 *
 * Messages are routed by kind, never by id alone: an object with `method` is the server's request
 * or notification; one with `result`/`error` and no `method` answers one of ours. The server
 * numbers its requests independently, so its ids often equal ours.
 */
import type { JsonObject } from '../api.js';
import { McpError } from '../protocol/errors.js';
import { INTERNAL_ERROR, isObject, isRequestId, type RequestId } from '../protocol/jsonrpc.js';
import { answerServerRequest, type ClientHandlers } from './input-handlers.js';
import { META_SUBSCRIPTION_ID } from './negotiation.js';
import { progressUpdate, serveServerRequest } from './serve-requests.js';
import type { RequestOptions } from './session-options.js';
import type { ClientTracing } from './tracing.js';
import { CANCELLED, PROGRESS } from '../protocol/methods.js';

export type NotificationListener = (method: string, params: JsonObject) => void;

/** One request of ours awaiting its answer. */
export interface Pending {
  resolve(result: JsonObject): void;
  reject(error: Error): void;
}

export class IncomingMessages {
  readonly pending = new Map<RequestId, Pending>();
  readonly progress = new Map<RequestId, NonNullable<RequestOptions['onProgress']>>();
  /** Open `subscriptions/listen` requests, for the notifications that name them. */
  readonly subscriptions = new Map<RequestId, NotificationListener>();
  /** Watchers of every server notification but progress and cancellation (listen, list cache). */
  readonly observers = new Set<NotificationListener>();
  /** Server requests being handled, for `notifications/cancelled`. */
  private readonly serving = new Map<RequestId, AbortController>();

  /**
   * `handlers` gives the app's handlers at the time of each request; `send` writes a response to
   * one of the server's requests and returns undefined once the connection is gone.
   */
  private readonly handlers: () => ClientHandlers;
  private readonly onNotification: NotificationListener;
  private readonly send: (text: string) => Promise<void> | undefined;
  /** With tracing on, each request of the server's is served in a span (tracing.ts). */
  private readonly tracing: ClientTracing | undefined;

  constructor(
    handlers: () => ClientHandlers,
    onNotification: NotificationListener,
    send: (text: string) => Promise<void> | undefined,
    tracing?: ClientTracing,
  ) {
    this.handlers = handlers;
    this.onNotification = onNotification;
    this.send = send;
    this.tracing = tracing;
  }

  /** Routes one incoming message (or each entry of a batch) by kind. */
  receive(message: unknown): void {
    if (Array.isArray(message)) {
      for (const entry of message) this.receive(entry);
      return;
    }
    if (!isObject(message)) return;
    const method = message['method'];
    if (typeof method === 'string') {
      const params = isObject(message['params']) ? message['params'] : {};
      if (isRequestId(message['id'])) this.serve(message['id'], method, params);
      else this.notified(method, params);
      return;
    }
    const id = message['id'];
    if (!isRequestId(id)) return;
    const pending = this.pending.get(id);
    if (!pending) return;
    const error = message['error'];
    if (isObject(error)) {
      const code = typeof error['code'] === 'number' ? error['code'] : INTERNAL_ERROR;
      pending.reject(
        new McpError(
          code,
          typeof error['message'] === 'string' ? error['message'] : 'Unknown error',
          error['data'],
        ),
      );
    } else if (isObject(message['result'])) {
      pending.resolve(message['result']);
    } else {
      pending.reject(
        new McpError(INTERNAL_ERROR, 'The server answered with a result that is not an object'),
      );
    }
  }

  /** Drops one request of ours, answered or given up, with its listeners. */
  forget(id: RequestId): void {
    this.pending.delete(id);
    // Most calls have neither: the empty maps are not searched.
    if (this.progress.size > 0) this.progress.delete(id);
    if (this.subscriptions.size > 0) this.subscriptions.delete(id);
  }

  /** The connection ended: every request of ours fails with `error`, every one we serve aborts. */
  closeAll(error: Error): void {
    for (const pending of [...this.pending.values()]) pending.reject(error);
    for (const controller of this.serving.values()) controller.abort(error);
    this.serving.clear();
  }

  private notified(method: string, params: JsonObject): void {
    if (method === PROGRESS) {
      const token = params['progressToken'];
      const listener = isRequestId(token) ? this.progress.get(token) : undefined;
      const update = progressUpdate(params);
      if (listener && update) listener(update);
      return;
    }
    if (method === CANCELLED) {
      const id = params['requestId'];
      if (!isRequestId(id)) return;
      // At 2026-07-28 the server sends it only to tear down one of our subscriptions.
      if (this.subscriptions.has(id)) {
        const reason = typeof params['reason'] === 'string' ? `: ${params['reason']}` : '';
        this.pending
          .get(id)
          ?.reject(new McpError(INTERNAL_ERROR, `The server ended the subscription${reason}`));
      } else {
        this.serving.get(id)?.abort(new Error('cancelled by the server'));
      }
      return;
    }
    const meta = params['_meta'];
    const subscription = isObject(meta) ? meta[META_SUBSCRIPTION_ID] : undefined;
    const subscriber = isRequestId(subscription) ? this.subscriptions.get(subscription) : undefined;
    for (const observer of [...this.observers]) observer(method, params);
    if (subscriber !== undefined) subscriber(method, params);
    else this.onNotification(method, params);
  }

  /** What the app says to one of the server's requests (input-handlers.ts); McpError when it cannot. */
  private serve(id: RequestId, method: string, params: JsonObject): void {
    serveServerRequest(id, method, {
      serving: this.serving,
      answer: (signal) =>
        this.tracing === undefined
          ? answerServerRequest(this.handlers(), method, params, signal)
          : this.tracing.serve(method, params, () =>
              answerServerRequest(this.handlers(), method, params, signal),
            ),
      send: this.send,
    });
  }
}
