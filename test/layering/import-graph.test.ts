import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The pipeline's one-way imports (load → model → emit → write, with src/schema a leaf every phase
 * may read), checked on the real import graph of src/ the way test/runtime/imports.test.ts checks
 * the runtime's node:* rule. Each arrow is parsed with the TypeScript compiler, so a type-only
 * import is told apart from one that loads the module.
 */

const ROOT = resolve(import.meta.dirname, '../..');
const SRC = join(ROOT, 'src');

interface Arrow {
  /** Both paths relative to src/, posix, `.ts`. */
  from: string;
  to: string;
  /** `import type …`, `export type …`, or every named binding marked `type`. */
  typeOnly: boolean;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

function isTypeOnly(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(node)) {
    if (node.isTypeOnly) return true;
    const clause = node.exportClause;
    return clause !== undefined && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((e) => e.isTypeOnly);
  }
  const clause = node.importClause;
  if (clause === undefined) return false; // a bare `import './x.js'` runs the module
  if (clause.isTypeOnly) return true;
  if (clause.name !== undefined) return false;
  const bindings = clause.namedBindings;
  return bindings !== undefined && ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly);
}

/** Every relative import, re-export and dynamic import() of one file, resolved to a path under src/. */
function arrowsOf(file: string, text: string): Arrow[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const from = relative(SRC, file).split('\\').join('/');
  const arrows: Arrow[] = [];
  const add = (specifier: string, typeOnly: boolean): void => {
    if (!specifier.startsWith('.')) return; // node:* and packages are not layers
    const to = posix.normalize(posix.join(posix.dirname(from), specifier)).replace(/\.js$/, '.ts');
    arrows.push({ from, to, typeOnly });
  };
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node.moduleSpecifier.text, isTypeOnly(node));
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      if (argument && ts.isStringLiteralLike(argument)) add(argument.text, false);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      add(node.argument.literal.text, true); // `import('../x.js').T` in a type position
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return arrows;
}

const folderOf = (path: string): string => path.split('/')[0] ?? '';

/** What the arrow breaks, or undefined when the layering allows it. */
function violation(arrow: Arrow): string | undefined {
  const from = folderOf(arrow.from);
  const to = folderOf(arrow.to);
  if (from === to) return undefined;
  const where = `${arrow.from} → ${arrow.to}`;
  if (from === 'schema') return `${where}: src/schema is a leaf and imports no other src folder`;
  if (from === 'load' && to === 'model') return `${where}: load returns documents; the pipeline builds the model`;
  if (from === 'emit' && to === 'load') return `${where}: emitters work from the model, never from load`;
  if ((from === 'check' || from === 'pipeline') && to === 'cli') return `${where}: the CLI parses arguments and prints; ${from} never imports it`;
  if (from === 'emit' && to === 'write' && !(arrow.typeOnly && arrow.to === 'write/planned-file.ts')) {
    return `${where}: emitters may only name the PlannedFile type (a type-only import of write/planned-file.ts)`;
  }
  return undefined;
}

describe('the import graph of src/', () => {
  const arrows = sourceFiles(SRC).flatMap((file) => arrowsOf(file, readFileSync(file, 'utf8')));

  it('has arrows between every phase to check', () => {
    const folders = new Set(arrows.map((a) => `${folderOf(a.from)}→${folderOf(a.to)}`));
    for (const edge of ['load→schema', 'model→schema', 'emit→schema', 'emit→model', 'emit→write', 'cli→load', 'cli→emit', 'pipeline→load', 'pipeline→model', 'check→pipeline', 'cli→pipeline']) {
      expect(folders).toContain(edge);
    }
  });

  it('every arrow points the way the pipeline flows (load → model → emit → write; schema a leaf)', () => {
    expect(arrows.map(violation).filter((v) => v !== undefined)).toEqual([]);
  });

  it('every arrow resolves to a file that exists, so none escapes the check by a wrong path', () => {
    const files = new Set(sourceFiles(SRC).map((f) => relative(SRC, f).split('\\').join('/')));
    expect(arrows.filter((a) => !files.has(a.to) && !files.has(a.to.replace(/\.ts$/, '.d.ts'))).map((a) => `${a.from} → ${a.to}`)).toEqual([]);
  });

  it('the check itself catches each forbidden arrow and lets the allowed ones pass', () => {
    const at = (path: string): string => join(SRC, path);
    const found = (path: string, text: string): string[] =>
      arrowsOf(at(path), text)
        .map(violation)
        .filter((v): v is string => v !== undefined);
    expect(found('schema/x.ts', "import { a } from '../load/a.js';")).toHaveLength(1);
    expect(found('load/x.ts', "import type { ServiceModel } from '../model/service-model.js';")).toHaveLength(1);
    expect(found('load/x.ts', "export { buildServiceModel } from '../model/service.js';")).toHaveLength(1);
    expect(found('emit/server/x.ts', "const m = await import('../../load/spec.js');")).toHaveLength(1);
    expect(found('emit/x.ts', "type T = import('../load/spec.js').LoadedSpec;")).toHaveLength(1);
    expect(found('emit/x.ts', "import { hasBanner } from '../write/render.js';")).toHaveLength(1);
    expect(found('emit/x.ts', "import { type PlannedFile, renderFile } from '../write/planned-file.js';")).toHaveLength(1);
    expect(found('emit/x.ts', "import type { WriteReport } from '../write/writer.js';")).toHaveLength(1);
    expect(found('emit/x.ts', "import type { PlannedFile } from '../write/planned-file.js';")).toEqual([]);
    expect(found('emit/x.ts', "import { type FileFormat, type PlannedFile } from '../write/planned-file.js';")).toEqual([]);
    expect(found('check/x.ts', "import { checkServer } from '../cli/server-command.js';")).toHaveLength(1);
    expect(found('pipeline/x.ts', "import type { Console } from '../cli/output.js';")).toHaveLength(1);
    expect(found('check/x.ts', "import { checkServer } from '../pipeline/server.js';")).toEqual([]);
    expect(found('model/x.ts', "import { as2020 } from '../load/draft07.js';")).toEqual([]);
    expect(found('schema/x.ts', "import { a } from './keywords.js';\nimport addFormats from 'ajv-formats';")).toEqual([]);
  });

  it('src/schema imports nothing outside itself but packages and node:* built-ins', () => {
    const schemaFiles = sourceFiles(join(SRC, 'schema'));
    expect(schemaFiles.length).toBeGreaterThan(0);
    for (const file of schemaFiles) {
      for (const arrow of arrowsOf(file, readFileSync(file, 'utf8'))) expect(dirname(arrow.to)).toBe('schema');
    }
  });
});
