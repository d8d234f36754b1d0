/**
 * The `RequestContext` a handler gets: its cancellation signal, progress, log messages and requests
 * to the client. What it sends goes through the method modules (logging, client requests).
 */
import type {
  AuthInfo,
  ElicitParams,
  ElicitResult,
  InputOptions,
  JsonObject,
  ListControl,
  LoggingLevel,
  Notifier,
  RequestContext,
  SampleParams,
  SampleResult,
} from '../api.js';
import type { DeadlineEntry } from '../protocol/deadlines.js';
import { notificationMessage, type RequestId } from '../protocol/jsonrpc.js';
import type { Outbound } from './outbound.js';
import type { Session } from './session.js';
import type { TaskRun } from '../features/tasks/task-run.js';
import { expire } from './cancellation.js';
import { RESOLVED } from './method-common.js';
import {
  ELICITATION_CREATE,
  PROGRESS,
  ROOTS_LIST,
  SAMPLING_CREATE_MESSAGE,
} from '../protocol/methods.js';

/** The `RequestContext` handed to handlers. The AbortController is made only when a handler asks for the signal. */
export class Context implements RequestContext, DeadlineEntry {
  readonly id: RequestId;
  readonly idText: string;
  readonly meta: JsonObject | undefined;
  readonly out: Outbound;
  done = false;
  cancelled = false;
  tracked = false;
  /** Ids of server→client requests sent on behalf of this request; made on first use. */
  outgoing: number[] | undefined = undefined;
  /** Input requests made without a key, for their default keys. */
  inputCount = 0;
  /** Set for tools/call: a timeout is then answered as a tool error. */
  toolName: string | undefined = undefined;
  /** Set when the tool call runs as a task (task-run.ts): its input requests go through the task. */
  task: TaskRun | undefined = undefined;
  /** With tracing on: the OpenTelemetry context its handler's span runs in (server/tracing.ts). */
  trace: object | undefined = undefined;
  /** The handler timeout's queue (`Deadlines`), while an async handler runs. */
  deadlineAt = 0;
  deadlinePrevious: DeadlineEntry | undefined = undefined;
  deadlineNext: DeadlineEntry | undefined = undefined;
  private readonly session: Session;
  private controller: AbortController | undefined = undefined;
  private cancelReason = '';

  constructor(
    session: Session,
    id: RequestId,
    idText: string,
    meta: JsonObject | undefined,
    out: Outbound,
  ) {
    this.session = session;
    this.id = id;
    this.idText = idText;
    this.meta = meta;
    this.out = out;
  }

  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.cancelled) this.controller.abort(new Error(this.cancelReason));
    }
    return this.controller.signal;
  }

  get protocolVersion(): string {
    return this.session.protocolVersion;
  }

  get sessionId(): string | undefined {
    return this.session.id;
  }

  get auth(): AuthInfo | undefined {
    return this.out.auth;
  }

  get clientCapabilities(): JsonObject {
    return this.session.clientCapabilities;
  }

  get notify(): Notifier {
    return this.session.core.notifier;
  }

  get lists(): { readonly tools: ListControl; readonly prompts: ListControl } {
    return this.session.core.lists;
  }

  /** @internal Called by the server's `deadlines` when the handler timeout passes. */
  timedOut(): void {
    expire(this.session, this);
  }

  closeStream(retryMs = 1000): void {
    if (!this.done && !this.cancelled) this.out.closeStream?.(retryMs);
  }

  /** The handler sees its signal abort; no response will be sent unless `answered` (a timeout answers itself). */
  cancel(reason: string, answered = false): void {
    if (this.cancelled || this.done) return;
    this.cancelled = true;
    this.cancelReason = reason;
    this.session.core.features.cancelOutgoing(this.session, this, reason);
    if (!answered) this.out.abandon();
    this.controller?.abort(new Error(reason));
  }

  progress(progress: number, total?: number, message?: string): Promise<void> {
    return sendProgress(this, progress, total, message);
  }

  setStatusMessage(message: string | undefined): Promise<void> {
    if (message !== undefined && typeof message !== 'string')
      return Promise.reject(new TypeError('A task status message must be a string or undefined'));
    return this.task?.setStatusMessage(message) ?? Promise.resolve();
  }

  log(level: LoggingLevel, data: unknown, logger?: string): Promise<void> {
    return this.session.core.features.sendLog(this.session, this, level, data, logger);
  }

  elicit(params: ElicitParams, options?: InputOptions): Promise<ElicitResult> {
    const features = this.session.core.features;
    return features.requestClient(
      this.session,
      this,
      ELICITATION_CREATE,
      'elicitation',
      features.elicitationParams(this.session, params),
      options,
    ) as Promise<ElicitResult>;
  }

  sample(params: SampleParams, options?: InputOptions): Promise<SampleResult> {
    return this.session.core.features.requestClient(
      this.session,
      this,
      SAMPLING_CREATE_MESSAGE,
      'sampling',
      params,
      options,
    ) as Promise<SampleResult>;
  }

  completeElicitation(elicitationId: string): boolean {
    return this.session.core.features.completeElicitation(this.session, this, elicitationId);
  }

  listRoots(options?: InputOptions): Promise<{ roots: { uri: string; name?: string }[] }> {
    const features = this.session.core.features;
    return features.requestClient(
      this.session,
      this,
      ROOTS_LIST,
      'roots',
      undefined,
      options,
    ) as Promise<{
      roots: { uri: string; name?: string }[];
    }>;
  }
}

/** A progress notification for a request that asked for it (a `progressToken` in its `_meta`). */
function sendProgress(
  context: Context,
  progress: number,
  total: number | undefined,
  message: string | undefined,
): Promise<void> {
  const task = context.task;
  // A 2026-07-28 task has no progress notifications: a client polling `tasks/get` (on any
  // process) reads its progress as the task's status message instead.
  if (task !== undefined && task.promoted && task.session.stateless && !context.done)
    return task.setStatusMessage(message ?? `${progress}${total === undefined ? '' : `/${total}`}`);
  const token = context.meta?.['progressToken'];
  if (token === undefined || context.done || context.cancelled) return RESOLVED;
  const params: JsonObject = { progressToken: token, progress };
  if (total !== undefined) params['total'] = total;
  if (message !== undefined) params['message'] = message;
  context.out.emit(notificationMessage(PROGRESS, JSON.stringify(params)));
  return RESOLVED;
}
