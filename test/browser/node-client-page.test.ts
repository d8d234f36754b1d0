/**
 * The wrong client in a page: a Node client (generated without `--browser`) bundled by Vite into a
 * page builds, with Vite's warnings that it stubbed the node:* modules, and then must fail at
 * `connect` with the one line that says what to do (regenerate with `--browser`), not with a
 * TypeError from deep inside a stubbed module. Opened in Debian's chromium (headless).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { extname, join } from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { findBinary } from '../../scripts/system-packages.mjs';
import { cli, repoRoot } from '../client/support.js';
import { tempDir } from '../server/support.js';
import { CREATE_VITE_TSCONFIG } from '../support/create-vite.js';

const app = join(tempDir('node-client-page'), 'app');
let browser: Browser | undefined;
let server: Server | undefined;
let origin = '';

/** The page connects to a loopback URL nothing needs to answer: the client must refuse before any request. */
const MAIN_TS = `import { connect } from './mcp/client.js';

const results = document.querySelector<HTMLPreElement>('#results')!;
try {
  await connect({ url: 'http://127.0.0.1:9/mcp' });
  results.textContent = 'connected';
} catch (error) {
  results.textContent = error instanceof Error ? \`\${error.constructor.name}: \${error.message}\` : String(error);
}
document.body.dataset['done'] = 'yes';
`;

/** The tools as the user runs them: without Vitest's variables (with VITEST set, Vite stubs a node: import silently). */
const USER_ENV = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST') && name !== 'NODE_ENV'));

beforeAll(async () => {
  const executablePath = findBinary('chromium');
  if (executablePath === undefined) throw new Error('chromium is not installed: run `node scripts/system-packages.mjs` (npm run test:all does)');
  mkdirSync(join(app, 'src'), { recursive: true });
  writeFileSync(join(app, 'index.html'), '<!doctype html>\n<html><body><pre id="results"></pre><script type="module" src="/src/main.ts"></script></body></html>\n');
  writeFileSync(join(app, 'src', 'main.ts'), MAIN_TS);
  writeFileSync(join(app, 'tsconfig.json'), JSON.stringify(CREATE_VITE_TSCONFIG, null, 2));
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'page', private: true, type: 'module' }));
  symlinkSync(join(repoRoot, 'node_modules'), join(app, 'node_modules'), 'dir');
  // The mistake: no --browser.
  const generated = await cli(['client', join(repoRoot, 'examples/weather/manifest.yaml'), '-o', join(app, 'src', 'mcp'), '--no-version-banner']);
  expect(generated.code, generated.err).toBe(0);
  browser = await puppeteer.launch({ executablePath, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  rmSync(app, { recursive: true, force: true });
});

it('builds with Vite (which stubs node:*) and then says in one line to regenerate with --browser', async () => {
  const built = spawnSync(process.execPath, [join(repoRoot, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], { cwd: app, env: USER_ENV, encoding: 'utf8', timeout: 120_000 });
  const output = `${built.stdout}${built.stderr}`;
  expect(built.status, output).toBe(0);
  // What the user saw at build time: Vite's stubs for the Node client's modules.
  expect(output).toMatch(/externalized for browser compatibility/);

  const dist = join(app, 'dist');
  const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript' };
  server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const file = path === '/' ? 'index.html' : path.slice(1);
    let body: Buffer;
    try {
      body = readFileSync(join(dist, file));
    } catch {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' }).end(body);
  });
  origin = await new Promise<string>((resolve) => server!.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server!.address() as { port: number }).port}`)));

  const page = await browser!.newPage();
  const requests: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  await page.goto(`${origin}/`, { waitUntil: 'load' });
  await page.waitForSelector('body[data-done="yes"]', { timeout: 60_000 });
  const shown = await page.$eval('#results', (el) => el.textContent);
  await page.close();
  expect(shown).toBe("Error: This is mcp-gen's Node client (stdio, node:http), and this is not Node: regenerate it with `mcp-gen client … --browser` for a web page");
  // Refused before any request went out.
  expect(requests.filter((url) => !url.startsWith(origin))).toEqual([]);
}, 180_000);
