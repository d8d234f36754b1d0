/**
 * `mcp-gen mock --preview` without a browser (the Chromium run is test/apps-ui/browser.test.ts):
 * the page and its script, the views with sample inputs, the forwarding of a host's requests to the
 * mock over real loopback HTTP (as a host that declares the Apps extension, so app-only tools
 * answer), and bad requests answered with the right error while it keeps serving.
 */
import { spawn } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Script } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { createMockServer } from '../../src/mock/index.js';
import { HOST_SCRIPT } from '../../src/mock/preview/host-script.js';
import { previewViews } from '../../src/mock/preview/preview-data.js';
import { startPreview, type PreviewListener } from '../../src/mock/preview/preview-server.js';
import { introspect } from '../../src/load/introspect.js';
import { serviceFromSnapshot } from '../../src/model/service-from-snapshot.js';
import { compileToolValidators } from '../../src/mock/validators.js';
import { loadManifest } from '../../src/pipeline/manifest.js';
import type { HttpListener } from '../../src/runtime/index.js';
import { repoRoot, tempDir } from '../server/support.js';

const manifest = join(repoRoot, 'test/fixtures/apps-ui/weather-views/manifest.yaml');
let mock: HttpListener;
let preview: PreviewListener;
const closers: (() => Promise<void>)[] = [];

async function start(seed: number): Promise<PreviewListener> {
  const { model } = await loadManifest(manifest);
  const listener = await (await createMockServer({ model, seed, serverOptions: { logger: () => {} } })).listenHttp({ port: 0 });
  const started = await startPreview({ model, seed, mockUrl: listener.url, host: '127.0.0.1', port: 0 });
  closers.push(() => started.close(), () => listener.close());
  mock ??= listener;
  return started;
}

beforeAll(async () => {
  preview = await start(5);
});
afterAll(async () => {
  for (const close of closers) await close();
});

const rpc = async (method: unknown, params?: unknown, init: RequestInit = {}) => {
  const response = await fetch(`${preview.url}api/rpc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ method, params }), ...init });
  return { status: response.status, body: (await response.json()) as { result?: any; error?: { code: number; message: string } } };
};

describe('the preview page', () => {
  it('serves the page with the host script, which is valid JavaScript', async () => {
    const response = await fetch(preview.url);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const page = await response.text();
    expect(page).toContain(HOST_SCRIPT);
    expect(() => new Script(HOST_SCRIPT)).not.toThrow();
  });

  it('lists each view with the tools linked to it and sample inputs their schemas accept, the same for the same seed', async () => {
    const { model } = await loadManifest(manifest);
    const validators = compileToolValidators(model);
    const views = (await (await fetch(`${preview.url}api/views`)).json()) as { server: string; seed: string; views: { uri: string; title: string; tools: { name: string; input: unknown }[] }[] };
    expect(views.server).toBe('weather-views');
    expect(views.seed).toBe('5');
    expect(views.views.map((v) => [v.uri, v.title, v.tools.map((t) => t.name)])).toEqual([['ui://weather/forecast', 'Forecast', ['show_forecast', 'refresh_forecast']]]);
    for (const tool of views.views[0]!.tools) expect(validators.get(tool.name)!.input(tool.input), tool.name).toBe(true);
    const again = await start(5);
    expect(await (await fetch(`${again.url}api/views`)).text()).toBe(JSON.stringify(views));
  });

  it('a snapshot of a live server (no manifest views): the same views, titled from their ui:// resources', async () => {
    const snapshot = await introspect({ url: mock.url }, () => {});
    const { model } = serviceFromSnapshot(snapshot, 'snapshot', 'snapshot');
    const views = previewViews(model, compileToolValidators(model), 5);
    expect(views.map((v) => [v.uri, v.title, v.tools.map((t) => t.name)])).toEqual([['ui://weather/forecast', 'Forecast', ['show_forecast', 'refresh_forecast']]]);
  });
});

describe('forwarding to the mock', () => {
  it("reads the view and calls an app-only tool, as a host with the extension does", async () => {
    const read = await rpc('resources/read', { uri: 'ui://weather/forecast' });
    expect(read.body.result.contents[0]).toMatchObject({ mimeType: 'text/html;profile=mcp-app', _meta: { ui: { prefersBorder: true } } });
    const called = await rpc('tools/call', { name: 'refresh_forecast', arguments: { city: 'Oslo' } });
    expect(called.status).toBe(200);
    expect(typeof called.body.result.structuredContent.temperature).toBe('number');
    const listed = await rpc('tools/list', {});
    expect(listed.body.result.tools.find((t: { name: string }) => t.name === 'refresh_forecast')._meta).toEqual({ ui: { resourceUri: 'ui://weather/forecast', visibility: ['app'] } });
  });

  it("passes the mock's own errors through with their codes", async () => {
    const refused = await rpc('resources/read', { uri: 'ui://weather/nowhere' });
    expect(refused.body.error).toMatchObject({ code: expect.any(Number), message: expect.stringContaining('ui://weather/nowhere') });
    expect(refused.body.error?.code).not.toBe(-32603);
  });

  it.each([
    ['a method it does not forward', () => rpc('ping'), 200, -32601, /does not forward ping/],
    ['a body that is not JSON', () => fetch(`${preview.url}api/rpc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"method":' }), 400, -32700, /not JSON/],
    ['params that are not an object', () => rpc('tools/list', [1]), 400, -32600, /"params"\?: object/],
    ['a body that is not JSON by its type', () => fetch(`${preview.url}api/rpc`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' }), 415, -32600, /application\/json/],
    ['a GET of the endpoint', () => fetch(`${preview.url}api/rpc`), 405, -32600, /POST/],
    ['an unknown page', () => fetch(`${preview.url}nowhere`), 404, -32601, /no page at \/nowhere/],
  ])('refuses %s with the right error and keeps serving', async (_what, send, status, code, message) => {
    const answer = await send();
    const response = answer instanceof Response ? { status: answer.status, body: (await answer.json()) as { error?: { code: number; message: string } } } : answer;
    expect(response.status).toBe(status);
    expect(response.body.error?.code).toBe(code);
    expect(response.body.error?.message).toMatch(message);
    expect((await rpc('tools/call', { name: 'get_time', arguments: {} })).body.result.content).toBeDefined();
  });

  it('answers only under its own host names (no DNS rebinding)', async () => {
    const { request } = await import('node:http');
    const url = new URL(preview.url);
    const status = await new Promise<number | undefined>((done, fail) =>
      request({ host: url.hostname, port: url.port, path: '/api/views', headers: { host: `attacker.example:${url.port}` } }, (res) => (res.resume(), done(res.statusCode))).on('error', fail).end(),
    );
    expect(status).toBe(421);
    expect((await fetch(`http://localhost:${url.port}/api/views`)).status).toBe(200);
  });
});

