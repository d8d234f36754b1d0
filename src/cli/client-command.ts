import { readdirSync, readFileSync } from 'node:fs';
import { fileInput, pathFromOut } from '../check/inputs.js';
import { builtinModules } from 'node:module';
import { join, resolve } from 'node:path';
import { withImportExtension, type ImportExtension } from '../emit/import-extension.js';
import { planClient, SHARED_RUNTIME } from '../emit/client/index.js';
import { inputProblem } from '../load/diagnostics.js';
import { loadManifest } from '../pipeline/manifest.js';
import type { ServiceModel } from '../model/service-model.js';
import { STATELESS_REVISION } from '../model/service.js';
import type { LedgerRecord, Recipe, RecipeInput } from '../write/ledger.js';
import type { PlannedFile } from '../write/planned-file.js';
import { readUnitCache, type UnitCache } from '../write/unit-cache.js';
import { startCompilerStandby, stopCompilerStandby } from '../emit/compiler-standby.js';
import { writeOutput, type WriteReport } from '../write/writer.js';
import { browserRuntimeSources, checkPackageName, checkPackageVersion, packageFiles, type PackageJob } from './client-package.js';
import { generatorFingerprint } from './generator-fingerprint.js';
import { printReport, printWarnings, withProgress, type Console } from './output.js';
import { commandBanner, displayPath, PACKAGE_ROOT, toolVersion } from './paths.js';
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
  /** Include the OAuth module (`runtime/client/auth/`) and its oauth4webapi dependency. */
  auth?: boolean;
  /** `--package <name>`: a publishable npm package (client-package.ts). */
  package?: string;
  /** `--package-version <semver>`: the package's version, as given. */
  packageVersion?: string;
  /** A client for browsers: HTTP on fetch, no stdio, nothing that imports `node:*`. */
  browser?: boolean;
  /** `--import-extension`: `js` unless given. */
  importExtension?: ImportExtension;
  check?: boolean;
  watch?: boolean;
  versionBanner: boolean;
}

/** The revision whose method map types `request()`: the newest stateful one, like the server runtime's. */
const CLIENT_TYPES_REVISION = '2025-11-25';

/**
 * Client runtime files that are copied under another file's name: `connect.ts` is Node's (stdio,
 * HTTP on node:http) or, with `browser`, connect-browser.ts (HTTP on fetch); `oauth-module.ts`
 * loads `auth/` with `auth`, or is oauth-module-absent.ts. Left out with `browser`: what reaches
 * `node:*` (stdio, the node:http wire); without it: the fetch wire.
 */
const STAND_INS = ['client/connect-browser.ts', 'client/oauth-module-absent.ts'];
const NODE_ONLY = ['client/connect.ts', 'client/node-wire.ts', 'client/stdio.ts'];
const BROWSER_ONLY = ['client/fetch-wire.ts'];

/** The client runtime as it ships with mcp-gen: `src/runtime/client/*.ts` and the shared modules; `client/auth/*.ts` with `auth`. */
export function readClientRuntimeSources(auth = false, browser = false): Record<string, string> {
  const runtimeDir = join(PACKAGE_ROOT, 'src', 'runtime');
  const read = (path: string): string => readFileSync(join(runtimeDir, path), 'utf8');
  const sources: Record<string, string> = {};
  for (const name of SHARED_RUNTIME) sources[name] = read(name);
  const leftOut = new Set([...STAND_INS, ...(browser ? NODE_ONLY : BROWSER_ONLY)]);
  for (const folder of auth ? ['client', 'client/auth'] : ['client']) {
    for (const name of readdirSync(join(runtimeDir, folder)).sort()) {
      const path = `${folder}/${name}`;
      if (name.endsWith('.ts') && !leftOut.has(path)) sources[path] = read(path);
    }
  }
  if (browser) sources['client/connect.ts'] = read('client/connect-browser.ts');
  if (!auth) sources['client/oauth-module.ts'] = read('client/oauth-module-absent.ts');
  return sources;
}

function readProtocolTypes(revision: string): string {
  return readFileSync(join(PACKAGE_ROOT, 'generated', 'protocol', revision, 'types.ts'), 'utf8');
}

/** Where a client (or a docs page) is generated from: exactly one of a manifest, a live server, or a saved snapshot. */
export type ClientSource =
  | { manifest: string }
  | { fromSnapshot: string }
  | { fromUrl: string; headers?: string[] }
  | { fromCommand: string; env?: string[] };

export interface ClientJob {
  out: string;
  source: ClientSource;
  allowOutsideRefs?: boolean;
  /** `--auth`: the OAuth module and its dependency. */
  auth?: boolean;
  /** `--browser`: HTTP on fetch, no stdio, no `node:*` import. */
  browser?: boolean;
  /** `--import-extension`: `js` unless given. */
  importExtension?: ImportExtension;
  banner: Recipe['banner'];
  /** A live source read from the snapshot saved beside the output, not from the server (check without --live). */
  offline?: boolean;
  saveSnapshot?: string;
  /** `--package`: the client as an npm package, its files under `src/`. */
  package?: PackageJob;
}

