/**
 * Helpers of the client tests: run `mcp-gen client` in process, type-check the output (with usage
 * files) under the strict settings, and import it.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { main } from '../../src/cli/main.js';
import ts from 'typescript';
import { STRICT_OPTIONS, writeTempProject, type CompiledDiagnostic } from '../types/helpers.js';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const everythingBin = join(repoRoot, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

export interface CliRun {
  code: number;
  out: string;
  err: string;
}

export async function cli(args: readonly string[]): Promise<CliRun> {
  let out = '';
  let err = '';
  const code = await main(args, { out: (l) => (out += l + '\n'), err: (l) => (err += l + '\n') });
  return { code, out, err };
}

/** A fresh project folder (ES module, node_modules linked) with the client generated into `client/`. */
export async function generate(args: readonly string[]): Promise<{ dir: string; run: CliRun }> {
  const dir = writeTempProject({});
  const run = await cli(['client', ...args, '-o', join(dir, 'client'), '--no-version-banner']);
  return { dir, run };
}

/** Type-checks the client and the given usage files (written into `dir`) as one strict program. */
/** `options`: the compiler options instead of the strictest set (e.g. `strict` alone, as an app may have). */
export function checkWith(dir: string, files: Record<string, string>, options: ts.CompilerOptions = STRICT_OPTIONS): CompiledDiagnostic[] {
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const generated = listTs(join(dir, 'client')).map((f) => `client/${f}`);
  const program = ts.createProgram(
    [...generated, ...Object.keys(files)].map((n) => join(dir, n)),
    // Generated code uses Node's APIs: an app compiles it with @types/node, as the server's tests do.
    { ...options, types: ['node'] },
  );
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const position = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : undefined;
    return {
      file: d.file ? d.file.fileName.slice(dir.length + 1) : '',
      line: position ? position.line + 1 : 0,
      code: d.code,
      message: ts.flattenDiagnosticMessageText(d.messageText, '\n'),
    };
  });
}

export function listTs(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => f.split('\\').join('/'))
    .sort();
}

export function read(dir: string, path: string): string {
  return readFileSync(join(dir, path), 'utf8');
}

/** Imports the generated client module (vitest transpiles the TypeScript). */
export async function importClient<T = Record<string, unknown>>(dir: string): Promise<T> {
  return (await import(pathToFileURL(join(dir, 'client', 'client.ts')).href)) as T;
}
