import { readdirSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { compilableTools } from '../emit/client/compilable.js';
import { planClient } from '../emit/client/index.js';
import { inputProblem } from '../load/diagnostics.js';
import { introspect, readSnapshot, snapshotText, splitCommand, type ServerSnapshot } from '../load/introspect.js';
import { loadManifest } from '../load/manifest.js';
import { serviceFromSnapshot } from '../model/service-from-snapshot.js';
import type { ServiceModel } from '../model/service-model.js';
import { STATELESS_REVISION } from '../model/service.js';
import type { ServerLocation } from '../runtime/client/index.js';
import type { BannerOptions } from '../write/render.js';
import { writeOutput } from '../write/writer.js';
import { flagPairs } from './flag-pairs.js';
import { printReport, printWarnings, type Console } from './output.js';
import { commandBanner, displayPath, PACKAGE_ROOT } from './paths.js';
import { watchAndRegenerate, watchClash } from './watch.js';

export interface ClientCommandOptions {
  out: string;
  fromUrl?: string;
  header?: string[];
  fromCommand?: string;
  env?: string[];
  fromSnapshot?: string;
  saveSnapshot?: string;
  allowOutsideRefs?: boolean;
  check?: boolean;
  watch?: boolean;
  versionBanner: boolean;
}

/** The revision whose method map types `request()`: the newest stateful one, like the server runtime's. */
const CLIENT_TYPES_REVISION = '2025-11-25';
/** The shared runtime modules the client imports, beside `src/runtime/client/`. */
const SHARED_RUNTIME = ['api.ts', 'errors.ts', 'header-params.ts', 'jsonrpc.ts'];

/** The client runtime as it ships with mcp-gen: `src/runtime/client/*.ts` and the shared modules. */
export function readClientRuntimeSources(): Record<string, string> {
  const runtimeDir = join(PACKAGE_ROOT, 'src', 'runtime');
  const sources: Record<string, string> = {};
  for (const name of SHARED_RUNTIME) sources[name] = readFileSync(join(runtimeDir, name), 'utf8');
  for (const name of readdirSync(join(runtimeDir, 'client')).sort()) {
    if (name.endsWith('.ts')) sources[`client/${name}`] = readFileSync(join(runtimeDir, 'client', name), 'utf8');
  }
  return sources;
}

function readProtocolTypes(revision: string): string {
  return readFileSync(join(PACKAGE_ROOT, 'generated', 'protocol', revision, 'types.ts'), 'utf8');
}

function location(options: ClientCommandOptions): ServerLocation | undefined {
  if (options.fromUrl !== undefined) {
    const headers = flagPairs(options.header, ':', '--header');
    return headers ? { url: options.fromUrl, headers } : { url: options.fromUrl };
  }
  if (options.fromCommand !== undefined) {
    const [command, ...args] = splitCommand(options.fromCommand);
    const env = flagPairs(options.env, '=', '--env');
    return { command: command as string, args, stderr: 'ignore', ...(env ? { env } : {}) };
  }
  return undefined;
}

function requireOneSource(manifest: string | undefined, options: ClientCommandOptions): void {
  const sources = [manifest, options.fromUrl, options.fromCommand, options.fromSnapshot].filter((s) => s !== undefined);
  if (sources.length !== 1) {
    throw inputProblem('mcp-gen client', 'give exactly one of: a manifest, --from-url, --from-command, --from-snapshot');
  }
}

/** Where the model comes from: a manifest, a live server, or a snapshot of one. */
async function loadClientModel(
  manifest: string | undefined,
  options: ClientCommandOptions,
  io: Console,
  inputFiles?: Set<string>,
): Promise<{ model: ServiceModel; source: string }> {
  requireOneSource(manifest, options);
  if (manifest !== undefined) {
    const { model, warnings } = await loadManifest(manifest, { allowOutside: options.allowOutsideRefs === true, ...(inputFiles ? { inputFiles } : {}) });
    printWarnings(io, warnings);
    return { model, source: `mcp-gen client ${displayPath(resolve(manifest))}` };
  }
  let snapshot: ServerSnapshot;
  let source: string;
  // Where warnings point: the snapshot file, or the server as named on the command line.
  let place: string;
  const live = location(options);
  if (live) {
    snapshot = await introspect(live, (line) => io.err(line));
    source = options.fromUrl !== undefined ? `mcp-gen client --from-url ${options.fromUrl}` : `mcp-gen client --from-command ${options.fromCommand}`;
    place = options.fromUrl ?? (options.fromCommand as string);
  } else {
    const file = options.fromSnapshot as string;
    inputFiles?.add(resolve(file));
    snapshot = await readSnapshot(file);
    source = `mcp-gen client --from-snapshot ${displayPath(resolve(file))}`;
    place = displayPath(resolve(file));
  }
  if (options.saveSnapshot !== undefined) {
    await writeFile(options.saveSnapshot, snapshotText(snapshot));
    io.err(`snapshot saved: ${options.saveSnapshot}`);
  }
  const built = serviceFromSnapshot(snapshot, source, place);
  const compiled = await compilableTools(built.model, snapshot, place);
  printWarnings(io, [...built.warnings, ...compiled.warnings]);
  for (const note of built.notes) io.err(`note: ${note}`);
  return { model: compiled.model, source };
}

export async function generateClient(
  manifest: string | undefined,
  options: Omit<ClientCommandOptions, 'versionBanner'> & { banner?: BannerOptions; versionBanner?: boolean },
  io: Console,
  /** Collects the files the model was read from (for --watch). */
  inputFiles?: Set<string>,
): Promise<number> {
  const { model, source } = await loadClientModel(manifest, options as ClientCommandOptions, io, inputFiles);
  const plan = await planClient(model, {
    runtimeSources: readClientRuntimeSources(),
    protocolTypes: readProtocolTypes(CLIENT_TYPES_REVISION),
    statelessProtocolTypes: readProtocolTypes(STATELESS_REVISION),
  });
  for (const warning of plan.warnings) io.err(`warning: ${warning}`);
  const check = options.check === true;
  // A live source's banner names the command without the snapshot file, so bytes depend on the server alone.
  const banner = options.banner ?? commandBanner(source, options.versionBanner !== false);
  const report = await writeOutput(options.out, plan.files, { banner, check, force: false });
  return printReport(io, displayPath(options.out), report, check);
}

export function runClient(manifest: string | undefined, options: ClientCommandOptions, io: Console): Promise<number> {
  if (options.watch) {
    requireOneSource(manifest, options);
    // A live server sends no change events: watching it would mean polling, which --watch does not do.
    const clash = options.fromUrl !== undefined ? '--from-url' : options.fromCommand !== undefined ? '--from-command' : undefined;
    if (clash) throw watchClash('mcp-gen client', clash, 'save a snapshot with --save-snapshot and watch it with --from-snapshot, or watch a manifest');
    // Saving the snapshot being watched would wake the watch again, forever.
    const other = options.saveSnapshot !== undefined ? '--save-snapshot' : options.check ? '--check' : undefined;
    if (other) throw watchClash('mcp-gen client', other);
    return watchAndRegenerate((runIo, inputs) => generateClient(manifest, options, runIo, inputs), io);
  }
  return generateClient(manifest, options, io);
}
