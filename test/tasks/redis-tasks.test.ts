/**
 * Tasks across processes: two processes of the generated conformance server share one real
 * redis-server (`--redis`). A task started on A is polled on B until it completes; a task
 * cancelled through B stays cancelled when A's handler finishes, and A aborts that handler
 * (`context.signal`) within a poll interval. Our client, through a proxy that sends each request
 * of a session to the other process in turn, runs a task in both eras: started on one, polled on both.
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSession, startToolTask } from '../../src/runtime/client/index.js';
import { repoRoot, startHttpServer } from '../server/support.js';
import { startRedis } from '../support/redis.js';
import { roundRobinProxy } from '../scale/cluster.js';

const running: ChildProcess[] = [];
const project = join(repoRoot, 'examples', 'conformance', 'server');
const main = join(project, 'build', 'main.js');
const EXTENSION = 'io.modelcontextprotocol/tasks';
let a: URL;
let b: URL;
/** What process A has logged so far. */
let logOfA = '';

beforeAll(async () => {
  const tsc = spawnSync(process.execPath, [join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '-b', project], { encoding: 'utf8' });
  expect(tsc.stdout + tsc.stderr).toBe('');
  const url = await startRedis(running);
  [a, b] = await Promise.all([
    startHttpServer(main, running, ['--redis', url], process.env, (text) => (logOfA += text)),
    startHttpServer(main, running, ['--redis', url]),
  ]);
}, 300_000);

afterAll(() => {
  for (const child of running.reverse()) child.kill();
});

/** The shared round-robin proxy over A and B (a session's requests alternate); `by` names the process. */
async function alternatingProxy(): Promise<{ url: string; served: { method: string; by: 'A' | 'B' }[]; close(): Promise<void> }> {
  const proxy = await roundRobinProxy([a, b]);
  return {
    url: proxy.url,
    get served() {
      return proxy.served.map((entry) => ({ method: entry.method, by: entry.by === 0 ? ('A' as const) : ('B' as const) }));
    },
    close: () => proxy.close(),
  };
}

let nextId = 1;

/** One 2026-07-28 request declaring the tasks extension, with the headers the revision requires. */
async function call(url: URL, method: string, params: Record<string, unknown>): Promise<Record<string, any>> {
  const name = (params['name'] ?? params['taskId']) as string | undefined;
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(name === undefined ? {} : { 'mcp-name': name }),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: nextId++,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': { extensions: { [EXTENSION]: {} } },
          'io.modelcontextprotocol/clientInfo': { name: 'redis-tasks', version: '1' },
        },
      },
    }),
  });
  const text = await response.text();
  const json = text.startsWith('{') ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? text);
  return JSON.parse(json) as Record<string, any>;
}

