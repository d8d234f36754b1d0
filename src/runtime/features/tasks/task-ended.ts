/**
 * A task this process runs that another process has ended in the shared store: cancelled by a
 * `tasks/cancel` that landed there, or failed once its lease lapsed while this process could not
 * renew it. The run's save was refused (task-save.ts); the stored end stands, and the run takes it.
 */
import type { ServerCore } from '../../server/server.js';
import { isTerminal, type TaskRecord } from '../../server/task-store.js';
import type { TaskRun } from './task-run.js';

export function endedElsewhere(run: TaskRun, stored: TaskRecord): void {
  const record = run.record;
  const wasRunning = !isTerminal(record.status);
  // The stored record replaces the run's own: a result the handler produced too late is dropped.
  for (const key of Object.keys(record)) delete (record as unknown as Record<string, unknown>)[key];
  Object.assign(record, stored);
  run.saved = stored;
  run.core.tracing?.taskChanged(run, stored.status);
  run.context.cancel(`The task was ${stored.status} by another server process`);
  for (const pending of run.inputs.values())
    pending.reject(new Error(`${pending.method}: the task was ${stored.status}`));
  run.inputs.clear();
  run.announce();
  // A terminal transition of the run wakes its waiters once its save settles; an earlier save does it here.
  if (wasRunning) run.ended();
}

/**
 * The last tasks that ended, as stored, per process: a record that has ended never changes again
 * (every save of a running task refuses to overwrite an end, task-save.ts), so a `tasks/get` that
 * comes after the end, here or wherever it was read once, needs no round trip. Bounded: the
 * oldest go first, and an expired one is never answered (`knownRecord`).
 */
const ENDED_KEPT = 256;
const endedByCore = new WeakMap<ServerCore, Map<string, TaskRecord>>();

export function rememberEnded(core: ServerCore, record: TaskRecord): void {
  if (!isTerminal(record.status)) return;
  let ended = endedByCore.get(core);
  if (ended === undefined) endedByCore.set(core, (ended = new Map()));
  ended.set(record.taskId, record);
  if (ended.size > ENDED_KEPT) ended.delete(ended.keys().next().value as string);
}

/** A record to answer with without reading the store: the last save of a task running here, or an end seen here. */
export function knownRecord(core: ServerCore, taskId: string): TaskRecord | undefined {
  const record = core.taskRuns.get(taskId)?.saved ?? endedByCore.get(core)?.get(taskId);
  if (record === undefined) return undefined;
  return record.ttlMs === null || Date.parse(record.createdAt) + record.ttlMs > Date.now()
    ? record
    : undefined;
}
