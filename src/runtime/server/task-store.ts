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

/** Records held before the first sweep of expired ones. */
const FIRST_SWEEP_AT = 64;

/**
 * Keeps tasks in this process (the default). Records are copied in and out, as a shared store would.
 * An expired record goes when it is read, listed, or swept: a save that finds twice as many
 * records as the last sweep left drops the expired ones, so records nobody reads again (a client
 * that starts tasks and never asks for them) hold at most twice what is live, at O(1) per save.
 */
export class InMemoryTaskStore implements TaskStore {
  private readonly tasks = new Map<string, { text: string; owner: string; expires: number }>();
  private sweepAt = FIRST_SWEEP_AT;

  /** Records held, expired ones not yet swept included. */
  get size(): number {
    return this.tasks.size;
  }

  save(record: TaskRecord): Promise<void> {
    const now = Date.now();
    this.tasks.set(record.taskId, {
      text: JSON.stringify(record),
      owner: record.owner,
      expires: now + keepMs(record),
    });
    if (this.tasks.size >= this.sweepAt) {
      for (const [taskId, entry] of this.tasks) if (entry.expires < now) this.tasks.delete(taskId);
      this.sweepAt = Math.max(FIRST_SWEEP_AT, this.tasks.size * 2);
    }
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