/** A live server's answers, saved in the output so the client can be checked offline. */
export const SAVED_SNAPSHOT = '.mcp-gen-snapshot.json';

export function clientSource(manifest: string | undefined, options: ClientCommandOptions): ClientSource {
  const given = [manifest, options.fromUrl, options.fromCommand, options.fromSnapshot].filter((s) => s !== undefined);
  if (given.length !== 1) {
    throw inputProblem('mcp-gen client', 'give exactly one of: a manifest, --from-url, --from-command, --from-snapshot');
  }
  if (manifest !== undefined) return { manifest };
  if (options.fromUrl !== undefined) return { fromUrl: options.fromUrl, ...(options.header ? { headers: options.header } : {}) };
  if (options.fromCommand !== undefined) return { fromCommand: options.fromCommand, ...(options.env ? { env: options.env } : {}) };
  return { fromSnapshot: options.fromSnapshot as string };
}

/** The banner (and the model's source) a command line gives, relative to the working directory. */
function bannerCommand(source: ClientSource): string {
  if ('manifest' in source) return `mcp-gen client ${displayPath(resolve(source.manifest))}`;
  if ('fromSnapshot' in source) return `mcp-gen client --from-snapshot ${displayPath(resolve(source.fromSnapshot))}`;
  // A live source's banner names the command without the snapshot file, so bytes depend on the server alone.
  if ('fromUrl' in source) return `mcp-gen client --from-url ${source.fromUrl}`;
  return `mcp-gen client --from-command ${source.fromCommand}`;
}

export interface LoadedClient {
  model: ServiceModel;
  inputs: RecipeInput[];
  /** The saved snapshot's text, for a live source. */
  saved?: string;
  /** The live server answered 401: the client needs the OAuth module. */
  unauthorized?: boolean;
}

/** Where the model comes from: a manifest, a live server, or a snapshot of one. */
async function loadClientModel(job: ClientJob, io: Console, inputFiles?: Set<string>, cache?: UnitCache): Promise<LoadedClient> {
  const source = job.source;
  if ('manifest' in source) {
    const { model, warnings, schemaFiles } = await loadManifest(source.manifest, {
      allowOutside: job.allowOutsideRefs === true,
      ...(inputFiles ? { inputFiles } : {}),
      ...(cache ? { memo: cache.memo, recall: cache } : {}),
    });
    printWarnings(io, warnings);
    const inputs = [await fileInput('manifest', job.out, source.manifest)];
    for (const file of schemaFiles) inputs.push(await fileInput('schema', job.out, file));
    return { model, inputs };
  }
  // A live server or a snapshot of one: its code (and the runtime client it reads the server with)
  // is loaded only here, so a client generated from a manifest does not load it.
  return (await import('./client-live-source.js')).loadFromServer(job, io, inputFiles);
}


function recipeOptions(job: ClientJob): Recipe['options'] {
  const source = job.source;
  const options: Recipe['options'] = {};
  if ('manifest' in source) options['manifest'] = pathFromOut(job.out, source.manifest);
  else if ('fromSnapshot' in source) options['fromSnapshot'] = pathFromOut(job.out, source.fromSnapshot);
  else if ('fromUrl' in source) options['fromUrl'] = source.fromUrl;
  else options['fromCommand'] = source.fromCommand;
  if (job.allowOutsideRefs === true) options['allowOutsideRefs'] = true;
  if (job.auth === true) options['auth'] = true;
  if (job.package !== undefined) options['package'] = job.package.name;
  if (job.browser === true) options['browser'] = true;
  if (job.importExtension === 'ts') options['importExtension'] = 'ts';
  return options;
}

/** source → model → planned files, and the ledger record saying how they were made. */
export async function prepareClient(
  job: ClientJob,
  io: Console,
  /** Collects the files the model was read from (for --watch). */
  inputFiles?: Set<string>,
  /** The output folder's unit cache, for a run that writes. */
  cache?: UnitCache,
): Promise<{ files: PlannedFile[]; record: LedgerRecord }> {
  const { model, inputs, saved, unauthorized } = await loadClientModel(job, io, inputFiles, cache);
  // A server that asked for authorization gets a client that can sign in, as with --auth (not a
  // browser client: the OAuth module needs Node; a page passes a token, `connect({ url, auth })`).
  if (unauthorized === true && job.auth !== true && job.browser === true) {
    io.err('note: the server asked for authorization (401): a --browser client has no OAuth sign-in; pass a token with connect({ url, auth })');
  } else if (unauthorized === true && job.auth !== true) {
    job = { ...job, auth: true };
    io.err('note: the server asked for authorization (401): the client includes the OAuth sign-in, as with --auth (add oauth4webapi@3.8.8 to the app)');
  }
  const plan = await withProgress(io, `generating a client of ${model.tools.length} tools…`, () => planClient(model, {
    // A package is Node's client plus the browser's modules, swapped in by its `browser` field.
    runtimeSources: { ...readClientRuntimeSources(job.auth === true, job.browser === true), ...(job.package ? browserRuntimeSources(job.auth === true) : {}) },
    auth: job.auth === true,
    importExtension: job.importExtension ?? 'js',
    protocolTypes: readProtocolTypes(CLIENT_TYPES_REVISION),
    statelessProtocolTypes: readProtocolTypes(STATELESS_REVISION),
    ...(cache ? { memo: cache.memo, memoAsync: cache.memoAsync.bind(cache) } : {}),
  }));
  for (const warning of plan.warnings) io.err(`warning: ${warning}`);
  const clientFiles = await withImportExtension(plan.files, job.importExtension ?? 'js');
  const files = job.package ? await packageFiles(job.out, job.package, model, clientFiles, job.auth === true, io) : clientFiles;
  if (saved !== undefined) files.push({ path: SAVED_SNAPSHOT, content: saved, owner: 'generated', format: 'none' });
  const record: LedgerRecord = { mcpGenVersion: toolVersion(), recipe: { command: 'client', options: recipeOptions(job), banner: job.banner, inputs } };
  return { files, record };
}

