import { closeSync, fstatSync, openSync, readFileSync, statSync, type BigIntStats } from 'node:fs';
import type { UnitCache } from './unit-cache.js';
import { sha256Hex } from '../schema/sha256.js';

/**
 * What a generated file on disk hashes to, without reading it when nothing can have touched it
 * since a run wrote or read it. A large server keeps a thousand validator modules (tens of MB):
 * reading and hashing them all is most of what a warm run's writer does.
 *
 * Each run records, in the unit cache, every generated file's status (size, inode, modification
 * and change times to the nanosecond) beside its hash. The next run takes the hash as it is only
 * when the status is the same AND the file changed before the cache file was written, by the file
 * system's own clock: an edit made after that, however quick and whatever its size, gets a later
 * change time (which no program can set back), so its status differs and the file is read and
 * hashed. A file changed within the same clock tick as the cache (a coarse file system) is read.
 */

/** The unit cache holds every file's status in one entry (a thousand entries would cost a hash each). */
const DISK_STATUS = 'disk-status';

export interface DiskFile {
  /** SHA-256 of the file's bytes. */
  readonly sha256: string;
  /** Its bytes, read on first use. */
  bytes(): Buffer;
  readonly stats: BigIntStats;
}

function statusText(stats: BigIntStats, sha256: string): string {
  return `${stats.size} ${stats.ino} ${stats.mtimeNs} ${stats.ctimeNs} ${sha256}`;
}

/** The statuses the last run recorded, and the ones this run records for the next. */
export class DiskStatuses {
  private readonly recorded: ReadonlyMap<string, string>;
  private readonly next = new Map<string, string>();

  constructor(private readonly cache: UnitCache | undefined) {
    const text = cache?.savedAtNs === undefined ? undefined : cache.peek(DISK_STATUS, '');
    this.recorded = new Map(text === undefined ? [] : (JSON.parse(text) as [string, string][]));
  }

  /** The recorded hash when the status vouches for it; undefined when the file must be read. */
  private vouchedHash(path: string, stats: BigIntStats): string | undefined {
    const savedAt = this.cache?.savedAtNs;
    if (savedAt === undefined || !(stats.ctimeNs < savedAt)) return undefined;
    const recorded = this.recorded.get(path);
    if (recorded === undefined) return undefined;
    const sha256 = recorded.slice(recorded.lastIndexOf(' ') + 1);
    return recorded === statusText(stats, sha256) ? sha256 : undefined;
  }

  /** The generated file at `absolute` (`path` in the output), or undefined when there is none. */
  find(absolute: string, path: string): DiskFile | undefined {
    const stats = statSync(absolute, { bigint: true, throwIfNoEntry: false });
    if (stats === undefined) return undefined;
    const vouched = this.vouchedHash(path, stats);
    if (vouched !== undefined) {
      let bytes: Buffer | undefined;
      return { sha256: vouched, stats, bytes: () => (bytes ??= readFileSync(absolute)) };
    }
    // Read: the status recorded must be that of the bytes hashed, so both come from one open file.
    const fd = openSync(absolute, 'r');
    try {
      const opened = fstatSync(fd, { bigint: true });
      const bytes = readFileSync(fd);
      return { sha256: sha256Hex(bytes), stats: opened, bytes: () => bytes };
    } finally {
      closeSync(fd);
    }
  }

  /** Records the status of the file at `absolute` (as it is now, or as `stats` saw it) with its hash. */
  record(absolute: string, path: string, sha256: string, stats?: BigIntStats): void {
    const now = stats ?? statSync(absolute, { bigint: true, throwIfNoEntry: false });
    if (now !== undefined) this.next.set(path, statusText(now, sha256));
  }

  /** Hands what was recorded to the cache, to be written with it. */
  save(): void {
    this.cache?.put(DISK_STATUS, '', JSON.stringify([...this.next].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))));
  }
}
