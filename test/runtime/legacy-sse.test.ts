/**
 * The legacy HTTP+SSE transport (2024-11-05) beside the Streamable HTTP endpoint (legacy-sse.ts):
 * the official SDK's SSEClientTransport runs the whole SDK suite over it; raw requests check the
 * endpoint event, the 202s, errors answered on the stream under the request's id, unknown and
 * missing session ids, the method per path, `legacySse: false`, and a session ended with its stream;
 * clients that cut anywhere (mid-body, mid-call, after the stream went) leave no session behind;
 * our own client reaches it through its fallback. transports/web-legacy-sse.test.ts runs it all
 * against the Web-standard handler.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { createServer, InMemorySessionStore, type HttpListener } from '../../src/runtime/index.js';
import { openSession } from '../../src/runtime/client/index.js';
import { buildDefinition, handlers } from './fixtures/demo-server.js';
import { CLIENT_CAPABILITIES, defineSdkSuite, prepareClient, type SdkTarget } from './sdk-suite.js';
import { listen } from '../transports/adapters.js';
import { testHook } from '../../src/runtime/transports/http/test-hook.js';

let listener: HttpListener;
let client: Client;
const target: SdkTarget = { client: () => client, logs: [] };
const sseUrl = (): string => listener.url.replace(/\/mcp$/, '/sse');

beforeAll(async () => {
  listener = await listen(createServer(buildDefinition(3), handlers, { logger: () => {} }));
  client = new Client({ name: 'legacy-sse-test', version: '1.0.0' }, { capabilities: CLIENT_CAPABILITIES });
  prepareClient(client, target.logs);
  await client.connect(new SSEClientTransport(new URL(sseUrl())));
});

afterAll(async () => {
  await client?.close();
  await listener?.close();
});

describe('the legacy HTTP+SSE transport driven by the official SDK client', () => {
  defineSdkSuite(target);
});

/** A raw GET /sse: the events as they arrive, and the POST URL of its endpoint event. */
async function openStream(url: string): Promise<{ events: { event: string; data: string }[]; post: (body: string) => Promise<Response>; close: () => void; next: (test: (e: { event: string; data: string }) => boolean) => Promise<{ event: string; data: string }>; ended: Promise<void> }> {
  const controller = new AbortController();
  const response = await fetch(url, { headers: { accept: 'text/event-stream' }, signal: controller.signal });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/event-stream');
  const events: { event: string; data: string }[] = [];
  const waiters: { test: (e: { event: string; data: string }) => boolean; resolve: (e: { event: string; data: string }) => void }[] = [];
  const ended = (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body!) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1] ?? 'message';
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (data === undefined) continue;
          const e = { event, data };
          events.push(e);
          const i = waiters.findIndex((w) => w.test(e));
          if (i !== -1) waiters.splice(i, 1)[0]!.resolve(e);
        }
      }
    } catch {
      // aborted
    }
  })();
  const next = (test: (e: { event: string; data: string }) => boolean) =>
    new Promise<{ event: string; data: string }>((resolve) => {
      const found = events.find(test);
      if (found) resolve(found);
      else waiters.push({ test, resolve });
    });
  const endpoint = await next((e) => e.event === 'endpoint');
  // Beside the endpoint: /messages for /mcp, /api/messages for /api/mcp.
  expect(endpoint.data).toMatch(/^(?:\/[\w-]+)*\/messages\?sessionId=[A-Za-z0-9_-]{22}$/);
  const postUrl = new URL(endpoint.data, url).href;
  return {
    events,
    next,
    ended,
    close: () => controller.abort(),
    post: (body) => fetch(postUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body }),
  };
}

