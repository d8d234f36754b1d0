import { randomBytes } from 'node:crypto';
import { readFileSync, realpathSync } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, utimes } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { sha256Hex } from '../schema/sha256.js';
import { decodeEntries, sizeOf, writeEntries, type Entry, type SecondTier, type UnitCache } from './unit-cache.js';

/**
 * The shared tier of the unit cache: one pack per manifest in the user's cache folder
 * (`<cache>/unit-packs/<digest of the manifest's real path>.pack`), behind the output folder's own
 * `.mcp-gen-cache.json`. It holds the steps whose results do not depend on the output (a tool's
 * types, its compiled validator code, a schema's compile check, …), so a client generated after a
 * server from the same manifest, or a server in a fresh folder, reuses them.
 *
 * Same file layout and integrity rules as the folder's cache (unit-cache.ts), entries keyed alike
 * (kind, generator fingerprint, whole input): which pack a run reads can change its speed, never
 * its bytes. A pack that is missing, damaged or of another generator is a silent miss. It is read
 * only when the folder's cache misses a kind it holds, and written back (temporary file, then one
 * rename: two runs at once each leave a whole pack, never a mix) as what the run used joined with
 * what the pack held, unless that passes PACK_LIMIT_BYTES: then what the run used alone. Packs
 * unused for PRUNE_AFTER_MS are deleted, and the least recently used ones past FOLDER_LIMIT_BYTES.
 */

/** The kinds whose results do not depend on the output folder (not its files' status, not its own merges). */
const SHARED_KINDS = new Set([
  'schema-check',
  'bundled-tool',
  'types-shared',
  'types-tool',
  'tool-validators',
  'prettier-unit',
  'server-tool-statement',
  'tool-definition-summary',
  'tool-definition-statement',
  'tool-definition-table',
]);

/** A pack above this is written back with this run's entries alone (GitHub's 1,223 tools, server and client: about 40 MB). */
export const PACK_LIMIT_BYTES = 256 * 1024 * 1024;
/** A pack no run used for this long is deleted. */
export const PRUNE_AFTER_MS = 30 * 24 * 3600 * 1000;
/** All packs together stay under this: past it, the packs used longest ago are deleted (a run in a temporary folder leaves one). */
export const FOLDER_LIMIT_BYTES = 512 * 1024 * 1024;
/** A temporary file this old is left over from a run that died before its rename. */
const STALE_TEMPORARY_MS = 3600 * 1000;

/** The folder of the packs under mcp-gen's cache folder. */
export const packsFolder = (cacheDir: string): string => join(cacheDir, 'unit-packs');

/**
 * The pack of a manifest, by its real path and the generator's fingerprint: two mcp-gen builds run
 * on one manifest each keep their own pack, instead of replacing each other's (whose entries the
 * other cannot use) on every run; the one no longer run is pruned.
 */
export function packPath(cacheDir: string, manifestRealPath: string, fingerprint: string): string {
  return join(packsFolder(cacheDir), `${sha256Hex(`${fingerprint}\0${manifestRealPath}`).slice(0, 32)}.pack`);
}

/** `MCP_GEN_SHARED_CACHE=off` (or `0`, `false`, `no`) turns the shared tier off, as `--no-shared-cache` does. */
export function sharedCacheOff(env: NodeJS.ProcessEnv): boolean {
  return /^(?:off|0|false|no)$/i.test(env['MCP_GEN_SHARED_CACHE'] ?? '');
}

/** The manifest's pack put behind the folder's cache (read only on the cache's first miss). */
export function attachSharedPack(cache: UnitCache, cacheDir: string, manifest: string, fingerprint: string): SharedPack {
  let real: string;
  try {
    real = realpathSync(manifest);
  } catch {
    real = resolve(manifest);
  }
  const pack = new SharedPack(packPath(cacheDir, real, fingerprint), fingerprint);
  cache.attach(pack);
  return pack;
}

export class SharedPack implements SecondTier {
  /** The pack's entries, read on the first miss of the folder's cache; empty when unreadable. */
  private held: Map<string, Entry> | undefined;
  /** Every entry of a shared kind this run used, from whichever tier or computed. */
  private readonly used = new Map<string, Entry>();
  /** Set when the pack on disk holds every entry in `used` (written, or found holding them all). */
  private kept = false;

