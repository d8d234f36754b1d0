/**
 * Planned validator modules (TypeScript) written out as JavaScript and imported, the way a user's
 * build would run them. Apart from support.ts: it loads the TypeScript compiler.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { contentOf, type PlannedFile } from '../../src/write/planned-file.js';
import type { ValidatorFn } from './support.js';

/** The planned TypeScript modules as JavaScript under `root` (an ES module package), so Node can import them. */
export function writeAsJavaScript(root: string, files: { path: string; text: string }[]): void {
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, 'package.json'), '{"type":"module"}');
  for (const { path, text } of files) {
    const out = join(root, path.replace(/\.ts$/, '.js'));
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, ts.transpileModule(text, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText);
  }
}

/** A server's planned validator files with their texts, and the validators its `generated/validators.js` exports, imported from `root`. */
export async function importServerValidators(root: string, planned: readonly PlannedFile[]): Promise<{ files: { path: string; text: string }[]; validators: Record<string, ValidatorFn> }> {
  const files = await Promise.all(planned.map(async (f) => ({ path: f.path, text: await contentOf(f) })));
  writeAsJavaScript(root, files);
  const validators = (await import(/* @vite-ignore */ pathToFileURL(join(root, 'generated/validators.js')).href)) as Record<string, ValidatorFn>;
  return { files, validators };
}
