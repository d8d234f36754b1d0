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

function isAllowed(specifier: string): boolean {
  return specifier.startsWith('node:') || /^\.\/[\w.-]+\.js$/.test(specifier);
}

describe('the runtime copied into every generated server', () => {
  const files = [
    ...readdirSync(join(ROOT, 'src/runtime')).filter((f) => f.endsWith('.ts')).map((f) => join('src/runtime', f)),
    ...readdirSync(join(ROOT, 'generated/runtime')).filter((f) => /\.(js|ts)$/.test(f)).map((f) => join('generated/runtime', f)),
  ];

  it('has files to check', () => {
    expect(files.length).toBeGreaterThan(5);
  });

  it.each(files)('%s imports nothing but node:* built-ins and its own siblings', (file) => {
    const found = specifiers(readFileSync(join(ROOT, file), 'utf8'));
    expect(found.filter((s) => !isAllowed(s))).toEqual([]);
  });

  it('the check itself catches a package import, a parent import and require', () => {
    const bad = "import x from 'ajv';\nimport { y } from '../src/y.js';\nconst z = require('fs');\n";
    expect(specifiers(bad).filter((s) => !isAllowed(s))).toHaveLength(3);
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

  it('loads a package only in redis-store.ts, by a computed name, and nothing loads redis-store.ts but main.ts on --redis', () => {
    const computed = files.filter((file) => /\bimport\s*\(\s*[A-Za-z_$]/.test(readFileSync(join(ROOT, file), 'utf8')));
    expect(computed.map((f) => f.replace(/^.*\//, ''))).toEqual(['redis-store.ts']);
    const importers = files.filter((file) => readFileSync(join(ROOT, file), 'utf8').includes('redis-store.js'));
    expect(importers).toEqual([]);
    expect(readFileSync(join(ROOT, 'templates/main.ts.hbs'), 'utf8')).toContain("import('./generated/runtime/redis-store.js')");
  });
});

// The one exception: the resource-server checks (manifest `auth`) verify JWTs with jose, and only
// generated main.ts of a server with `auth` loads them.
describe('the runtime auth folder', () => {
  const authFiles = readdirSync(join(ROOT, 'src/runtime/auth')).filter((f) => f.endsWith('.ts'));

  it.each(authFiles)('src/runtime/auth/%s imports node:*, jose, its siblings and the runtime beside it only', (file) => {
    const found = specifiers(readFileSync(join(ROOT, 'src/runtime/auth', file), 'utf8'));
    expect(found.filter((s) => !(isAllowed(s) || s === 'jose' || /^\.\.\/[\w.-]+\.js$/.test(s)))).toEqual([]);
  });

  it('jose is imported by jwt.ts alone, and no runtime file outside auth/ reaches into it', () => {
    const jose = authFiles.filter((file) => specifiers(readFileSync(join(ROOT, 'src/runtime/auth', file), 'utf8')).includes('jose'));
    expect(jose).toEqual(['jwt.ts']);
    const outside = readdirSync(join(ROOT, 'src/runtime')).filter((f) => f.endsWith('.ts'));
    expect(outside.filter((file) => specifiers(readFileSync(join(ROOT, 'src/runtime', file), 'utf8')).some((s) => s.includes('auth/')))).toEqual([]);
  });
});
