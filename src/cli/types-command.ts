import { resolve } from 'node:path';
import { planProtocolBindings } from '../emit/protocol-bindings.js';
import { isKnownRevision, resolveSpec, type LoadedSpec } from '../load/spec.js';
import { buildProtocolModel } from '../model/protocol.js';
import type { BannerOptions } from '../write/render.js';
import { writeOutput } from '../write/writer.js';
import { printReport, printWarnings, type Console } from './output.js';
import { commandBanner, displayPath } from './paths.js';
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

/** spec → model → planned files → output folder. Shared by `mcp-gen types` and regenerate-self. */
export async function generateTypes(
  spec: LoadedSpec,
  options: Pick<TypesOptions, 'out' | 'docs' | 'check'> & { banner: BannerOptions },
  io: Console,
): Promise<number> {
  printWarnings(io, spec.warnings);
  const { files, warnings } = await planProtocolBindings(buildProtocolModel(spec), {
    docs: options.docs,
  });
  for (const warning of warnings) io.err(`warning: ${warning}`);
  const check = options.check === true;
  const report = await writeOutput(options.out, files, { banner: options.banner, check });
  return printReport(io, displayPath(options.out), report, check);
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
  const spec = await resolveSpec(options.spec, {
    ...(options.revision !== undefined ? { revision: options.revision } : {}),
    ...(options.specDir !== undefined ? { specDir: options.specDir } : {}),
    ...(options.cacheDir !== undefined ? { cacheDir: options.cacheDir } : {}),
  });
  const banner = commandBanner(
    `mcp-gen types --spec ${spec.revision} --docs ${options.docs}`,
    options.versionBanner,
  );
  return generateTypes(spec, { ...options, banner }, io);
}
