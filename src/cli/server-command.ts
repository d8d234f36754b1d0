import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { planServer } from '../emit/server/index.js';
import { loadManifest } from '../load/manifest.js';
import type { ServiceModel } from '../model/service-model.js';
import type { BannerOptions } from '../write/render.js';
import { writeOutput } from '../write/writer.js';
import { EXIT_OK, printReport, printWarnings, type Console } from './output.js';
import { commandBanner, displayPath, PACKAGE_ROOT } from './paths.js';
import { watchAndRegenerate, watchClash } from './watch.js';

export interface ServerOptions {
  out: string;
  force?: boolean;
  allowOutsideRefs?: boolean;
  debugIr?: boolean;
  check?: boolean;
  watch?: boolean;
  versionBanner: boolean;
}

/**
 * The runtime copied into every server: `src/runtime/*.ts` and its README as they ship with
 * mcp-gen, plus the envelope validators mcp-gen generated for it (`generated/runtime/`).
 */
export function readRuntimeSources(): Record<string, string> {
  const sources: Record<string, string> = {};
  const runtimeDir = join(PACKAGE_ROOT, 'src', 'runtime');
  for (const name of readdirSync(runtimeDir).sort()) {
    if (name.endsWith('.ts') || name === 'README.md') sources[name] = readFileSync(join(runtimeDir, name), 'utf8');
  }
  const validatorsDir = join(PACKAGE_ROOT, 'generated', 'runtime');
  for (const name of readdirSync(validatorsDir).sort()) {
    if (/\.(?:js|d\.ts)$/.test(name)) sources[name] = readFileSync(join(validatorsDir, name), 'utf8');
  }
  return sources;
}

async function loadModel(manifest: string, allowOutsideRefs: boolean | undefined, io: Console, inputFiles?: Set<string>): Promise<ServiceModel> {
  const { model, warnings } = await loadManifest(manifest, { allowOutside: allowOutsideRefs === true, ...(inputFiles ? { inputFiles } : {}) });
  printWarnings(io, warnings);
  return model;
}

/** manifest → model → planned files → output folder. Shared by `mcp-gen server` and regenerate-self. */
export async function generateServer(
  manifest: string,
  options: Omit<ServerOptions, 'versionBanner' | 'debugIr' | 'watch'> & { banner: BannerOptions },
  io: Console,
  /** Collects the files the manifest loader read (for --watch). */
  inputFiles?: Set<string>,
): Promise<number> {
  const model = await loadModel(manifest, options.allowOutsideRefs, io, inputFiles);
  const plan = await planServer(model, { runtimeSources: readRuntimeSources() });
  for (const warning of plan.warnings) io.err(`warning: ${warning}`);
  const check = options.check === true;
  const report = await writeOutput(options.out, plan.files, { banner: options.banner, check, force: options.force === true });
  const code = printReport(io, displayPath(options.out), report, check);
  for (const note of plan.notes) io.err(`note: ${note}`);
  return code;
}

export async function runServer(manifest: string, options: ServerOptions, io: Console): Promise<number> {
  // --force on every save would wipe the handlers the user is editing between saves.
  const clash = options.check ? '--check' : options.debugIr ? '--debug-ir' : options.force ? '--force' : undefined;
  if (options.watch && clash) throw watchClash('mcp-gen server', clash, clash === '--force' ? 'run once with --force, then --watch without it' : undefined);
  if (options.debugIr) {
    io.out(JSON.stringify(await loadModel(manifest, options.allowOutsideRefs, io), null, 2));
    return EXIT_OK;
  }
  // Relative to the working directory: an absolute path would make the bytes machine-specific.
  const banner = commandBanner(`mcp-gen server ${displayPath(resolve(manifest))}`, options.versionBanner);
  if (options.watch) {
    return watchAndRegenerate((runIo, inputs) => generateServer(manifest, { ...options, banner }, runIo, inputs), io);
  }
  return generateServer(manifest, { ...options, banner }, io);
}
