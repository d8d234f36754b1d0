/**
 * How the process running a task saves its record. With a shared store another process may have
 * ended the task there meanwhile (cancelled it, or failed it once its lease lapsed), and that end
 * must stand: the run's save must not turn it back into `working`. A store with `saveRunning`
 * (Redis) checks and saves in one atomic round trip; another shared store is read first; a store
 * only this process uses needs no check.
 *
 * Status messages are written behind with a shared store, where each save is a round trip: a
 * handler may set one per item it works on (`context.progress` sets it too at 2026-07-28). The
 * record (and a 2025-11-25 client's notification) has the message at once; the store gets the
 * latest one within `STATUS_WRITE_BEHIND_MS`, in one save, unless a status change or the end
 * has saved it first. Clients poll every `pollIntervalMs`, several times that delay apart, so a
 * message another process shows a moment later is as fresh as a poll can see.
 */
import { stackOf } from '../../server/method-common.js';
import { isTerminal, type TaskRecord, type TaskStore } from '../../server/task-store.js';
import type { TaskRun } from './task-run.js';

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

/** How long a status message may wait before it is saved (a tenth of the default poll interval). */
export const STATUS_WRITE_BEHIND_MS = 50;

const behind = new WeakSet<TaskRun>();

/** Saves the run's record within `STATUS_WRITE_BEHIND_MS`: one save for every message set meanwhile. */
export function saveBehind(run: TaskRun): void {
  if (behind.has(run)) return;
  behind.add(run);
  setTimeout(() => {
    behind.delete(run);
    // An end saved meanwhile carries the last word (and clears the message).
    if (isTerminal(run.record.status)) return;
    run
      .save()
      .catch((error: unknown) =>
        run.core.log(`Saving task ${run.record.taskId} failed: ${stackOf(error)}`),
      );
  }, STATUS_WRITE_BEHIND_MS).unref?.();
}
