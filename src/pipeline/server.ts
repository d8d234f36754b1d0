/**
 * `mcp-gen server`, past the command line: manifest → model → planned files (plan), the output
 * folder written or compared (generate, check), and the ledger record of how it was made. The CLI,
 * `mcp-gen check` and regenerate-self all run a server through here.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { withImportExtension, type ImportExtension } from '../emit/import-extension.js';
import { planServer } from '../emit/server/index.js';
import { VALIDATOR_IMPORTS, type ValidatorLayout } from '../emit/validators/module-layout.js';
import type { HostOptions } from '../emit/server/host-files.js';
import type { ServiceModel } from '../model/service-model.js';
import type { LedgerRecord, Recipe } from '../write/ledger.js';
import type { PlannedFile } from '../write/planned-file.js';
import type { UnitCache } from '../write/unit-cache.js';
import { writeOutput, type WriteReport } from '../write/writer.js';
import { printWarnings, withProgress, type Console } from './console.js';
import { openApiInput } from './import-ledger.js';
import { fileInput, pathFromOut, specInput } from './ledger-inputs.js';
import { loadManifest } from './manifest.js';
import { recordForStamp, type StampRequest } from './noop-record.js';
import { commandBanner, PACKAGE_ROOT, toolVersion } from './paths.js';
import { openUnitCaches, writeWithCaches } from './unit-caches.js';

/**
 * The runtime copied into every server: every `.ts` under `src/runtime/`
 * (folders kept, `client/` left out) and
 * its README as they ship with mcp-gen, plus the envelope validators mcp-gen generated for it
 * (`generated/runtime/`). `auth/` is among them; the emitter copies it only for a manifest with `auth`.
 */
export function readRuntimeSources(): Record<string, string> {
  const sources: Record<string, string> = {};
  const runtimeDir = join(PACKAGE_ROOT, 'src', 'runtime');
  const paths = (readdirSync(runtimeDir, { recursive: true, encoding: 'utf8' }) as string[]).map((path) => path.split('\\').join('/'));
  for (const path of paths.sort()) {
    if (path.startsWith('client/')) continue;
    if (path.endsWith('.ts') || path === 'README.md') sources[path] = readFileSync(join(runtimeDir, path), 'utf8');
  }
  const validatorsDir = join(PACKAGE_ROOT, 'generated', 'runtime');
  for (const name of readdirSync(validatorsDir).sort()) {
    if (/\.(?:js|d\.ts)$/.test(name)) sources[name] = readFileSync(join(validatorsDir, name), 'utf8');
  }
  return sources;
}

/** What a server run needs besides the manifest: the recorded banner and the options that shape the output. */
export interface ServerJob {
  manifest: string;
  out: string;
  allowOutsideRefs?: boolean;
  importExtension?: ImportExtension;
  /** `--otel`: tracing on in main.ts, @opentelemetry/api in package.json (docs/tracing.md). */
  otel?: boolean;
  /** `--target web`: main.web.ts beside main.ts. */
  target?: ServerTarget;
  /** `--mcpb`, `--registry-name`, `--registry-remote`, `--dockerfile`. */
  hosts?: HostOptions;
  /** `--spec`: a newer schema for a revision the runtime speaks; its envelope validators are compiled from it (spec-update.ts). */
  spec?: string;
  specDir?: string;
  banner: Recipe['banner'];
}

import type { ServerTarget } from '../emit/server/index.js';

export type { ServerTarget };

/** The manifest's model; its warnings are printed, its `$ref` files returned for the ledger. */
export async function loadServerModel(
  job: Pick<ServerJob, 'manifest' | 'allowOutsideRefs'>,
  io: Console,
  inputFiles?: Set<string>,
  cache?: UnitCache,
): Promise<{ model: ServiceModel; schemaFiles: string[] }> {
  const { model, warnings, schemaFiles } = await loadManifest(job.manifest, {
    allowOutside: job.allowOutsideRefs === true,
    ...(inputFiles ? { inputFiles } : {}),
    ...(cache ? { memo: cache.memo, recall: cache } : {}),
  });
  printWarnings(io, warnings);
  return { model, schemaFiles };
}

