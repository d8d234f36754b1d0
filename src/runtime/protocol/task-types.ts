/** The task store seam's types (records, statuses, the store), re-exported by `api.ts`. */
import type { JsonObject } from '../api.js';

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** One task as stored: era-neutral; task-wire.ts spells it for each revision. */
export interface TaskRecord {
  taskId: string;
  /** Who may see it: `session:<id>` for a stateful session, `stateless` for 2026-07-28 clients. */
  owner: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  /** Milliseconds from creation the task is kept; null for unlimited. */
  ttlMs: number | null;
  pollIntervalMs: number;
  /** The underlying request's result, once `completed`. */
  result?: JsonObject;
  /** The underlying request's JSON-RPC error, once `failed`. */
  error?: JsonObject;
  /** 2026-07-28: the input requests still waiting for an answer, by key. */
  inputRequests?: Record<string, JsonObject>;
}

export interface TaskStore {
  /** Records (or replaces) a task; it may be forgotten once its TTL has passed. */
  save(record: TaskRecord): Promise<void>;
  /** The task, or undefined for an unknown or expired one. */
  load(taskId: string): Promise<TaskRecord | undefined>;
  /** The owner's tasks, oldest first (2025-11-25 `tasks/list`). */
  list(owner: string): Promise<TaskRecord[]>;
  /**
   * True when other processes change these records too: a task another process cancelled is then
   * seen by the process running it, which aborts its handler (task-cancel-watch.ts).
   */
  readonly shared?: boolean;
  /**
   * A shared store's save for the process running the task: in one atomic step, saves the record
   * unless the stored one has already ended (another process cancelled the task, or failed it when
   * its lease lapsed), and then returns that ended record instead. Without it, a shared store's
   * running task is loaded before each save (a second round trip, with a window between the two).
   */
  saveRunning?(record: TaskRecord): Promise<TaskRecord | undefined>;
  /**
   * A shared store's lease on the tasks this process runs (redis-lease.ts): while any runs, `hold`
   * is called with their ids every `renewMs`. A task whose process stopped renewing (killed, or cut
   * off from the store) is marked `failed` by the next process that reads it once the lease lapses.
   */
  readonly lease?: { readonly renewMs: number; hold(taskIds: readonly string[]): Promise<void> };
}
