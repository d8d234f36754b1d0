/**
 * mcp-gen as users get it: `npm pack`, the tarball installed into an empty project in a temporary
 * folder with no repository around it, and from there every `npx mcp-gen …` line that README.md and
 * the user pages of docs/ give (doc-commands.ts says how lines are found). A line that names a file
 * or command the package lacks fails here. Installs prefer the npm cache (`npm ci` of this
 * repository filled it), so nothing is fetched that is already there.
 *
 * What the docs leave to the reader is supplied the same way every time:
 * - the running server a line talks to (`http://127.0.0.1:3000/mcp`, `https://example.com/mcp`,
 *   `https://api.example.com/mcp`) is the project the docs' own `init … && npm test` line built,
 *   started with `--http --port 0`; `--port 3000` becomes `--port 0` (any free port);
 * - `manifest.yaml` and `v1/`, `v2/manifest.yaml` are the weather manifest shipped in the package
 *   (v2 with one description changed), `snapshot.json` and `server.snapshot.json` snapshots of the
 *   running server, `build/main.js` that server's entry, `openapi.yaml` a small description,
 *   `pr-2111/schema.json` the shipped draft schema with a limit added, and a file a page spells
 *   out (`# mock.yaml: …`) is written from the page.
 * A line with `--http` serves until stopped: it passes when it prints its URL.
 */
import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { docCommands, docFiles, isContributorPage } from './doc-commands.js';

const repoRoot = join(import.meta.dirname, '..', '..');
const version = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;
const work = mkdtempSync(join(tmpdir(), 'mcp-gen-installed-'));
const app = join(work, 'app');
const installed = join(app, 'node_modules', 'mcp-gen');
const commands = docCommands(repoRoot);
const inits = commands.filter(({ line }) => line.startsWith('npx mcp-gen init '));
/** Stops each server started, at the end of the file. */
const running: (() => void)[] = [];
let packed: string[] = [];
let tarball = '';
let serverUrl = '';

/** The environment of every command: the user's, without the npm settings of an `npm run` around the tests. */
const env: NodeJS.ProcessEnv = {
  ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('npm_') && name !== 'INIT_CWD')),
  npm_config_prefer_offline: 'true',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
};

function run(command: string, args: string[], cwd: string, timeout = 120_000): SpawnSyncReturns<string> {
  return spawnSync(command, args, { cwd, env, encoding: 'utf8', timeout });
}

function ok(result: SpawnSyncReturns<string>, what: string): string {
  expect(result.status, `${what}\n${result.stdout}\n${result.stderr}`).toBe(0);
  return result.stdout;
}

/** dist/ is what gets packed: rebuilt first when a source file is newer than the build. */
function ensureBuilt(): void {
  const newest = (dir: string, pattern: RegExp): number =>
    Math.max(0, ...readdirSync(join(repoRoot, dir), { recursive: true, encoding: 'utf8' }).filter((path) => pattern.test(path)).map((path) => statSync(join(repoRoot, dir, path)).mtimeMs));
  const built = existsSync(join(repoRoot, 'dist')) ? newest('dist', /\.js$/) : 0;
  if (newest('src', /\.ts$/) > built) ok(run('npm', ['run', '-s', 'build'], repoRoot, 300_000), 'npm run build');
}

/** A process that serves until stopped (its whole process group, at the end of the file or by `stop`). */
interface Served {
  url: string;
  stop: () => void;
}