/** manifest → model → planned files, and the ledger record saying how they were made. */
async function prepareServer(
  job: ServerJob,
  io: Console,
  /** Collects the files the manifest loader read or tried to, even when it fails (for --watch). */
  inputFiles?: Set<string>,
  /** The output folder's unit cache, for a run that writes. */
  cache?: UnitCache,
  /** Collects the inputs this run itself creates (a package.json), for the no-op stamp. */
  createdInputs?: Set<string>,
): Promise<{ files: PlannedFile[]; record: LedgerRecord; notes: string[] }> {
  const { model, schemaFiles } = await loadServerModel(job, io, inputFiles, cache);
  // Loaded only with --spec: the comparison and the compilers it needs are not every run's.
  const specUpdate = job.spec === undefined ? undefined : await import('./spec-update.js');
  const update = specUpdate ? await specUpdate.loadSpecUpdate(job.spec!, job.specDir, inputFiles) : undefined;
  if (update) printWarnings(io, update.spec.warnings);
  const runtimeSources = { ...readRuntimeSources(), ...(update ? await specUpdate!.updatedValidatorSources(update) : {}) };
  const extension = job.importExtension ?? 'js';
  const layout = validatorLayout(job.out, inputFiles, createdInputs);
  const plan = await withProgress(io, `generating a server of ${model.tools.length} tools…`, () =>
    planServer(model, { runtimeSources, importExtension: extension, validatorLayout: layout.layout, ...(job.target === 'web' ? { target: 'web' } : {}), ...(job.otel === true ? { otel: true } : {}), ...(job.hosts ? { hosts: job.hosts } : {}), ...(cache ? { memo: cache.memo, memoAsync: cache.memoAsync.bind(cache), share: cache } : {}) }),
  );
  for (const warning of plan.warnings) io.err(`warning: ${warning}`);
  const inputs = [await fileInput('manifest', job.out, job.manifest)];
  for (const file of schemaFiles) inputs.push(await fileInput('schema', job.out, file));
  const openapi = await openApiInput(job.out, job.manifest);
  if (openapi.input) inputs.push(openapi.input);
  if (openapi.drift) io.err(`warning: ${openapi.drift}`);
  const options: Recipe['options'] = { manifest: pathFromOut(job.out, job.manifest) };
  if (update) {
    inputs.push(await specInput(job.out, job.spec!, update.spec));
    Object.assign(options, specUpdate!.specRecipe(job.out, job.spec!, job.specDir, update));
  }
  if (job.allowOutsideRefs === true) options['allowOutsideRefs'] = true;
  if (extension !== 'js') options['importExtension'] = extension;
  if (job.otel === true) options['otel'] = true;
  if (job.target === 'web') options['target'] = 'web';
  Object.assign(options, hostRecipe(job.hosts));
  const record: LedgerRecord = { mcpGenVersion: toolVersion(), recipe: { command: 'server', options, banner: job.banner, inputs } };
  const notes = [...plan.notes, ...(update?.slot === 'none' ? [specUpdate!.noUpdatedData(update)] : []), ...(layout.note !== undefined && model.tools.length >= LAYOUT_NOTE_TOOLS ? [layout.note] : [])];
  return { files: await withImportExtension(plan.files, extension), record, notes };
}

/**
 * The tools' validators as JavaScript when the project's package.json maps them (module-layout.ts),
 * or will: a package.json this run creates has the entry when the folder is a project of its own,
 * not inside another package (there, the app's tsconfig may build it to the app's outDir, whose
 * package scope is the app's: TypeScript validators go wherever tsc puts them). A project without
 * the entry keeps TypeScript validators; with many tools, a note says how to switch. package.json
 * is an input of the run.
 */
function validatorLayout(out: string, inputFiles: Set<string> | undefined, createdInputs: Set<string> | undefined): { layout: ValidatorLayout; note?: string } {
  const path = join(out, 'package.json');
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    // This run writes it (project-files.ts), with the entry when the folder is its own package.
    createdInputs?.add(path);
    return { layout: insidePackage(out) ? 'ts' : 'js' };
  }
  inputFiles?.add(path);
  let imports: unknown;
  try {
    imports = (JSON.parse(text) as { imports?: unknown }).imports;
  } catch {
    imports = undefined;
  }
  if (typeof imports === 'object' && imports !== null && (imports as Record<string, unknown>)[VALIDATOR_IMPORTS.key] === VALIDATOR_IMPORTS.target) return { layout: 'js' };
  const entry = `"imports": { ${JSON.stringify(VALIDATOR_IMPORTS.key)}: ${JSON.stringify(VALIDATOR_IMPORTS.target)} }`;
  return { layout: 'ts', note: `the tools' validators are TypeScript, which tsc compiles again on every clean build. If this project builds itself (its own \`npm run build\`), add ${entry} to its package.json: they are then written as JavaScript beside their declarations, which tsc does not rebuild (docs/architecture.md#validators-as-javascript).` };
}

