// The bundled server as users ship it (slow tier: a tsc build and esbuild runs). The weather example
// with --mcpb goes through its own `npm run pack:mcpb` (tsc, esbuild, mcpb validate, mcpb pack); the
// .mcpb is unpacked into an empty folder and started the way a host starts it, from the manifest's
// mcp_config over stdio, and a tool is called. The --single-file build runs alone from another empty
// folder, and both builds import nothing outside node:* (no node_modules where they run).
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StdioPeer } from '../../bench/lib/client.mjs';

const repoRoot = join(import.meta.dirname, '..', '..');
const mcpbCli = join(repoRoot, 'node_modules', '@anthropic-ai', 'mcpb', 'dist', 'cli', 'cli.js');
const peers: StdioPeer[] = [];

/** A project generated from the weather manifest with its implemented handlers, built by its own scripts. */
let project: string;

beforeAll(() => {
  project = join(mkdtempSync(join(tmpdir(), 'mcp-gen-bundle-')), 'weather');
  execFileSync(process.execPath, [join(repoRoot, 'bin', 'mcp-gen.js'), 'server', join(repoRoot, 'examples', 'weather', 'manifest.yaml'), '-o', project, '--mcpb', '--quiet']);
  cpSync(join(repoRoot, 'examples', 'weather', 'server', 'handlers'), join(project, 'handlers'), { recursive: true });
  // What `npm install` would give it: the same pinned tools (esbuild, mcpb, typescript, jose).
  symlinkSync(join(repoRoot, 'node_modules'), join(project, 'node_modules'), 'dir');
  execFileSync('npm', ['run', '-s', 'pack:mcpb'], { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] });
}, 240_000);

afterAll(async () => {
  await Promise.all(peers.map((peer) => peer.close()));
});

/** Initializes, lists the tools and calls get_weather; returns the call's result. */
async function callWeather(command: string, args: string[], cwd: string): Promise<{ tools: string[]; result: { structuredContent?: Record<string, unknown> } }> {
  const peer = new StdioPeer({ command, args, cwd });
  peers.push(peer);
  const init = (await peer.initialize()) as { serverInfo: { name: string } };
  expect(init.serverInfo.name).toBe('weather');
  const listed = (await peer.request('tools/list', {})) as { tools: { name: string }[] };
  const result = (await peer.callTool('get_weather', { location: 'Lisbon', units: 'celsius' })) as { structuredContent?: Record<string, unknown> };
  return { tools: listed.tools.map((tool) => tool.name), result };
}

describe('npm run pack:mcpb', () => {
  it('packs a bundle that starts from its unpacked folder the way a host starts it, and answers a tool call', async () => {
    const bundle = join(project, 'weather.mcpb');
    expect(existsSync(bundle)).toBe(true);
    const unpacked = join(mkdtempSync(join(tmpdir(), 'mcp-gen-unpacked-')), 'weather');
    execFileSync(process.execPath, [mcpbCli, 'unpack', bundle, unpacked], { stdio: ['ignore', 'pipe', 'pipe'] });
    // Only the manifest and the bundled server travel; no node_modules.
    expect(readdirSync(unpacked).sort()).toEqual(['manifest.json', 'server']);
    const manifest = JSON.parse(readFileSync(join(unpacked, 'manifest.json'), 'utf8')) as { server: { mcp_config: { command: string; args: string[] } } };
    const { command, args } = manifest.server.mcp_config;
    expect(command).toBe('node');
    const { tools, result } = await callWeather(process.execPath, args.map((arg) => arg.replace('${__dirname}', unpacked)), tmpdir());
    expect(tools).toEqual(['get_weather', 'get_forecast', 'climate_report']);
    expect(result.structuredContent).toMatchObject({ location: 'Lisbon', units: 'celsius' });
    expect(typeof result.structuredContent?.['temperature']).toBe('number');
  });
});

/** The specifiers of a minified module's static imports (`import{a as b}from"x"`, `import"x"`). */
function staticImports(text: string): string[] {
  return [...text.matchAll(/\bimport\s*(?:[\w$*{},\s]+?\s*from\s*)?["']([^"']+)["']/g)].map((match) => match[1] as string);
}

describe('npm run bundle', () => {
  it('starts from two files: dist/server.mjs and the one chunk it imports, which imports only builtins', () => {
    // pack:mcpb ran the default recipe; dist/ is what it built.
    const dist = join(project, 'dist');
    const ours = (file: string): string[] => [...new Set(staticImports(readFileSync(join(dist, file), 'utf8')).filter((name) => !name.startsWith('node:')))];
    expect(ours('server.mjs')).toEqual(['./chunks/start.mjs']);
    expect(ours('chunks/start.mjs')).toEqual([]);
    // Every chunk loaded later still finds what it imports (the shared chunks merged into start.mjs are gone).
    const chunks = readdirSync(join(dist, 'chunks')).filter((name) => name.endsWith('.mjs'));
    expect(chunks.length).toBeGreaterThan(3);
    for (const chunk of chunks) {
      for (const name of ours(join('chunks', chunk))) expect(existsSync(join(dist, 'chunks', name)), `${chunk} imports ${name}`).toBe(true);
    }
  });
});

describe('npm run bundle -- --single-file', () => {
  it('writes one ES module that runs alone, and a stdio start loads no node:http', async () => {
    execFileSync(process.execPath, ['generated/bundle.mjs', '--single-file'], { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] });
    expect(readdirSync(join(project, 'dist')).sort()).toEqual(['server.mjs', 'server.mjs.map']);
    const alone = mkdtempSync(join(tmpdir(), 'mcp-gen-single-'));
    cpSync(join(project, 'dist', 'server.mjs'), join(alone, 'server.mjs'));
    // Every static import (minified: `import{a as b}from"x"`) names a builtin.
    const text = readFileSync(join(alone, 'server.mjs'), 'utf8');
    const imports = staticImports(text);
    expect(imports.length).toBeGreaterThan(0);
    expect(imports.filter((name) => !name?.startsWith('node:'))).toEqual([]);
    const { result } = await callWeather(process.execPath, [join(alone, 'server.mjs')], alone);
    expect(result.structuredContent).toMatchObject({ location: 'Lisbon' });
    // Builtins load where first used: Node's own list of loaded modules after a stdio start and a
    // call has no HTTP server (esbuild alone would have hoisted node:http's import to the top).
    const loaded = join(alone, 'loaded.txt');
    const dump = join(alone, 'dump.cjs');
    writeFileSync(dump, `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(loaded)}, process.moduleLoadList.join('\\n')));\n`);
    const peer = new StdioPeer({ command: process.execPath, args: ['--require', dump, join(alone, 'server.mjs')], cwd: alone });
    await peer.initialize();
    await peer.callTool('get_weather', { location: 'Lisbon' });
    await peer.close();
    const modules = readFileSync(loaded, 'utf8').split('\n');
    expect(modules).toContain('NativeModule internal/util/parse_args/parse_args'); // the list is real
    expect(modules.filter((name) => /^NativeModule (_?http|_http_server|https)$/.test(name))).toEqual([]);
  });
});
