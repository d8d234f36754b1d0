import { resolve } from 'node:path';
import { fileInput, pathFromOut, sha256 } from '../check/inputs.js';
import { planProtocolBindings } from '../emit/protocol-bindings.js';
import { isKnownRevision, resolveSpec, type LoadedSpec } from '../load/spec.js';
import { buildProtocolModel } from '../model/protocol.js';
import type { LedgerRecord, Recipe, RecipeInput } from '../write/ledger.js';
import type { PlannedFile } from '../write/planned-file.js';
import { writeOutput, type WriteReport } from '../write/writer.js';
import { printReport, printWarnings, type Console } from './output.js';
import { commandBanner, displayPath, toolVersion } from './paths.js';
import { watchAndRegenerate, watchClash } from './watch.js';

export interface TypesOptions {
  spec: string;
  out: string;
  docs: 'full' | 'link' | 'none';
  revision?: string;
  specDir?: string;
  cacheDir?: string;
  check?: boolean;
  watch?: boolean;
  versionBanner: boolean;
}

/** Everything a types run depends on; `spec` is a revision name, a schema path or an http(s) URL. */
export interface TypesJob {
  spec: string;
  out: string;
  docs: TypesOptions['docs'];
  revision?: string;
  specDir?: string;
  cacheDir?: string;
  banner: Recipe['banner'];
}

export function loadTypesSpec(job: Pick<TypesJob, 'spec' | 'revision' | 'specDir' | 'cacheDir'>): Promise<LoadedSpec> {
  return resolveSpec(job.spec, {
    ...(job.revision !== undefined ? { revision: job.revision } : {}),
    ...(job.specDir !== undefined ? { specDir: job.specDir } : {}),
    ...(job.cacheDir !== undefined ? { cacheDir: job.cacheDir } : {}),
  });
}

const isUrl = (spec: string): boolean => /^https?:\/\//i.test(spec);

/** The ledger's account of a types run. A spec named by revision or URL is hashed as loaded (its definitions). */
async function typesRecord(job: TypesJob, spec: LoadedSpec): Promise<LedgerRecord> {
  const named = isKnownRevision(job.spec) || isUrl(job.spec);
  const options: Recipe['options'] = { spec: named ? job.spec : pathFromOut(job.out, job.spec), docs: job.docs };
  if (job.revision !== undefined) options['revision'] = job.revision;
  if (job.specDir !== undefined) options['specDir'] = pathFromOut(job.out, job.specDir);
  const defsHash = sha256(JSON.stringify(spec.defs));
  let input: RecipeInput;
  if (isKnownRevision(job.spec)) input = { role: 'spec', revision: job.spec, sha256: defsHash };
  else if (isUrl(job.spec)) input = { role: 'spec', url: job.spec, sha256: defsHash };
  else input = await fileInput('spec', job.out, job.spec);
  return { mcpGenVersion: toolVersion(), recipe: { command: 'types', options, banner: job.banner, inputs: [input] } };
}

async function prepareTypes(spec: LoadedSpec, job: TypesJob, io: Console): Promise<{ files: PlannedFile[]; record: LedgerRecord }> {
  printWarnings(io, spec.warnings);
  const { files, warnings } = await planProtocolBindings(buildProtocolModel(spec), { docs: job.docs });
  for (const warning of warnings) io.err(`warning: ${warning}`);
  return { files, record: await typesRecord(job, spec) };
}

/** The output compared with the folder and never written: what `mcp-gen check` runs. */
export async function checkTypes(job: TypesJob, io: Console): Promise<{ report: WriteReport; record: LedgerRecord }> {
  const { files, record } = await prepareTypes(await loadTypesSpec(job), job, io);
  const banner = commandBanner(job.banner.command, job.banner.version);
  return { report: await writeOutput(job.out, files, { banner, check: true, record }), record };
}

/** spec → model → planned files → output folder. Shared by `mcp-gen types` and regenerate-self. */
export async function generateTypes(spec: LoadedSpec, job: TypesJob & { check?: boolean }, io: Console): Promise<number> {
  const { files, record } = await prepareTypes(spec, job, io);
  const check = job.check === true;
  const banner = commandBanner(job.banner.command, job.banner.version);
  const report = await writeOutput(job.out, files, { banner, check, record });
  return printReport(io, displayPath(job.out), report, check);
}

export async function runTypes(options: TypesOptions, io: Console): Promise<number> {
  if (options.watch) {
    // Revision names resolve to files shipped or cached, which do not change: only a path is worth watching.
    if (isKnownRevision(options.spec) || /^https?:\/\//i.test(options.spec)) {
      throw watchClash('mcp-gen types', `--spec ${options.spec}`, 'give --spec the path of a schema.json to watch');
    }
    if (options.check) throw watchClash('mcp-gen types', '--check');
    const file = resolve(options.spec);
    return watchAndRegenerate((runIo, inputs) => {
      inputs.add(file);
      return generateTypesFromOptions(options, runIo);
    }, io);
  }
  return generateTypesFromOptions(options, io);
}

async function generateTypesFromOptions(options: TypesOptions, io: Console): Promise<number> {
  const spec = await loadTypesSpec(options);
  const banner = { command: `mcp-gen types --spec ${spec.revision} --docs ${options.docs}`, version: options.versionBanner };
  const { versionBanner: _unused, watch: _watch, ...rest } = options;
  return generateTypes(spec, { ...rest, banner }, io);
}
