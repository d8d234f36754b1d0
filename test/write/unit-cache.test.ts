/**
 * The unit cache (`.mcp-gen-cache.json`): a warm run reuses what a cold one computed, and the cache
 * can only save time, never change bytes. Correctness only; timing is bench/scale.mjs's job.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm, writeFile, copyFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { Console } from '../../src/cli/output.js';
import { UNIT_CACHE_FILE, UNIT_CACHE_FORMAT, UnitCache } from '../../src/write/unit-cache.js';
import { repoRoot } from '../client/support.js';

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

async function run(...argv: string[]): Promise<void> {
  const err: string[] = [];
  const io: Console = { out: () => {}, err: (l) => err.push(l) };
  const code = await main(argv, io);
  if (code !== 0) throw new Error(`mcp-gen ${argv.join(' ')} exited ${code}: ${err.join('\n')}`);
}

/** Every file of a folder but the cache, by relative path. */
async function files(dir: string): Promise<Record<string, string>> {
  const result: Record<string, string> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || entry.name === UNIT_CACHE_FILE) continue;
    const path = join(entry.parentPath, entry.name);
    result[relative(dir, path)] = await readFile(path, 'utf8');
  }
  return result;
}

interface CacheFileShape {
  generator: string;
  cacheFormat: number;
  fingerprint: string;
  entries: Record<string, [string, string]>;
}

describe('UnitCache', () => {
  const compute = (value: string) => () => value;

  it('computes once per kind and input, and a saved cache answers the next run', () => {
    const cache = UnitCache.empty('gen-1');
    expect(cache.memo('k', 'input', compute('a'))).toBe('a');
    expect(cache.memo('k', 'input', compute('b'))).toBe('a');
    expect(cache.memo('other', 'input', compute('c'))).toBe('c');
    expect([cache.hits, cache.misses]).toEqual([1, 2]);
    const next = UnitCache.fromText(cache.text(), 'gen-1');
    expect(next.memo('k', 'input', compute('fresh'))).toBe('a');
    expect(next.hits).toBe(1);
  });

  it('keeps only what the run used, so entries of removed tools do not pile up', () => {
    const first = UnitCache.empty('gen-1');
    first.memo('k', 'kept', compute('1'));
    first.memo('k', 'dropped', compute('2'));
    const second = UnitCache.fromText(first.text(), 'gen-1');
    second.memo('k', 'kept', compute('x'));
    expect(Object.keys((JSON.parse(second.text()) as CacheFileShape).entries)).toHaveLength(1);
  });

  it('ignores a cache that is not JSON, not mcp-gen\'s, of another format or of another generator', () => {
    const saved = UnitCache.empty('gen-1');
    saved.memo('k', 'input', compute('cached'));
    const text = saved.text();
    const file = JSON.parse(text) as CacheFileShape;
    const unusable = [
      text.slice(0, text.length / 2),
      'null',
      '[]',
      JSON.stringify({ ...file, generator: 'other' }),
      JSON.stringify({ ...file, cacheFormat: UNIT_CACHE_FORMAT + 1 }),
      JSON.stringify({ ...file, entries: 'nope' }),
    ];
    for (const candidate of unusable) {
      expect(UnitCache.fromText(candidate, 'gen-1').memo('k', 'input', compute('fresh')), candidate.slice(0, 60)).toBe('fresh');
    }
    // Another generator (a rebuilt mcp-gen): its entries are not ours, whatever they hold.
    expect(UnitCache.fromText(text, 'gen-2').memo('k', 'input', compute('fresh'))).toBe('fresh');
  });

  it('drops an entry whose value no longer matches its recorded hash, and only that one', () => {
    const saved = UnitCache.empty('gen-1');
    saved.memo('k', 'a', compute('value a'));
    saved.memo('k', 'b', compute('value b'));
    const file = JSON.parse(saved.text()) as CacheFileShape;
    for (const entry of Object.values(file.entries)) if (entry[0] === 'value a') entry[0] = 'tampered';
    const loaded = UnitCache.fromText(JSON.stringify(file), 'gen-1');
    expect(loaded.memo('k', 'a', compute('fresh a'))).toBe('fresh a');
    expect(loaded.memo('k', 'b', compute('fresh b'))).toBe('value b');
  });
});

