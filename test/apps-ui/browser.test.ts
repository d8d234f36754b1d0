/**
 * MCP Apps end to end in Debian's chromium (slow tier): a host page built on ext-apps' own
 * AppBridge (pinned in test/apps-ui/host/) connects the official SDK client, or mcp-gen's own
 * (`client --browser`, the bridge's tool calls forwarded by hand), to the generated server in both eras, reads the view the tool links to and frames it in a sandboxed iframe. The view is a
 * Vite project using mcp-gen's generated bindings (`client --view`), bundled into the one HTML file
 * the server embeds. It receives the partial and complete tool input and the result (typed), calls
 * an app-only tool through the host, refuses a result that breaks the outputSchema, hears the
 * cancellation and the host context change, and asks the host to open a link, take model context
 * and change display mode. A page written with ext-apps' own App class works against the server too.
 */
import { cpSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createServer as createHttpServer, type Server } from 'node:http';
import { extname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import puppeteer, { type Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findBinary } from '../../scripts/system-packages.mjs';
import { main } from '../../src/cli/main.js';
import type { HttpListener, McpServer } from '../../src/runtime/index.js';
import { repoRoot, tempDir } from '../server/support.js';

const work = tempDir('apps-ui-browser');
const pages = join(work, 'pages');
const serverSource = join(work, 'server-src');
const hostModules = join(repoRoot, 'test/apps-ui/host');
const closers: (() => Promise<void>)[] = [];
let browser: Browser;
let hostOrigin: string;
let serverUrl: string;

/** The tools as a user runs them: without Vitest's variables (with VITEST set, Vite stubs node: imports). */
const USER_ENV = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST') && name !== 'NODE_ENV'));

function run(command: string, args: string[], cwd: string): void {
  const result = spawnSync(command, args, { cwd, env: USER_ENV, encoding: 'utf8', timeout: 240_000 });
  expect(result.status, `${command} ${args.join(' ')}\n${result.stdout}${result.stderr}`).toBe(0);
}

function viteBuild(page: string, config?: string): void {
  const args = [join(repoRoot, 'node_modules/vite/bin/vite.js'), 'build', join(pages, page), '--outDir', join(pages, page, 'dist'), '--emptyOutDir', '--logLevel', 'warn'];
  run(process.execPath, config === undefined ? args : [...args, '--config', config], pages);
}

async function cli(argv: string[]): Promise<void> {
  const err: string[] = [];
  const code = await main(argv, { out: () => {}, err: (line) => err.push(line) });
  expect(code, err.join('\n')).toBe(0);
}

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript' };

function serve(dir: string): Promise<string> {
  const server: Server = createHttpServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const file = path === '/' ? 'index.html' : path.slice(1);
    let body: Buffer;
    try {
      body = readFileSync(join(dir, file));
    } catch {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body);
  });
  closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as { port: number }).port}`)));
}

beforeAll(async () => {
  const executablePath = findBinary('chromium');
  if (executablePath === undefined) throw new Error('chromium is not installed: run `node scripts/system-packages.mjs` (npm run test:all does)');
  run('npm', ['ci', '--prefix', hostModules, '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts'], repoRoot);
  cpSync(join(repoRoot, 'test/fixtures/apps-ui/weather-views'), serverSource, { recursive: true });
  cpSync(join(repoRoot, 'test/fixtures/apps-ui/pages'), pages, { recursive: true });
  symlinkSync(join(hostModules, 'node_modules'), join(pages, 'node_modules'), 'dir');
  const singleFile = join(pages, 'single-file.vite.config.mjs');

  // The view: bindings generated from the manifest, the page bundled into one file the server embeds.
  await cli(['client', join(serverSource, 'manifest.yaml'), '--view', 'ui://weather/forecast', '-o', join(pages, 'view', 'view'), '--no-version-banner']);
  viteBuild('view', singleFile);
  const built = readFileSync(join(pages, 'view', 'dist', 'index.html'), 'utf8');
  expect(built).not.toMatch(/<script[^>]*src=/);
  writeFileSync(join(serverSource, 'views', 'forecast.html'), built);
  // The App-class page, served by the host page's origin; then the host page itself.
  viteBuild('app-class', singleFile);
  // The host page may also reach the server through mcp-gen's own client (for web pages: --browser).
  await cli(['client', join(serverSource, 'manifest.yaml'), '--browser', '-o', join(pages, 'host', 'client'), '--no-version-banner']);
  viteBuild('host');
  cpSync(join(pages, 'app-class', 'dist', 'index.html'), join(pages, 'host', 'dist', 'app-class.html'));

  const out = join(work, 'server');
  await cli(['server', join(serverSource, 'manifest.yaml'), '-o', out, '--no-version-banner']);
  cpSync(join(serverSource, 'handlers'), join(out, 'handlers'), { recursive: true });
  const { createServer } = (await import(pathToFileURL(join(out, 'generated/server.ts')).href)) as { createServer: (h: unknown, o: unknown) => McpServer };
  const { handlers } = (await import(pathToFileURL(join(out, 'handlers/index.ts')).href)) as { handlers: unknown };
  hostOrigin = await serve(join(pages, 'host', 'dist'));
  const listener: HttpListener = await createServer(handlers, { logger: () => {} }).listenHttp({ port: 0, allowedOrigins: [hostOrigin] });
  closers.push(() => listener.close());
  serverUrl = listener.url;
  browser = await puppeteer.launch({ executablePath, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all(closers.map((close) => close()));
});

async function host(era: string, page: 'generated' | 'app-class', client: 'sdk' | 'ours' = 'sdk'): Promise<unknown[][]> {
  const tab = await browser.newPage();
  try {
    await tab.goto(`${hostOrigin}/?${new URLSearchParams({ server: serverUrl, era, page, client })}`);
    await tab.waitForSelector('body[data-done="yes"]', { timeout: 60_000 });
    return (await tab.evaluate(() => (globalThis as unknown as { hostLog: unknown[][] }).hostLog)) as unknown[][];
  } finally {
    await tab.close();
  }
}

const VIEW_UI = { ui: { csp: { connectDomains: ['https://api.example.com'] }, permissions: { geolocation: {} }, prefersBorder: true } };

describe.each(['2025-11-25', '2026-07-28'])('MCP Apps in chromium at %s', (era) => {
  it.each(['sdk', 'ours'] as const)('the generated view, hosted by ext-apps AppBridge through the %s client', async (client) => {
    const log = await host(era, 'generated', client);
    if (client === 'ours') expect(log).toContainEqual(['protocol', era]);
    expect(log.find((entry) => entry[0] === 'error')).toBeUndefined();
    expect(log.find((entry) => entry[0] === 'view')).toEqual(['view', 'ui://weather/forecast', 'text/html;profile=mcp-app', VIEW_UI, ['show_forecast', 'refresh_forecast', 'get_time']]);
    const message = log.find((entry) => entry[0] === 'message')?.[1] as { seen: unknown[]; initial: unknown };
    // The host's notifications in the order sent; the view's own call answers whenever the server does.
    expect(message.seen.filter((entry) => (entry as unknown[])[0] !== 'called')).toEqual([
      ['partial', 'show_forecast', { city: 'Os' }],
      ['input', 'show_forecast', { city: 'Oslo', days: 2 }],
      ['result', 'show_forecast', 'Oslo', [20, 21]],
      ['rejected', 'show_forecast', 'OutputRejected'],
      ['cancelled', 'user'],
      ['context', 'light', 'nb-NO'],
      ['mode', 'fullscreen'],
    ]);
    expect(message.seen).toContainEqual(['called', 4]);
    expect(log).toContainEqual(['open-link', 'https://example.com/oslo']);
    expect(log).toContainEqual(['model-context', { structuredContent: { city: 'Oslo' } }]);
    expect(log).toContainEqual(['display-mode', 'fullscreen']);
    expect(log).toContainEqual(['size', 'number', 'number']);
  });

  it("a view written with ext-apps' App class works against the generated server", async () => {
    const log = await host(era, 'app-class');
    expect(log.find((entry) => entry[0] === 'error')).toBeUndefined();
    const message = log.find((entry) => entry[0] === 'message')?.[1] as { seen: unknown[] };
    expect(message.seen.slice(0, 2)).toEqual([
      ['input', { city: 'Oslo', days: 2 }],
      ['result', { city: 'Oslo', temperatures: [20, 21] }],
    ]);
    // Its call through the host reached the generated server's app-only tool.
    expect(message.seen).toContainEqual(['called', { temperature: 6 }]);
  });
});
