import { readFileSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join, posix, resolve } from 'node:path';
import { inputProblem } from '../load/diagnostics.js';
import { unplannedFiles } from './extra-files.js';
import { LEDGER_FILE, ledgerText as renderLedger, trustedLedger, UNREADABLE_LEDGER_HINT, type LedgerRecord } from './ledger.js';
import { contentOf, type PlannedFile } from './planned-file.js';
import { bannerComment, hasBanner, renderBody, renderFile, type AsyncMemo, type BannerOptions } from './render.js';
import { writeUnitCache, type UnitCache } from './unit-cache.js';
import { DiskStatuses, type DiskFile } from './disk-status.js';
import { Staging } from './staging.js';
import { sha256Hex as sha256 } from '../schema/sha256.js';

/**
 * The only code that touches the output folder. Each file is rendered, then either compared with
 * the disk (`check`) or staged in a temp folder beside the output (staging.ts); once every file is
 * staged they are renamed into place, so a failure before the renames leaves the output exactly as
 * it was.
 */

export { LEDGER_FILE };

export interface WriteOptions {
  banner: BannerOptions;
  /** Compare with the disk and report; write nothing. */
  check?: boolean;
  /** Overwrite user-owned files with fresh skeletons. */
  force?: boolean;
  /** How the output was made, recorded in the ledger for `mcp-gen check`. */
  record?: LedgerRecord;
  /** The folder's unit cache: formatting reuses it, and a real run saves it beside the ledger. */
  cache?: UnitCache;
  /**
   * Everything in the output folder is mcp-gen's (a client's): `--check` reports any other file
   * in it. Otherwise only its subfolders holding nothing but generated files are (extra-files.ts).
   */
  ownsFolder?: boolean;
  /** Called when every file is in place, just before the unit cache is saved (to stamp it: pipeline/noop-stamp.ts). */
  beforeCacheSave?: () => void;
}

export interface WriteReport {
  created: string[];
  updated: string[];
  unchanged: string[];
  /** User-owned files that existed and were extended by their merge hook. */
  merged: string[];
  /** User-owned files that existed and were left alone. */
  kept: string[];
  /** Generated files of an earlier run that this run no longer produces. */
  deleted: string[];
  /** Check mode: what a real run would change. Empty lists mean the output is current. */
  stale: string[];
  missing: string[];
  extra: string[];
}


function assertSafePath(path: string): void {
  const normal = posix.normalize(path);
  if (path === '' || normal !== path || path.startsWith('/') || path.startsWith('../') || path === '..' || path.includes('\\')) {
    throw new Error(`emitter produced an unsafe output path: ${JSON.stringify(path)}`);
  }
}

async function readIfExists(path: string): Promise<string | undefined> {
  // Synchronous for the reason bytesIfExists gives.
  return bytesIfExists(path)?.toString('utf8');
}

/**
 * A file's bytes, or undefined when there is none. Synchronous on purpose: a large server plans
 * thousands of files, nothing else runs meanwhile, and a promise-based read costs several times
 * the CPU of the same syscalls made directly.
 */