/** Whether a package.json lies in a folder above `out`. */
function insidePackage(out: string): boolean {
  for (let dir = dirname(resolve(out)); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return true;
    if (dirname(dir) === dir) return false;
  }
}

/** From this many tools on, a project with TypeScript validators hears how to switch (below it, tsc's cost is small). */
const LAYOUT_NOTE_TOOLS = 100;

/** The host options as the ledger records them (only those given), so `check` makes the same files. */
export function hostRecipe(hosts: HostOptions | undefined): Recipe['options'] {
  const options: Recipe['options'] = {};
  if (hosts?.mcpb === true) options['mcpb'] = true;
  if (hosts?.registryName !== undefined) options['registryName'] = hosts.registryName;
  if (hosts?.registryRemote !== undefined) options['registryRemote'] = hosts.registryRemote;
  if (hosts?.dockerfile === true) options['dockerfile'] = true;
  return options;
}

/** The host options a ledger recorded (hostRecipe's inverse). */
export function hostsFromRecipe(options: Recipe['options']): HostOptions | undefined {
  const hosts: HostOptions = {};
  if (options['mcpb'] === true) hosts.mcpb = true;
  if (typeof options['registryName'] === 'string') hosts.registryName = options['registryName'];
  if (typeof options['registryRemote'] === 'string') hosts.registryRemote = options['registryRemote'];
  if (options['dockerfile'] === true) hosts.dockerfile = true;
  return Object.keys(hosts).length === 0 ? undefined : hosts;
}

/** The same, compared with the output folder and never written: what `mcp-gen check` runs. */
export async function checkServer(job: ServerJob, io: Console): Promise<{ report: WriteReport; record: LedgerRecord }> {
  const { files, record } = await prepareServer(job, io);
  const banner = commandBanner(job.banner.command, job.banner.version);
  return { report: await writeOutput(job.out, files, { banner, check: true, record }), record };
}

/** How a run that writes (or, with `check`, compares) treats the output folder. */
export interface GenerateOptions {
  check?: boolean;
  /** Overwrite user-owned files with fresh skeletons. */
  force?: boolean;
  /** Collects the files the manifest loader read (for --watch). */
  inputFiles?: Set<string>;
  /** Leave a no-op stamp in the folder's cache for the next run (noop-stamp.ts). */
  stamp?: StampRequest;
  /** `--no-shared-cache`: the output folder's cache only, not the manifest's pack in the user cache folder (shared-pack.ts). */
  sharedCache?: boolean;
}

/** manifest → model → planned files → output folder; the notes are for the user, after the report. */
export async function writeServer(job: ServerJob, options: GenerateOptions, io: Console): Promise<{ report: WriteReport; notes: string[] }> {
  const check = options.check === true;
  // Only a run that writes uses the cache: --check regenerates from nothing, as `mcp-gen check` does.
  // No shared pack in a --watch (the one caller that collects input files): each edit would read
  // and rewrite the whole pack for the few steps that changed, all of them in this one folder.
  const caches = check ? undefined : await openUnitCaches(job.out, options.inputFiles === undefined ? job.manifest : undefined, options.sharedCache);
  const cache = caches?.cache;
  // A warm run starts no thread: the few units that missed compile in-process, and the compilers
  // load only when one does (a thread started on a guess cost more CPU than it saved).
  const recording = cache && options.stamp ? recordForStamp(io) : undefined;
  const { files, record, notes } = await prepareServer(job, recording?.io ?? io, options.inputFiles ?? recording?.readFiles, cache, recording?.createdInputs);
  const banner = commandBanner(job.banner.command, job.banner.version);
  const stamp = recording && cache && options.stamp ? { beforeCacheSave: () => void (cache.noopStamp = recording.stamp(options.stamp!, files, notes)) } : {};
  const report = await writeWithCaches(caches, io, () => writeOutput(job.out, files, { banner, check, force: options.force === true, record, ...(cache ? { cache } : {}), ...stamp }));
  return { report, notes };
}
