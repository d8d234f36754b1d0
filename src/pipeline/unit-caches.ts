/**
 * The unit caches of a run that writes: the output folder's own (`.mcp-gen-cache.json`) and, behind
 * it, the manifest's shared pack in the user cache folder (src/write/shared-pack.ts), unless
 * `--no-shared-cache` or `MCP_GEN_SHARED_CACHE=off` turns the pack off.
 */
import { userCacheDir } from '../load/cache-dir.js';
import { attachSharedPack, sharedCacheOff, type SharedPack } from '../write/shared-pack.js';
import { readUnitCache, type UnitCache } from '../write/unit-cache.js';
import type { Console } from './console.js';
import { generatorFingerprint } from './generator-fingerprint.js';

export interface UnitCaches {
  cache: UnitCache;
  pack?: SharedPack;
}

/** `manifest`: the run's manifest, when it is to have a pack (a client of a live server has none, nor a --watch run). */
export async function openUnitCaches(out: string, manifest: string | undefined, sharedCache: boolean | undefined): Promise<UnitCaches> {
  const fingerprint = generatorFingerprint();
  const cache = await readUnitCache(out, fingerprint);
  if (manifest === undefined || sharedCache === false || sharedCacheOff(process.env)) return { cache };
  return { cache, pack: attachSharedPack(cache, userCacheDir(), manifest, fingerprint) };
}

/**
 * Runs the writer while the pack is saved: the pack holds planning's steps alone (the writer's
 * prettier passes, hashes and file statuses belong to the folder), so it is final once the files
 * are planned, and its write overlaps the output's. `MCP_GEN_CACHE_STATS=1` then prints where the
 * cached steps came from (how the shared pack is seen to work, in tests and benchmarks).
 */
export async function writeWithCaches<T>(caches: UnitCaches | undefined, io: Console, write: () => Promise<T>): Promise<T> {
  if (caches === undefined) return write();
  const { cache, pack } = caches;
  const saved = pack?.save();
  // The folder's cache is written once the pack is: it leaves out what the pack then keeps.
  if (saved !== undefined) cache.waitFor(saved);
  const result = await write();
  await saved;
  if (process.env['MCP_GEN_CACHE_STATS'] === '1') {
    io.err(`unit cache: ${cache.hits - cache.sharedHits} from the folder's cache, ${cache.sharedHits} from the shared pack${pack ? '' : ' (off)'}, ${cache.misses} computed`);
  }
  return result;
}