  constructor(
    readonly path: string,
    private readonly fingerprint: string,
    /** PACK_LIMIT_BYTES, smaller in tests. */
    private readonly limitBytes = PACK_LIMIT_BYTES,
  ) {}

  holds(kind: string): boolean {
    return SHARED_KINDS.has(kind);
  }

  get(key: string): Entry | undefined {
    return this.entries().get(key);
  }

  use(key: string, entry: Entry): void {
    this.used.set(key, entry);
  }

  keepsWhatWasUsed(): boolean {
    return this.kept;
  }

  /** Read synchronously: the memo that asks is synchronous, and this happens once per run. */
  private entries(): Map<string, Entry> {
    if (this.held === undefined) {
      let bytes: Buffer | undefined;
      try {
        bytes = readFileSync(this.path);
      } catch {
        bytes = undefined;
      }
      this.held = (bytes && decodeEntries(bytes, this.fingerprint)) ?? new Map();
    }
    return this.held;
  }

  /**
   * Writes the pack back when this run added to it, else only marks it used (its time is what
   * pruning goes by); then prunes the folder. Never fails the run: a cache that cannot be written
   * is only slower next time.
   */
  async save(): Promise<void> {
    if (this.used.size === 0) return;
    // An entry used while the pack is written is not in it (the folder's cache then keeps everything).
    const count = this.used.size;
    try {
      const held = this.held;
      if (held === undefined && (await exists(this.path))) {
        // The folder's own cache answered everything: the pack was not needed, only kept alive.
        await touch(this.path);
      } else if (held !== undefined && [...this.used.keys()].every((key) => held.has(key))) {
        // Nothing new: the pack had every entry this run used.
        await touch(this.path);
        this.kept = this.used.size === count;
      } else {
        await this.write(this.joined(held ?? new Map()));
        this.kept = this.used.size === count;
      }
      await prune(dirname(this.path), Date.now());
    } catch {
      // A read-only or full cache folder: the next run is as fast as a run without the pack.
    }
  }

  /** What the run used joined with what the pack held, unless that passes the limit. */
  private joined(held: ReadonlyMap<string, Entry>): Map<string, Entry> {
    const all = new Map(held);
    for (const [key, entry] of this.used) all.set(key, entry);
    let size = 0;
    for (const entry of all.values()) size += sizeOf(entry);
    return size > this.limitBytes ? this.used : all;
  }

  private async write(entries: Map<string, Entry>): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true });
    // A name of its own per run: two runs at once never write into one temporary file.
    const temporary = `${this.path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      writeEntries(temporary, this.fingerprint, entries);
      await rename(temporary, this.path);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

async function touch(path: string): Promise<void> {
  const now = new Date();
  await utimes(path, now, now);
}

/**
 * Deletes the packs no run used for PRUNE_AFTER_MS, then, while all of them pass `limitBytes`, the
 * one used longest ago; and temporary files of runs that died.
 */
export async function prune(folder: string, now: number, limitBytes = FOLDER_LIMIT_BYTES): Promise<void> {
  const kept: { path: string; size: number; usedAt: number }[] = [];
  for (const name of await readdir(folder)) {
    const pack = name.endsWith('.pack');
    if (!pack && !name.endsWith('.tmp')) continue;
    const path = join(folder, name);
    try {
      const status = await stat(path);
      if (now - status.mtimeMs > (pack ? PRUNE_AFTER_MS : STALE_TEMPORARY_MS)) await rm(path, { force: true });
      else if (pack) kept.push({ path, size: status.size, usedAt: status.mtimeMs });
    } catch {
      // Gone meanwhile (another run pruned or renamed it).
    }
  }
  let total = kept.reduce((sum, pack) => sum + pack.size, 0);
  for (const pack of kept.sort((a, b) => a.usedAt - b.usedAt)) {
    if (total <= limitBytes) break;
    await rm(pack.path, { force: true });
    total -= pack.size;
  }
}
