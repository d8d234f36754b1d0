/**
 * One client connection's protocol state: message classification (request, notification,
 * response, batch), then each request through the dispatcher (dispatch.ts), and the bookkeeping of
 * requests in flight. The stateless revision is the same dispatcher with a one-request session
 * (`Session.stateless`). Transports hand parsed messages to `receive` with an `Outbound` that
 * carries the answers back.
 */
import type { JsonObject, LoggingLevel } from '../api.js';
import { notification } from './cancellation.js';
import { dispatchRequest } from './dispatch.js';
import { answersThrough, type TableWaiters } from './table-waiters.js';
import type { PendingClientRequest } from '../features/input/client-requests.js';
import type { Context } from './context.js';
import { NO_ANSWERS } from './features.js';
import {
  NULL_ID,
  idJson,
  idProblem,
  isRequestId,
  quoteValue,
  type RequestId,
} from '../protocol/jsonrpc.js';
import { STATE_CLOSED, STATE_INITIALIZED, STATE_NEW } from './lifecycle.js';
import { LOG_LEVELS } from '../protocol/log-levels.js';
import { EMPTY_PARAMS, NO_ENTRIES, RESOLVED } from './method-common.js';
import {
  BatchOutbound,
  NO_RESPONSE,
  RESPONSE_PENDING,
  invalid,
  type Delivery,
  type Outbound,
} from './outbound.js';
import { BATCH_REVISION, CANCELLED, STATELESS_REVISION } from '../protocol/methods.js';
import type { ChangeEvent, ServerCore } from './server.js';
import type { StatelessMeta } from './stateless.js';

/** What a Streamable HTTP session keeps across processes (see SessionStore in session-store.ts). */
export interface SessionSnapshot {
  protocolVersion: string;
  clientCapabilities: JsonObject;
  logThreshold: number;
  subscriptions: string[];
  /** Who the session is bound to: `AuthInfo.owner` (or `subject`) of the token that opened it (manifest `auth`). */
  owner?: string;
}

export class Session {
  readonly core: ServerCore;
  /** The `Mcp-Session-Id` on HTTP; undefined on stdio. */
  readonly id: string | undefined;
  protocolVersion = '';
  // Fields marked @internal are read and written by the method modules (tools.ts, logging.ts, …).
  /** @internal */
  state = STATE_NEW;
  clientCapabilities: JsonObject = EMPTY_PARAMS;
  /** @internal Stateless: the request an input state belongs to (`tools/call:<name>`). */
  inputTarget = '';
  /** @internal */
  logThreshold = 0;
  /** @internal HTTP with manifest `auth`: who this session belongs to (`ownerOf`, http-auth.ts). */
  owner: string | undefined = undefined;
  // The collections below are made on first use: a stateless session lives for one request and
  // most never need them (each empty Map or Set is young-generation churn on every request).
  private requests: Map<RequestId, Context> | undefined = undefined;
  /** @internal */
  pendingClient: Map<number, PendingClientRequest> | undefined = undefined;
  /** @internal */
  lastOutgoingId = 0;
  /** Handlers that returned a promise, counted: the stdio reader watches it (see stdio.ts). */
  asyncStarted = 0;
  private idleWaiters: (() => void)[] | undefined = undefined;
  /** @internal Requests not yet in flight, waiting for a validator table to load (dispatch.ts). */
  tableWaiters: TableWaiters | undefined = undefined;
  /** @internal True for the one-request sessions of the stateless revision. */
  stateless = false;
  /** @internal Stateless: the answers to earlier input requests (requestState plus inputResponses). */
  answers: Record<string, JsonObject> = NO_ANSWERS;
  /** @internal */
  inputRound = 0;
  /** @internal Stateless: the input requests the running handler is waiting for, gathered for one result. */
  pendingInputs: Record<string, JsonObject> | undefined = undefined;
  /** @internal Stateful: resource URIs the client subscribed to. */
  subscriptions: Set<string> | undefined = undefined;
  /** Stateful: where notifications that belong to no request go (stdio output, the HTTP GET stream). */
  standalone: Outbound | undefined = undefined;
  private changeListener: ((event: ChangeEvent) => void) | undefined = undefined;

