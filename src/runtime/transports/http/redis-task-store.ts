/**
 * Task state on Redis, so a task one process runs is answered by any process sharing the store
 * (`tasks/get`, `tasks/list`, `tasks/result` once it has ended, `tasks/cancel` of one still running
 * is recorded, and the process running it aborts its handler on its next check: task-cancel-watch.ts). Made by `connectRedisStores` (redis-store.ts).
 *
 * Keys (under `prefix`, default `mcp:`): `task:<id>`, the record (JSON), expiring with its TTL;
 * `tasks-of:<owner>`, a set of the owner's task ids for 2025-11-25 `tasks/list` (ids whose record
 * has expired are skipped and removed).
 */
import { keepMs, type TaskRecord, type TaskStore } from '../../server/task-store.js';

/** The part of a node-redis client this store uses (redis-store.ts's `RedisClient` has it all). */
interface RedisTaskClient {
  get(key: string): Promise<string | null>;
  sMembers(key: string): Promise<string[]>;
  sRem(key: string, member: string): Promise<number>;
  multi(): {
    set(key: string, value: string, options: { PX: number }): ReturnType<RedisTaskClient['multi']>;
    sAdd(key: string, member: string): ReturnType<RedisTaskClient['multi']>;
    pExpire(key: string, ms: number): ReturnType<RedisTaskClient['multi']>;
    exec(): Promise<unknown[]>;
  };
}

export class RedisTaskStore implements TaskStore {
  /** Every process using the prefix sees (and cancels) the same tasks. */
  readonly shared = true;
  private readonly client: RedisTaskClient;
  private readonly prefix: string;

  constructor(client: RedisTaskClient, prefix = 'mcp:') {
    this.client = client;
    this.prefix = prefix;
  }

  async save(record: TaskRecord): Promise<void> {
    const ms = keepMs(record);
    const owned = this.prefix + 'tasks-of:' + record.owner;
    await this.client
      .multi()
      .set(this.prefix + 'task:' + record.taskId, JSON.stringify(record), { PX: ms })
      .sAdd(owned, record.taskId)
      .pExpire(owned, 24 * 60 * 60 * 1000)
      .exec();
  }

  async load(taskId: string): Promise<TaskRecord | undefined> {
    const text = await this.client.get(this.prefix + 'task:' + taskId);
    return text === null ? undefined : (JSON.parse(text) as TaskRecord);
  }

  async list(owner: string): Promise<TaskRecord[]> {
    const owned = this.prefix + 'tasks-of:' + owner;
    const records: TaskRecord[] = [];
    for (const taskId of await this.client.sMembers(owned)) {
      const record = await this.load(taskId);
      if (record === undefined) await this.client.sRem(owned, taskId);
      else records.push(record);
    }
    return records;
  }
}
