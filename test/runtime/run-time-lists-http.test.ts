/**
 * The subscribe/unsubscribe hooks over Streamable HTTP: subscribers are counted across sessions and
 * 2026-07-28 listen streams of one process, a session's subscriptions end with the session
 * (DELETE), and a listen stream's when the client closes it.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createServer, type HttpListener, type ServerHandlers } from '../../src/runtime/index.js';
import { buildDefinition, handlers } from './fixtures/demo-server.js';
import { meta, standardHeaders, statelessDefinition } from './stateless-support.js';

const listeners: HttpListener[] = [];
afterAll(async () => {
  await Promise.all(listeners.map((l) => l.close()));
});

async function serve(hooks: string[]): Promise<HttpListener> {
  const stateless = statelessDefinition();
  const definition = {
    ...buildDefinition(3),
    protocolVersions: stateless.protocolVersions,
    statelessValidators: stateless.statelessValidators!,
  };
  const withHooks: ServerHandlers = {
    ...handlers,
    resourceSubscriptions: {
      subscribe: (uri) => void hooks.push(`watch ${uri}`),
      unsubscribe: (uri) => void hooks.push(`unwatch ${uri}`),
    },
  };
  const listener = await createServer(definition, withHooks, { logger: () => {} }).listenHttp({ port: 0 });
  listeners.push(listener);
  return listener;
}

async function post(url: string, body: unknown, session?: string): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  if (session !== undefined) headers['mcp-session-id'] = session;
  return fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
}

async function openSession(url: string): Promise<string> {
  const response = await post(url, { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
  const session = response.headers.get('mcp-session-id')!;
  await response.text();
  await (await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, session)).text();
  return session;
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (const deadline = Date.now() + 3000; !condition(); ) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('subscribe and unsubscribe hooks over HTTP', () => {
  it('count subscribers across sessions and listen streams, and release them when sessions end and streams close', async () => {
    const hooks: string[] = [];
    const { url } = await serve(hooks);
    const uri = 'weather://Oslo/current';
    const first = await openSession(url);
    const second = await openSession(url);
    for (const [id, session] of [[1, first], [2, second]] as const) {
      const answer = await (await post(url, { jsonrpc: '2.0', id, method: 'resources/subscribe', params: { uri } }, session)).json();
      expect(answer).toEqual({ jsonrpc: '2.0', id, result: {} });
    }
    expect(hooks).toEqual([`watch ${uri}`]);

    // A 2026-07-28 listen stream naming the URI is one more subscriber.
    const controller = new AbortController();
    const params = { notifications: { resourceSubscriptions: [uri] }, _meta: meta() };
    const stream = await fetch(url, {
      method: 'POST',
      headers: standardHeaders('subscriptions/listen', params),
      body: JSON.stringify({ jsonrpc: '2.0', id: 'listen', method: 'subscriptions/listen', params }),
      signal: controller.signal,
    });
    expect(stream.headers.get('content-type')).toBe('text/event-stream');
    const reader = stream.body!.getReader();
    const acknowledged = new TextDecoder().decode((await reader.read()).value);
    expect(acknowledged).toContain('notifications/subscriptions/acknowledged');

    for (const session of [first, second]) {
      const ended = await fetch(url, { method: 'DELETE', headers: { 'mcp-session-id': session } });
      expect(ended.status).toBe(204);
    }
    expect(hooks, 'the listen stream still holds the URI').toEqual([`watch ${uri}`]);
    controller.abort();
    await reader.cancel().catch(() => {});
    await until(() => hooks.length === 2, 'the unsubscribe hook');
    expect(hooks).toEqual([`watch ${uri}`, `unwatch ${uri}`]);
  });
});
