/**
 * Merging user-owned files (handlers/index.ts, handlers/resources.ts, …) goes through the unit
 * cache: a run whose file text and manifest names are those of the last run reuses its answer
 * (nothing to add, the same notes) without parsing the file. Bytes and notes must be exactly what
 * an uncached merge gives.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { planServer } from '../../src/emit/server/index.js';
import { writeOutput } from '../../src/write/writer.js';
import { UnitCache } from '../../src/write/unit-cache.js';
import { loadModel, runtimeSources, tempDir } from '../server/support.js';

const work = tempDir('merge-cache');
afterAll(() => rmSync(work, { recursive: true, force: true }));

const manifestPath = join(work, 'manifest.yaml');
const manifest = (tools: string[]): string => `server: { name: shop, version: 1.0.0 }
tools:
${tools.map((name) => `  - { name: ${name}, inputSchema: { type: object } }`).join('\n')}
resources:
  - { uri: 'shop://catalog', name: catalog }
prompts:
  - { name: greet }
`;

/** Plans the manifest and writes only its user-owned files, with or without a unit cache. */
async function run(out: string, tools: string[], cache?: UnitCache) {
  writeFileSync(manifestPath, manifest(tools));
  const plan = await planServer(await loadModel(manifestPath), { runtimeSources: runtimeSources() });
  const report = await writeOutput(out, plan.files.filter((f) => f.owner === 'user'), { banner: {}, ...(cache ? { cache } : {}) });
  return { report, notes: plan.notes };
}

describe('cached merges of user-owned files', () => {
  it('answer a repeated run without parsing, with the notes and bytes of an uncached merge', async () => {
    const cached = join(work, 'cached');
    const uncached = join(work, 'uncached');
    const first = UnitCache.empty('generator');
    await run(cached, ['alpha', 'old_tool'], first);
    await run(uncached, ['alpha', 'old_tool']);

    // The freshly created files are known to need nothing: the same manifest again computes nothing.
    const again = UnitCache.fromText(first.text(), 'generator');
    expect((await run(cached, ['alpha', 'old_tool'], again)).report.merged).toEqual([]);
    // One cached answer per merged file (handlers/index.ts, resources.ts, prompts.ts), none computed.
    expect([again.hits, again.misses]).toEqual([3, 0]);

    // A tool added and one removed: the merge runs (a miss) and says what the user may delete.
    const second = UnitCache.fromText(again.text(), 'generator');
    const merged = await run(cached, ['alpha', 'beta'], second);
    const mergedUncached = await run(uncached, ['alpha', 'beta']);
    expect(merged.report.merged).toEqual(['handlers/index.ts']);
    expect(merged.notes).toEqual(mergedUncached.notes);
    expect(merged.notes).toEqual([expect.stringContaining('tool "old_tool" is no longer in the manifest')]);
    expect(readFileSync(join(cached, 'handlers/index.ts'), 'utf8')).toBe(readFileSync(join(uncached, 'handlers/index.ts'), 'utf8'));

    // The run after: nothing to add, the same note, and not one step computed.
    const third = UnitCache.fromText(second.text(), 'generator');
    const repeated = await run(cached, ['alpha', 'beta'], third);
    const repeatedUncached = await run(uncached, ['alpha', 'beta']);
    expect([third.hits, third.misses]).toEqual([3, 0]);
    expect(repeated.report.merged).toEqual([]);
    expect(repeated.notes).toEqual(repeatedUncached.notes);
    expect(repeated.notes).toEqual(merged.notes);
  }, 120_000);
});
