/**
 * A `server` or `client` run after one tool changed starts no thread: the unit that missed is
 * compiled in-process, and only then are the compilers loaded. Each run is a fresh CLI process whose
 * module loads (its threads' included) are recorded.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { manifestText } from '../../bench/scale/make-manifest.mjs';
import { repoRoot } from '../client/support.js';

const scratch = mkdtempSync(join(tmpdir(), 'mcp-gen-warm-run-'));
const manifestPath = join(scratch, 'manifest.json');
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** One run in a fresh process; every module URL it (or a thread of it) loaded. */
function generate(command: 'server' | 'client', out: string): string[] {
  const log = join(scratch, 'imports.log');
  rmSync(log, { force: true });
  const child = spawnSync(process.execPath, ['--import', join(repoRoot, 'test', 'support', 'import-log.mjs'), join(repoRoot, 'bin', 'mcp-gen.js'), command, manifestPath, '-o', out, '--no-version-banner'], {
    cwd: scratch,
    encoding: 'utf8',
    env: { ...process.env, MCP_GEN_IMPORT_LOG: log, MCP_GEN_CACHE_DIR: join(scratch, 'cache') },
  });
  if (child.status !== 0) throw new Error(`mcp-gen ${command} exited ${child.status}: ${child.stderr}`);
  return existsSync(log) ? readFileSync(log, 'utf8').split('\n').map((line) => line.split('\t')[0] ?? '') : [];
}

/** The thread entries mcp-gen has (printer/worker-thread.ts names them). */
const THREADS = /\/dist\/(?:emit\/compiler-standby-thread|emit\/types\/type-units-worker|emit\/validators\/compile-worker|printer\/format-worker)\.js$/;

describe('a run after one change', () => {
  it('starts no thread, server and client, and still writes the change', () => {
    const text = manifestText({ tools: 8 });
    writeFileSync(manifestPath, text);
    for (const command of ['server', 'client'] as const) generate(command, join(scratch, command));
    const changed = JSON.parse(text) as { tools: { inputSchema: { properties: Record<string, unknown> } }[] };
    (changed.tools[3] as (typeof changed.tools)[number]).inputSchema.properties['addedField'] = { type: 'integer' };
    writeFileSync(manifestPath, JSON.stringify(changed, null, 2));
    for (const command of ['server', 'client'] as const) {
      const loaded = generate(command, join(scratch, command));
      expect(loaded.filter((url) => THREADS.test(url)), command).toEqual([]);
      // The unit that missed was compiled, in-process.
      expect(loaded.some((url) => url.endsWith('/dist/emit/types/type-compiler.js')), command).toBe(true);
      const types = readFileSync(join(scratch, command, command === 'server' ? join('generated', 'types.ts') : 'types.ts'), 'utf8');
      expect(types, command).toContain('addedField?: number;');
    }
  }, 180_000);
});
