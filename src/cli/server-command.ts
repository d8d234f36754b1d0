import { resolve } from 'node:path';
import type { ImportExtension } from '../emit/import-extension.js';
import { displayPath } from '../pipeline/paths.js';
import { loadServerModel, writeServer, type ServerJob, type ServerTarget } from '../pipeline/server.js';
import type { Recipe } from '../write/ledger.js';
import { EXIT_OK, printReport, type Console } from './output.js';
import { watchAndRegenerate, watchClash } from './watch.js';

export interface ServerOptions {
  out: string;
  force?: boolean;
  allowOutsideRefs?: boolean;
  /** `--import-extension`: `js` unless given. */
  importExtension?: ImportExtension;
  /** `--otel`: main.ts turns tracing on; package.json depends on @opentelemetry/api. */
  otel?: boolean;
  /** `--target`: `node` unless given; `web` adds main.web.ts. */
  target?: ServerTarget;
  debugIr?: boolean;
  check?: boolean;
  watch?: boolean;
  versionBanner: boolean;
}

/** One run of `mcp-gen server` (and of regenerate-self's servers): generates, then prints the report and the notes. */
export async function generateServer(
  manifest: string,
  options: Omit<ServerOptions, 'versionBanner' | 'debugIr' | 'watch'> & { banner: Recipe['banner'] },
  io: Console,
  /** Collects the files the manifest loader read (for --watch). */
  inputFiles?: Set<string>,
): Promise<number> {
  const job: ServerJob = {
    manifest,
    out: options.out,
    banner: options.banner,
    ...(options.allowOutsideRefs ? { allowOutsideRefs: true } : {}),
    ...(options.importExtension === 'ts' ? { importExtension: 'ts' as const } : {}),
    ...(options.otel === true ? { otel: true } : {}),
    ...(options.target === 'web' ? { target: 'web' as const } : {}),
  };
  const check = options.check === true;
  const { report, notes } = await writeServer(job, { check, force: options.force === true, ...(inputFiles ? { inputFiles } : {}) }, io);
  const code = printReport(io, displayPath(options.out), report, check);
  for (const note of notes) io.err(`note: ${note}`);
  return code;
}

export async function runServer(manifest: string, options: ServerOptions, io: Console): Promise<number> {
  // --force on every save would wipe the handlers the user is editing between saves.
  const clash = options.check ? '--check' : options.debugIr ? '--debug-ir' : options.force ? '--force' : undefined;
  if (options.watch && clash) throw watchClash('mcp-gen server', clash, clash === '--force' ? 'run once with --force, then --watch without it' : undefined);
  if (options.debugIr) {
    io.out(JSON.stringify((await loadServerModel({ manifest, ...(options.allowOutsideRefs ? { allowOutsideRefs: true } : {}) }, io)).model, null, 2));
    return EXIT_OK;
  }
  // Relative to the working directory: an absolute path would make the bytes machine-specific.
  const banner = { command: `mcp-gen server ${displayPath(resolve(manifest))}`, version: options.versionBanner };
  if (options.watch) {
    return watchAndRegenerate((runIo, inputs) => generateServer(manifest, { ...options, banner }, runIo, inputs), io);
  }
  return generateServer(manifest, { ...options, banner }, io);
}
