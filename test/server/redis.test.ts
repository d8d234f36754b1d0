/**
 * Many instances: two processes of the generated conformance server share one real redis-server
 * (started here on a loopback port; `npm run test:all` installs Debian's redis-server package
 * first when it is missing: scripts/system-packages.mjs). A session initialized on A is served by
 * B; a stream A closed early is resumed on B with
 * Last-Event-ID and every event arrives exactly once, relayed live while A is still producing it.
 * In stateless mode two processes without any store serve alternating requests, input-required
 * rounds included (one MCP_STATE_SECRET).
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedis } from '../support/redis.js';
import { repoRoot, startHttpServer } from './support.js';

const running: ChildProcess[] = [];
// Built in place (gitignored build/), so `import('redis')` resolves from the repository's node_modules.
const project = join(repoRoot, 'examples', 'conformance', 'server');
const main = join(project, 'build', 'main.js');
let redisUrl = '';

beforeAll(async () => {
  const tsc = spawnSync(process.execPath, [join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '-b', project], { encoding: 'utf8' });
  expect(tsc.stdout + tsc.stderr).toBe('');
  redisUrl = await startRedis(running);
}, 300_000);

afterAll(() => {
  // Servers first, Redis last.
  for (const child of running.reverse()) child.kill();
});

const ACCEPT = 'application/json, text/event-stream';

async function post(url: URL, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT, ...headers }, body: JSON.stringify(body) });
}

interface Event {
  id?: string;
  data?: string;
  retry?: string;
}

function parseEvents(text: string): Event[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const event: Event = {};
      for (const line of block.split('\n')) {
        const colon = line.indexOf(': ');
        const field = colon === -1 ? line.replace(/:$/, '') : line.slice(0, colon);
        const value = colon === -1 ? '' : line.slice(colon + 2);
        if (field === 'id' || field === 'data' || field === 'retry') event[field] = value;
      }
      return event;
    });
}

describe('two processes sharing one redis-server', () => {
  let a: URL;
  let b: URL;
  beforeAll(async () => {
    [a, b] = await Promise.all([startHttpServer(main, running, ['--redis', redisUrl]), startHttpServer(main, running, [], { ...process.env, MCP_REDIS_URL: redisUrl })]);
  });

  it('serves on B a session initialized on A', async () => {
    const init = await post(a, { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'redis', version: '1' } } });
    const session = init.headers.get('mcp-session-id')!;
    expect(session).toBeTruthy();
    await init.text();
    const headers = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
    expect((await post(b, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers)).status).toBe(202);
    const list = await post(b, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, headers);
    expect(list.status).toBe(200);
    expect(((await list.json()) as { result: { tools: unknown[] } }).result.tools.length).toBeGreaterThan(20);
    const call = await post(b, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'test_simple_text' } }, headers);
    expect(((await call.json()) as { result: { content: { text: string }[] } }).result.content[0]!.text).toBe('This is a simple text response for testing.');
    // Ended on B, it is gone for A too.
    expect((await fetch(b, { method: 'DELETE', headers })).status).toBe(204);
    expect((await post(a, { jsonrpc: '2.0', id: 3, method: 'tools/list' }, headers)).status).toBe(404);
  });

  it('resumes on B, with Last-Event-ID, a stream A closed early: every event exactly once', async () => {
    const init = await post(a, { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'redis', version: '1' } } });
    const session = init.headers.get('mcp-session-id')!;
    await init.text();
    const headers = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
    const call = await post(a, { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'test_reconnection', _meta: { progressToken: 'r' } } }, headers);
    expect(call.headers.get('content-type')).toBe('text/event-stream');
    const first = parseEvents(await call.text());
    expect(first[0]).toEqual({ id: expect.any(String), data: '' });
    expect(first.at(-1)).toEqual({ retry: '500' });
    const beforeCut = first.filter((e) => e.data).map((e) => JSON.parse(e.data!));
    expect(beforeCut.some((m) => m.id === 5)).toBe(false);
    const lastId = first.filter((e) => e.id !== undefined).at(-1)!.id!;
    await new Promise((resolve) => setTimeout(resolve, 500));
    const resumed = await fetch(b, { headers: { accept: 'text/event-stream', 'last-event-id': lastId, ...headers } });
    expect(resumed.status).toBe(200);
    const after = parseEvents(await resumed.text());
    const messages = [...beforeCut, ...after.filter((e) => e.data).map((e) => JSON.parse(e.data!))];
    expect(messages.filter((m) => m.id === 5)).toEqual([
      { jsonrpc: '2.0', id: 5, result: { content: [{ type: 'text', text: 'Reconnection test completed: the result arrived on the resumed stream' }] } },
    ]);
    expect(messages.filter((m) => m.method === 'notifications/progress')).toHaveLength(1);
    const ids = [...first, ...after].map((e) => e.id).filter((id) => id !== undefined);
    expect(new Set(ids).size).toBe(ids.length);
    // Resuming again from the same point replays the same events, no more, no fewer.
    const again = await fetch(a, { headers: { accept: 'text/event-stream', 'last-event-id': lastId, ...headers } });
    expect(parseEvents(await again.text()).map((e) => e.id)).toEqual(after.map((e) => e.id));
  });

  it('relays on B, live, the rest of a stream A is still producing, and ends it when A does', async () => {
    const init = await post(a, { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'redis', version: '1' } } });
    const session = init.headers.get('mcp-session-id')!;
    await init.text();
    const headers = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
    const call = await post(a, { jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 'test_reconnection', _meta: { progressToken: 'live' } } }, headers);
    const first = parseEvents(await call.text());
    expect(first.at(-1)).toEqual({ retry: '500' });
    const lastId = first.filter((e) => e.id !== undefined).at(-1)!.id!;
    // At once, while A's handler still runs (it answers 200 ms after closing the stream).
    const resumed = await fetch(b, { headers: { accept: 'text/event-stream', 'last-event-id': lastId, ...headers } });
    expect(resumed.status).toBe(200);
    const after = parseEvents(await resumed.text());
    // The answer arrived on this connection, which then ended: no retry hint, nothing to resume.
    expect(after.filter((e) => e.data).map((e) => JSON.parse(e.data!))).toEqual([
      { jsonrpc: '2.0', id: 6, result: { content: [{ type: 'text', text: 'Reconnection test completed: the result arrived on the resumed stream' }] } },
    ]);
    expect(after.some((e) => e.retry !== undefined)).toBe(false);
    const ids = [...first, ...after].map((e) => e.id).filter((id) => id !== undefined);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('gives a relayed stream one connection: a second resumption on B takes over from the first', async () => {
    const init = await post(a, { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'redis', version: '1' } } });
    const session = init.headers.get('mcp-session-id')!;
    await init.text();
    const headers = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
    const call = await post(a, { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'test_reconnection', _meta: { progressToken: 'twice' } } }, headers);
    const lastId = parseEvents(await call.text()).filter((e) => e.id !== undefined).at(-1)!.id!;
    const resume = { accept: 'text/event-stream', 'last-event-id': lastId, ...headers };
    const firstResume = await fetch(b, { headers: resume });
    const firstText = firstResume.text();
    const secondResume = await fetch(b, { headers: resume });
    // The first connection ends empty once the second has taken the stream; the answer goes to the second.
    expect(parseEvents(await firstText).filter((e) => e.data)).toEqual([]);
    const second = parseEvents(await secondResume.text()).filter((e) => e.data).map((e) => JSON.parse(e.data!));
    expect(second.map((m) => m.id)).toEqual([7]);
  });
});

describe('stateless: two processes with no shared store', () => {
  let a: URL;
  let b: URL;
  beforeAll(async () => {
    const env = { ...process.env, MCP_STATE_SECRET: 'one secret for every process' };
    [a, b] = await Promise.all([startHttpServer(main, running, [], env), startHttpServer(main, running, [], env)]);
  });

  const meta = (capabilities = {}) => ({
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': capabilities,
  });
  const call = (url: URL, id: number, params: Record<string, unknown>) =>
    post(url, { jsonrpc: '2.0', id, method: 'tools/call', params }, { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': String(params['name']) });

  it('serves requests alternating between them', async () => {
    for (let i = 0; i < 10; i++) {
      const response = await call(i % 2 === 0 ? a : b, i, { name: 'test_simple_text', _meta: meta() });
      expect(response.status).toBe(200);
      expect(((await response.json()) as { result: { resultType: string } }).result.resultType).toBe('complete');
    }
  });

  it('finishes on B an input-required round begun on A', async () => {
    const first = (await (await call(a, 1, { name: 'test_input_required_result_elicitation', _meta: meta({ elicitation: {} }) })).json()) as {
      result: { resultType: string; requestState: string };
    };
    expect(first.result.resultType).toBe('input_required');
    const second = (await (
      await call(b, 2, {
        name: 'test_input_required_result_elicitation',
        inputResponses: { user_name: { action: 'accept', content: { name: 'Grace' } } },
        requestState: first.result.requestState,
        _meta: meta({ elicitation: {} }),
      })
    ).json()) as { result: { content: { text: string }[] } };
    expect(second.result.content[0]!.text).toBe('Hello, Grace!');
  });
});
