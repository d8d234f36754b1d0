/**
 * The generated client in a web page, as a Vite app ships it: `mcp-gen client --browser` into the
 * app's src/, type-checked like create-vite's vanilla-ts template does (DOM, no @types/node),
 * built with `vite build`, the page served from one loopback origin and the weather example server
 * on another, opened in Debian's chromium (headless, puppeteer-core). The page calls tools in both
 * eras (2025-11-25 with a session, 2026-07-28 stateless) and shows the typed results, which must be
 * what a Node client gets from the same server. A page on an origin the server does not allow is
 * refused: its preflight gets 403 and it never reaches a tool.
 *
 * A second page is the same app with the client as a published package: `mcp-gen client --package`,
 * `npm pack`, `npm install <tarball>` into the page's project; Vite must take the package's browser
 * build (its `browser` field swaps in HTTP on fetch), and the page does the same in both eras.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { extname, join } from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findBinary } from '../../scripts/system-packages.mjs';
import { connect as connectFromNode } from '../../examples/client-app/client/client.js';
import { createServer as createWeatherServer } from '../../examples/weather/server/generated/server.js';
import type { HttpListener } from '../../examples/weather/server/generated/runtime/index.js';
import { handlers } from '../../examples/weather/server/handlers/index.js';
import { cli, repoRoot } from '../client/support.js';
import { tempDir } from '../server/support.js';
import { CREATE_VITE_TSCONFIG } from '../support/create-vite.js';
import { packClient } from '../support/pack-client.js';

const require = createRequire(import.meta.url);
const work = tempDir('vite-client');
const app = join(work, 'app');
/** The page with the client installed from the `npm pack` tarball of a `--package` client. */
const packageApp = join(work, 'package-app');
const PACKAGE_NAME = 'weather-client';
const listeners: { close(): Promise<void> }[] = [];
let browser: Browser;
let pageOrigin: string;
let packagePageOrigin: string;
let otherOrigin: string;
let serverUrl: string;

/** The page: connects in the era asked for, calls two tools and shows what came back, typed. */
const MAIN_TS = `import { connect, type Revision } from '__CLIENT__';

const server = new URLSearchParams(location.search).get('server') ?? '';
const results = document.querySelector<HTMLPreElement>('#results')!;

async function visit(revision: Revision) {
  const client = await connect({ url: server, protocolVersions: [revision], clientInfo: { name: 'vite-page', version: '1.0.0' } });
  try {
    // GetWeatherOutput and GetForecastOutput: these lines type-check only with the generated types.
    const now = await client.tools.getWeather({ location: 'Lisbon', units: 'celsius' });
    const shown: string = \`\${now.location}: \${now.temperature.toFixed(1)}° \${now.units}, \${now.conditions}, humidity \${now.humidity}%\`;
    // With onProgress the server answers on an SSE stream: read from the fetch body, event by event.
    const progress: string[] = [];
    const forecast = await client.tools.getForecast({ location: 'Porto', days: 2 }, { onProgress: (p) => progress.push(\`\${p.progress}/\${p.total ?? '?'} \${p.message ?? ''}\`) });
    const days: string[] = forecast.days.map((day) => \`\${day.date} \${day.low}–\${day.high} \${day.conditions}\`);
    return { protocolVersion: client.server.protocolVersion, shown, now, forecast, days, progress };
  } finally {
    await client.close();
  }
}

async function run(): Promise<void> {
  try {
    const stateful = await visit('2025-11-25');
    const stateless = await visit('2026-07-28');
    results.textContent = JSON.stringify({ stateful, stateless });
  } catch (error) {
    results.textContent = JSON.stringify({ error: String(error) });
  }
  document.body.dataset['done'] = 'yes';
}

void run();
`;

/** create-vite's vanilla-ts tsconfig, as the user had it (erasableSyntaxOnly included). */
const TSCONFIG = CREATE_VITE_TSCONFIG;

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };

