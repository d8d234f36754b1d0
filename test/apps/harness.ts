/**
 * The apps matrix's machinery: installs the pinned tools (`npm ci --prefix test/apps`, from the npm
 * cache when warm), builds the weather example server and serves it over HTTP on 127.0.0.1,
 * generates the client twice (copied into apps at src/mcp/, and as a `--package` tarball), and runs
 * one app per setup and client variant in `test/apps/.work/`, where the tools resolve from
 * test/apps/node_modules as an app's own devDependencies would.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cli } from '../client/support.js';
import { startHttpServer } from '../matrix/servers.js';
import { packClient, type PackFailure } from '../support/pack-client.js';
import { COLUMNS, type Column, type Setup, type Step, type ToolKey } from './setups.js';

export const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');
export const WORK = join(HERE, '.work');
const MODULES = join(HERE, 'node_modules');
const WEATHER = join(ROOT, 'examples', 'weather');
const SERVER_MAIN = join(WEATHER, 'server', 'build', 'main.js');
export const PACKAGE_NAME = 'weather-client';

/** Each tool's command line, from the pinned install. */
const TOOLS: Record<ToolKey, string[]> = {
  'tsc-5.9': [process.execPath, join(MODULES, 'typescript', 'bin', 'tsc')],
  'tsc-7.0': [process.execPath, join(MODULES, 'typescript-7', 'bin', 'tsc')],
  esbuild: [join(MODULES, 'esbuild', 'bin', 'esbuild')],
  vite: [process.execPath, join(MODULES, 'vite', 'bin', 'vite.js')],
  webpack: [process.execPath, join(MODULES, 'webpack-cli', 'bin', 'cli.js')],
  tsx: [process.execPath, join(MODULES, 'tsx', 'dist', 'cli.mjs')],
  node: [process.execPath],
  'node-22': [join(MODULES, 'node', 'bin', 'node')],
  bun: [join(MODULES, 'bun', 'bin', 'bun.exe')],
  deno: [join(MODULES, 'deno', 'deno')],
};

export type Variant = 'copied' | 'package';
export const VARIANTS: readonly Variant[] = ['copied', 'package'];

export type Outcome = { status: 'ok' } | { status: 'FAIL'; detail: string; output: string } | { status: 'n/a'; reason: string };

export interface Shared {
  /** The copied clients' folders (generated without --package), by their options joined with spaces; or why one failed. */
  clients: Map<string, string | { problem: string }>;
  /** The packed `--package` client, or why there is none. */
  tarball: string | { problem: string };
  url: string;
  stop: () => Promise<void>;
}

interface Ran {
  code: number | null;
  output: string;
}

