/**
 * The no-op stamp of `mcp-gen server` and of `mcp-gen client` from a manifest
 * (docs/caching.md#a-run-with-nothing-to-do): what a run that wrote an output folder needs to
 * know, next time, that running again would change nothing.
 *
 * A run that writes records, in the header line of the folder's `.mcp-gen-cache.json`:
 *   - a key: the generator (its fingerprint, the runtime, templates and data it copies, Node's
 *     version) and every flag and path that shapes the output or the banner;
 *   - every input file the manifest loader read or looked for (the manifest, `$ref`'d schema files,
 *     view HTML files, the OpenAPI description an import names) with its SHA-256, or as missing;
 *   - every file it planned, with its status on disk after the write (size, inode, modification and
 *     change times in ns), and the ledger's; a user-owned file without a merge hook only as existing;
 *   - the lines it printed to stderr (warnings) and its notes, to be printed again.
 * The next run first reads that header alone (not the cache's values), hashes the inputs and
 * compares the statuses. When all match, it prints the report a full run would print (every
 * generated file unchanged, every user file kept) and exits, without parsing the manifest or
 * loading a compiler. Anything else, or any doubt, is a full run, as without the stamp.
 *
 * A file's status vouches for its bytes only when its change time is before the cache file's own
 * modification time (the rule of disk-status.ts): an edit after the run, however quick, changes it.
 * Inputs are hashed, not trusted by status, and a run whose inputs changed while it ran leaves no
 * stamp.
 */
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readdirSync, readFileSync, readSync, statSync, type BigIntStats } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { sha256Hex } from '../schema/sha256.js';
import { generatorFingerprint } from './generator-fingerprint.js';
import { PACKAGE_ROOT } from './paths.js';

/** Bumped whenever the stamp's fields change meaning; another format is a full run. */
const STAMP_FORMAT = 1;
/** The unit cache's file (unit-cache.ts), named here so the fast path loads nothing else of the writer. */
const CACHE_FILE = '.mcp-gen-cache.json';
const LEDGER = '.mcp-gen-ledger.json';

/** What each planned file is to the stamp: checked by status, or (a user file kept whatever it holds) by existence. */
export type StampedKind = 'generated' | 'merged' | 'user' | 'ledger';

export interface NoopStamp {
  format: number;
  key: string;
  /** Absolute path and SHA-256, null for a file looked for and not found. */
  inputs: [string, string | null][];
  /** Output-relative path, kind, status ('' for a user file: existence only). Sorted by path. */
  files: [string, StampedKind, string][];
  /** What the run printed on stderr before its report, and its notes (printed after it). */
  messages: string[];
  notes: string[];
}

/** The flags and paths that shape an output and its banner (cli/noop-server.ts, cli/noop-client.ts). */
export interface StampedJob {
  manifest: string;
  out: string;
  banner: { command: string; version: boolean };
  options: Record<string, string | boolean | undefined>;
}

function statusText(stats: BigIntStats): string {
  return `${stats.size} ${stats.ino} ${stats.mtimeNs} ${stats.ctimeNs}`;
}

/** Statuses of every file under the package folders a server run reads besides its code (runtime, templates, data). */
function packageStatuses(hash: ReturnType<typeof createHash>): void {
  for (const folder of [join('src', 'runtime'), 'generated', 'templates', 'schema']) {
    const root = join(PACKAGE_ROOT, folder);
    let entries: string[];
    try {
      entries = (readdirSync(root, { recursive: true, encoding: 'utf8' }) as string[]).sort();
    } catch {
      continue;
    }
    for (const entry of entries) {
      const stats = statSync(join(root, entry), { bigint: true, throwIfNoEntry: false });
      if (stats?.isFile() === true) hash.update(`${folder}/${entry}\0${statusText(stats)}\0`);
    }
  }
}

/** The key of a run: the generator as it is installed, and the job. */
export function stampKey(job: StampedJob): string {
  const hash = createHash('sha256').update(`noop ${STAMP_FORMAT}\0${generatorFingerprint()}\0${process.version}\0`);
  packageStatuses(hash);
  const options = Object.entries(job.options).filter(([, value]) => value !== undefined).sort(([a], [b]) => (a < b ? -1 : 1));
  hash.update(JSON.stringify([resolve(job.manifest), resolve(job.out), job.banner, options, process.env['MCP_SPEC_DIR'] ?? null]));
  return hash.digest('hex');
}

/** A file's SHA-256, or null when there is none (or it cannot be read: the stamp then never matches one that can). */
function hashOrNull(path: string): string | null {
  try {
    return sha256Hex(readFileSync(path));
  } catch {
    return null;
  }
}

/**
 * The OpenAPI description an imported manifest names (import-ledger.ts reads it for the ledger):
 * an input too, found the way openApiInput finds it. Only its path is needed here.
 */
