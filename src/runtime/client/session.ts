/**
 * One connection's client side: version negotiation (`server/discover` for the stateless
 * 2026-07-28 revision, `initialize` for the stateful ones), request/response bookkeeping,
 * cancellation, progress, and answers to what the server asks of the client (elicitation,
 * sampling, roots), both as real requests and as 2026-07-28 input-required results.
 *
 * Negotiation facts and the 2026-07-28 `_meta` are in negotiation.ts, the input-required rounds
 * in input-rounds.ts, answering the server's requests in serve-requests.ts, and routing what the
 * server sends (answers, notifications, its requests) in incoming.ts.
 */
import type { JsonObject } from '../api.js';
import { McpError } from '../protocol/errors.js';
import { isObject, jsonOrUndefined, notificationMessage } from '../protocol/jsonrpc.js';
import { whenAborted } from './cancellation.js';
import { declaredCapabilities, type ClientHandlers } from './input-handlers.js';
import { answerInputRequests, requestWithInputRounds } from './input-rounds.js';
import { ConnectionClosedError, RequestTimeoutError, SessionExpiredError } from './errors.js';
import {
  CLIENT_PROTOCOL_VERSIONS,
  identity,
  STATELESS_REVISION,
  UNSUPPORTED_PROTOCOL_VERSION,
  withStatelessMeta,
  type ServerIdentity,
} from './negotiation.js';
import { IncomingMessages } from './incoming.js';
import { isSignInFailure } from './http-auth.js';
import { openSubscription, type Subscription } from './subscriptions.js';
import { mcpNameOf, type ClientTransport, type OutgoingInfo } from './transport.js';

export {
  CLIENT_PROTOCOL_VERSIONS,
  STATELESS_REVISION,
  UNSUPPORTED_PROTOCOL_VERSION,
  type ServerIdentity,
} from './negotiation.js';

export type { Awaitable, ClientHandlers } from './input-handlers.js';

export interface SessionOptions {
  clientInfo?: { name: string; version: string };
  handlers?: ClientHandlers;
  /** Revisions to offer, newest first (default: all this client speaks). */
  protocolVersions?: readonly string[];
  /** Server notifications other than progress (logging, list changes, …). */
  onNotification?: (method: string, params: JsonObject) => void;
  /** `capabilities.extensions`: the extensions this client supports, by identifier, with their settings. */
  extensions?: Readonly<Record<string, JsonObject>>;
}

export interface RequestOptions {
  signal?: AbortSignal | undefined;
  timeoutMs?: number | undefined;
  onProgress?:
    ((progress: { progress: number; total?: number; message?: string }) => void) | undefined;
  /** Extra HTTP headers for this request (`Mcp-Param-*`). */
  headers?: Readonly<Record<string, string>> | undefined;
  /**
   * For `subscriptions/listen`: the notifications of the subscription this request opens (those
   * whose `_meta` names its id), instead of `onNotification`.
   */
  onSubscriptionNotification?: ((method: string, params: JsonObject) => void) | undefined;
}

export class ClientSession {
  private transport: ClientTransport;
  private readonly options: SessionOptions;
  /** Our requests awaiting answers, their listeners, and the server's requests we serve. */
  private readonly incoming: IncomingMessages;
  private nextId = 0;
  private nextProgress = 0;
  private closedError: Error | undefined;
  private identity: ServerIdentity | undefined;
  readonly capabilities: JsonObject;

  constructor(transport: ClientTransport, options: SessionOptions = {}) {
    this.transport = transport;
    this.options = options;
    this.incoming = new IncomingMessages(
      () => this.options.handlers ?? {},
      (method, params) => this.options.onNotification?.(method, params),
      (text) => (this.closedError ? undefined : this.transport.send(text, { method: '' })),
    );
    this.capabilities = declaredCapabilities(options.handlers ?? {});
    if (options.extensions !== undefined)
      this.capabilities['extensions'] = { ...options.extensions };
  }

  get server(): ServerIdentity {
    if (!this.identity) throw new Error('Not connected yet');
    return this.identity;
  }

  get stateless(): boolean {
    return this.identity?.protocolVersion === STATELESS_REVISION;
  }

