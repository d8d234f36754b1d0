/**
 * `mcp-gen client --package <name>`: the package's files and fields, the README's example calls
 * (each accepted by its tool's input schema), same inputs → same bytes, names npm refuses (exit 2,
 * nothing written), and regeneration: the user's version and fields kept, the version bumped by the
 * diff of the server surface. Building, packing and installing it into apps is test/apps/.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { compileToolValidators } from '../../src/mock/validators.js';
import { loadManifest } from '../../src/pipeline/manifest.js';
import { cli, repoRoot } from './support.js';

const WEATHER = join(repoRoot, 'examples/weather/manifest.yaml');
const fresh = (): string => mkdtempSync(join(tmpdir(), 'mcp-gen-package-'));
const readJson = (path: string): Record<string, unknown> => JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;

async function generatePackage(out: string, manifest = WEATHER, extra: string[] = []): Promise<{ code: number; err: string }> {
  return cli(['client', manifest, '-o', out, '--package', 'weather-client', '--no-version-banner', ...extra]);
}

/** A copy of the weather manifest, changed by `edit`, in a folder of its own. */
function weatherVariant(edit: (manifest: { tools: Record<string, unknown>[] }) => void): string {
  const dir = fresh();
  const manifest = parse(readFileSync(WEATHER, 'utf8')) as { tools: Record<string, unknown>[] };
  edit(manifest);
  const path = join(dir, 'manifest.yaml');
  writeFileSync(path, stringify(manifest));
  return path;
}