describe('the legacy HTTP+SSE transport on the wire', () => {
  it('answers 202 to each POST and everything on the stream, errors under the request id', async () => {
    const stream = await openStream(sseUrl());
    const init = await stream.post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }));
    expect(init.status).toBe(202);
    const initialized = JSON.parse((await stream.next((e) => e.data.includes('"id":1'))).data);
    expect(initialized.result.protocolVersion).toBe('2024-11-05');
    expect((await stream.post('{"jsonrpc":"2.0","method":"notifications/initialized"}')).status).toBe(202);
    expect((await stream.post('{"jsonrpc":"2.0","id":"p","method":"ping"}')).status).toBe(202);
    expect(JSON.parse((await stream.next((e) => e.data.includes('"id":"p"'))).data)).toEqual({ jsonrpc: '2.0', id: 'p', result: {} });
    // Not JSON: the parse error comes on the stream, under the id read from the broken text.
    expect((await stream.post('{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{x}}')).status).toBe(202);
    expect(JSON.parse((await stream.next((e) => e.data.includes('"id":7'))).data).error.code).toBe(-32700);
    stream.close();
  });

  it('refuses an unknown or missing session id, the wrong method and a body that is not JSON-typed', async () => {
    const base = listener.url.replace(/\/mcp$/, '');
    const unknown = await fetch(`${base}/messages?sessionId=nope`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(unknown.status).toBe(404);
    const missing = await fetch(`${base}/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(missing.status).toBe(400);
    const wrong = await fetch(`${base}/sse`, { method: 'POST', body: '{}' });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET');
    const stream = await openStream(sseUrl());
    const text = await stream.post('x');
    expect(text.status).toBe(202);
    const typed = await fetch(new URL(stream.events[0]!.data, sseUrl()).href, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' });
    expect(typed.status).toBe(415);
    stream.close();
  });

  it('aborts the running handlers of a session whose stream closed', async () => {
    const initialize = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    const call = (id: number, name: string, args: object) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
    const count = async (): Promise<number> => {
      const stream = await openStream(sseUrl());
      await stream.post(initialize(1));
      await stream.next((e) => e.data.includes('"id":1'));
      await stream.post('{"jsonrpc":"2.0","method":"notifications/initialized"}');
      await stream.post(call(2, 'aborted_count', {}));
      const answer = JSON.parse((await stream.next((e) => e.data.includes('"id":2'))).data);
      stream.close();
      return Number(answer.result.content[0].text);
    };
    const before = await count();
    const stream = await openStream(sseUrl());
    await stream.post(initialize(1));
    await stream.next((e) => e.data.includes('"id":1'));
    await stream.post('{"jsonrpc":"2.0","method":"notifications/initialized"}');
    await stream.post(call(2, 'slow', { steps: 5, ms: 10_000 }));
    // Its first step's log message: the handler is running.
    await stream.next((e) => e.data.includes('notifications/message'));
    stream.close();
    await expect.poll(count, { timeout: 5_000 }).toBe(before + 1);
  });

  it('survives clients that cut anywhere: mid-body, before the 202, mid-call, after the stream went', async () => {
    // A server of its own, whose legacy session table is watched (test-hook.ts).
    const tables: ReadonlyMap<string, unknown>[] = [];
    testHook.watchLegacy = (table) => tables.push(table);
    const own = await listen(createServer(buildDefinition(3), handlers, { logger: () => {} }));
    // The Web handler is built on its first request.
    await (await fetch(own.url)).text();
    testHook.watchLegacy = undefined;
    expect(tables).toHaveLength(1);
    const ownSse = own.url.replace(/\/mcp$/, '/sse');
    const base = new URL(own.url);
    const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'cut', version: '1' } } });
    /** A raw POST that sends `part` of `body` (bytes) and then destroys its socket. */
    const cutPost = (path: string, body: string, part: number): Promise<void> =>
      new Promise((resolve) => {
        const socket = connect(Number(base.port), base.hostname, () => {
          const bytes = Buffer.from(body);
          socket.write(`POST ${path} HTTP/1.1\r\nHost: ${base.host}\r\nContent-Type: application/json\r\nContent-Length: ${bytes.length}\r\n\r\n`);
          socket.write(bytes.subarray(0, Math.floor(bytes.length * part)));
          setTimeout(() => {
            socket.destroy();
            resolve();
          }, 5);
        });
        socket.on('error', () => resolve());
      });
    for (let round = 0; round < 12; round++) {
      const stream = await openStream(ownSse);
      const path = stream.events[0]!.data;
      await stream.post(initialize);
      await stream.next((e) => e.data.includes('"id":1'));
      await stream.post('{"jsonrpc":"2.0","method":"notifications/initialized"}');
      const call = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'slow', arguments: { steps: 3, ms: 50 } } });
      if (round % 4 === 0) await cutPost(path, call, (round % 3) / 3);
      else if (round % 4 === 1) {
        // A call running, its stream cut mid-call; then a POST to the gone session.
        await stream.post(call);
        await stream.next((e) => e.data.includes('notifications/message'));
        stream.close();
        await cutPost(path, call, 1);
      } else if (round % 4 === 2) {
        await stream.post(call);
        stream.close();
      } else {
        await stream.post(call);
        await stream.next((e) => e.data.includes('"id":2'));
        stream.close();
      }
      stream.close();
    }
    // Still serving; once every stream has gone, no session is left behind.
    const fresh = await openStream(ownSse);
    await fresh.post(initialize);
    expect(JSON.parse((await fresh.next((e) => e.data.includes('"id":1'))).data).result.serverInfo.name).toBe('runtime-demo');
    expect(tables[0]!.size).toBeGreaterThan(0);
    fresh.close();
    await expect.poll(() => tables[0]!.size, { timeout: 5_000 }).toBe(0);
    await own.close();
  });

  it('ends the session with its stream: its POST URL is then unknown', async () => {
    const stream = await openStream(sseUrl());
    const postUrl = new URL(stream.events[0]!.data, sseUrl()).href;
    stream.close();
    await expect
      .poll(async () => (await fetch(postUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' })).status)
      .toBe(404);
  });

  it("our own client, given the /sse URL, falls back to the legacy transport and calls a tool", async () => {
    const session = await openSession({ url: sseUrl(), protocolVersions: ['2025-11-25'] });
    try {
      expect(session.server.protocolVersion).toBe('2025-11-25');
      const result = await session.request('tools/call', { name: 'echo', arguments: { text: 'over SSE' } });
      expect(result['content']).toEqual([{ type: 'text', text: 'over SSE' }]);
    } finally {
      await session.close();
    }
  });

  it.each([
    ['legacySse: false', { legacySse: false }],
    // A legacy session lives in the process that holds its stream: it cannot be shared.
    ['a shared sessionStore', { sessionStore: new InMemorySessionStore() }],
  ])('is not served with %s', async (_, options) => {
    const off = await listen(createServer(buildDefinition(3), handlers, { logger: () => {} }), options);
    try {
      expect((await fetch(off.url.replace(/\/mcp$/, '/sse'), { headers: { accept: 'text/event-stream' } })).status).toBe(404);
    } finally {
      await off.close();
    }
  });
});

describe('the legacy HTTP+SSE transport beside the endpoint, and when the server drains', () => {
  const initialize = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });

  it('serves its two paths beside the endpoint, not at the root', async () => {
    const nested = await listen(createServer(buildDefinition(3), handlers, { logger: () => {} }), { path: '/api/mcp' });
    try {
      const stream = await openStream(nested.url.replace(/\/mcp$/, '/sse'));
      expect(stream.events[0]!.data).toMatch(/^\/api\/messages\?sessionId=/);
      expect((await stream.post(initialize(1))).status).toBe(202);
      expect(JSON.parse((await stream.next((e) => e.data.includes('"id":1'))).data).result.protocolVersion).toBe('2025-11-25');
      stream.close();
      const root = nested.url.replace(/\/api\/mcp$/, '');
      expect((await fetch(`${root}/sse`, { headers: { accept: 'text/event-stream' } })).status).toBe(404);
    } finally {
      await nested.close();
    }
  });

  it('answers the calls in flight on their streams before ending them, and refuses new sessions', async () => {
    const draining = await createServer(buildDefinition(3), handlers, { logger: () => {} }).listenHttp({ port: 0, host: '127.0.0.1' });
    const sse = draining.url.replace(/\/mcp$/, '/sse');
    const busy = await openStream(sse);
    const idle = await openStream(sse);
    for (const stream of [busy, idle]) {
      await stream.post(initialize(1));
      await stream.next((e) => e.data.includes('"id":1'));
      await stream.post('{"jsonrpc":"2.0","method":"notifications/initialized"}');
    }
    await busy.post(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'slow', arguments: { steps: 3, ms: 300 } } }));
    // Its first step's log message: the handler is running.
    await busy.next((e) => e.data.includes('notifications/message'));
    // Still running as the drain begins.
    expect(busy.events.some((e) => e.data.includes('"id":2'))).toBe(false);
    const drained = draining.drain(20_000);
    // The idle session's stream ends at once; a new session is refused (the listener is closed, or
    // a kept connection gets 503).
    await idle.ended;
    const refused = await fetch(sse, { headers: { accept: 'text/event-stream' } }).then((r) => r.status, () => 'refused');
    expect([503, 'refused']).toContain(refused);
    // The call finishes, its answer goes out, then the stream ends and so does the drain.
    const answer = JSON.parse((await busy.next((e) => e.data.includes('"id":2'))).data);
    expect(answer.result.content[0].text).toBe('done after 3 steps');
    await busy.ended;
    await drained;
  });
});
