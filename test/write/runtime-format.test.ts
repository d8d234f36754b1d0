/**
 * The runtime is copied into generated servers and clients without prettier (src/write/runtime-format.ts),
 * so its sources must already be exactly what the generator's prettier options print.
 */
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { format } from 'prettier';
import { PRETTIER_OPTIONS } from '../../src/printer/prettier-options.js';
import { runtimeSourcePaths, unformattedRuntimeSources } from '../../src/write/runtime-format.js';
import { repoRoot } from '../client/support.js';

describe('runtime sources are prettier-clean', () => {
  const runtimeDir = join(repoRoot, 'src', 'runtime');

  it('covers the server, client and auth runtimes', () => {
    const paths = runtimeSourcePaths(runtimeDir);
    for (const path of ['index.ts', 'README.md', 'auth/index.ts', 'client/index.ts', 'client/auth/index.ts']) expect(paths).toContain(path);
  });

  it('every src/runtime source is unchanged by the generator\'s prettier options (fix: npm run format:runtime)', async () => {
    const drifted = await unformattedRuntimeSources(runtimeDir);
    expect(drifted.map((d) => d.path)).toEqual([]);
  }, 120_000);

  it('finds a source that is not formatted', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mcp-gen-runtime-format-'));
    try {
      await mkdir(join(dir, 'client'));
      await writeFile(join(dir, 'clean.ts'), "export const a = { b: 1 };\n");
      await writeFile(join(dir, 'client', 'messy.ts'), 'export const a = {b:1}\n');
      const drifted = await unformattedRuntimeSources(dir);
      expect(drifted).toEqual([{ path: 'client/messy.ts', formatted: 'export const a = { b: 1 };\n' }]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('protocol types a client copies are prettier-clean', () => {
  // planClient copies generated/protocol/<revision>/types.ts without prettier (format 'none').
  it.each(['2025-11-25', '2026-07-28'])('generated/protocol/%s/types.ts is unchanged by the generator\'s prettier options', async (revision) => {
    const text = readFileSync(join(repoRoot, 'generated', 'protocol', revision, 'types.ts'), 'utf8');
    const body = text.slice(text.indexOf('\n') + 1);
    expect(await format(body, { ...PRETTIER_OPTIONS, parser: 'typescript', filepath: 'types.ts' })).toBe(body);
  });
});
