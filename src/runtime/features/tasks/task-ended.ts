/**
 * A task this process runs that another process has ended in the shared store: cancelled by a
 * `tasks/cancel` that landed there, or failed once its lease lapsed while this process could not
 * renew it. The run's save was refused (task-save.ts); the stored end stands, and the run takes it.
 */
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
