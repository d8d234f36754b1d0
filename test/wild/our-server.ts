/**
 * The generated server every client of the wild suite meets: `mcp-gen server` on
 * fixtures/manifest.yaml with fixtures/handlers.ts, built with the project's tsc. Over HTTP it is
 * started once and shared by every client; over stdio each client spawns its own.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer as createNetServer } from 'node:net';
import { join } from 'node:path';
import { cli, repoRoot } from '../client/support.js';
import { shipValidators } from '../support/ship-validators.js';

export const wildManifest = join(repoRoot, 'test', 'wild', 'fixtures', 'manifest.yaml');
const tsc = join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');

export interface BuiltServer {
  /** The built entry point: `node <main>` serves stdio, `node <main> --http --port 0` HTTP. */
  main: string;
  remove(): void;
}

/** Generates the server, puts the fixture handlers in, and compiles it. */
export async function buildOurServer(): Promise<BuiltServer> {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-gen-wild-server-'));
  const project = join(dir, 'server');
  const generated = await cli(['server', wildManifest, '-o', project, '--no-version-banner']);
  if (generated.code !== 0) throw new Error(`mcp-gen server exited ${generated.code}: ${generated.err}`);
  copyFileSync(join(repoRoot, 'test', 'wild', 'fixtures', 'handlers.ts'), join(project, 'handlers', 'index.ts'));
  const settings = JSON.parse(readFileSync(join(project, 'tsconfig.json'), 'utf8')) as { compilerOptions: Record<string, unknown> };
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { ...settings.compilerOptions, incremental: false, tsBuildInfoFile: undefined, typeRoots: [join(repoRoot, 'node_modules', '@types')] },
      include: ['server/**/*.ts', 'server/generated/**/*.js'],
      exclude: ['build', '*/build', '*/node_modules'],
    }),
  );
  const built = await collect(process.execPath, [tsc, '-p', dir]);
  if (built.code !== 0) throw new Error(`tsc failed:\n${built.output}`);
  // Built outside the project's own package: its validators (JavaScript) go with the build.
  shipValidators(project, join(dir, 'build', 'server'));
  return { main: join(dir, 'build', 'server', 'main.js'), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface RunningServer {
  url: string;
  /** Whatever the server wrote on stderr: a crash or a write after end shows here. */
  stderr(): string;
  /** Whether the process is still up (a server that crashed is not). */
  alive(): boolean;
  close(): Promise<void>;
}

/**
 * Starts a server and waits for `listening on <url>` (on stderr or stdout); `url` instead names
 * the URL of a server that prints only that it listens.
 */
export async function startServer(command: string, args: readonly string[], options: { env?: NodeJS.ProcessEnv; cwd?: string; url?: string } = {}): Promise<RunningServer> {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...options.env }, cwd: options.cwd });
  let log = '';
  const url = await new Promise<string>((resolve, reject) => {
    const look = (chunk: Buffer): void => {
      log += chunk.toString('utf8');
      const match = /listening on (http:\/\/\S+)?/i.exec(log);
      if (match && options.url !== undefined) resolve(options.url);
      else if (match?.[1] !== undefined) resolve(match[1].replace(/[.,;]$/, ''));
    };
    child.stdout!.on('data', look);
    child.stderr!.on('data', look);
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited (${code}) before listening:\n${log}`)));
    setTimeout(() => reject(new Error(`${args.join(' ')} did not listen within 30 s:\n${log}`)), 30_000).unref();
  });
  return { url, stderr: () => log, alive: () => child.exitCode === null && child.signalCode === null, close: () => stop(child) };
}

/** A free port on 127.0.0.1, for servers that take a port rather than choosing one. */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createNetServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill();
  });
}

/** Runs a command without blocking the event loop, collecting both outputs. */
export function collect(command: string, args: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<{ code: number | null; output: string; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], cwd: options.cwd, env: { ...process.env, ...options.env } });
    let output = '';
    let stdout = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 240_000);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output, stdout });
    });
  });
}
