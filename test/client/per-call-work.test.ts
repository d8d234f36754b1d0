/**
 * The client's work per message and per call, counted rather than timed (counts hold on a loaded
 * machine): what bench/client.mjs measures as CPU against a raw client. Behaviour is covered
 * elsewhere (split/, calls.test.ts); these guard the cost.
 */
import { AsyncLocalStorage, createHook } from 'node:async_hooks';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { callTool, ClientSession } from '../../src/runtime/client/index.js';
import { StdioClientTransport } from '../../src/runtime/client/stdio.js';
import { StdioLines } from '../../src/runtime/client/stdio-lines.js';
import { repoRoot } from './support.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('stdio lines', () => {
  it('decodes each line once, when its LF arrives, however many chunks it came in', () => {
    const decode = vi.spyOn(TextDecoder.prototype, 'decode');
    const toString = vi.spyOn(Buffer.prototype, 'toString');
    const lines: string[] = [];
    const reader = new StdioLines((line) => lines.push(line));
    const text = '\uFEFF' + JSON.stringify({ jsonrpc: '2.0', id: 1, result: { text: 'é€😀'.repeat(200) } }) + '\n';
    const bytes = Buffer.from(text, 'utf8');
    // 100 chunks, most of them cutting a character in two.
    const step = Math.ceil(bytes.length / 100);
    for (let at = 0; at < bytes.length; at += step) reader.push(new Uint8Array(bytes.subarray(at, at + step)));
    reader.end();
    expect(lines).toEqual([text.slice(1, -1)]);
    expect(decode.mock.calls.length + toString.mock.calls.length).toBe(1);
  });
});

describe('a tool call over stdio', () => {
  it('makes at most 6 promises (14 before the call path and the stdio write were flattened) and no timer per sequential call with no options', async () => {
    // Only what the session makes is counted, by the context it runs in (its child's pipes inherit it):
    // the test runner shares the process, and a task update it sends inside the window (a throttled
    // timer, likelier the longer a loaded machine makes the window) is an RPC with a Timeout of its
    // own and a few promises (CI once counted 303 promises for 50 calls).
    const calls = new AsyncLocalStorage<true>();
    const made = new Map<string, number>();
    const hook = createHook({ init: (_id, type) => void (calls.getStore() === true && made.set(type, (made.get(type) ?? 0) + 1)) });
    const count = 50;
    await calls.run(true, async () => {
      const session = new ClientSession(
        new StdioClientTransport({ command: process.execPath, args: [join(repoRoot, 'bench/floor/server.mjs')], stderr: 'ignore' }),
        { protocolVersions: ['2025-11-25'] },
      );
      await session.connect();
      // The weather tool's output checked the way a generated client's validator checks it.
      const validateOutput = Object.assign((value: unknown): value is unknown => typeof value === 'object' && value !== null, { errors: null });
      const binding = { name: 'get_weather', validateOutput };
      const input = { location: 'Lisbon', units: 'celsius' };
      for (let i = 0; i < 20; i++) await callTool(session, binding, input);
      hook.enable();
      for (let i = 0; i < count; i++) await callTool(session, binding, input);
      hook.disable();
      await session.close();
    });
    expect(made.get('Timeout') ?? 0).toBe(0);
    // Six per call, and a few across the run that are not the calls' own. One more per call would add 50.
    expect(made.get('PROMISE') ?? 0).toBeLessThanOrEqual(6 * count + 5);
  });
});