/** The same, compared with the output folder and never written: what `mcp-gen check` runs. */
export async function checkClient(job: ClientJob, io: Console): Promise<{ report: WriteReport; record: LedgerRecord }> {
  const { files, record } = await prepareClient(job, io);
  const banner = commandBanner(job.banner.command, job.banner.version);
  return { report: await writeOutput(job.out, files, { banner, check: true, record, ownsFolder: true }), record };
}

export async function generateClient(
  manifest: string | undefined,
  options: Omit<ClientCommandOptions, 'versionBanner'> & { banner?: Recipe['banner']; versionBanner?: boolean },
  io: Console,
  /** Collects the files the model was read from (for --watch). */
  inputFiles?: Set<string>,
): Promise<number> {
  const source = clientSource(manifest, options as ClientCommandOptions);
  const job: ClientJob = {
    out: options.out,
    source,
    banner: options.banner ?? { command: bannerCommand(source), version: options.versionBanner !== false },
    ...(options.allowOutsideRefs ? { allowOutsideRefs: true } : {}),
    ...(options.auth ? { auth: true } : {}),
    ...(options.browser ? { browser: true } : {}),
    ...(options.importExtension === 'ts' ? { importExtension: 'ts' as const } : {}),
    ...(options.saveSnapshot !== undefined ? { saveSnapshot: options.saveSnapshot } : {}),
    ...packageJob(options),
  };
  const check = options.check === true;
  // Only a run that writes uses the cache: --check regenerates from nothing, as `mcp-gen check` does.
  const cache = check ? undefined : await readUnitCache(options.out, generatorFingerprint());
  // A warm run: the compilers load on a thread of their own meanwhile (compiler-standby.ts; the CLI
  // may have started it already, warm-start.ts). Not in a --watch (the one caller that collects
  // input files), whose later runs have them loaded already; not in a cold run, which compiles in batches.
  if (cache?.savedAtNs !== undefined && inputFiles === undefined) startCompilerStandby();
  else stopCompilerStandby();
  try {
    const { files, record } = await prepareClient(job, io, inputFiles, cache);
    const banner = commandBanner(job.banner.command, job.banner.version);
    const report = await writeOutput(options.out, files, { banner, check, force: false, record, ownsFolder: true, ...(cache ? { cache } : {}) });
    return printReport(io, displayPath(options.out), report, check);
  } finally {
    stopCompilerStandby();
  }
}

/** `--package` and `--package-version`, checked before anything is read or written (exit 2). */
function packageJob(options: Pick<ClientCommandOptions, 'package' | 'packageVersion'>): { package?: PackageJob } {
  if (options.package === undefined) {
    if (options.packageVersion !== undefined) throw inputProblem('--package-version', 'needs --package <name>');
    return {};
  }
  checkPackageName(options.package, builtinModules);
  if (options.packageVersion !== undefined) checkPackageVersion(options.packageVersion);
  return { package: { name: options.package, ...(options.packageVersion !== undefined ? { version: options.packageVersion } : {}) } };
}

export function runClient(manifest: string | undefined, options: ClientCommandOptions, io: Console): Promise<number> {
  if (options.importExtension === 'ts' && options.package !== undefined) {
    throw inputProblem('mcp-gen client', '--package builds its client to .js with tsc, which Deno, Bun and Node\'s type stripping run as it is: leave out --import-extension ts');
  }
  if (options.browser && options.package !== undefined) {
    throw inputProblem('mcp-gen client', '--package already serves browsers (its package.json sends bundlers for the web to the fetch-based modules): leave out --browser');
  }
  if (options.browser && options.auth) {
    throw inputProblem('mcp-gen client', '--browser and --auth do not go together: the OAuth sign-in needs Node (a loopback redirect, node:crypto); a browser client passes a token with connect({ url, auth })');
  }
  if (options.watch) {
    clientSource(manifest, options);
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
