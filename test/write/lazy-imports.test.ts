/**
 * A warm run (the output folder and its unit cache present) must not pay for libraries it does not
 * use: prettier is loaded only when a file is formatted, ts-morph (and TypeScript) only when a user
 * file really has to be merged. The CLI runs in a child process whose module loads are recorded.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../client/support.js';

const scratch = mkdtempSync(join(tmpdir(), 'mcp-gen-lazy-imports-'));
const outDir = join(scratch, 'out');

function manifest(tools: string[], queryType = 'string'): string {
  return JSON.stringify({
    server: { name: 'lazy', version: '1.0.0' },
    tools: tools.map((name) => ({ name, description: `The ${name} tool.`, inputSchema: { type: 'object', properties: { q: { type: name === 'beta' ? queryType : 'string' } } } })),
    resources: [{ uri: 'docs://index', name: 'index' }],
    prompts: [{ name: 'summarize', description: 'Summarize.' }],
  });
}

/** A package under node_modules and the mcp-gen module (under dist/) that imported it. */
interface PackageLoad {
  name: string;
  importer: string;
}

/** Every package module the last `generate` loaded through import, whoever imported it. */
let allLoaded: string[] = [];

/** Runs `mcp-gen server` in a fresh process; the packages mcp-gen's own modules imported. */
function generate(tools: string[], queryType?: string): PackageLoad[] {
  const manifestPath = join(scratch, 'manifest.json');
  writeFileSync(manifestPath, manifest(tools, queryType));
  const log = join(scratch, 'imports.log');
  rmSync(log, { force: true });
  const child = spawnSync(
    process.execPath,
    ['--import', join(repoRoot, 'test', 'support', 'import-log.mjs'), join(repoRoot, 'bin', 'mcp-gen.js'), 'server', manifestPath, '-o', outDir, '--no-version-banner'],
    { cwd: repoRoot, encoding: 'utf8', env: { ...process.env, MCP_GEN_IMPORT_LOG: log } },
  );
  if (child.status !== 0) throw new Error(`mcp-gen server exited ${child.status}: ${child.stderr}`);
  const loads: PackageLoad[] = [];
  allLoaded = [];
  for (const line of readFileSync(log, 'utf8').split('\n')) {
    const [url = '', parent = ''] = line.split('\t');
    const name = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1];
    if (name !== undefined) allLoaded.push(name);
    const importer = /\/dist\/(.*)$/.exec(parent)?.[1];
    if (name !== undefined && importer !== undefined && !parent.includes('/node_modules/')) loads.push({ name, importer });
  }
  return loads;
}

/** Which of mcp-gen's modules imported the package (json-schema-to-typescript's own use of prettier is not counted). */
const importersOf = (loads: PackageLoad[], name: string): string[] => [...new Set(loads.filter((l) => l.name === name).map((l) => l.importer))].sort();

beforeAll(() => {
  if (!existsSync(join(repoRoot, 'dist', 'cli', 'main.js'))) throw new Error('bin/mcp-gen.js runs dist/: run `npm run build` first');
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('a warm run loads only what it uses', () => {
  it('loads neither prettier nor ts-morph when nothing changed, ts-morph once a tool is added, and no prettier when one tool changed', () => {
    const cold = generate(['alpha', 'beta']);
    expect(importersOf(cold, 'prettier')).toEqual(['printer/format.js']);

    const warm = generate(['alpha', 'beta']);
    expect(importersOf(warm, 'prettier')).toEqual([]);
    expect(importersOf(warm, 'ts-morph')).toEqual([]);

    // A new tool has to be registered in handlers/index.ts: that merge parses the file.
    const added = generate(['alpha', 'beta', 'gamma']);
    expect(importersOf(added, 'ts-morph')).toEqual(['emit/server/merge.js']);
    expect(readFileSync(join(outDir, 'handlers', 'index.ts'), 'utf8')).toContain("import { gamma } from './tools/gamma.js';");

    // And the run after that, with nothing new, again loads neither.
    const again = generate(['alpha', 'beta', 'gamma']);
    expect(importersOf(again, 'prettier')).toEqual([]);
    expect(importersOf(again, 'ts-morph')).toEqual([]);

    // One tool's schema changed: its types are compiled, by json-schema-to-typescript without
    // prettier (which that package requires as it loads, see type-compiler.ts).
    generate(['alpha', 'beta', 'gamma'], 'number');
    expect(readFileSync(join(outDir, 'generated', 'types.ts'), 'utf8')).toContain('q?: number;');
    expect(allLoaded).not.toContain('prettier');
  }, 120_000);
});

describe('user-owned skeletons', () => {
  it('load Handlebars only when one is rendered: planning them (a warm run keeps them all) does not', () => {
    // Handlebars is required (CommonJS), which the import log does not see: the child reports require.cache.
    const script = `
      import { createRequire } from 'node:module';
      const dist = ${JSON.stringify(join(repoRoot, 'dist'))};
      const { loadManifest } = await import(dist + '/pipeline/manifest.js');
      const { planServer } = await import(dist + '/emit/server/index.js');
      const { readRuntimeSources } = await import(dist + '/pipeline/server.js');
      const { model } = await loadManifest(${JSON.stringify(join(repoRoot, 'examples', 'weather', 'manifest.yaml'))});
      const loaded = () => Object.keys(createRequire(import.meta.url).cache).some((p) => p.includes('/node_modules/handlebars/'));
      const plan = await planServer(model, { runtimeSources: readRuntimeSources() });
      const before = loaded();
      const user = plan.files.filter((f) => f.owner === 'user');
      const texts = user.map((f) => f.content);
      console.log(JSON.stringify({ before, after: loaded(), user: user.length, rendered: texts.every((t) => t.length > 0) }));
    `;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: repoRoot, encoding: 'utf8' });
    if (child.status !== 0) throw new Error(child.stderr);
    const result = JSON.parse(child.stdout.trim().split('\n').at(-1) as string) as { before: boolean; after: boolean; user: number; rendered: boolean };
    expect(result.user).toBeGreaterThan(3);
    expect(result).toMatchObject({ before: false, after: true, rendered: true });
  }, 60_000);
});

describe('a client generated from a manifest', () => {
  it('loads neither the runtime client nor the live-server reader (only --from-url and the like need them)', () => {
    const manifestPath = join(scratch, 'client-manifest.json');
    writeFileSync(manifestPath, manifest(['alpha']));
    const log = join(scratch, 'client-imports.log');
    rmSync(log, { force: true });
    const child = spawnSync(
      process.execPath,
      ['--import', join(repoRoot, 'test', 'support', 'import-log.mjs'), join(repoRoot, 'bin', 'mcp-gen.js'), 'client', manifestPath, '-o', join(scratch, 'client'), '--no-version-banner'],
      { cwd: repoRoot, encoding: 'utf8', env: { ...process.env, MCP_GEN_IMPORT_LOG: log } },
    );
    if (child.status !== 0) throw new Error(`mcp-gen client exited ${child.status}: ${child.stderr}`);
    const loaded = readFileSync(log, 'utf8')
      .split('\n')
      .map((line) => line.split('\t')[0] ?? '')
      .filter((url) => url.includes('/dist/'));
    expect(loaded.some((url) => url.endsWith('/dist/cli/client-command.js'))).toBe(true);
    expect(loaded.filter((url) => url.includes('/dist/runtime/client/') || url.endsWith('/dist/load/introspect.js') || url.endsWith('/dist/pipeline/client-live-source.js'))).toEqual([]);
  }, 60_000);
});
