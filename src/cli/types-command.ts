import { planProtocolBindings } from '../emit/protocol-bindings.js';
import { resolveSpec } from '../load/spec.js';
import { buildProtocolModel } from '../model/protocol.js';
import { writeOutput, displayPath } from '../write/writer.js';
import { toolVersion } from './main.js';
import { printReport, printWarnings, type Console } from './output.js';

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

export async function runTypes(options: TypesOptions, io: Console): Promise<number> {
  const spec = await resolveSpec(options.spec, {
    ...(options.revision !== undefined ? { revision: options.revision } : {}),
    ...(options.specDir !== undefined ? { specDir: options.specDir } : {}),
    ...(options.cacheDir !== undefined ? { cacheDir: options.cacheDir } : {}),
  });
  printWarnings(io, spec.warnings);
  const model = buildProtocolModel(spec);
  const { files, warnings } = await planProtocolBindings(model, { docs: options.docs });
  for (const warning of warnings) io.err(`warning: ${warning}`);
  const report = await writeOutput(options.out, files, {
    banner: {
      ...(options.versionBanner ? { version: toolVersion() } : {}),
      command: `mcp-gen types --spec ${model.revision} --docs ${options.docs}`,
    },
    check: options.check === true,
  });
  return printReport(io, displayPath(options.out), report, options.check === true);
}
