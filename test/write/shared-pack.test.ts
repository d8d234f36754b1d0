/**
 * The unit cache's shared tier (src/write/shared-pack.ts): one pack per manifest in the user cache
 * folder, read on a miss of the output folder's own cache. It can only save time: a client after a
 * server, or a server in a fresh folder, takes results from the pack and writes the very bytes a
 * run without it writes; a damaged pack is a silent miss; runs at once never leave a mixed pack.
 */
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { Console } from '../../src/cli/output.js';
import { writeServer } from '../../src/pipeline/server.js';
import { packsFolder, prune, PRUNE_AFTER_MS, SharedPack } from '../../src/write/shared-pack.js';
import { decodeEntries, encodeEntries, UNIT_CACHE_FILE, UnitCache } from '../../src/write/unit-cache.js';
import { repoRoot } from '../client/support.js';
import { outputFiles } from '../support/output-files.js';

const FINGERPRINT = 'gen-1';

/** A fresh folder cache with the pack at `path` behind it. */
function cacheWithPack(path: string, limitBytes?: number): { cache: UnitCache; pack: SharedPack } {
  const cache = UnitCache.empty(FINGERPRINT);
  const pack = new SharedPack(path, FINGERPRINT, limitBytes);
  cache.attach(pack);
  return { cache, pack };
}

/** The keys a pack file holds (undefined when it is not a sound pack). */
async function packKeys(path: string): Promise<string[] | undefined> {
  const entries = decodeEntries(await readFile(path), FINGERPRINT);
  return entries && [...entries.keys()].sort();
}

const never = (): string => {
  throw new Error('computed, but the pack had it');
};

