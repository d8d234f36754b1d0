/**
 * Key rotation (issue 27, item 17): a verdict cached for a JWT is dropped once the issuer's key set,
 * fetched again, no longer holds the key that signed it, over HTTP in both eras. The key set is
 * served here (a hand-made JWKS that the test rotates); jose refetches it for a token naming an
 * unknown key once its 30 s cooldown has passed, so the clock (Date only) is moved past it.
 */
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createServer, type HttpListener } from '../../src/runtime/index.js';
import { createResourceServerAuth } from '../../src/runtime/auth/index.js';
import { meta, REVISION, statelessDefinition, statelessHandlers } from '../runtime/stateless-support.js';

const ISSUER = 'https://issuer.example';
let jwks: { keys: JWK[] } = { keys: [] };
let jwksServer: Server;
let jwksFetches = 0;
const keys: Record<string, CryptoKey> = {};

beforeAll(async () => {
  for (const kid of ['old', 'new']) {
    const pair = await generateKeyPair('ES256', { extractable: true });
    keys[kid] = pair.privateKey;
    keys[`${kid}.public`] = pair.publicKey;
  }
  jwksServer = createHttpServer((_req, res) => {
    jwksFetches++;
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(jwks));
  });
  await new Promise<void>((resolve) => jwksServer.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  jwksServer?.closeAllConnections();
  await new Promise((resolve) => jwksServer?.close(resolve));
});

async function publish(...kids: string[]): Promise<void> {
  jwks = { keys: await Promise.all(kids.map(async (kid) => ({ ...(await exportJWK(keys[`${kid}.public`]!)), kid, alg: 'ES256', use: 'sig' }))) };
}

async function listen(): Promise<{ listener: HttpListener; resource: string }> {
  const resource = 'http://127.0.0.1:1/mcp';
  const auth = createResourceServerAuth(
    {
      resource,
      authorizationServers: [ISSUER],
      verifier: { jwt: { issuer: ISSUER, algorithms: ['ES256'], jwksUri: `http://127.0.0.1:${(jwksServer.address() as AddressInfo).port}/jwks` } },
    },
    {},
  );
  const listener = await createServer(statelessDefinition(), statelessHandlers, { logger: () => {} }).listenHttp({ auth });
  return { listener, resource };
}

function sign(kid: string, resource: string, sub: string): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ iss: ISSUER, aud: resource, sub, iat: now, exp: now + 3600 }).setProtectedHeader({ alg: 'ES256', kid, typ: 'at+jwt' }).sign(keys[kid]!);
}

const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' };

describe.each(['2025-11-25', REVISION])('at %s', (era) => {
  it('a cached verdict goes once a refetched key set drops its key; a token of the new key is served', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    const { listener, resource } = await listen();
    try {
      await publish('old');
      const oldToken = await sign('old', resource, 'alice');
      const headers = (token: string, extra: Record<string, string> = {}): Record<string, string> => ({
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${token}`,
        ...extra,
      });
      let session: Record<string, string> = {};
      if (era !== REVISION) {
        const opened = await fetch(listener.url, {
          method: 'POST',
          headers: headers(oldToken),
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: era, capabilities: {}, clientInfo: { name: 't', version: '1' } } }),
        });
        expect(opened.status).toBe(200);
        session = { 'mcp-session-id': opened.headers.get('mcp-session-id')!, 'mcp-protocol-version': era };
      }
      const send = (token: string): Promise<Response> =>
        fetch(listener.url, {
          method: 'POST',
          headers: headers(token, era === REVISION ? { 'mcp-protocol-version': REVISION, 'mcp-method': 'tools/list' } : session),
          body: JSON.stringify(era === REVISION ? { ...list, params: { _meta: meta() } } : list),
        });
      expect((await send(oldToken)).status).toBe(200);
      expect((await send(oldToken)).status).toBe(200); // from the cache
      const fetchesBefore = jwksFetches;

      // The issuer rotates: only the new key is published. A token of the new key makes the refetch.
      await publish('new');
      vi.setSystemTime(Date.now() + 31_000);
      const newToken = await sign('new', resource, 'alice');
      expect((await send(newToken)).status).toBe(200);
      expect(jwksFetches).toBe(fetchesBefore + 1);

      const refused = await send(oldToken);
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toContain('error="invalid_token"');
    } finally {
      vi.useRealTimers();
      await listener.close();
    }
  });
});

it('a refetched key set that keeps the key keeps the verdict (2026-07-28)', async () => {
  vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
  const { listener, resource } = await listen();
  try {
    await publish('old');
    const oldToken = await sign('old', resource, 'bob');
    const send = (token: string): Promise<Response> =>
      fetch(listener.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}`, 'mcp-protocol-version': REVISION, 'mcp-method': 'tools/list' },
        body: JSON.stringify({ ...list, params: { _meta: meta() } }),
      });
    expect((await send(oldToken)).status).toBe(200);
    await publish('old', 'new');
    vi.setSystemTime(Date.now() + 31_000);
    expect((await send(await sign('new', resource, 'bob'))).status).toBe(200);
    expect((await send(oldToken)).status).toBe(200);
  } finally {
    vi.useRealTimers();
    await listener.close();
  }
});
