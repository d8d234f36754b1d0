/**
 * What the installed package can load: every package that dist/ imports (statically, with
 * `import()`, or through `require`/`createRequire`) must be one of mcp-gen's `dependencies`, since
 * a user's `npm install` leaves devDependencies out. Code inside strings (scripts and templates
 * that mcp-gen writes for users) is not an import of mcp-gen and is not counted.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import ts from 'typescript';
import { expect, test } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

/** The module specifiers a JavaScript file loads, read from its syntax tree. */
function loadedSpecifiers(text: string): string[] {
  const source = ts.createSourceFile('module.js', text, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier !== undefined && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push(node.moduleSpecifier.text);
    }
    if (ts.isCallExpression(node) && isLoader(node.expression)) {
      const first = node.arguments[0];
      if (first !== undefined && ts.isStringLiteralLike(first)) found.push(first.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** `import(…)`, `require(…)`, `require.resolve(…)` and `createRequire(…)(…)`. */
function isLoader(callee: ts.Expression): boolean {
  if (callee.kind === ts.SyntaxKind.ImportKeyword) return true;
  if (ts.isIdentifier(callee)) return callee.text === 'require';
  if (ts.isPropertyAccessExpression(callee)) return callee.name.text === 'resolve' && isLoader(callee.expression);
  return ts.isCallExpression(callee) && ts.isIdentifier(callee.expression) && callee.expression.text === 'createRequire';
}

/** The npm package a bare specifier names (`@scope/name` or `name`), or undefined for a file or a built-in. */
function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:') || specifier.startsWith('file:')) return undefined;
  const name = specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');
  return builtinModules.includes(name) ? undefined : name;
}

test('the scan sees each way of loading a module, and not code inside strings', () => {
  const text = [
    "import a from 'alpha'; export { b } from '@scope/beta/sub'; import './local.js';",
    "const r = createRequire(import.meta.url); r('not-seen-through-a-variable');",
    "createRequire(import.meta.url)('gamma'); require.resolve('delta'); await import('epsilon/x');",
    "const script = `import { build } from 'in-a-string';`; import fs from 'node:fs'; import path from 'path';",
  ].join('\n');
  expect(loadedSpecifiers(text).map(packageOf).filter((name) => name !== undefined)).toEqual(['alpha', '@scope/beta', 'gamma', 'delta', 'epsilon']);
});

test('every package that dist/ loads is a dependency of mcp-gen', () => {
  const own = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string; dependencies: Record<string, string> };
  expect(existsSync(join(root, 'dist')), 'dist/ is missing: run `npm run build` first').toBe(true);
  const files = readdirSync(join(root, 'dist'), { recursive: true, encoding: 'utf8' }).filter((path) => /\.[cm]?js$/.test(path));
  expect(files.length).toBeGreaterThan(100);
  const missing = new Set<string>();
  for (const file of files) {
    for (const specifier of loadedSpecifiers(readFileSync(join(root, 'dist', file), 'utf8'))) {
      const name = packageOf(specifier);
      if (name !== undefined && name !== own.name && own.dependencies[name] === undefined) missing.add(`${name} (dist/${file})`);
    }
  }
  expect([...missing].sort()).toEqual([]);
});
