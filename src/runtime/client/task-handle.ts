/**
 * The handle of a tool call running as a task: `status()` asks once, `result()` polls (backing
 * off, answering a 2026-07-28 task's input requests with `tasks/update`) until the task ends and
 * holds its result to the tool's contract, `cancel()` asks the server to stop it.
 */
import type { JsonObject } from '../api.js';
import { isObject } from '../protocol/jsonrpc.js';
import type { CallOptions } from './call-options.js';
import { whenAborted } from './cancellation.js';
import type { ClientSession } from './session.js';
import { declaringTasks, failure, statusOf, TERMINAL, type TaskStatus } from './task-wire.js';
import { toolOutcome, type ClientToolBinding } from './tool-calls.js';
import { TASKS_CANCEL, TASKS_GET, TASKS_RESULT, TASKS_UPDATE } from '../protocol/methods.js';

export interface TaskOptions extends CallOptions {
  /** 2025-11-25: the lifetime to ask for (the server may shorten it). */
  ttlMs?: number;
  /** Polling starts at the server's `pollIntervalMs` (or this, default 200 ms) and backs off ×1.5 up to `maxPollIntervalMs` (default 5 s). */
  pollIntervalMs?: number;
  maxPollIntervalMs?: number;
}

export interface TaskHandle<Output> {
  readonly taskId: string;
  /** The task's status now (`tasks/get`). */
  status(options?: CallOptions): Promise<TaskStatus>;
  /**
   * Polls until the task ends, answering its input requests from the handlers, then resolves as the
   * plain call would (validated structuredContent, or the whole result); ToolError for `isError`,
   * McpError for a failed task, an Error for a cancelled one.
   */
  result(options?: CallOptions): Promise<Output>;
  /** Asks the server to cancel it (`tasks/cancel`). */
  cancel(options?: CallOptions): Promise<void>;
}

/** `result()` of a task that was cancelled. */
export class TaskCancelledError extends Error {
  readonly taskId: string;

  constructor(taskId: string, tool: string) {
    super(`Task ${taskId} (tool ${tool}) was cancelled`);
    this.name = 'TaskCancelledError';
    this.taskId = taskId;
  }
}

export class ToolTask implements TaskHandle<unknown> {
  readonly taskId: string;
  private last: TaskStatus;
  private readonly session: ClientSession;
  private readonly binding: ClientToolBinding;
  private readonly options: TaskOptions;
  /** 2026-07-28: keys already answered, so a repeated poll does not ask the user twice. */
  private readonly answered = new Set<string>();
  /** Drops the task's progress listener: once `result()` has the outcome, or after `cancel()`. */
  stopProgress: () => void = () => {};

  constructor(
    session: ClientSession,
    binding: ClientToolBinding,
    taskId: string,
    first: TaskStatus,
    options: TaskOptions,
  ) {
    this.session = session;
    this.binding = binding;
    this.taskId = taskId;
    this.last = first;
    this.options = options;
  }

  async status(options: CallOptions = {}): Promise<TaskStatus> {
    return statusOf(await this.get(options));
  }

  async cancel(options: CallOptions = {}): Promise<void> {
    await this.session.request(TASKS_CANCEL, this.params({ taskId: this.taskId }), {
      signal: options.signal,
      timeoutMs: options.timeoutMs,
    });
    this.stopProgress();
  }

  /** 2026-07-28: every task request declares the extension again (capabilities travel per request). */
  private params(params: JsonObject): JsonObject {
    return this.session.stateless ? { ...params, _meta: declaringTasks() } : params;
  }

  async result(options: CallOptions = {}): Promise<unknown> {
    let wait = this.last.pollIntervalMs ?? this.options.pollIntervalMs ?? 200;
    const most = this.options.maxPollIntervalMs ?? 5000;
    for (;;) {
      const task = await this.get(options);
      this.last = statusOf(task);
      if (TERMINAL.has(this.last.status)) return this.finish(task, options);
      // 2025-11-25: the server sends the task's own requests (answered by the handlers) on the
      // stream of a waiting tasks/result, which then carries the result.
      if (this.last.status === 'input_required' && !this.session.stateless)
        return this.finish(task, options);
      if (
        this.last.status === 'input_required' &&
        this.session.stateless &&
        isObject(task['inputRequests'])
      ) {
        const fresh: JsonObject = {};
        for (const [key, value] of Object.entries(task['inputRequests']))
          if (!this.answered.has(key)) fresh[key] = value;
        if (Object.keys(fresh).length > 0) {
          const inputResponses = await this.session.answerInputs(fresh, options.signal);
          for (const key of Object.keys(fresh)) this.answered.add(key);
          await this.session.request(
            TASKS_UPDATE,
            this.params({ taskId: this.taskId, inputResponses }),
            { signal: options.signal, timeoutMs: options.timeoutMs },
          );
          continue;
        }
      }
      await delay(wait, options.signal);
      wait = Math.min(most, Math.max(wait * 1.5, this.last.pollIntervalMs ?? 0));
    }
  }

  private get(options: CallOptions): Promise<JsonObject> {
    return this.session.request(TASKS_GET, this.params({ taskId: this.taskId }), {
      signal: options.signal,
      timeoutMs: options.timeoutMs,
    });
  }

  /** The result once the task ended; its progress listener goes with it (kept if the wait was aborted). */
  private async finish(task: JsonObject, options: CallOptions): Promise<unknown> {
    try {
      return await this.outcome(task, options);
    } finally {
      if (options.signal?.aborted !== true) this.stopProgress();
    }
  }

  private async outcome(task: JsonObject, options: CallOptions): Promise<unknown> {
    if (task['status'] === 'cancelled')
      throw new TaskCancelledError(this.taskId, this.binding.name);
    if (this.session.stateless) {
      if (task['status'] === 'failed') throw failure(task['error']);
      return toolOutcome(this.binding, isObject(task['result']) ? task['result'] : {});
    }
    // 2025-11-25: the result (or the error) is the underlying request's own answer.
    const result = await this.session.request(
      TASKS_RESULT,
      { taskId: this.taskId },
      { signal: options.signal, timeoutMs: options.timeoutMs },
    );
    return toolOutcome(this.binding, result);
  }
}

/**
 * Waits `ms` unless `signal` aborts first. Through `whenAborted`, and undone when the time is up:
 * however long a task is polled, its signal (often shared with many calls) carries one listener.
 */
function delay(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal === undefined) {
      setTimeout(resolve, ms);
      return;
    }
    if (signal.aborted) return reject(signal.reason);
    const stop = whenAborted(signal, () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
    const timer = setTimeout(() => {
      stop();
      resolve();
    }, ms);
  });
}
