/**
 * The message bus (server/message-bus.ts) on Redis, so processes behind a load balancer without
 * session affinity act on whatever message lands on them. Made by `connectRedisStores`
 * (redis-store.ts) with `--redis`.
 *
 * - Channel `bus` (under the prefix, default `mcp:`): every forwarded message, as JSON. Every
 *   process subscribes once, at start, on its own connection (a subscribed connection runs no
 *   other commands), and keeps only what concerns a session or task it holds: a message is a few
 *   hundred bytes, sent only when it landed on the wrong process.
 * - `task-mail:<taskId>`: a list, the messages of a 2025-11-25 task that no stream could take
 *   yet (its progress, its requests to the client), kept until a `tasks/result` takes them or the
 *   task's lifetime ends.
 */
import type { MessageBus } from './server/message-bus.js';

/** The part of a node-redis client the bus uses (redis-store.ts's `RedisClient` has it all). */
interface RedisBusClient {
  connect(): Promise<unknown>;
  quit?(): Promise<unknown>;
  close?(): Promise<unknown>;
  publish(channel: string, message: string): Promise<unknown>;
  multi(): RedisBusMulti;
  duplicate(): RedisBusClient;
  subscribe(channel: string, listener: (message: string) => void): Promise<unknown>;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

interface RedisBusMulti {
  rPush(key: string, value: string): RedisBusMulti;
  pExpire(key: string, ms: number): RedisBusMulti;
  lRange(key: string, start: number, stop: number): RedisBusMulti;
  del(key: string): RedisBusMulti;
  exec(): Promise<unknown[]>;
}

export class RedisMessageBus implements MessageBus {
  private readonly client: RedisBusClient;
  private readonly prefix: string;
  private readonly log: ((line: string) => void) | undefined;
  private subscriber: RedisBusClient | undefined = undefined;

  constructor(client: RedisBusClient, prefix = 'mcp:', log?: (line: string) => void) {
    this.client = client;
    this.prefix = prefix;
    this.log = log;
  }

  async publish(envelope: string): Promise<void> {
    await this.client.publish(this.prefix + 'bus', envelope);
  }

  async subscribe(receive: (envelope: string) => void): Promise<void> {
    const subscriber = this.client.duplicate();
    subscriber.on('error', (error) => this.log?.(`Redis (bus): ${error.message}`));
    await subscriber.connect();
    this.subscriber = subscriber;
    await subscriber.subscribe(this.prefix + 'bus', receive);
  }

  async post(taskId: string, text: string, ttlMs: number): Promise<void> {
    const key = this.prefix + 'task-mail:' + taskId;
    await this.client
      .multi()
      .rPush(key, text)
      .pExpire(key, Math.max(1, Math.floor(ttlMs)))
      .exec();
  }

  async take(taskId: string): Promise<string[]> {
    const key = this.prefix + 'task-mail:' + taskId;
    // One transaction: a message posted meanwhile is either taken now or left for the next take.
    const [messages] = await this.client.multi().lRange(key, 0, -1).del(key).exec();
    return Array.isArray(messages) ? messages.map(String) : [];
  }

  /** Closes the subscriber connection. */
  async close(): Promise<void> {
    const subscriber = this.subscriber;
    this.subscriber = undefined;
    await (subscriber?.close?.() ?? subscriber?.quit?.());
  }
}
