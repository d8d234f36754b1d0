import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * No function in src/ is longer than a reader can hold in view: past MAX_LINES a function is a
 * module's worth of steps, to be split. The runtime, copied into every user's project, also keeps
 * each file to one job of at most MAX_RUNTIME_FILE_LINES lines.
 */

const ROOT = join(import.meta.dirname, '..', '..');
const SRC = join(ROOT, 'src');
const MAX_LINES = 120;
const MAX_RUNTIME_FILE_LINES = 300;

type FunctionLike = ts.FunctionDeclaration | ts.MethodDeclaration | ts.ArrowFunction | ts.FunctionExpression | ts.ConstructorDeclaration | ts.AccessorDeclaration;

function isFunctionLike(node: ts.Node): node is FunctionLike {
  return ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isArrowFunction(node) || ts.isFunctionExpression(node) || ts.isConstructorDeclaration(node) || ts.isAccessor(node);
}

/** `file:line name (N lines)` for every function of `text` longer than `max` lines. */
export function longFunctions(file: string, text: string, max = MAX_LINES): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (isFunctionLike(node)) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      if (lines > max) found.push(`${file}:${first + 1} ${node.name?.getText(source) ?? '(anonymous)'} (${lines} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

describe('function length in src/', () => {
  it(`has no function over ${MAX_LINES} lines`, () => {
    const files = sourceFiles(SRC);
    expect(files.length).toBeGreaterThan(100);
    expect(files.flatMap((file) => longFunctions(relative(ROOT, file), readFileSync(file, 'utf8')))).toEqual([]);
  });

  it(`has no runtime file over ${MAX_RUNTIME_FILE_LINES} lines`, () => {
    const runtime = sourceFiles(join(SRC, 'runtime'));
    expect(runtime.length).toBeGreaterThan(50);
    const long = runtime
      .map((file) => ({ file: relative(ROOT, file), lines: readFileSync(file, 'utf8').split('\n').length - 1 }))
      .filter(({ lines }) => lines > MAX_RUNTIME_FILE_LINES);
    expect(long).toEqual([]);
  });

  it('the check itself finds a long function, an arrow and a method alike', () => {
    const body = (n: number): string => Array.from({ length: n }, (_, i) => `  const a${i} = ${i};`).join('\n');
    expect(longFunctions('x.ts', `function f() {\n${body(MAX_LINES - 2)}\n}`)).toEqual([]);
    expect(longFunctions('x.ts', `function f() {\n${body(MAX_LINES - 1)}\n}`)).toEqual([`x.ts:1 f (${MAX_LINES + 1} lines)`]);
    expect(longFunctions('x.ts', `const g = () => {\n${body(MAX_LINES)}\n};`)).toHaveLength(1);
    expect(longFunctions('x.ts', `class C {\n  m() {\n${body(MAX_LINES)}\n  }\n}`)).toEqual([`x.ts:2 m (${MAX_LINES + 2} lines)`]);
  });
});
