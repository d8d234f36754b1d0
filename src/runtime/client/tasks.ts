/**
 * A tool call run as a task, from the client: `client.tools.<name>.task(input, options)` starts it
 * and returns a handle to poll (`status()`), wait for (`result()`, validated like a plain call) and
 * cancel (`cancel()`). Both eras: 2025-11-25 asks with `params.task` and fetches the result with
 * `tasks/result`; 2026-07-28 declares the `io.modelcontextprotocol/tasks` extension on the call and
 * reads the result inlined in `tasks/get`, answering the task's input requests with `tasks/update`
 * from the same handlers that answer the server's other requests.
 */
import type { JsonObject } from '../api.js';
import { isObject } from '../protocol/jsonrpc.js';
import { prepareParams } from './call-options.js';
import { paramHeaders } from './headers.js';
import { recoverToolCall } from './input-rounds.js';
import type { ClientSession, RequestOptions } from './session.js';
import { ToolTask, type TaskHandle, type TaskOptions } from './task-handle.js';
import { declaringTasks, statusOf, type TaskStatus } from './task-wire.js';
import { toolOutcome, type ClientToolBinding } from './tool-calls.js';
import { TOOLS_CALL } from '../protocol/methods.js';

export { TaskCancelledError, type TaskHandle, type TaskOptions } from './task-handle.js';
export { TASKS_EXTENSION, type TaskState, type TaskStatus } from './task-wire.js';

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
  const send = () => session.request(TOOLS_CALL, params, request);
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
    result: () => Promise.resolve().then(() => toolOutcome(binding, result)),
    cancel: () => Promise.resolve(),
  };
}
