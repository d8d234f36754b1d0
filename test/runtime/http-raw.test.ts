import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, InMemoryEventStore, type HttpListener, type HttpOptions } from '../../src/runtime/index.js';
import { buildDefinition, handlers } from './fixtures/demo-server.js';
import { listen as listenOn } from '../transports/adapters.js';

const BOTH = 'application/json, text/event-stream';
const serverLog: string[] = [];
const listeners: HttpListener[] = [];

async function listen(options: HttpOptions = {}): Promise<HttpListener> {
  const listener = await listenOn(createServer(buildDefinition(3), handlers, { logger: (line) => serverLog.push(line) }), options);
  listeners.push(listener);
  return listener;
}

afterAll(async () => {
  await Promise.all(listeners.map((l) => l.close()));
});

interface PostOptions {
  session?: string;
  accept?: string;
  headers?: Record<string, string>;
}

function post(url: string, body: unknown, options: PostOptions = {}): Promise<Response> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: options.accept ?? BOTH,
    ...options.headers,
  };
  if (options.session !== undefined) headers['mcp-session-id'] = options.session;
  return fetch(url, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });
}

async function openSession(url: string, protocolVersion = '2025-11-25'): Promise<string> {
  const response = await post(url, {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/json');
  const session = response.headers.get('mcp-session-id');
  expect(session).toBeTruthy();
  expect(((await response.json()) as { result: { protocolVersion: string } }).result.protocolVersion).toBe(protocolVersion);
  const initialized = await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, { session: session! });
  expect(initialized.status).toBe(202);
  expect(await initialized.text()).toBe('');
  return session!;
}

/** The `data:` payloads of an SSE body, parsed. */
function sseMessages(body: string): Record<string, any>[] {
  return body
    .split('\n')
    .filter((line) => line.startsWith('data: ') && line !== 'data: ') // not the priming event
    .map((line) => JSON.parse(line.slice(6)) as Record<string, any>);
}

let url: string;
beforeAll(async () => {
  url = (await listen()).url;
});

describe('Streamable HTTP transport rules', () => {
  it('binds 127.0.0.1 and serves /mcp by default', () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  });

  it('requires a session after initialize: 400 without one, 404 for an unknown one', async () => {
    const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
    const missing = await post(url, ping);
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { error: { code: number } }).error.code).toBe(-32000);
    const unknown = await post(url, ping, { session: 'no-such-session' });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { code: number } }).error.code).toBe(-32001);
  });

  it('answers requests with JSON and notifications with 202', async () => {
    const session = await openSession(url);
    const response = await post(url, { jsonrpc: '2.0', id: 'a', method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } }, { session });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({ jsonrpc: '2.0', id: 'a', result: { content: [{ type: 'text', text: 'hi' }] } });
    const notification = await post(url, { jsonrpc: '2.0', method: 'notifications/roots/list_changed' }, { session });
    expect(notification.status).toBe(202);
  });

  it('ends a session on DELETE', async () => {
    const session = await openSession(url);
    const deleted = await fetch(url, { method: 'DELETE', headers: { 'mcp-session-id': session } });
    expect(deleted.status).toBe(204);
    expect((await post(url, { jsonrpc: '2.0', id: 1, method: 'ping' }, { session })).status).toBe(404);
    expect((await fetch(url, { method: 'DELETE', headers: { 'mcp-session-id': session } })).status).toBe(404);
    expect((await fetch(url, { method: 'DELETE' })).status).toBe(400);
  });

  it('refuses disallowed origins and hosts with 403', async () => {
    const session = await openSession(url);
    const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
    expect((await post(url, ping, { session, headers: { origin: 'https://evil.example' } })).status).toBe(403);
    expect((await post(url, ping, { session, headers: { origin: 'null' } })).status).toBe(403);
    expect((await post(url, ping, { session, headers: { origin: 'http://localhost:5173' } })).status).toBe(200);
    const { port } = new URL(url);
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        { host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers: { host: 'attacker.example', 'content-type': 'application/json' } },
        (res) => {
          res.resume();
          resolve(res.statusCode!);
        },
      );
      req.on('error', reject);
      req.end(JSON.stringify(ping));
    });
    expect(status).toBe(403);
  });

  it('uses allowedOrigins instead of the loopback default when given', async () => {
    const custom = (await listen({ allowedOrigins: ['https://app.example'] })).url;
    const init = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } };
    expect((await post(custom, init, { headers: { origin: 'https://app.example' } })).status).toBe(200);
    expect((await post(custom, init, { headers: { origin: 'http://localhost:3000' } })).status).toBe(403);
  });

  it('checks method, media types, body size and JSON', async () => {
    const put = await fetch(url, { method: 'PUT' });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, POST, DELETE');
    // A GET is an SSE stream: without text/event-stream in Accept there is nothing to serve.
    expect((await fetch(url, { headers: { accept: 'application/json' } })).status).toBe(406);
    expect((await fetch(url.replace('/mcp', '/other'), { method: 'POST' })).status).toBe(404);
    const wrongType = await fetch(url, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' });
    expect(wrongType.status).toBe(415);
    expect((await post(url, '{}', { accept: 'text/html' })).status).toBe(406);
    // A POST must accept both answers the server may choose.
    expect((await post(url, '{}', { accept: 'application/json' })).status).toBe(406);
    expect((await post(url, '{}', { accept: 'text/event-stream' })).status).toBe(406);
    const garbage = await post(url, '{not json');
    expect(garbage.status).toBe(400);
    expect(((await garbage.json()) as { error: { code: number } }).error.code).toBe(-32700);
    // The id is read from the broken text when it comes before the break.
    const broken = await post(url, '{"jsonrpc":"2.0","id":"b-1","method":"ping","params":{x}}');
    expect(broken.status).toBe(400);
    expect(await broken.json()).toMatchObject({ id: 'b-1', error: { code: -32700 } });
    const small = (await listen({ maxBodyBytes: 1024 })).url;
    const big = await post(small, { jsonrpc: '2.0', id: 1, method: 'ping', params: { padding: 'x'.repeat(2048) } });
    expect(big.status).toBe(413);
  });

  it('refuses an oversized chunked body and survives a client that aborts mid-body', async () => {
    const small = new URL((await listen({ maxBodyBytes: 1024 })).url);
    const send = (body: string[], abort: boolean) =>
      new Promise<number | 'aborted'>((resolve) => {
        const req = httpRequest(
          { host: small.hostname, port: small.port, path: small.pathname, method: 'POST', headers: { 'content-type': 'application/json', accept: BOTH } },
          (res) => {
            res.resume();
            resolve(res.statusCode!);
          },
        );
        req.on('error', () => resolve('aborted'));
        for (const part of body) req.write(part);
        if (abort) setTimeout(() => req.destroy(), 20);
        else req.end();
      });
    expect(await send(['{"padding":"', 'x'.repeat(800), 'x'.repeat(800), '"}'], false)).toBe(413);
    expect(await send(['{"jsonrpc":"2.0",'], true)).toBe('aborted');
    const init = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } };
    expect((await post(small.href, init)).status).toBe(200);
  });

  it('answers invalid JSON-RPC with 400, JSON-RPC errors with 200, and keeps the session', async () => {
    const session = await openSession(url);
    const notObject = await post(url, '42', { session });
    expect(notObject.status).toBe(400);
    expect(((await notObject.json()) as { error: { code: number } }).error.code).toBe(-32600);
    const unknown = await post(url, { jsonrpc: '2.0', id: 2, method: 'nope' }, { session });
    expect(unknown.status).toBe(200);
    expect(((await unknown.json()) as { error: { code: number } }).error.code).toBe(-32601);
    const batch = await post(url, [{ jsonrpc: '2.0', id: 3, method: 'ping' }], { session });
    expect(batch.status).toBe(400);
    expect(((await batch.json()) as { error: { code: number } }).error.code).toBe(-32600);
    expect(await (await post(url, { jsonrpc: '2.0', id: 4, method: 'ping' }, { session })).json()).toEqual({ jsonrpc: '2.0', id: 4, result: {} });
  });

  it('answers batches with an array on a 2025-03-26 session', async () => {
    const session = await openSession(url, '2025-03-26');
    const response = await post(
      url,
      [
        { jsonrpc: '2.0', id: 1, method: 'ping' },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'b' } } },
      ],
      { session },
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([
      { jsonrpc: '2.0', id: 1, result: {} },
      { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'b' }] } },
    ]);
    const notificationsOnly = await post(url, [{ jsonrpc: '2.0', method: 'notifications/initialized' }], { session });
    expect(notificationsOnly.status).toBe(202);
  });

  it('accepts MCP-Protocol-Version for any supported revision and refuses others', async () => {
    const session = await openSession(url);
    const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
    expect((await post(url, ping, { session, headers: { 'mcp-protocol-version': '2025-06-18' } })).status).toBe(200);
    expect((await post(url, ping, { session, headers: { 'mcp-protocol-version': '1999-01-01' } })).status).toBe(400);
  });

  it('streams SSE when the handler emits before its result, and refuses a client that does not accept SSE', async () => {
    const session = await openSession(url);
    const call = { jsonrpc: '2.0', id: 's', method: 'tools/call', params: { name: 'slow', arguments: { steps: 2, ms: 1 }, _meta: { progressToken: 'p' } } };
    const streamed = await post(url, call, { session });
    expect(streamed.headers.get('content-type')).toBe('text/event-stream');
    const messages = sseMessages(await streamed.text());
    expect(messages.map((m) => m['method'] ?? `response ${m['id']}`)).toEqual([
      'notifications/message',
      'notifications/message',
      'notifications/progress',
      'notifications/message',
      'notifications/message',
      'notifications/progress',
      'response s',
    ]);
    const plain = await post(url, call, { session, accept: 'application/json' });
    expect(plain.status).toBe(406);
    expect(((await plain.json()) as { error: { code: number } }).error.code).toBe(-32000);
  });

  it('sends server requests on the POST stream of the request that made them', async () => {
    const response = await post(
      url,
      { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: { elicitation: {} }, clientInfo: { name: 'x', version: '1' } } },
    );
    const session = response.headers.get('mcp-session-id')!;
    const call = await post(url, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ask_name', arguments: {} } }, { session });
    expect(call.headers.get('content-type')).toBe('text/event-stream');
    const reader = call.body!.getReader();
    let text = '';
    while (!text.includes('elicitation/create')) text += new TextDecoder().decode((await reader.read()).value);
    const ask = sseMessages(text).find((m) => m['method'] === 'elicitation/create')!;
    const answer = await post(url, { jsonrpc: '2.0', id: ask['id'], result: { action: 'accept', content: { name: 'Ada' } } }, { session });
    expect(answer.status).toBe(202);
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += new TextDecoder().decode(chunk.value);
    const final = sseMessages(text).find((m) => m['id'] === 1 && m['result'] !== undefined)!;
    expect(final['result']['content'][0]['text']).toBe('Hello, Ada');
  });

  it('issues no session when initialize fails', async () => {
    const response = await post(url, { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: 7, capabilities: {}, clientInfo: { name: 'x', version: '1' } } });
    expect(response.status).toBe(200);
    expect(response.headers.get('mcp-session-id')).toBeNull();
    expect(((await response.json()) as { error: { code: number } }).error.code).toBe(-32602);
  });

  it('ends a cancelled request stream without a response', async () => {
    const session = await openSession(url);
    const pending = post(url, { jsonrpc: '2.0', id: 'c', method: 'tools/call', params: { name: 'slow', arguments: { steps: 1, ms: 30_000 } } }, { session });
    const response = await pending;
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const reader = response.body!.getReader();
    await reader.read(); // the first log message: the handler is running
    const cancel = await post(url, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'c' } }, { session });
    expect(cancel.status).toBe(202);
    let rest = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += new TextDecoder().decode(chunk.value);
    expect(sseMessages(rest).some((m) => m['id'] === 'c')).toBe(false);
  });

  it('expires idle sessions', async () => {
    // Generous margins: opening a session takes two requests, which a loaded machine can stretch.
    const quick = (await listen({ sessionIdleTimeoutMs: 500 })).url;
    const session = await openSession(quick);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await post(quick, { jsonrpc: '2.0', id: 1, method: 'ping' }, { session })).status).toBe(404);
  });

  it('gives SSE events ids from the event store', async () => {
    const store = new InMemoryEventStore();
    const resumable = (await listen({ eventStore: store })).url;
    const session = await openSession(resumable);
    const response = await post(resumable, { jsonrpc: '2.0', id: 'e', method: 'tools/call', params: { name: 'slow', arguments: { steps: 1, ms: 1 } } }, { session });
    const body = await response.text();
    const ids = body.split('\n').filter((l) => l.startsWith('id: ')).map((l) => l.slice(4));
    // The priming event (an id and empty data) comes first, then every message with its id.
    expect(body.startsWith(`id: ${ids[0]}\ndata: \n\n`)).toBe(true);
    expect(ids).toHaveLength(4);
    const replayed: string[] = [];
    const streamId = await store.replayEventsAfter(ids[0]!, (id, message) => {
      replayed.push(id);
      expect(JSON.parse(message)).toBeTruthy();
    });
    expect(streamId).toBeTruthy();
    expect(replayed).toEqual(ids.slice(1));
    expect(await store.replayEventsAfter('unknown', () => undefined)).toBeUndefined();
  });
});
