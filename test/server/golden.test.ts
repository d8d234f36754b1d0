/**
 * Tier 2: whole manifests through the emitter and the real writer (banner, prettier), compared
 * with committed golden output; the result compiled under the strictest flags we promise.
 */
import { cpSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkServer } from '../../src/cli/server-command.js';
import type { ServerPlan } from '../../src/emit/server/index.js';
import type { PlannedFile } from '../../src/write/planned-file.js';
import { hasBanner, renderFile } from '../../src/write/render.js';
import { expectGolden, listFiles, loadModel, plan, repoRoot, runtimeSources, tempDir, typeCheck, write } from './support.js';

const CASES = {
  // The example's manifest; its golden holds the untouched skeletons the example started from.
  weather: 'examples/weather/manifest.yaml',
  hostile: 'test/fixtures/server/hostile/manifest.yaml',
  'no-output': 'test/fixtures/server/no-output/manifest.yaml',
  'resources-prompts': 'test/fixtures/server/resources-prompts/manifest.yaml',
} as const;
type CaseName = keyof typeof CASES;

const work = tempDir('server-golden');
const outputs = {} as Record<CaseName, string>;
const plans = {} as Record<CaseName, ServerPlan>;

beforeAll(async () => {
  for (const [name, manifest] of Object.entries(CASES) as [CaseName, string][]) {
    const path = join(repoRoot, manifest);
    plans[name] = await plan(await loadModel(path));
    outputs[name] = join(work, name);
    await write(outputs[name], plans[name], path);
  }
}, 300_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('golden output', () => {
  for (const name of Object.keys(CASES) as CaseName[]) {
    it(`${name} matches test/golden/server/${name}`, () => {
      expectGolden(name, outputs[name]);
    });
  }

  it('is the same bytes when generated again', async () => {
    const again = join(work, 'hostile-again');
    const manifest = join(repoRoot, CASES.hostile);
    await write(again, await plan(await loadModel(manifest)), manifest);
    const files = listFiles(outputs.hostile);
    expect(listFiles(again)).toEqual(files);
    for (const path of files) {
      expect(readFileSync(join(again, path), 'utf8'), path).toBe(readFileSync(join(outputs.hostile, path), 'utf8'));
    }
  });

  it('copies the runtime unchanged (the writer adds only its banner and formatting)', async () => {
    const sources = runtimeSources();
    const copied = listFiles(join(outputs.weather, 'generated', 'runtime'));
    expect(copied).toEqual(Object.keys(sources).sort());
    for (const [name, original] of Object.entries(sources)) {
      const planned = plans.weather.files.find((f) => f.path === `generated/runtime/${name}`);
      // mcp-gen's own banner on the envelope validators is dropped (its regenerate command is mcp-gen's).
      const source = hasBanner(original) ? original.slice(original.indexOf('\n') + 1) : original;
      expect(planned?.content, name).toBe(source);
      expect(planned?.format, name).toBe(name.endsWith('.js') ? 'none' : name.endsWith('.md') ? 'markdown' : 'typescript');
      const text = readFileSync(join(outputs.weather, 'generated', 'runtime', name), 'utf8');
      expect(text, name).toBe(await renderFile(planned as PlannedFile, { command: `mcp-gen server ${CASES.weather}` }));
      expect(hasBanner(text), name).toBe(true);
    }
  });

  it('examples/weather/server is what the generator makes of the example manifest today', async () => {
    // Through the command's own pipeline, so the ledger (with the inputs it records) is compared too.
    const quiet = { out: () => {}, err: () => {} };
    const job = { manifest: join(repoRoot, CASES.weather), out: join(repoRoot, 'examples', 'weather', 'server'), banner: { command: 'mcp-gen server examples/weather/manifest.yaml', version: false } };
    const { report } = await checkServer(job, quiet);
    const regenerate = 'stale example: run `node bin/mcp-gen.js server examples/weather/manifest.yaml -o examples/weather/server --no-version-banner`';
    expect({ stale: report.stale, missing: report.missing, extra: report.extra }, regenerate).toEqual({ stale: [], missing: [], extra: [] });
  });

  it('leaves out what the manifest does not use', () => {
    const files = (name: CaseName): string[] => listFiles(outputs[name], (p) => p === 'generated/runtime');
    expect(files('resources-prompts')).not.toContain('generated/validators.js');
    expect(files('resources-prompts').filter((f) => f.startsWith('handlers/tools/'))).toEqual([]);
    expect(files('no-output')).not.toContain('handlers/prompts.ts');
    expect(files('no-output')).not.toContain('handlers/resources.ts');
    const server = readFileSync(join(outputs['no-output'], 'generated', 'server.ts'), 'utf8');
    expect(server).not.toContain('validateOutput');
    expect(server).toContain(`'{"tools":{},"logging":{}}'`);
    const docs = readFileSync(join(outputs['resources-prompts'], 'generated', 'server.ts'), 'utf8');
    expect(docs).toContain(`'{"resources":{},"prompts":{},"logging":{},"completions":{}}'`);
    expect(docs).toContain(`'["2025-06-18","2025-03-26"]'`);
  });
});

describe('generated code compiles', () => {
  it('under strict, exactOptionalPropertyTypes, noUncheckedIndexedAccess, verbatimModuleSyntax, noUnusedLocals (goldens and the example, one program)', () => {
    // Every output carries the same runtime; one real copy (the others are links to it) lets tsc
    // check it once instead of five times.
    const shared = join(work, 'shared-runtime');
    cpSync(join(outputs.weather, 'generated', 'runtime'), shared, { recursive: true });
    const projects: string[] = [];
    for (const name of Object.keys(CASES) as CaseName[]) {
      const project = join(work, `compile-${name}`);
      cpSync(outputs[name], project, { recursive: true, filter: (src) => !src.endsWith(`${name}/generated/runtime`) });
      symlinkSync(shared, join(project, 'generated', 'runtime'), 'dir');
      projects.push(project);
    }
    projects.push(join(repoRoot, 'examples', 'weather', 'server'));
    expect(typeCheck(projects)).toEqual([]);
  }, 300_000);
});
