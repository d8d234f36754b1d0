/// <reference types="node" />
/**
 * One tool call running as a task in this process: the handler runs as for a plain call (same input
 * checks, output enforcement and `RequestContext`); its answer becomes the task's result and every
 * status change is saved in the task store. 2025-11-25: the client asked (`params.task`); the task
 * exists before the handler starts. 2026-07-28: the server directs it; the handler starts on the
 * request, answered with a CreateTaskResult if the handler still runs on the next turn of the event
 * loop and waits for no input of the request's own (`InputOptions.beforeTask`); else directly.
 */
import type { InputOptions, JsonObject } from '../../api.js';
import { Context } from '../../server/context.js';
import { McpError } from '../../protocol/errors.js';
import {
  errorMessage,
  isObject,
  notificationMessage,
  resultMessage,
  type RequestId,
} from '../../protocol/jsonrpc.js';
import { isThenable, stackOf } from '../../server/method-common.js';
import type { Outbound } from '../../server/outbound.js';
import type { ServerCore, ToolEntry } from '../../server/server.js';
import type { Session } from '../../server/session.js';
import { isTerminal, type TaskRecord, type TaskStatus } from '../../server/task-store.js';
import { watchForCancellation } from './task-cancel-watch.js';
import { endedElsewhere, rememberEnded } from './task-ended.js';
import { saveBehind, saveRunRecord } from './task-save.js';
import { holdLeases } from './task-lease.js';
import { createTaskResult, setMessage, statefulTask } from '../../server/task-wire.js';
import { toolFailed, toolFinished } from '../tools/tool-results.js';
import { TASK_STATUS } from '../../protocol/methods.js';
import { TaskOutbound } from './task-outbound.js';
import type { PendingInput } from './task-inputs.js';

export class TaskRun {
  readonly core: ServerCore;
  readonly session: Session;
  readonly record: TaskRecord;
  readonly context: Context;
  /** True once the request was answered with the CreateTaskResult (2025-11-25: from the start). */
  promoted: boolean;
  /** @internal The tools/call request's own answer channel. */
  readonly requestOut: Outbound;
  private readonly requestIdText: string;
  /** @internal Settles once every save so far has. */
  saving: Promise<void> = Promise.resolve();
  /** @internal The record as stored by the last save (never changed after): what task methods answer here. */
  saved: TaskRecord | undefined = undefined;
  /** @internal 2026-07-28 input requests waiting for `tasks/update`, by key. */
  readonly inputs = new Map<string, PendingInput>();
  /** @internal 2025-11-25: server→client requests in flight for this task. */
  clientRequests = 0;
  /** 2025-11-25 `tasks/result` requests waiting for the end, newest last (their streams carry the task's requests). */
  private readonly waiters: { out: Outbound; done: (record: TaskRecord) => void }[] = [];
  /** 2025-11-25: messages for the client while it has no stream to receive them; sent on the next `tasks/result`. */
  readonly queued: string[] = [];
  /** The handler's own `statusMessage` (`context.setStatusMessage`), shown whenever the task works. */
  private handlerMessage: string | undefined = undefined;

  constructor(
    session: Session,
    id: RequestId,
    idText: string,
    meta: JsonObject | undefined,
    out: Outbound,
    record: TaskRecord,
  ) {
    this.core = session.core;
    this.session = session;
    this.record = record;
    this.requestOut = out;
    this.requestIdText = idText;
    this.promoted = !session.stateless;
    this.context = new Context(session, id, idText, meta, new TaskOutbound(this));
    this.context.task = this;
  }

  /** Runs the handler; a 2026-07-28 run decides on the next turn whether to become a task. */
  start(tool: ToolEntry, args: unknown): void {
    const context = this.context;
    context.toolName = tool.name;
    if (!this.promoted) setImmediate(() => this.promoteIfRunning());
    let value: unknown;
    const tracing = this.core.tracing;
    tracing?.taskStarted(this, tool.name);
    try {
      value =
        tracing === undefined
          ? tool.handler(args, context)
          : tracing.runHandler(context, tool.name, () => tool.handler(args, context));
    } catch (error) {
      this.failed(tool, error);
      return;
    }
    if (isThenable(value)) {
      value.then(
        (result) => toolFinished(this.session, context, tool, result),
        (error: unknown) => this.failed(tool, error),
      );
    } else {
      toolFinished(this.session, context, tool, value);
    }
  }

