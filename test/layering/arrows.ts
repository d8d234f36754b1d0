/**
 * The import arrows of TypeScript sources, parsed with the TypeScript compiler so a type-only
 * import is told apart from one that loads the module. Read by import-graph.test.ts (src/'s
 * folders) and runtime-graph.test.ts (the runtime's layers).
 */
import { readdirSync } from 'node:fs';
import { join, posix, relative } from 'node:path';
import ts from 'typescript';

export interface Arrow {
  /** Both paths relative to the root the arrows are read under, posix, `.ts`. */
  from: string;
  to: string;
  /** `import type …`, `export type …`, or every named binding marked `type`. */
  typeOnly: boolean;
}

export function sourceFiles(dir: string): string[] {
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

/** Every relative import, re-export and dynamic import() of one file, resolved to a path under `root`. */
export function arrowsOf(root: string, file: string, text: string): Arrow[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const from = relative(root, file).split('\\').join('/');
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