  /** Starts the transport and negotiates the newest revision both sides speak. */
  async connect(): Promise<ServerIdentity> {
    await this.transport.start(
      (message) => this.incoming.receive(message),
      (error) => this.closed(error),
    );
    const versions = this.options.protocolVersions ?? CLIENT_PROTOCOL_VERSIONS;
    if (versions.includes(STATELESS_REVISION) && (await this.discover())) return this.server;
    const stateful = versions.filter((v) => v !== STATELESS_REVISION);
    if (stateful.length === 0) throw new Error(`The server does not speak ${STATELESS_REVISION}`);
    await this.initialize(stateful);
    return this.server;
  }

  /** `server/discover` at 2026-07-28; false when the server does not speak it. */
  private async discover(): Promise<boolean> {
    this.transport.setProtocolVersion(STATELESS_REVISION);
    let result: JsonObject | undefined;
    // A server may refuse the first request with -32022 naming the versions it speaks: that is
    // negotiation, and the same request is sent again once.
    for (let attempt = 0; result === undefined; attempt++) {
      try {
        result = await this.exchange(
          'server/discover',
          withStatelessMeta({}, this.capabilities, this.options.clientInfo),
          { timeoutMs: 10_000 },
        );
      } catch (error) {
        if (this.closedError || isSignInFailure(error)) throw error;
        // A sign-in (a person in a browser) may outlast the timeout: wait for it, then ask again.
        const signIn =
          error instanceof RequestTimeoutError ? this.transport.signingIn?.() : undefined;
        if (signIn !== undefined) {
          await signIn.catch(() => undefined);
          attempt--;
          continue;
        }
        const supported =
          error instanceof McpError && error.code === UNSUPPORTED_PROTOCOL_VERSION
            ? (error.data as { supported?: unknown } | undefined)?.supported
            : undefined;
        if (attempt > 0 || !Array.isArray(supported) || !supported.includes(STATELESS_REVISION))
          return false;
      }
    }
    const supported = result['supportedVersions'];
    if (!Array.isArray(supported) || !supported.includes(STATELESS_REVISION)) return false;
    this.identity = identity(STATELESS_REVISION, result);
    return true;
  }

  private async initialize(versions: readonly string[]): Promise<void> {
    const params: JsonObject = {
      protocolVersion: versions[0],
      capabilities: this.capabilities,
      clientInfo: this.options.clientInfo ?? { name: 'mcp-gen-client', version: '0.1.0' },
    };
    let result: JsonObject;
    try {
      result = await this.exchange('initialize', params, {});
    } catch (error) {
      const fallback =
        (error as { status?: unknown }).status !== undefined
          ? this.transport.fallback?.()
          : undefined;
      if (!fallback) throw error;
      // Legacy HTTP+SSE: the same handshake over the old transport.
      this.transport = fallback;
      await this.transport.start(
        (message) => this.incoming.receive(message),
        (closeError) => this.closed(closeError),
      );
      result = await this.exchange('initialize', params, {});
    }
    const version = result['protocolVersion'];
    if (typeof version !== 'string' || !versions.includes(version)) {
      throw new Error(
        `The server chose protocol version ${JSON.stringify(version)}, which this client does not speak (${versions.join(', ')})`,
      );
    }
    this.identity = identity(version, result);
    this.transport.setProtocolVersion(version);
    await this.transport.send(notificationMessage('notifications/initialized', '{}'), {
      method: 'notifications/initialized',
    });
    await this.transport.initialized?.();
  }

  /**
   * Sends a request and resolves with its result. On 2026-07-28 every request carries `_meta`,
   * and an input-required result is answered from the handlers and the request retried.
   */
  async request(
    method: string,
    params: JsonObject = {},
    options: RequestOptions = {},
  ): Promise<JsonObject> {
    if (!this.stateless) return this.exchange(method, params, options);
    return requestWithInputRounds(
      method,
      withStatelessMeta(params, this.capabilities, this.options.clientInfo),
      (current) => this.exchange(method, current, options),
      (requests) => this.answerInputs(requests, options.signal),
    );
  }

  /**
   * `subscriptions/listen` (2026-07-28): the server's notifications on one subscription, as an
   * async iterable that ends when `signal` aborts or the loop is left (subscriptions.ts).
   */
  listen(notifications: JsonObject, options: { signal?: AbortSignal } = {}): Subscription {
    return openSubscription(
      (params, requestOptions) =>
        this.stateless
          ? this.request('subscriptions/listen', params, requestOptions)
          : Promise.reject(
              new Error(
                `subscriptions/listen needs protocol revision ${STATELESS_REVISION}; this session speaks ${this.identity?.protocolVersion ?? 'none yet'} (use resources/subscribe and onNotification)`,
              ),
            ),
      notifications,
      options,
    );
  }