describe('SharedPack', () => {
  let dir: string;
  let path: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mcp-gen-pack-'));
    path = join(packsFolder(dir), 'manifest.pack');
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it("answers a fresh folder's miss with what another run kept, for the kinds it holds only", async () => {
    const first = cacheWithPack(path);
    expect(first.cache.memo('types-tool', 'tool a', () => 'type A')).toBe('type A');
    first.cache.memo('prettier', 'a file of one output', () => 'formatted');
    first.cache.put('disk-status', '', 'statuses of one folder');
    await first.pack.save();

    const second = cacheWithPack(path);
    expect(second.cache.memo('types-tool', 'tool a', never)).toBe('type A');
    expect([second.cache.hits, second.cache.sharedHits, second.cache.misses]).toEqual([1, 1, 0]);
    // Steps tied to one output folder stay in that folder's cache.
    expect(second.cache.memo('prettier', 'a file of one output', () => 'computed')).toBe('computed');
    expect(second.cache.peek('disk-status', '')).toBeUndefined();
    expect(await packKeys(path)).toHaveLength(1);
    // And the folder's own cache keeps what the pack gave, for the folder's next run.
    expect(UnitCache.fromBytes(second.cache.bytes(), FINGERPRINT).memo('types-tool', 'tool a', never)).toBe('type A');
  });

  it('keeps a value the folder keeps in another form (recallShared/keepShared) in the pack alone', async () => {
    const first = cacheWithPack(path);
    first.cache.memo('tool-validator-hashes', 'tool a', () => 'hash of the code');
    first.cache.keepShared('tool-validators', 'tool a', 'the code');
    expect(decodeEntries(first.cache.bytes(), FINGERPRINT)?.size).toBe(1);
    await first.pack.save();
    const second = cacheWithPack(path);
    expect(second.cache.memo('tool-validator-hashes', 'tool a', () => second.cache.recallShared('tool-validators', 'tool a') ?? 'missed')).toBe('the code');
    expect([second.cache.hits, second.cache.sharedHits, second.cache.misses]).toEqual([1, 1, 0]);
  });

  it('treats a damaged, foreign or unreadable pack as a silent miss', async () => {
    const first = cacheWithPack(path);
    first.cache.memo('types-tool', 'tool a', () => 'type A');
    await first.pack.save();
    const sound = await readFile(path);
    const flipped = Buffer.from(sound);
    flipped.writeUInt8(flipped.readUInt8(flipped.length - 2) ^ 1, flipped.length - 2);
    for (const bytes of [flipped, sound.subarray(0, sound.length - 3), Buffer.from('not a pack'), Buffer.alloc(0)]) {
      await writeFile(path, bytes);
      const next = cacheWithPack(path);
      expect(next.cache.memo('types-tool', 'tool a', () => 'computed')).toBe('computed');
      expect(next.cache.sharedHits).toBe(0);
    }
    // Another generator's pack: the same.
    const other = UnitCache.empty('gen-2');
    other.attach(new SharedPack(path, 'gen-2'));
    await writeFile(path, sound);
    expect(other.memo('types-tool', 'tool a', () => 'computed')).toBe('computed');
  });

  it('writes back what the run used joined with what the pack held, or what the run used alone past the limit', async () => {
    const first = cacheWithPack(path);
    first.cache.memo('types-tool', 'tool a', () => 'type A');
    await first.pack.save();
    const second = cacheWithPack(path);
    second.cache.memo('types-tool', 'tool b', () => 'type B');
    await second.pack.save();
    expect(await packKeys(path)).toHaveLength(2);
    // Past the limit (here 10 bytes), the pack is what the last run used: it never grows without end.
    const third = cacheWithPack(path, 10);
    third.cache.memo('types-tool', 'tool c', () => 'type C');
    await third.pack.save();
    expect(await packKeys(path)).toHaveLength(1);
    expect(cacheWithPack(path).cache.memo('types-tool', 'tool c', never)).toBe('type C');
  });

  it('leaves a pack that had everything as it was, only marked used, and prunes packs unused for 30 days', async () => {
    const first = cacheWithPack(path);
    first.cache.memo('types-tool', 'tool a', () => 'type A');
    await first.pack.save();
    const before = await readFile(path);
    const old = new Date(Date.now() - PRUNE_AFTER_MS - 60_000);
    await utimes(path, old, old);
    const folder = packsFolder(dir);
    const unused = join(folder, 'unused.pack');
    const recent = join(folder, 'recent.pack');
    const leftover = join(folder, 'recent.pack.123.abc.tmp');
    for (const file of [unused, recent, leftover]) await writeFile(file, 'x');
    await utimes(unused, old, old);
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
    await utimes(leftover, twoHoursAgo, twoHoursAgo);

    const second = cacheWithPack(path);
    second.cache.memo('types-tool', 'tool a', never);
    await second.pack.save();
    expect(await readFile(path)).toEqual(before);
    expect((await stat(path)).mtimeMs).toBeGreaterThan(Date.now() - 60_000);
    expect((await readdir(folder)).sort()).toEqual(['manifest.pack', 'recent.pack']);
  });

  it('keeps all packs together under a limit by deleting the ones used longest ago', async () => {
    const folder = packsFolder(dir);
    await mkdir(folder, { recursive: true });
    const now = Date.now();
    // Four packs of 100 bytes, used 4, 3, 2 and 1 hours ago; a limit of 250 bytes keeps the two newest.
    for (const [name, hours] of [['a', 4], ['b', 3], ['c', 2], ['d', 1]] as const) {
      const file = join(folder, `${name}.pack`);
      await writeFile(file, 'x'.repeat(100));
      const at = new Date(now - hours * 3600_000);
      await utimes(file, at, at);
    }
    await prune(folder, now, 250);
    expect((await readdir(folder)).sort()).toEqual(['c.pack', 'd.pack']);
    await prune(folder, now, 250);
    expect((await readdir(folder)).sort()).toEqual(['c.pack', 'd.pack']);
  });

  it('runs saving at once leave one sound pack, each run whole, never a mix', async () => {
    const seed = cacheWithPack(path);
    seed.cache.memo('types-tool', 'seed', () => 'seed');
    await seed.pack.save();
    const runs = Array.from({ length: 8 }, (_, i) => {
      const run = cacheWithPack(path);
      for (let j = 0; j < 50; j++) run.cache.memo('types-tool', `run ${i} tool ${j}`, () => `value ${i}.${j} `.repeat(200));
      return run;
    });
    await Promise.all(runs.map((run) => run.pack.save()));
    const keys = await packKeys(path);
    expect(keys).toHaveLength(51);
    // Exactly one run's entries (and the seed it read): every entry comes back as that run computed it.
    const present = runs.map((_, i) => cacheWithPack(path).cache.memo('types-tool', `run ${i} tool 0`, () => 'missing') !== 'missing');
    expect(present.filter(Boolean)).toHaveLength(1);
    const winner = present.indexOf(true);
    const reader = cacheWithPack(path).cache;
    for (let j = 0; j < 50; j++) expect(reader.memo('types-tool', `run ${winner} tool ${j}`, never)).toBe(`value ${winner}.${j} `.repeat(200));
    expect(reader.memo('types-tool', 'seed', never)).toBe('seed');
    expect((await readdir(packsFolder(dir))).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});

const execFileAsync = promisify(execFile);
const BIN = join(repoRoot, 'bin', 'mcp-gen.js');


/** From the stats line MCP_GEN_CACHE_STATS=1 prints: how many steps the shared pack answered ('off' when it was off). */
function sharedHits(err: string[]): number | 'off' {
  const line = err.find((l) => l.startsWith('unit cache: '));
  if (line === undefined) throw new Error(`no stats line in:\n${err.join('\n')}`);
  if (line.includes('(off)')) return 'off';
  return Number(/(\d+) from the shared pack/.exec(line)?.[1]);
}

describe('server and client generation with the shared pack', () => {
  let dir: string;
  let manifest: string;
  let cacheDir: string;
  const saved = { ...process.env };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mcp-gen-shared-pack-'));
    manifest = join(dir, 'manifest.yaml');
    await copyFile(join(repoRoot, 'examples', 'weather', 'manifest.yaml'), manifest);
  });
  beforeEach(async () => {
    cacheDir = await mkdtemp(join(dir, 'cache-'));
    process.env['MCP_GEN_CACHE_DIR'] = cacheDir;
    process.env['MCP_GEN_CACHE_STATS'] = '1';
    delete process.env['MCP_GEN_SHARED_CACHE'];
  });
  afterEach(() => {
    for (const name of ['MCP_GEN_CACHE_DIR', 'MCP_GEN_CACHE_STATS', 'MCP_GEN_SHARED_CACHE']) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  /** One run in this process; its stderr lines. */
  async function generate(command: 'server' | 'client', out: string, ...flags: string[]): Promise<string[]> {
    const err: string[] = [];
    const io: Console = { out: () => {}, err: (l) => err.push(l) };
    const code = await main([command, manifest, '-o', join(dir, out), '--no-version-banner', ...flags], io);
    if (code !== 0) throw new Error(`mcp-gen ${command} exited ${code}: ${err.join('\n')}`);
    return err;
  }
  const packFiles = async (): Promise<string[]> => readdir(packsFolder(cacheDir)).catch(() => []);

  it('a client after a server, and a server in a fresh folder, take results from the pack and write the same bytes', async () => {
    expect(sharedHits(await generate('server', 's1'))).toBe(0);
    expect(await packFiles()).toHaveLength(1);
    const client = await generate('client', 'c1');
    expect(sharedHits(client)).toBeGreaterThan(0);
    const server = await generate('server', 's2');
    // Among them each tool's validator code, which the first server's own cache kept by hash only.
    expect(sharedHits(server)).toBeGreaterThan(3);

    process.env['MCP_GEN_SHARED_CACHE'] = 'off';
    expect(sharedHits(await generate('server', 's-alone'))).toBe('off');
    expect(sharedHits(await generate('client', 'c-alone'))).toBe('off');
    const generated = (all: Record<string, string>): Record<string, string> => Object.fromEntries(Object.entries(all).filter(([p]) => !p.startsWith('handlers')));
    expect(await outputFiles(join(dir, 'c1'))).toEqual(await outputFiles(join(dir, 'c-alone')));
    expect(generated(await outputFiles(join(dir, 's2')))).toEqual(generated(await outputFiles(join(dir, 's-alone'))));
    expect(generated(await outputFiles(join(dir, 's1')))).toEqual(generated(await outputFiles(join(dir, 's-alone'))));
  }, 240_000);

  it("a server in a fresh folder writes each tool's validator module from the code the pack holds (not compiled again)", async () => {
    await generate('server', 'planted-1');
    const [name] = await packFiles();
    const path = join(packsFolder(cacheDir), name as string);
    const fingerprint = JSON.parse((await readFile(join(dir, 'planted-1', UNIT_CACHE_FILE), 'utf8')).split('\n')[0] as string).fingerprint as string;
    const entries = decodeEntries(await readFile(path), fingerprint) as Map<string, { bytes?: Buffer; text?: string }>;
    // The server's compiled unit of get_weather (its input and output validators), kept by the first run.
    const planted = [...entries].filter(([, entry]) => (entry.bytes as Buffer).toString('utf8').includes('export const [validateGetWeatherInput'));
    expect(planted).toHaveLength(1);
    const [key, entry] = planted[0] as [string, { bytes: Buffer }];
    const poisoned = entry.bytes.toString('utf8').replace('"#/required"', '"PLANTED IN THE PACK"');
    entries.set(key, { text: poisoned });
    await writeFile(path, encodeEntries(fingerprint, entries));
    await generate('server', 'planted-2');
    expect(await readFile(join(dir, 'planted-2', 'generated', 'validators', 'getWeather.js'), 'utf8')).toContain('PLANTED IN THE PACK');
  }, 240_000);

  it('--no-shared-cache and MCP_GEN_SHARED_CACHE=off neither read nor write a pack', async () => {
    expect(sharedHits(await generate('server', 'off-1', '--no-shared-cache'))).toBe('off');
    process.env['MCP_GEN_SHARED_CACHE'] = 'off';
    expect(sharedHits(await generate('client', 'off-2'))).toBe('off');
    expect(await packFiles()).toEqual([]);
    // And with the pack on, the same fresh client does write one (what the two runs above did not).
    delete process.env['MCP_GEN_SHARED_CACHE'];
    expect(sharedHits(await generate('client', 'on-1'))).toBe(0);
    expect(await packFiles()).toHaveLength(1);
  }, 240_000);

  it("a --watch run (one that collects its input files) uses the folder's cache alone", async () => {
    const err: string[] = [];
    const io: Console = { out: () => {}, err: (l) => err.push(l) };
    const job = { manifest, out: join(dir, 'watched'), banner: { command: 'mcp-gen server', version: false } };
    await writeServer(job, { inputFiles: new Set<string>() }, io);
    expect(sharedHits(err)).toBe('off');
    expect(await packFiles()).toEqual([]);
  }, 240_000);

  it('a damaged pack is a silent miss: the client is generated as without it', async () => {
    await generate('server', 'd-server');
    const [name] = await packFiles();
    const path = join(packsFolder(cacheDir), name as string);
    const bytes = await readFile(path);
    bytes.writeUInt8(bytes.readUInt8(bytes.length - 10) ^ 1, bytes.length - 10);
    await writeFile(path, bytes);
    const err = await generate('client', 'd-client');
    expect(sharedHits(err)).toBe(0);
    expect(err.filter((l) => !l.startsWith('unit cache: ') && /pack|cache/i.test(l))).toEqual([]);
    process.env['MCP_GEN_SHARED_CACHE'] = 'off';
    await generate('client', 'd-alone');
    expect(await outputFiles(join(dir, 'd-client'))).toEqual(await outputFiles(join(dir, 'd-alone')));
  }, 240_000);

  it('a server and two clients run at once (separate processes) leave a sound pack the next run uses', async () => {
    const env = { ...process.env, MCP_GEN_CACHE_DIR: cacheDir, MCP_GEN_CACHE_STATS: '1' };
    const cli = (command: string, out: string) => execFileAsync(process.execPath, [BIN, command, manifest, '-o', join(dir, out), '--no-version-banner'], { env, timeout: 120_000 });
    await Promise.all([cli('server', 'p-server'), cli('client', 'p-client-1'), cli('client', 'p-client-2')]);
    const [name, ...more] = await packFiles();
    expect(more.filter((n) => !n.endsWith('.pack'))).toEqual([]);
    const fingerprint = JSON.parse((await readFile(join(dir, 'p-client-1', UNIT_CACHE_FILE), 'utf8')).split('\n')[0] as string).fingerprint as string;
    expect(decodeEntries(await readFile(join(packsFolder(cacheDir), name as string)), fingerprint)?.size).toBeGreaterThan(0);
    const after = await cli('client', 'p-client-3');
    expect(sharedHits(after.stderr.split('\n'))).toBeGreaterThan(0);
    expect(await outputFiles(join(dir, 'p-client-3'))).toEqual(await outputFiles(join(dir, 'p-client-1')));
    expect(await outputFiles(join(dir, 'p-client-2'))).toEqual(await outputFiles(join(dir, 'p-client-1')));
  }, 240_000);
});
