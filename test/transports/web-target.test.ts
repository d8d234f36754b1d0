/**
 * `mcp-gen server --target web`: main.web.ts beside main.ts, recorded in the ledger so `check`
 * regenerates it the same way, type-checked strictly with the project; and the weather example's
 * main.web.ts (generated with the web target) serving every weather tool in both eras through its
 * exported `fetch`, the one line a platform needs.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { planServer } from '../../src/emit/server/index.js';
import { loadModel, repoRoot, runtimeSources, tempDir, typeCheck, write } from '../server/support.js';
import { fixCommand } from '../../src/check/fix-command.js';
import { targetFromRecipe } from '../../src/check/target.js';

const manifest = join(repoRoot, 'examples/weather/manifest.yaml');
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('--target web', () => {
  it('adds main.web.ts only for the web target; it compiles under the strict settings with the project', async () => {
    const model = await loadModel(manifest);
    const node = await planServer(model, { runtimeSources: runtimeSources() });
    const web = await planServer(model, { runtimeSources: runtimeSources(), target: 'web' });
    expect(node.files.some((f) => f.path === 'main.web.ts')).toBe(false);
    const entry = web.files.find((f) => f.path === 'main.web.ts')!;
    expect(entry.owner).toBe('user');
    // Bun serves the default export itself: on loopback unless MCP_HOST says otherwise.
    expect(entry.content).toContain("export default { fetch, hostname: env['MCP_HOST'] ?? '127.0.0.1' };");
    expect(entry.content).toContain('server.fetchHandler({');
    // The manifest has `auth`: the handler is a resource server.
    expect(entry.content).toContain('createResourceServerAuth(settings');
    expect(entry.content).not.toMatch(/from 'node:/);
    expect(web.files.map((f) => f.path).filter((p) => p !== 'main.web.ts')).toEqual(node.files.map((f) => f.path));
    const dir = tempDir('web-target');
    dirs.push(dir);
    await write(dir, web, manifest);
    expect(readFileSync(join(dir, 'main.web.ts'), 'utf8')).toContain('export const fetch = server.fetchHandler({');
    expect(typeCheck([dir])).toEqual([]);
  }, 120_000);

  it('is recorded in the ledger recipe, read back by check and printed in its fix command', () => {
    const ledger = JSON.parse(readFileSync(join(repoRoot, 'examples/weather/server/.mcp-gen-ledger.json'), 'utf8'));
    expect(ledger.recipe.options.target).toBe('web');
    const target = targetFromRecipe(join(repoRoot, 'examples/weather/server'), ledger.recipe);
    expect(target).toMatchObject({ command: 'server', job: { target: 'web' } });
    expect(fixCommand(target)).toContain('--target web');
  });
});

describe('the weather example’s main.web.ts', async () => {
  const { fetch } = (await import('../../examples/weather/server/main.web.js')) as { fetch: (request: Request) => Promise<Response> };
  const post = (headers: Record<string, string>, body: unknown) =>
    fetch(new Request('http://127.0.0.1:3000/mcp', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(body) }));
  const calls: [string, Record<string, unknown>][] = [
    ['get_weather', { location: 'Lisbon' }],
    ['get_forecast', { location: 'Lisbon', days: 2 }],
    ['climate_report', { location: 'Lisbon' }],
  ];
  const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' } };

  it.each(calls)('2026-07-28: %s answers with structured content', async (name, args) => {
    const response = await post({ 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': name }, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args, _meta: meta } });
    expect(response.status).toBe(200);
    const body = (await response.json()) as any;
    expect(body.error).toBeUndefined();
    expect(body.result.isError).not.toBe(true);
    expect(body.result.structuredContent).toBeTypeOf('object');
  });

  it.each(calls)('2025-11-25, in a session: %s answers with structured content', async (name, args) => {
    const opened = await post({}, { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
    const session = opened.headers.get('mcp-session-id')!;
    expect(session).toBeTruthy();
    const inSession = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
    await post(inSession, { jsonrpc: '2.0', method: 'notifications/initialized' });
    const response = await post(inSession, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name, arguments: args } });
    const text = await response.text();
    const body = response.headers.get('content-type') === 'text/event-stream' ? JSON.parse(text.split('\n').filter((l) => l.startsWith('data: {')).at(-1)!.slice(6)) : JSON.parse(text);
    expect(body.result.isError).not.toBe(true);
    expect(body.result.structuredContent).toBeTypeOf('object');
  });
});
