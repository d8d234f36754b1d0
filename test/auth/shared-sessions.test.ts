/**
 * Sessions shared between processes (a SessionStore) keep the subject they belong to: a session
 * opened on one listener with one subject's token is refused (404) on another listener to a token
 * of another subject, and served to its own. Also: resource and template scopes, and scopes every
 * request needs. The runtime directly, with a hook verifier mapping test tokens to subjects.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createServer, InMemorySessionStore, type AuthInfo, type HttpListener } from '../../src/runtime/index.js';
import { createResourceServerAuth, type AuthSettings } from '../../src/runtime/auth/index.js';
import { buildDefinition, handlers } from '../runtime/fixtures/demo-server.js';
import { meta, REVISION } from '../runtime/stateless-support.js';

const listeners: HttpListener[] = [];
afterAll(async () => {
  await Promise.all(listeners.map((l) => l.close()));
});

const TOKENS: Record<string, AuthInfo> = {
  'alice-token': { subject: 'alice', clientId: 'app', scopes: ['base', 'info', 'city'], claims: {}, expiresAt: undefined },
  'alice-token-2': { subject: 'alice', clientId: 'app', scopes: ['base'], claims: {}, expiresAt: undefined },
  'bob-token': { subject: 'bob', clientId: 'app', scopes: ['base', 'info', 'city'], claims: {}, expiresAt: undefined },
  'no-base-token': { subject: 'carol', clientId: 'app', scopes: ['info'], claims: {}, expiresAt: undefined },
};

function settings(resource: string): AuthSettings {
  return {
    resource,
    authorizationServers: ['http://127.0.0.1:2'],
    scopes: ['base'],
    verifier: { hook: true },
    resourceScopes: { 'info://server': ['info'] },
    resourceTemplateScopes: { 'weather://{city}/current': ['city'] },
  };
}

async function listen(store?: InMemorySessionStore): Promise<HttpListener> {
  const server = createServer(buildDefinition(3), handlers, { logger: () => {} });
  const auth = createResourceServerAuth(settings('http://127.0.0.1:1/mcp'), { verifyToken: async (token) => TOKENS[token] });
  const listener = await server.listenHttp({ auth, ...(store === undefined ? {} : { sessionStore: store }) });
  listeners.push(listener);
  return listener;
}

function post(url: string, token: string, body: unknown, session?: string): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}` };
  if (session !== undefined) headers['mcp-session-id'] = session;
  return fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
}

async function open(url: string, token: string): Promise<string> {
  const response = await post(url, token, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
  expect(response.status).toBe(200);
  return response.headers.get('mcp-session-id')!;
}

const ping = { jsonrpc: '2.0', id: 2, method: 'ping' };

describe('sessions shared through a SessionStore', () => {
  it('keep their subject on the other process: another subject gets 404, the same subject (another token) is served', async () => {
    const store = new InMemorySessionStore();
    const a = await listen(store);
    const b = await listen(store);
    const session = await open(a.url, 'alice-token');
    expect((await post(b.url, 'bob-token', ping, session)).status).toBe(404);
    expect((await post(b.url, 'alice-token-2', ping, session)).status).toBe(200);
    expect((await post(a.url, 'bob-token', ping, session)).status).toBe(404);
  });
});

describe('scopes beyond tools', () => {
  it('auth.scopes are needed by every request, resources and templates need theirs', async () => {
    const listener = await listen();
    const refused = await post(listener.url, 'no-base-token', ping);
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toContain('scope="base"');
    const session = await open(listener.url, 'alice-token-2');
    const read = (uri: string): Promise<Response> => post(listener.url, 'alice-token-2', { jsonrpc: '2.0', id: 3, method: 'resources/read', params: { uri } }, session);
    const info = await read('info://server');
    expect(info.status).toBe(403);
    expect(info.headers.get('www-authenticate')).toContain('scope="base info"');
    const city = await read('weather://lisbon/current');
    expect(city.status).toBe(403);
    expect(city.headers.get('www-authenticate')).toContain('scope="base city"');
    // Completing a protected template's arguments needs its scopes too.
    const complete = await post(
      listener.url,
      'alice-token-2',
      { jsonrpc: '2.0', id: 5, method: 'completion/complete', params: { ref: { type: 'ref/resource', uri: 'weather://{city}/current' }, argument: { name: 'city', value: 'l' } } },
      session,
    );
    expect(complete.status).toBe(403);
    expect(complete.headers.get('www-authenticate')).toContain('scope="base city"');
    // A token with the scopes reads it.
    const full = await open(listener.url, 'alice-token');
    expect((await post(listener.url, 'alice-token', { jsonrpc: '2.0', id: 4, method: 'resources/read', params: { uri: 'weather://lisbon/current' } }, full)).status).toBe(200);
  });
});

describe('a 2026-07-28 subscriptions/listen', () => {
  it('naming a protected resource needs its scopes', async () => {
    const listener = await listen();
    const body = { jsonrpc: '2.0', id: 6, method: 'subscriptions/listen', params: { notifications: { resourceSubscriptions: ['info://server'] }, _meta: meta() } };
    const response = await fetch(listener.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: 'Bearer alice-token-2', 'mcp-protocol-version': REVISION, 'mcp-method': 'subscriptions/listen' },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(403);
    expect(response.headers.get('www-authenticate')).toContain('scope="base info"');
  });
});

