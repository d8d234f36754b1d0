/**
 * Generated code lives in the user's app, under the user's tsconfig: the weather server and client
 * and a client of the hostile fixture server, imported by a tiny app that calls a tool with a typed
 * result, type-check under each common setting (the `tsc --init` of TypeScript 5.9 and 7.0, `strict`
 * alone, the strictest common set, nodenext / node16 / bundler, skipLibCheck off) with TypeScript
 * 5.0 (the oldest supported), 5.9 and 7.0, with no flag added for mcp-gen's sake. Then the app is
 * built by `tsc` to an outDir and run (the validators must reach build/), and the same app generated
 * with `--import-extension ts` runs under Node 22's type stripping, which also refuses any syntax
 * that is not erasable.
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const modules = join(repo, 'node_modules');
const NODE22 = join(repo, 'conformance', 'node_modules', 'node', 'bin', 'node');
/** TypeScript 5.0 and 7.0 live in test/compilers (each alias ships a `tsc` binary of its own). */
const COMPILERS = join(repo, 'test', 'compilers');
const releases = join(COMPILERS, 'node_modules');

/** Each TypeScript release, by its `tsc` (the 7.0 native compiler is a binary of its own). */
const TSC: Record<string, string[]> = {
  '5.0': [process.execPath, join(releases, 'typescript-5.0', 'bin', 'tsc')],
  '5.9': [process.execPath, join(modules, 'typescript', 'bin', 'tsc')],
  '7.0': [join(releases, 'typescript-7', 'bin', 'tsc')],
};

const strict = { strict: true, module: 'nodenext', target: 'es2022' };
const strictest = {
  ...strict,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  noPropertyAccessFromIndexSignature: true,
  noImplicitOverride: true,
  verbatimModuleSyntax: true,
  isolatedModules: true,
  noUnusedLocals: true,
  noUnusedParameters: true,
};
/** skipLibCheck is off in `strict` (its default); the others skip @types/node to save time (our code has no .d.ts). */
const VARIANTS: Record<string, object> = {
  strict,
  strictest: { ...strictest, erasableSyntaxOnly: true, skipLibCheck: true },
  node16: { ...strict, module: 'node16', skipLibCheck: true },
  bundler: { ...strict, module: 'esnext', moduleResolution: 'bundler', skipLibCheck: true },
};
/** TypeScript 5.0 knows no erasableSyntaxOnly (5.8); its own `tsc --init` targets CommonJS ES2016 (see docs/generated-code.md). */
const OLDEST: Record<string, object> = { strict, strictest: { ...strictest, skipLibCheck: true }, node16: VARIANTS['node16'] as object, bundler: VARIANTS['bundler'] as object };

const APP = `import { connect, ToolError } from './client/client.js';
import { connect as connectHostile } from './hostile/client.js';

export type Hostile = Awaited<ReturnType<typeof connectHostile>>;

const server = process.argv[2] ?? 'server/main.js';
const client = await connect({ command: process.execPath, args: [server] });
try {
  const now = await client.tools.getWeather({ location: 'Lisbon' });
  const temperature: number = now.temperature;
  console.log('unexpected', temperature);
} catch (error) {
  // The handler stub answers isError: the call went through the server's validators.
  console.log(error instanceof ToolError ? 'tool error' : \`other: \${String(error)}\`);
}
await client.close();
`;

let root: string;
let app: string;

function mcpGen(args: string[]): void {
  execFileSync(process.execPath, [join(repo, 'bin', 'mcp-gen.js'), ...args, '-q'], { cwd: repo, stdio: 'pipe' });
}

/** A folder with only what an app of the generated code installs: @types/node, and jose for the weather server's auth. */
function appFolder(name: string): string {
  const dir = join(root, name);
  mkdirSync(join(dir, 'node_modules', '@types'), { recursive: true });
  symlinkSync(join(modules, '@types', 'node'), join(dir, 'node_modules', '@types', 'node'));
  symlinkSync(join(modules, 'jose'), join(dir, 'node_modules', 'jose'));
  writeFileSync(join(dir, 'package.json'), '{ "private": true, "type": "module" }\n');
  return dir;
}

function generateInto(dir: string, extra: string[]): void {
  mcpGen(['server', 'examples/weather/manifest.yaml', '-o', join(dir, 'server'), ...extra]);
  mcpGen(['client', 'examples/weather/manifest.yaml', '-o', join(dir, 'client'), ...extra]);
  mcpGen(['client', 'test/fixtures/server/hostile/manifest.yaml', '-o', join(dir, 'hostile'), ...extra]);
  // The app's own tsconfig decides: the server's project files are not used.
  rmSync(join(dir, 'server', 'tsconfig.json'));
  rmSync(join(dir, 'server', 'package.json'));
}