/** Serves the built page (app/dist) on a loopback port: one origin. */
function servePage(dir: string): Promise<string> {
  const server: Server = createHttpServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const file = path === '/' ? 'index.html' : path.slice(1);
    try {
      const body = readFileSync(join(dir, file));
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  listeners.push({ close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as { port: number }).port}`)));
}

/** The tools as the user runs them: without Vitest's variables (with VITEST set, Vite stubs a node: import silently). */
const USER_ENV = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST') && name !== 'NODE_ENV'));

function run(command: string[], cwd: string): { code: number | null; output: string } {
  const result = spawnSync(process.execPath, command, { cwd, env: USER_ENV, encoding: 'utf8', timeout: 120_000 });
  return { code: result.status, output: `${result.stdout}${result.stderr}` };
}

/** The page's project: index.html, src/main.ts importing the client as `specifier`, the tsconfig. */
function writePage(dir: string, specifier: string): void {
  mkdirSync(join(dir, 'src'), { recursive: true });
  writeFileSync(join(dir, 'index.html'), '<!doctype html>\n<html><body><pre id="results"></pre><script type="module" src="/src/main.ts"></script></body></html>\n');
  writeFileSync(join(dir, 'src', 'main.ts'), MAIN_TS.replace("'__CLIENT__'", `'${specifier}'`));
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
}

beforeAll(async () => {
  const executablePath = findBinary('chromium');
  if (executablePath === undefined) throw new Error('chromium is not installed: run `node scripts/system-packages.mjs` (npm run test:all does)');
  const manifest = join(repoRoot, 'examples/weather/manifest.yaml');
  writePage(app, './client/client.js');
  symlinkSync(join(repoRoot, 'node_modules'), join(app, 'node_modules'), 'dir');
  const generated = await cli(['client', manifest, '--browser', '-o', join(app, 'src', 'client'), '--no-version-banner']);
  expect(generated.code, generated.err).toBe(0);
  // The package's prepack build takes tsc and @types/node from the project's node_modules, linked above it.
  mkdirSync(join(work, 'package'));
  symlinkSync(join(repoRoot, 'node_modules'), join(work, 'package', 'node_modules'), 'dir');
  const tarball = await packClient(manifest, join(work, 'package'), PACKAGE_NAME);
  // The package page has its own node_modules: npm installs the tarball into it.
  writePage(packageApp, PACKAGE_NAME);
  writeFileSync(join(packageApp, 'package.json'), JSON.stringify({ name: 'package-app', private: true, type: 'module' }));
  const installed = spawnSync('npm', ['install', tarball, '--no-audit', '--no-fund', '--prefer-offline', '--no-package-lock'], { cwd: packageApp, encoding: 'utf8', timeout: 120_000 });
  expect(installed.status, `${installed.stdout}${installed.stderr}`).toBe(0);
  // Vite's own types (`vite/client` in the tsconfig), as the page's devDependency would provide them.
  symlinkSync(join(repoRoot, 'node_modules', 'vite'), join(packageApp, 'node_modules', 'vite'), 'dir');
  browser = await puppeteer.launch({ executablePath, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  pageOrigin = await servePage(join(app, 'dist'));
  otherOrigin = await servePage(join(app, 'dist'));
  packagePageOrigin = await servePage(join(packageApp, 'dist'));
  const listener: HttpListener = await createWeatherServer(handlers, { logger: () => {} }).listenHttp({ port: 0, allowedOrigins: [pageOrigin, packagePageOrigin] });
  listeners.push(listener);
  serverUrl = listener.url;
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all(listeners.map((l) => l.close()));
  rmSync(work, { recursive: true, force: true });
});

/** `vite build` of the page: it succeeds, and nothing in the bundle imports (or stubs) a node: module. */
function expectBuiltWithoutNode(dir: string): void {
  const built = run([join(repoRoot, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], dir);
  expect(built.code, built.output).toBe(0);
  // Vite stubs a node: import it cannot bundle for browsers (and warns): neither may happen.
  expect(built.output).not.toMatch(/externalized|node:/);
  // The stub is a chunk of its own or inlined, naming the module in any kind of quotes.
  const scripts = readdirSync(join(dir, 'dist', 'assets')).filter((f) => f.endsWith('.js'));
  expect(scripts.length).toBeGreaterThan(0);
  for (const script of scripts) {
    const text = readFileSync(join(dir, 'dist', 'assets', script), 'utf8');
    expect(text).not.toMatch(/["'`]node:|__vite-browser-external|externalized for browser/);
  }
}

