/**
 * `mcp-gen server --otel`: the generated main.ts turns tracing on and package.json depends on
 * @opentelemetry/api (pinned to what mcp-gen tests with); without the flag neither appears. The
 * ledger records the flag, so `mcp-gen check` regenerates the same files and its fix says --otel.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planServer, type ServerPlan } from '../../src/emit/server/index.js';
import { OTEL_DEPENDENCIES } from '../../src/emit/server/project-files.js';
import { fixCommand } from '../../src/check/fix-command.js';
import { targetFromRecipe } from '../../src/check/target.js';
import { cli } from '../client/support.js';
import { loadModel, repoRoot, runtimeSources, tempDir, typeCheck } from '../server/support.js';

const manifest = join(repoRoot, 'test/fixtures/server/no-output/manifest.yaml');
const file = (plan: ServerPlan, path: string): string => plan.files.find((f) => f.path === path)!.content;

describe('mcp-gen server --otel', async () => {
  const model = await loadModel(manifest);
  const plain = await planServer(model, { runtimeSources: runtimeSources() });
  const traced = await planServer(model, { runtimeSources: runtimeSources(), otel: true });

  it('adds @opentelemetry/api to package.json and turns tracing on in main.ts; nothing of it without the flag', () => {
    expect(JSON.parse(file(traced, 'package.json')).dependencies).toEqual({ '@opentelemetry/api': '1.9.1' });
    expect(JSON.parse(file(plain, 'package.json')).dependencies).toBeUndefined();
    expect(file(traced, 'main.ts')).toContain('const tracing = true;');
    expect(file(traced, 'main.ts')).toMatch(/\{ logger: log, limits, tracing \}/);
    expect(file(plain, 'main.ts')).not.toContain('tracing');
    // The runtime is the same either way: tracing is loaded by the option, not by what is copied.
    const runtime = (plan: ServerPlan) => plan.files.filter((f) => f.path.startsWith('generated/runtime/')).map((f) => [f.path, f.content]);
    expect(runtime(traced)).toEqual(runtime(plain));
  });

  it('pins @opentelemetry/api to the version mcp-gen itself tests with', () => {
    const own = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    expect(own.devDependencies['@opentelemetry/api']).toBe(OTEL_DEPENDENCIES['@opentelemetry/api']);
  });

  it('is recorded in the ledger: check passes on the output, its fix command repeats --otel, and it compiles', async () => {
    const out = tempDir('otel-flag');
    const run = await cli(['server', manifest, '-o', out, '--otel', '--no-version-banner']);
    expect(run.code, run.err).toBe(0);
    const ledger = JSON.parse(readFileSync(join(out, '.mcp-gen-ledger.json'), 'utf8')) as { recipe: Parameters<typeof targetFromRecipe>[1] };
    expect(ledger.recipe.options['otel']).toBe(true);
    expect(fixCommand(targetFromRecipe(out, ledger.recipe))).toContain('--otel');
    const checked = await cli(['check', out]);
    expect(checked.code, checked.out + checked.err).toBe(0);
    // main.ts with tracing compiles under the generated project's strict settings.
    expect(typeCheck([out])).toEqual([]);
  });
});
