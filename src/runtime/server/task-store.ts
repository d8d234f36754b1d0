/**
 * The seam where task state lives, so any process sharing the store answers `tasks/get` (and
 * `tasks/list`, `tasks/result` of a finished task) for a task another process runs. The default
 * keeps records in this process; redis-store.ts has one on Redis (`--redis`).
 */
import type { TaskRecord, TaskStatus, TaskStore } from '../api.js';

export type { TaskRecord, TaskStatus, TaskStore } from '../api.js';

export function isTerminal(status: TaskStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

/** Milliseconds a record is kept from its creation (unlimited: a day, so memory stays bounded). */
export function keepMs(record: TaskRecord): number {
  const until = record.ttlMs === null ? 24 * 60 * 60 * 1000 : record.ttlMs;
  return Math.max(1, Date.parse(record.createdAt) + until - Date.now());
}

/** Keeps tasks in this process (the default). Records are copied in and out, as a shared store would. */
export class InMemoryTaskStore implements TaskStore {
  private readonly tasks = new Map<string, { text: string; owner: string; expires: number }>();

  save(record: TaskRecord): Promise<void> {
    this.tasks.set(record.taskId, {
      text: JSON.stringify(record),
      owner: record.owner,
      expires: Date.now() + keepMs(record),
    });
    return Promise.resolve();
  }

  load(taskId: string): Promise<TaskRecord | undefined> {
    const entry = this.tasks.get(taskId);
    if (entry === undefined) return Promise.resolve(undefined);
    if (entry.expires < Date.now()) {
      this.tasks.delete(taskId);
      return Promise.resolve(undefined);
    }
    return Promise.resolve(JSON.parse(entry.text) as TaskRecord);
  }

  list(owner: string): Promise<TaskRecord[]> {
    const now = Date.now();
    const records: TaskRecord[] = [];
    for (const [taskId, entry] of this.tasks) {
      if (entry.expires < now) this.tasks.delete(taskId);
      else if (entry.owner === owner) records.push(JSON.parse(entry.text) as TaskRecord);
    }
    return Promise.resolve(records);
  }
}