/** Opens the page built and served at `origin`; its results in both eras must be a Node client's, and the wire each era's. */
async function expectBothEras(origin: string): Promise<void> {
  const page = await browser.newPage();
  const requests: { method: string; headers: Record<string, string> }[] = [];
  page.on('request', (request) => {
    if (request.url() === serverUrl) requests.push({ method: request.method(), headers: request.headers() });
  });
  const forecastAnswers: string[] = [];
  page.on('response', (response) => {
    const request = response.request();
    if (request.url() === serverUrl && request.method() === 'POST' && request.headers()['mcp-name'] === 'get_forecast') forecastAnswers.push(response.headers()['content-type'] ?? '');
  });
  await page.goto(`${origin}/?server=${encodeURIComponent(serverUrl)}`, { waitUntil: 'load' });
  await page.waitForSelector('body[data-done="yes"]', { timeout: 60_000 });
  const shown = JSON.parse((await page.$eval('#results', (el) => el.textContent)) ?? '{}') as Record<string, any>;
  await page.close();
  expect(shown['error']).toBeUndefined();

  // What a Node client gets from the same server, era by era.
  for (const [era, revision] of [['stateful', '2025-11-25'], ['stateless', '2026-07-28']] as const) {
    const node = await connectFromNode({ url: serverUrl, protocolVersions: [revision] });
    const now = await node.tools.getWeather({ location: 'Lisbon', units: 'celsius' });
    const forecast = await node.tools.getForecast({ location: 'Porto', days: 2 });
    await node.close();
    expect(shown[era].protocolVersion).toBe(revision);
    expect(shown[era].now).toEqual(now);
    expect(shown[era].forecast).toEqual(forecast);
    expect(shown[era].shown).toBe(`Lisbon: ${now.temperature.toFixed(1)}° celsius, ${now.conditions}, humidity ${now.humidity}%`);
    expect(shown[era].days).toHaveLength(2);
    expect(shown[era].progress).toEqual(['1/2 day 1 of 2', '2/2 day 2 of 2']);
  }
  expect(forecastAnswers).toEqual(['text/event-stream', 'text/event-stream']);

  // The wire: a session in the stateful era (its id read from a cross-origin response), none in the stateless one.
  const posts = requests.filter((r) => r.method === 'POST');
  const calls = posts.filter((r) => r.headers['mcp-method'] === 'tools/call');
  expect(calls).toHaveLength(4);
  const [statefulCalls, statelessCalls] = [calls.slice(0, 2), calls.slice(2)];
  for (const call of statefulCalls) {
    expect(call.headers['mcp-session-id']).toMatch(/.+/);
    expect(call.headers['mcp-protocol-version']).toBe('2025-11-25');
  }
  for (const call of statelessCalls) {
    expect(call.headers['mcp-session-id']).toBeUndefined();
    expect(call.headers['mcp-protocol-version']).toBe('2026-07-28');
  }
  expect(calls.map((c) => c.headers['mcp-name'])).toEqual(['get_weather', 'get_forecast', 'get_weather', 'get_forecast']);
  // The stateful session's standalone stream and its end, both cross-origin.
  expect(requests.some((r) => r.method === 'GET' && r.headers['mcp-session-id'] !== undefined)).toBe(true);
  expect(requests.some((r) => r.method === 'DELETE' && r.headers['mcp-session-id'] !== undefined)).toBe(true);
}

describe('a Vite page with a --browser client', () => {
  it('type-checks under the vanilla-ts tsconfig without @types/node', () => {
    const checked = run([require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.json'], app);
    expect(checked.output).toBe('');
    expect(checked.code).toBe(0);
  });

  it('builds with vite, and the bundle holds no node: module', () => {
    expectBuiltWithoutNode(app);
  }, 180_000);

  it('calls tools on a server on another origin in both eras and shows the typed results', async () => {
    await expectBothEras(pageOrigin);
  }, 120_000);

  it('is refused on an origin the server does not allow: the preflight gets 403 and no tool is called', async () => {
    const page = await browser.newPage();
    const cdp = await page.createCDPSession();
    await cdp.send('Network.enable');
    const statuses: { method: string; status: number }[] = [];
    const methods = new Map<string, string>();
    cdp.on('Network.requestWillBeSent', (event) => {
      if (event.request.url === serverUrl) methods.set(event.requestId, event.request.method);
    });
    cdp.on('Network.responseReceived', (event) => {
      if (event.response.url === serverUrl) statuses.push({ method: methods.get(event.requestId) ?? '?', status: event.response.status });
    });
    await page.goto(`${otherOrigin}/?server=${encodeURIComponent(serverUrl)}`, { waitUntil: 'load' });
    await page.waitForSelector('body[data-done="yes"]', { timeout: 60_000 });
    const shown = JSON.parse((await page.$eval('#results', (el) => el.textContent)) ?? '{}') as Record<string, any>;
    await page.close();
    expect(shown['error']).toMatch(/fetch/i);
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.every((s) => s.status === 403)).toBe(true);
  }, 120_000);
});

describe('a Vite page with the `npm pack` tarball of a --package client installed', () => {
  it('has the package from the tarball, whose package.json sends browser bundlers to the fetch-based connect', () => {
    const manifest = JSON.parse(readFileSync(join(packageApp, 'node_modules', PACKAGE_NAME, 'package.json'), 'utf8')) as { browser?: Record<string, string> };
    expect(manifest.browser).toEqual({ './dist/runtime/client/connect.js': './dist/runtime/client/connect-browser.js' });
  });

  it('type-checks under the vanilla-ts tsconfig without @types/node', () => {
    const checked = run([require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.json'], packageApp);
    expect(checked.output).toBe('');
    expect(checked.code).toBe(0);
  });

  it('builds with vite, and the bundle holds no node: module', () => {
    expectBuiltWithoutNode(packageApp);
  }, 180_000);

  it('calls tools on a server on another origin in both eras and shows the typed results', async () => {
    await expectBothEras(packagePageOrigin);
  }, 120_000);
});