function bytesIfExists(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Marks a user-owned file that exists and is kept as it is: its text is never needed. */
const EXISTS = Symbol('exists');

/**
 * What is on disk where a planned file goes: the text to compare with or merge into, only
 * `EXISTS` for a user file without a merge hook (kept whatever it holds, so it is not read), or a
 * generated file as its hash (compared with what would be written; read only when the unit cache
 * cannot vouch for it, see disk-status.ts).
 */
function onDisk(outDir: string, file: PlannedFile, force: boolean, statuses: DiskStatuses): string | typeof EXISTS | DiskFile | undefined {
  const path = join(outDir, file.path);
  if (file.owner === 'generated') return statuses.find(path, file.path);
  if (file.owner === 'user' && !file.merge && !force) return statSync(path, { throwIfNoEntry: false }) ? EXISTS : undefined;
  return bytesIfExists(path)?.toString('utf8');
}

/**
 * The ledger on disk: its exact text (for --check) and the files it lists. One that cannot be read,
 * or that a newer mcp-gen wrote, is bad input (exit 2): it alone says which files may be replaced
 * or deleted, so nothing is written rather than guessed.
 */
async function readLedger(outDir: string, shownDir: string): Promise<{ text: string | undefined; files: string[] }> {
  const shown = join(shownDir, LEDGER_FILE);
  let text: string | undefined;
  try {
    text = await readIfExists(join(outDir, LEDGER_FILE));
  } catch (error) {
    throw inputProblem(shown, `cannot read the ledger: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, UNREADABLE_LEDGER_HINT);
  }
  if (text === undefined) return { text, files: [] };
  const trusted = trustedLedger(text);
  if (trusted.kind === 'refused') throw inputProblem(shown, trusted.reason, trusted.hint);
  return { text, files: Object.keys(trusted.ledger.files).sort() };
}

/**
 * Renders every file in path order and hands each one this run writes (created, updated, merged)
 * to `write` as soon as its text is final; gives the hash of each generated one for the ledger.
 */
async function plan(
  outDir: string,
  files: readonly PlannedFile[],
  options: WriteOptions,
  report: WriteReport,
  statuses: DiskStatuses,
  write: (path: string, text: string) => void,
): Promise<{ hashes: Record<string, string>; generatedOnDisk: Map<string, DiskFile | undefined> }> {
  const sorted = [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const hashes: Record<string, string> = {};
  const cache = options.cache;
  const memo = cache && ((kind: string, input: string, compute: () => Promise<string>) => cache.memoAsync(kind, input, compute));
  // What follows runs in path order, so reports and notes come out the same every run.
  const found = sorted.map((file) => onDisk(outDir, file, options.force === true, statuses));
  const generatedOnDisk = new Map<string, DiskFile | undefined>();
  for (const [i, file] of sorted.entries()) {
    const existing = found[i];
    if (file.owner === 'generated' && file.contentKey !== undefined) {
      // Hashes compared; the content is made only when they differ.
      const disk = existing as DiskFile | undefined;
      generatedOnDisk.set(file.path, disk);
      const kept = await keyedFile(file, disk, options.banner, memo);
      hashes[file.path] = kept.sha256;
      if (kept.text === undefined) {
        report.unchanged.push(file.path);
        continue;
      }
      write(file.path, kept.text);
      (disk === undefined ? report.created : report.updated).push(file.path);
      continue;
    }
    if (file.owner === 'user' && existing !== undefined && !options.force) {
      // A user file is found as its text or as EXISTS, never as bytes (those are for keyed generated files).
      const merged = typeof existing !== 'string' ? undefined : await file.merge?.(existing, memo);
      if (merged === undefined || merged === existing) {
        report.kept.push(file.path);
        continue;
      }
      // Merged user code keeps the user's formatting: written as the hook returns it.
      write(file.path, merged);
      report.merged.push(file.path);
      continue;
    }
    const text = await renderFile(file, options.banner, memo);
    if (memo && file.created) await file.created(text, memo);
    // A generated file is found as its hash (disk-status.ts), a user file (forced or new) as its text.
    const hash = file.owner === 'generated' ? sha256(text) : undefined;
    if (file.owner === 'generated') {
      hashes[file.path] = hash as string;
      generatedOnDisk.set(file.path, existing as DiskFile | undefined);
    }
    if (existing !== undefined && (hash !== undefined ? (existing as DiskFile).sha256 === hash : existing === text)) {
      report.unchanged.push(file.path);
      continue;
    }
    (existing === undefined ? report.created : report.updated).push(file.path);
    write(file.path, text);
  }
  return { hashes, generatedOnDisk };
}

/**
 * A generated file with a `contentKey`. The memo holds, under that key, the hash of the file as a
 * whole under this banner and the hash of its text below the banner (kept from the run that last
 * rendered it; the key fixes that text). A file on disk that hashes to the first is unchanged; one
 * whose text below its first line hashes to the second only gets the new banner (another
 * regenerate command); neither needs the content. Otherwise (no such file, an edited one, a key
 * the memo does not know) the content is made and rendered. `text` is what to write, absent when
 * the file stays as it is.
 */
async function keyedFile(
  file: PlannedFile,
  onDisk: DiskFile | undefined,
  banner: BannerOptions,
  memo: AsyncMemo | undefined,
): Promise<{ sha256: string; text?: string }> {
  const comment = bannerComment(file, banner) ?? '';
  const bodyInput = `${file.path}\0${file.format}\0${file.contentKey as string}`;
  const wholeInput = `${bodyInput}\0${comment}`;
  const diskHash = onDisk?.sha256;
  const known = async (kind: string, input: string): Promise<string | undefined> => (memo ? lookupOnly(memo, kind, input) : undefined);
  const whole = await known(RENDERED_HASH, wholeInput);
  // Looked up even when not needed, so the cache keeps it for a run under another banner.
  const bodyHash = await known(RENDERED_BODY_HASH, bodyInput);
  if (whole !== undefined && whole === diskHash) return { sha256: whole };

  let body: string | undefined;
  if (onDisk !== undefined && bodyHash !== undefined) {
    const disk = onDisk.bytes();
    // The banner is the first line when the file's language has one.
    const bodyStart = comment === '' ? 0 : disk.indexOf(0x0a) + 1;
    const diskBody = disk.subarray(bodyStart);
    if ((bodyStart > 0 || comment === '') && sha256(diskBody) === bodyHash) body = diskBody.toString('utf8');
  }
  body ??= await renderBody({ ...file, content: await contentOf(file) }, memo);
  const text = comment + body;
  const hash = sha256(text);
  if (memo) {
    await memo(RENDERED_BODY_HASH, bodyInput, async () => sha256(body as string));
    await memo(RENDERED_HASH, wholeInput, async () => hash);
  }
  return hash === diskHash ? { sha256: hash } : { sha256: hash, text };
}

/** The memo's kinds for the hashes of a keyed file: as a whole (under a banner), and below the banner. */
const RENDERED_HASH = 'rendered-sha256';
const RENDERED_BODY_HASH = 'rendered-body-sha256';

const UNKNOWN = Symbol('unknown');

/** What the memo knows for this kind and input, without computing anything. */
async function lookupOnly(memo: AsyncMemo, kind: string, input: string): Promise<string | undefined> {
  try {
    return await memo(kind, input, () => Promise.reject(UNKNOWN));
  } catch (error) {
    if (error === UNKNOWN) return undefined;
    throw error;
  }
}

function emptyReport(): WriteReport {
  return { created: [], updated: [], unchanged: [], merged: [], kept: [], deleted: [], stale: [], missing: [], extra: [] };
}

export async function writeOutput(
  outDir: string,
  files: readonly PlannedFile[],
  options: WriteOptions,
): Promise<WriteReport> {
  const planned = new Set<string>();
  for (const file of files) {
    assertSafePath(file.path);
    if (planned.has(file.path)) throw new Error(`two planned files share the path ${file.path}`);
    planned.add(file.path);
  }
  const root = resolve(outDir);
  // First, so a ledger that cannot be trusted stops the run before any work.
  const previous = await readLedger(root, outDir);
  const report = emptyReport();
  const statuses = new DiskStatuses(options.cache);
  // --check writes nothing: what would be written is only reported.
  const staging = options.check ? undefined : new Staging(root);
  try {
    const { hashes, generatedOnDisk } = await plan(root, files, options, report, statuses, (path, text) => staging?.put(path, text));
    const ledgerText = renderLedger(hashes, options.record);

    // Files an earlier run generated that this one does not plan: deleted only if the banner is intact.
    const orphans: string[] = [];
    for (const path of previous.files) {
      if (planned.has(path)) continue;
      assertSafePath(path);
      const text = await readIfExists(join(root, path));
      if (text !== undefined && hasBanner(text)) orphans.push(path);
    }

    if (staging === undefined) {
      report.missing.push(...report.created);
      report.stale.push(...report.updated, ...report.merged);
      // What an earlier run generated, and whatever else lies in mcp-gen's folders (extra-files.ts).
      report.extra.push(...[...new Set([...orphans, ...(await unplannedFiles(root, files, options.ownsFolder === true))])].sort());
      if (previous.text !== ledgerText && report.missing.length + report.stale.length === 0) {
        report.stale.push(LEDGER_FILE);
      }
      return report;
    }

    // The ledger last: everything it lists is in place before it.
    staging.put(LEDGER_FILE, ledgerText);
    staging.moveIntoPlace();
    // Gone before the cache is saved, as it always was: the files just renamed must change before
    // the cache file is written, in the file system's coarse clock, for the next run to trust them
    // (disk-status.ts, noop-stamp.ts), and removing the folder takes that moment.
    staging.remove();
    for (const path of orphans) {
      await rm(join(root, ...path.split('/')));
      report.deleted.push(path);
    }
    if (options.cache) {
      // What each generated file is now, for the next run to trust without reading it (disk-status.ts).
      const unchanged = new Set(report.unchanged);
      for (const [path, disk] of generatedOnDisk) {
        statuses.record(join(root, ...path.split('/')), path, hashes[path] as string, unchanged.has(path) ? disk?.stats : undefined);
      }
      statuses.save();
      options.beforeCacheSave?.();
      await writeUnitCache(root, options.cache);
    }
    return report;
  } finally {
    staging?.remove();
  }
}
