/**
 * A tool call run as a task, from the client: `client.tools.<name>.task(input, options)` starts it
 * and returns a handle to poll (`status()`), wait for (`result()`, validated like a plain call) and
 * cancel (`cancel()`). Both eras: 2025-11-25 asks with `params.task` and fetches the result with
 * `tasks/result`; 2026-07-28 declares the `io.modelcontextprotocol/tasks` extension on the call and
 * reads the result inlined in `tasks/get`, answering the task's input requests with `tasks/update`
 * from the same handlers that answer the server's other requests.
 */
import type { JsonObject } from '../api.js';
import { McpError } from '../protocol/errors.js';
import { isObject } from '../protocol/jsonrpc.js';
import { prepareParams } from './call-options.js';
import { whenAborted } from './cancellation.js';
import { OutputValidationError, ToolError } from './errors.js';
import { paramHeaders } from './headers.js';
import { recoverToolCall } from './input-rounds.js';
import type { CallOptions, ClientToolBinding } from './index.js';
import type { ClientSession, RequestOptions } from './session.js';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
const META_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';

export type TaskState = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** A task as the server last described it, in one spelling for both eras. */
export interface TaskStatus {
  readonly taskId: string;
  readonly status: TaskState;
  readonly statusMessage?: string;
  readonly createdAt: string;
  readonly lastUpdatedAt: string;
  /** Milliseconds from creation the server keeps it; null for unlimited. */
  readonly ttlMs: number | null;
  readonly pollIntervalMs?: number;
}

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

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

/** `result()` of a task that was cancelled. */
export class TaskCancelledError extends Error {
  readonly taskId: string;

  constructor(taskId: string, tool: string) {
    super(`Task ${taskId} (tool ${tool}) was cancelled`);
    this.name = 'TaskCancelledError';
    this.taskId = taskId;
  }
}

/** Starts `binding` as a task. A server that answers at once (2026-07-28 may) gives a handle that is already done. */
export async function startToolTask(
  session: ClientSession,
  binding: ClientToolBinding,
  input: unknown,
  options: TaskOptions = {},
): Promise<TaskHandle<unknown>> {
  // Progress comes for as long as the task runs, long after this request is answered: its
  // listener stays until the task is seen ending (or the start fails).
  const request: RequestOptions = { signal: options.signal, timeoutMs: options.timeoutMs };
  if (binding.headers !== undefined && binding.headers.length > 0)
    request.headers = paramHeaders(binding.headers, input);
  // The call's `_meta` and log level, as a plain call's (call-options.ts).
  const params = await prepareParams(
    session,
    { name: binding.name, arguments: input ?? {} },
    options,
  );
  const progress =
    options.onProgress === undefined ? undefined : session.watchProgress(options.onProgress);
  const meta: JsonObject = isObject(params['_meta']) ? { ...params['_meta'] } : {};
  if (progress !== undefined) meta['progressToken'] = progress.token;
  if (session.stateless) Object.assign(meta, declaringTasks());
  else params['task'] = options.ttlMs === undefined ? {} : { ttl: options.ttlMs };
  if (Object.keys(meta).length > 0) params['_meta'] = meta;
  const send = () => session.request('tools/call', params, request);
  let created: JsonObject;
  try {
    created = await send().catch((error: unknown) =>
      recoverToolCall(binding.name, session.handlers, error, send, options.signal),
    );
  } catch (error) {
    progress?.stop();
    throw error;
  }
  const seed = session.stateless ? created : created['task'];
  if (session.stateless && created['resultType'] !== 'task') {
    progress?.stop();
    return finishedHandle(binding, created);
  }
  if (!isObject(seed) || typeof seed['taskId'] !== 'string') {
    progress?.stop();
    throw new Error(
      `tools/call ${binding.name}: the server did not create a task (${JSON.stringify(created).slice(0, 200)})`,
    );
  }
  const task = new ToolTask(session, binding, seed['taskId'], statusOf(seed), options);
  if (progress !== undefined) task.stopProgress = progress.stop;
  return task;
}

class ToolTask implements TaskHandle<unknown> {
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
    await this.session.request('tasks/cancel', this.params({ taskId: this.taskId }), {
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
            'tasks/update',
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
    return this.session.request('tasks/get', this.params({ taskId: this.taskId }), {
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
      return checked(this.binding, isObject(task['result']) ? task['result'] : {});
    }
    // 2025-11-25: the result (or the error) is the underlying request's own answer.
    const result = await this.session.request(
      'tasks/result',
      { taskId: this.taskId },
      { signal: options.signal, timeoutMs: options.timeoutMs },
    );
    return checked(this.binding, result);
  }
}

/** The server answered the call at once: a handle whose result is that answer. */
function finishedHandle(binding: ClientToolBinding, result: JsonObject): TaskHandle<unknown> {
  const now = new Date().toISOString();
  const status: TaskStatus = {
    taskId: '',
    status: 'completed',
    createdAt: now,
    lastUpdatedAt: now,
    ttlMs: null,
  };
  return {
    taskId: '',
    status: () => Promise.resolve(status),
    result: () => Promise.resolve().then(() => checked(binding, result)),
    cancel: () => Promise.resolve(),
  };
}

/** The result held to the tool's contract exactly as `callTool` holds a plain call's. */
function checked(binding: ClientToolBinding, result: JsonObject): unknown {
  if (result['isError'] === true) throw new ToolError(binding.name, result);
  const validate = binding.validateOutput;
  if (validate === undefined) return result;
  if (!('structuredContent' in result))
    throw new OutputValidationError(binding.name, result, [], 'it has no structuredContent');
  const output = result['structuredContent'];
  if (!validate(output)) throw new OutputValidationError(binding.name, result, validate.errors);
  return output;
}

function declaringTasks(): JsonObject {
  return { [META_CAPABILITIES]: { extensions: { [TASKS_EXTENSION]: {} } } };
}

function failure(error: unknown): McpError {
  const body = isObject(error) ? error : {};
  return new McpError(
    typeof body['code'] === 'number' ? body['code'] : -32603,
    typeof body['message'] === 'string' ? body['message'] : 'The task failed',
    body['data'],
  );
}

function statusOf(task: JsonObject): TaskStatus {
  const ttl = task['ttlMs'] ?? task['ttl'];
  const poll = task['pollIntervalMs'] ?? task['pollInterval'];
  const status: { -readonly [K in keyof TaskStatus]: TaskStatus[K] } = {
    taskId: String(task['taskId']),
    status: task['status'] as TaskState,
    createdAt: String(task['createdAt']),
    lastUpdatedAt: String(task['lastUpdatedAt']),
    ttlMs: typeof ttl === 'number' ? ttl : null,
  };
  if (typeof task['statusMessage'] === 'string') status.statusMessage = task['statusMessage'];
  if (typeof poll === 'number') status.pollIntervalMs = poll;
  return status;
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
