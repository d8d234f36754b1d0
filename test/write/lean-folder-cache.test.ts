/**
 * The folder's cache (`.mcp-gen-cache.json`) does not keep what the manifest's shared pack keeps
 * (docs/caching.md): a run with the pack leaves a folder cache without any of the pack's entries,
 * a warm run after one change takes them from the pack, and a run without the pack (a fresh
 * clone, a pruned pack, `--no-shared-cache`) still writes the same bytes, only slower.
 */
import { mkdtemp, readdir, readFile, rm, stat, writeFile, copyFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { Console } from '../../src/cli/output.js';
import { attachSharedPack, packsFolder } from '../../src/write/shared-pack.js';
import { decodeEntries, type Entry, UNIT_CACHE_FILE, UnitCache } from '../../src/write/unit-cache.js';
import { repoRoot } from '../client/support.js';
import { outputFiles } from '../support/output-files.js';

let dir: string;
let manifest: string;
const saved = { ...process.env };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcp-gen-lean-cache-'));
  manifest = join(dir, 'manifest.yaml');
  await copyFile(join(repoRoot, 'examples', 'weather', 'manifest.yaml'), manifest);
  process.env['MCP_GEN_CACHE_DIR'] = join(dir, 'cache');
  process.env['MCP_GEN_CACHE_STATS'] = '1';
  delete process.env['MCP_GEN_SHARED_CACHE'];
});
afterAll(async () => {
  for (const name of ['MCP_GEN_CACHE_DIR', 'MCP_GEN_CACHE_STATS', 'MCP_GEN_SHARED_CACHE']) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  await rm(dir, { recursive: true, force: true });
});

/** One server run in this process; its stderr lines. */
async function server(out: string, ...flags: string[]): Promise<string[]> {
  const err: string[] = [];
  const io: Console = { out: () => {}, err: (l) => err.push(l) };
  const code = await main(['server', manifest, '-o', join(dir, out), '--no-version-banner', ...flags], io);
  if (code !== 0) throw new Error(`mcp-gen server exited ${code}: ${err.join('\n')}`);
  return err;
}

/** The entries of a cache or pack file. */
async function entriesOf(path: string): Promise<Map<string, Entry>> {
  const bytes = await readFile(path);
  const fingerprint = (JSON.parse(bytes.toString('utf8', 0, bytes.indexOf(0x0a))) as { fingerprint: string }).fingerprint;
  const entries = decodeEntries(bytes, fingerprint);
  if (entries === undefined) throw new Error(`${path} is not a sound cache`);
  return entries;
}

const sharedHits = (err: string[]): number => Number(/(\d+) from the shared pack/.exec(err.find((l) => l.startsWith('unit cache: ')) ?? '')?.[1]);
const generated = (all: Record<string, string>): Record<string, string> => Object.fromEntries(Object.entries(all).filter(([p]) => !p.startsWith('handlers')));

/** A change to one tool of the weather manifest (its description, so its types and checks change too). */
async function editOneTool(): Promise<void> {
  const text = await readFile(manifest, 'utf8');
  const edited = text.replace(/description: ([^\n]*)/, (line, what: string) => `description: ${what} (edited)`);
  expect(edited).not.toBe(text);
  await writeFile(manifest, edited);
}

describe("the folder's cache beside the shared pack", () => {
  it("keeps none of the pack's entries, and is smaller than a cache without the pack", async () => {
    await server('lean');
    const [pack] = await readdir(packsFolder(join(dir, 'cache')));
    const packed = await entriesOf(join(packsFolder(join(dir, 'cache')), pack as string));
    const folder = await entriesOf(join(dir, 'lean', UNIT_CACHE_FILE));
    expect(packed.size).toBeGreaterThan(0);
    expect([...folder.keys()].filter((key) => packed.has(key))).toEqual([]);
    await server('alone', '--no-shared-cache');
    const lean = (await stat(join(dir, 'lean', UNIT_CACHE_FILE))).size;
    const alone = (await stat(join(dir, 'alone', UNIT_CACHE_FILE))).size;
    expect(lean).toBeLessThan(alone);
  }, 240_000);

  it('a warm run after one change takes the rest from the pack, and a run without the pack writes the same bytes', async () => {
    await editOneTool();
    expect(sharedHits(await server('lean'))).toBeGreaterThan(0);
    await server('alone', '--no-shared-cache');
    expect(generated(await outputFiles(join(dir, 'lean')))).toEqual(generated(await outputFiles(join(dir, 'alone'))));
    // The pack gone (a fresh clone elsewhere, or pruned): computed again, to the same bytes.
    await rm(join(dir, 'cache'), { recursive: true, force: true });
    await editOneTool();
    await server('lean');
    await server('alone', '--no-shared-cache');
    expect(generated(await outputFiles(join(dir, 'lean')))).toEqual(generated(await outputFiles(join(dir, 'alone'))));
  }, 240_000);

  it("leaves out a shared tools/list definitions module's pieces too (they live in the pack)", async () => {
    // The shared-defs fixture's tools share component schemas, so its server has generated/tool-definitions.ts.
    const fixture = join(dir, 'shared-defs.yaml');
    await copyFile(join(repoRoot, 'test', 'fixtures', 'server', 'shared-defs', 'manifest.yaml'), fixture);
    const io: Console = { out: () => {}, err: () => {} };
    expect(await main(['server', fixture, '-o', join(dir, 'defs'), '--no-version-banner'], io)).toBe(0);
    const texts = (entries: Map<string, Entry>): string => [...entries.values()].map((entry) => entry.text ?? entry.bytes?.toString('utf8') ?? '').join('\n');
    const packs = await readdir(packsFolder(join(dir, 'cache')));
    const packed = await Promise.all(packs.map((pack) => entriesOf(join(packsFolder(join(dir, 'cache')), pack))));
    expect(packed.some((entries) => texts(entries).includes('spliced(['))).toBe(true);
    expect(texts(await entriesOf(join(dir, 'defs', UNIT_CACHE_FILE)))).not.toContain('spliced([');
  }, 240_000);

  it('two generator builds run on one manifest keep a pack each: neither replaces the other', async () => {
    // The folder's cache leans on the pack, so a pack replaced by another build's would mean a cold run.
    const folder = join(dir, 'two-builds');
    const a = UnitCache.empty('fingerprint-a');
    const packA = attachSharedPack(a, folder, manifest, 'fingerprint-a');
    const b = UnitCache.empty('fingerprint-b');
    const packB = attachSharedPack(b, folder, manifest, 'fingerprint-b');
    expect(packA.path).not.toBe(packB.path);
    a.memo('types-tool', 'one tool', () => 'built by A');
    await packA.save();
    b.memo('types-tool', 'one tool', () => 'built by B');
    await packB.save();
    const again = UnitCache.empty('fingerprint-a');
    attachSharedPack(again, folder, manifest, 'fingerprint-a');
    expect(again.memo('types-tool', 'one tool', () => 'computed again')).toBe('built by A');
  });
});