  /** A thrown McpError fails the task with that JSON-RPC error; anything else is a tool error, as in a plain call. */
  private failed(tool: ToolEntry, error: unknown): void {
    if (this.promoted && error instanceof McpError) {
      if (!this.session.settle(this.context)) return;
      this.core.log(`Task ${this.record.taskId} (tool ${tool.name}) failed: ${stackOf(error)}`);
      this.finish(errorMessage(this.context.idText, error.code, error.message, error.data));
      return;
    }
    toolFailed(this.session, this.context, tool, error);
  }

  private promoteIfRunning(): void {
    if (this.promoted || this.context.done || this.session.pendingInputs !== undefined) return;
    this.promoted = true;
    this.core.taskRuns.set(this.record.taskId, this);
    watchForCancellation(this.core);
    holdLeases(this.core);
    this.save().then(
      () =>
        this.requestOut.respond(
          resultMessage(this.requestIdText, createTaskResult(this.record, true)),
        ),
      (error: unknown) => this.storeFailed(error),
    );
  }

  /** 2025-11-25: the task is saved, then created, then the handler starts. */
  begin(tool: ToolEntry, args: unknown): void {
    this.core.taskRuns.set(this.record.taskId, this);
    watchForCancellation(this.core);
    holdLeases(this.core);
    this.save().then(
      () => {
        this.requestOut.respond(
          resultMessage(this.requestIdText, createTaskResult(this.record, false)),
        );
        this.start(tool, args);
      },
      (error: unknown) => this.storeFailed(error),
    );
  }

  private storeFailed(error: unknown): void {
    this.core.log(`Saving task ${this.record.taskId} failed: ${stackOf(error)}`);
    this.core.taskRuns.delete(this.record.taskId);
    this.context.cancel('The task could not be stored');
    this.requestOut.respond(
      errorMessage(this.requestIdText, -32603, 'Internal error: the task could not be stored'),
    );
  }

  /** The handler's answer (a JSON-RPC response text) becomes the task's result or error (task-save.ts). */
  finish(text: string): void {
    if (isTerminal(this.record.status)) return;
    const message = JSON.parse(text) as JsonObject;
    if (isObject(message['error'])) {
      const error = message['error'];
      this.record.error = error;
      this.transition(
        'failed',
        typeof error['message'] === 'string' ? error['message'] : undefined,
      );
    } else {
      this.record.result = isObject(message['result']) ? message['result'] : {};
      this.handlerMessage = undefined;
      this.transition('completed', undefined);
    }
  }

  /** `tasks/cancel`: the handler's signal aborts, waiting input requests fail, the task stays cancelled. */
  cancel(): void {
    if (isTerminal(this.record.status)) return;
    this.transition('cancelled', 'The task was cancelled by request');
    this.context.cancel('The task was cancelled');
    for (const pending of this.inputs.values())
      pending.reject(new Error(`${pending.method}: the task was cancelled`));
    this.inputs.clear();
  }

  /** `context.setStatusMessage`: in the record at once (a 2026-07-28 call not yet a task shows it in its
   * CreateTaskResult); once a task, announced and saved (a shared store's written behind: task-save.ts). */
  async setStatusMessage(message: string | undefined): Promise<void> {
    if (isTerminal(this.record.status)) return;
    this.handlerMessage = message;
    setMessage(this.record, message);
    if (!this.promoted) return;
    if (this.core.taskStore.shared !== true) return this.changed();
    this.record.lastUpdatedAt = new Date().toISOString();
    this.announce();
    saveBehind(this);
  }

