/**
 * The docs page in a real browser: Debian's `chromium` (installed by `npm run test:all` when
 * missing, see scripts/system-packages.mjs), driven headless by puppeteer-core from `file://`. For the weather
 * manifest and a hostile one: no request leaves the page, no script but the page's own runs (the
 * hostile text tries <script>, event handlers, <svg onload>, <meta refresh>, stylesheets), every
 * tool is on the page, the search box filters, the theme switch works, the auth section, scopes and
 * the enums of prompt arguments and template variables are shown. Screenshots of both are
 * saved under test/docs/results/ (the weather one is committed as docs/weather-reference.png).
 */
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findBinary } from '../../scripts/system-packages.mjs';
import { cli, repoRoot } from '../client/support.js';
import { tempDir } from '../server/support.js';

const RESULTS = join(repoRoot, 'test', 'docs', 'results');
const work = tempDir('docs-browser');
let browser: Browser;

beforeAll(async () => {
  const executablePath = findBinary('chromium');
  if (executablePath === undefined) throw new Error('chromium is not installed: run `node scripts/system-packages.mjs` (npm run test:all does)');
  mkdirSync(RESULTS, { recursive: true });
  // --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start.
  browser = await puppeteer.launch({ executablePath, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  rmSync(work, { recursive: true, force: true });
});

interface Opened {
  page: Page;
  /** Every request the page tried beyond its own file. */
  outside: string[];
  consoleErrors: string[];
}

async function open(manifest: string, name: string): Promise<Opened> {
  const out = join(work, name);
  const run = await cli(['docs', manifest, '-o', out, '--no-version-banner']);
  expect(run.code, run.err).toBe(0);
  const url = pathToFileURL(join(out, 'index.html')).href;
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  const outside: string[] = [];
  const consoleErrors: string[] = [];
  await page.setRequestInterception(true);
  page.on('request', (request) => {
    if (request.url() === url) void request.continue();
    else {
      outside.push(request.url());
      void request.abort();
    }
  });
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  // Anything an injected script could do to say it ran sets window.__pwned (the test's DOM code
  // runs in the page as strings: this project's TypeScript has no DOM types).
  await page.goto(url, { waitUntil: 'load' });
  return { page, outside, consoleErrors };
}

const visibleTools = (page: Page): Promise<string[]> =>
  page.$$eval('section[data-kind="tool"]:not(.hidden) h3 code', (codes) => codes.map((c) => c.textContent ?? ''));

describe('the weather page', () => {
  let opened: Opened;
  const manifest = join(repoRoot, 'examples', 'weather', 'manifest.yaml');
  const toolNames = (parseYaml(readFileSync(manifest, 'utf8')) as { tools: { name: string }[] }).tools.map((t) => t.name);
  beforeAll(async () => {
    opened = await open(manifest, 'weather');
  }, 120_000);

  it('lists every tool, makes no request and logs no error', async () => {
    expect(await visibleTools(opened.page)).toEqual(toolNames);
    expect(opened.outside).toEqual([]);
    expect(opened.consoleErrors).toEqual([]);
    await opened.page.screenshot({ path: join(RESULTS, 'weather.png'), fullPage: true });
  });

  it('filters with the search box, and shows everything again when cleared', async () => {
    const { page } = opened;
    await page.type('#search', 'forecast');
    expect(await visibleTools(page)).toEqual(['get_forecast']);
    // The prompt plan_outing says "forecast" in its description: matched too.
    expect(await page.$$eval('section.item:not(.hidden) h3 code', (codes) => codes.map((c) => c.textContent))).toEqual(['get_forecast', 'plan_outing']);
    expect(await page.$eval('#count', (e) => e.textContent)).toBe(`2 of ${await page.$$eval('section.item', (s) => s.length)} shown`);
    // The nav link of a hidden section is hidden too.
    expect(await page.$$eval('nav a:not(.hidden) code', (codes) => codes.map((c) => c.textContent))).not.toContain('get_weather');
    await page.click('#search', { count: 3 });
    await page.keyboard.press('Backspace');
    expect(await visibleTools(page)).toEqual(toolNames);
  });

  it('shows the auth section, the scopes each tool needs, and the enums of prompt arguments and template variables', async () => {
    const { page } = opened;
    const auth = await page.$eval('#authorization', (e) => e.textContent ?? '');
    expect(auth).toContain('OAuth 2.1 access token');
    expect(auth).toContain('for the resource http://127.0.0.1:3000/mcp, issued by http://127.0.0.1:9400');
    expect(auth).toContain('Scopes supported: weather:read');
    expect(await page.evaluate("document.getElementById('authorization').getBoundingClientRect().height > 0")).toBe(true);
    expect(await page.$$eval('section[data-kind="tool"]', (sections) => sections.map((s) => s.querySelector('.scopes')?.textContent ?? ''))).toEqual([
      'Needs the scope weather:read',
      'Needs the scope weather:read',
      'Needs the scopes weather:read weather:reports',
    ]);
    expect(await page.$eval('section[data-kind="prompt"] table', (t) => t.textContent ?? '')).toContain('one of "hiking", "cycling", "picnic", "sailing"');
    expect(await page.$eval('section[data-kind="template"] table', (t) => t.textContent ?? '')).toContain('one of "lis", "osl", "sgp"');
    // Scopes are searchable.
    await page.type('#search', 'weather:reports');
    expect(await visibleTools(page)).toEqual(['climate_report']);
    await page.click('#search', { count: 3 });
    await page.keyboard.press('Backspace');
    expect(await visibleTools(page)).toEqual(toolNames);
  });

  it('switches between light and dark', async () => {
    const { page } = opened;
    const background = (): Promise<unknown> => page.evaluate('getComputedStyle(document.body).backgroundColor');
    const before = await background();
    await page.click('#theme');
    const after = await background();
    expect(after).not.toBe(before);
    await page.click('#theme');
    expect(await background()).toBe(before);
  });
});

describe('a hostile manifest', () => {
  let opened: Opened;
  beforeAll(async () => {
    opened = await open(join(repoRoot, 'test', 'fixtures', 'docs', 'hostile.yaml'), 'hostile');
  }, 120_000);

  it('runs no script but its own and requests nothing', async () => {
    const { page } = opened;
    expect(await page.evaluate('typeof window.__pwned')).toBe('undefined');
    expect(await page.$$eval('script', (s) => s.length)).toBe(1);
    expect(await page.$$eval('style', (s) => s.length)).toBe(1);
    expect(await page.$$eval('a', (links) => links.filter((a) => !(a.getAttribute('href') ?? '').startsWith('#')).length)).toBe(0);
    for (const tag of ['img', 'iframe', 'svg', 'main a', 'link', 'meta[http-equiv="refresh"]', 'b', 'i', 'u', 's']) {
      expect(await page.$$eval(tag, (found) => found.length), tag).toBe(0);
    }
    expect(opened.outside).toEqual([]);
    // Still the page it should be: visible, titled as text, the tools named as written.
    expect(await page.evaluate('getComputedStyle(document.body).display')).not.toBe('none');
    expect(await page.title()).toBe(`Hostile "quoted" 'server' — MCP server reference`);
    expect(await visibleTools(page)).toEqual(['lookup<b>', 'plain_tool']);
    await page.screenshot({ path: join(RESULTS, 'hostile.png'), fullPage: true });
  });

  it('shows bidi overrides as visible escapes, not as reordered text', async () => {
    const text = await opened.page.$eval('section[data-kind="tool"] .desc', (p) => p.textContent ?? '');
    expect(text).toContain('Reads \\u202Eevil\\u202C text');
    expect(text).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
  });

  it('searches hostile text as text', async () => {
    const { page } = opened;
    await page.type('#search', '<script>');
    expect(await visibleTools(page)).toEqual(['lookup<b>']);
  });
});