  constructor(core: ServerCore, id: string | undefined) {
    this.core = core;
    this.id = id;
  }

  /** A session for one 2026-07-28 request, already checked by `checkStateless`. */
  static stateless(core: ServerCore, meta: StatelessMeta): Session {
    const session = new Session(core, undefined);
    session.stateless = true;
    session.protocolVersion = STATELESS_REVISION;
    session.state = STATE_INITIALIZED;
    session.clientCapabilities = meta.clientCapabilities;
    // Without a logLevel in _meta, a stateless request gets no log messages at all.
    const level =
      meta.logLevel === undefined ? -1 : LOG_LEVELS.indexOf(meta.logLevel as LoggingLevel);
    session.logThreshold = level === -1 ? LOG_LEVELS.length : level;
    return session;
  }

  /** What a Streamable HTTP session keeps across processes (see SessionStore). */
  snapshot(): SessionSnapshot {
    return {
      protocolVersion: this.protocolVersion,
      clientCapabilities: this.clientCapabilities,
      logThreshold: this.logThreshold,
      subscriptions: this.subscriptions === undefined ? [] : [...this.subscriptions],
      ...(this.owner === undefined ? {} : { owner: this.owner }),
    };
  }

  /** A session another process began, rebuilt from its snapshot. */
  static restore(core: ServerCore, id: string, snapshot: SessionSnapshot): Session {
    const session = new Session(core, id);
    session.protocolVersion = snapshot.protocolVersion;
    session.clientCapabilities = snapshot.clientCapabilities;
    session.logThreshold = snapshot.logThreshold;
    session.owner = snapshot.owner;
    if (snapshot.subscriptions.length > 0) session.subscriptions = new Set(snapshot.subscriptions);
    for (const uri of snapshot.subscriptions) core.resourceLists.watch(uri);
    session.state = STATE_INITIALIZED;
    core.listeners.add(session.onChange);
    return session;
  }

  /** @internal This session's change listener, registered once it is initialized. */
  get onChange(): (event: ChangeEvent) => void {
    return (this.changeListener ??= (event) => this.core.features.changed(this, event));
  }

  /** @internal Requests whose handler returned a promise, by the client's id. */
  get inFlight(): ReadonlyMap<RequestId, Context> {
    return this.requests ?? NO_ENTRIES;
  }

  get initialized(): boolean {
    return this.state === STATE_INITIALIZED;
  }

  /** True while a handler is running or a server→client request awaits its answer. */
  get busy(): boolean {
    return (
      this.inFlight.size > 0 || (this.pendingClient !== undefined && this.pendingClient.size > 0)
    );
  }

  receive(message: unknown, out: Outbound): Delivery {
    if (typeof message !== 'object' || message === null) {
      return invalid(out, NULL_ID, 'a JSON-RPC message must be an object');
    }
    if (Array.isArray(message)) return this.receiveBatch(message, out);
    return this.receiveOne(message as JsonObject, out);
  }

  // A client message of this session another process received (message-bus.ts): the answer to a
  // server→client request this process sent, or `notifications/cancelled`; ignored unless held here.
  receiveForwarded(message: JsonObject): void {
    const id = message['id'];
    if (message['method'] === CANCELLED) notification(this, CANCELLED, message, true);
    else if (typeof id === 'number' && this.pendingClient?.has(id) === true)
      this.core.features.clientResponse(this, id, message);
  }

  /** Resolves once no handler is running. */
  whenIdle(): Promise<void> {
    if (this.inFlight.size === 0) return RESOLVED;
    return new Promise((resolve) => (this.idleWaiters ??= []).push(resolve));
  }

  /**
   * The client is gone or the session ended: pending server→client requests fail, later ones are
   * refused, its tasks are cancelled. With `abortHandlers`, running handlers are cancelled as well.
   */
  close(abortHandlers: boolean): void {
    this.state = STATE_CLOSED;
    if (this.changeListener !== undefined) this.core.listeners.delete(this.changeListener);
    // Its subscriptions end with it (the subscribe/unsubscribe hooks count subscribers).
    const subscriptions = this.subscriptions;
    this.subscriptions = undefined;
    for (const uri of subscriptions ?? []) this.core.resourceLists.unwatch(uri);
    const pendingClient = this.pendingClient;
    this.pendingClient = undefined;
    for (const pending of pendingClient?.values() ?? []) {
      pending.reject(new Error(`${pending.method}: the connection to the client closed`));
    }
    // Only this session could read its tasks (task-access.ts): they end with it, and free their runs.
    for (const run of this.core.taskRuns.values()) if (run.session === this) run.cancel();
    if (abortHandlers) {
      for (const context of this.inFlight.values()) context.cancel('The session ended');
    }
  }

