/**
 * Faults end cleanly, nothing hangs: real processes of the generated conformance server sharing a
 * real redis-server (`--redis`), with our client.
 *
 * - Redis unreachable at start: exit 3 with one line naming the URL (its password hidden).
 * - SIGKILL during a plain call: the call rejects at once, without a timeout; the other process serves on.
 * - SIGKILL of the process running a task: once its lease lapses (MCP_TASK_LEASE_MS), the task is
 *   `failed` with a message saying its process stopped, for a client polling another process, in
 *   both eras, and `result()` rejects with it.
 * - Redis stopped while sessions and tasks exist: what needs Redis fails with a clear error at once,
 *   no process exits, and once Redis is back new calls and tasks work.
 * - Redis paused (SIGSTOP): a request that waits on it is answered within the command bound.
 * - SIGTERM: the process takes no new requests, lets the call in flight finish, fails the task it
 *   runs at the drain deadline (MCP_DRAIN_MS), and exits 0.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConnectionClosedError, McpError, openSession, startToolTask, TASKS_EXTENSION, type ClientSession } from '../../src/runtime/client/index.js';
import { repoRoot, startHttpServer } from '../server/support.js';
import { freePort, startRedis } from '../support/redis.js';

const running: ChildProcess[] = [];
const project = join(repoRoot, 'examples', 'conformance', 'server');
const main = join(project, 'build', 'main.js');
const LEASE_MESSAGE = 'The server process running this task stopped before it finished (its lease expired)';
const DRAIN_MESSAGE = 'The server process stopped (it was shut down) before the task finished';
const env = { ...process.env, MCP_TASK_LEASE_MS: '1500', MCP_DRAIN_MS: '1500' };

let redisPort = 0;
let redisUrl = '';
let redis: ChildProcess | undefined;

/** redis-server on `redisPort`, without persistence: a restart forgets everything, the worst case. */
async function startRedisOnPort(): Promise<void> {
  await startRedis(running, redisPort);
  redis = running.at(-1);
}

async function stopRedis(): Promise<void> {
  const child = redis!;
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill('SIGKILL');
  });
}

/** A server process on the shared Redis; `log` collects what it writes on stderr. */
async function startProcess(extraEnv: NodeJS.ProcessEnv = {}): Promise<{ url: URL; child: ChildProcess; log: () => string }> {
  let text = '';
  const url = await startHttpServer(main, running, ['--redis', redisUrl], { ...env, ...extraEnv }, (chunk) => (text += chunk));
  return { url, child: running.at(-1)!, log: () => text };
}

function kill(child: ChildProcess, signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve({ code: child.exitCode, signal: child.signalCode });
    child.once('exit', (code, sig) => resolve({ code, signal: sig }));
    child.kill(signal);
  });
}

