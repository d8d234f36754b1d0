/**
 * Task leases on Redis: a task is `working` only while the process running it says so. That
 * process renews a lease key per running task every `leaseMs / 3` (features/tasks/task-lease.ts
 * calls `lease.hold`); a process that is killed, or cut off from Redis, stops renewing and its
 * leases expire. Whichever process next reads such a task (`tasks/get`, `tasks/result`,
 * `tasks/list`, a poll of another process) finds it unfinished with no lease, and saves it as
 * `failed` with a message saying its process stopped, so a client polling it gets an end instead of
 * `working` forever.
 *
 * Keys (under `prefix`): `task-lease:<taskId>`, expiring after `leaseMs` unless renewed. A task
 * just created or changed has no lease yet for up to one renewal, so only a task whose last change
 * is older than `leaseMs` can be found expired. A process never expires the tasks it holds itself.
 *
 * Choose `leaseMs` well above the longest pause a healthy process can have (a long GC, a blocked
 * event loop, a Redis failover): a task whose lease lapses while its process still runs it is
 * failed all the same. Default 15 s, which is also about how long a killed process's tasks take to fail.
 */
import { isTerminal, type TaskRecord, type TaskStore } from './server/task-store.js';

/** The part of a node-redis client the lease uses. */
export interface RedisLeaseClient {
  exists(key: string): Promise<number>;
  multi(): {
    set(key: string, value: string, options: { PX: number }): ReturnType<RedisLeaseClient['multi']>;
    exec(): Promise<unknown[]>;
  };
}

/** The store a lease wraps: its `saveRunning` keeps an end another process recorded (redis-task-store.ts). */
interface SavingTaskStore extends TaskStore {
  saveRunning(record: TaskRecord): Promise<TaskRecord | undefined>;
}

export const DEFAULT_TASK_LEASE_MS = 15_000;

/** What a task whose process stopped says, as its status message and its JSON-RPC error. */
export const LEASE_EXPIRED_MESSAGE =
  'The server process running this task stopped before it finished (its lease expired)';

/** A task store whose running tasks carry a lease (see above): wraps the Redis task store. */
export class LeasedTaskStore implements TaskStore {
  readonly shared = true;
  readonly lease: { readonly renewMs: number; hold(taskIds: readonly string[]): Promise<void> };
  private readonly inner: SavingTaskStore;
  private readonly client: RedisLeaseClient;
  private readonly prefix: string;
  private readonly leaseMs: number;
  /** The tasks this process renewed last: never expired by this process. */
  private held = new Set<string>();

  constructor(inner: SavingTaskStore, client: RedisLeaseClient, leaseMs: number, prefix = 'mcp:') {
    if (!Number.isSafeInteger(leaseMs) || leaseMs < 3)
      throw new Error(`taskLeaseMs must be an integer of at least 3, got ${String(leaseMs)}`);
    this.inner = inner;
    this.client = client;
    this.prefix = prefix;
    this.leaseMs = leaseMs;
    this.lease = { renewMs: Math.floor(leaseMs / 3), hold: (ids) => this.hold(ids) };
  }

  save(record: TaskRecord): Promise<void> {
    return this.inner.save(record);
  }

  saveRunning(record: TaskRecord): Promise<TaskRecord | undefined> {
    return this.inner.saveRunning(record);
  }

  /** Costs nothing more than the plain load unless the task could have lapsed (then one EXISTS). */
  async load(taskId: string): Promise<TaskRecord | undefined> {
    const record = await this.inner.load(taskId);
    if (record === undefined || !this.lapsed(record)) return record;
    return (await this.client.exists(this.key(taskId))) === 1 ? record : this.expire(record);
  }

  async list(owner: string): Promise<TaskRecord[]> {
    const records = await this.inner.list(owner);
    return Promise.all(
      records.map(async (record) =>
        this.lapsed(record) && (await this.client.exists(this.key(record.taskId))) === 0
          ? this.expire(record)
          : record,
      ),
    );
  }

  private async hold(taskIds: readonly string[]): Promise<void> {
    this.held = new Set(taskIds);
    if (taskIds.length === 0) return;
    let multi = this.client.multi();
    for (const taskId of taskIds) multi = multi.set(this.key(taskId), '1', { PX: this.leaseMs });
    await multi.exec();
  }

  /** Unfinished, not held here, and unchanged for longer than a lease: it should have a lease by now. */
  private lapsed(record: TaskRecord): boolean {
    return (
      !isTerminal(record.status) &&
      !this.held.has(record.taskId) &&
      Date.now() - Date.parse(record.lastUpdatedAt) > this.leaseMs
    );
  }

  private async expire(record: TaskRecord): Promise<TaskRecord> {
    const failed: TaskRecord = {
      ...record,
      status: 'failed',
      statusMessage: LEASE_EXPIRED_MESSAGE,
      lastUpdatedAt: new Date().toISOString(),
      error: { code: -32603, message: LEASE_EXPIRED_MESSAGE },
    };
    delete failed.inputRequests;
    // Unless it ended meanwhile (its process finished it just before the lease lapsed): that end stands.
    return (await this.inner.saveRunning(failed)) ?? failed;
  }

  private key(taskId: string): string {
    return this.prefix + 'task-lease:' + taskId;
  }
}
