/**
 * Task state on Redis, so a task one process runs is answered by any process sharing the store
 * (`tasks/get`, `tasks/list`, `tasks/result` once it has ended, `tasks/cancel` of one still running
 * is recorded, and the process running it aborts its handler on its next check: task-cancel-watch.ts). Made by `connectRedisStores` (redis-store.ts).
 *
 * Keys (under `prefix`, default `mcp:`): `task:<id>`, the record (JSON), expiring with its TTL;
 * `tasks-of:<owner>`, a set of the owner's task ids for 2025-11-25 `tasks/list` (ids whose record
 * has expired are skipped and removed).
 *
 * Every save is one round trip: a small Lua script (sent once per connection, then called by its
 * SHA-1) that also joins a new task to its owner's set and, for the process running the task,
 * refuses to overwrite a record another process has already ended (`saveRunning`).
 */
import { createHash } from 'node:crypto';
import { keepMs, type TaskRecord, type TaskStore } from '../../server/task-store.js';

/** The part of a node-redis client this store uses (redis-store.ts's `RedisClient` has it all). */
export interface RedisTaskClient {
  get(key: string): Promise<string | null>;
  sMembers(key: string): Promise<string[]>;
  sRem(key: string, member: string): Promise<number>;
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  evalSha(sha: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
}

/**
 * KEYS: the record, the owner's set. ARGV: the record's JSON, its lifetime (ms), its id, and '1'
 * when a record that has ended must be kept (the answer is then that record, else nothing).
 */
const SAVE_SCRIPT = `local current = redis.call('GET', KEYS[1])
if current then
  if ARGV[4] == '1' then
    local status = cjson.decode(current)['status']
    if status == 'completed' or status == 'failed' or status == 'cancelled' then return current end
  end
else
  redis.call('SADD', KEYS[2], ARGV[3])
  redis.call('PEXPIRE', KEYS[2], 86400000)
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return false`;
const SAVE_SHA = createHash('sha1').update(SAVE_SCRIPT).digest('hex');

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
    await this.run(record, false);
  }

  async saveRunning(record: TaskRecord): Promise<TaskRecord | undefined> {
    const ended = await this.run(record, true);
    return typeof ended === 'string' ? (JSON.parse(ended) as TaskRecord) : undefined;
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

  /** The save script by its SHA-1; sent whole once Redis says it does not know it (first use, or after a restart). */
  private async run(record: TaskRecord, keepEnded: boolean): Promise<unknown> {
    const options = {
      keys: [this.prefix + 'task:' + record.taskId, this.prefix + 'tasks-of:' + record.owner],
      arguments: [
        JSON.stringify(record),
        String(keepMs(record)),
        record.taskId,
        keepEnded ? '1' : '0',
      ],
    };
    try {
      return await this.client.evalSha(SAVE_SHA, options);
    } catch (error) {
      if (!String(error).includes('NOSCRIPT')) throw error;
      return this.client.eval(SAVE_SCRIPT, options);
    }
  }
}
