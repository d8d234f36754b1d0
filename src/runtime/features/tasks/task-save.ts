/**
 * How the process running a task saves its record. With a shared store another process may have
 * ended the task there meanwhile (cancelled it, or failed it once its lease lapsed), and that end
 * must stand: the run's save must not turn it back into `working`. A store with `saveRunning`
 * (Redis) checks and saves in one atomic round trip; another shared store is read first; a store
 * only this process uses needs no check.
 */
import { isTerminal, type TaskRecord, type TaskStore } from '../../server/task-store.js';

/** Saves `record` of a task this process runs; returns the stored record instead when it had already ended. */
export async function saveRunRecord(
  store: TaskStore,
  record: TaskRecord,
): Promise<TaskRecord | undefined> {
  if (store.saveRunning !== undefined) return store.saveRunning(record);
  if (store.shared === true) {
    const stored = await store.load(record.taskId);
    if (stored !== undefined && isTerminal(stored.status)) return stored;
  }
  await store.save(record);
  return undefined;
}
