/**
 * `mcp-gen client`, past the command line: a manifest, a live server or a snapshot → model →
 * planned files (plan), the output folder written or compared (generate, check), and the ledger
 * record of how it was made. The CLI, `mcp-gen check` and regenerate-self run a client through here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { planClient, SHARED_RUNTIME } from '../emit/client/index.js';
import { withImportExtension, type ImportExtension } from '../emit/import-extension.js';
import type { ServiceModel } from '../model/service-model.js';
import { STATELESS_REVISION } from '../model/service.js';
import type { LedgerRecord, Recipe, RecipeInput } from '../write/ledger.js';
import type { PlannedFile } from '../write/planned-file.js';
import type { UnitCache } from '../write/unit-cache.js';
import { writeOutput, type WriteReport } from '../write/writer.js';
import { browserRuntimeSources, packageFiles, type PackageJob } from './client-package.js';
import { clientProjectAdvice } from './client-project.js';
import { printWarnings, withProgress, type Console } from './console.js';
import { fileInput, pathFromOut, specInput } from './ledger-inputs.js';
import { recordForStamp, type StampRequest } from './noop-record.js';
import { loadManifest } from './manifest.js';
import { commandBanner, PACKAGE_ROOT, toolVersion } from './paths.js';
import { openUnitCaches, writeWithCaches } from './unit-caches.js';

/** The revision whose method map types `request()`: the newest stateful one, like the server runtime's. */
const CLIENT_TYPES_REVISION = '2025-11-25';

/**
 * Client runtime files that are copied under another file's name: `connect.ts` is Node's (stdio,
 * HTTP on node:http) or, with `browser`, connect-browser.ts (HTTP on fetch); `oauth-module.ts`
 * loads `auth/` with `auth`, or is oauth-module-absent.ts. Left out with `browser`: what reaches
 * `node:*` (stdio and its line reader, the node:http wire); without it: the fetch wire.
 */
const STAND_INS = ['client/connect-browser.ts', 'client/oauth-module-absent.ts'];
const NODE_ONLY = ['client/connect.ts', 'client/node-wire.ts', 'client/stdio.ts', 'client/stdio-lines.ts'];
const BROWSER_ONLY = ['client/fetch-wire.ts'];

/** The line that makes tsc load Node's types even under `"types": []` (`tsc --init`'s setting). */
const NODE_TYPES_REFERENCE = '/// <reference types="node" />\n';

/**
 * The client runtime as it ships with mcp-gen: `src/runtime/client/*.ts` and the shared modules;
 * `client/auth/*.ts` with `auth`. Without `nodeTypes` the modules name no types package: a browser
 * client needs none, and Deno (which an `--import-extension ts` client is for, as are Bun and Node's
 * type stripping) types `node:*` itself and refuses `types="node"` without a package.json.
 */
export function readClientRuntimeSources(auth = false, browser = false, nodeTypes = !browser): Record<string, string> {
  const runtimeDir = join(PACKAGE_ROOT, 'src', 'runtime');
  const read = (path: string): string => {
    const text = readFileSync(join(runtimeDir, path), 'utf8');
    return !nodeTypes && text.startsWith(NODE_TYPES_REFERENCE) ? text.slice(NODE_TYPES_REFERENCE.length) : text;
  };
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

/** The protocol types a client carries: mcp-gen's own, or with --spec, the slot the schema updates made from it. */
async function protocolTypesOf(job: ClientJob, io: Console, inputFiles?: Set<string>): Promise<{ stateful: string; stateless: string; inputs: RecipeInput[]; options: Recipe['options'] }> {
  const shipped = { stateful: readProtocolTypes(CLIENT_TYPES_REVISION), stateless: readProtocolTypes(STATELESS_REVISION), inputs: [], options: {} };
  if (job.spec === undefined) return shipped;
  // Loaded only with --spec: the comparison and the type compiler are not every run's.
  const { loadSpecUpdate, noUpdatedData, specRecipe, updatedProtocolTypes } = await import('./spec-update.js');
  const update = await loadSpecUpdate(job.spec, job.specDir, inputFiles);
  printWarnings(io, update.spec.warnings);
  if (update.slot === 'none') io.err(`note: ${noUpdatedData(update)}`);
  const types = await updatedProtocolTypes(update);
  return {
    stateful: update.slot === 'stateful' && types !== undefined ? types : shipped.stateful,
    stateless: update.slot === 'stateless' && types !== undefined ? types : shipped.stateless,
    inputs: [await specInput(job.out, job.spec, update.spec)],
    options: specRecipe(job.out, job.spec, job.specDir, update),
  };
}

/** Where a client (or a docs page) is generated from: exactly one of a manifest, a live server, or a saved snapshot. */
export type ClientSource =
  | { manifest: string }
  | { fromSnapshot: string }
  | { fromUrl: string; headers?: string[]; protocolVersions?: string[] }
  | { fromCommand: string; env?: string[]; protocolVersions?: string[] };

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
  /** `--spec`: a newer schema for a revision the client speaks; its protocol types are made from it (spec-update.ts). */
  spec?: string;
  specDir?: string;
  /** `--view <ui://…>`: the typed bindings of that MCP Apps view instead of a client (pipeline/view.ts). */
  view?: string;
}

