/**
 * How a task looks on the wire in either era: the extension a 2026-07-28 request declares, a
 * task's status read from either era's spelling (`ttl`/`ttlMs`, `pollInterval`/`pollIntervalMs`),
 * and the error of a failed 2026-07-28 task.
 */
import type { JsonObject } from '../api.js';
import { McpError } from '../protocol/errors.js';
import { isObject } from '../protocol/jsonrpc.js';
import { META_CAPABILITIES } from './negotiation.js';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

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

/** The states a task does not leave. */
export const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

/** `_meta` declaring the tasks extension: 2026-07-28 capabilities travel with each request. */
export function declaringTasks(): JsonObject {
  return { [META_CAPABILITIES]: { extensions: { [TASKS_EXTENSION]: {} } } };
}

/** A failed 2026-07-28 task's `error`, as the McpError `result()` rejects with. */
export function failure(error: unknown): McpError {
  const body = isObject(error) ? error : {};
  return new McpError(
    typeof body['code'] === 'number' ? body['code'] : -32603,
    typeof body['message'] === 'string' ? body['message'] : 'The task failed',
    body['data'],
  );
}

/** A task's status in one spelling, whichever era's the server used. */
export function statusOf(task: JsonObject): TaskStatus {
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
