import type { ImportExtension } from '../emit/import-extension.js';
import type { HostOptions } from '../emit/server/host-files.js';
import { inputProblem } from '../load/diagnostics.js';
import { displayPath } from '../pipeline/paths.js';
import { loadServerModel, writeServer, type ServerJob, type ServerTarget } from '../pipeline/server.js';
import type { StampRequest } from '../pipeline/noop-record.js';
import type { Recipe } from '../write/ledger.js';
import { serverBanner } from './noop-server.js';
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
  /** `--mcpb`: an MCP Bundle manifest and `npm run pack:mcpb`. */
  mcpb?: boolean;
  /** `--registry-name <name>`: server.json for the MCP Registry. */
  registryName?: string;
  /** `--registry-remote <url>`: server.json names this endpoint instead of the npm package. */
  registryRemote?: string;
  /** `--dockerfile`: a Dockerfile for the HTTP server. */
  dockerfile?: boolean;
  /** false with `--no-shared-cache`: no shared unit pack in the user cache folder. */
  sharedCache?: boolean;
  /** `--spec`, `--spec-dir`: a newer schema for a revision the runtime speaks (pipeline/spec-update.ts). */
  spec?: string;
  specDir?: string;
  versionBanner: boolean;
}

/** One run of `mcp-gen server` (and of regenerate-self's servers): generates, then prints the report and the notes. */
export async function generateServer(
  manifest: string,
  options: Omit<ServerOptions, 'versionBanner' | 'debugIr' | 'watch'> & { banner: Recipe['banner'] },
  io: Console,
  /** Collects the files the manifest loader read (for --watch). */
  inputFiles?: Set<string>,
  /** Leave a no-op stamp for the next run (noop-server.ts). */
  stamp?: StampRequest,
): Promise<number> {
  const job: ServerJob = {
    manifest,
    out: options.out,
    banner: options.banner,
    ...(options.allowOutsideRefs ? { allowOutsideRefs: true } : {}),
    ...(options.importExtension === 'ts' ? { importExtension: 'ts' as const } : {}),
    ...(options.otel === true ? { otel: true } : {}),
    ...(options.target === 'web' ? { target: 'web' as const } : {}),
    ...(options.spec !== undefined ? { spec: options.spec } : {}),
    ...(options.specDir !== undefined ? { specDir: options.specDir } : {}),
  };
  const hosts = hostOptions(options);
  if (hosts !== undefined) job.hosts = hosts;
  const check = options.check === true;
  const { report, notes } = await writeServer(job, { check, force: options.force === true, ...(inputFiles ? { inputFiles } : {}), ...(options.sharedCache === false ? { sharedCache: false } : {}), ...(stamp ? { stamp } : {}) }, io);
  const code = printReport(io, displayPath(options.out), report, check);
  for (const note of notes) io.err(`note: ${note}`);
  return code;
}

/** The files for hosts the flags ask for; a bad registry name or URL is bad input (exit 2). */
function hostOptions(options: Pick<ServerOptions, 'mcpb' | 'registryName' | 'registryRemote' | 'dockerfile'>): HostOptions | undefined {
  const hosts: HostOptions = {};
  if (options.mcpb === true) hosts.mcpb = true;
  if (options.registryName !== undefined) {
    // The registry's own rule for names (schema/registry/server.schema.json): namespace/name.
    if (!/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/.test(options.registryName) || options.registryName.length > 200) {
      throw inputProblem('mcp-gen server', `--registry-name must be a registry name, not ${JSON.stringify(options.registryName)}`, "namespace/name, e.g. io.github.owner/weather: letters, digits, '.' and '-', one '/'");
    }
    hosts.registryName = options.registryName;
  }
  if (options.registryRemote !== undefined) {
    if (options.registryName === undefined) throw inputProblem('mcp-gen server', '--registry-remote needs --registry-name', 'add --registry-name io.github.owner/name');
    if (!/^https:\/\/\S+$/.test(options.registryRemote)) throw inputProblem('mcp-gen server', `--registry-remote must be an https: URL, not ${JSON.stringify(options.registryRemote)}`);
    hosts.registryRemote = options.registryRemote;
  }
  if (options.dockerfile === true) hosts.dockerfile = true;
  return Object.keys(hosts).length === 0 ? undefined : hosts;
}

export async function runServer(manifest: string, options: ServerOptions, io: Console, stamp?: StampRequest): Promise<number> {
  // --force on every save would wipe the handlers the user is editing between saves.
  const clash = options.check ? '--check' : options.debugIr ? '--debug-ir' : options.force ? '--force' : undefined;
  if (options.watch && clash) throw watchClash('mcp-gen server', clash, clash === '--force' ? 'run once with --force, then --watch without it' : undefined);
  if (options.debugIr) {
    io.out(JSON.stringify((await loadServerModel({ manifest, ...(options.allowOutsideRefs ? { allowOutsideRefs: true } : {}) }, io)).model, null, 2));
    return EXIT_OK;
  }
  // Relative to the working directory: an absolute path would make the bytes machine-specific.
  const banner = serverBanner(manifest, options.versionBanner);
  if (options.watch) {
    return watchAndRegenerate((runIo, inputs) => generateServer(manifest, { ...options, banner }, runIo, inputs), io);
  }
  return generateServer(manifest, { ...options, banner }, io, undefined, stamp);
}
