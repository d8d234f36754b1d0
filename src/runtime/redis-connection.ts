/**
 * The Redis connection of `--redis`, made so that no fault hangs or kills a server process:
 *
 * - Unreachable at start: `openRedisClient` gives up after `connectTimeoutMs` (default 5 s) and
 *   rejects with one line naming the URL (its password hidden); the generated main.ts prints it and
 *   exits 3.
 * - Lost later (Redis restarted, the network cut): the client reconnects, backing off (each wait
 *   twice the last, up to 2 s), for as long as it takes; the process keeps serving what needs
 *   no Redis. Meanwhile every command fails at once (no offline queue), so a request that needs
 *   Redis is answered with an error instead of waiting. The outage and the recovery are each logged
 *   once, not once per retry.
 * - Slow (a long `DEBUG SLEEP`, a paused process, a saturated link): every command, and every
 *   MULTI, rejects after `commandTimeoutMs` (default 5 s), so no wait is longer than that.
 *
 * The `redis` package (node-redis) is loaded from the application's own dependencies.
 */
export interface RedisConnectionOptions {
  /** How long the first connection may take before the process gives up; default 5000 ms. */
  connectTimeoutMs?: number;
  /** How long any command may wait for Redis's answer; default 5000 ms. */
  commandTimeoutMs?: number;
  /** Where the outage and recovery lines go. */
  log?: (line: string) => void;
}

/** The little of a node-redis client this module touches; redis-store.ts knows the rest. */
interface ConnectingClient {
  connect(): Promise<unknown>;
  on(event: 'ready' | 'error', listener: (error: Error) => void): unknown;
}

interface NodeRedis {
  createClient(options: object): ConnectingClient;
}

/** The URL as it may be logged: a password in it is replaced by `***`. */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString().replace(/\/$/, '');
  } catch {
    return url;
  }
}

/** Connects, or rejects with one line naming the URL once `connectTimeoutMs` has passed. */
export async function openRedisClient(
  url: string,
  options: RedisConnectionOptions = {},
): Promise<object> {
  // A computed specifier: the runtime type-checks and runs without the package installed.
  const packageName = 'redis';
  let redis: NodeRedis;
  try {
    redis = (await import(packageName)) as NodeRedis;
  } catch {
    throw new Error('--redis needs the redis package: npm install redis@6.3.1');
  }
  const where = redactedUrl(url);
  const connectTimeoutMs = options.connectTimeoutMs ?? 5000;
  const started = Date.now();
  let ready = false;
  let lastCause = '';
  const client = redis.createClient({
    url,
    // Offline, a command fails at once rather than waiting in a queue for a Redis that may not return.
    disableOfflineQueue: true,
    socket: {
      connectTimeout: connectTimeoutMs,
      reconnectStrategy: (retries: number, cause: Error): number | Error => {
        lastCause = cause.message || cause.name;
        if (!ready && Date.now() - started >= connectTimeoutMs)
          return new Error(`Redis at ${where} is unreachable: ${lastCause}`);
        return Math.min(100 * 2 ** Math.min(retries, 5), 2000);
      },
    },
  });
  let down = false;
  client.on('error', (error: Error) => {
    if (!ready || down) return;
    down = true;
    options.log?.(`Redis at ${where}: connection lost (${error.message}); reconnecting`);
  });
  client.on('ready', () => {
    if (down) options.log?.(`Redis at ${where}: connected again`);
    ready = true;
    down = false;
  });
  try {
    await client.connect();
  } catch (error) {
    const cause = error instanceof Error ? error.message : String(error);
    throw new Error(
      cause.startsWith('Redis at ') ? cause : `Redis at ${where} is unreachable: ${cause}`,
    );
  }
  return bounded(client, options.commandTimeoutMs ?? 5000);
}

/** Methods that are not commands: left as they are. */
const UNBOUNDED = new Set(['connect', 'on', 'off', 'once', 'removeListener']);

/**
 * The client with every command (and a MULTI's `exec`, and the same on `duplicate()`) rejecting
 * after `ms`: a Proxy, so whatever commands the stores use are covered without listing them.
 */
export function bounded<T extends object>(target: T, ms: number): T {
  const proxy: T = new Proxy(target, {
    get(object, key) {
      const value: unknown = Reflect.get(object, key, object);
      if (typeof value !== 'function' || typeof key !== 'string' || UNBOUNDED.has(key))
        return typeof value === 'function' ? value.bind(object) : value;
      return (...args: unknown[]): unknown => {
        const result: unknown = (value as (...a: unknown[]) => unknown).apply(object, args);
        // A MULTI chain returns itself; `multi()` and `duplicate()` return objects to bound too.
        if (result === object) return proxy;
        if (key === 'multi' || key === 'duplicate') return bounded(result as object, ms);
        return result instanceof Promise ? withTimeout(result, ms, key) : result;
      };
    },
  });
  return proxy;
}

function withTimeout<T>(promise: Promise<T>, ms: number, command: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new Error(`Redis did not answer ${command} within ${ms} ms`)),
      ms,
    );
  });
  // A late answer or failure of the command itself is dropped once the timeout has won.
  promise.catch(() => {});
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
