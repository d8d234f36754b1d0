/**
 * The unit cache (`.mcp-gen-cache.json`): a warm run reuses what a cold one computed, and the cache
 * can only save time, never change bytes. Correctness only; timing is bench/scale.mjs's job.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile, copyFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { Console } from '../../src/cli/output.js';
import { decodeEntries, decodeUnitCache, encodeEntries, encodeUnitCache, UNIT_CACHE_FILE, UNIT_CACHE_FORMAT, UnitCache, writeEntries, type Entry } from '../../src/write/unit-cache.js';
import { dump } from 'js-yaml';
import { makeManifest } from '../../bench/scale/make-manifest.mjs';
import { repoRoot } from '../client/support.js';
import { outputFiles } from '../support/output-files.js';

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

async function run(...argv: string[]): Promise<void> {
  const err: string[] = [];
  const io: Console = { out: () => {}, err: (l) => err.push(l) };
  const code = await main(argv, io);
  if (code !== 0) throw new Error(`mcp-gen ${argv.join(' ')} exited ${code}: ${err.join('\n')}`);
}


/** The header (first line) of a cache file's text. */
const headerOf = (text: string): Record<string, unknown> => JSON.parse(text.slice(0, text.indexOf('\n'))) as Record<string, unknown>;
/** The same text with another header line. */
const withHeader = (text: string, header: Record<string, unknown>): string => `${JSON.stringify(header)}${text.slice(text.indexOf('\n'))}`;

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
    expect(decodeUnitCache(second.text(), 'gen-1')?.size).toBe(1);
  });

  it('ignores a cache that is not JSON, not mcp-gen\'s, of another format or of another generator', () => {
    const saved = UnitCache.empty('gen-1');
    saved.memo('k', 'input', compute('cached'));
    const text = saved.text();
    const header = headerOf(text);
    const body = text.slice(text.indexOf('\n') + 1);
    const unusable = [
      text.slice(0, text.length / 2),
      text.slice(0, -1),
      '',
      'null',
      '[]\n[]\n',
      body,
      withHeader(text, { ...header, generator: 'other' }),
      withHeader(text, { ...header, cacheFormat: UNIT_CACHE_FORMAT - 1 }),
      withHeader(text, { ...header, sha256: 'nope' }),
      // The layout of format 1 (one JSON object, a hash per entry).
      JSON.stringify({ generator: 'mcp-gen', cacheFormat: 1, fingerprint: 'gen-1', entries: {} }),
    ];
    for (const candidate of unusable) {
      expect(UnitCache.fromText(candidate, 'gen-1').memo('k', 'input', compute('fresh')), candidate.slice(0, 60)).toBe('fresh');
    }
    // Another generator (a rebuilt mcp-gen): its entries are not ours, whatever they hold.
    expect(UnitCache.fromText(text, 'gen-2').memo('k', 'input', compute('fresh'))).toBe('fresh');
  });

  it('refuses the whole file when any byte after the header changed, without throwing', () => {
    const saved = UnitCache.empty('gen-1');
    saved.memo('k', 'a', compute('value a'));
    saved.memo('k', 'b', compute('value b \u00e9\u{1F600}'));
    const text = saved.text();
    expect(decodeUnitCache(text, 'gen-1')?.size).toBe(2);
    for (const damaged of [text.replace('value a', 'value A'), text.replace('value b', 'value  b'), text.replace('[[', '[ [')]) {
      expect(decodeUnitCache(damaged, 'gen-1'), damaged).toBeUndefined();
      const loaded = UnitCache.fromText(damaged, 'gen-1');
      expect(loaded.memo('k', 'a', compute('fresh a'))).toBe('fresh a');
      expect(loaded.memo('k', 'b', compute('fresh b'))).toBe('fresh b');
    }
    // A body that hashes right but whose index does not add up (written by a broken writer): refused too.
    const entries = [['x', 'abc']] as const;
    const good = encodeUnitCache('gen-1', entries);
    expect(decodeUnitCache(good, 'gen-1')).toEqual(new Map(entries));
    for (const index of ['[["x",4]]', '[["x",2]]', '[["x",-1]]', '[[1,3]]', '{}', 'not json']) {
      const body = `${index}\nabc`;
      const forged = `${JSON.stringify({ ...headerOf(good), sha256: sha256(body) })}\n${body}`;
      expect(decodeUnitCache(forged, 'gen-1'), index).toBeUndefined();
    }
  });

  it('keeps values of any text, and leaves out one that UTF-8 cannot carry', () => {
    const values = ['', 'line\nbreaks\r\n', '"quotes" and \\ and \u2028', 'caf\u00e9 \u{1F600} \u4e2d'];
    const saved = UnitCache.empty('gen-1');
    values.forEach((value, i) => saved.memo('k', String(i), compute(value)));
    saved.memo('k', 'lone', compute('half \ud800 a pair'));
    // Through UTF-8, as the file is written and read.
    const loaded = UnitCache.fromText(Buffer.from(saved.text(), 'utf8').toString('utf8'), 'gen-1');
    values.forEach((value, i) => expect(loaded.memo('k', String(i), compute('fresh'))).toBe(value));
    expect(loaded.memo('k', 'lone', compute('fresh'))).toBe('fresh');
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

  // The folder's cache alone: a cold run here is cold (the shared pack is test/write/shared-pack.test.ts's).
  const sharedCache = process.env['MCP_GEN_SHARED_CACHE'];
  beforeAll(async () => {
    process.env['MCP_GEN_SHARED_CACHE'] = 'off';
    dir = await mkdtemp(join(tmpdir(), 'mcp-gen-unit-cache-'));
    manifest = join(dir, 'manifest.yaml');
    await copyFile(join(repoRoot, 'examples', 'weather', 'manifest.yaml'), manifest);
  });
  afterAll(async () => {
    if (sharedCache === undefined) delete process.env['MCP_GEN_SHARED_CACHE'];
    else process.env['MCP_GEN_SHARED_CACHE'] = sharedCache;
    await rm(dir, { recursive: true, force: true });
  });

  for (const command of ['server', 'client'] as const) {
    it(`${command}: after one tool changed, a warm run writes the same bytes as a cold one, and a damaged or foreign cache changes nothing`, async () => {
      await copyFile(join(repoRoot, 'examples', 'weather', 'manifest.yaml'), manifest);
      await generate(command, `${command}-warm`);
      const cacheText = await readFile(join(dir, `${command}-warm`, UNIT_CACHE_FILE), 'utf8');
      const header = headerOf(cacheText);
      expect(header['generator']).toBe('mcp-gen');
      expect(decodeUnitCache(cacheText, header['fingerprint'] as string)?.size).toBeGreaterThan(0);

      await changeOneTool();
      await generate(command, `${command}-warm`);
      await generate(command, `${command}-cold`);
      const cold = await outputFiles(join(dir, `${command}-cold`));
      const warm = await outputFiles(join(dir, `${command}-warm`));
      // User-owned handler skeletons are created once and kept, so only generated files compare.
      const generated = Object.keys(cold).filter((p) => !p.startsWith('handlers'));
      expect(generated.length).toBeGreaterThan(5);
      for (const path of generated) expect(warm[path], path).toBe(cold[path]);

      // A damaged cache (cut in half) and one of another generator: ignored, same bytes.
      for (const damaged of [cacheText.slice(0, cacheText.length / 2), withHeader(cacheText, { ...header, fingerprint: 'another mcp-gen' })]) {
        await writeFile(join(dir, `${command}-cold`, UNIT_CACHE_FILE), damaged);
        await generate(command, `${command}-cold`);
        expect(await outputFiles(join(dir, `${command}-cold`))).toEqual(cold);
      }
    }, 240_000);
  }

  it('a generated YAML manifest (bench/scale.mjs\'s shape): after one tool changed, warm server and client write the same bytes as cold ones', async () => {
    const yaml = (changed: Record<number, number>) => dump(makeManifest({ tools: 24, changed }), { lineWidth: -1, noRefs: true });
    await writeFile(manifest, yaml({}));
    for (const command of ['server', 'client'] as const) await generate(command, `scale-${command}-warm`);
    // Tool 7's schemas change, and a comment and a blank line go in among the tools: read tool by tool all the same.
    const changed = yaml({ 7: 1 }).replace('\n  - name: list_account_20\n', '\n  # a comment\n\n  - name: list_account_20\n');
    expect(changed).toContain('# a comment');
    await writeFile(manifest, changed);
    for (const command of ['server', 'client'] as const) {
      await generate(command, `scale-${command}-warm`);
      await generate(command, `scale-${command}-cold`);
      const cold = await outputFiles(join(dir, `scale-${command}-cold`));
      const warm = await outputFiles(join(dir, `scale-${command}-warm`));
      const generated = Object.keys(cold).filter((p) => !p.startsWith('handlers'));
      expect(generated.length, command).toBeGreaterThan(5);
      for (const path of generated) expect(warm[path], `${command} ${path}`).toBe(cold[path]);
    }
  }, 240_000);

  it('really reuses cached results: a value planted under a real key (hash recomputed) ends up in the output', async () => {
    await copyFile(join(repoRoot, 'examples', 'weather', 'manifest.yaml'), manifest);
    // The client: its one validators.js is assembled from each tool's cached code (a server's
    // per-tool modules are cached by hash only: test/write/deferred-validators.test.ts).
    const out = join(dir, 'planted');
    await generate('client', 'planted');
    const cacheFile = join(out, UNIT_CACHE_FILE);
    const text = await readFile(cacheFile, 'utf8');
    const fingerprint = headerOf(text)['fingerprint'] as string;
    const entries = decodeUnitCache(text, fingerprint) as Map<string, string>;
    // The compiled validators of get_weather (a client checks results only), as one run left them.
    const planted = [...entries].filter(([, value]) => value.includes('export const [validateGetWeatherOutput'));
    expect(planted).toHaveLength(1);
    const [key, value] = planted[0] as [string, string];
    const poisoned = value.replace('"#/required"', '"PLANTED BY THE TEST"');
    expect(poisoned).not.toBe(value);
    entries.set(key, poisoned);
    await writeFile(cacheFile, encodeUnitCache(fingerprint, entries));
    await generate('client', 'planted');
    expect(await readFile(join(out, 'validators.ts'), 'utf8')).toContain('PLANTED BY THE TEST');
    // And with the same value planted but the file's old hash, the cache is refused and the output is right again.
    entries.set(key, poisoned);
    const replanted = encodeUnitCache(fingerprint, entries);
    const oldHash = headerOf(encodeUnitCache(fingerprint, new Map([...entries, [key, value]])))['sha256'];
    await writeFile(cacheFile, withHeader(replanted, { ...headerOf(replanted), sha256: oldHash }));
    await generate('client', 'planted');
    expect(await readFile(join(out, 'validators.ts'), 'utf8')).not.toContain('PLANTED BY THE TEST');
  }, 240_000);
});

describe('a cache file written a run at a time', () => {
  it('holds the very bytes of the file made whole, and reads back', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mcp-gen-write-entries-'));
    try {
      // Past one run of values by count (1,024) and by size (1 MiB); texts and bytes, wide characters, a lone surrogate (left out).
      const entries: [string, Entry][] = [];
      for (let i = 0; i < 3000; i++) entries.push([`key-${String(i).padStart(5, '0')}`, i % 2 === 0 ? { text: `value ${i} é ✓ 🙂` } : { bytes: Buffer.from(`bytes ${i}`) }]);
      entries.push(['big', { text: 'x'.repeat(1536 * 1024) }]);
      entries.push(['lone', { text: 'a\uD800b' }]);
      const path = join(dir, 'cache');
      writeEntries(path, 'fingerprint', entries.reverse(), { stamp: 'ü' });
      const written = await readFile(path);
      expect(written.equals(encodeEntries('fingerprint', entries, { stamp: 'ü' }))).toBe(true);
      const decoded = decodeEntries(written, 'fingerprint');
      expect(decoded?.size).toBe(3001);
      expect(decoded?.get('key-00002')?.bytes?.toString('utf8')).toBe('value 2 é ✓ 🙂');
      expect(decoded?.has('lone')).toBe(false);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
