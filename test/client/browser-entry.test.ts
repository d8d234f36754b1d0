/**
 * `mcp-gen client --browser`: the client's module graph, walked from client.ts through every static
 * import and every dynamic import with a literal name, reaches no `node:*` module and only files that
 * are there; the Node client (the default) keeps stdio and the node:http wire. Neither names the
 * OAuth folder unless it was generated (a bundler fails on an import of a missing file).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, generate, listTs } from './support.js';

const MANIFEST = join(import.meta.dirname, '../../examples/weather/manifest.yaml');

/** Module names a file imports: static imports/exports and `import('…')` with a literal. */
function specifiers(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^;'"]*?from\s*['"]([^'"]+)['"]/g)) found.push(match[1]!);
  for (const match of text.matchAll(/\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g)) found.push(match[1]!);
  return found;
}

/** Every module reached from `entry`: relative names resolved (`.js` is the `.ts` beside it, or a `.js`). */
function moduleGraph(root: string, entry: string): { files: string[]; outside: string[]; missing: string[] } {
  const seen = new Set<string>();
  const outside = new Set<string>();
  const missing = new Set<string>();
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const name of specifiers(readFileSync(join(root, file), 'utf8'))) {
      if (!name.startsWith('.')) {
        outside.add(name);
        continue;
      }
      const js = posix.normalize(posix.join(posix.dirname(file), name));
      const ts = js.replace(/\.js$/, '.ts');
      const found = [ts, js].find((candidate) => existsSync(join(root, candidate)));
      if (found === undefined) missing.add(`${file} → ${name}`);
      else pending.push(found);
    }
  }
  return { files: [...seen].sort(), outside: [...outside].sort(), missing: [...missing].sort() };
}

describe('mcp-gen client --browser', () => {
  it('reaches no node: module from client.ts, and every import is a file that is there', async () => {
    const { dir, run } = await generate([MANIFEST, '--browser']);
    expect(run.code, run.err).toBe(0);
    const root = join(dir, 'client');
    const graph = moduleGraph(root, 'client.ts');
    expect(graph.outside).toEqual([]);
    expect(graph.missing).toEqual([]);
    expect(graph.files).toContain('runtime/client/fetch-wire.ts');
    // Nothing copied that a browser project would type-check against Node's types.
    const files = listTs(root);
    expect(files.filter((f) => /stdio|node-wire|connect-browser|oauth-module-absent|\/auth\//.test(f))).toEqual([]);
    for (const file of files) expect(readFileSync(join(root, file), 'utf8'), file).not.toMatch(/from ['"]node:|import\(['"]node:/);
    // The ledger remembers the flag: `mcp-gen check` regenerates the same browser client.
    const check = await cli(['check', root]);
    expect(check.code, check.out + check.err).toBe(0);
  });

  it('the default (Node) client keeps stdio and node:http, and names no auth/ without --auth', async () => {
    const { dir, run } = await generate([MANIFEST]);
    expect(run.code, run.err).toBe(0);
    const root = join(dir, 'client');
    const graph = moduleGraph(root, 'client.ts');
    expect(graph.missing).toEqual([]);
    expect(graph.files).toEqual(expect.arrayContaining(['runtime/client/stdio.ts', 'runtime/client/node-wire.ts']));
    expect(graph.files).not.toContain('runtime/client/fetch-wire.ts');
    expect(graph.outside.every((name) => name.startsWith('node:'))).toBe(true);
    // Not even by a name held in a constant, which a bundler follows like a literal.
    for (const file of listTs(root)) expect(readFileSync(join(root, file), 'utf8'), file).not.toMatch(/['"]\.\/auth\//);
    const withAuth = await generate([MANIFEST, '--auth']);
    const authGraph = moduleGraph(join(withAuth.dir, 'client'), 'client.ts');
    expect(authGraph.missing).toEqual([]);
    expect(authGraph.files).toContain('runtime/client/auth/index.ts');
  });

  it('refuses --browser with --auth (the OAuth sign-in needs Node), exit 2, nothing written', async () => {
    const { dir, run } = await generate([MANIFEST, '--browser', '--auth']);
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/--browser and --auth/);
    expect(existsSync(join(dir, 'client'))).toBe(false);
  });
});