describe('mcp-gen client --package', () => {
  it('writes the client under src/ and a package.json whose exports lead to the tsc build in dist/', async () => {
    const out = join(fresh(), 'weather-client');
    expect((await generatePackage(out)).code).toBe(0);
    expect(existsSync(join(out, 'src/client.ts'))).toBe(true);
    expect(existsSync(join(out, 'client.ts'))).toBe(false);
    const pkg = readJson(join(out, 'package.json'));
    expect(pkg).toMatchObject({
      name: 'weather-client',
      version: '0.1.0',
      type: 'module',
      main: './dist/client.js',
      types: './dist/client.d.ts',
      files: ['dist'],
      scripts: { build: 'tsc -p tsconfig.json', prepack: 'npm run build' },
      devDependencies: { typescript: expect.any(String), '@types/node': expect.any(String) },
    });
    const root = (pkg['exports'] as Record<string, Record<string, string>>)['.'] as Record<string, string>;
    // Conditions in the order resolvers must meet them: types first, default last.
    expect(Object.keys(root)).toEqual(['types', 'browser', 'node', 'import', 'default']);
    expect(root['types']).toBe('./dist/client.d.ts');
    expect(readJson(join(out, 'tsconfig.json'))).toMatchObject({ compilerOptions: { rootDir: 'src', outDir: 'dist', declaration: true }, include: ['src'] });
    // The surface it was made from, as a snapshot `mcp-gen diff` reads.
    const diff = await cli(['diff', join(out, 'api-snapshot.json'), WEATHER]);
    expect(diff.code, diff.err).toBe(0);
    expect(diff.out).toMatch(/no differences/);
  });

  it('writes a README with one example call per tool, each accepted by the tool\'s input schema', async () => {
    const out = join(fresh(), 'pkg');
    expect((await generatePackage(out)).code).toBe(0);
    const readme = readFileSync(join(out, 'README.md'), 'utf8');
    const { model } = await loadManifest(WEATHER, { allowOutside: false });
    const validators = compileToolValidators(model);
    expect(model.tools.length).toBe(3);
    for (const tool of model.tools) {
      expect(readme).toContain(`### \`${tool.name}\``);
      const call = new RegExp(`client\\.tools\\.${tool.ids.camel}\\((.*)\\);`).exec(readme);
      expect(call, tool.name).not.toBeNull();
      const args = new Function(`return (${(call as RegExpExecArray)[1]});`)() as unknown;
      expect(validators.get(tool.name)?.input(args), `${tool.name}: ${JSON.stringify(args)}`).toBe(true);
    }
    expect(readme).toContain("import { connect } from 'weather-client';");
    expect(readme).toContain("await import('weather-client')");
  });

  it("keeps a tool's text inert in the README: no markup, links or fences from the server", async () => {
    const hostile = weatherVariant((m) => {
      const tool = m.tools[0] as Record<string, unknown>;
      tool['title'] = '<img src=x onerror=alert(1)>';
      tool['description'] = 'Click [here](javascript:alert(1)) ``` # heading\n\n<script>x()</script>';
    });
    const out = join(fresh(), 'pkg');
    expect((await generatePackage(out, hostile)).code).toBe(0);
    const readme = readFileSync(join(out, 'README.md'), 'utf8');
    expect(readme).not.toMatch(/<img|<script|\]\(javascript|^# heading/m);
    expect(readme).toContain('Click \\[here\\]\\(javascript:alert\\(1\\)\\)');
    expect(readme).toContain('&lt;script&gt;');
    expect(readFileSync(join(out, '.gitignore'), 'utf8')).toContain('dist/');
  });

  it('with --auth: oauth4webapi as the one dependency and the sign-in as ./auth', async () => {
    const out = join(fresh(), 'pkg');
    expect((await generatePackage(out, WEATHER, ['--auth'])).code).toBe(0);
    const pkg = readJson(join(out, 'package.json'));
    expect(pkg['dependencies']).toEqual({ oauth4webapi: expect.any(String) });
    expect((pkg['exports'] as Record<string, Record<string, string>>)['./auth']?.['types']).toBe('./dist/runtime/client/auth/index.d.ts');
    expect(existsSync(join(out, 'src/runtime/client/auth/index.ts'))).toBe(true);
    // The package's own package.json replaces the client's, which only named the dependency.
    expect(existsSync(join(out, 'src/package.json'))).toBe(false);
  });

  it("serves browsers from the same build: the 'browser' field swaps in the fetch-based connect", async () => {
    const out = join(fresh(), 'pkg');
    expect((await generatePackage(out)).code).toBe(0);
    expect(readJson(join(out, 'package.json'))['browser']).toEqual({ './dist/runtime/client/connect.js': './dist/runtime/client/connect-browser.js' });
    expect(readFileSync(join(out, 'src/runtime/client/connect-browser.ts'), 'utf8')).not.toMatch(/from 'node:/);
    expect(existsSync(join(out, 'src/runtime/client/fetch-wire.ts'))).toBe(true);
    // With --auth the Node-only sign-in is left out of a page's bundle too.
    const withAuth = join(fresh(), 'pkg');
    expect((await generatePackage(withAuth, WEATHER, ['--auth'])).code).toBe(0);
    expect(readJson(join(withAuth, 'package.json'))['browser']).toMatchObject({ './dist/runtime/client/oauth-module.js': './dist/runtime/client/oauth-module-absent.js' });
    // --browser would make a package without Node's half: refused.
    const both = await generatePackage(join(fresh(), 'pkg'), WEATHER, ['--browser']);
    expect(both.code).toBe(2);
    expect(both.err).toContain('leave out --browser');
    // Its .js build already serves Deno, Bun and type stripping: .ts import specifiers are refused.
    const tsImports = await generatePackage(join(fresh(), 'pkg'), WEATHER, ['--import-extension', 'ts']);
    expect(tsImports.code).toBe(2);
    expect(tsImports.err).toContain('leave out --import-extension ts');
  });

  it('gives the same bytes for the same inputs', async () => {
    const [a, b] = [join(fresh(), 'p'), join(fresh(), 'p')];
    expect((await generatePackage(a)).code).toBe(0);
    expect((await generatePackage(b)).code).toBe(0);
    const files = (dir: string): string[] => readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.includes('.') && !f.startsWith('.mcp-gen-cache')).sort();
    expect(files(a)).toEqual(files(b));
    expect(files(a)).toContain('README.md');
    for (const file of files(a)) expect(readFileSync(join(b, file), 'utf8'), file).toBe(readFileSync(join(a, file), 'utf8'));
  });

  it.each([
    ['Weather-Client', 'capital letters'],
    ['_weather', 'starts with a dot or an underscore'],
    ['weather client', 'characters npm does not allow'],
    ['http', 'reserved'],
    ['@scope/', 'characters npm does not allow'],
    ['x'.repeat(215), 'longer than 214'],
  ])('refuses %j as a package name (exit 2, nothing written)', async (name, reason) => {
    const out = join(fresh(), 'pkg');
    const run = await cli(['client', WEATHER, '-o', out, '--package', name]);
    expect(run.code).toBe(2);
    expect(run.err).toContain('not a valid npm package name');
    expect(run.err).toContain(reason);
    expect(existsSync(out)).toBe(false);
  });

  it('refuses --package-version without --package, and a version that is not semver (exit 2)', async () => {
    const out = join(fresh(), 'pkg');
    const alone = await cli(['client', WEATHER, '-o', out, '--package-version', '1.0.0']);
    expect(alone.code).toBe(2);
    expect(alone.err).toContain('needs --package');
    const bad = await generatePackage(out, WEATHER, ['--package-version', 'v1']);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('not a semantic version');
    expect(existsSync(out)).toBe(false);
  });

  it("keeps the user's version and fields on regeneration, and mcp-gen check calls that current", async () => {
    const out = join(fresh(), 'pkg');
    expect((await generatePackage(out)).code).toBe(0);
    const pkg = readJson(join(out, 'package.json'));
    writeFileSync(join(out, 'package.json'), JSON.stringify({ ...pkg, version: '1.4.0', license: 'MIT', scripts: { ...(pkg['scripts'] as object), test: 'node --test' } }, null, 2));
    expect((await generatePackage(out)).code).toBe(0);
    expect(readJson(join(out, 'package.json'))).toMatchObject({ version: '1.4.0', license: 'MIT', scripts: { build: 'tsc -p tsconfig.json', test: 'node --test' } });
    const check = await cli(['check', out]);
    expect(check.code, check.out + check.err).toBe(0);
    // --package-version is written as given.
    expect((await generatePackage(out, WEATHER, ['--package-version', '3.0.0-rc.1'])).code).toBe(0);
    expect(readJson(join(out, 'package.json'))['version']).toBe('3.0.0-rc.1');
  });

  it.each([
    ['a tool removed: breaking, major', (m: { tools: Record<string, unknown>[] }) => void m.tools.pop(), '2.0.0'],
    ['a tool added: compatible, minor', (m: { tools: Record<string, unknown>[] }) => void m.tools.push({ name: 'get_alerts', description: 'Alerts.', inputSchema: { type: 'object' } }), '1.5.0'],
    ['a description changed: docs, patch', (m: { tools: Record<string, unknown>[] }) => void ((m.tools[0] as Record<string, unknown>)['description'] = 'Now.'), '1.4.1'],
  ])('bumps the version by the diff of the server surface: %s', async (_, edit, expected) => {
    const out = join(fresh(), 'pkg');
    expect((await generatePackage(out)).code).toBe(0);
    writeFileSync(join(out, 'package.json'), JSON.stringify({ ...readJson(join(out, 'package.json')), version: '1.4.0' }));
    const changed = weatherVariant(edit);
    const run = await generatePackage(out, changed);
    expect(run.code, run.err).toBe(0);
    expect(readJson(join(out, 'package.json'))['version']).toBe(expected);
    expect(run.err).toContain(`1.4.0 → ${expected}`);
    // Once regenerated, the surface on disk is the new one: no second bump.
    expect((await generatePackage(out, changed)).code).toBe(0);
    expect(readJson(join(out, 'package.json'))['version']).toBe(expected);
  });

  it('bumps the minor for a breaking change under 1.0.0', async () => {
    const out = join(fresh(), 'pkg');
    expect((await generatePackage(out)).code).toBe(0);
    expect((await generatePackage(out, weatherVariant((m) => void m.tools.pop()))).code).toBe(0);
    expect(readJson(join(out, 'package.json'))['version']).toBe('0.2.0');
  });

  it('packages a client read from a live HTTP server (--from-url)', async () => {
    const server = spawn(process.execPath, [join(repoRoot, 'bin/mcp-gen.js'), 'mock', WEATHER, '--http', '--port', '0', '--json'], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        server.stdout.setEncoding('utf8');
        server.stdout.once('data', (line: string) => resolve((JSON.parse(line) as { url: string }).url));
        server.once('exit', (code) => reject(new Error(`mock exited ${code}`)));
      });
      const out = join(fresh(), 'pkg');
      const run = await cli(['client', '--from-url', url, '-o', out, '--package', 'weather-http-client']);
      expect(run.code, run.err).toBe(0);
      expect(readJson(join(out, 'package.json'))['name']).toBe('weather-http-client');
      expect(readFileSync(join(out, 'README.md'), 'utf8')).toContain('client.tools.getWeather(');
      expect(existsSync(join(out, '.mcp-gen-snapshot.json'))).toBe(true);
    } finally {
      server.kill();
    }
  });

  it('packages a client read from a live stdio server (--from-command)', async () => {
    const out = join(fresh(), 'pkg');
    const command = `${process.execPath} ${join(repoRoot, 'bin/mcp-gen.js')} mock ${WEATHER}`;
    const run = await cli(['client', '--from-command', command, '-o', out, '--package', '@example/weather']);
    expect(run.code, run.err).toBe(0);
    expect(readJson(join(out, 'package.json'))['name']).toBe('@example/weather');
    expect(readFileSync(join(out, 'README.md'), 'utf8')).toContain('client.tools.getForecast(');
    expect(existsSync(join(out, 'src/client.ts'))).toBe(true);
  });
});
