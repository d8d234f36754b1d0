import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transpileRuntimeTree, type TranspiledTree } from './transpile.js';

let tree: TranspiledTree;
beforeAll(() => {
  tree = transpileRuntimeTree();
});
afterAll(() => tree?.remove());

describe('stdio server process', () => {
  it('writes nothing but JSON-RPC to stdout, logs to stderr, and exits cleanly when stdin closes', async () => {
    const child = spawn(process.execPath, [tree.path('test/runtime/fixtures/stdio-main.js')], { stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    const lines = [
      'garbage',
      '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}',
      '{"jsonrpc":"2.0","method":"notifications/initialized"}',
      '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_weather","arguments":{"location":"broken"}}}',
      '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"fail","arguments":{}}}',
      '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"slow","arguments":{"steps":2,"ms":30}}}',
    ];
    child.stdin.end(lines.join('\n') + '\n');
    expect(await exited).toBe(0);
    const messages = stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(messages.every((m) => m['jsonrpc'] === '2.0')).toBe(true);
    const responses = messages.filter((m) => 'id' in m && !('method' in m));
    expect(responses.map((m) => m['id'])).toEqual([null, 1, 2, 3, 4]);
    expect(stderr).toContain('does not match its outputSchema: /temperature must be number');
    expect(stderr).toContain('Tool fail threw: Error: kaboom');
    expect(stderr).toContain('stdio server: input closed, exiting');
  });

  it('exits cleanly when its client goes away during a call (stdin closed, stdout no longer read)', async () => {
    const child = spawn(process.execPath, [tree.path('test/runtime/fixtures/stdio-main.js')], { stdio: 'pipe' });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    const init = '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}';
    // Progress on every step: the server keeps writing after its reader is gone.
    const call = '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow","arguments":{"steps":4,"ms":50},"_meta":{"progressToken":1}}}';
    child.stdin.write(init + '\n' + call + '\n');
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    // As a host killed mid-call leaves it: both pipes closed by the other end.
    child.stdout.destroy();
    child.stdin.destroy();
    // Before the fix it often never exited cleanly: its stdin, paused for a drain that never came, did not end (exit 13).
    expect(await exited).toBe(0);
    expect(stderr).toContain('stdio server: input closed, exiting');
    expect(stderr).not.toMatch(/Uncaught|ERR_STREAM|at .*\(node:/);
  });
});
