/**
 * Session and event stores on Redis, so several server processes behind one load balancer serve
 * the same Streamable HTTP sessions: a session begun on one process is served by another, and a
 * stream cut on one is resumed on another with `Last-Event-ID`.
 *
 * Optional: the runtime never loads this file unless asked (`--redis <url>` or `MCP_REDIS_URL` in
 * the generated main.ts), and it loads the `redis` package (node-redis; tested with 6.3.1) only
 * then, from your project: `npm install redis@6.3.1`. The runtime itself keeps zero dependencies.
 *
 * Keys (all under `prefix`, default `mcp:`):
 * - `session:<id>`: the session's snapshot (JSON), expiring after the idle timeout;
 * - `events:<streamId>`: the stream's messages, a list; an event's id is `<streamId>:<position>`,
 *   so ids are unique per session (stream ids start with the session id) and need no index;
 * - `ended:<streamId>`: set once the stream's last event is stored.
 * Channel `stream:<streamId>`: each stored event as `<position>\n<message>`, then `end`. A process
 * that resumes a stream another one is still producing subscribes to it (on a second connection,
 * opened on first use) and relays what follows.
 */
import type { EventStore, StreamWatcher } from './transports/http/event-store.js';
import type { SessionSnapshot, SessionStore } from './transports/http/session-store.js';
import { RedisTaskStore } from './transports/http/redis-task-store.js';
import type { TaskStore } from './server/task-store.js';
import { openRedisClient, type RedisConnectionOptions } from './redis-connection.js';
import { DEFAULT_TASK_LEASE_MS, LeasedTaskStore } from './redis-lease.js';
import type { MessageBus } from './server/message-bus.js';
import { RedisMessageBus } from './redis-bus.js';