  /** @internal Records a new status, saves it, tells a stateful client, and wakes `tasks/result` once terminal. */
  transition(status: TaskStatus, message: string | undefined): void {
    const record = this.record;
    record.status = status;
    this.core.tracing?.taskChanged(this, status);
    setMessage(record, status === 'working' ? this.handlerMessage : message);
    if (status !== 'input_required') delete record.inputRequests;
    const saved = this.changed();
    if (isTerminal(status)) {
      saved.then(
        () => this.ended(),
        (error: unknown) => this.core.log(`Saving task ${record.taskId} failed: ${stackOf(error)}`),
      );
    }
  }

  /** @internal Once the end is stored: the waiting `tasks/result` requests get it, and the run is done here. */
  ended(): void {
    for (const waiter of this.waiters.splice(0)) waiter.done(this.record);
    this.core.taskRuns.delete(this.record.taskId);
    if (this.saved !== undefined) rememberEnded(this.core, this.saved);
  }

  /** Saves the changed record and tells a stateful client (`notifications/tasks/status`). */
  private changed(): Promise<void> {
    this.record.lastUpdatedAt = new Date().toISOString();
    const saved = this.save();
    this.announce();
    return saved;
  }

  /** @internal A stateful client hears of every change (`notifications/tasks/status`). */
  announce(): void {
    if (!this.session.stateless) {
      this.session.standalone?.emit(
        notificationMessage(TASK_STATUS, JSON.stringify(statefulTask(this.record))),
      );
    }
  }

  /** Saves a copy of the record after every earlier save, in order; a refused save ends the run (task-ended.ts). */
  save(): Promise<void> {
    const copy: TaskRecord = JSON.parse(JSON.stringify(this.record)) as TaskRecord;
    // After the task's messages posted so far (task-mail.ts): whoever sees the end has them all.
    const save = (): Promise<void> =>
      (this.context.out as TaskOutbound).mailed
        .then(() => saveRunRecord(this.core.taskStore, copy))
        .then((ended) => {
          if (ended === undefined) this.saved = copy;
          else endedElsewhere(this, ended);
        });
    this.saving = this.saving.then(save, save);
    return this.saving;
  }

  // ---- input ------------------------------------------------------------------------------------

  /** A 2025-11-25 `tasks/result` waiting for the end: what was queued for the client goes out on its stream. */
  wait(out: Outbound, done: (record: TaskRecord) => void): void {
    this.waiters.push({ out, done });
    for (const text of this.queued.splice(0)) out.emit(text);
  }

  /** @internal Where the task's messages to a 2025-11-25 client go now. */
  get latestWaiter(): Outbound | undefined {
    return this.waiters.at(-1)?.out;
  }

  /** Whether an input request of the handler belongs to the task (not to the request before it). */
  takesInput(options: InputOptions | undefined): boolean {
    return this.promoted || options?.beforeTask !== true;
  }

  /**
   * 2026-07-28: the request joins the task's `inputRequests` (the task turns `input_required`) and
   * resolves with the client's answer from `tasks/update`.
   */
  requestInput(
    method: string,
    capability: string,
    params: JsonObject,
    key: string | undefined,
  ): Promise<JsonObject> {
    if (isTerminal(this.record.status))
      return Promise.reject(new Error(`${method}: the task has already finished`));
    if (!isObject(this.session.clientCapabilities[capability])) {
      return Promise.reject(
        new Error(`${method}: the client did not declare the ${capability} capability`),
      );
    }
    if (!this.promoted) this.promoteIfRunning();
    const inputKey = key ?? `${capability}-${++this.context.inputCount}`;
    return new Promise<JsonObject>((resolve, reject) => {
      this.inputs.set(inputKey, { method, resolve, reject });
      (this.record.inputRequests ??= {})[inputKey] = { method, params };
      this.transition('input_required', 'Waiting for input from the client');
    });
  }

  /** Input requests still waiting, by key (2026-07-28). */
  get waitingForInput(): boolean {
    return this.inputs.size > 0;
  }
}
