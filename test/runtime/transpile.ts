/**
 * Spawned stdio servers cannot run TypeScript on Node 20, so the runtime and the fixtures are
 * transpiled (types stripped, no type-check: `tsc` covers that) into a private folder under
 * node_modules/.cache, where `ajv` still resolves from the repository's node_modules; the generated
 * envelope validators they import are copied beside them.
 */
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const folders = ['src/runtime', 'test/runtime/fixtures'];
/** Plain JavaScript the fixtures import, copied as is. */
const copiedFiles = [
  'generated/runtime/initialize-validators.js',
  'generated/runtime/request-validators.js',
  'generated/runtime/result-validators.js',
];

export interface TranspiledTree {
  root: string;
  path(relative: string): string;
  remove(): void;
}

export function transpileRuntimeTree(): TranspiledTree {
  const root = join(repoRoot, 'node_modules', '.cache', 'mcp-gen-runtime-tests', `${process.pid}-${Date.now()}`);
  for (const folder of folders) {
    mkdirSync(join(root, folder), { recursive: true });
    // The runtime's layer folders too (not client/: no spawned fixture runs the client).
    const names = (readdirSync(join(repoRoot, folder), { recursive: true, encoding: 'utf8' }) as string[]).map((path) => path.split('\\').join('/'));
    for (const name of names) {
      if (!name.endsWith('.ts') || name.startsWith('client/')) continue;
      mkdirSync(dirname(join(root, folder, name)), { recursive: true });
      const source = readFileSync(join(repoRoot, folder, name), 'utf8');
      const output = ts.transpileModule(source, {
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
        fileName: name,
      });
      writeFileSync(join(root, folder, name.replace(/\.ts$/, '.js')), output.outputText);
    }
  }
  for (const file of copiedFiles) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    copyFileSync(join(repoRoot, file), join(root, file));
  }
  writeFileSync(join(root, 'package.json'), '{"type":"module"}\n');
  return {
    root,
    path: (relative) => join(root, relative),
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}
