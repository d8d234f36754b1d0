/**
 * The client under load over stdio: many calls in flight against a server that reads slowly.
 * An app process (fixtures/load-app.mjs) must print no warning (a shared AbortSignal once got one
 * `abort` listener per call: Node's MaxListenersExceededWarning past ten), and the stdio transport
 * must wait for the full pipe to drain (one wait for all writers) instead of piling up writes.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { afterAll, expect, it } from 'vitest';
import { StdioClientTransport } from '../../src/runtime/client/stdio.js';
import { repoRoot } from './support.js';

const slowReader = join(repoRoot, 'test/client/fixtures/slow-reader.mjs');
const work = mkdtempSync(join(tmpdir(), 'mcp-gen-client-load-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The client runtime as plain JavaScript (types stripped), for a Node 20 app process. */
function transpileClientRuntime(): string {
  const runtime = join(repoRoot, 'src/runtime');
  const files = ['api.ts', 'protocol/errors.ts', 'protocol/header-params.ts', 'protocol/jsonrpc.ts', 'protocol/methods.ts', ...readdirSync(join(runtime, 'client')).filter((f) => f.endsWith('.ts')).map((f) => `client/${f}`)];
  mkdirSync(join(work, 'runtime', 'client'), { recursive: true });
  mkdirSync(join(work, 'runtime', 'protocol'), { recursive: true });
  for (const file of files) {
    const output = ts.transpileModule(readFileSync(join(runtime, file), 'utf8'), {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
      fileName: file,
    });
    writeFileSync(join(work, 'runtime', file.replace(/\.ts$/, '.js')), output.outputText);
  }
  writeFileSync(join(work, 'runtime', 'package.json'), '{"type":"module"}\n');
  return join(work, 'runtime', 'client', 'index.js');
}

it('64 calls in flight sharing one AbortSignal, against a slow reader, print no warning', async () => {
  const runtime = transpileClientRuntime();
  const { stdout, stderr } = await new Promise<{ stdout: string; stderr: string }>((resolve, reject) => {
    execFile(
      process.execPath,
      [join(repoRoot, 'test/client/fixtures/load-app.mjs')],
      { env: { ...process.env, CLIENT_RUNTIME: pathToFileURL(runtime).href, SERVER: slowReader }, timeout: 60_000 },
      (error, out, err) => (error ? reject(new Error(`${error.message}\n${err}`)) : resolve({ stdout: out, stderr: err })),
    );
  });
  expect(stdout).toBe('answered 64 (100000)\n');
  expect(stderr).not.toMatch(/warning/i);
  expect(stderr).toContain('read 64 calls');
}, 90_000);

it('stdio writes wait for the full pipe to drain, then go out together, in order', async () => {
  const log: string[] = [];
  const transport = new StdioClientTransport({ command: process.execPath, args: [slowReader], env: { PAUSE_MS: '800' }, stderr: (text) => log.push(text) });
  const answers: number[] = [];
  await transport.start(
    (message) => answers.push((message as { id: number }).id),
    () => {},
  );
  // server/discover makes the server stop reading for a while.
  await transport.send(JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'server/discover', params: {} }), { method: 'server/discover', id: 0 });
  const pad = 'x'.repeat(100_000);
  const written: number[] = [];
  const sends: Promise<void>[] = [];
  for (let id = 1; id <= 64; id++) {
    const text = JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { pad } } });
    sends.push(transport.send(text, { method: 'tools/call', id }).then(() => void written.push(id)));
    await new Promise((resolve) => setImmediate(resolve));
  }
  // The server is not reading: the first call filled the pipe, and the rest wait for it to drain.
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(written.length).toBeLessThan(8);
  await Promise.all(sends);
  expect(written).toEqual(Array.from({ length: 64 }, (_, i) => i + 1));
  while (answers.length < 65) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(answers).toEqual(Array.from({ length: 65 }, (_, i) => i));
  await transport.close();
  expect(log.join('')).toContain('read 64 calls');
}, 60_000);
