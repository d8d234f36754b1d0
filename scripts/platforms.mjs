#!/usr/bin/env node
// The platforms a generated web handler is deployed on in the tests (test/platforms/) and the
// conformance runs (conformance/run-server.mjs --platform): Bun, Deno, Cloudflare's workerd, a Hono
// app under Node and a Next.js App Router route. Every runtime binary comes from the npm registry
// (bun → @oven/bun-linux-x64, deno → @deno/linux-x64-glibc, workerd → @cloudflare/workerd-linux-64),
// pinned in test/platforms/package.json and installed, from the npm cache when warm, into the
// git-ignored test/platforms/node_modules. `npm run test:all` runs this file first to install them;
// `node scripts/platforms.mjs --print` lists the versions found.
//
// Each `deploy*` function serves one ES module exporting `fetch(Request) → Promise<Response>` both
// by name and as its default `{ fetch }` (what `mcp-gen server --target web` writes in main.web.ts)
// on 127.0.0.1, and resolves with its URL and a stopper.
// workerd is run directly (`workerd serve` with a generated Cap'n Proto config), which is what
// wrangler and miniflare do underneath; both of those need Node 22, workerd itself does not.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
/** Where the pinned tools are installed (their own package.json and lock). */
export const PLATFORMS_DIR = join(ROOT, 'test', 'platforms');
/** Apps and deployments live below here, so that they resolve hono/next from PLATFORMS_DIR/node_modules. */
export const WORK_DIR = join(PLATFORMS_DIR, '.work');
const MODULES = join(PLATFORMS_DIR, 'node_modules');

/** Each tool's executable inside the install. */
export const TOOLS = {
  bun: join(MODULES, 'bun', 'bin', 'bun.exe'),
  deno: join(MODULES, 'deno', 'deno'),
  workerd: join(MODULES, '@cloudflare', 'workerd-linux-64', 'bin', 'workerd'),
  next: join(MODULES, 'next', 'dist', 'bin', 'next'),
  hono: join(MODULES, 'hono', 'package.json'),
  'hono-node-server': join(MODULES, '@hono', 'node-server', 'package.json'),
};

/** The generated web entry, built (`main.web.ts` beside `main.ts`). */
export const WEB_ENTRY = 'main.web.js';

/** workerd refuses a compatibility date later than its own release: this is the pinned release's. */
export const WORKERD_COMPATIBILITY_DATE = '2026-11-17';

/** How long a platform may take to start listening (Next.js and workerd are the slow ones). */
const START_TIMEOUT_MS = 60_000;

const QUIET_ENV = {
  NO_COLOR: '1',
  FORCE_COLOR: '0',
  NEXT_TELEMETRY_DISABLED: '1',
  DENO_NO_UPDATE_CHECK: '1',
  DENO_NO_PROMPT: '1',
  DO_NOT_TRACK: '1',
};

function missingTools() {
  return Object.entries(TOOLS)
    .filter(([, path]) => !existsSync(path))
    .map(([name]) => name);
}

/** `npm ci --prefix test/platforms` unless every tool is there; throws when it fails. */
export function ensurePlatforms({ quiet = false } = {}) {
  if (missingTools().length === 0) return;
  if (!quiet) console.error('installing the platform runtimes (npm ci --prefix test/platforms)');
  const result = spawnSync('npm', ['ci', '--prefix', PLATFORMS_DIR, '--no-audit', '--no-fund', '--prefer-offline'], {
    stdio: quiet ? 'ignore' : ['ignore', 'inherit', 'inherit'],
  });
  if (result.status !== 0) throw new Error('npm ci --prefix test/platforms failed');
  const still = missingTools();
  if (still.length > 0) throw new Error(`still missing after npm ci --prefix test/platforms: ${still.join(', ')}`);
}

/**
 * Generates the server of `manifest` with the web target into `outDir` (a fresh folder), puts the
 * implemented `handlersDir` in place of the handler skeletons, as a user's would be, and builds it
 * with tsc. Returns the built web entry, whose default export is `{ fetch }`. Throws with the
 * failing step's output.
 */
