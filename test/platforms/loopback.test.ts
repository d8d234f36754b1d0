/**
 * `bun main.web.ts`, as main.web.ts says to run it, serves the default export on 127.0.0.1 (Bun
 * alone would listen on every interface), and `MCP_HOST` names another host. The listening
 * address is read from the kernel's socket table (/proc/net/tcp, tcp6), not inferred from a
 * connection that loopback would accept either way. The same default export, now carrying
 * `hostname`, still serves on Deno and workerd.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDocument, type YAMLMap, type YAMLSeq } from 'yaml';
import { buildWebServer, deployDeno, deployWorkerd, ensurePlatforms, freePort, TOOLS, WORK_DIR, type Deployment } from '../../scripts/platforms.mjs';
import { repoRoot } from '../client/support.js';

const WEATHER = join(repoRoot, 'examples', 'weather');
const SERVER_DIR = join(WORK_DIR, 'loopback');
let entry = '';
const running: ChildProcess[] = [];

/** Local addresses of the sockets listening on `port`, as `ip` (IPv4 dotted, IPv6 hex). */
function listeningAddresses(port: number): string[] {
  const found: string[] = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const [, local, , state] = line.trim().split(/\s+/);
      if (local === undefined || state !== '0A') continue; // 0A: LISTEN
      const [hexAddress, hexPort] = local.split(':') as [string, string];
      if (parseInt(hexPort, 16) !== port) continue;
      found.push(hexAddress.length === 8 ? (hexAddress.match(/../g) as string[]).reverse().map((b) => parseInt(b, 16)).join('.') : hexAddress);
    }
  }
  return found;
}

/** `bun build/main.web.js` with PORT (and `env`); resolves once the port listens. */
async function bunServe(env: Record<string, string>): Promise<{ port: number; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(TOOLS.bun, [join('build', 'main.web.js')], { cwd: SERVER_DIR, env: { ...process.env, PORT: String(port), ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  running.push(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  for (let waited = 0; waited < 30_000; waited += 100) {
    if (child.exitCode !== null) throw new Error(`bun exited (${child.exitCode}): ${output}`);
    if (listeningAddresses(port).length > 0) return { port, child };
    await new Promise((done) => setTimeout(done, 100));
  }
  throw new Error(`bun did not listen on ${port}: ${output}`);
}

const META_2026 = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'loopback', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };

/** A 2026-07-28 tools/list through the handler (the platform serves it). */
async function listTools(url: string): Promise<number> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: META_2026 } }),
  });
  await response.text();
  return response.status;
}

beforeAll(() => {
  ensurePlatforms({ quiet: true });
  mkdirSync(WORK_DIR, { recursive: true });
  // The weather manifest without `auth` (every request would need a token) and its tool scopes.
  const document = parseDocument(readFileSync(join(WEATHER, 'manifest.yaml'), 'utf8'));
  document.delete('auth');
  for (const tool of (document.get('tools') as YAMLSeq<YAMLMap>).items) tool.delete('scopes');
  const manifest = join(WORK_DIR, 'loopback.yaml');
  writeFileSync(manifest, document.toString());
  entry = buildWebServer(manifest, join(WEATHER, 'server', 'handlers'), SERVER_DIR);
}, 300_000);

afterAll(() => {
  for (const child of running) child.kill('SIGKILL');
  rmSync(SERVER_DIR, { recursive: true, force: true });
});

describe('the generated main.web.ts binds loopback unless told otherwise', () => {
  it('bun main.web.js listens on 127.0.0.1 only, and serves there', async () => {
    const { port } = await bunServe({});
    expect(listeningAddresses(port)).toEqual(['127.0.0.1']);
    expect(await listTools(`http://127.0.0.1:${port}/mcp`)).toBe(200);
  });

  it('MCP_HOST names another host', async () => {
    const { port } = await bunServe({ MCP_HOST: '0.0.0.0' });
    expect(listeningAddresses(port)).toEqual(['0.0.0.0']);
  });

  it('the default export with `hostname` still serves on Deno and workerd', async () => {
    const deployments: Deployment[] = [await deployDeno(entry, join(WORK_DIR, 'loopback-deno')), await deployWorkerd(entry, join(WORK_DIR, 'loopback-workerd'))];
    try {
      for (const deployment of deployments) expect(await listTools(deployment.url), deployment.url).toBe(200);
    } finally {
      for (const deployment of deployments) await deployment.stop();
    }
  });
});
