/**
 * `mcp-gen init`: the new server project installs (npm, from the registry, with this checkout as
 * its mcp-gen), builds and passes its own test with no edits; `check` finds it current; a folder
 * with files is refused unless --force, which keeps every file; a client project is generated from
 * a live server and its test passes against it; a failed generation leaves nothing behind.
 * The CLI runs as a child process, as a user runs it (init itself runs mcp-gen in the new folder).
 */
import { execFile, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer as createNetServer } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from '../../examples/weather/server/generated/server.js';
import { handlers } from '../../examples/weather/server/handlers/index.js';
import type { HttpListener } from '../../src/runtime/index.js';
import { repoRoot } from '../client/support.js';
import { tempDir } from '../server/support.js';

const run = promisify(execFile);
const cliPath = join(repoRoot, 'bin', 'mcp-gen.js');

async function mcpGen(args: string[], cwd = repoRoot): Promise<{ code: number; out: string; err: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [cliPath, ...args], { cwd, encoding: 'utf8' });
    return { code: 0, out: stdout, err: stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, out: failed.stdout ?? '', err: failed.stderr ?? '' };
  }
}

function npm(args: string[], cwd: string): { status: number | null; output: string } {
  const result = spawnSync('npm', args, { cwd, encoding: 'utf8', env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false' } });
  return { status: result.status, output: `${result.stdout}\n${result.stderr}` };
}

const work = tempDir('init');
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('mcp-gen init (a server project)', () => {
  const project = join(work, 'hello-server');

  it('scaffolds a project whose own `npm install && npm test` passes with no edits', async () => {
    const init = await mcpGen(['init', project]);
    expect(init.err).toBe('');
    expect(init.code).toBe(0);
    expect(init.out).toContain('npm test');
    for (const file of ['manifest.yaml', 'handlers/tools/greet.ts', 'test/greet.test.ts', 'generated/server.ts', 'client/client.ts', 'dev.mjs', '.mcp-gen-ledger.json', 'client/.mcp-gen-ledger.json']) {
      expect(existsSync(join(project, file)), file).toBe(true);
    }
    const pkg = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'));
    expect(pkg.name).toBe('hello-server');
    expect(Object.keys(pkg.scripts)).toEqual(expect.arrayContaining(['generate', 'check', 'dev', 'build', 'test']));
    expect(pkg.devDependencies['mcp-gen']).toBe(`file:${repoRoot}`);

    const install = npm(['install', '--no-audit', '--no-fund'], project);
    expect(install.status, install.output).toBe(0);
    const test = npm(['test'], project);
    expect(test.status, test.output).toBe(0);
    expect(test.output).toMatch(/# pass 1\b/);
    expect(test.output).toMatch(/# fail 0\b/);
    // The project's own scripts drive this mcp-gen: the output is current, and regenerating changes nothing.
    const check = npm(['run', '-s', 'check'], project);
    expect(check.status, check.output).toBe(0);
    const before = readFileSync(join(project, 'generated', 'server.ts'), 'utf8');
    const generate = npm(['run', '-s', 'generate'], project);
    expect(generate.status, generate.output).toBe(0);
    expect(readFileSync(join(project, 'generated', 'server.ts'), 'utf8')).toBe(before);
  }, 600_000);

  it('`npm run dev` regenerates on a manifest change and Ctrl-C stops every watcher', async () => {
    const dev = spawn(process.execPath, ['dev.mjs'], { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    dev.stdout.on('data', (chunk: Buffer) => (log += chunk.toString()));
    dev.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => dev.on('exit', (code) => resolve(code)));
    // The server's watcher reads the manifest and package.json (its validators' layout), the client's the manifest.
    await until(() => log.includes('watching 2 files') && log.includes('watching 1 file') && log.includes('Watching for file changes'), () => log);
    const manifest = join(project, 'manifest.yaml');
    writeFileSync(manifest, readFileSync(manifest, 'utf8').replace('Greets someone by name.', 'Greets someone warmly.'));
    await until(() => readFileSync(join(project, 'generated', 'server.ts'), 'utf8').includes('Greets someone warmly.') && readFileSync(join(project, 'client', 'client.ts'), 'utf8').includes('Greets someone warmly.'), () => log);
    dev.kill('SIGINT');
    // dev.mjs holds a handle on each watcher: it exits only once all of them have.
    expect(await exited).toBe(0);
    // No watcher outlives it (a shell between dev.mjs and a watcher would leave one orphaned).
    expect(watchersIn(project)).toEqual([]);
  }, 180_000);

  it('refuses a folder with files in it (exit 2, nothing written) unless --force, which replaces nothing', async () => {
    const busy = join(work, 'busy');
    mkdirSync(busy);
    writeFileSync(join(busy, 'README.md'), 'mine\n');
    writeFileSync(join(busy, 'manifest.yaml'), 'server:\n  name: mine\n  version: 2.0.0\ntools: []\n');
    const refused = await mcpGen(['init', busy]);
    expect(refused.code).toBe(2);
    expect(refused.err).toContain('is not empty');
    expect(readdirSync(busy).sort()).toEqual(['README.md', 'manifest.yaml']);

    const forced = await mcpGen(['init', busy, '--force']);
    expect(forced.code, forced.err).toBe(0);
    expect(forced.err).toContain('kept manifest.yaml');
    expect(readFileSync(join(busy, 'README.md'), 'utf8')).toBe('mine\n');
    // The user's manifest is the one generated from.
    expect(readFileSync(join(busy, 'manifest.yaml'), 'utf8')).toContain('name: mine');
    expect(readFileSync(join(busy, 'generated', 'server.ts'), 'utf8')).toContain('"mine"');
  }, 120_000);

  it('rejects bad options with exit 2 and writes nothing', async () => {
    const target = join(work, 'bad-options');
    expect((await mcpGen(['init', target, '--client'])).err).toContain('--client needs --url');
    expect((await mcpGen(['init', target, '--url', 'http://127.0.0.1:1/mcp'])).code).toBe(2);
    expect((await mcpGen(['init', target, '--client', '--url', 'ftp://x'])).code).toBe(2);
    expect(existsSync(target)).toBe(false);
  });
});

describe('mcp-gen init --client', () => {
  let listener: HttpListener;
  beforeAll(async () => {
    listener = await createServer(handlers, { logger: () => {} }).listenHttp({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => listener?.close());

  it('generates a client of a live server whose test passes against it', async () => {
    const project = join(work, 'weather-app');
    const init = await mcpGen(['init', project, '--client', '--url', listener.url]);
    expect(init.code, init.err).toBe(0);
    expect(existsSync(join(project, 'client', 'client.ts'))).toBe(true);
    expect(JSON.parse(readFileSync(join(project, 'server.snapshot.json'), 'utf8'))).toBeTypeOf('object');
    expect(readFileSync(join(project, 'main.ts'), 'utf8')).toContain(JSON.stringify(listener.url));
    // Built and run with this checkout's TypeScript and @types/node (the install is proven above).
    symlinkSync(join(repoRoot, 'node_modules'), join(project, 'node_modules'));
    const tsc = spawnSync(process.execPath, [join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '-b'], { cwd: project, encoding: 'utf8' });
    expect(tsc.stdout + tsc.stderr).toBe('');
    const test = await run(process.execPath, ['--test', join(project, 'build', 'test', 'server.test.js')], { cwd: project, encoding: 'utf8' }).catch((error: { stdout: string }) => ({ stdout: error.stdout }));
    expect(test.stdout).toMatch(/# pass 1\b/);
  }, 120_000);

  it('leaves nothing behind when the server cannot be reached', async () => {
    const port = await closedPort();
    const project = join(work, 'unreachable');
    const init = await mcpGen(['init', project, '--client', '--url', `http://127.0.0.1:${port}/mcp`]);
    expect(init.code).not.toBe(0);
    expect(init.err).toContain('init wrote nothing');
    expect(existsSync(project)).toBe(false);
  }, 60_000);
});

/** Polls `condition` every 200 ms for up to two minutes; on timeout fails with `log()`. */
async function until(condition: () => boolean, log: () => string): Promise<void> {
  for (const deadline = Date.now() + 120_000; Date.now() < deadline; ) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`timed out; output so far:\n${log()}`);
}

/** Command lines of the processes (Linux /proc) running with `--watch` in `dir`. */
function watchersIn(dir: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
      if (commandLine.includes('--watch') && realpathSync(`/proc/${pid}/cwd`) === realpathSync(dir)) found.push(commandLine);
    } catch {
      // The process ended meanwhile, or is not ours to read.
    }
  }
  return found;
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
