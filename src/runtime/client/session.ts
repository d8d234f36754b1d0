/**
 * One connection's client side, as the app sees it: connecting (the handshake, handshake.ts),
 * requests (2026-07-28 input-required rounds answered from the handlers, input-rounds.ts),
 * notifications both ways, subscriptions, and what tasks need of it. The transport and the
 * bookkeeping of requests in flight are connection.ts; routing what the server sends, incoming.ts.
 */
import type { JsonObject } from '../api.js';
import { isObject, jsonOrUndefined, notificationMessage } from '../protocol/jsonrpc.js';
import { Connection } from './connection.js';
import { ConnectionClosedError } from './errors.js';
import { discover, initialize, reinitialize } from './handshake.js';
import { declaredCapabilities, type ClientHandlers } from './input-handlers.js';
import { answerInputRequests, requestWithInputRounds } from './input-rounds.js';
import {
  CLIENT_PROTOCOL_VERSIONS,
  STATELESS_REVISION,
  withStatelessMeta,
  type ServerIdentity,
} from './negotiation.js';
import type { RequestOptions, SessionOptions } from './session-options.js';
import { openSubscription, type Subscription } from './subscriptions.js';
import type { ClientTransport } from './transport.js';
import { ROOTS_LIST_CHANGED, SUBSCRIPTIONS_LISTEN } from '../protocol/methods.js';

export {
  CLIENT_PROTOCOL_VERSIONS,
  STATELESS_REVISION,
  UNSUPPORTED_PROTOCOL_VERSION,
  type ServerIdentity,
} from './negotiation.js';
export type { RequestOptions, SessionOptions } from './session-options.js';
export type { Awaitable, ClientHandlers } from './input-handlers.js';

export class ClientSession {
  /** The transport, the negotiated identity and our requests in flight. */
  private readonly connection: Connection;
  private readonly options: SessionOptions;
  private nextProgress = 0;
  readonly capabilities: JsonObject;

  constructor(transport: ClientTransport, options: SessionOptions = {}) {
    this.options = options;
    this.connection = new Connection(transport, options, () =>
      reinitialize(
        this.connection,
        this.capabilities,
        this.options.clientInfo,
        this.options.connectTimeoutMs,
      ),
    );
    this.capabilities = declaredCapabilities(options.handlers ?? {});
    if (options.extensions !== undefined)
      this.capabilities['extensions'] = { ...options.extensions };
  }

  get server(): ServerIdentity {
    if (!this.connection.identity) throw new Error('Not connected yet');
    return this.connection.identity;
  }

  get stateless(): boolean {
    return this.connection.stateless;
  }

  /** Starts the transport and negotiates the newest revision both sides speak. */
  async connect(): Promise<ServerIdentity> {
    const versions = this.options.protocolVersions ?? CLIENT_PROTOCOL_VERSIONS;
    const unknown = versions.filter((v) => !CLIENT_PROTOCOL_VERSIONS.includes(v));
    if (versions.length === 0 || unknown.length > 0)
      throw new Error(
        `protocolVersions: ${versions.length === 0 ? 'name at least one revision' : `this client does not speak ${unknown.join(', ')}`} (it speaks ${CLIENT_PROTOCOL_VERSIONS.join(', ')})`,
      );
    await this.connection.start();
    if (
      versions.includes(STATELESS_REVISION) &&
      (await discover(
        this.connection,
        this.capabilities,
        this.options.clientInfo,
        this.options.connectTimeoutMs,
      ))
    )
      return this.server;
    const stateful = versions.filter((v) => v !== STATELESS_REVISION);
    if (stateful.length === 0) throw new Error(`The server does not speak ${STATELESS_REVISION}`);
    await initialize(
      this.connection,
      stateful,
      this.capabilities,
      this.options.clientInfo,
      this.options.connectTimeoutMs,
    );
    return this.server;
  }

  /**
   * Sends a request and resolves with its result. On 2026-07-28 every request carries `_meta`,
   * and an input-required result is answered from the handlers and the request retried.
   */
  request(
    method: string,
    params: JsonObject = {},
    options: RequestOptions = {},
  ): Promise<JsonObject> {
    // Not async: the connection's promise is handed back as it is, not wrapped in another; a
    // throw still comes back as a rejection.
    try {
      if (!this.stateless) return this.connection.exchange(method, params, options);
      return requestWithInputRounds(
        method,
        withStatelessMeta(params, this.capabilities, this.options.clientInfo),
        (current) => this.connection.exchange(method, current, options),
        (requests) => this.answerInputs(requests, options.signal),
      );
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * `subscriptions/listen` (2026-07-28): the server's notifications on one subscription, as an
   * async iterable that ends when `signal` aborts or the loop is left (subscriptions.ts).
   */
  listen(notifications: JsonObject, options: { signal?: AbortSignal } = {}): Subscription {
    return openSubscription(
      (params, requestOptions) =>
        this.stateless
          ? this.request(SUBSCRIPTIONS_LISTEN, params, requestOptions)
          : Promise.reject(
              new Error(
                `subscriptions/listen needs protocol revision ${STATELESS_REVISION}; this session speaks ${this.connection.identity?.protocolVersion ?? 'none yet'} (use resources/subscribe and onNotification)`,
              ),
            ),
      notifications,
      options,
    );
  }

  /** Calls `listener` with every server notification but progress and cancellation; returns the undo. */
  observe(listener: (method: string, params: JsonObject) => void): () => void {
    this.connection.incoming.observers.add(listener);
    return () => this.connection.incoming.observers.delete(listener);
  }

  /** Sends a notification (nothing in the stateless revision, which has none from clients). */
  async notify(method: string, params: JsonObject = {}): Promise<void> {
    if (this.stateless) return;
    const text = jsonOrUndefined(params);
    if (text === undefined) throw new TypeError(`${method}: params cannot be serialized as JSON`);
    await this.connection.transport.send(notificationMessage(method, text), { method });
  }

  async close(): Promise<void> {
    this.connection.closed(new ConnectionClosedError());
    await this.connection.transport.close();
  }

  /** @internal Answers input requests (by key) from the handlers; also used for a task's (tasks.ts). */
  answerInputs(requests: JsonObject, signal: AbortSignal | undefined): Promise<JsonObject> {
    return answerInputRequests(this.options.handlers ?? {}, requests, signal, this.options.tracing);
  }

  /** @internal The app's handlers, for a 2025-11-25 URL-elicitation-required error (input-rounds.ts). */
  get handlers(): ClientHandlers {
    return this.options.handlers ?? {};
  }

  /**
   * @internal Routes `notifications/progress` naming the returned token to `listener` until `stop()`:
   * a task's progress outlives the request that started it (tasks.ts). String tokens never meet
   * the numeric ids of requests, which are the tokens of a plain call's progress.
   */
  watchProgress(listener: NonNullable<RequestOptions['onProgress']>): {
    token: string;
    stop: () => void;
  } {
    const token = `progress-${this.nextProgress++}`;
    this.connection.incoming.progress.set(token, listener);
    return { token, stop: () => void this.connection.incoming.progress.delete(token) };
  }

  /**
   * `notifications/roots/list_changed`, for a client whose roots handler declared `listChanged`
   * (stateful revisions; 2026-07-28 has no such notification). False when nothing was sent.
   */
  async rootsChanged(): Promise<boolean> {
    const roots = this.capabilities['roots'];
    if (this.stateless || !isObject(roots) || roots['listChanged'] !== true) return false;
    await this.notify(ROOTS_LIST_CHANGED);
    return true;
  }
}
