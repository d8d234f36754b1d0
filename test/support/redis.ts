/**
 * A real redis-server for tests that share state between server processes: started on a free
 * loopback port without persistence, stopped with the test file's other children. `npm run test:all`
 * installs Debian's redis-server first when it is missing (scripts/system-packages.mjs). The soak and
 * the benchmarks start theirs with the same helper (scripts/redis-server.mjs).
 */
import type { ChildProcess } from 'node:child_process';
import { freePort, startRedisServer } from '../../scripts/redis-server.mjs';

export { freePort };

/**
 * Starts redis-server (pushed on `running`, to be killed after the servers using it) and returns its
 * URL; on `port` when given (a test that restarts Redis where its servers expect it).
 */
export async function startRedis(running: ChildProcess[], port?: number): Promise<string> {
  const { child, url } = await startRedisServer(port);
  running.push(child);
  return url;
}