  /** Calls `listener` with every server notification but progress and cancellation; returns the undo. */
  observe(listener: (method: string, params: JsonObject) => void): () => void {
    this.incoming.observers.add(listener);
    return () => this.incoming.observers.delete(listener);
  }

  /** Sends a notification (nothing in the stateless revision, which has none from clients). */
  async notify(method: string, params: JsonObject = {}): Promise<void> {
    if (this.stateless) return;
    const text = jsonOrUndefined(params);
    if (text === undefined) throw new TypeError(`${method}: params cannot be serialized as JSON`);
    await this.transport.send(notificationMessage(method, text), { method });
  }

  async close(): Promise<void> {
    this.closed(new ConnectionClosedError());
    await this.transport.close();
  }

  /** @internal Answers input requests (by key) from the handlers; also used for a task's (tasks.ts). */
  answerInputs(requests: JsonObject, signal: AbortSignal | undefined): Promise<JsonObject> {
    return answerInputRequests(this.options.handlers ?? {}, requests, signal);
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
    this.incoming.progress.set(token, listener);
    return { token, stop: () => void this.incoming.progress.delete(token) };
  }

  /**
   * `notifications/roots/list_changed`, for a client whose roots handler declared `listChanged`
   * (stateful revisions; 2026-07-28 has no such notification). False when nothing was sent.
   */
  async rootsChanged(): Promise<boolean> {
    const roots = this.capabilities['roots'];
    if (this.stateless || !isObject(roots) || roots['listChanged'] !== true) return false;
    await this.notify('notifications/roots/list_changed');
    return true;
  }

  /** One JSON-RPC round trip, with cancellation, timeout and progress. */
  private exchange(
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

    return new Promise<JsonObject>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      let stopWaiting: (() => void) | undefined;
      const finish = (): void => {
        this.incoming.forget(id);
        if (timer !== undefined) clearTimeout(timer);
        stopWaiting?.();
      };
      const cancel = (reason: Error): void => {
        if (!this.incoming.pending.has(id)) return;
        finish();
        reject(reason);
        // The transport tells the server its own way (cancellation.ts); initialize is never cancelled.
        if (method !== 'initialize' && !this.closedError)
          this.transport.cancel(id, reason.message).catch(() => {});
      };
      this.incoming.pending.set(id, {
        resolve: (result) => {
          finish();
          resolve(result);
        },
        reject: (error) => {
          finish();
          reject(error);
        },
      });
      if (signal !== undefined)
        stopWaiting = whenAborted(signal, () => cancel(abortReason(signal)));
      if (options.timeoutMs !== undefined)
        timer = setTimeout(
          () => cancel(new RequestTimeoutError(method, options.timeoutMs as number)),
          options.timeoutMs,
        );
      this.transport.send(text, info).catch((error: Error) => {
        if (
          error instanceof SessionExpiredError &&
          method !== 'initialize' &&
          !this.stateless &&
          this.incoming.pending.has(id)
        ) {
          // The server forgot us: a new session, then the same request again (with a new id).
          finish();
          this.renewSession().then(
            () => this.exchange(method, params, options).then(resolve, reject),
            reject,
          );
          return;
        }
        this.incoming.pending.get(id)?.reject(error);
      });
    });
  }

  private renewing: Promise<void> | undefined;

  private renewSession(): Promise<void> {
    this.renewing ??= (async () => {
      this.transport.resetSession?.();
      const current = this.identity?.protocolVersion;
      await this.initialize(current === undefined ? CLIENT_PROTOCOL_VERSIONS.slice(1) : [current]);
    })().finally(() => {
      this.renewing = undefined;
    });
    return this.renewing;
  }

  private closed(error?: Error): void {
    if (this.closedError) return;
    this.closedError = error ?? new ConnectionClosedError();
    this.incoming.closeAll(this.closedError);
  }
}

function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error
    ? reason
    : new Error(reason === undefined ? 'The request was aborted' : String(reason));
}
