/**
 * types.ts, server.ts and the client's types.ts and client.ts are assembled from per-tool units,
 * each computed and formatted once and kept in the unit cache: after one tool changed, only that
 * tool's units are recomputed, and the bytes are those of a cold run.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readClientRuntimeSources } from '../../src/pipeline/client.js';
import { readRuntimeSources } from '../../src/pipeline/server.js';
import { planClient } from '../../src/emit/client/index.js';
import { planServer } from '../../src/emit/server/index.js';
import type { ServiceModel } from '../../src/model/service-model.js';
import { loadManifest } from '../../src/pipeline/manifest.js';
import type { UnitMemo } from '../../src/printer/format.js';
import { UnitCache } from '../../src/write/unit-cache.js';
import { makeManifest } from '../../bench/scale/make-manifest.mjs';
import { repoRoot } from '../client/support.js';

const SERVER_FILES = ['generated/types.ts', 'generated/server.ts', 'generated/tool-definitions.ts'];
const CLIENT_FILES = ['types.ts', 'client.ts'];
/** The tool whose input schema gains an optional property between the runs. */
const CHANGED = 7;

interface Counted {
  memoAsync: UnitMemo;
  /** Units computed (cache misses), by kind. */
  computed: Record<string, number>;
}

/** The cache's async memo, counting what it had to compute. */
function counting(cache: UnitCache): Counted {
  const computed: Record<string, number> = {};
  const memoAsync: UnitMemo = (kind, input, compute) =>
    cache.memoAsync(kind, input, () => {
      computed[kind] = (computed[kind] ?? 0) + 1;
      return compute();
    });
  return { memoAsync, computed };
}

async function serverFiles(model: ServiceModel, cache: UnitCache): Promise<{ files: Record<string, string>; computed: Record<string, number> }> {
  const counted = counting(cache);
  const plan = await planServer(model, { runtimeSources: readRuntimeSources(), memo: cache.memo, memoAsync: counted.memoAsync });
  return { files: pick(plan.files, SERVER_FILES), computed: counted.computed };
}

async function clientFiles(model: ServiceModel, cache: UnitCache): Promise<{ files: Record<string, string>; computed: Record<string, number> }> {
  const counted = counting(cache);
  const protocol = (revision: string): Promise<string> => readFile(join(repoRoot, 'generated', 'protocol', revision, 'types.ts'), 'utf8');
  const plan = await planClient(model, {
    runtimeSources: readClientRuntimeSources(false),
    protocolTypes: await protocol('2025-11-25'),
    statelessProtocolTypes: await protocol('2026-07-28'),
    memo: cache.memo,
    memoAsync: counted.memoAsync,
  });
  return { files: pick(plan.files, CLIENT_FILES), computed: counted.computed };
}

function pick(files: readonly { path: string; content: string; format: string }[], paths: readonly string[]): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const path of paths) {
    const file = files.find((f) => f.path === path);
    if (file === undefined) throw new Error(`no ${path} planned`);
    // Planned already formatted: the writer must not run prettier over them.
    expect(file.format).toBe('none');
    picked[path] = file.content;
  }
  return picked;
}

