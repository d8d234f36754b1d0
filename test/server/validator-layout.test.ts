// Issue 42 item 3: a server's tool validators as JavaScript beside their declarations
// (src/emit/validators/module-layout.ts), found through the project's package.json `imports`.
// Through the real CLI into fresh folders: the files and the package.json entry; tsc type-checks
// the project under its own strict tsconfig and under a loose one, emits none of ajv's code, and
// the build answers a tool call with its validators (and so does the source, under esbuild's
// bundle); a folder inside another package and a project made before keep TypeScript validators
// (with many tools, a note says how to switch), and the switch is never taken for a no-op.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot, tempDir } from './support.js';

const work = tempDir('validator-layout');
afterAll(() => rmSync(work, { recursive: true, force: true }));
const manifest = join(repoRoot, 'examples', 'weather', 'manifest.yaml');
const tsc = join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');

function mcpGen(out: string): { status: number | null; stderr: string; stdout: string } {
  const ran = spawnSync(process.execPath, [join(repoRoot, 'bin', 'mcp-gen.js'), 'server', manifest, '-o', out, '--no-version-banner'], { encoding: 'utf8' });
  return { status: ran.status, stderr: ran.stderr, stdout: ran.stdout };
}

function files(dir: string): string[] {
  return (readdirSync(dir, { recursive: true, encoding: 'utf8' }) as string[]).map((p) => p.split('\\').join('/')).sort();
}

/** initialize, then get_weather with bad and good arguments, over stdio; the answers by id. */
function callTools(command: string[], cwd: string): Map<number, Record<string, any>> {
  const lines = [
    { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_weather', arguments: { location: '' } } },
    { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'get_weather', arguments: { location: 'Lisbon' } } },
  ];
  const ran = spawnSync(process.execPath, command, { cwd, input: lines.map((l) => JSON.stringify(l)).join('\n') + '\n', encoding: 'utf8', timeout: 30_000 });
  const answers = new Map<number, Record<string, any>>();
  for (const line of ran.stdout.split('\n').filter(Boolean)) {
    const message = JSON.parse(line) as Record<string, any>;
    if (typeof message['id'] === 'number') answers.set(message['id'], message);
  }
  return answers;
}

function expectValidated(answers: Map<number, Record<string, any>>): void {
  // Refused by get_weather's input validator, loaded on this first call.
  expect(answers.get(2)?.['result']?.content?.[0]?.text).toMatch(/^Invalid arguments for tool get_weather: \/location must NOT have fewer than 1 characters/);
  // Valid arguments reach the skeleton handler.
  expect(answers.get(3)?.['result']?.content?.[0]?.text).toContain('get_weather is not implemented yet');
}

describe('a new server project', () => {
  const out = join(work, 'fresh');

  it('writes its tools\' validators as .js and .d.ts, and package.json maps them', () => {
    const ran = mcpGen(out);
    expect(ran.status, ran.stderr).toBe(0);
    expect(ran.stdout + ran.stderr).not.toContain('validators are TypeScript');
    const generated = files(join(out, 'generated')).filter((p) => p.startsWith('validator'));
    expect(generated).toEqual([
      'validator-helpers.d.ts',
      'validator-helpers.js',
      'validators',
      'validators.ts',
      'validators/climateReport.d.ts',
      'validators/climateReport.js',
      'validators/getForecast.d.ts',
      'validators/getForecast.js',
      'validators/getWeather.d.ts',
      'validators/getWeather.js',
    ]);
    const pkg = JSON.parse(readFileSync(join(out, 'package.json'), 'utf8')) as { imports?: unknown };
    expect(pkg.imports).toEqual({ '#generated/validators/*': './generated/validators/*' });
    expect(readFileSync(join(out, 'generated', 'server.ts'), 'utf8')).toContain("import('#generated/validators/getWeather.js')");
    const dts = readFileSync(join(out, 'generated', 'validators', 'getWeather.d.ts'), 'utf8');
    expect(dts).toContain('export declare const validateGetWeatherInput: Validator<Types.GetWeatherInput>;');
    const js = readFileSync(join(out, 'generated', 'validators', 'getWeather.js'), 'utf8');
    expect(js).not.toMatch(/@ts-nocheck|import type|: \[Validator/);
  });

  it('type-checks under its own tsconfig, builds without ajv\'s code, and the build validates', () => {
    symlinkSync(join(repoRoot, 'node_modules'), join(out, 'node_modules'), 'dir');
    const built = spawnSync(process.execPath, [tsc, '-b', out], { encoding: 'utf8' });
    expect(built.stdout + built.stderr).toBe('');
    expect(built.status).toBe(0);
    expect(existsSync(join(out, 'build', 'generated', 'server.js'))).toBe(true);
    // Read from generated/ by the imports entry: tsc wrote no copy.
    expect(existsSync(join(out, 'build', 'generated', 'validators'))).toBe(false);
    expectValidated(callTools([join(out, 'build', 'main.js')], out));
  }, 120_000);

  it('type-checks under a tsconfig without the strict extras most apps have', () => {
    const loose = { compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, types: ['node'], noEmit: true }, include: ['**/*.ts'], exclude: ['build', 'node_modules'] };
    writeFileSync(join(out, 'tsconfig.loose.json'), JSON.stringify(loose));
    const checked = spawnSync(process.execPath, [tsc, '-p', join(out, 'tsconfig.loose.json')], { encoding: 'utf8' });
    expect(checked.stdout + checked.stderr).toBe('');
    expect(checked.status).toBe(0);
  }, 120_000);

  it('bundles with its recipe, which resolves the imports entry', () => {
    const bundled = spawnSync(process.execPath, [join(out, 'generated', 'bundle.mjs')], { cwd: out, encoding: 'utf8' });
    expect(bundled.status, bundled.stderr).toBe(0);
    expectValidated(callTools([join(out, 'dist', 'server.mjs')], out));
  }, 120_000);
});