describe('server and client generation with the unit cache', () => {
  let dir: string;
  let manifest: string;
  const generate = (command: 'server' | 'client', out: string): Promise<void> => run(command, manifest, '-o', join(dir, out), '--no-version-banner');
  const changeOneTool = async (): Promise<void> => {
    const text = await readFile(manifest, 'utf8');
    // get_forecast alone changes: up to 14 days instead of 7.
    const changed = text.replace(/maximum: 7\n/, 'maximum: 14\n');
    expect(changed).not.toBe(text);
    await writeFile(manifest, changed);
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mcp-gen-unit-cache-'));
    manifest = join(dir, 'manifest.yaml');
    await copyFile(join(repoRoot, 'examples', 'weather', 'manifest.yaml'), manifest);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  for (const command of ['server', 'client'] as const) {
    it(`${command}: after one tool changed, a warm run writes the same bytes as a cold one, and a damaged or foreign cache changes nothing`, async () => {
      await copyFile(join(repoRoot, 'examples', 'weather', 'manifest.yaml'), manifest);
      await generate(command, `${command}-warm`);
      const cacheText = await readFile(join(dir, `${command}-warm`, UNIT_CACHE_FILE), 'utf8');
      const cache = JSON.parse(cacheText) as CacheFileShape;
      expect(cache.generator).toBe('mcp-gen');
      expect(Object.keys(cache.entries).length).toBeGreaterThan(0);

      await changeOneTool();
      await generate(command, `${command}-warm`);
      await generate(command, `${command}-cold`);
      const cold = await files(join(dir, `${command}-cold`));
      const warm = await files(join(dir, `${command}-warm`));
      // User-owned handler skeletons are created once and kept, so only generated files compare.
      const generated = Object.keys(cold).filter((p) => !p.startsWith('handlers'));
      expect(generated.length).toBeGreaterThan(5);
      for (const path of generated) expect(warm[path], path).toBe(cold[path]);

      // A damaged cache (cut in half) and one of another generator: ignored, same bytes.
      for (const damaged of [cacheText.slice(0, cacheText.length / 2), JSON.stringify({ ...cache, fingerprint: 'another mcp-gen' })]) {
        await writeFile(join(dir, `${command}-cold`, UNIT_CACHE_FILE), damaged);
        await generate(command, `${command}-cold`);
        expect(await files(join(dir, `${command}-cold`))).toEqual(cold);
      }
    }, 240_000);
  }

  it('really reuses cached results: a value planted under a real key (hash recomputed) ends up in the output', async () => {
    await copyFile(join(repoRoot, 'examples', 'weather', 'manifest.yaml'), manifest);
    const out = join(dir, 'planted');
    await generate('server', 'planted');
    const cacheFile = join(out, UNIT_CACHE_FILE);
    const cache = JSON.parse(await readFile(cacheFile, 'utf8')) as CacheFileShape;
    // The compiled validators of get_weather (generated/validators/getWeather.js), as one run left them.
    const planted = Object.entries(cache.entries).filter(([, [value]]) => value.includes('export const [validateGetWeatherInput'));
    expect(planted).toHaveLength(1);
    const [key, [value]] = planted[0] as [string, [string, string]];
    const poisoned = value.replace('must have required property', 'PLANTED BY THE TEST');
    expect(poisoned).not.toBe(value);
    cache.entries[key] = [poisoned, sha256(poisoned)];
    await writeFile(cacheFile, JSON.stringify(cache));
    await generate('server', 'planted');
    expect(await readFile(join(out, 'generated', 'validators', 'getWeather.js'), 'utf8')).toContain('PLANTED BY THE TEST');
    // And with the same entry but its old hash, the value is refused and the output is right again.
    cache.entries[key] = [poisoned, sha256(value)];
    await writeFile(cacheFile, JSON.stringify(cache));
    await generate('server', 'planted');
    expect(await readFile(join(out, 'generated', 'validators', 'getWeather.js'), 'utf8')).not.toContain('PLANTED BY THE TEST');
  }, 240_000);
});
