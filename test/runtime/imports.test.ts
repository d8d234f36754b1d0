import { readdirSync, readFileSync } from 'node:fs';
import { join, posix, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

/** Every module specifier in a file: static imports/exports and dynamic import() calls. */
function specifiers(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^;'"]*?from\s*['"]([^'"]+)['"]/g)) found.push(match[1]!);
  for (const match of text.matchAll(/(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g)) found.push(match[1]!);
  for (const match of text.matchAll(/\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g)) found.push(match[1]!);
  for (const match of text.matchAll(/\brequire\s*\(/g)) found.push(`require at ${match.index}`);
  return found;
}

/** The server runtime's files (client/ has its own rule below), by path under src/runtime/. */
function serverRuntimeFiles(): string[] {
  return (readdirSync(join(ROOT, 'src/runtime'), { recursive: true, encoding: 'utf8' }) as string[])
    .map((path) => path.split('\\').join('/'))
    .filter((path) => path.endsWith('.ts') && !path.startsWith('client/'))
    .sort();
}

/** A `node:*` built-in, or a relative `.js` specifier that stays inside the copied runtime folder. */
function isAllowed(specifier: string, file = 'src/runtime/x.ts'): boolean {
  if (specifier.startsWith('node:')) return true;
  if (!/^\.\.?\/[\w./-]+\.js$/.test(specifier)) return false;
  const root = file.startsWith('generated/runtime/') ? 'generated/runtime/' : 'src/runtime/';
  return posix.normalize(posix.join(posix.dirname(file), specifier)).startsWith(root);
}

describe('the runtime copied into every generated server', () => {
  const files = [
    ...serverRuntimeFiles().filter((f) => !f.startsWith('auth/')).map((f) => `src/runtime/${f}`),
    ...readdirSync(join(ROOT, 'generated/runtime')).filter((f) => /\.(js|ts)$/.test(f)).map((f) => join('generated/runtime', f)),
  ];

  it('has files to check', () => {
    expect(files.length).toBeGreaterThan(5);
  });

  it.each(files)('%s imports nothing but node:* built-ins and its own siblings', (file) => {
    const found = specifiers(readFileSync(join(ROOT, file), 'utf8'));
    expect(found.filter((s) => !isAllowed(s, file))).toEqual([]);
  });

  it('the check itself catches a package import, an import out of the runtime folder and require', () => {
    const bad = "import x from 'ajv';\nimport { y } from '../../src/y.js';\nconst z = require('fs');\n";
    expect(specifiers(bad).filter((s) => !isAllowed(s, 'src/runtime/protocol/x.ts'))).toHaveLength(3);
  });

  it('the client runtime imports node:* and the runtime alone, except client/auth/, which may also import oauth4webapi', () => {
    const runtime = join(ROOT, 'src/runtime');
    const clientFiles = ['client', 'client/auth'].flatMap((dir) =>
      readdirSync(join(runtime, dir)).filter((f) => f.endsWith('.ts')).map((f) => `${dir}/${f}`),
    );
    expect(clientFiles.filter((f) => f.startsWith('client/auth/')).length).toBeGreaterThan(3);
    const bad: string[] = [];
    for (const file of clientFiles) {
      for (const specifier of specifiers(readFileSync(join(runtime, file), 'utf8'))) {
        const resolved = posix.normalize(posix.join('src/runtime', posix.dirname(file), specifier));
        const insideRuntime = specifier.startsWith('.') && resolved.startsWith('src/runtime/');
        const allowed = specifier.startsWith('node:') || insideRuntime || (specifier === 'oauth4webapi' && file.startsWith('client/auth/'));
        if (!allowed) bad.push(`${file}: ${specifier}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('loads a package only in redis-connection.ts and trace-context.ts (tracing, when asked for), by a computed name; only redis-store.ts loads redis-connection.ts, and nothing loads redis-store.ts but main.ts on --redis', () => {
    // A computed specifier, with or without bundler comments before it (`/* @vite-ignore */`).
    const computed = files.filter((file) => /\bimport\s*\(\s*(?:\/\*.*?\*\/\s*)*[A-Za-z_$]/.test(readFileSync(join(ROOT, file), 'utf8')));
    expect(computed.map((f) => f.replace(/^.*\//, '')).sort()).toEqual(['redis-connection.ts', 'trace-context.ts']);
    const importers = files.filter((file) => readFileSync(join(ROOT, file), 'utf8').includes('redis-store.js'));
    expect(importers).toEqual([]);
    const connecting = files.filter((file) => readFileSync(join(ROOT, file), 'utf8').includes("from './redis-connection.js'"));
    expect(connecting.map((f) => f.replace(/^.*\//, ''))).toEqual(['redis-store.ts']);
    expect(readFileSync(join(ROOT, 'templates/main.ts.hbs'), 'utf8')).toContain("import('./generated/runtime/redis-store.js')");
  });
});

// The one exception: the resource-server checks (manifest `auth`) verify JWTs with jose, and only
// generated main.ts of a server with `auth` loads them.
describe('the runtime auth folder', () => {
  const authFiles = readdirSync(join(ROOT, 'src/runtime/auth')).filter((f) => f.endsWith('.ts'));

  it.each(authFiles)('src/runtime/auth/%s imports node:*, jose, its siblings and the runtime beside it only', (file) => {
    const found = specifiers(readFileSync(join(ROOT, 'src/runtime/auth', file), 'utf8'));
    expect(found.filter((s) => !(isAllowed(s, `src/runtime/auth/${file}`) || s === 'jose'))).toEqual([]);
  });

  it('jose is imported by jwt.ts alone, and no runtime file outside auth/ reaches into it', () => {
    const jose = authFiles.filter((file) => specifiers(readFileSync(join(ROOT, 'src/runtime/auth', file), 'utf8')).includes('jose'));
    expect(jose).toEqual(['jwt.ts']);
    const outside = serverRuntimeFiles().filter((f) => !f.startsWith('auth/'));
    expect(outside.filter((file) => specifiers(readFileSync(join(ROOT, 'src/runtime', file), 'utf8')).some((s) => s.includes('auth/')))).toEqual([]);
  });
});
