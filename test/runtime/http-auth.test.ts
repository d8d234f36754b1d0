// The `authorize` hook of listenHttp: authentication in front of the MCP endpoint (docs/deployment.md, "Putting authentication in front").
import { afterAll, describe, expect, it } from 'vitest';
import { createServer, type HttpListener } from '../../src/runtime/index.js';
import { buildDefinition, handlers } from './fixtures/demo-server.js';
import { listen } from '../transports/adapters.js';

const listeners: HttpListener[] = [];
afterAll(async () => {
  await Promise.all(listeners.map((l) => l.close()));
});

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
});

function post(url: string, token?: string): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  if (token !== undefined) headers['authorization'] = `Bearer ${token}`;
  return fetch(url, { method: 'POST', headers, body: initialize });
}

describe('listenHttp authorize', () => {
  it.each([
    ['sync', (token: string | undefined) => token === 'Bearer s3cret'],
    ['async', async (token: string | undefined) => token === 'Bearer s3cret'],
  ])('answers 401 unless the %s hook allows the request', async (_kind, check) => {
    const logs: string[] = [];
    const listener = await listen(createServer(buildDefinition(3), handlers, { logger: (l) => logs.push(l) }), {
      authorize: (req) => check(req.headers.authorization),
    });
    listeners.push(listener);
    const refused = await post(listener.url);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Unauthorized' } });
    expect((await post(listener.url, 'wrong')).status).toBe(401);
    const allowed = await post(listener.url, 's3cret');
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('mcp-session-id')).toBeTruthy();
  });

  it('answers 500 when the hook throws, and keeps serving', async () => {
    const logs: string[] = [];
    let calls = 0;
    const listener = await listen(createServer(buildDefinition(3), handlers, { logger: (l) => logs.push(l) }), {
      authorize: () => {
        if (++calls === 1) throw new Error('auth backend down');
        return true;
      },
    });
    listeners.push(listener);
    expect((await post(listener.url)).status).toBe(500);
    expect(logs.join('\n')).toContain('auth backend down');
    expect((await post(listener.url)).status).toBe(200);
  });
});

describe('listenHttp auth (the ResourceServerAuth seam)', () => {
  const caller = { subject: 'me', clientId: undefined, scopes: [], claims: {}, expiresAt: undefined };

  it('serves a verdict given synchronously (a reused token) as it serves a promised one', async () => {
    const listener = await listen(createServer(buildDefinition(3), handlers), {
      auth: {
        metadataAt: () => undefined,
        authenticate: (req) => (req.headers.authorization === 'Bearer known' ? caller : Promise.resolve(caller)),
        authorize: () => undefined,
      },
    });
    listeners.push(listener);
    expect((await post(listener.url, 'known')).status).toBe(200);
    expect((await post(listener.url, 'new')).status).toBe(200);
  });

  it('answers 500 when authenticate throws synchronously, and keeps serving', async () => {
    const logs: string[] = [];
    let calls = 0;
    const listener = await listen(createServer(buildDefinition(3), handlers, { logger: (l) => logs.push(l) }), {
      auth: {
        metadataAt: () => undefined,
        authenticate: () => {
          if (++calls === 1) throw new Error('resource server bug');
          return caller;
        },
        authorize: () => undefined,
      },
    });
    listeners.push(listener);
    expect((await post(listener.url, 'any')).status).toBe(500);
    expect(logs.join('\n')).toContain('resource server bug');
    expect((await post(listener.url, 'any')).status).toBe(200);
  });
});