export function buildWebServer(manifest, handlersDir, outDir) {
  rmSync(outDir, { recursive: true, force: true });
  const mcpGen = [join(ROOT, 'bin', 'mcp-gen.js'), 'server', manifest, '-o', outDir, '--target', 'web', '--no-version-banner', '--quiet'];
  runOrThrow('mcp-gen server --target web', mcpGen);
  cpSync(handlersDir, join(outDir, 'handlers'), { recursive: true });
  runOrThrow('tsc -b', [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-b', outDir]);
  return join(outDir, 'build', WEB_ENTRY);
}

/** Runs a Node script to its end; throws with its output when it fails. */
function runOrThrow(what, args) {
  const ran = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', timeout: 300_000 });
  if (ran.status !== 0) throw new Error(`${what} failed (${ran.status ?? ran.signal}):\n${ran.stdout}${ran.stderr}`);
}

/** A free loopback port (for the platforms that cannot be told to pick one and report it). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts `command` and resolves with a handle once it is ready: when its output matches `ready`
 * (the match's first group, when there is one, is the port), or, with `probe`, when `port` answers
 * HTTP. Rejects with the output when the process exits or the time runs out first.
 */
function startProcess(name, command, args, { cwd, env = {}, ready, probe = false, port }) {
  const child = spawn(command, args, { cwd, env: { ...process.env, ...QUIET_ENV, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const stop = () =>
    new Promise((done) => {
      if (child.exitCode !== null || child.signalCode !== null) return done();
      const kill = setTimeout(() => child.kill('SIGKILL'), 3000);
      child.once('exit', () => {
        clearTimeout(kill);
        done();
      });
      child.kill('SIGTERM');
    });
  const handle = (at) => ({ url: `http://127.0.0.1:${at}/mcp`, stop, output: () => output, pid: child.pid });
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (error, value) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error === undefined) return resolve(value);
      child.kill('SIGKILL');
      reject(new Error(`${name} ${error}:\n${output}`));
    };
    const timer = setTimeout(() => finish(`did not start within ${START_TIMEOUT_MS} ms`), START_TIMEOUT_MS);
    const onData = (chunk) => {
      output += chunk;
      // Some runtimes colour their banner even with NO_COLOR: match without the escapes.
      const match = ready?.exec(output.replace(/\x1b\[[0-9;]*m/g, ''));
      if (match) finish(undefined, handle(match[1] ?? String(port)));
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('error', (error) => finish(error.message));
    child.on('exit', (code, signal) => finish(`exited (${code ?? signal}) before listening`));
    if (probe) {
      const poll = async () => {
        while (!settled) {
          try {
            await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(1000) });
            return finish(undefined, handle(String(port)));
          } catch {
            await new Promise((again) => setTimeout(again, 100));
          }
        }
      };
      void poll();
    }
  });
}

/** A posix path from `from` to `to` that an ES import accepts. */
function importPath(from, to) {
  const path = relative(from, to).split('\\').join('/');
  return path.startsWith('.') ? path : `./${path}`;
}

/** Bun: `Bun.serve` on an ephemeral port, with the handler's fetch. */
export function deployBun(handlerModule, dir) {
  mkdirSync(dir, { recursive: true });
  const entry = join(dir, 'serve-bun.mjs');
  writeFileSync(
    entry,
    `import handler from '${importPath(dir, handlerModule)}';\n` +
      `const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: (request) => handler.fetch(request) });\n` +
      `console.error(\`listening on port \${server.port}\`);\n`,
  );
  return startProcess('bun', TOOLS.bun, [entry], { cwd: dir, ready: /listening on port (\d+)/ });
}

/**
 * Deno: `deno serve` serves a module's default `{ fetch }` export as it is; the entry reads its
 * settings from the environment (`--allow-env`); `permissions` adds more (a resource server fetching
 * its issuer's JWKS needs `--allow-net=<issuer host>`).
 */
export function deployDeno(handlerModule, dir, permissions = []) {
  mkdirSync(dir, { recursive: true });
  return startProcess('deno', TOOLS.deno, ['serve', '--no-prompt', '--allow-env', ...permissions, '--host', '127.0.0.1', '--port', '0', handlerModule], {
    cwd: dir,
    ready: /Listening on https?:\/\/[^:]+:(\d+)/,
  });
}

/**
 * workerd: one worker serving the handler bundled into one module by esbuild, as wrangler bundles
 * a worker before it hands it to workerd (package.json `imports`, such as the tools' validators'
 * `#generated/validators/*`, resolved the same way), served on one socket. The `nodejs_compat`
 * flag is on by default from the pinned compatibility date.
 */
export async function deployWorkerd(handlerModule, dir) {
  mkdirSync(dir, { recursive: true });
  const { build } = await import('esbuild');
  await build({ entryPoints: [handlerModule], outfile: join(dir, 'worker.mjs'), bundle: true, format: 'esm', platform: 'neutral', external: ['node:*'], logLevel: 'warning' });
  const config = [
    'using Workerd = import "/workerd/workerd.capnp";',
    'const config :Workerd.Config = (',
    '  services = [ (name = "main", worker = .mcpWorker) ],',
    '  sockets = [ (name = "http", address = "127.0.0.1:0", http = (), service = "main") ],',
    ');',
    'const mcpWorker :Workerd.Worker = (',
    '  modules = [ (name = "worker.mjs", esModule = embed "worker.mjs") ],',
    `  compatibilityDate = "${WORKERD_COMPATIBILITY_DATE}",`,
    ');',
    '',
  ].join('\n');
  const file = join(dir, 'workerd.capnp');
  writeFileSync(file, config);
  // workerd prints nothing when it listens: it is ready once the port answers.
  const port = await freePort();
  return startProcess('workerd', TOOLS.workerd, ['serve', file, '--socket-addr', `http=127.0.0.1:${port}`], { cwd: dir, probe: true, port });
}

/** Hono under Node: an app that routes every method on /mcp to the handler's `fetch` export. */
export function deployHono(handlerModule, dir) {
  mkdirSync(dir, { recursive: true });
  const entry = join(dir, 'serve-hono.mjs');
  writeFileSync(
    entry,
    [
      "import { serve } from '@hono/node-server';",
      "import { Hono } from 'hono';",
      `import { fetch } from '${importPath(dir, handlerModule)}';`,
      'const app = new Hono();',
      "app.all('/mcp', (c) => fetch(c.req.raw));",
      "serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info) => console.error(`listening on port ${info.port}`));",
      '',
    ].join('\n'),
  );
  return startProcess('hono', process.execPath, [entry], { cwd: dir, ready: /listening on port (\d+)/ });
}

/**
 * Next.js: an App Router project whose only route, app/mcp/route.js, re-exports the handler's
 * `fetch` for every method; `next build` (Turbopack, rooted at test/platforms so the build sees the handler's files)
 * then `next start`. Build once and start as often as needed.
 */
export function buildNext(handlerModule, dir) {
  mkdirSync(join(dir, 'app', 'mcp'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{ "private": true, "type": "module" }\n');
  writeFileSync(
    join(dir, 'next.config.mjs'),
    `// Turbopack compiles nothing outside its root: the root holds both the app and the handler.\nexport default { turbopack: { root: ${JSON.stringify(PLATFORMS_DIR)} } };\n`,
  );
  // The route the generated main.web.ts documents: its `fetch` export for every method MCP uses.
  writeFileSync(
    join(dir, 'app', 'mcp', 'route.js'),
    `export { fetch as GET, fetch as POST, fetch as DELETE, fetch as OPTIONS } from '${importPath(join(dir, 'app', 'mcp'), handlerModule)}';\n`,
  );
  const built = spawnSync(process.execPath, [TOOLS.next, 'build'], { cwd: dir, env: { ...process.env, ...QUIET_ENV }, encoding: 'utf8', timeout: 300_000 });
  if (built.status !== 0) throw new Error(`next build failed (${built.status ?? built.signal}):\n${built.stdout}\n${built.stderr}`);
}

export async function startNext(dir) {
  const port = await freePort();
  return startProcess('next', process.execPath, [TOOLS.next, 'start', '-H', '127.0.0.1', '-p', String(port)], {
    cwd: dir,
    ready: /Ready in/,
    port,
  });
}

function main() {
  ensurePlatforms();
  if (process.argv.includes('--print')) {
    for (const tool of ['bun', 'deno', 'workerd']) {
      const ran = spawnSync(TOOLS[tool], ['--version'], { encoding: 'utf8' });
      console.log(`${tool}: ${(ran.stdout || ran.stderr).split('\n')[0]}`);
    }
  }
  return 0;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = main();
