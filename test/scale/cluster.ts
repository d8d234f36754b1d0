/**
 * Three processes of the scale fixture server (test/fixtures/scale) sharing one real redis-server,
 * behind a proxy that never sends two consecutive requests of a session to the same process (the
 * worst case of a load balancer without session affinity). Each process's log is kept.
 */
import type { ChildProcess } from 'node:child_process';
import { cpSync, readdirSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { join } from 'node:path';
import { build, loadModel, plan, repoRoot, startHttpServer, tempDir, write } from '../server/support.js';
import { startRedis } from '../support/redis.js';

const fixture = join(repoRoot, 'test', 'fixtures', 'scale');

/** Generates the fixture server as a user would, puts its handlers in place and builds it; returns main.js. */
export async function buildFixture(work: string): Promise<string> {
  const manifest = join(fixture, 'manifest.yaml');
  const project = join(work, 'server');
  await write(project, await plan(await loadModel(manifest)), manifest);
  for (const file of readdirSync(join(fixture, 'handlers'))) {
    cpSync(join(fixture, 'handlers', file), join(project, 'handlers', 'tools', file));
  }
  // Built inside the project, whose node_modules links to the repository's (the redis package).
  return build(project, join(project, 'build'));
}

export interface Cluster {
  /** The processes' endpoints. */
  readonly servers: URL[];
  /** What each process logged so far. */
  readonly logs: string[];
  readonly redisUrl: string;
}

export async function startCluster(main: string, running: ChildProcess[], count = 3): Promise<Cluster> {
  const redisUrl = await startRedis(running);
  const logs = Array.from({ length: count }, () => '');
  const env = { ...process.env, MCP_STATE_SECRET: 'one secret for the whole cluster' };
  const servers = await Promise.all(
    logs.map((_, i) => startHttpServer(main, running, ['--redis', redisUrl], env, (text) => (logs[i] += text))),
  );
  return { servers, logs, redisUrl };
}

export interface Proxy {
  readonly url: string;
  /** Which process served each request: method (from Mcp-Method, or the HTTP method) and index. */
  readonly served: { method: string; session: string; by: number }[];
  close(): Promise<void>;
}

/**
 * Round robin per session: a session's next request goes to the process after the one its last
 * request went to, so no two consecutive requests of a session meet the same process. Requests
 * without a session (initialize, 2026-07-28) rotate on their own counter.
 */
export async function roundRobinProxy(servers: readonly URL[]): Promise<Proxy> {
  const served: { method: string; session: string; by: number }[] = [];
  const last = new Map<string, number>();
  const server: Server = createServer((incoming, outgoing) => {
    const session = String(incoming.headers['mcp-session-id'] ?? '');
    const by = ((last.get(session) ?? -1) + 1) % servers.length;
    last.set(session, by);
    const target = servers[by]!;
    served.push({ method: String(incoming.headers['mcp-method'] ?? incoming.method), session, by });
    const forwarded = httpRequest(target, { method: incoming.method, headers: { ...incoming.headers, host: target.host } }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    });
    forwarded.on('error', () => outgoing.destroy());
    outgoing.on('close', () => forwarded.destroy());
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    served,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export { tempDir };
