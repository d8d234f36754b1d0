/**
 * Shared helpers of the server-emitter tests: the runtime sources the CLI would pass, planning a
 * manifest through the real writer, the one golden comparison, and a strict tsc program.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, symlinkSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { expect } from 'vitest';
import { planServer, type ServerPlan } from '../../src/emit/server/index.js';
import { readRuntimeSources } from '../../src/pipeline/server.js';
import { defaultSpecDir } from '../../src/pipeline/paths.js';
import { loadManifest } from '../../src/pipeline/manifest.js';
import type { ServiceModel } from '../../src/model/service-model.js';
import { writeOutput, type WriteReport } from '../../src/write/writer.js';
import { STRICT_OPTIONS as STRICT_TYPES_OPTIONS } from '../types/helpers.js';
import { shipValidators } from '../support/ship-validators.js';

export { shipValidators };

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const specDir = defaultSpecDir();

let cachedRuntime: Record<string, string> | undefined;

/** What the CLI passes as `runtimeSources`, read once per test file. */
export function runtimeSources(): Record<string, string> {
  cachedRuntime ??= readRuntimeSources();
  return cachedRuntime;
}

export async function loadModel(manifest: string): Promise<ServiceModel> {
  return (await loadManifest(manifest, { displayPath: relative(repoRoot, manifest) })).model;
}

export function plan(model: ServiceModel): Promise<ServerPlan> {
  return planServer(model, { runtimeSources: runtimeSources() });
}

/** Writes a plan the way `mcp-gen server --no-version-banner` does. */
export function write(dir: string, serverPlan: ServerPlan, manifest: string, options: { check?: boolean; force?: boolean } = {}): Promise<WriteReport> {
  return writeOutput(dir, serverPlan.files, {
    banner: { command: `mcp-gen server ${relative(repoRoot, manifest).split('\\').join('/')}` },
    ...options,
  });
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `mcp-gen-${prefix}-`));
}

/** Every file under `dir`, as posix paths relative to it, sorted; `skip` leaves folders out. */
export function listFiles(dir: string, skip: (path: string) => boolean = () => false): string[] {
  const out: string[] = [];
  const walk = (sub: string): void => {
    for (const entry of readdirSync(join(dir, sub), { withFileTypes: true })) {
      const path = sub === '' ? entry.name : `${sub}/${entry.name}`;
      if (skip(path)) continue;
      if (entry.isDirectory()) walk(path);
      else out.push(path);
    }
  };
  if (existsSync(dir)) walk('');
  return out.sort();
}

/**
 * Goldens hold what the emitter writes, not the runtime copy (compared with its sources instead)
 * nor the writer's ledger (which hashes that copy): a runtime change must not churn every golden.
 */
export const notInGolden = (path: string): boolean => path === 'generated/runtime' || path === '.mcp-gen-ledger.json';

/**
 * THE golden comparison: every file of `actualDir` (but those `notInGolden` skips) against
 * test/golden/server/<name>/, byte for byte, listing missing and extra files too.
 * `UPDATE_GOLDENS=1` rewrites the golden folder instead.
 */
export function expectGolden(name: string, actualDir: string): void {
  const goldenDir = join(repoRoot, 'test', 'golden', 'server', name);
  const actual = listFiles(actualDir, notInGolden);
  if (process.env['UPDATE_GOLDENS'] === '1') {
    rmSync(goldenDir, { recursive: true, force: true });
    for (const path of actual) {
      mkdirSync(dirname(join(goldenDir, path)), { recursive: true });
      writeFileSync(join(goldenDir, path), readFileSync(join(actualDir, path)));
    }
    return;
  }
  const expected = listFiles(goldenDir);
  expect(actual, `files of golden ${name} (UPDATE_GOLDENS=1 to accept)`).toEqual(expected);
  for (const path of actual) {
    const got = readFileSync(join(actualDir, path), 'utf8');
    const want = readFileSync(join(goldenDir, path), 'utf8');
    expect(got, `${name}/${path} differs from its golden (UPDATE_GOLDENS=1 to accept)`).toBe(want);
  }
}

/** The strict flags protocol types are checked with, plus @types/node: server code uses node:*. */
const STRICT_OPTIONS: ts.CompilerOptions = {
  ...STRICT_TYPES_OPTIONS,
  types: ['node'],
  typeRoots: [join(repoRoot, 'node_modules', '@types')],
};

