/**
 * `mcp-gen types`, past the command line: a spec → protocol model → planned files (plan), the
 * output folder written or compared (generate, check), and the ledger record of how it was made.
 */
import { planProtocolBindings } from '../emit/protocol-bindings.js';
import { resolveSpec, type LoadedSpec } from '../load/spec.js';
import { buildProtocolModel } from '../model/protocol.js';
import type { LedgerRecord, Recipe } from '../write/ledger.js';
import type { PlannedFile } from '../write/planned-file.js';
import { writeOutput, type WriteReport } from '../write/writer.js';
import { printWarnings, type Console } from './console.js';
import { pathFromOut, specInput, specOption } from './ledger-inputs.js';
import { commandBanner, toolVersion } from './paths.js';

/** Everything a types run depends on; `spec` is a revision name, a schema file or folder, or an http(s) URL. */
export interface TypesJob {
  spec: string;
  out: string;
  docs: 'full' | 'link' | 'none';
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

/** The ledger's account of a types run. A spec named by revision or URL is hashed as loaded (its definitions). */
async function typesRecord(job: TypesJob, spec: LoadedSpec): Promise<LedgerRecord> {
  const options: Recipe['options'] = { spec: specOption(job.out, job.spec, spec), docs: job.docs };
  if (job.revision !== undefined) options['revision'] = job.revision;
  if (job.specDir !== undefined) options['specDir'] = pathFromOut(job.out, job.specDir);
  return { mcpGenVersion: toolVersion(), recipe: { command: 'types', options, banner: job.banner, inputs: [await specInput(job.out, job.spec, spec)] } };
}

/** spec → model → planned files, and the ledger record saying how they were made. */
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

/** spec → model → planned files → output folder (or, with `check`, compared with it). */
export async function writeTypes(spec: LoadedSpec, job: TypesJob, check: boolean, io: Console): Promise<WriteReport> {
  const { files, record } = await prepareTypes(spec, job, io);
  const banner = commandBanner(job.banner.command, job.banner.version);
  return writeOutput(job.out, files, { banner, check, record });
}
