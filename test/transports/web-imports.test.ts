/**
 * What the Web-standard handler loads: never node:http or node:net (platforms without Node's
 * server modules run it), and exactly the `node:*` modules docs/runtime.md names for it (the server
 * core's node:buffer, and node:crypto through node:module on first use). Followed on the real
 * import graph from transports/http/web.ts: value imports, static and dynamic, and `require`d names.
 */
import { readFileSync } from 'node:fs';
import { join, posix, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const RUNTIME = join(resolve(import.meta.dirname, '../..'), 'src', 'runtime');

/** Each file reached from `entry` by value imports, with the node:* modules each one loads. */
function reach(entry: string): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (found.has(file)) continue;
    const nodeModules: string[] = [];
    found.set(file, nodeModules);
    const source = ts.createSourceFile(file, readFileSync(join(RUNTIME, file), 'utf8'), ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
    const loads = (specifier: string): void => {
      if (specifier.startsWith('node:')) nodeModules.push(specifier);
      else if (specifier.startsWith('.')) queue.push(posix.normalize(posix.join(posix.dirname(file), specifier)).replace(/\.js$/, '.ts'));
    };
    const visit = (node: ts.Node): void => {
      if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
        const clause = ts.isImportDeclaration(node) ? node.importClause : undefined;
        const typeOnly = ts.isImportDeclaration(node)
          ? clause !== undefined && (clause.isTypeOnly || (clause.name === undefined && clause.namedBindings !== undefined && ts.isNamedImports(clause.namedBindings) && clause.namedBindings.elements.length > 0 && clause.namedBindings.elements.every((e) => e.isTypeOnly)))
          : node.isTypeOnly;
        if (!typeOnly) loads(node.moduleSpecifier.text);
      } else if (ts.isCallExpression(node)) {
        const [argument] = node.arguments;
        // import('…') and a require made by createRequire: both load at run time.
        if (argument && ts.isStringLiteralLike(argument) && (node.expression.kind === ts.SyntaxKind.ImportKeyword || argument.text.startsWith('node:'))) loads(argument.text);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

describe('the Web-standard handler’s imports', () => {
  const graph = reach('transports/http/web.ts');

  it('reach no node:http, node:net, node:stream or node:tls: only node:buffer and, on first use, node:crypto', () => {
    const all = new Set([...graph.values()].flat());
    expect([...all].sort()).toEqual(['node:buffer', 'node:crypto', 'node:module']);
  });

  it('the HTTP rules and the web adapter import no node:* module of their own', () => {
    const http = [...graph.keys()].filter((file) => file.startsWith('transports/'));
    expect(http).toContain('transports/http/http-endpoint.ts');
    expect(http).toContain('transports/http/web-exchange.ts');
    expect(http).not.toContain('transports/http/http.ts');
    for (const file of http) expect([file, graph.get(file)]).toEqual([file, []]);
  });

  it('the node:http adapter is the one that loads node:http', () => {
    expect(reach('transports/http/http.ts').get('transports/http/http.ts')).toEqual(['node:buffer', 'node:http']);
  });
});

