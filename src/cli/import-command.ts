/**
 * `mcp-gen import openapi <file|url> -o manifest.yaml`: prints what was imported and every warning
 * (positioned), exits 0 once the manifest is written; bad input exits 2 with nothing written.
 */
import { formatDiagnostic, inputProblem } from '../load/diagnostics.js';
import { flagPairs } from '../pipeline/flag-pairs.js';
import { importToFile } from '../pipeline/import.js';
import { EXIT_OK, type Console } from './output.js';

export interface ImportCommandOptions {
  out: string;
  tag?: string[];
  path?: string[];
  operation?: string[];
  excludeTag?: string[];
  excludePath?: string[];
  excludeOperation?: string[];
  baseUrl?: string;
  bearerEnv?: string;
  header?: string[];
  json?: boolean;
}

export async function runImport(kind: string, source: string, options: ImportCommandOptions, io: Console): Promise<number> {
  if (kind !== 'openapi') throw inputProblem(kind, `mcp-gen imports 'openapi' descriptions, not '${kind}'`, 'mcp-gen import openapi <file|url> -o manifest.yaml');
  if (options.baseUrl !== undefined && !/^https?:\/\/[^\s#?]+$/.test(options.baseUrl)) throw inputProblem('--base-url', `'${options.baseUrl}' is not an http(s) URL without query or fragment`);
  if (options.bearerEnv !== undefined && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(options.bearerEnv)) throw inputProblem('--bearer-env', `'${options.bearerEnv}' is not an environment variable name`);
  const headers = flagPairs(options.header, ':', '--header');
  const started = performance.now();
  const run = await importToFile(source, options.out, {
    ...(options.tag ? { tags: options.tag } : {}),
    ...(options.path ? { paths: options.path } : {}),
    ...(options.operation ? { operations: options.operation } : {}),
    ...(options.excludeTag ? { excludeTags: options.excludeTag } : {}),
    ...(options.excludePath ? { excludePaths: options.excludePath } : {}),
    ...(options.excludeOperation ? { excludeOperations: options.excludeOperation } : {}),
    ...(options.baseUrl !== undefined ? { baseUrl: options.baseUrl } : {}),
    ...(options.bearerEnv !== undefined ? { bearerEnv: options.bearerEnv } : {}),
    ...(headers ? { headers } : {}),
  });
  const ms = Math.round(performance.now() - started);
  const { stats } = run;
  if (options.json) {
    io.out(JSON.stringify({ command: 'import', out: options.out, ...stats, ms, warnings: run.warnings }));
    return EXIT_OK;
  }
  for (const warning of run.warnings) io.err(`warning: ${formatDiagnostic(warning)}`);
  if (stats.tools === 0) io.err(`warning: ${source}: no operation became a tool (${stats.operations} in the description, ${stats.selected} selected)`);
  io.out(`${options.out}: ${stats.tools} tools from ${stats.selected} of ${stats.operations} operations (${stats.skipped} left out) in ${ms} ms`);
  return EXIT_OK;
}
