/**
 * Issue 27 item 5: an app waiting on a long task prints no warning. One AbortSignal is shared by
 * 32 tool calls in flight and by a task whose result is polled hundreds of times (the server asks
 * for a 1 ms poll interval and the client caps its back-off at 2 ms, so the real polling loop runs
 * hundreds of times in about a second instead of a minute at the default intervals); no
 * `process.on('warning')` event may fire (each poll once added an `abort` listener that stayed:
 * Node's MaxListenersExceededWarning past ten). Over stdio and Streamable HTTP, in both eras.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { callTool, openSession, startToolTask, type ClientSession } from '../../src/runtime/client/index.js';
import { repoRoot } from './support.js';

const server = join(repoRoot, 'test/client/fixtures/task-poll-server.mjs');
const POLLS = 300;

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill();
});

/** Starts the fixture over HTTP and resolves with its URL. */
function httpServer(): Promise<string> {
  const child = spawn(process.execPath, [server, '--http'], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      out += chunk;
      if (out.includes('\n')) resolve(out.trim());
    });
    child.once('exit', (code) => reject(new Error(`the server exited (${code}) before listening`)));
  });
}

describe.each([
  ['stdio', '2025-11-25'],
  ['stdio', '2026-07-28'],
  ['http', '2025-11-25'],
  ['http', '2026-07-28'],
] as const)('over %s at %s', (transport, era) => {
  it(`${POLLS}+ polls of one task beside 32 calls in flight, all on one signal: no process warning`, async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error): void => void warnings.push(warning);
    process.on('warning', onWarning);
    let session: ClientSession | undefined;
    try {
      const location = transport === 'http' ? { url: await httpServer() } : { command: process.execPath, args: [server], stderr: 'inherit' as const };
      session = await openSession({ ...location, protocolVersions: [era] });
      expect(session.server.protocolVersion).toBe(era);
      // Count the polls the task makes.
      let polls = 0;
      const send = session.request.bind(session);
      session.request = (method, params, options) => {
        if (method === 'tasks/get') polls++;
        return send(method, params, options);
      };
      const signal = new AbortController().signal;
      const calls = Array.from({ length: 32 }, () => callTool(session!, { name: 'hold' }, {}, { signal }));
      const handle = await startToolTask(session, { name: 'long_task' }, {}, { signal, maxPollIntervalMs: 2 });
      expect(handle.taskId).not.toBe('');
      const result = handle.result({ signal });
      for (const deadline = Date.now() + 60_000; polls < POLLS; await new Promise((resolve) => setTimeout(resolve, 20))) {
        if (Date.now() > deadline) throw new Error(`only ${polls} polls in 60 s`);
      }
      await callTool(session, { name: 'finish' }, {});
      expect(await result).toMatchObject({ content: [{ type: 'text', text: 'done' }] });
      expect((await Promise.all(calls)).length).toBe(32);
      expect(polls).toBeGreaterThanOrEqual(POLLS);
      // process.emitWarning delivers on a later tick.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(warnings.map((w) => `${w.name}: ${w.message}`)).toEqual([]);
    } finally {
      process.off('warning', onWarning);
      await session?.close();
    }
  }, 90_000);
});
