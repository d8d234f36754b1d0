/**
 * Tracing off costs nothing at load: a server process that serves requests with tracing off loads
 * no OpenTelemetry module and not the runtime's tracing modules; with tracing on it loads
 * @opentelemetry/api (from the app's node_modules) and answers the same.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transpileRuntimeTree, type TranspiledTree } from '../runtime/transpile.js';

const repoRoot = join(import.meta.dirname, '../..');
let tree: TranspiledTree;
let scratch: string;
beforeAll(() => {
  tree = transpileRuntimeTree();
  scratch = mkdtempSync(join(tmpdir(), 'mcp-gen-otel-'));
});
afterAll(() => {
  tree?.remove();
  rmSync(scratch, { recursive: true, force: true });
});

/** Serves initialize and two tool calls over stdio; returns the responses' ids and every module the process resolved. */
async function serve(tracing: boolean): Promise<{ ids: unknown[]; modules: string[] }> {
  const log = join(scratch, `imports-${String(tracing)}.log`);
  const child = spawn(process.execPath, ['--import', join(repoRoot, 'test/support/import-log.mjs'), tree.path('test/runtime/fixtures/stdio-traced-main.js')], {
    stdio: 'pipe',
    env: { ...process.env, MCP_GEN_IMPORT_LOG: log, MCP_TEST_TRACING: tracing ? '1' : '0' },
  });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  child.stdin.end(
    [
      '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}',
      '{"jsonrpc":"2.0","method":"notifications/initialized"}',
      '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_weather","arguments":{"location":"Lisbon"}}}',
      '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"no_such_tool","arguments":{}}}',
    ].join('\n') + '\n',
  );
  expect(await exited).toBe(0);
  const ids = stdout.trimEnd().split('\n').map((line) => (JSON.parse(line) as { id: unknown }).id);
  return { ids, modules: readFileSync(log, 'utf8').split('\n').map((line) => line.split('\t')[0]!) };
}

describe('loading', () => {
  it('tracing off: no @opentelemetry module and no tracing module of the runtime is loaded', async () => {
    const { ids, modules } = await serve(false);
    expect(ids).toEqual([1, 2, 3]);
    expect(modules.some((url) => url.includes('/src/runtime/index.js'))).toBe(true);
    expect(modules.filter((url) => url.includes('@opentelemetry') || /tracing|trace-context|traced-outbound/.test(url))).toEqual([]);
  });

  it('tracing on: @opentelemetry/api and the tracing modules load, and the answers are the same', async () => {
    const { ids, modules } = await serve(true);
    expect(ids).toEqual([1, 2, 3]);
    expect(modules.some((url) => url.includes('/node_modules/@opentelemetry/api/'))).toBe(true);
    expect(modules.some((url) => url.endsWith('/src/runtime/server/tracing.js'))).toBe(true);
  });
});
