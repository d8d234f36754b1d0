import { checkClient, type ClientJob } from '../pipeline/client.js';
import type { Console } from '../pipeline/console.js';
import { checkDocs, type DocsJob } from '../pipeline/docs.js';
import { pathInOut } from '../pipeline/ledger-inputs.js';
import { checkRuntimeValidators } from '../pipeline/runtime-validators.js';
import { checkServer, hostsFromRecipe, type ServerJob } from '../pipeline/server.js';
import { checkTypes, type TypesJob } from '../pipeline/types.js';
import type { Recipe } from '../write/ledger.js';
import type { WriteReport } from '../write/writer.js';

/** One output folder to check, with everything needed to make it again (absolute paths). */
export type Target =
  | { command: 'server'; job: ServerJob }
  | { command: 'client'; job: ClientJob }
  | { command: 'docs'; job: DocsJob }
  | { command: 'types'; job: TypesJob }
  | { command: 'runtime-validators'; job: { out: string; banner: Recipe['banner'] } };

const text = (options: Recipe['options'], key: string): string | undefined => {
  const value = options[key];
  return typeof value === 'string' ? value : undefined;
};

/** The target a ledger's recipe describes; paths in it are relative to the output folder. */
export function targetFromRecipe(out: string, recipe: Recipe): Target {
  const o = recipe.options;
  const banner = recipe.banner;
  // `--spec` as recorded: a revision name or URL as given (its input has no path), a schema path relative to the output.
  const recordedSpec = text(o, 'spec');
  const specNamed = recipe.inputs.some((i) => i.role === 'spec' && i.path === undefined);
  const specDir = text(o, 'specDir');
  const specJob = {
    ...(recordedSpec !== undefined ? { spec: specNamed ? recordedSpec : pathInOut(out, recordedSpec) } : {}),
    ...(specDir !== undefined ? { specDir: pathInOut(out, specDir) } : {}),
  };
  const allow = { ...(o['allowOutsideRefs'] === true ? { allowOutsideRefs: true } : {}), ...(o['importExtension'] === 'ts' ? { importExtension: 'ts' as const } : {}) };
  if (recipe.command === 'server') {
    const web = o['target'] === 'web' ? { target: 'web' as const } : {};
    const hosts = hostsFromRecipe(o);
    return { command: 'server', job: { manifest: pathInOut(out, text(o, 'manifest') ?? ''), out, banner, ...allow, ...web, ...(o['otel'] === true ? { otel: true } : {}), ...(hosts ? { hosts } : {}), ...specJob } };
  }
  if (recipe.command === 'client' || recipe.command === 'docs') {
    const manifest = text(o, 'manifest');
    const snapshot = text(o, 'fromSnapshot');
    const url = text(o, 'fromUrl');
    const versions = text(o, 'protocolVersions');
    const offered = versions !== undefined ? { protocolVersions: versions.split(',') } : {};
    const source: ClientJob['source'] =
      manifest !== undefined ? { manifest: pathInOut(out, manifest) }
      : snapshot !== undefined ? { fromSnapshot: pathInOut(out, snapshot) }
      : url !== undefined ? { fromUrl: url, ...offered }
      : { fromCommand: text(o, 'fromCommand') ?? '', ...offered };
    const flags = {
      ...(o['auth'] === true ? { auth: true } : {}),
      ...(o['browser'] === true ? { browser: true } : {}),
      ...(text(o, 'package') !== undefined ? { package: { name: text(o, 'package') as string } } : {}),
      // `client --view`: the folder holds a view's bindings, not a client.
      ...(recipe.command === 'client' && text(o, 'view') !== undefined ? { view: text(o, 'view') as string } : {}),
    };
    return { command: recipe.command, job: { out, source, banner, ...allow, ...flags, ...(recipe.command === 'client' ? specJob : {}) } };
  }
  if (recipe.command === 'runtime-validators') return { command: 'runtime-validators', job: { out, banner } };
  const revision = text(o, 'revision');
  const docs = (text(o, 'docs') ?? 'full') as TypesJob['docs'];
  return {
    command: 'types',
    job: {
      spec: specJob.spec ?? '',
      out,
      docs,
      banner,
      ...(revision !== undefined ? { revision } : {}),
      ...(specJob.specDir !== undefined ? { specDir: specJob.specDir } : {}),
    },
  };
}

/** True when regenerating the target would talk to a server or the network. */
export function needsNetwork(target: Target): boolean {
  const specUrl = 'spec' in target.job && /^https?:\/\//i.test(target.job.spec ?? '');
  if (target.command === 'client' || target.command === 'docs') return specUrl || (!('manifest' in target.job.source) && !('fromSnapshot' in target.job.source));
  return specUrl;
}

/** Regenerates the target in memory and compares it with its folder; writes nothing. */
export async function checkTarget(target: Target, live: boolean, io: Console): Promise<{ report: WriteReport; recipe: Recipe }> {
  if (target.command === 'server') return unwrap(await checkServer(target.job, io));
  if (target.command === 'client') return unwrap(await checkClient({ ...target.job, offline: !live }, io));
  if (target.command === 'docs') return unwrap(await checkDocs(target.job, io));
  if (target.command === 'types') return unwrap(await checkTypes(target.job, io));
  return unwrap(await checkRuntimeValidators(target.job.out));
}

function unwrap(result: { report: WriteReport; record: { recipe: Recipe } }): { report: WriteReport; recipe: Recipe } {
  return { report: result.report, recipe: result.record.recipe };
}
