import { builtinModules } from 'node:module';
import { resolve } from 'node:path';
import type { ImportExtension } from '../emit/import-extension.js';
import { inputProblem } from '../load/diagnostics.js';
// The generator and the package checks load only for a run the no-op stamp does not answer (noop-client.ts).
import type { ClientJob, ClientSource } from '../pipeline/client.js';
import type { PackageJob } from '../pipeline/client-package.js';
import { displayPath } from '../pipeline/paths.js';
import type { Recipe } from '../write/ledger.js';
import { printReport, type Console } from './output.js';
import { watchAndRegenerate, watchClash } from './watch.js';

export interface ClientCommandOptions {
  out: string;
  fromUrl?: string;
  header?: string[];
  fromCommand?: string;
  env?: string[];
  fromSnapshot?: string;
  saveSnapshot?: string;
  /** `--protocol-version`: the revisions offered to a live server (default: all the runtime speaks). */
  protocolVersion?: string[];
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
  /** `--view <ui://…>`: the typed bindings of that MCP Apps view, not a client. */
  view?: string;
  check?: boolean;
  watch?: boolean;
  /** false with `--no-shared-cache`: no shared unit pack in the user cache folder. */
  sharedCache?: boolean;
  /** `--spec`, `--spec-dir`: a newer schema for a revision the client speaks (pipeline/spec-update.ts). */
  spec?: string;
  specDir?: string;
  versionBanner: boolean;
}

function clientSource(manifest: string | undefined, options: ClientCommandOptions): ClientSource {
  const given = [manifest, options.fromUrl, options.fromCommand, options.fromSnapshot].filter((s) => s !== undefined);
  if (given.length !== 1) {
    throw inputProblem('mcp-gen client', 'give exactly one of: a manifest, --from-url, --from-command, --from-snapshot');
  }
  // Checked against the revisions the client speaks where the live server is read
  // (client-live-source.ts): this module does not load the runtime client.
  const versions = options.protocolVersion ?? [];
  if (versions.length > 0 && options.fromUrl === undefined && options.fromCommand === undefined) {
    throw inputProblem('--protocol-version', 'needs --from-url or --from-command (a manifest or a snapshot is read without talking to a server)');
  }
  const offered = versions.length === 0 ? {} : { protocolVersions: versions };
  if (manifest !== undefined) return { manifest };
  if (options.fromUrl !== undefined) return { fromUrl: options.fromUrl, ...(options.header ? { headers: options.header } : {}), ...offered };
  if (options.fromCommand !== undefined) return { fromCommand: options.fromCommand, ...(options.env ? { env: options.env } : {}), ...offered };
  return { fromSnapshot: options.fromSnapshot as string };
}

/** `--view` writes a page's bindings: the options that shape a client mean nothing there. */
function viewUri(options: Pick<ClientCommandOptions, 'view' | 'package' | 'auth' | 'browser'>): string {
  const clash = (['package', 'auth', 'browser'] as const).find((key) => options[key] !== undefined && options[key] !== false);
  if (clash !== undefined) throw inputProblem('mcp-gen client', `--view cannot be combined with --${clash}`, 'a view is a web page: it reaches the server through its host');
  return options.view as string;
}

/** The banner (and the model's source) a command line gives, relative to the working directory. */
function bannerCommand(source: ClientSource, view?: string): string {
  return view === undefined ? sourceCommand(source) : `${sourceCommand(source)} --view ${view}`;
}

function sourceCommand(source: ClientSource): string {
  if ('manifest' in source) return `mcp-gen client ${displayPath(resolve(source.manifest))}`;
  if ('fromSnapshot' in source) return `mcp-gen client --from-snapshot ${displayPath(resolve(source.fromSnapshot))}`;
  // A live source's banner names the command without the snapshot file, so bytes depend on the server alone.
  if ('fromUrl' in source) return `mcp-gen client --from-url ${source.fromUrl}`;
  return `mcp-gen client --from-command ${source.fromCommand}`;
}

/** One run of `mcp-gen client` (and of regenerate-self's clients): generates, then prints the report. */
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
    banner: options.banner ?? { command: bannerCommand(source, options.view), version: options.versionBanner !== false },
    ...(options.allowOutsideRefs ? { allowOutsideRefs: true } : {}),
    ...(options.auth ? { auth: true } : {}),
    ...(options.browser ? { browser: true } : {}),
    ...(options.importExtension === 'ts' ? { importExtension: 'ts' as const } : {}),
    ...(options.saveSnapshot !== undefined ? { saveSnapshot: options.saveSnapshot } : {}),
    ...(options.spec !== undefined ? { spec: options.spec } : {}),
    ...(options.specDir !== undefined ? { specDir: options.specDir } : {}),
    ...(options.view !== undefined ? { view: viewUri(options) } : {}),
    ...(await packageJob(options)),
  };
  const check = options.check === true;
  // Nothing changed since the last run (not in a --watch, which keeps its own state): answered from the stamp.
  const noop = inputFiles === undefined ? await (await import('./noop-client.js')).noopClient(job, check, io) : {};
  if ('code' in noop) return noop.code;
  const { writeClient } = await import('../pipeline/client.js');
  const stamp = noop.request === undefined ? {} : { stamp: noop.request };
  const report = await writeClient(job, { check, ...(inputFiles ? { inputFiles } : {}), ...(options.sharedCache === false ? { sharedCache: false } : {}), ...stamp }, io);
  return printReport(io, displayPath(options.out), report, check);
}

/** `--package` and `--package-version`, checked before anything is read or written (exit 2). */
async function packageJob(options: Pick<ClientCommandOptions, 'package' | 'packageVersion'>): Promise<{ package?: PackageJob }> {
  if (options.package === undefined) {
    if (options.packageVersion !== undefined) throw inputProblem('--package-version', 'needs --package <name>');
    return {};
  }
  const { checkPackageName, checkPackageVersion } = await import('../pipeline/client-package.js');
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