async function pollUntil(url: URL, taskId: string, done: (status: string, task: Record<string, any>) => boolean): Promise<Record<string, any>> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const task = (await call(url, 'tasks/get', { taskId }))['result'];
    if (done(task['status'], task)) return task;
    if (Date.now() > deadline) throw new Error(`task ${taskId} stayed ${task['status']}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('tasks with --redis on two processes', () => {
  it('B answers tasks/get for a task A runs, through to its inlined result', async () => {
    const created = (await call(a, 'tools/call', { name: 'slow_compute', arguments: { seconds: 1, label: 'shared' } }))['result'];
    expect(created).toMatchObject({ resultType: 'task', status: 'working' });
    expect((await call(b, 'tasks/get', { taskId: created.taskId }))['result']).toMatchObject({ taskId: created.taskId, status: 'working' });
    const done = await pollUntil(b, created.taskId, (s) => s === 'completed');
    expect(done['result']['content'][0]['text']).toBe('Computed shared in 1s');
  });

  it('a cancel sent to B is recorded, and A’s handler finishing later does not overwrite it', async () => {
    const { taskId } = (await call(a, 'tools/call', { name: 'slow_compute', arguments: { seconds: 1, label: 'cancelled' } }))['result'];
    expect((await call(b, 'tasks/cancel', { taskId }))['result']['resultType']).toBe('complete');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await call(a, 'tasks/get', { taskId }))['result']['status']).toBe('cancelled');
    expect((await call(b, 'tasks/get', { taskId }))['result']['status']).toBe('cancelled');
  });

  it('a cancel sent to B aborts the handler running on A (its signal), within about a poll interval', async () => {
    const label = `cross-process-${Date.now()}`;
    const { taskId } = (await call(a, 'tools/call', { name: 'slow_compute', arguments: { seconds: 30, label } }))['result'];
    expect((await call(b, 'tasks/cancel', { taskId }))['result']['resultType']).toBe('complete');
    // slow_compute logs when its signal cuts its wait short; A checks its running tasks every 500 ms.
    const deadline = Date.now() + 5_000;
    while (!logOfA.includes(`slow_compute ${label}: stopped early`) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(logOfA).toContain(`slow_compute ${label}: stopped early`);
    expect((await call(a, 'tasks/get', { taskId }))['result']['status']).toBe('cancelled');
  });

  it.each(['2026-07-28', '2025-11-25'])('our client at %s: a task started on one process is polled on both and its result fetched', async (era) => {
    const proxy = await alternatingProxy();
    const session = await openSession({ url: proxy.url, protocolVersions: [era] });
    try {
      const label = `alternating-${era}`;
      const handle = await startToolTask(session, { name: 'slow_compute' }, { seconds: 1, label });
      expect((await handle.status()).status).toBe('working');
      expect((await handle.status()).status).toBe('working');
      expect(await handle.result()).toMatchObject({ content: [{ type: 'text', text: `Computed ${label} in 1s` }] });
      expect((await handle.status()).status).toBe('completed');
      const reads = proxy.served.filter((entry) => entry.method === 'tasks/get' || entry.method === 'tasks/result');
      expect(new Set(reads.map((entry) => entry.by))).toEqual(new Set(['A', 'B']));
    } finally {
      await session.close();
      await proxy.close();
    }
  });

  it('2026-07-28: the status message the handler on A sets is what B answers, as it changes, and is gone once completed', async () => {
    const label = `status-${Date.now()}`;
    const created = (await call(a, 'tools/call', { name: 'slow_compute', arguments: { seconds: 2, label } }))['result'];
    expect(created).toMatchObject({ resultType: 'task', status: 'working', statusMessage: `Computing ${label}` });
    expect((await call(b, 'tasks/get', { taskId: created.taskId }))['result']['statusMessage']).toBe(`Computing ${label}`);
    const halfway = await pollUntil(b, created.taskId, (_status, task) => task['statusMessage'] !== `Computing ${label}`);
    expect(halfway).toMatchObject({ status: 'working', statusMessage: `Computing ${label}: half done` });
    const done = await pollUntil(b, created.taskId, (s) => s === 'completed');
    expect(done).not.toHaveProperty('statusMessage');
  });

  it('2025-11-25, our client through the alternating proxy: each process shows the message the handler set', async () => {
    const proxy = await alternatingProxy();
    const session = await openSession({ url: proxy.url, protocolVersions: ['2025-11-25'] });
    try {
      const label = `status-stateful-${Date.now()}`;
      const handle = await startToolTask(session, { name: 'slow_compute' }, { seconds: 2, label });
      const seen: string[] = [];
      const deadline = Date.now() + 10_000;
      while (!seen.includes(`Computing ${label}: half done`) && Date.now() < deadline) {
        const status = await handle.status();
        if (status.statusMessage !== undefined && !seen.includes(status.statusMessage)) seen.push(status.statusMessage);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(seen).toEqual([`Computing ${label}`, `Computing ${label}: half done`]);
      const reads = proxy.served.filter((entry) => entry.method === 'tasks/get');
      expect(new Set(reads.map((entry) => entry.by))).toEqual(new Set(['A', 'B']));
      await handle.result();
    } finally {
      await session.close();
      await proxy.close();
    }
  });

  it('an unknown task id is -32602 on either process', async () => {
    expect((await call(b, 'tasks/get', { taskId: 'not-a-task' }))['error']['code']).toBe(-32602);
  });
});