  /** The HTTP request behind `out` went away: cancel what it was waiting for. */
  cancelOutbound(out: Outbound): void {
    for (const context of this.inFlight.values())
      if (answersThrough(context.out, out)) context.cancel('The client disconnected');
    // Not started yet: they never will be.
    this.tableWaiters?.clientGone(out);
  }

  private receiveBatch(items: unknown[], out: Outbound): Delivery {
    if (this.protocolVersion !== BATCH_REVISION) {
      const why =
        this.state === STATE_NEW
          ? 'before initialization'
          : `in protocol revision ${this.protocolVersion}`;
      return invalid(out, NULL_ID, `JSON-RPC batches are not supported ${why}`);
    }
    if (items.length === 0) return invalid(out, NULL_ID, 'an empty batch');
    const batch = new BatchOutbound(out);
    for (const item of items) {
      if (typeof item !== 'object' || item === null || Array.isArray(item)) {
        batch.expect();
        invalid(batch, NULL_ID, 'each batch entry must be a JSON-RPC message object');
      } else if (this.receiveOne(item as JsonObject, batch) !== NO_RESPONSE) {
        batch.expect();
      }
    }
    return batch.close();
  }

  private receiveOne(message: JsonObject, out: Outbound): Delivery {
    const method = message['method'];
    const id = message['id'];
    if (message['jsonrpc'] !== '2.0') {
      return invalid(out, isRequestId(id) ? idJson(id) : NULL_ID, 'jsonrpc must be "2.0"');
    }
    if (typeof method === 'string') {
      if (id === undefined) {
        const read = this.core.features.notifications.get(method);
        if (read !== undefined) read(this, message);
        else notification(this, method, message);
        return NO_RESPONSE;
      }
      if (!isRequestId(id)) return invalid(out, NULL_ID, idProblem(id));
      // With tracing on, the request's span starts here and ends with its answer (tracing.ts).
      const tracing = this.core.tracing;
      dispatchRequest(
        this,
        method,
        id,
        message,
        tracing === undefined ? out : tracing.request(this, method, id, message, out),
      );
      return RESPONSE_PENDING;
    }
    if (method === undefined && ('result' in message || 'error' in message)) {
      if (isRequestId(id)) {
        this.core.features.clientResponse(this, id, message);
        return NO_RESPONSE;
      }
      if (id === null && 'error' in message) {
        this.core.log(`The client reported an error: ${quoteValue(message['error'])}`);
        return NO_RESPONSE;
      }
    }
    return invalid(
      out,
      isRequestId(id) ? idJson(id) : NULL_ID,
      'not a request, notification or response',
    );
  }

  /** @internal Not a settled request (a refused input request): it would stay until its timeout. */
  track(context: Context): void {
    if (context.done) return;
    this.asyncStarted++;
    context.tracked = true;
    (this.requests ??= new Map()).set(context.id, context);
    this.core.deadlines?.add(context);
  }

  /** @internal Marks the request finished; false when it was cancelled and must not be answered. */
  settle(context: Context): boolean {
    if (context.done) return false;
    context.done = true;
    if (context.tracked) {
      this.core.deadlines?.delete(context);
      // The last one drops the map (a one-request session's): a delete would copy its table.
      if (this.requests?.get(context.id) === context) {
        if (this.requests.size === 1) this.requests = undefined;
        else this.requests.delete(context.id);
      }
      if (this.inFlight.size === 0 && this.idleWaiters !== undefined) {
        const waiters = this.idleWaiters;
        this.idleWaiters = undefined;
        for (const wake of waiters) wake();
      }
    }
    return !context.cancelled;
  }
}