async function tsc(version: string, args: string[], cwd: string): Promise<string> {
  const [command, ...prefix] = TSC[version] as string[];
  try {
    await run(command as string, [...prefix, ...args], { cwd, maxBuffer: 64 * 1024 * 1024 });
    return '';
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    return `${e.stdout ?? ''}${e.stderr ?? ''}` || e.message;
  }
}

/** Runs the jobs two at a time (the machine's cores), in order of the list. */
async function twoAtATime<T>(jobs: (() => Promise<T>)[]): Promise<T[]> {
  const results: T[] = new Array(jobs.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < jobs.length) {
      const i = next++;
      results[i] = await (jobs[i] as () => Promise<T>)();
    }
  };
  await Promise.all([worker(), worker()]);
  return results;
}

beforeAll(() => {
  if (!existsSync(join(releases, 'typescript-5.0')) || !existsSync(join(releases, 'typescript-7'))) {
    execFileSync('npm', ['ci', '--prefix', COMPILERS, '--no-audit', '--no-fund'], { stdio: 'pipe' });
  }
  root = mkdtempSync(join(tmpdir(), 'mcp-gen-user-tsconfig-'));
  app = appFolder('app');
  generateInto(app, []);
  writeFileSync(join(app, 'main.ts'), APP);
}, 120_000);

afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('generated code under the user tsconfig', () => {
  it('type-checks under every setting with TypeScript 5.0, 5.9 and 7.0', async () => {
    const jobs: { name: string; version: string; config: string }[] = [];
    for (const version of ['5.9', '7.0']) {
      // That release's own `tsc --init`, as it writes it (5.9 on: nodenext, esnext, `types: []`).
      const initDir = join(root, `init-${version}`);
      mkdirSync(initDir);
      expect(await tsc(version, ['--init'], initDir)).toBe('');
      const config = `tsconfig.init-${version}.json`;
      writeFileSync(join(app, config), readFileSync(join(initDir, 'tsconfig.json')));
      jobs.push({ name: `init`, version, config });
    }
    for (const [version, variants] of [['5.9', VARIANTS], ['7.0', VARIANTS], ['5.0', OLDEST]] as const) {
      for (const [name, options] of Object.entries(variants)) {
        const config = `tsconfig.${name}.json`;
        writeFileSync(join(app, config), JSON.stringify({ compilerOptions: options, include: ['**/*.ts'], exclude: ['build', 'node_modules'] }));
        jobs.push({ name, version, config });
      }
    }
    const outputs = await twoAtATime(jobs.map((job) => () => tsc(job.version, ['-p', job.config, '--noEmit'], app)));
    const failures = jobs.map((job, i) => [`TypeScript ${job.version} ${job.name}`, outputs[i] as string] as const).filter(([, out]) => out !== '');
    expect(failures.map(([name, out]) => `${name}:\n${out.split('\n').slice(0, 12).join('\n')}`).join('\n\n')).toBe('');
    expect(jobs.length).toBe(14);
  }, 600_000);

  it('runs after tsc builds it to an outDir: the validators reach build/ with no tsconfig change', async () => {
    const config = { compilerOptions: { ...strict, outDir: 'build', rootDir: '.' }, include: ['**/*.ts'], exclude: ['build', 'node_modules'] };
    writeFileSync(join(app, 'tsconfig.build.json'), JSON.stringify(config));
    expect(await tsc('5.9', ['-p', 'tsconfig.build.json'], app)).toBe('');
    expect(existsSync(join(app, 'build', 'client', 'validators.js'))).toBe(true);
    expect(existsSync(join(app, 'build', 'server', 'generated', 'validators', 'getWeather.js'))).toBe(true);
    const { stdout } = await run(process.execPath, [join(app, 'build', 'main.js'), join(app, 'build', 'server', 'main.js')], { cwd: app, timeout: 60_000 });
    expect(stdout.trim()).toBe('tool error');
  }, 120_000);

  it('runs as TypeScript under Node 22 type stripping with --import-extension ts', async () => {
    if (!existsSync(NODE22)) execFileSync('npm', ['ci', '--prefix', join(repo, 'conformance'), '--no-audit', '--no-fund'], { stdio: 'pipe' });
    const tsApp = appFolder('ts-app');
    generateInto(tsApp, ['--import-extension', 'ts']);
    writeFileSync(join(tsApp, 'main.ts'), APP.replaceAll("client.js'", "client.ts'"));
    // Every relative specifier of the generated code names the .ts file.
    const clientText = readFileSync(join(tsApp, 'client', 'client.ts'), 'utf8');
    expect(clientText).toContain("from './runtime/client/index.ts'");
    expect(clientText).not.toMatch(/from '\.\.?\/[^']*\.js'/);
    const { stdout } = await run(NODE22, ['--experimental-strip-types', '--no-warnings', 'main.ts', 'server/main.ts'], { cwd: tsApp, timeout: 60_000 });
    expect(stdout.trim()).toBe('tool error');
  }, 180_000);
});