/** Runs a command with a time limit; never throws. */
export function run(command: readonly string[], cwd: string, env: NodeJS.ProcessEnv = {}, timeoutMs = 180_000): Promise<Ran> {
  return new Promise((resolve) => {
    const [file, ...args] = command as [string, ...string[]];
    const child = spawn(file, args, { cwd, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => {
      output += `\n(killed after ${timeoutMs} ms)`;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('error', (error) => (output += `\n${error.message}`));
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** `npm ci --prefix test/apps` unless every tool is there. */
export function ensureTools(): void {
  const missing = (): string[] => Object.values(TOOLS).map((c) => c[c.length - 1] as string).filter((p) => p !== process.execPath && !existsSync(p));
  if (missing().length === 0) return;
  const result = spawnSync('npm', ['ci', '--prefix', HERE, '--no-audit', '--no-fund', '--prefer-offline'], { stdio: 'inherit' });
  if (result.status !== 0) throw new Error('npm ci --prefix test/apps failed');
  if (missing().length > 0) throw new Error(`still missing after npm ci: ${missing().join(', ')}`);
}

/** The server build, the clients and the HTTP server, shared by every app. */
export async function prepareShared(setups: readonly Setup[]): Promise<Shared> {
  rmSync(WORK, { recursive: true, force: true });
  mkdirSync(WORK, { recursive: true });
  const building = run([process.execPath, join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-b', join(WEATHER, 'server')], ROOT);
  const manifest = join(WEATHER, 'manifest.yaml');
  const clients = new Map<string, string | { problem: string }>();
  for (const options of new Set(setups.map((s) => (s.clientOptions ?? []).join(' ')))) {
    const out = join(WORK, `client${options.replace(/[^a-z0-9]+/gi, '-')}`);
    const copied = await cli(['client', manifest, '-o', out, '--no-version-banner', ...options.split(' ').filter((o) => o !== '')]);
    clients.set(options, copied.code === 0 ? out : { problem: `mcp-gen client ${options} failed: ${firstError(copied.err)}` });
  }
  const tarball = await packClient(manifest, join(WORK, 'package'), PACKAGE_NAME).catch((failure: PackFailure) => ({ problem: `${failure.step} failed: ${firstError(failure.output)}` }));
  const built = await building;
  if (built.code !== 0) throw new Error(`the weather server did not build:\n${built.output}`);
  // The matrix's server starter (its recording proxy in front is harmless here).
  const server = await startHttpServer(SERVER_MAIN, ['--http', '--port', '0']);
  return { clients, tarball, url: server.url, stop: () => server.close() };
}

/** The line that says what went wrong: the first naming an error, else the last one. */
export function firstError(output: string): string {
  const lines = output.replace(/\x1b\[[0-9;]*m/g, '').split('\n').map((l) => l.trim()).filter((l) => l !== '');
  // A compiler's or bundler's own error line first (`error TS2322`, `[UNRESOLVED_IMPORT]`, `Error [ERR_…]`), then any line that sounds like one.
  const line =
    lines.find((l) => /error TS\d+|TS\d+ \[ERROR\]|^\[[A-Z_]+\]|^error:|^\w*Error\b.*:/.test(l)) ??
    lines.find((l) => /error|cannot|not found|failed|unexpected|killed/i.test(l)) ??
    lines[lines.length - 1] ??
    '(no output)';
  return line.length > 200 ? `${line.slice(0, 197)}…` : line;
}

/** Creates the app, then runs its typecheck, build and run; one outcome per column. */
export async function runApp(setup: Setup, variant: Variant, shared: Shared): Promise<Record<Column, Outcome>> {
  const dir = join(WORK, 'apps', `${setup.id}-${variant}`);
  const made = await makeApp(setup, variant, shared, dir);
  const outcomes = {} as Record<Column, Outcome>;
  const env = { APP_SERVER_NODE: process.execPath, APP_SERVER_MAIN: SERVER_MAIN, APP_SERVER_URL: shared.url, DENO_NO_UPDATE_CHECK: '1', DENO_NO_PROMPT: '1' };
  for (const column of COLUMNS) {
    const step: Step = setup.steps[column];
    if ('notApplicable' in step) outcomes[column] = { status: 'n/a', reason: step.notApplicable };
    else if (made !== undefined) outcomes[column] = { status: 'FAIL', detail: made, output: made };
    else if (column === 'run' && outcomes.build.status === 'FAIL') outcomes[column] = { status: 'FAIL', detail: 'not built (the build failed)', output: '' };
    else {
      const ran = await run([...TOOLS[step.tool], ...step.args], dir, env);
      const passed = ran.code === 0 && (column !== 'run' || ran.output.includes('APP OK'));
      // Paths inside the app read as the user sees them: relative to its folder.
      const output = ran.output.replaceAll(`file://${dir}/`, '').replaceAll(`${dir}/`, '');
      outcomes[column] = passed ? { status: 'ok' } : { status: 'FAIL', detail: firstError(output), output };
    }
  }
  return outcomes;
}

/** The app's folder as a user would have it; undefined, or what went wrong. */
async function makeApp(setup: Setup, variant: Variant, shared: Shared, dir: string): Promise<string | undefined> {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'src'), { recursive: true });
  if (setup.init) {
    const init = await run([...TOOLS[setup.init.tool], ...setup.init.args], dir);
    if (init.code !== 0) return `${setup.init.args.join(' ')} failed: ${firstError(init.output)}`;
    const path = join(dir, setup.init.file);
    writeFileSync(path, setup.init.edit(setup.init.file, readFileSync(path, 'utf8')));
  }
  for (const [name, text] of Object.entries(setup.files)) writeFileSync(join(dir, name), text);
  const specifier = variant === 'copied' ? setup.copiedSpecifier : PACKAGE_NAME;
  const main = readFileSync(join(HERE, 'app', `${setup.app}-main.ts`), 'utf8').replace("'__CLIENT__'", `'${specifier}'`);
  writeFileSync(join(dir, 'src', 'main.ts'), main);
  if (variant === 'copied') {
    const client = shared.clients.get((setup.clientOptions ?? []).join(' ')) ?? { problem: 'no client generated' };
    if (typeof client !== 'string') return client.problem;
    // As a user copies it in: the generated files, without mcp-gen's ledger and cache.
    cpSync(client, join(dir, 'src', 'mcp'), { recursive: true, filter: (source) => !source.split(/[\\/]/).pop()?.startsWith('.mcp-gen-') });
    return setup.install ? npmInstall(dir, setup.install) : undefined;
  }
  if (typeof shared.tarball !== 'string') return shared.tarball.problem;
  return npmInstall(dir, [shared.tarball, ...(setup.install ?? [])]);
}

async function npmInstall(dir: string, specs: readonly string[]): Promise<string | undefined> {
  const installed = await run(['npm', 'install', ...specs, '--no-audit', '--no-fund', '--prefer-offline', '--no-package-lock'], dir);
  return installed.code === 0 ? undefined : `npm install ${specs.join(' ')} failed: ${firstError(installed.output)}`;
}

/** Runs `jobs` with at most `limit` at a time (the machine has two cores). */
export async function pool<T>(jobs: readonly (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results: T[] = new Array<T>(jobs.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < jobs.length) {
      const index = next++;
      results[index] = await (jobs[index] as () => Promise<T>)();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, jobs.length) }, worker));
  return results;
}