describe('a server folder inside another package (an app that builds it with its own tsconfig)', () => {
  it('gets TypeScript validators and a package.json without the entry', () => {
    const app = join(work, 'app');
    mkdirSync(app, { recursive: true });
    writeFileSync(join(app, 'package.json'), '{ "private": true, "type": "module" }\n');
    const out = join(app, 'server');
    const ran = mcpGen(out);
    expect(ran.status, ran.stderr).toBe(0);
    expect(files(join(out, 'generated', 'validators'))).toEqual(['climateReport.ts', 'getForecast.ts', 'getWeather.ts']);
    expect((JSON.parse(readFileSync(join(out, 'package.json'), 'utf8')) as { imports?: unknown }).imports).toBeUndefined();
    // A few tools: no note about the layout.
    expect(ran.stdout + ran.stderr).not.toContain('validators are TypeScript');
  });
});

describe('a project made before, whose package.json has no imports entry', () => {
  const out = join(work, 'older');

  it('keeps TypeScript validators; the entry added switches them, and taking it out switches back (never a no-op)', () => {
    const first = mcpGen(out);
    expect(first.status, first.stderr).toBe(0);
    // As a project from before: its package.json without the entry.
    const pkgPath = join(out, 'package.json');
    const pkg = JSON.parse(readFileSync(pkgPath, 'utf8')) as Record<string, unknown>;
    delete pkg['imports'];
    writeFileSync(pkgPath, JSON.stringify(pkg, null, 2));
    const older = mcpGen(out);
    expect(older.status, older.stderr).toBe(0);
    expect(files(join(out, 'generated', 'validators'))).toEqual(['climateReport.ts', 'getForecast.ts', 'getWeather.ts']);
    expect(readFileSync(join(out, 'generated', 'server.ts'), 'utf8')).toContain("import('./validators/getWeather.js')");
    // Run again with nothing changed: the same layout.
    mcpGen(out);
    expect(files(join(out, 'generated', 'validators'))).toEqual(['climateReport.ts', 'getForecast.ts', 'getWeather.ts']);

    // The entry added by hand: the next run writes JavaScript and deletes the TypeScript modules.
    writeFileSync(pkgPath, JSON.stringify({ ...pkg, imports: { '#generated/validators/*': './generated/validators/*' } }, null, 2));
    const switched = mcpGen(out);
    expect(switched.status, switched.stderr).toBe(0);
    expect(files(join(out, 'generated', 'validators'))).toEqual([
      'climateReport.d.ts',
      'climateReport.js',
      'getForecast.d.ts',
      'getForecast.js',
      'getWeather.d.ts',
      'getWeather.js',
    ]);
    expect(existsSync(join(out, 'generated', 'validator-helpers.ts'))).toBe(false);

    // And taken out again: back to TypeScript, not a no-op.
    writeFileSync(pkgPath, JSON.stringify(pkg, null, 2));
    mcpGen(out);
    expect(files(join(out, 'generated', 'validators'))).toEqual(['climateReport.ts', 'getForecast.ts', 'getWeather.ts']);
  }, 120_000);

  it('with 100 tools or more, says how to switch', () => {
    const dir = join(work, 'many');
    mkdirSync(dir, { recursive: true });
    const tools = Array.from({ length: 100 }, (_, i) => `  - name: tool_${i}\n    description: Tool ${i}.\n    inputSchema:\n      type: object\n      properties:\n        n: { type: integer }\n`).join('');
    writeFileSync(join(dir, 'manifest.yaml'), `server:\n  name: many\n  version: 1.0.0\ntools:\n${tools}`);
    writeFileSync(join(dir, 'package.json'), '{ "name": "many", "type": "module" }\n');
    const ran = spawnSync(process.execPath, [join(repoRoot, 'bin', 'mcp-gen.js'), 'server', join(dir, 'manifest.yaml'), '-o', dir, '--no-version-banner'], { encoding: 'utf8' });
    expect(ran.status, ran.stderr).toBe(0);
    expect(ran.stdout + ran.stderr).toContain('add "imports": { "#generated/validators/*": "./generated/validators/*" } to its package.json');
  }, 120_000);
});