/** A proxy in front of one process at a time, like a load balancer whose target died: `to` switches it. */
async function switchingProxy(first: URL): Promise<{ url: string; to(target: URL): void; close(): Promise<void> }> {
  let target = first;
  const server: Server = createServer((incoming, outgoing) => {
    const forwarded = httpRequest(target, { method: incoming.method, headers: { ...incoming.headers, host: target.host } }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
      // A backend that dies mid-answer: the client's connection breaks too, as a load balancer's does.
      answer.on('error', () => outgoing.destroy());
      answer.on('aborted', () => outgoing.destroy());
    });
    forwarded.on('error', () => outgoing.destroy());
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    to: (next) => (target = next),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function settle<T>(promise: Promise<T>): Promise<{ value?: T; error?: unknown; ms: number }> {
  const started = Date.now();
  try {
    return { value: await promise, ms: Date.now() - started };
  } catch (error) {
    return { error, ms: Date.now() - started };
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ERAS = ['2025-11-25', '2026-07-28'];
/** slow_compute as a plain call; asked for progress, its answer streams (SSE) from its first report. */
const slow = (session: ClientSession, seconds: number, label: string, options: { timeoutMs?: number; onProgress?: () => void } = {}) =>
  session.request('tools/call', { name: 'slow_compute', arguments: { seconds, label } }, options);

let b: { url: URL; child: ChildProcess; log: () => string };

beforeAll(async () => {
  const tsc = spawnSync(process.execPath, [join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '-b', project], { encoding: 'utf8' });
  expect(tsc.stdout + tsc.stderr).toBe('');
  redisPort = await freePort();
  redisUrl = `redis://127.0.0.1:${redisPort}`;
  await startRedisOnPort();
  b = await startProcess();
}, 300_000);

afterAll(() => {
  for (const child of running.reverse()) child.kill('SIGKILL');
});

describe('faults with --redis', () => {
  it('Redis unreachable at start: exit 3 with one line naming the URL, its password hidden', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, [main, '--http', '--port', '0', '--redis', `redis://user:s3cret@127.0.0.1:${port}`], { stdio: ['ignore', 'pipe', 'pipe'] });
    running.push(child);
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const started = Date.now();
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code).toBe(3);
    expect(Date.now() - started).toBeLessThan(10_000);
    const lines = stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^Redis at redis://user:\\*\\*\\*@127\\.0\\.0\\.1:${port} is unreachable: .*ECONNREFUSED`));
    expect(stderr).not.toContain('s3cret');
  }, 20_000);

  it.each(ERAS)('%s: SIGKILL during a plain call rejects it at once, with or without a timeout; the other process serves on', async (era) => {
    const a = await startProcess();
    const proxy = await switchingProxy(a.url);
    const session = await openSession({ url: proxy.url, protocolVersions: [era] });
    try {
      let reports = 0;
      const onProgress = () => reports++;
      const untimed = settle(slow(session, 30, 'untimed', { onProgress }));
      const timed = settle(slow(session, 30, 'timed', { timeoutMs: 60_000, onProgress }));
      const answeringNothingYet = settle(slow(session, 30, 'json'));
      await sleep(500);
      // Both streams have started (a progress report each) when the process dies.
      expect(reports).toBe(2);
      const killedAt = Date.now();
      await kill(a.child, 'SIGKILL');
      for (const call of [await untimed, await timed]) {
        expect(call.error).toBeInstanceOf(ConnectionClosedError);
        expect((call.error as Error).message).toMatch(/closed before the answer/);
      }
      expect((await answeringNothingYet).error).toBeInstanceOf(Error);
      expect(Date.now() - killedAt).toBeLessThan(1000);
      // The same session on the other process (2025-11-25: its snapshot is in Redis).
      proxy.to(b.url);
      expect(await slow(session, 0, 'after')).toMatchObject({ content: [{ text: 'Computed after in 0s' }] });
    } finally {
      await session.close();
      await proxy.close();
    }
  }, 30_000);

  it.each(ERAS)('%s: SIGKILL of the process running a task: failed with a message once its lease lapses, polled on another process', async (era) => {
    const a = await startProcess();
    const proxy = await switchingProxy(a.url);
    const session = await openSession({ url: proxy.url, protocolVersions: [era] });
    try {
      const handle = await startToolTask(session, { name: 'slow_compute' }, { seconds: 60, label: `killed-${era}` });
      expect((await handle.status()).status).toBe('working');
      await kill(a.child, 'SIGKILL');
      proxy.to(b.url);
      const killedAt = Date.now();
      // Right after the kill the lease still runs: working.
      expect((await handle.status()).status).toBe('working');
      const { error, ms } = await settle(handle.result());
      expect(error).toBeInstanceOf(McpError);
      expect((error as Error).message).toContain(LEASE_MESSAGE);
      expect(Date.now() - killedAt).toBeLessThan(6000);
      expect(ms).toBeGreaterThan(500);
      const status = await handle.status();
      expect(status).toMatchObject({ status: 'failed', statusMessage: LEASE_MESSAGE });
    } finally {
      await session.close();
      await proxy.close();
    }
  }, 30_000);

  it('a task running on a live process keeps its lease well past the lease time', async () => {
    const session = await openSession({ url: b.url.href, protocolVersions: ['2026-07-28'] });
    try {
      const handle = await startToolTask(session, { name: 'slow_compute' }, { seconds: 4, label: 'held' });
      await sleep(3000);
      expect((await handle.status()).status).toBe('working');
      expect(await handle.result()).toMatchObject({ content: [{ text: 'Computed held in 4s' }] });
    } finally {
      await session.close();
    }
  }, 30_000);

  it('Redis restarted mid-run: clear errors at once while it is down, no process exits, everything works once it is back', async () => {
    const stateful = await openSession({ url: b.url.href, protocolVersions: ['2025-11-25'] });
    const stateless = await openSession({ url: b.url.href, protocolVersions: ['2026-07-28'], extensions: { [TASKS_EXTENSION]: {} } });
    try {
      const before = await startToolTask(stateless, { name: 'slow_compute' }, { seconds: 0.2, label: 'before' });
      await stopRedis();
      // A new task needs the store: refused with a clear error, at once.
      const during = await settle(startToolTask(stateless, { name: 'slow_compute' }, { seconds: 1, label: 'during' }));
      expect((during.error as Error).message).toMatch(/task could not be stored/);
      expect(during.ms).toBeLessThan(1000);
      // A task only the store knows (any process may have run it): its status needs Redis.
      const polled = await settle(stateless.request('tasks/get', { taskId: randomUUID() }, {}));
      expect((polled.error as Error).message).toMatch(/task store could not be read/);
      expect(polled.ms).toBeLessThan(1000);
      // The task this process runs is answered from its own view, which is what the store held.
      expect((await before.status()).status).toBe('working');
      // What needs no Redis is still served.
      expect(await slow(stateless, 0, 'no-redis')).toMatchObject({ content: [{ text: 'Computed no-redis in 0s' }] });
      expect(b.child.exitCode).toBeNull();
      expect(b.log()).toMatch(/Redis at redis:\/\/127\.0\.0\.1:\d+: connection lost/);

      await startRedisOnPort();
      // Reconnects within its backoff (at most 2 s between attempts).
      const deadline = Date.now() + 8000;
      let after: Awaited<ReturnType<typeof startToolTask>> | undefined;
      while (after === undefined && Date.now() < deadline) {
        after = await startToolTask(stateless, { name: 'slow_compute' }, { seconds: 0.2, label: 'after' }).catch(() => undefined);
        if (after === undefined) await sleep(200);
      }
      expect(after).toBeDefined();
      expect(await after!.result()).toMatchObject({ content: [{ text: 'Computed after in 0.2s' }] });
      expect(b.log()).toMatch(/connected again/);
      // The stateful session was forgotten with Redis's data: the client starts a new one and goes on.
      const task = await startToolTask(stateful, { name: 'slow_compute' }, { seconds: 0.2, label: 'stateful-after' });
      expect(await task.result()).toMatchObject({ content: [{ text: 'Computed stateful-after in 0.2s' }] });
      expect(b.child.exitCode).toBeNull();
    } finally {
      await stateful.close();
      await stateless.close();
    }
  }, 30_000);

  it('Redis paused (SIGSTOP): a request waiting on it is answered with an error within the command bound', async () => {
    const session = await openSession({ url: b.url.href, protocolVersions: ['2026-07-28'], extensions: { [TASKS_EXTENSION]: {} } });
    const task = await startToolTask(session, { name: 'slow_compute' }, { seconds: 0.2, label: 'paused' });
    redis!.kill('SIGSTOP');
    try {
      // A task only the store knows: the process must ask Redis (its own running task it answers itself).
      const polled = await settle(session.request('tasks/get', { taskId: randomUUID() }, {}));
      expect((polled.error as Error).message).toMatch(/task store could not be read/);
      // The bound is 5 s (redis-connection.ts); never the length of the pause.
      expect(polled.ms).toBeGreaterThan(4000);
      expect(polled.ms).toBeLessThan(7000);
      expect(b.log()).toMatch(/Redis did not answer get within 5000 ms/);
    } finally {
      redis!.kill('SIGCONT');
    }
    expect(await task.result()).toMatchObject({ content: [{ text: 'Computed paused in 0.2s' }] });
    expect(b.child.exitCode).toBeNull();
    await session.close();
  }, 30_000);

  it('SIGTERM drains: no new requests, the call in flight finishes, the task left is failed at the deadline, exit 0', async () => {
    const c = await startProcess();
    const session = await openSession({ url: c.url.href, protocolVersions: ['2025-11-25'] });
    const stateless = await openSession({ url: c.url.href, protocolVersions: ['2026-07-28'] });
    const task = await startToolTask(stateless, { name: 'slow_compute' }, { seconds: 30, label: 'drained' });
    const inFlight = settle(slow(session, 1, 'in-flight'));
    await sleep(200);
    const exited = kill(c.child, 'SIGTERM');
    await sleep(200);
    // No new requests: the listener is closed (or a kept-alive connection gets 503).
    const refused = await settle(slow(stateless, 0, 'refused'));
    expect(refused.error).toBeInstanceOf(Error);
    const call = await inFlight;
    expect(call.value).toMatchObject({ content: [{ text: 'Computed in-flight in 1s' }] });
    const { code, signal } = await exited;
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(c.log()).toContain('SIGTERM: draining');
    // The task it held is failed, as any other process now says.
    const onB = await openSession({ url: b.url.href, protocolVersions: ['2026-07-28'], extensions: { [TASKS_EXTENSION]: {} } });
    const polled = await onB.request('tasks/get', { taskId: task.taskId }, {});
    expect(polled).toMatchObject({ status: 'failed', statusMessage: DRAIN_MESSAGE });
    await Promise.all([onB.close(), session.close().catch(() => {}), stateless.close().catch(() => {})]);
  }, 30_000);

  it('no call in flight hangs past the drain deadline: it rejects as the process goes', async () => {
    const c = await startProcess();
    const session = await openSession({ url: c.url.href, protocolVersions: ['2025-11-25'] });
    const long = settle(slow(session, 30, 'too-long'));
    await sleep(200);
    const started = Date.now();
    const exited = kill(c.child, 'SIGTERM');
    const { error } = await long;
    expect(error).toBeInstanceOf(ConnectionClosedError);
    expect(Date.now() - started).toBeLessThan(4000);
    expect((await exited).code).toBe(0);
    await session.close().catch(() => {});
  }, 30_000);
});
