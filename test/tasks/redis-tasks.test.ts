/**
 * Tasks across processes: two processes of the generated conformance server share one real
 * redis-server (`--redis`). A task started on A is polled on B until it completes; a task
 * cancelled through B stays cancelled when A's handler finishes.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findBinary } from '../../scripts/system-packages.mjs';
import { repoRoot, startHttpServer } from '../server/support.js';

const REDIS = findBinary('redis-server');
const running: ChildProcess[] = [];
const project = join(repoRoot, 'examples', 'conformance', 'server');
const main = join(project, 'build', 'main.js');
const EXTENSION = 'io.modelcontextprotocol/tasks';
let a: URL;
let b: URL;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

beforeAll(async () => {
  if (REDIS === undefined) throw new Error('redis-server is not installed: `npm test` installs it (scripts/system-packages.mjs); run that first');
  const tsc = spawnSync(process.execPath, [join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '-b', project], { encoding: 'utf8' });
  expect(tsc.stdout + tsc.stderr).toBe('');
  const port = await freePort();
  const redis = spawn(REDIS, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
  running.push(redis);
  await new Promise<void>((resolve, reject) => {
    let out = '';
    redis.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('Ready to accept connections')) resolve();
    });
    redis.on('exit', (code) => reject(new Error(`redis-server exited (${code}): ${out}`)));
  });
  const url = `redis://127.0.0.1:${port}`;
  [a, b] = await Promise.all([startHttpServer(main, running, ['--redis', url]), startHttpServer(main, running, ['--redis', url])]);
}, 300_000);

afterAll(() => {
  for (const child of running.reverse()) child.kill();
});

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

async function pollUntil(url: URL, taskId: string, done: (status: string) => boolean): Promise<Record<string, any>> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const task = (await call(url, 'tasks/get', { taskId }))['result'];
    if (done(task['status'])) return task;
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

  it('an unknown task id is -32602 on either process', async () => {
    expect((await call(b, 'tasks/get', { taskId: 'not-a-task' }))['error']['code']).toBe(-32602);
  });
});
