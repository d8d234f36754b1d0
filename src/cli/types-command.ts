import { planProtocolBindings } from '../emit/protocol-bindings.js';
import { resolveSpec, type LoadedSpec } from '../load/spec.js';
import { buildProtocolModel } from '../model/protocol.js';
import type { BannerOptions } from '../write/render.js';
import { writeOutput } from '../write/writer.js';
import { printReport, printWarnings, type Console } from './output.js';
import { commandBanner, displayPath } from './paths.js';

export interface TypesOptions {
  spec: string;
  out: string;
  docs: 'full' | 'link' | 'none';
  revision?: string;
  specDir?: string;
  cacheDir?: string;
  check?: boolean;
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
