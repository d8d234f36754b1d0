/** `mcp-gen docs <manifest> | --from-snapshot | --from-url | --from-command -o dir`: the arguments, then src/pipeline/docs.ts. */
import { resolve } from 'node:path';
import { inputProblem } from '../load/diagnostics.js';
import type { ClientSource } from '../pipeline/client.js';
import { writeDocs, type DocsJob } from '../pipeline/docs.js';
import { displayPath } from '../pipeline/paths.js';
import { printReport, type Console } from './output.js';

export interface DocsCommandOptions {
  out: string;
  fromUrl?: string;
  header?: string[];
  fromCommand?: string;
  env?: string[];
  fromSnapshot?: string;
  allowOutsideRefs?: boolean;
  check?: boolean;
  versionBanner: boolean;
}

export async function runDocs(manifest: string | undefined, options: DocsCommandOptions, io: Console): Promise<number> {
  const given = [manifest, options.fromUrl, options.fromCommand, options.fromSnapshot].filter((s) => s !== undefined);
  if (given.length !== 1) throw inputProblem('mcp-gen docs', 'give exactly one of: a manifest, --from-url, --from-command, --from-snapshot');
  const source: ClientSource =
    manifest !== undefined ? { manifest }
    : options.fromSnapshot !== undefined ? { fromSnapshot: options.fromSnapshot }
    : options.fromUrl !== undefined ? { fromUrl: options.fromUrl, ...(options.header ? { headers: options.header } : {}) }
    : { fromCommand: options.fromCommand as string, ...(options.env ? { env: options.env } : {}) };
  const job: DocsJob = { out: options.out, source, banner: { command: bannerCommand(source), version: options.versionBanner }, ...(options.allowOutsideRefs ? { allowOutsideRefs: true } : {}) };
  const { report } = await writeDocs(job, options.check === true, io);
  return printReport(io, displayPath(options.out), report, options.check === true);
}

function bannerCommand(source: ClientSource): string {
  if ('manifest' in source) return `mcp-gen docs ${displayPath(resolve(source.manifest))}`;
  if ('fromSnapshot' in source) return `mcp-gen docs --from-snapshot ${displayPath(resolve(source.fromSnapshot))}`;
  if ('fromUrl' in source) return `mcp-gen docs --from-url ${source.fromUrl}`;
  return `mcp-gen docs --from-command ${source.fromCommand}`;
}