/** The part of a node-redis v5/v6 client these stores use. */
export interface RedisClient {
  connect(): Promise<unknown>;
  quit?(): Promise<unknown>;
  close?(): Promise<unknown>;
  get(key: string): Promise<string | null>;
  set(key: string, value: string, options: { PX: number }): Promise<unknown>;
  del(key: string): Promise<number>;
  lRange(key: string, start: number, stop: number): Promise<string[]>;
  exists(key: string): Promise<number>;
  sMembers(key: string): Promise<string[]>;
  sRem(key: string, member: string): Promise<number>;
  publish(channel: string, message: string): Promise<unknown>;
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  evalSha(sha: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  multi(): RedisMulti;
  /** A second connection: a subscribed connection runs no other commands. */
  duplicate(): RedisClient;
  subscribe(channel: string, listener: (message: string) => void): Promise<unknown>;
  unsubscribe(channel: string, listener: (message: string) => void): Promise<unknown>;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

interface RedisMulti {
  rPush(key: string, value: string): RedisMulti;
  lRange(key: string, start: number, stop: number): RedisMulti;
  del(key: string): RedisMulti;
  pExpire(key: string, ms: number): RedisMulti;
  set(key: string, value: string, options: { PX: number }): RedisMulti;
  sAdd(key: string, member: string): RedisMulti;
  publish(channel: string, message: string): RedisMulti;
  exec(): Promise<unknown[]>;
}

export interface RedisStoreOptions extends RedisConnectionOptions {
  /** Key prefix; default `mcp:`. */
  prefix?: string;
  /** How long a stream's events are kept after its last event; default 1 hour. */
  eventTtlMs?: number;
  /** Where connection errors go. */
  log?: (line: string) => void;
  /**
   * How long a running task stays `working` without its process renewing its lease (redis-lease.ts);
   * default 15 s. A task whose process was killed is `failed` about this long after.
   */
  taskLeaseMs?: number;
}

export class RedisSessionStore implements SessionStore {
  private readonly client: RedisClient;
  private readonly prefix: string;
  /** No session affinity: client messages reach the process they are for (redis-bus.ts). */
  readonly bus: MessageBus | undefined;

  constructor(client: RedisClient, prefix = 'mcp:', bus?: MessageBus) {
    this.client = client;
    this.prefix = prefix;
    this.bus = bus;
  }

  async save(sessionId: string, snapshot: SessionSnapshot, ttlMs: number): Promise<void> {
    await this.client.set(this.prefix + 'session:' + sessionId, JSON.stringify(snapshot), {
      PX: Math.max(1, Math.floor(ttlMs)),
    });
  }

  async load(sessionId: string): Promise<SessionSnapshot | undefined> {
    const text = await this.client.get(this.prefix + 'session:' + sessionId);
    return text === null ? undefined : (JSON.parse(text) as SessionSnapshot);
  }

  async delete(sessionId: string): Promise<void> {
    await this.client.del(this.prefix + 'session:' + sessionId);
  }
}

export class RedisEventStore implements EventStore {
  private readonly client: RedisClient;
  private readonly prefix: string;
  private readonly ttlMs: number;
  private readonly log: ((line: string) => void) | undefined;
  private subscriber: Promise<RedisClient> | undefined = undefined;

  constructor(client: RedisClient, options: RedisStoreOptions = {}) {
    this.client = client;
    this.prefix = options.prefix ?? 'mcp:';
    this.ttlMs = options.eventTtlMs ?? 60 * 60 * 1000;
    this.log = options.log;
  }

  async storeEvent(streamId: string, message: string): Promise<string> {
    const key = this.prefix + 'events:' + streamId;
    const [length] = await this.client.multi().rPush(key, message).pExpire(key, this.ttlMs).exec();
    // Published after the position is known; one connection keeps the stream's events in order.
    await this.client.publish(this.prefix + 'stream:' + streamId, `${Number(length)}\n${message}`);
    return `${streamId}:${Number(length)}`;
  }

  async endStream(streamId: string): Promise<void> {
    await this.client
      .multi()
      .set(this.prefix + 'ended:' + streamId, '1', { PX: this.ttlMs })
      .publish(this.prefix + 'stream:' + streamId, 'end')
      .exec();
  }

  async watchStream(
    streamId: string,
    watcher: StreamWatcher,
  ): Promise<{ complete: boolean; stop(): void }> {
    const subscriber = await (this.subscriber ??= this.connectSubscriber());
    const channel = this.prefix + 'stream:' + streamId;
    const listener = (payload: string): void => {
      const newline = payload.indexOf('\n');
      if (newline === -1) watcher.ended();
      else watcher.event(`${streamId}:${payload.slice(0, newline)}`, payload.slice(newline + 1));
    };
    await subscriber.subscribe(channel, listener);
    // Checked once subscribed: an end stored before is seen here, one stored after arrives as `end`.
    const complete = (await this.client.exists(this.prefix + 'ended:' + streamId)) === 1;
    return {
      complete,
      stop: () => {
        subscriber
          .unsubscribe(channel, listener)
          .catch((error: unknown) => this.log?.(`Redis: ${String(error)}`));
      },
    };
  }

  /** Closes the subscriber connection, if one was opened. */
  async close(): Promise<void> {
    const subscriber = await this.subscriber?.catch(() => undefined);
    await (subscriber?.close?.() ?? subscriber?.quit?.());
  }

  private async connectSubscriber(): Promise<RedisClient> {
    const subscriber = this.client.duplicate();
    subscriber.on('error', (error) => this.log?.(`Redis (subscriber): ${error.message}`));
    await subscriber.connect();
    return subscriber;
  }

  async replayEventsAfter(
    lastEventId: string,
    send: (eventId: string, message: string) => void | Promise<void>,
  ): Promise<string | undefined> {
    const colon = lastEventId.lastIndexOf(':');
    const position = Number(lastEventId.slice(colon + 1));
    if (colon <= 0 || !Number.isSafeInteger(position) || position < 1) return undefined;
    const streamId = lastEventId.slice(0, colon);
    // Position p is list index p - 1: everything after it starts at index p.
    const events = await this.client.lRange(this.prefix + 'events:' + streamId, position - 1, -1);
    if (events.length === 0) return undefined;
    for (let i = 1; i < events.length; i++) await send(`${streamId}:${position + i}`, events[i]!);
    return streamId;
  }
}

/**
 * Connects to Redis and returns the stores (the session store carries the message bus of
 * redis-bus.ts), ready for `listenHttp({ ...stores })`, and `close`.
 * The `redis` package is loaded from the application's own dependencies.
 */
export async function connectRedisStores(
  url: string,
  options: RedisStoreOptions & { log?: (line: string) => void } = {},
): Promise<{
  sessionStore: SessionStore;
  eventStore: EventStore;
  taskStore: TaskStore;
  close(): Promise<void>;
}> {
  // Unreachable: rejects with one line naming the URL; later faults are bounded (redis-connection.ts).
  const client = (await openRedisClient(url, options)) as RedisClient;
  const eventStore = new RedisEventStore(client, options);
  const bus = new RedisMessageBus(client, options.prefix, options.log);
  return {
    sessionStore: new RedisSessionStore(client, options.prefix, bus),
    eventStore,
    taskStore: new LeasedTaskStore(
      new RedisTaskStore(client, options.prefix),
      client,
      options.taskLeaseMs ?? DEFAULT_TASK_LEASE_MS,
      options.prefix,
    ),
    close: async () => {
      await eventStore.close();
      await bus.close();
      await (client.close?.() ?? client.quit?.());
    },
  };
}
