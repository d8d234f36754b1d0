/**
 * The compilers on standby (compiler-standby.ts): a thread the units that missed can be sent to
 * (the CLI no longer starts it on a warm run: test/cli/warm-run.test.ts). What it answers are the bytes compiled in-process, and a thread that
 * cannot start or fails leaves the work to the main thread, to the same bytes.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { manifestText } from '../../bench/scale/make-manifest.mjs';
import { main } from '../../src/cli/main.js';
import { compilerStandby, startCompilerStandby, stopCompilerStandby } from '../../src/emit/compiler-standby.js';
import { UNIT_CACHE_FILE } from '../../src/write/unit-cache.js';
import type { ServiceModel } from '../../src/model/service-model.js';
import { contentOf } from '../../src/write/planned-file.js';
import { loadModel, plan, repoRoot } from '../server/support.js';

const BOOTSTRAP = join(repoRoot, 'test/support/ts-worker-bootstrap.mjs');

let dir: string;
let model: ServiceModel;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mcp-gen-standby-'));
  const manifest = join(dir, 'manifest.json');
  writeFileSync(manifest, manifestText({ tools: 6 }));
  model = await loadModel(manifest);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => {
  stopCompilerStandby();
  delete process.env['MCP_GEN_TS_WORKER_BOOTSTRAP'];
});

/** The planned files' texts (validator modules made on demand included). */
async function planned(): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const file of (await plan(model)).files) {
    files[file.path] = await contentOf(file);
  }
  return files;
}

describe('compilers on standby', () => {
  it('compile the types and validators of a few tools to the bytes compiled in-process', async () => {
    const inProcess = await planned();
    process.env['MCP_GEN_TS_WORKER_BOOTSTRAP'] = BOOTSTRAP;
    startCompilerStandby();
    const standby = compilerStandby();
    expect(standby).toBeDefined();
    const onStandby = await planned();
    // One types batch and one validators job, both answered by the thread.
    expect(standby?.answered).toBeGreaterThanOrEqual(2);
    expect(onStandby).toEqual(inProcess);
    expect(Object.keys(inProcess).some((path) => path.startsWith('generated/validators/'))).toBe(true);
  }, 120_000);

  it('leave the work to the main thread when their thread cannot start', async () => {
    const inProcess = await planned();
    process.env['MCP_GEN_TS_WORKER_BOOTSTRAP'] = join(dir, 'no-such-bootstrap.mjs');
    startCompilerStandby();
    const standby = compilerStandby();
    expect(standby).toBeDefined();
    expect(await planned()).toEqual(inProcess);
    expect(standby?.answered).toBe(0);
  }, 120_000);

  it('are simply not there when the thread cannot even be made (the work stays in-process)', async () => {
    const inProcess = await planned();
    // A scheme a worker cannot load from: the Worker constructor throws at once.
    process.env['MCP_GEN_TS_WORKER_BOOTSTRAP'] = 'http://example.invalid/bootstrap.mjs';
    expect(() => startCompilerStandby()).not.toThrow();
    expect(compilerStandby()).toBeUndefined();
    expect(await planned()).toEqual(inProcess);
  }, 120_000);

  it('are not there unless started, and gone once stopped', () => {
    expect(compilerStandby()).toBeUndefined();
    process.env['MCP_GEN_TS_WORKER_BOOTSTRAP'] = BOOTSTRAP;
    startCompilerStandby();
    expect(compilerStandby()).toBeDefined();
    stopCompilerStandby();
    expect(compilerStandby()).toBeUndefined();
  });

  it('are gone when the CLI returns, also after a guess the cache proved wrong', async () => {
    process.env['MCP_GEN_TS_WORKER_BOOTSTRAP'] = BOOTSTRAP;
    const out = join(dir, 'wrong-guess');
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, UNIT_CACHE_FILE), 'not a cache');
    const lines: string[] = [];
    const io = { out: (line: string) => lines.push(line), err: (line: string) => lines.push(line) };
    expect(await main(['server', join(dir, 'manifest.json'), '-o', out, '--no-version-banner'], io), lines.join('\n')).toBe(0);
    expect(compilerStandby()).toBeUndefined();
    // And after a failing run.
    expect(await main(['client', join(dir, 'no-such-manifest.json'), '-o', out], io)).toBe(2);
    expect(compilerStandby()).toBeUndefined();
  }, 120_000);
});
