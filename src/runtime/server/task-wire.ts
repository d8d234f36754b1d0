/**
 * How a task is spelled on the wire in each era. 2025-11-25 (`tasks` capability): `ttl` and
 * `pollInterval`, the task nested under `task` in a CreateTaskResult, the result fetched with
 * `tasks/result`. 2026-07-28 (extension `io.modelcontextprotocol/tasks`): `ttlMs` and
 * `pollIntervalMs`, a flat CreateTaskResult with `resultType: "task"`, and `tasks/get` inlining
 * the result, the error or the input requests.
 */
import type { JsonObject } from '../api.js';
import { INVALID_PARAMS, errorMessage } from '../protocol/jsonrpc.js';
import type { TaskRecord } from './task-store.js';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
export const RELATED_TASK = 'io.modelcontextprotocol/related-task';

/** 2025-11-25 `Task`. */
export function statefulTask(record: TaskRecord): JsonObject {
  const task: JsonObject = { taskId: record.taskId, status: record.status };
  if (record.statusMessage !== undefined) task['statusMessage'] = record.statusMessage;
  task['createdAt'] = record.createdAt;
  task['lastUpdatedAt'] = record.lastUpdatedAt;
  task['ttl'] = record.ttlMs;
  task['pollInterval'] = record.pollIntervalMs;
  return task;
}

/** 2026-07-28 `Task`, and with `detailed` the `DetailedTask` of `tasks/get`. */
export function statelessTask(record: TaskRecord, detailed: boolean): JsonObject {
  const task: JsonObject = { taskId: record.taskId, status: record.status };
  if (record.statusMessage !== undefined) task['statusMessage'] = record.statusMessage;
  task['createdAt'] = record.createdAt;
  task['lastUpdatedAt'] = record.lastUpdatedAt;
  task['ttlMs'] = record.ttlMs;
  task['pollIntervalMs'] = record.pollIntervalMs;
  if (!detailed) return task;
  if (record.status === 'completed' && record.result !== undefined) task['result'] = record.result;
  if (record.status === 'failed' && record.error !== undefined) task['error'] = record.error;
  if (record.status === 'input_required') task['inputRequests'] = record.inputRequests ?? {};
  return task;
}

/** The CreateTaskResult answering a `tools/call` that became a task. */
export function createTaskResult(record: TaskRecord, stateless: boolean): string {
  if (stateless)
    return '{"resultType":"task",' + JSON.stringify(statelessTask(record, false)).slice(1);
  return JSON.stringify({ task: statefulTask(record) });
}

/** 2025-11-25 `tasks/result` of a completed task: its result, tagged with the task it belongs to. */
export function taskResultPayload(record: TaskRecord): string {
  const result = record.result ?? {};
  const meta =
    typeof result['_meta'] === 'object' && result['_meta'] !== null
      ? (result['_meta'] as JsonObject)
      : {};
  return JSON.stringify({
    ...result,
    _meta: { ...meta, [RELATED_TASK]: { taskId: record.taskId } },
  });
}

/** -32602 for a task the requester may not see: unknown, expired, or someone else's (never said which). */
export function taskNotFound(idText: string, taskId: unknown): string {
  return errorMessage(
    idText,
    INVALID_PARAMS,
    `Failed to retrieve task: Task not found (${typeof taskId === 'string' ? taskId.slice(0, 200) : String(taskId)})`,
  );
}

/** The record's `statusMessage`, or none. */
export function setMessage(record: TaskRecord, message: string | undefined): void {
  if (message === undefined) delete record.statusMessage;
  else record.statusMessage = message;
}
