/**
 * The client's work per message and per call, counted rather than timed (counts hold on a loaded
 * machine): what bench/client.mjs measures as CPU against a raw client. Behaviour is covered
 * elsewhere (split/, calls.test.ts); these guard the cost.
 */
import { createHook } from 'node:async_hooks';
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
    const made = new Map<string, number>();

    const hook = createHook({ init: (_id, type) => void made.set(type, (made.get(type) ?? 0) + 1) });
    const calls = 50;
    hook.enable();
    for (let i = 0; i < calls; i++) await callTool(session, binding, input);
    hook.disable();
    await session.close();
    expect(made.get('Timeout') ?? 0).toBe(0);
    // Six per call, and a few across the run for promises the hook sees that are not the calls' own
    // (the test runner's own traffic shares the process: CI once counted 303 for 50 calls). One more
    // per call would add 50.
    expect(made.get('PROMISE') ?? 0).toBeLessThanOrEqual(6 * calls + 5);
  });
});