describe('files assembled from per-tool units', () => {
  let dir: string;
  let before: ServiceModel;
  let after: ServiceModel;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mcp-gen-units-'));
    const manifest = makeManifest({ tools: 24 }) as { tools: { inputSchema: { properties: Record<string, unknown> } }[] };
    await writeFile(join(dir, 'before.json'), JSON.stringify(manifest));
    (manifest.tools[CHANGED] as { inputSchema: { properties: Record<string, unknown> } }).inputSchema.properties['addedLater'] = { type: 'string', description: 'new in the second run' };
    await writeFile(join(dir, 'after.json'), JSON.stringify(manifest));
    before = (await loadManifest(join(dir, 'before.json'))).model;
    after = (await loadManifest(join(dir, 'after.json'))).model;
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('server: one changed tool recomputes its types unit and its server.ts statement, nothing else (its statement and members print without prettier); warm bytes are cold bytes', async () => {
    const cache = UnitCache.empty('test');
    const cold = await serverFiles(before, cache);
    // Cold: a types unit per tool plus the shared definitions, a statement per tool, two skeletons.
    expect(cold.computed['types-tool']).toBe(24);
    // Plain ASCII names of ordinary length: every statement and member line is printed directly.
    expect(cold.computed['prettier-unit']).toBe(2);
    expect(cold.computed['server-tool-statement']).toBe(24);
    const warm = await serverFiles(after, UnitCache.fromText(cache.text(), 'test'));
    // Its tools/list entry too: its pieces and its export of tool-definitions.ts (the manifest's tools share large definitions).
    expect(warm.computed).toEqual({ 'types-tool': 1, 'server-tool-statement': 1, 'tool-definition-summary': 1, 'tool-definition-statement': 1 });
    const coldAfter = await serverFiles(after, UnitCache.empty('test'));
    expect(warm.files).toEqual(coldAfter.files);
    expect(warm.files['generated/types.ts']).toContain('addedLater?: string;');
    // Without any cache, the same bytes again.
    const counted = await planServer(after, { runtimeSources: readRuntimeSources() });
    expect(pick(counted.files, SERVER_FILES)).toEqual(coldAfter.files);
  });

  it('client: one changed tool recomputes its types unit alone (its members did not change); warm bytes are cold bytes', async () => {
    const cache = UnitCache.empty('test');
    const cold = await clientFiles(before, cache);
    expect(cold.computed['types-tool']).toBe(24);
    const warm = await clientFiles(after, UnitCache.fromText(cache.text(), 'test'));
    expect(warm.computed).toEqual({ 'types-tool': 1 });
    const coldAfter = await clientFiles(after, UnitCache.empty('test'));
    expect(warm.files).toEqual(coldAfter.files);
  });

  it('a renamed tool recomputes only its server.ts statement through the cache: its members print directly, its types (same names) are hits', async () => {
    const cache = UnitCache.empty('test');
    await serverFiles(before, cache);
    const renamed: ServiceModel = { ...before, tools: before.tools.map((t, i) => (i === CHANGED ? { ...t, name: `${t.name}_renamed`, wire: { ...t.wire, name: `${t.name}_renamed` } } : t)) };
    const warm = await serverFiles(renamed, UnitCache.fromText(cache.text(), 'test'));
    // Its types (same names) and both skeletons (no tool's name in them) are hits; its statement holds its name.
    expect(warm.computed).toEqual({ 'server-tool-statement': 1, 'tool-definition-summary': 1, 'tool-definition-statement': 1 });
    expect(warm.files).toEqual((await serverFiles(renamed, UnitCache.empty('test'))).files);
  });

  it('a shared definition one tool changes is no longer shared: every tool holding it recomputes (its names changed), and warm bytes are cold bytes', async () => {
    const holds = (tool: ServiceModel['tools'][number], key: string): boolean =>
      [tool.inputSchema, tool.outputSchema].some((s) => s !== undefined && typeof s['$defs'] === 'object' && s['$defs'] !== null && Object.hasOwn(s['$defs'], key));
    const tool = before.tools.find((t) => typeof t.inputSchema['$defs'] === 'object');
    if (tool === undefined) throw new Error('the manifest has no tool with $defs');
    const key = Object.keys(tool.inputSchema['$defs'] as object)[0] as string;
    const holders = before.tools.filter((t) => holds(t, key)).length;
    expect(holders).toBeGreaterThan(1);
    const defs = tool.inputSchema['$defs'] as Record<string, object>;
    const changed = { ...tool, inputSchema: { ...tool.inputSchema, $defs: { ...defs, [key]: { ...defs[key], description: 'this copy differs' } } } };
    const unshared: ServiceModel = { ...before, tools: before.tools.map((t) => (t === tool ? changed : t)) };

    const cache = UnitCache.empty('test');
    const cold = await serverFiles(before, cache);
    const warm = await serverFiles(unshared, UnitCache.fromText(cache.text(), 'test'));
    expect(warm.computed['types-tool']).toBe(holders);
    expect(warm.computed['types-shared']).toBe(1);
    expect(warm.files).toEqual((await serverFiles(unshared, UnitCache.empty('test'))).files);
    expect(warm.files['generated/types.ts']).not.toEqual(cold.files['generated/types.ts']);
  });
});
