/**
 * `--watch` for the generating commands: generate once, then again whenever one of the files the
 * last run read changes. Folders are watched rather than files, so an editor that saves by writing
 * a temporary file and renaming it over the original is still seen (a file watch would stay on the
 * old, unlinked inode). A broken input prints its diagnostics and leaves the output as it was; the
 * process keeps watching until SIGINT or SIGTERM, then returns 0.
 */
import { statSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import { formatDiagnostic, InputError, inputProblem } from '../load/diagnostics.js';
import { EXIT_OK, type Console } from './output.js';
import { displayPath } from '../pipeline/paths.js';

/** Long enough to take an editor's write, rename and chmod as one change; short enough to feel instant. */
const WATCH_DEBOUNCE_MS = 150;

const FILE_CLOCK_SLACK_MS = 50;

/**
 * One generation. It prints through `io` and adds to `inputs` the absolute path of every file it
 * read or tried to read, also when it throws, so a broken or missing file is watched too.
 */
export type WatchedRun = (io: Console, inputs: Set<string>) => Promise<unknown>;

export interface WatchOptions {
  /** Stops watching; default: the first SIGINT or SIGTERM. */
  signal?: AbortSignal;
  debounceMs?: number;
}

/** `--watch` beside a flag it cannot honour (a live server, `--check`): a usage error, exit 2. */
export function watchClash(command: string, flag: string, hint?: string): InputError {
  return inputProblem(command, `--watch does not go with ${flag}`, hint ?? `leave out ${flag} or --watch`);
}

/** Runs `run` now and after every change to its inputs until stopped; resolves to exit code 0. */
export function watchAndRegenerate(run: WatchedRun, io: Console, options: WatchOptions = {}): Promise<number> {
  const debounceMs = options.debounceMs ?? WATCH_DEBOUNCE_MS;
  const signal = options.signal ?? stopOnSignals();
  return new Promise((done) => {
    let watched = new Set<string>();
    let timer: NodeJS.Timeout | undefined;
    let running = false;
    let changedWhileRunning = false;
    let stopped = false;

    const folders = new FolderWatches(() => schedule());
    const schedule = (): void => {
      if (stopped) return;
      if (running) {
        changedWhileRunning = true;
        return;
      }
      clearTimeout(timer);
      timer = setTimeout(() => void runOnce(), debounceMs);
    };
    const finish = (): void => {
      folders.close();
      done(EXIT_OK);
    };

    const runOnce = async (): Promise<void> => {
      running = true;
      changedWhileRunning = false;
      // Printed only once the new watches are armed: whoever sees a run's output may edit at once.
      const buffered = new BufferedConsole();
      const inputs = new Set<string>();
      // File times come from a coarse kernel clock that can trail Date.now() by a few milliseconds.
      const startedAt = Date.now() - FILE_CLOCK_SLACK_MS;
      let succeeded = false;
      try {
        await run(buffered, inputs);
        succeeded = true;
      } catch (error) {
        printFailure(buffered, error);
      }
      // A failed run may have stopped before reaching every reference: drop nothing until one succeeds.
      const next = succeeded ? inputs : new Set([...watched, ...inputs]);
      folders.update(next);
      printWatchChanges(buffered, watched, next);
      // A file first watched now may have changed after the run read it, before its watch was armed.
      if ([...next].some((file) => !watched.has(file) && modifiedSince(file, startedAt))) changedWhileRunning = true;
      watched = next;
      buffered.flushTo(io);
      running = false;
      if (stopped) finish();
      else if (changedWhileRunning) schedule();
    };

    const stop = (): void => {
      if (stopped) return;
      stopped = true;
      clearTimeout(timer);
      if (!running) finish();
    };
    if (signal.aborted) stop();
    else signal.addEventListener('abort', stop, { once: true });
    if (!stopped) void runOnce();
  });
}

/** Aborts on the first SIGINT or SIGTERM; a second one gets the default behaviour (exit at once). */
function stopOnSignals(): AbortSignal {
  const controller = new AbortController();
  const stop = (): void => {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    controller.abort();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return controller.signal;
}

/** Like printInputError, but the output is not "nothing written": it is the last good one, kept. */
function printFailure(io: Console, error: unknown): void {
  if (error instanceof InputError) {
    const count = error.diagnostics.length;
    for (const d of error.diagnostics) io.err(`error: ${formatDiagnostic(d)}`);
    io.err(`${count} problem${count === 1 ? '' : 's'} found; the output was left as it was. Waiting for changes.`);
    return;
  }
  io.err(`internal error in mcp-gen (please report it): ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
}

function printWatchChanges(io: Console, before: ReadonlySet<string>, after: ReadonlySet<string>): void {
  if (before.size === 0) {
    io.err(`watching ${after.size} file${after.size === 1 ? '' : 's'} for changes; Ctrl-C stops.`);
    return;
  }
  for (const file of after) if (!before.has(file)) io.err(`now watching ${displayPath(file)}`);
  for (const file of before) if (!after.has(file)) io.err(`no longer watching ${displayPath(file)}`);
}

class BufferedConsole implements Console {
  private readonly lines: { stream: 'out' | 'err'; line: string }[] = [];
  out(line: string): void {
    this.lines.push({ stream: 'out', line });
  }
  err(line: string): void {
    this.lines.push({ stream: 'err', line });
  }
  flushTo(io: Console): void {
    for (const { stream, line } of this.lines.splice(0)) io[stream](line);
  }
}

interface FolderWatch {
  watcher: FSWatcher;
  /** Entries of the folder whose change matters: a watched file, or the next step toward a missing one. */
  names: Set<string>;
  /** The folder's inode when watched: a folder deleted and recreated needs a new watch. */
  inode: number | undefined;
}

/** One `fs.watch` per folder that holds (or would hold) a watched file. */
class FolderWatches {
  private readonly folders = new Map<string, FolderWatch>();

  constructor(private readonly onChange: () => void) {}

  /** Watches exactly `files` from now on. */
  update(files: Iterable<string>): void {
    const wanted = new Map<string, Set<string>>();
    for (const file of files) {
      const { folder, name } = watchPoint(file);
      const names = wanted.get(folder) ?? new Set<string>();
      names.add(name);
      wanted.set(folder, names);
    }
    for (const [folder, entry] of this.folders) {
      if (!wanted.has(folder) || inodeOf(folder) !== entry.inode) this.unwatch(folder);
    }
    for (const [folder, names] of wanted) {
      const entry = this.folders.get(folder);
      if (entry) entry.names = names;
      else this.watch(folder, names);
    }
  }

  close(): void {
    for (const folder of [...this.folders.keys()]) this.unwatch(folder);
  }

  private watch(folder: string, names: Set<string>): void {
    const inode = inodeOf(folder);
    let watcher: FSWatcher;
    try {
      watcher = watch(folder, { persistent: true });
    } catch {
      // Gone between stat and watch: the next run looks again.
      return;
    }
    const entry: FolderWatch = { watcher, names, inode };
    watcher.on('change', (_event, filename) => {
      // Some platforms do not say which entry changed: take it as a change.
      if (filename === null || entry.names.has(filename.toString())) this.onChange();
    });
    watcher.on('error', () => {
      // The folder went away; a run re-arms the watches from what is there now.
      this.unwatch(folder);
      this.onChange();
    });
    this.folders.set(folder, entry);
  }

  private unwatch(folder: string): void {
    this.folders.get(folder)?.watcher.close();
    this.folders.delete(folder);
  }
}

/** The nearest existing folder on the way to `file`, and the entry in it that leads to `file`. */
function watchPoint(file: string): { folder: string; name: string } {
  let name = basename(file);
  let folder = dirname(file);
  while (inodeOf(folder) === undefined && dirname(folder) !== folder) {
    name = basename(folder);
    folder = dirname(folder);
  }
  return { folder, name };
}

function modifiedSince(file: string, time: number): boolean {
  try {
    return statSync(file).mtimeMs >= time;
  } catch {
    return false;
  }
}

function inodeOf(folder: string): number | undefined {
  try {
    const info = statSync(folder);
    return info.isDirectory() ? info.ino : undefined;
  } catch {
    return undefined;
  }
}
