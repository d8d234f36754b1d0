/**
 * `mcp-gen check` on MCP Apps view bindings (`mcp-gen client --view`): current right after
 * generation, stale when a binding is hand-edited or the manifest changes, fixed by the printed
 * command; and a config target declaring `view`.
 */
import { cpSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { splitCommand } from '../../src/load/introspect.js';
import { cli, repoRoot } from '../client/support.js';

const run = (...argv: string[]) => cli(argv);
const VIEW = 'ui://weather/forecast';

/** A copy of the apps fixture (a manifest with a view and its page) and the view's bindings made from it. */
async function project(): Promise<{ dir: string; out: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'mcp-gen-check-view-'));
  cpSync(join(repoRoot, 'test/fixtures/apps-ui/weather-views'), dir, { recursive: true });
  const out = join(dir, 'page', 'view');
  const made = await run('client', join(dir, 'manifest.yaml'), '--view', VIEW, '-o', out);
  expect(made.code, made.err).toBe(0);
  return { dir, out };
}

async function runFix(err: string): Promise<number> {
  const line = /fix with: (.*)$/m.exec(err)?.[1];
  expect(line).toBeDefined();
  const [tool, ...args] = splitCommand(line as string);
  expect(tool).toBe('mcp-gen');
  return (await run(...args)).code;
}

describe('mcp-gen check: view bindings', () => {
  it('are up to date right after generation', async () => {
    const { out } = await project();
    const result = await run('check', out);
    expect(result.code, result.err).toBe(0);
    expect(result.out).toMatch(/view: up to date\./);
  });

  it('a hand-edited binding is stale; the printed fix regenerates the view, not a client', async () => {
    const { out } = await project();
    await writeFile(join(out, 'view.ts'), `${await readFile(join(out, 'view.ts'), 'utf8')}// edited\n`);
    const result = await run('check', out);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/stale: .*page\/view\/view\.ts/);
    expect(result.err).not.toMatch(/missing:|extra:/);
    expect(result.err).toMatch(/fix with: mcp-gen client .*manifest\.yaml -o .*page\/view --view ui:\/\/weather\/forecast$/m);
    expect(await runFix(result.err)).toBe(0);
    const after = await run('check', out);
    expect(after.code, after.err).toBe(0);
  });

  it('a changed manifest makes the bindings stale', async () => {
    const { dir, out } = await project();
    const manifest = join(dir, 'manifest.yaml');
    await writeFile(manifest, (await readFile(manifest, 'utf8')).replace('properties: { temperature: { type: number } }', 'properties: { temperature: { type: integer } }'));
    const result = await run('check', out, '--json');
    expect(result.code).toBe(1);
    const [output] = JSON.parse(result.out).outputs;
    expect(output.status).toBe('stale');
    expect(output.changedInputs).toEqual([expect.stringMatching(/manifest\.yaml$/)]);
    expect(output.stale).toContain('validators.ts');
  });

  it('a config target declares the view', async () => {
    const { dir } = await project();
    const config = join(dir, 'mcp-gen.config.yaml');
    await writeFile(config, `targets:\n  - { command: client, manifest: manifest.yaml, view: "${VIEW}", out: bindings }\n`);
    const home = process.cwd();
    process.chdir(dir);
    try {
      const made = await run('client', 'manifest.yaml', '--view', VIEW, '-o', 'bindings');
      expect(made.code, made.err).toBe(0);
    } finally {
      process.chdir(home);
    }
    const current = await run('check', config);
    expect(current.code, current.err).toBe(0);
    expect(current.out).toMatch(/bindings: up to date\./);

    await writeFile(join(dir, 'bindings', 'bridge.ts'), 'export {};\n');
    const stale = await run('check', config, '--json');
    expect(stale.code).toBe(1);
    const [output] = JSON.parse(stale.out).outputs;
    expect(output.stale).toEqual(['bridge.ts']);
    expect(output.fix).toMatch(/^cd .* && mcp-gen client manifest\.yaml -o bindings --view ui:\/\/weather\/forecast$/);
  });

  it.each([
    ['on a server target', `{ command: server, manifest: manifest.yaml, view: "${VIEW}", out: server }`, /"view" belongs to client targets/],
    ['that is not a string', '{ command: client, manifest: manifest.yaml, view: 3, out: bindings }', /\.view must be a non-empty string/],
  ])('a config `view` %s is refused, exit 2', async (_what, target, message) => {
    const { dir } = await project();
    const config = join(dir, 'mcp-gen.config.yaml');
    await writeFile(config, `targets:\n  - ${target}\n`);
    const result = await run('check', config);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(message);
  });
});
