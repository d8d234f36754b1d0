/**
 * A keyed generated file's hash is taken from the unit cache, unread, only while its status is the
 * one recorded and it changed before the cache was written; any later edit is read and hashed.
 */
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiskStatuses } from '../../src/write/disk-status.js';
import { readUnitCache, UNIT_CACHE_FILE, UnitCache, writeUnitCache } from '../../src/write/unit-cache.js';
import { main } from '../../src/cli/main.js';
import { repoRoot } from '../client/support.js';

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');
/** A hash no file has: returned only when the recorded status is trusted instead of the bytes. */
const RECORDED = 'f'.repeat(64);
/** The file at `absolute` as a run with this cache finds it. */
const diskFile = (absolute: string, path: string, cache: UnitCache) => new DiskStatuses(cache).find(absolute, path);
const tick = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 30));

describe('disk status of keyed generated files', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mcp-gen-disk-status-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  /** Writes `text`, records it under RECORDED, and saves the cache after the file system's clock moved on. */
  async function recorded(name: string, text: string): Promise<{ file: string; out: string }> {
    const out = join(dir, name);
    const file = join(out, 'module.js');
    await mkdir(out, { recursive: true });
    await writeFile(file, text);
    const cache = UnitCache.empty('test');
    const statuses = new DiskStatuses(cache);
    statuses.record(file, 'module.js', RECORDED);
    statuses.save();
    await tick();
    await writeUnitCache(out, cache);
    return { file, out };
  }

  it('trusts the recorded hash of a file unchanged since the cache was written, without reading it', async () => {
    const { file, out } = await recorded('same', 'export const a = 1;\n');
    const found = diskFile(file, 'module.js', await readUnitCache(out, 'test'));
    expect(found?.sha256).toBe(RECORDED);
    // Its bytes are still there when asked for.
    expect(found?.bytes().toString()).toBe('export const a = 1;\n');
  });

  it('reads a file edited after the cache was written, even at the same size', async () => {
    const { file, out } = await recorded('edited', 'export const a = 1;\n');
    await writeFile(file, 'export const a = 2;\n');
    expect(diskFile(file, 'module.js', await readUnitCache(out, 'test'))?.sha256).toBe(sha256('export const a = 2;\n'));
  });

  it('reads a file that changed no earlier than the cache file (same clock tick), a file of another path, and without a cache on disk', async () => {
    const { file, out } = await recorded('racy', 'export const a = 1;\n');
    const changed = (await stat(file, { bigint: true })).ctimeNs;
    const cache = await readUnitCache(out, 'test');
    const bytes = await readFile(join(out, UNIT_CACHE_FILE));
    // The same entries, judged against a cache time that is not later than the file's change.
    expect(diskFile(file, 'module.js', UnitCache.fromBytes(bytes, 'test', changed + 1n))?.sha256).toBe(RECORDED);
    expect(diskFile(file, 'module.js', UnitCache.fromBytes(bytes, 'test', changed))?.sha256).toBe(sha256('export const a = 1;\n'));
    expect(diskFile(file, 'module.js', UnitCache.fromBytes(bytes, 'test'))?.sha256).toBe(sha256('export const a = 1;\n'));
    expect(diskFile(file, 'other.js', cache)?.sha256).toBe(sha256('export const a = 1;\n'));
    expect(diskFile(join(out, 'missing.js'), 'missing.js', cache)).toBeUndefined();
  });
});

describe('a warm run trusts no generated file edited after the last run', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mcp-gen-disk-status-cli-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('rewrites a same-size hand edit of any generated file, keyed or not, made right after a run', async () => {
    const out = join(dir, 'weather');
    const generate = async (): Promise<string[]> => {
      const lines: string[] = [];
      const code = await main(['server', join(repoRoot, 'examples', 'weather', 'manifest.yaml'), '-o', out, '--no-version-banner'], { out: (l) => lines.push(l), err: (l) => lines.push(l) });
      expect(code, lines.join('\n')).toBe(0);
      return lines;
    };
    await generate();
    const edits = ['generated/server.ts', 'generated/validators/getWeather.js', 'generated/validators.ts', 'generated/runtime/server/lists.ts'];
    const originals = new Map<string, string>();
    for (const path of edits) originals.set(path, await readFile(join(out, path), 'utf8'));
    await generate();
    for (const path of edits) {
      const original = originals.get(path) as string;
      // Same size: one letter of the last identifier-ish run swapped for another.
      const at = original.search(/[a-z](?=[^a-z]*$)/);
      const edited = original.slice(0, at) + (original[at] === 'x' ? 'y' : 'x') + original.slice(at + 1);
      expect(edited.length).toBe(original.length);
      await writeFile(join(out, path), edited);
      await generate();
      expect(await readFile(join(out, path), 'utf8'), path).toBe(original);
    }
  }, 240_000);
});