function openApiPath(manifest: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(manifest, 'utf8');
  } catch {
    return undefined;
  }
  if (!text.includes('openapi')) return undefined;
  const match = /^\s+source:\s*\n\s+openapi:\s*(?:"([^"\n]+)"|'([^'\n]+)'|([^\s#][^\n#]*?))\s*\n/m.exec(text) ?? /"source"\s*:\s*\{\s*"openapi"\s*:\s*"([^"]+)"/.exec(text);
  const named = match?.[1] ?? match?.[2] ?? match?.[3];
  return named === undefined || /^https?:\/\//i.test(named) ? undefined : resolve(dirname(manifest), named);
}

/** One planned file as the writer saw it. */
export interface WrittenFile {
  path: string;
  owner: 'generated' | 'user';
  merge: boolean;
}

/**
 * The stamp of a run that has just written `out`, or undefined when it must not have one (an input
 * changed while the run read it). `startedAtNs`: the wall clock when the run began.
 */
export function makeStamp(
  key: string,
  job: StampedJob,
  readFiles: Iterable<string>,
  written: readonly WrittenFile[],
  printed: { messages: string[]; notes: string[] },
  startedAtNs: bigint,
  /** Inputs the run wrote itself: hashed as it left them, whenever they changed. */
  createdInputs: Iterable<string> = [],
): NoopStamp | undefined {
  const created = new Set([...createdInputs].map((path) => resolve(path)));
  const paths = new Set([...readFiles].map((path) => resolve(path)));
  created.forEach((path) => paths.add(path));
  paths.add(resolve(job.manifest));
  const openapi = openApiPath(job.manifest);
  if (openapi !== undefined) paths.add(openapi);
  const inputs: [string, string | null][] = [];
  for (const path of [...paths].sort()) {
    const stats = statSync(path, { bigint: true, throwIfNoEntry: false });
    // Changed since the run began: what it read may not be what is hashed now.
    if (stats !== undefined && stats.ctimeNs >= startedAtNs && !created.has(path)) return undefined;
    inputs.push([path, stats === undefined ? null : hashOrNull(path)]);
  }
  const root = resolve(job.out);
  const files: [string, StampedKind, string][] = [];
  for (const file of written) {
    const kind: StampedKind = file.owner === 'generated' ? 'generated' : file.merge ? 'merged' : 'user';
    const stats = statSync(join(root, file.path), { bigint: true, throwIfNoEntry: false });
    if (stats === undefined) return undefined;
    files.push([file.path, kind, kind === 'user' ? '' : statusText(stats)]);
  }
  const ledger = statSync(join(root, LEDGER), { bigint: true, throwIfNoEntry: false });
  if (ledger === undefined) return undefined;
  files.push([LEDGER, 'ledger', statusText(ledger)]);
  files.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return { format: STAMP_FORMAT, key, inputs, files, messages: printed.messages, notes: printed.notes };
}

/**
 * The stamp in the header line of the folder's cache and the cache file's modification time, or
 * undefined. Reads the header alone: the values after it (megabytes for a large server) are not needed.
 */
export function readStamp(out: string): { stamp: NoopStamp; savedAtNs: bigint } | undefined {
  let fd: number;
  try {
    fd = openSync(join(out, CACHE_FILE), 'r');
  } catch {
    return undefined;
  }
  try {
    const savedAtNs = fstatSync(fd, { bigint: true }).mtimeNs;
    const chunks: Buffer[] = [];
    const chunk = Buffer.allocUnsafe(1 << 20);
    for (;;) {
      const read = readSync(fd, chunk, 0, chunk.length, null);
      const end = chunk.subarray(0, read).indexOf(0x0a);
      chunks.push(Buffer.from(chunk.subarray(0, end < 0 ? read : end)));
      if (end >= 0) break;
      if (read === 0) return undefined;
    }
    const header = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { noop?: unknown } | null;
    const stamp = header?.noop as NoopStamp | undefined;
    if (typeof stamp !== 'object' || stamp === null || stamp.format !== STAMP_FORMAT || !Array.isArray(stamp.inputs) || !Array.isArray(stamp.files)) return undefined;
    return { stamp, savedAtNs };
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** Whether the folder and the inputs are exactly as the stamp saw them, under the same key. */
export function stampHolds(stamp: NoopStamp, savedAtNs: bigint, key: string, out: string): boolean {
  if (stamp.key !== key) return false;
  // The inputs first: an edited manifest, the usual change, is seen before thousands of files are looked at.
  for (const [path, sha256] of stamp.inputs) {
    if (hashOrNull(path) !== sha256) return false;
  }
  const root = resolve(out);
  for (const [path, kind, status] of stamp.files) {
    const stats = statSync(join(root, path), { bigint: true, throwIfNoEntry: false });
    if (stats === undefined) return false;
    if (kind === 'user') continue;
    if (!(stats.ctimeNs < savedAtNs) || statusText(stats) !== status) return false;
  }
  return true;
}