/** A live server's answers, saved in the output so the client can be checked offline. */
export const SAVED_SNAPSHOT = '.mcp-gen-snapshot.json';

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
  // The revisions offered to the live server (--protocol-version), for `check --live`.
  if (('fromUrl' in source || 'fromCommand' in source) && source.protocolVersions !== undefined && source.protocolVersions.length > 0)
    options['protocolVersions'] = source.protocolVersions.join(',');
  if (job.allowOutsideRefs === true) options['allowOutsideRefs'] = true;
  if (job.auth === true) options['auth'] = true;
  if (job.package !== undefined) options['package'] = job.package.name;
  if (job.browser === true) options['browser'] = true;
  if (job.importExtension === 'ts') options['importExtension'] = 'ts';
  if (job.view !== undefined) options['view'] = job.view;
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
  const spec = await protocolTypesOf(job, io, inputFiles);
  inputs.push(...spec.inputs);
  if (job.view !== undefined) {
    const files = await (await import('./view.js')).viewFiles(model, job.view, job.importExtension ?? 'js', cache);
    // A live server's answers stay beside the bindings too, so `check` compares them offline.
    if (saved !== undefined) files.push({ path: SAVED_SNAPSHOT, content: saved, owner: 'generated', format: 'none' });
    return { files, record: { mcpGenVersion: toolVersion(), recipe: { command: 'client', options: recipeOptions(job), banner: job.banner, inputs } } };
  }
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
    runtimeSources: { ...readClientRuntimeSources(job.auth === true, job.browser === true, job.browser !== true && job.importExtension !== 'ts'), ...(job.package ? browserRuntimeSources(job.auth === true) : {}) },
    auth: job.auth === true,
    importExtension: job.importExtension ?? 'js',
    protocolTypes: spec.stateful,
    statelessProtocolTypes: spec.stateless,
    ...(cache ? { memo: cache.memo, memoAsync: cache.memoAsync.bind(cache) } : {}),
  }));
  for (const warning of plan.warnings) io.err(`warning: ${warning}`);
  const clientFiles = await withImportExtension(plan.files, job.importExtension ?? 'js');
  const files = job.package ? await packageFiles(job.out, job.package, model, clientFiles, job.auth === true, io) : clientFiles;
  if (saved !== undefined) files.push({ path: SAVED_SNAPSHOT, content: saved, owner: 'generated', format: 'none' });
  const record: LedgerRecord = { mcpGenVersion: toolVersion(), recipe: { command: 'client', options: { ...recipeOptions(job), ...spec.options }, banner: job.banner, inputs } };
  return { files, record };
}

/** The same, compared with the output folder and never written: what `mcp-gen check` runs. */
export async function checkClient(job: ClientJob, io: Console): Promise<{ report: WriteReport; record: LedgerRecord }> {
  const { files, record } = await prepareClient(job, io);
  const banner = commandBanner(job.banner.command, job.banner.version);
  return { report: await writeOutput(job.out, files, { banner, check: true, record, ownsFolder: true }), record };
}

/** How a run that writes (or, with `check`, compares) treats the output folder. */
export interface GenerateOptions {
  check?: boolean;
  /** Collects the files the model was read from (for --watch). */
  inputFiles?: Set<string>;
  /** Leave a no-op stamp in the folder's cache for the next run (noop-stamp.ts, cli/noop-client.ts). */
  stamp?: StampRequest;
  /** `--no-shared-cache`: the output folder's cache only, not the manifest's pack in the user cache folder (shared-pack.ts). */
  sharedCache?: boolean;
}

/** source → model → planned files → output folder. */
export async function writeClient(job: ClientJob, options: GenerateOptions, io: Console): Promise<WriteReport> {
  const check = options.check === true;
  // Only a run that writes uses the cache: --check regenerates from nothing, as `mcp-gen check` does.
  // No shared pack in a --watch (the one caller that collects input files): each edit would read
  // and rewrite the whole pack for the few steps that changed, all of them in this one folder.
  const manifest = 'manifest' in job.source && options.inputFiles === undefined ? job.source.manifest : undefined;
  const caches = check ? undefined : await openUnitCaches(job.out, manifest, options.sharedCache);
  const cache = caches?.cache;
  // A warm run starts no thread: the few units that missed compile in-process, and the compilers
  // load only when one does (a thread started on a guess cost more CPU than it saved).
  const recording = cache && options.stamp ? recordForStamp(io) : undefined;
  const { files, record } = await prepareClient(job, recording?.io ?? io, options.inputFiles ?? recording?.readFiles, cache);
  const banner = commandBanner(job.banner.command, job.banner.version);
  const stamp = recording && cache && options.stamp ? { beforeCacheSave: () => void (cache.noopStamp = recording.stamp(options.stamp!, files, [])) } : {};
  const report = await writeWithCaches(caches, io, () => writeOutput(job.out, files, { banner, check, force: false, record, ownsFolder: true, ...(cache ? { cache } : {}), ...stamp }));
  // What the project around the folder needs for the client to compile there (client-project.ts).
  if (!check) for (const line of await clientProjectAdvice(job)) io.err(line);
  return report;
}
