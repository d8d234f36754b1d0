import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isRevisionName, type LoadedSpec } from '../load/spec.js';
import { displayPath } from '../pipeline/paths.js';
import { loadTypesSpec, writeTypes, type TypesJob } from '../pipeline/types.js';
import { printReport, type Console } from './output.js';
import { watchAndRegenerate, watchClash } from './watch.js';

export interface TypesOptions {
  spec: string;
  out: string;
  docs: TypesJob['docs'];
  revision?: string;
  specDir?: string;
  cacheDir?: string;
  check?: boolean;
  watch?: boolean;
  versionBanner: boolean;
}

/** One run of `mcp-gen types` (and of regenerate-self's bindings): generates, then prints the report. */
export async function generateTypes(spec: LoadedSpec, job: TypesJob & { check?: boolean }, io: Console): Promise<number> {
  const check = job.check === true;
  const { check: _check, ...rest } = job;
  return printReport(io, displayPath(job.out), await writeTypes(spec, rest, check, io), check);
}

export async function runTypes(options: TypesOptions, io: Console): Promise<number> {
  if (options.watch) {
    // Revision names resolve to files shipped or cached, which do not change: only a path is worth watching.
    if (isRevisionName(options.spec) || /^https?:\/\//i.test(options.spec)) {
      throw watchClash('mcp-gen types', `--spec ${options.spec}`, 'give --spec the path of a schema.json to watch');
    }
    if (options.check) throw watchClash('mcp-gen types', '--check');
    // A folder's schema is its schema.json.
    const given = resolve(options.spec);
    const file = existsSync(given) && statSync(given).isDirectory() ? join(given, 'schema.json') : given;
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