describe('the command line', () => {
  it('--preview --enforce-auth: the mock refuses requests without the token, the preview sends it', async () => {
    const dir = tempDir('mock-preview-auth');
    cpSync(join(repoRoot, 'test/fixtures/apps-ui/weather-views'), dir, { recursive: true });
    const auth = 'auth:\n  resource: http://127.0.0.1:1/mcp\n  authorizationServers: [http://127.0.0.1:2]\n  scopesSupported: [weather:read]\n  verifier:\n    jwt: { issuer: http://127.0.0.1:2, algorithms: [ES256] }\n';
    writeFileSync(join(dir, 'manifest.yaml'), readFileSync(join(dir, 'manifest.yaml'), 'utf8').replace('tools:\n', `${auth}tools:\n`));
    const child = spawn(process.execPath, [join(repoRoot, 'bin/mcp-gen.js'), 'mock', join(dir, 'manifest.yaml'), '--preview', '--enforce-auth', '--port', '0', '--preview-port', '0', '--json'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    try {
      const [line] = (await Promise.race([once(createInterface({ input: child.stdout }), 'line'), once(child, 'exit').then(() => [undefined])])) as [string | undefined];
      expect(line, stderr).toBeDefined();
      const ready = JSON.parse(line as string) as { url: string; preview: string; auth: { enforced: boolean } };
      expect(ready.auth.enforced).toBe(true);
      const bare = await fetch(ready.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' });
      expect(bare.status).toBe(401);
      const called = await fetch(`${ready.preview}api/rpc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ method: 'tools/call', params: { name: 'refresh_forecast', arguments: { city: 'Oslo' } } }) });
      expect(((await called.json()) as { result: { structuredContent: { temperature: unknown } } }).result.structuredContent.temperature).toEqual(expect.any(Number));
    } finally {
      child.kill('SIGTERM');
      if (child.exitCode === null) await once(child, 'exit');
    }
  });

  it('--preview-port needs --preview, exit 2', async () => {
    const err: string[] = [];
    const code = await main(['mock', manifest, '--preview-port', '0'], { out: () => {}, err: (line) => err.push(line) });
    expect(code).toBe(2);
    expect(err.join('\n')).toMatch(/--preview-port.*needs --preview/);
  });
});
