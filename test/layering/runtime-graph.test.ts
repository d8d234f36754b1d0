import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { arrowsOf, sourceFiles, type Arrow } from './arrows.js';

/**
 * The runtime's layers (docs/runtime-layers.md), checked on the real import graph of src/runtime/:
 *
 *   protocol/ < server/ < features/ < transports/, auth/ < api.ts, index.ts, redis-store.ts
 *   client/ beside them, on protocol/ and api.ts only
 *
 * An import may point down the order or stay in its own layer, never up; and no file reaches
 * itself again through the imports it loads (no cycle). Type-only imports are exempt from both
 * rules: the compiler erases them, so they load nothing and decide no start-up order, and the
 * public types (api.ts and the type modules it re-exports) are named by every layer.
 */

const RUNTIME = join(resolve(import.meta.dirname, '../..'), 'src', 'runtime');

/** A file's layer: its folder under src/runtime (the top-level files are the entry points). */
function layerOf(path: string): string {
  const slash = path.indexOf('/');
  return slash === -1 ? 'entry' : path.slice(0, slash);
}

const RANK: Readonly<Record<string, number>> = {
  protocol: 0,
  server: 1,
  features: 2,
  transports: 3,
  auth: 3,
  entry: 4,
};

/** What the arrow breaks, or undefined when the layering allows it. */
function climb(arrow: Arrow): string | undefined {
  if (arrow.typeOnly) return undefined;
  const from = layerOf(arrow.from);
  const to = layerOf(arrow.to);
  const where = `${arrow.from} → ${arrow.to}`;
  if (from === 'client') {
    const shared = to === 'client' || to === 'protocol' || arrow.to === 'api.ts';
    return shared ? undefined : `${where}: the client shares only protocol/ and api.ts with the server`;
  }
  if (from === to) return undefined;
  const fromRank = RANK[from];
  const toRank = RANK[to];
  if (fromRank === undefined || toRank === undefined) return `${where}: ${to === 'client' ? 'the server never loads the client' : 'a folder with no place in the layer order'}`;
  return toRank < fromRank ? undefined : `${where}: ${from}/ may not import ${to === 'entry' ? 'the entry points' : `${to}/`}`;
}

/** Every cycle of value imports, each as the files around it (first file repeated at the end). */
function cycles(arrows: readonly Arrow[]): string[][] {
  const next = new Map<string, string[]>();
  for (const arrow of arrows) {
    if (arrow.typeOnly) continue;
    next.set(arrow.from, [...(next.get(arrow.from) ?? []), arrow.to]);
  }
  const found: string[][] = [];
  const done = new Set<string>();
  const path: string[] = [];
  const onPath = new Set<string>();
  const visit = (file: string): void => {
    if (onPath.has(file)) {
      found.push([...path.slice(path.indexOf(file)), file]);
      return;
    }
    if (done.has(file)) return;
    path.push(file);
    onPath.add(file);
    for (const to of next.get(file) ?? []) visit(to);
    path.pop();
    onPath.delete(file);
    done.add(file);
  };
  for (const file of [...next.keys()].sort()) visit(file);
  return found;
}

const files = sourceFiles(RUNTIME).map((file) => relative(RUNTIME, file).split('\\').join('/'));
const arrows = sourceFiles(RUNTIME).flatMap((file) => arrowsOf(RUNTIME, file, readFileSync(file, 'utf8')));

describe('the import graph of src/runtime/', () => {
  it('has arrows between the layers to check', () => {
    const edges = new Set(arrows.filter((a) => !a.typeOnly).map((a) => `${layerOf(a.from)}→${layerOf(a.to)}`));
    for (const edge of ['server→protocol', 'features→server', 'features→protocol', 'transports→server', 'entry→features', 'entry→transports', 'auth→protocol', 'client→protocol']) {
      expect(edges).toContain(edge);
    }
  });

  it('every arrow resolves to a runtime file, so none escapes the check by a wrong path', () => {
    const known = new Set(files);
    expect(arrows.filter((a) => !known.has(a.to)).map((a) => `${a.from} → ${a.to}`)).toEqual([]);
  });

  it('no value import climbs a layer', () => {
    expect(arrows.map(climb).filter((v) => v !== undefined)).toEqual([]);
  });

  it('no file reaches itself through the modules it loads (no import cycle)', () => {
    expect(cycles(arrows).map((cycle) => cycle.join(' → '))).toEqual([]);
  });

  it('the checks themselves catch a cycle, a climb and a client reaching into the server', () => {
    const arrow = (from: string, to: string, typeOnly = false): Arrow => ({ from, to, typeOnly });
    expect(cycles([arrow('server/a.ts', 'server/b.ts'), arrow('server/b.ts', 'server/c.ts'), arrow('server/c.ts', 'server/a.ts')])).toEqual([
      ['server/a.ts', 'server/b.ts', 'server/c.ts', 'server/a.ts'],
    ]);
    expect(cycles([arrow('server/a.ts', 'server/b.ts'), arrow('server/b.ts', 'server/a.ts', true)])).toEqual([]);
    expect(climb(arrow('server/session.ts', 'features/tools/tools.ts'))).toContain('server/ may not import features/');
    expect(climb(arrow('protocol/jsonrpc.ts', 'api.ts'))).toContain('the entry points');
    expect(climb(arrow('auth/jwt.ts', 'transports/http/http.ts'))).toContain('auth/ may not import transports/');
    expect(climb(arrow('client/session.ts', 'server/session.ts'))).toContain('the client shares only');
    expect(climb(arrow('server/session.ts', 'client/index.ts'))).toContain('never loads the client');
    expect(climb(arrow('server/session.ts', 'features/tools/tools.ts', true))).toBeUndefined();
    expect(climb(arrow('features/tools/tools.ts', 'server/session.ts'))).toBeUndefined();
    expect(climb(arrow('index.ts', 'transports/stdio/stdio.ts'))).toBeUndefined();
  });
});
