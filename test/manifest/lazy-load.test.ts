/**
 * A warm run (every tool-schema check answered by the unit cache) of a JSON manifest loads neither
 * ajv's compiler nor the YAML library: each costs ~100 ms of module loading. Nor does a check the
 * precompiled meta-schema validators and the compile-free walk settle (schema-precheck.ts), cold
 * or after a change; a clean YAML manifest is read by js-yaml, the YAML library loaded only for a
 * message's position (yaml-fast.ts). Checked in fresh processes on the built package (dist/), the way the CLI runs.
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';
import { tempProject } from './helpers.js';

const dist = fileURLToPath(new URL('../../dist/pipeline/manifest.js', import.meta.url));

/** Loads `manifest` with a memo kept in `memoFile`; prints the CommonJS modules loaded. */
const SCRIPT = `
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
const [dist, manifest, memoFile] = process.argv.slice(1);
const stored = new Map(existsSync(memoFile) ? JSON.parse(readFileSync(memoFile, 'utf8')) : []);
const memo = (kind, input, compute) => {
  const key = kind + '\\0' + input;
  if (!stored.has(key)) stored.set(key, compute());
  return stored.get(key);
};
const { loadManifest } = await import(dist);
const { model } = await loadManifest(manifest, { memo });
writeFileSync(memoFile, JSON.stringify([...stored]));
const modules = Object.keys(createRequire(import.meta.url).cache).map((m) => m.split('node_modules/').pop());
console.log(JSON.stringify({ tools: model.tools.length, modules }));
`;

test('a load of a JSON manifest loads neither ajv\'s compiler nor yaml: warm, or cold when compiling would find nothing', async () => {
  const manifest = JSON.stringify({
    server: { name: 's', version: '1' },
    tools: [
      { name: 'a', inputSchema: { type: 'object', properties: { when: { type: 'string', format: 'date-time' } } } },
      { name: 'b', inputSchema: { type: 'object', properties: { n: { type: 'integer', minimum: 1 } } } },
    ],
  });
  const root = await tempProject({ 'manifest.json': manifest });
  const run = async (): Promise<{ tools: number; modules: string[] }> => {
    const args = ['--input-type=module', '-e', SCRIPT, dist, path.join(root, 'manifest.json'), path.join(root, 'memo.json')];
    return JSON.parse((await promisify(execFile)(process.execPath, args, { encoding: 'utf8' })).stdout) as { tools: number; modules: string[] };
  };
  const cold = await run();
  expect(cold.tools).toBe(2);
  // Both schemas miss the cache, and both are settled without compiling: no ajv but its runtime helpers.
  expect(cold.modules.filter((m) => m.startsWith('ajv/') && !m.startsWith('ajv/dist/runtime/'))).toEqual([]);
  expect(cold.modules.filter((m) => m.startsWith('ajv-formats/'))).toEqual([]);
  const warm = await run();
  expect(warm.tools).toBe(2);
  // The precompiled manifest validator needs ajv's small runtime helpers, nothing else of ajv.
  expect(warm.modules.filter((m) => m.startsWith('ajv/') && !m.startsWith('ajv/dist/runtime/'))).toEqual([]);
  expect(warm.modules.filter((m) => m.startsWith('yaml/'))).toEqual([]);
});

test('a check that misses the cache loads the compiler on the spot and reports what it finds', async () => {
  const root = await tempProject({});
  await writeFile(path.join(root, 'manifest.json'), JSON.stringify({ server: { name: 's', version: '1' }, tools: [{ name: 'a', inputSchema: { type: 'object', properties: { x: { type: 'string', format: 'colour' } } } }] }));
  const args = ['--input-type=module', '-e', SCRIPT, dist, path.join(root, 'manifest.json'), path.join(root, 'memo.json')];
  await expect(promisify(execFile)(process.execPath, args, { encoding: 'utf8' })).rejects.toThrow(/unknown format 'colour'/);
});

test('a clean YAML manifest is read without the yaml library (js-yaml, yaml-fast.ts); a mistake in it loads yaml for its position', async () => {
  const clean = 'server: { name: s, version: "1" }\ntools:\n  - name: a\n    inputSchema:\n      type: object\n      properties:\n        n: { type: integer, minimum: 1 }\n';
  const root = await tempProject({ 'manifest.yaml': clean, 'broken.yaml': clean.replace('integer', 'integr') });
  const run = (file: string) => promisify(execFile)(process.execPath, ['--input-type=module', '-e', SCRIPT, dist, path.join(root, file), path.join(root, `${file}.memo.json`)], { encoding: 'utf8' });
  const { tools, modules } = JSON.parse((await run('manifest.yaml')).stdout) as { tools: number; modules: string[] };
  expect(tools).toBe(1);
  expect(modules.filter((m) => m.startsWith('js-yaml/'))).not.toEqual([]);
  expect(modules.filter((m) => m.startsWith('yaml/'))).toEqual([]);
  await expect(run('broken.yaml')).rejects.toThrow(/broken\.yaml:7:20/);
});
