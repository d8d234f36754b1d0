import { createHash } from 'node:crypto';
import { closeSync, openSync, renameSync, writeSync, writevSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { sha256Hex } from '../schema/sha256.js';

/**
 * The unit cache (`.mcp-gen-cache.json` beside the ledger): results of the expensive, pure steps of
 * a run (a tool schema's compile check, one tool's compiled validators, one file's prettier pass),
 * each keyed by a SHA-256 of its kind, the generator's fingerprint and its whole input. A warm run
 * after one tool changed redoes only that tool's steps.
 *
 * The cache can only save time, never change bytes: a value is used only when its key (input and
 * generator alike) matches exactly and the file's recorded hash checks out. Anything else (no file,
 * a header that is not ours, another format, another generator, a byte changed anywhere) is a
 * miss of the whole cache, silently.
 *
 * Layout (a large client's cache holds several MB of compiled validator code, read and written on
 * every run, so it is laid out to be cheap: no JSON unescaping of values, one hash for the whole
 * file, and a value that did not change is written back as the very bytes it was read as):
 *   line 1: JSON header `{ generator, cacheFormat, fingerprint, sha256 }`, `sha256` being that of
 *           everything after this line;
 *   line 2: JSON index `[[key, length], …]`, sorted by key, `length` in UTF-8 bytes;
 *   then:   the values, one after the other, in the index's order, nothing between them.
 */

export const UNIT_CACHE_FILE = '.mcp-gen-cache.json';
/** Bumped whenever the file's layout changes; another format is ignored. */
export const UNIT_CACHE_FORMAT = 3;

/** What a pure step looks like to the code that may cache it: same kind and input, same result. */
export type Memo = (kind: string, input: string, compute: () => string) => string;


interface CacheHeader {
  generator: 'mcp-gen';
  cacheFormat: number;
  /** Entries are only valid for the generator that wrote them. */
  fingerprint: string;
  /** SHA-256 of the rest of the file (index and values). */
  sha256: string;
  /** What the next run needs to see that it has nothing to do (pipeline/noop-stamp.ts); outside the hash, read alone. */
  noop?: unknown;
}

function isWellFormed(text: string): boolean {
  return (text as string & { isWellFormed(): boolean }).isWellFormed();
}

/** A value as text, as its UTF-8 bytes, or both: each made from the other only when needed. */
export interface Entry {
  text?: string;
  bytes?: Buffer;
}

const textOf = (entry: Entry): string => (entry.text ??= (entry.bytes as Buffer).toString('utf8'));

/** An entry's size in UTF-8 bytes. */
export const sizeOf = (entry: Entry): number => entry.bytes?.length ?? Buffer.byteLength(entry.text as string, 'utf8');

/**
 * A second tier behind a folder's own cache: the shared pack of every output generated from the
 * same manifest (shared-pack.ts). Asked only on a miss of the folder's cache, only for the kinds it
 * holds; told every entry of those kinds the run used, so it can keep them for the next output.
 */
export interface SecondTier {
  holds(kind: string): boolean;
  get(key: string): Entry | undefined;
  use(key: string, entry: Entry): void;
  /** True once every entry of its kinds this run used is on disk in it: the folder's cache then leaves them out. */
  keepsWhatWasUsed?(): boolean;
}

/** The entries a file holds, sorted by key, each with its length in UTF-8 bytes, and the index line. */
interface Layout {
  entries: [key: string, entry: Entry, length: number][];
  index: Buffer;
}

function layoutOf(entries: Iterable<readonly [string, Entry]>): Layout {
  // A value with a lone surrogate would not survive UTF-8 on disk: it is left out (a miss next run).
  const kept: [string, Entry, number][] = [];
  for (const [key, entry] of entries) {
    if (entry.bytes !== undefined || isWellFormed(entry.text as string)) kept.push([key, entry, sizeOf(entry)]);
  }
  // The default order of strings is code-unit order, and sorts several times quicker than a comparator.
  const order = kept.map(([key]) => key).sort();
  const byKey = new Map(kept.map((item) => [item[0], item]));
  const sorted = order.map((key) => byKey.get(key) as [string, Entry, number]);
  const index = Buffer.from(`${JSON.stringify(sorted.map(([key, , length]) => [key, length]))}\n`, 'utf8');
  return { entries: sorted, index };
}

/** The header line; every field but `noop` has a fixed length, so a header with the hash left to fill has the final one's length. */
function headerLine(fingerprint: string, sha256: string, noop: unknown): Buffer {
  const header: CacheHeader = { generator: 'mcp-gen', cacheFormat: UNIT_CACHE_FORMAT, fingerprint, sha256, ...(noop !== undefined ? { noop } : {}) };
  return Buffer.from(`${JSON.stringify(header)}\n`, 'utf8');
}

const bytesOf = (entry: Entry): Buffer => entry.bytes ?? Buffer.from(entry.text as string, 'utf8');

/** The file's bytes for these entries (sorted by key, so the same entries give the same bytes). */
export function encodeEntries(fingerprint: string, entries: Iterable<readonly [string, Entry]>, noop?: unknown): Buffer {
  const layout = layoutOf(entries);
  const values = layout.entries.map(([, entry]) => bytesOf(entry));
  const hash = createHash('sha256').update(layout.index);
  for (const bytes of values) hash.update(bytes);
  return Buffer.concat([headerLine(fingerprint, hash.digest('hex'), noop), layout.index, ...values]);
}

/** Values are written in runs of about this many bytes, or this many values (what one `writev` takes on Linux). */
const WRITE_RUN_BYTES = 1024 * 1024;
const WRITE_RUN_VALUES = 1024;

/**
 * Writes the same bytes as encodeEntries to a new file at `path`, without ever holding them all: a
 * value's UTF-8 bytes are made, hashed and written a run at a time, and the header, whose hash is
 * known last, is written over its placeholder of the same length. A large manifest's shared pack
 * (GitHub's: 23 MB) made whole, beside the texts it is made from, was the peak of its run's memory.
 */
export function writeEntries(path: string, fingerprint: string, entries: Iterable<readonly [string, Entry]>, noop?: unknown): void {
  const layout = layoutOf(entries);
  const placeholder = headerLine(fingerprint, '0'.repeat(64), noop);
  const fd = openSync(path, 'w');
  try {
    writeSync(fd, placeholder);
    writeSync(fd, layout.index);
    const hash = createHash('sha256').update(layout.index);
    let run: Buffer[] = [];
    let runBytes = 0;
    for (const [, entry] of layout.entries) {
      const bytes = bytesOf(entry);
      hash.update(bytes);
      run.push(bytes);
      runBytes += bytes.length;
      if (runBytes >= WRITE_RUN_BYTES || run.length >= WRITE_RUN_VALUES) {
        writevSync(fd, run);
        run = [];
        runBytes = 0;
      }
    }
    if (run.length > 0) writevSync(fd, run);
    const header = headerLine(fingerprint, hash.digest('hex'), noop);
    if (header.length !== placeholder.length) throw new Error('unit cache: the header changed length');
    writeSync(fd, header, 0, header.length, 0);
  } finally {
    closeSync(fd);
  }
}

/** The entries of a cache file's bytes, as byte ranges of it, or undefined when it is not a sound cache of this generator. */
export function decodeEntries(bytes: Buffer, fingerprint: string): Map<string, Entry> | undefined {
  const headerEnd = bytes.indexOf(0x0a);
  if (headerEnd < 0) return undefined;
  let header: Partial<CacheHeader> | null;
  try {
    header = JSON.parse(bytes.toString('utf8', 0, headerEnd)) as Partial<CacheHeader> | null;
  } catch {
    return undefined;
  }
  if (header === null || typeof header !== 'object' || header.generator !== 'mcp-gen' || header.cacheFormat !== UNIT_CACHE_FORMAT) return undefined;
  if (header.fingerprint !== fingerprint || typeof header.sha256 !== 'string') return undefined;
  if (sha256Hex(bytes.subarray(headerEnd + 1)) !== header.sha256) return undefined;
  const indexEnd = bytes.indexOf(0x0a, headerEnd + 1);
  if (indexEnd < 0) return undefined;
  let index: unknown;
  try {
    index = JSON.parse(bytes.toString('utf8', headerEnd + 1, indexEnd));
  } catch {
    return undefined;
  }
  if (!Array.isArray(index)) return undefined;
  const entries = new Map<string, Entry>();
  let offset = indexEnd + 1;
  for (const entry of index as unknown[]) {
    if (!Array.isArray(entry) || typeof entry[0] !== 'string' || !Number.isSafeInteger(entry[1]) || (entry[1] as number) < 0) return undefined;
    const end = offset + (entry[1] as number);
    if (end > bytes.length) return undefined;
    entries.set(entry[0], { bytes: bytes.subarray(offset, end) });
    offset = end;
  }
  return offset === bytes.length ? entries : undefined;
}

/** The file's bytes for these entries (sorted by key, so the same entries give the same bytes). */
function encodeUnitCacheBytes(fingerprint: string, entries: Iterable<readonly [string, string]>): Buffer {
  return encodeEntries(fingerprint, [...entries].map(([key, text]) => [key, { text }] as const));
}

/** The same as text. */
export function encodeUnitCache(fingerprint: string, entries: Iterable<readonly [string, string]>): string {
  return encodeUnitCacheBytes(fingerprint, entries).toString('utf8');
}

/** The entries of a cache file's bytes, or undefined when it is not a sound cache of this generator. */
function decodeUnitCacheBytes(bytes: Buffer, fingerprint: string): Map<string, string> | undefined {
  const entries = decodeEntries(bytes, fingerprint);
  return entries && new Map([...entries].map(([key, entry]) => [key, textOf(entry)]));
}

/** The same from text. */
export function decodeUnitCache(text: string, fingerprint: string): Map<string, string> | undefined {
  return decodeUnitCacheBytes(Buffer.from(text, 'utf8'), fingerprint);
}

export class UnitCache {
  private readonly fresh = new Map<string, Entry>();
  /** The shared pack, when the run has one (attach). */
  private tier: SecondTier | undefined;
  /** The keys of this run's entries of kinds the shared pack holds. */
  private readonly sharedKeys = new Set<string>();
  /** What must be done before the file is written (the pack's save: whether it kept the shared entries). */
  private pending: Promise<unknown> | undefined;
  hits = 0;
  misses = 0;
  /** The no-op stamp written in the header with the entries (noop-stamp.ts), when the run leaves one. */
  noopStamp: unknown;
  /** Of the hits, those the shared pack answered. */
  sharedHits = 0;

  private constructor(
    /** Identifies the generator (its code and the libraries whose output it embeds). */
    private readonly fingerprint: string,
    private readonly stored: ReadonlyMap<string, Entry>,
    /**
     * The cache file's modification time (ns) as its file system gives it, when it was read from
     * one: what a file's recorded status is judged against (see disk-status.ts).
     */
    readonly savedAtNs?: bigint,
  ) {}

  static empty(fingerprint: string): UnitCache {
    return new UnitCache(fingerprint, new Map());
  }

  /** A cache from a file's text; anything unusable gives an empty cache (and the run is cold). */
  static fromText(text: string | undefined, fingerprint: string): UnitCache {
    return UnitCache.fromBytes(text === undefined ? undefined : Buffer.from(text, 'utf8'), fingerprint);
  }

  /** The same from the file's bytes (and its modification time, when read from disk). */
  static fromBytes(bytes: Buffer | undefined, fingerprint: string, savedAtNs?: bigint): UnitCache {
    const entries = bytes !== undefined ? decodeEntries(bytes, fingerprint) : undefined;
    return entries === undefined ? new UnitCache(fingerprint, new Map()) : new UnitCache(fingerprint, entries, savedAtNs);
  }

  /** Puts the shared pack behind this cache: asked on a miss, told what the run used (its kinds only). */
  attach(tier: SecondTier): void {
    this.tier = tier;
  }

  private keyOf(kind: string, input: string): string {
    return sha256Hex(`${kind}\0${this.fingerprint}\0${input}`);
  }

  /** The shared pack when it holds this kind. */
  private tierFor(kind: string): SecondTier | undefined {
    return this.tier?.holds(kind) === true ? this.tier : undefined;
  }

  /** A value this run, the last one or (on a miss) the shared pack has for `key` (kept for the next run), counted as hit or miss. */
  private lookup(kind: string, key: string): string | undefined {
    const tier = this.tierFor(kind);
    let known = this.fresh.get(key) ?? this.stored.get(key);
    if (known === undefined && tier !== undefined) {
      known = tier.get(key);
      if (known !== undefined) this.sharedHits++;
    }
    if (known === undefined) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    this.keep(kind, key, known);
    return textOf(known);
  }

  /** Keeps an entry for the next run, and tells the shared pack when it holds the kind. */
  private keep(kind: string, key: string, entry: Entry): void {
    this.fresh.set(key, entry);
    const tier = this.tierFor(kind);
    if (tier === undefined) return;
    tier.use(key, entry);
    this.sharedKeys.add(key);
  }

  /** Writing the file waits for `work` (the shared pack's save), so it knows what the pack kept. */
  waitFor(work: Promise<unknown>): void {
    this.pending = work;
  }

  /** Resolves when what the file's contents depend on is done. */
  async settled(): Promise<void> {
    await this.pending;
  }

  /** The cached result of `compute` for this kind and input, computing (and keeping) it on a miss. */
  readonly memo: Memo = (kind, input, compute) => {
    const key = this.keyOf(kind, input);
    const known = this.lookup(kind, key);
    if (known !== undefined) return known;
    const value = compute();
    this.keep(kind, key, { text: value });
    return value;
  };

  /** The same for an asynchronous step. */
  async memoAsync(kind: string, input: string, compute: () => Promise<string>): Promise<string> {
    const key = this.keyOf(kind, input);
    const known = this.lookup(kind, key);
    if (known !== undefined) return known;
    const value = await compute();
    this.keep(kind, key, { text: value });
    return value;
  }

  /** What the last run or this one kept for this kind and input, without counting a hit or keeping it. */
  peek(kind: string, input: string): string | undefined {
    const key = this.keyOf(kind, input);
    const known = this.fresh.get(key) ?? this.stored.get(key);
    return known && textOf(known);
  }

  /** What the last run or this one kept for this kind and input (kept again for the next run), counted as hit or miss. */
  recall(kind: string, input: string): string | undefined {
    return this.lookup(kind, this.keyOf(kind, input));
  }

  /** Keeps `value` for this kind and input for the next run, replacing what was there. */
  put(kind: string, input: string, value: string): void {
    this.keep(kind, this.keyOf(kind, input), { text: value });
  }

  /**
   * The shared pack alone, for a value this folder's cache keeps in another form (a server's
   * validator code, which its own cache knows only by hash): what the pack has, kept there.
   */
  recallShared(kind: string, input: string): string | undefined {
    const key = this.keyOf(kind, input);
    const known = this.tier?.get(key);
    if (known === undefined) return undefined;
    // Asked from within a memo's compute, whose lookup counted a miss: the pack answered it.
    this.misses--;
    this.hits++;
    this.sharedHits++;
    this.tier?.use(key, known);
    return textOf(known);
  }

  /** Keeps `value` in the shared pack only (see recallShared). */
  keepShared(kind: string, input: string, value: string): void {
    this.tier?.use(this.keyOf(kind, input), { text: value });
  }

  /** The file's text: only what this run used, so entries of removed tools do not pile up. */
  text(): string {
    return this.bytes().toString('utf8');
  }

  /** The same as bytes, as they are written. */
  bytes(): Buffer {
    return encodeEntries(this.fingerprint, this.entriesToKeep(), this.noopStamp);
  }

  /** Writes the file's bytes to a new file at `path` (writeEntries). */
  writeTo(path: string): void {
    writeEntries(path, this.fingerprint, this.entriesToKeep(), this.noopStamp);
  }

  /** What the file keeps: what the shared pack now keeps is not kept twice, the next run finds it there (docs/caching.md). */
  private entriesToKeep(): Iterable<readonly [string, Entry]> {
    return this.tier?.keepsWhatWasUsed?.() === true ? [...this.fresh].filter(([key]) => !this.sharedKeys.has(key)) : this.fresh;
  }
}

/** The output folder's cache, or an empty one when there is none or it cannot be read. */
export async function readUnitCache(outDir: string, fingerprint: string): Promise<UnitCache> {
  let bytes: Buffer | undefined;
  let savedAtNs: bigint | undefined;
  try {
    const handle = await open(join(outDir, UNIT_CACHE_FILE), 'r');
    try {
      // Status of the very file read: a cache replaced meanwhile cannot lend its time to another's entries.
      savedAtNs = (await handle.stat({ bigint: true })).mtimeNs;
      bytes = await handle.readFile();
    } finally {
      await handle.close();
    }
  } catch {
    bytes = undefined;
  }
  return UnitCache.fromBytes(bytes, fingerprint, savedAtNs);
}

/**
 * Replaces the folder's cache file in one rename, so a crash never leaves half a file. Synchronous,
 * as the writer's other writes: the run waits for it anyway, and a thread-pool round trip for a few
 * MB costs the last tens of ms of a warm run.
 */
export async function writeUnitCache(outDir: string, cache: UnitCache): Promise<void> {
  await cache.settled();
  const target = join(outDir, UNIT_CACHE_FILE);
  const temporary = `${target}.${process.pid}.tmp`;
  cache.writeTo(temporary);
  renameSync(temporary, target);
}
