/**
 * Streamable HTTP streams in a session: the standalone GET stream and what goes on it, priming
 * events, polling (a stream closed early with `retry:`), resumption with `Last-Event-ID` (each
 * event exactly once, only onto the stream that was cut), the session lifecycle and the limits.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, InMemorySessionStore, type HttpListener, type McpServer } from '../../src/runtime/index.js';
import { statelessDefinition, statelessHandlers } from './stateless-support.js';
import { listen } from '../transports/adapters.js';

const BOTH = 'application/json, text/event-stream';
let server: McpServer;
let listener: HttpListener;
let url: string;
const opened: HttpListener[] = [];

beforeAll(async () => {
  server = createServer(statelessDefinition(), statelessHandlers, { logger: () => undefined });
  listener = await listen(server, {});
  url = listener.url;
});
afterAll(async () => {
  await Promise.all([listener, ...opened].map((l) => l.close()));
});

function post(target: string, body: unknown, session?: string): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: BOTH };
  if (session !== undefined) headers['mcp-session-id'] = session;
  return fetch(target, { method: 'POST', headers, body: JSON.stringify(body) });
}

async function openSession(target = url): Promise<string> {
  const response = await post(target, {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'streams', version: '1' } },
  });
  const session = response.headers.get('mcp-session-id')!;
  await response.text();
  expect((await post(target, { jsonrpc: '2.0', method: 'notifications/initialized' }, session)).status).toBe(202);
  return session;
}

interface SseEvent {
  id?: string;
  data?: string;
  retry?: string;
}

/** Reads SSE events as they arrive. */
function events(response: Response) {
  const reader = response.body!.getReader();
  let buffer = '';
  let done = false;
  return {
    async next(): Promise<SseEvent | undefined> {
      while (!buffer.includes('\n\n')) {
        if (done) return undefined;
        const chunk = await reader.read();
        if (chunk.done) done = true;
        else buffer += new TextDecoder().decode(chunk.value);
      }
      const raw = buffer.slice(0, buffer.indexOf('\n\n'));
      buffer = buffer.slice(buffer.indexOf('\n\n') + 2);
      const event: SseEvent = {};
      for (const line of raw.split('\n')) {
        const colon = line.indexOf(': ');
        const [field, value] = colon === -1 ? [line.replace(/:$/, ''), ''] : [line.slice(0, colon), line.slice(colon + 2)];
        if (field === 'id' || field === 'data' || field === 'retry') event[field] = value;
      }
      return event;
    },
    async rest(): Promise<SseEvent[]> {
      const all: SseEvent[] = [];
      for (let e = await this.next(); e !== undefined; e = await this.next()) all.push(e);
      return all;
    },
    cancel: () => reader.cancel(),
  };
}

function get(target: string, session: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(target, { headers: { accept: 'text/event-stream', 'mcp-session-id': session, ...headers } });
}

