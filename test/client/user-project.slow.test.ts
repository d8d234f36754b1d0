/**
 * The client copied into the project a new user actually has, made by the tools' own commands:
 * npm 11's `npm init -y` ("type": "commonjs") with TypeScript 5.9's `tsc --init` (nodenext,
 * verbatimModuleSyntax, `types: []`, no outDir) and no @types/node; and Deno's layout, a deno.json
 * and no package.json. Generation names the command each needs; once run, tsc compiles the client,
 * its JavaScript lands beside the generated files (no outDir), and `mcp-gen check` tells that
 * compiled output apart from stray files. `deno check` takes an `--import-extension ts` client as
 * it is. Slow tier: real npm, tsc and Deno processes (Deno from test/apps' pinned install).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureTools, HERE as APPS } from '../apps/harness.js';
import { tempDir } from '../server/support.js';
import { repoRoot } from './support.js';

const exec = promisify(execFile);
const root = tempDir('user-project');
const MANIFEST = join(repoRoot, 'examples', 'weather', 'manifest.yaml');
const TSC = join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');

afterAll(() => rmSync(root, { recursive: true, force: true }));

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** A command in the project's folder, as the user types it; never throws. */
async function run(file: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<Ran> {
  try {
    const { stdout, stderr } = await exec(file, args, { cwd, env: { ...process.env, NO_COLOR: '1', ...env }, maxBuffer: 64 * 1024 * 1024, timeout: 180_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

/** `mcp-gen …` run from the project's folder, so its notes name paths as the user sees them. */
const mcpGen = (cwd: string, args: string[]): Promise<Ran> => run(process.execPath, [join(repoRoot, 'bin', 'mcp-gen.js'), ...args], cwd);
const notes = (stderr: string): string[] => stderr.split('\n').filter((line) => line.startsWith('note:'));

const MAIN_TS = (specifier: string): string => `import { connect } from '${specifier}';

export async function weather(): Promise<number> {
  const client = await connect({ url: 'http://127.0.0.1:3000/mcp' });
  const now = await client.tools.getWeather({ location: 'Lisbon' });
  await client.close();
  return now.temperature;
}
`;

describe('npm init -y and tsc --init (TypeScript 5.9)', () => {
  const app = join(root, 'node-app');

  it('is told the two commands at generation; with them run, tsc compiles the client', async () => {
    mkdirSync(join(app, 'src'), { recursive: true });
    expect((await run('npm', ['init', '-y'], app)).code).toBe(0);
    // The premise: npm 11 writes "type": "commonjs".
    expect(JSON.parse(readFileSync(join(app, 'package.json'), 'utf8')).type).toBe('commonjs');
    expect((await run(process.execPath, [TSC, '--init'], app)).code).toBe(0);
    writeFileSync(join(app, 'src', 'main.ts'), MAIN_TS('./mcp/client.js'));

    const generated = await mcpGen(app, ['client', MANIFEST, '-o', 'src/mcp', '--no-version-banner']);
    expect(generated.code, generated.stderr).toBe(0);
    // Soft: the steps below run either way, so the check test after this one sees the built project.
    expect.soft(notes(generated.stderr)).toEqual([
      'note: package.json has "type": "commonjs" and tsconfig.json sets verbatimModuleSyntax, so tsc refuses the ESM client in src/mcp (TS1295): run `npm pkg set type=module`',
      'note: the client in src/mcp imports node:* modules, whose types are not installed here (TS2688, TS2307): run `npm install --save-dev @types/node`',
    ]);
    // What the notes are about.
    const before = await run(process.execPath, [TSC, '--noEmit'], app);
    expect(before.stdout).toMatch(/error TS1295/);
    expect(before.stdout).toMatch(/error TS2688: Cannot find type definition file for 'node'/);

    // The two commands (@types/node pinned as this repository pins it, from the npm cache).
    expect((await run('npm', ['pkg', 'set', 'type=module'], app)).code).toBe(0);
    const installed = await run('npm', ['install', '--save-dev', '@types/node@20.19.43', '--prefer-offline', '--no-audit', '--no-fund'], app);
    expect(installed.code, installed.stderr).toBe(0);
    const again = await mcpGen(app, ['client', MANIFEST, '-o', 'src/mcp', '--no-version-banner']);
    expect(again.code, again.stderr).toBe(0);
    expect.soft(notes(again.stderr)).toEqual([]);

    // tsc --init's config as it is: no outDir, so the JavaScript lands beside the sources.
    const built = await run(process.execPath, [TSC], app);
    expect(built.stdout + built.stderr).toBe('');
    expect(readFileSync(join(app, 'src', 'mcp', 'client.js'), 'utf8')).toContain('export');
  }, 300_000);

  it('mcp-gen check lists tsc\'s output beside the generated files apart, and still flags a stray file', async () => {
    const checked = await mcpGen(app, ['check', 'src/mcp']);
    expect(checked.code, checked.stderr).toBe(0);
    expect(checked.stdout.trim()).toBe('src/mcp: up to date.');
    expect(checked.stderr).not.toMatch(/^extra:/m);
    expect(checked.stderr).toMatch(/^compiled output: src\/mcp\/\S+ and \d+ more, tsc's from the generated \.ts files \(not checked; an "outDir" in tsconfig\.json builds elsewhere\)$/m);
    const json = JSON.parse((await mcpGen(app, ['check', 'src/mcp', '--json'])).stdout) as { outputs: { compiled: string[]; extra: string[] }[] };
    const compiled = json.outputs[0]?.compiled ?? [];
    expect(compiled).toEqual(expect.arrayContaining(['client.js', 'client.js.map', 'client.d.ts', 'client.d.ts.map', 'runtime/client/connect.js']));
    expect(json.outputs[0]?.extra).toEqual([]);

    // A file tsc did not write from a generated one stays a stray file: x.js with no x.ts beside it.
    writeFileSync(join(app, 'src', 'mcp', 'helper.js'), 'export const x = 1;\n');
    const stray = await mcpGen(app, ['check', 'src/mcp']);
    expect(stray.code).toBe(1);
    expect(stray.stderr.split('\n').filter((line) => line.startsWith('extra:'))).toEqual(['extra: src/mcp/helper.js']);
  }, 120_000);
});

describe("Deno's layout: a deno.json and no package.json", () => {
  const app = join(root, 'deno-app');
  const DENO = join(APPS, 'node_modules', 'deno', 'deno');
  const denoEnv = { DENO_DIR: join(root, 'deno-cache'), DENO_NO_UPDATE_CHECK: '1', DENO_NO_PROMPT: '1' };

  it('is told to use --import-extension ts, and deno check takes that client as it is', async () => {
    ensureTools();
    mkdirSync(join(app, 'src'), { recursive: true });
    writeFileSync(join(app, 'deno.json'), '{}\n');
    writeFileSync(join(app, 'src', 'main.ts'), MAIN_TS('./mcp/client.ts'));

    const js = await mcpGen(app, ['client', MANIFEST, '-o', 'src/mcp', '--no-version-banner']);
    expect(js.code, js.stderr).toBe(0);
    expect.soft(notes(js.stderr)).toHaveLength(1);
    expect.soft(notes(js.stderr)[0]).toMatch(/^note: deno\.json makes src\/mcp part of a Deno project, whose imports must name the \.ts files: run `mcp-gen client \S+manifest\.yaml -o src\/mcp --import-extension ts --no-version-banner`$/);

    const ts = await mcpGen(app, ['client', MANIFEST, '-o', 'src/mcp', '--import-extension', 'ts', '--no-version-banner']);
    expect(ts.code, ts.stderr).toBe(0);
    expect.soft(notes(ts.stderr)).toEqual([]);
    const checked = await run(DENO, ['check', 'src/main.ts'], app, denoEnv);
    expect(checked.code, `${checked.stdout}${checked.stderr}`).toBe(0);
  }, 300_000);
});
