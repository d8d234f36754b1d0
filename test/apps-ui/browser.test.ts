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
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { createServer as createHttpServer, type Server } from 'node:http';
import { extname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import puppeteer, { type Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findBinary } from '../../scripts/system-packages.mjs';
import { main } from '../../src/cli/main.js';
import type { HttpListener, McpServer } from '../../src/runtime/index.js';
import { openSession } from '../../src/runtime/client/connect-options.js';
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

/** `mcp-gen mock --preview` as a user runs it (the real binary); resolves with its --json ready line. */
async function startPreviewMock(manifest: string): Promise<{ url: string; preview: string }> {
  const child = spawn(process.execPath, [join(repoRoot, 'bin/mcp-gen.js'), 'mock', manifest, '--preview', '--port', '0', '--preview-port', '0', '--seed', '5', '--json'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  closers.push(async () => {
    child.kill('SIGTERM');
    if (child.exitCode === null) await once(child, 'exit');
  });
  const lines = createInterface({ input: child.stdout });
  const [line] = (await Promise.race([once(lines, 'line'), once(child, 'exit').then(() => [undefined])])) as [string | undefined];
  expect(line, stderr).toBeDefined();
  return JSON.parse(line as string) as { url: string; preview: string };
}

type PreviewEntry = [from: string, method: string, detail: any];

/** Opens the preview page and waits until its log has an entry passing `done`. */
async function openPreview(url: string, done: (entry: PreviewEntry) => boolean, act?: (tab: import('puppeteer-core').Page) => Promise<void>) {
  const tab = await browser.newPage();
  await tab.goto(url);
  await tab.waitForSelector('body[data-ready="yes"]', { timeout: 60_000 });
  const read = () => tab.evaluate(() => (globalThis as unknown as { previewLog: PreviewEntry[] }).previewLog);
  const waitFor = async (test: (entry: PreviewEntry) => boolean) => {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const log = await read();
      if (log.some(test)) return log;
      expect(Date.now() < deadline, JSON.stringify(log)).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  return { tab, read, waitFor, log: await (async () => (await act?.(tab), waitFor(done)))() };
}

/** What the mock answers this call directly, as a host with the extension would ask it. */
async function mockAnswer(url: string, name: string, args: unknown): Promise<any> {
  const session = await openSession({ url, extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } });
  try {
    return await session.request('tools/call', { name, arguments: args as Record<string, unknown> });
  } finally {
    await session.close();
  }
}

const sent = (log: PreviewEntry[], method: string) => log.find((entry) => entry[0] === 'host' && entry[1] === method)?.[2];
const asked = (log: PreviewEntry[], method: string) => log.filter((entry) => entry[0] === 'view' && entry[1] === method).map((entry) => entry[2]);

describe('mcp-gen mock --preview in chromium', () => {
  it('hosts the generated view with sample input and result, forwards its typed call, and shows what it asks', async () => {
    const { url, preview } = await startPreviewMock(join(serverSource, 'manifest.yaml'));
    const { tab, waitFor, log: first } = await openPreview(preview, (entry) => entry[1] === 'tools/call (answer)');
    try {
      // The host's side: ui/initialize answered, then the sample input (partial first) and the mock's result.
      expect(asked(first, 'ui/initialize')[0]).toMatchObject({ protocolVersion: '2026-01-26', appCapabilities: { availableDisplayModes: ['inline', 'fullscreen'] } });
      const input = sent(first, 'ui/notifications/tool-input').arguments as { city: string };
      expect(typeof input.city).toBe('string');
      // The partial input holds every member but the last, as if the model were still writing it.
      const partial = Object.fromEntries(Object.entries(input).slice(0, -1));
      expect(sent(first, 'ui/notifications/tool-input-partial')).toEqual({ arguments: partial });
      const result = sent(first, 'ui/notifications/tool-result');
      expect(result.structuredContent).toEqual((await mockAnswer(url, 'show_forecast', input)).structuredContent);
      // The view rendered the sample result.
      const frame = tab.frames().find((f) => f !== tab.mainFrame())!;
      await frame.waitForFunction((city: string) => (globalThis as unknown as { document: { querySelector(s: string): { textContent: string | null } | null } }).document.querySelector('#city')?.textContent === city, { timeout: 30_000 }, result.structuredContent.city);
      // Its typed call went through the host to the mock (an app-only tool) and came back.
      expect(asked(first, 'tools/call')).toEqual([{ name: 'refresh_forecast', arguments: { city: result.structuredContent.city } }]);

      // The theme toggle sends host-context-changed; the view then opens a link, updates the model
      // context, asks for fullscreen and reports what it saw with ui/message (and, hearing the
      // display mode's context change, does it all once more: only the first round is checked).
      await tab.click('#theme');
      const log = await waitFor((entry) => entry[0] === 'view' && entry[1] === 'ui/message');
      const seen = JSON.parse(asked(log, 'ui/message')[0].content[0].text).seen as unknown[][];
      expect(seen.filter((entry) => entry[0] !== 'called')).toEqual([
        ['partial', 'show_forecast', partial],
        ['input', 'show_forecast', input],
        ['result', 'show_forecast', result.structuredContent.city, result.structuredContent.temperatures],
        ['context', 'dark', expect.any(String)],
        // The host tells the new display mode as a context change before it answers the request.
        ['context', null, expect.any(String)],
        ['mode', 'fullscreen'],
      ]);
      expect(sent(log, 'ui/notifications/host-context-changed')).toEqual({ theme: 'dark' });
      expect(log.filter((entry) => entry[1] === 'ui/notifications/host-context-changed').map((entry) => entry[2].displayMode)).toEqual([undefined, 'fullscreen']);
      const answered = log.find((entry) => entry[1] === 'tools/call (answer)')![2];
      expect(seen).toContainEqual(['called', answered.structuredContent.temperature]);
      expect(asked(log, 'ui/open-link')[0]).toEqual({ url: 'https://example.com/oslo' });
      expect(asked(log, 'ui/update-model-context')[0]).toEqual({ structuredContent: { city: 'Oslo' } });
      expect(asked(log, 'ui/request-display-mode')[0]).toEqual({ mode: 'fullscreen' });
      expect(asked(log, 'ui/notifications/size-changed').length).toBeGreaterThan(0);
      expect(await tab.$eval('body', (body) => body.dataset['mode'])).toBe('fullscreen');
      expect(await tab.$eval('#context', (pre) => JSON.parse(pre.textContent ?? ''))).toEqual({ structuredContent: { city: 'Oslo' } });
      expect(await tab.$eval('#log a', (a) => a.getAttribute('href'))).toBe('https://example.com/oslo');
    } finally {
      await tab.close();
    }
  });

  it("hosts a view written with ext-apps' App class", async () => {
    const source = join(work, 'preview-app-class');
    cpSync(serverSource, source, { recursive: true });
    cpSync(join(pages, 'app-class', 'dist', 'index.html'), join(source, 'views', 'forecast.html'));
    const { preview } = await startPreviewMock(join(source, 'manifest.yaml'));
    const { tab, log } = await openPreview(preview, (entry) => entry[0] === 'view' && entry[1] === 'ui/message');
    try {
      const seen = JSON.parse(asked(log, 'ui/message')[0].content[0].text).seen as unknown[][];
      expect(seen).toEqual([
        ['input', sent(log, 'ui/notifications/tool-input').arguments],
        ['result', sent(log, 'ui/notifications/tool-result').structuredContent],
        ['called', log.find((entry) => entry[1] === 'tools/call (answer)')![2].structuredContent],
      ]);
      expect(log.find((entry) => entry[1].endsWith('(error)') || entry[1] === 'error')).toBeUndefined();
    } finally {
      await tab.close();
    }
  });
});