/** Resolves with the first `http://127.0.0.1:<port>/mcp` the command prints. */
function serve(command: string, cwd: string): Promise<Served> {
  const child = spawn('sh', ['-c', command], { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const stop = (): void => {
    if (child.exitCode === null && child.signalCode === null) process.kill(-(child.pid as number), 'SIGTERM');
  };
  running.push(stop);
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL within 60 s from ${command}:\n${output}`)), 60_000);
    const read = (chunk: Buffer): void => {
      output += chunk.toString();
      const url = /http:\/\/127\.0\.0\.1:\d+\/mcp/.exec(output)?.[0];
      if (url !== undefined) (clearTimeout(timer), resolve({ url, stop }));
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.on('exit', (code) => (clearTimeout(timer), reject(new Error(`${command} exited (${code}) before serving:\n${output}`))));
  });
}

/** A docs line as the test runs it: the placeholder servers and port made real. */
function localized(line: string): string {
  return line.replace(/https?:\/\/(?:127\.0\.0\.1:3000|(?:api\.)?example\.com)\/mcp/g, serverUrl).replace(/--port 3000\b/g, '--port 0');
}

beforeAll(() => {
  ensureBuilt();
  const pack = JSON.parse(ok(run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], repoRoot), 'npm pack')) as { filename: string; files: { path: string }[] }[];
  tarball = join(work, (pack[0] as { filename: string }).filename);
  packed = (pack[0] as { files: { path: string }[] }).files.map(({ path }) => path);
  // What `npm init -y` makes, then the README's install line with the tarball.
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), `${JSON.stringify({ name: 'app', version: '1.0.0', private: true }, null, 2)}\n`);
  ok(run('npm', ['install', '--save-dev', tarball], app), 'npm install <tarball>');
}, 600_000);

afterAll(() => {
  for (const stop of running) {
    try {
      stop();
    } catch {
      // Already gone.
    }
  }
});

test('the package holds what the CLI reads at run time, and no contributor page or source map', () => {
  for (const revision of readdirSync(join(repoRoot, 'generated', 'protocol'))) expect(packed).toContain(`generated/protocol/${revision}/types.ts`);
  expect(packed).toEqual(expect.arrayContaining(['bin/mcp-gen.js', 'dist/cli/main.js', 'dist/mock/index.js', 'examples/weather/manifest.yaml', 'templates/init/server/manifest.yaml']));
  expect(packed.filter((path) => path.endsWith('.map'))).toEqual([]);
  for (const name of readdirSync(join(repoRoot, 'docs')).filter((file) => file.endsWith('.md'))) {
    const contributor = isContributorPage(readFileSync(join(repoRoot, 'docs', name), 'utf8'));
    expect(packed.includes(`docs/${name}`), `docs/${name} is ${contributor ? 'a contributor page' : 'a user page'}`).toBe(!contributor);
  }
});

test('the bin and the exports map work from the installed package', () => {
  expect(ok(run('npx', ['mcp-gen', '--version'], app), '--version')).toContain(`mcp-gen ${version}`);
  expect(ok(run('npx', ['mcp-gen', '--help'], app), '--help')).toContain('init');
  // `import 'mcp-gen/mock'` from the user's project: a mock of the shipped manifest answers initialize.
  writeFileSync(
    join(app, 'mock-check.mjs'),
    `import { startMock } from 'mcp-gen/mock';
const { url, close } = await startMock({ manifest: 'node_modules/mcp-gen/examples/weather/manifest.yaml', seed: 1, transport: 'http' });
const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'check', version: '1' } } }) });
console.log(response.status, await response.text());
await close();
`,
  );
  const output = ok(run('node', ['mock-check.mjs'], app), 'mcp-gen/mock');
  expect(output).toMatch(/^200 /);
  expect(output).toContain('"serverInfo"');
}, 120_000);

test('the docs give an init line that installs and tests its project', () => {
  expect(inits.some(({ line }) => line.includes('npm install') && line.includes('npm test')), inits.map(({ line }) => line).join('\n')).toBe(true);
});

test.each(inits)('$page: $line', ({ line }) => {
  ok(run('sh', ['-c', line], app, 300_000), line);
  // The project init made asks for mcp-gen the way this project got it: the same tarball.
  const made = readdirSync(app).find((name) => line.includes(` ${name}`) && existsSync(join(app, name, 'manifest.yaml')));
  const manifest = JSON.parse(readFileSync(join(app, made as string, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
  expect(manifest.devDependencies['mcp-gen']).toBe(`file:${tarball}`);
}, 300_000);

test('the inputs the docs leave to the reader, and a running server built by the docs\' init line', async () => {
  const project = readdirSync(app).find((name) => existsSync(join(app, name, 'build', 'main.js')));
  expect(project, 'no init line of the docs built a server (build/main.js)').toBeDefined();
  serverUrl = (await serve(`node ${project as string}/build/main.js --http --port 0`, app)).url;
  const weather = readFileSync(join(installed, 'examples', 'weather', 'manifest.yaml'), 'utf8');
  writeFileSync(join(app, 'manifest.yaml'), weather);
  for (const [folder, text] of [['v1', weather], ['v2', weather.replace(/description: .*/, 'description: A changed description.')]] as const) {
    mkdirSync(join(app, folder));
    writeFileSync(join(app, folder, 'manifest.yaml'), text);
  }
  mkdirSync(join(app, 'build'));
  writeFileSync(join(app, 'build', 'main.js'), `import '../${project as string}/build/main.js';\n`);
  writeFileSync(join(app, 'openapi.yaml'), OPENAPI);
  // A pull request's draft: the package's own draft schema with one limit added.
  const draft = JSON.parse(readFileSync(join(installed, 'schema', 'mcp-spec', 'draft', 'schema.json'), 'utf8')) as { $defs: Record<string, { properties?: Record<string, Record<string, unknown>> }> };
  draft.$defs['Implementation']!.properties!['name']!['maxLength'] = 64;
  mkdirSync(join(app, 'pr-2111'));
  writeFileSync(join(app, 'pr-2111', 'schema.json'), JSON.stringify(draft, null, 2));
  for (const [name, text] of docFiles(installed)) writeFileSync(join(app, name), text);
  for (const snapshot of ['snapshot.json', 'server.snapshot.json']) {
    ok(run('npx', ['mcp-gen', 'client', '--from-url', serverUrl, '-o', join(work, 'snapshot-client'), '--save-snapshot', snapshot], app), snapshot);
  }
}, 120_000);

test.each(commands.filter((command) => !inits.includes(command)))('$page: $line', async ({ line }) => {
  const command = localized(line);
  if (/\s--http\b/.test(command)) {
    const served = await serve(command, app);
    served.stop();
    expect(served.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    return;
  }
  const result = run('sh', ['-c', command], app);
  // `diff` and `check` exit 1 on a finding (a documented answer, not a failure); 2 and up never pass.
  const findings = /^npx mcp-gen (?:diff|check)\b/.test(line) ? [0, 1] : [0];
  expect(findings, `${command} (in ${relative(work, app)})\n${result.stdout}\n${result.stderr}`).toContain(result.status);
}, 120_000);

/** A small OpenAPI description for the README's `import openapi` line. */
const OPENAPI = `openapi: 3.0.3
info: { title: Pets, version: 1.0.0 }
servers: [{ url: 'https://pets.example.com/v1' }]
paths:
  /pets/{id}:
    get:
      operationId: getPet
      summary: One pet by id
      parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
      responses:
        '200':
          description: the pet
          content: { application/json: { schema: { type: object, properties: { id: { type: string }, name: { type: string } }, required: [id, name] } } }
`;