const parsed = new Map<string, { text: string; sourceFile: ts.SourceFile }>();

/** Type-checks the TypeScript files of several projects in one program; returns formatted diagnostics. */
export function typeCheck(projectDirs: readonly string[], extraFiles: Record<string, string> = {}): string[] {
  const rootNames: string[] = [];
  for (const dir of projectDirs) {
    linkPackages(dir);
    for (const path of listFiles(dir, (p) => p === 'build' || p === 'node_modules')) {
      if (path.endsWith('.ts')) rootNames.push(join(dir, path));
    }
  }
  const host = ts.createCompilerHost(STRICT_OPTIONS);
  // Parsed files are kept between calls (lib and @types/node dominate the time of a small program).
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (file, languageVersion, onError) => {
    const text = extraFiles[file] ?? ts.sys.readFile(file);
    if (text === undefined) return getSourceFile(file, languageVersion, onError);
    const cached = parsed.get(file);
    if (cached && cached.text === text) return cached.sourceFile;
    const sourceFile = ts.createSourceFile(file, text, languageVersion);
    parsed.set(file, { text, sourceFile });
    return sourceFile;
  };
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  host.readFile = (file) => extraFiles[file] ?? readFile(file);
  host.fileExists = (file) => file in extraFiles || fileExists(file);
  const directoryExists = host.directoryExists?.bind(host);
  host.directoryExists = (dir) =>
    Object.keys(extraFiles).some((file) => file.startsWith(`${dir}/`)) || (directoryExists ? directoryExists(dir) : true);
  const program = ts.createProgram([...rootNames, ...Object.keys(extraFiles)], STRICT_OPTIONS, host);
  const diagnostics = ts.getPreEmitDiagnostics(program);
  return diagnostics.map((d) => {
    const message = ts.flattenDiagnosticMessageText(d.messageText, '\n');
    if (!d.file || d.start === undefined) return `TS${d.code}: ${message}`;
    const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
    return `${d.file.fileName}:${line + 1}:${character + 1}: TS${d.code}: ${message}`;
  });
}

const tsc = join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');

/**
 * A project copied outside the repository finds the packages its manifest's features need (jose,
 * for `auth`) through a `node_modules` link to the repository's, as `npm install` would give it.
 */
function linkPackages(project: string): void {
  if (relative(repoRoot, project).startsWith('..') && !existsSync(join(project, 'node_modules'))) {
    symlinkSync(join(repoRoot, 'node_modules'), join(project, 'node_modules'), 'dir');
  }
}

/**
 * Builds a project with its own tsconfig into `outDir` (never into the repository). Copies in the
 * temp folder have no node_modules above them, hence the explicit type roots.
 */
export function build(project: string, outDir: string): string {
  linkPackages(project);
  const args = [tsc, '-p', project, '--outDir', outDir, '--tsBuildInfoFile', join(outDir, '.tsbuildinfo')];
  args.push('--typeRoots', join(repoRoot, 'node_modules', '@types'));
  const result = spawnSync(process.execPath, args, { encoding: 'utf8' });
  expect(result.stdout + result.stderr, `tsc -p ${project}`).toBe('');
  expect(result.status).toBe(0);
  shipValidators(project, outDir);
  return join(outDir, 'main.js');
}

/** Starts `main.js --http --port 0` and resolves with the URL it prints on stderr. */
export function startHttpServer(
  main: string,
  running: ChildProcess[],
  extraArgs: string[] = [],
  env: NodeJS.ProcessEnv = process.env,
  /** Everything the server writes on stderr, as it comes (its log). */
  onStderr?: (text: string) => void,
): Promise<URL> {
  const child = spawn(process.execPath, [main, '--http', '--port', '0', ...extraArgs], { stdio: ['ignore', 'pipe', 'pipe'], env });
  running.push(child);
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  return new Promise((resolve, reject) => {
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      onStderr?.(chunk.toString());
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr);
      if (match) resolve(new URL(match[1] as string));
    });
    child.on('exit', (code) => reject(new Error(`server exited (${code}) before listening: ${stderr}${stdout}`)));
  });
}

