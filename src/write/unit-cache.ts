import { createHash } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The unit cache (`.mcp-gen-cache.json` beside the ledger): results of the expensive, pure steps of
 * a run (a tool schema's compile check, one tool's compiled validators, one file's prettier pass),
 * each keyed by a SHA-256 of its kind, the generator's fingerprint and its whole input. A warm run
 * after one tool changed redoes only that tool's steps.
 *
 * The cache can only save time, never change bytes: a value is used only when its key (input and
 * generator alike) matches exactly and its own recorded hash checks out. Anything else (no file,
 * not JSON, another format, another generator, a corrupted entry) is a miss, silently.
 */

export const UNIT_CACHE_FILE = '.mcp-gen-cache.json';
/** Bumped whenever the file's layout changes; another format is ignored. */
export const UNIT_CACHE_FORMAT = 1;

/** What a pure step looks like to the code that may cache it: same kind and input, same result. */
export type Memo = (kind: string, input: string, compute: () => string) => string;

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

interface CacheFile {
  generator: 'mcp-gen';
  cacheFormat: number;
  /** Entries are only valid for the generator that wrote them. */
  fingerprint: string;
  /** key → [value, SHA-256 of value]. */
  entries: Record<string, [string, string]>;
}

export class UnitCache {
  private readonly fresh = new Map<string, string>();
  hits = 0;
  misses = 0;

  private constructor(
    /** Identifies the generator (its code and the libraries whose output it embeds). */
    private readonly fingerprint: string,
    private readonly stored: ReadonlyMap<string, string>,
  ) {}

  static empty(fingerprint: string): UnitCache {
    return new UnitCache(fingerprint, new Map());
  }

  /** A cache from a file's text; anything unusable gives an empty cache (and the run is cold). */
  static fromText(text: string | undefined, fingerprint: string): UnitCache {
    const stored = new Map<string, string>();
    if (text !== undefined) {
      let file: Partial<CacheFile> | null = null;
      try {
        file = JSON.parse(text) as Partial<CacheFile> | null;
      } catch {
        file = null;
      }
      const usable = file !== null && typeof file === 'object' && file.generator === 'mcp-gen' && file.cacheFormat === UNIT_CACHE_FORMAT && file.fingerprint === fingerprint;
      if (usable && typeof file?.entries === 'object' && file.entries !== null) {
        for (const [key, entry] of Object.entries(file.entries)) {
          // A damaged entry is dropped alone: its value must still hash to what was recorded.
          if (Array.isArray(entry) && typeof entry[0] === 'string' && typeof entry[1] === 'string' && sha256(entry[0]) === entry[1]) {
            stored.set(key, entry[0]);
          }
        }
      }
    }
    return new UnitCache(fingerprint, stored);
  }

  private keyOf(kind: string, input: string): string {
    return sha256(`${kind}\0${this.fingerprint}\0${input}`);
  }

  /** A value this run or the last one computed for `key` (kept for the next run), counted as hit or miss. */
  private lookup(key: string): string | undefined {
    const known = this.fresh.get(key) ?? this.stored.get(key);
    if (known === undefined) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    this.fresh.set(key, known);
    return known;
  }

  /** The cached result of `compute` for this kind and input, computing (and keeping) it on a miss. */
  readonly memo: Memo = (kind, input, compute) => {
    const key = this.keyOf(kind, input);
    const known = this.lookup(key);
    if (known !== undefined) return known;
    const value = compute();
    this.fresh.set(key, value);
    return value;
  };

  /** The same for an asynchronous step. */
  async memoAsync(kind: string, input: string, compute: () => Promise<string>): Promise<string> {
    const key = this.keyOf(kind, input);
    const known = this.lookup(key);
    if (known !== undefined) return known;
    const value = await compute();
    this.fresh.set(key, value);
    return value;
  }

  /** The file's text: only what this run used, so entries of removed tools do not pile up. */
  text(): string {
    const entries: Record<string, [string, string]> = {};
    for (const key of [...this.fresh.keys()].sort()) {
      const value = this.fresh.get(key) as string;
      entries[key] = [value, sha256(value)];
    }
    const file: CacheFile = { generator: 'mcp-gen', cacheFormat: UNIT_CACHE_FORMAT, fingerprint: this.fingerprint, entries };
    return `${JSON.stringify(file)}\n`;
  }
}

/** The output folder's cache, or an empty one when there is none or it cannot be read. */
export async function readUnitCache(outDir: string, fingerprint: string): Promise<UnitCache> {
  let text: string | undefined;
  try {
    text = await readFile(join(outDir, UNIT_CACHE_FILE), 'utf8');
  } catch {
    text = undefined;
  }
  return UnitCache.fromText(text, fingerprint);
}

/** Replaces the folder's cache file in one rename, so a crash never leaves half a file. */
export async function writeUnitCache(outDir: string, cache: UnitCache): Promise<void> {
  const target = join(outDir, UNIT_CACHE_FILE);
  const temporary = `${target}.${process.pid}.tmp`;
  await writeFile(temporary, cache.text(), 'utf8');
  await rename(temporary, target);
}