describe('Streamable HTTP streams', () => {
  it('opens one standalone stream per session, primed, carrying notifications that belong to no request', async () => {
    const session = await openSession();
    const subscribed = await post(url, { jsonrpc: '2.0', id: 1, method: 'resources/subscribe', params: { uri: 'info://server' } }, session);
    expect(subscribed.status).toBe(200);
    const stream = await get(url, session);
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toBe('text/event-stream');
    const reader = events(stream);
    const priming = await reader.next();
    expect(priming).toEqual({ id: expect.any(String), data: '' });
    expect((await get(url, session)).status).toBe(409);
    server.notify.resourceUpdated('info://other');
    server.notify.resourceUpdated('info://server');
    server.notify.toolsChanged();
    const updated = await reader.next();
    expect(JSON.parse(updated!.data!)).toEqual({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'info://server' } });
    const changed = await reader.next();
    expect(JSON.parse(changed!.data!)).toEqual({ jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: {} });
    await reader.cancel();
  });

  it('closes a stream early for polling and resumes it with Last-Event-ID, each event exactly once', async () => {
    const session = await openSession();
    const response = await post(url, { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'poll', arguments: {}, _meta: { progressToken: 'pt' } } }, session);
    const first = await events(response).rest();
    expect(first[0]).toEqual({ id: expect.any(String), data: '' });
    expect(first.at(-1)).toEqual({ retry: '100' });
    const seen = first.filter((e) => e.data).map((e) => JSON.parse(e.data!));
    expect(seen.every((m) => m.id === undefined)).toBe(true);
    const lastId = first.filter((e) => e.id !== undefined).at(-1)!.id!;
    await new Promise((resolve) => setTimeout(resolve, 120));
    const resumed = await events(await get(url, session, { 'last-event-id': lastId })).rest();
    expect(resumed.at(-1)).toEqual({ retry: '1000' });
    const later = resumed.filter((e) => e.data).map((e) => JSON.parse(e.data!));
    const all = [...seen, ...later];
    expect(all.filter((m) => m.method === 'notifications/progress').map((m) => m.params.progress)).toEqual([1, 2, 3]);
    expect(all.filter((m) => m.id === 7)).toEqual([{ jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: 'polled' }] } }]);
    const ids = [...first, ...resumed].map((e) => e.id).filter((id) => id !== undefined);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('replays only streams of the requesting session', async () => {
    const mine = await openSession();
    const theirs = await openSession();
    const response = await post(url, { jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'poll', arguments: {} } }, mine);
    const first = await events(response).rest();
    const eventId = first.find((e) => e.id !== undefined)!.id!;
    const foreign = await get(url, theirs, { 'last-event-id': eventId });
    expect(foreign.status).toBe(400);
    expect((await get(url, mine, { 'last-event-id': 'no-such-event' })).status).toBe(400);
  });

  it('needs Accept: text/event-stream and a known session on GET; ends sessions on DELETE', async () => {
    const session = await openSession();
    expect((await fetch(url, { headers: { accept: 'application/json', 'mcp-session-id': session } })).status).toBe(406);
    expect((await get(url, 'unknown-session')).status).toBe(404);
    expect((await fetch(url, { headers: { accept: 'text/event-stream' } })).status).toBe(400);
    const deleted = await fetch(url, { method: 'DELETE', headers: { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' } });
    expect(deleted.status).toBe(204);
    const after = await post(url, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, session);
    expect(after.status).toBe(404);
  });

  it('issues distinct, random, visible-ASCII session ids', async () => {
    const ids = await Promise.all(Array.from({ length: 20 }, () => openSession()));
    expect(new Set(ids).size).toBe(20);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it('limits the requests one session may have running (limits.maxInFlight)', async () => {
    const limited = await listen(createServer(statelessDefinition(), statelessHandlers, { logger: () => undefined, limits: { maxInFlight: 2 } }), {});
    opened.push(limited);
    const session = await openSession(limited.url);
    const slow = (id: number) => post(limited.url, { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'slow', arguments: { steps: 1, ms: 300 } } }, session);
    const running = [await slow(1), await slow(2)];
    const refused = await slow(3);
    expect(((await refused.json()) as { id: number; error: { code: number } })).toMatchObject({ id: 3, error: { code: -32000 } });
    for (const r of running) await r.text();
    const again = await slow(4);
    expect(again.status).toBe(200);
    expect(await again.text()).toContain('"id":4,"result"');
  });

  it('serves a session begun on one transport from another sharing the session store', async () => {
    const sessionStore = new InMemorySessionStore();
    const a = await listen(server, { sessionStore });
    const b = await listen(server, { sessionStore });
    opened.push(a, b);
    const session = await openSession(a.url);
    const listed = await post(b.url, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, session);
    expect(listed.status).toBe(200);
    expect(((await listed.json()) as { result: { tools: unknown[] } }).result.tools.length).toBeGreaterThan(3);
    expect((await fetch(b.url, { method: 'DELETE', headers: { 'mcp-session-id': session } })).status).toBe(204);
    expect(await sessionStore.load(session)).toBeUndefined();
  });
});
