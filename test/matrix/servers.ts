/**
 * The servers of the matrix: ours, generated from test/fixtures/matrix/{manifest,names}.yaml with
 * the fixture's handlers and built with tsc (both in one program, to pay for the compiler once);
 * the SDK 1.x and 2.x servers of the same folder. HTTP servers are started once each and reached
 * through a recording proxy, so that the cells can read the headers each client sent.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, repoRoot } from '../client/support.js';
import { shipValidators } from '../support/ship-validators.js';
import type { ServerKind } from './cells.js';

export const fixtures = join(repoRoot, 'test', 'fixtures', 'matrix');
export const mainManifest = join(fixtures, 'manifest.yaml');
export const namesManifest = join(fixtures, 'names.yaml');

/** How a client reaches a server: a command it spawns (stdio) or a URL. */
export type Location = { command: string; args: string[] } | { url: string };

/** A server built from a manifest, or why it could not be. */
export type Built = { main: string } | { problem: string };

export interface OurServers {
  /** Every row but 1a. */
  main: Built;
  /** Row 1a (a tool named outside ASCII). */
  names: Built;
  remove(): void;
}

const tsc = join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');

/** Runs `mcp-gen server` for both manifests, puts the fixture handlers in, and compiles both with one tsc. */
export async function buildOurServers(): Promise<OurServers> {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-gen-matrix-servers-'));
  const projects: Record<'main' | 'names', { manifest: string; handlers: string; problem?: string }> = {
    main: { manifest: mainManifest, handlers: 'handlers.ts' },
    names: { manifest: namesManifest, handlers: 'names-handlers.ts' },
  };
  for (const [name, project] of Object.entries(projects)) {
    const run = await cli(['server', project.manifest, '-o', join(dir, name), '--no-version-banner']);
    if (run.code !== 0) project.problem = `mcp-gen server ${name === 'main' ? 'manifest.yaml' : 'names.yaml'} exited ${run.code}: ${run.err.trim()}`;
    else copyFileSync(join(fixtures, project.handlers), join(dir, name, 'handlers', 'index.ts'));
  }
  const buildable = Object.keys(projects).filter((name) => projects[name as 'main'].problem === undefined);
  // The generated tsconfig's settings, for both projects at once.
  const settings = JSON.parse(readFileSync(join(dir, buildable[0] ?? 'main', 'tsconfig.json'), 'utf8')) as { compilerOptions: Record<string, unknown> };
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { ...settings.compilerOptions, incremental: false, tsBuildInfoFile: undefined, typeRoots: [join(repoRoot, 'node_modules', '@types')] },
      include: buildable.flatMap((name) => [`${name}/**/*.ts`, `${name}/generated/**/*.js`]),
      exclude: ['build', '*/build', '*/node_modules'],
    }),
  );
  if (buildable.length > 0) {
    const result = await run(process.execPath, [tsc, '-p', dir]);
    if (result.code !== 0) {
      for (const name of buildable) projects[name as 'main'].problem = `tsc failed:\n${result.output}`;
    }
    // Built outside each project's own package: the validators (JavaScript) go with each build.
    for (const name of buildable) shipValidators(join(dir, name), join(dir, 'build', name));
  }
  const built = (name: 'main' | 'names'): Built => {
    const problem = projects[name].problem;
    return problem === undefined ? { main: join(dir, 'build', name, 'main.js') } : { problem };
  };
  return { main: built('main'), names: built('names'), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Runs a command without blocking the event loop (other servers start meanwhile). */
function run(command: string, args: readonly string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('close', (code) => resolve({ code, output }));
  });
}

/** The command line of a server over stdio (ours: one build per manifest; the SDK ones serve both). */
export function stdioCommand(server: ServerKind, ours: OurServers, manifest: 'main' | 'names'): Location | { problem: string } {
  if (server === 'ours') {
    const built = ours[manifest];
    return 'problem' in built ? built : { command: process.execPath, args: [built.main] };
  }
  return { command: process.execPath, args: [join(fixtures, `${server}-server.mjs`)] };
}

/** One request as the server received it through the proxy. */
export interface RecordedRequest {
  method: string;
  headers: IncomingHttpHeaders;
  /** The body as text (filled in as it arrives). */
  body: string;
}

export interface RunningHttpServer {
  /** The proxy's URL: what clients connect to. */
  url: string;
  /** Every request that went through the proxy, in order. */
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** Starts `node <script> …args` (printing `listening on <url>` on stderr) behind a recording proxy. */
export async function startHttpServer(script: string, args: readonly string[]): Promise<RunningHttpServer> {
  const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  const target = await new Promise<URL>((resolve, reject) => {
    let stderr = '';
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => {
      stderr += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(stderr);
      if (match) resolve(new URL(match[1] as string));
    });
    child.once('exit', (code) => reject(new Error(`${script} exited (${code}) before listening:\n${stderr}`)));
  });
  const proxy = await recordingProxy(target);
  return {
    url: proxy.url,
    requests: proxy.requests,
    close: async () => {
      await proxy.close();
      await stop(child);
    },
  };
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill();
  });
}

/**
 * A pass-through HTTP proxy that records each request's headers. Responses (SSE included) are
 * piped as they come; a client that goes away closes the upstream request too, so a 2026-07-28
 * cancellation (closing the stream) reaches the server as it would without the proxy.
 */
async function recordingProxy(target: URL): Promise<{ url: string; requests: RecordedRequest[]; close(): Promise<void> }> {
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const recorded: RecordedRequest = { method: req.method ?? '', headers: { ...req.headers }, body: '' };
    requests.push(recorded);
    req.on('data', (chunk: Buffer) => {
      recorded.body += chunk.toString('utf8');
    });
    const headers = { ...req.headers, host: target.host };
    const upstream = httpRequest(target, { method: req.method, headers, path: req.url }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      res.flushHeaders();
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}${target.pathname}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A header value as the server should read it: `=?base64?…?=` decoded, anything else as is. */
export function decodeHeader(value: string | string[] | undefined): string | undefined {
  if (typeof value !== 'string') return undefined;
  const match = /^=\?base64\?([A-Za-z0-9+/=]*)\?=$/.exec(value);
  return match ? Buffer.from(match[1] as string, 'base64').toString('utf8') : value;
}
