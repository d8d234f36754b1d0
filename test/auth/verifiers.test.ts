/**
 * The resource server's verifiers and its token cache, each against the real thing where there is
 * one: introspection (RFC 7662) of opaque tokens at oidc-provider, the hook verifier, and the
 * cache that lets a reused token skip verification until it expires.
 */
import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AuthInfo } from '../../src/runtime/api.js';
import { createResourceServerAuth, TokenCache, type AuthSettings, type ResourceServerAuth } from '../../src/runtime/auth/index.js';
import { isRefusal, type AuthRefusal } from '../../src/runtime/transports/http/http-auth.js';
import { startAuthorizationServer, type TestAuthorizationServer } from './support/oidc-provider.js';

const RESOURCE = 'http://127.0.0.1:1/mcp';
const request = (authorization?: string, url = '/mcp'): IncomingMessage =>
  ({ url, headers: authorization === undefined ? {} : { authorization }, rawHeaders: authorization === undefined ? [] : ['Authorization', authorization] }) as IncomingMessage;
const info = (subject: string, expiresAt?: number): AuthInfo => ({ subject, clientId: undefined, scopes: ['a'], claims: {}, expiresAt });
const base = (verifier: AuthSettings['verifier']): AuthSettings => ({ resource: RESOURCE, authorizationServers: ['http://127.0.0.1:2'], verifier });

async function accepted(auth: ResourceServerAuth, token: string): Promise<AuthInfo> {
  const verdict = await auth.authenticate(request(`Bearer ${token}`));
  if (isRefusal(verdict)) throw new Error(`refused: ${verdict.status} ${verdict.message}`);
  return verdict;
}

describe('introspection (RFC 7662) of opaque tokens at oidc-provider', () => {
  let as: TestAuthorizationServer;
  let auth: ResourceServerAuth;
  beforeAll(async () => {
    as = await startAuthorizationServer({ tokenFormat: 'opaque' });
    auth = createResourceServerAuth(
      { ...base({ introspection: { endpoint: as.introspectionEndpoint, clientId: as.resourceServerClient.clientId, clientSecretEnv: 'TEST_RS_SECRET' } }) },
      { env: { TEST_RS_SECRET: as.resourceServerClient.clientSecret } },
    );
  }, 30_000);
  afterAll(() => as?.close());

  it('an active token for this resource is accepted with its subject and scopes', async () => {
    const token = await as.tokenByClientCredentials(RESOURCE, 'weather:read');
    expect(token.split('.')).toHaveLength(1); // opaque, not a JWT
    const who = await accepted(auth, token);
    expect(who).toMatchObject({ clientId: 'test-service', scopes: ['weather:read'] });
  });

  it('an unknown token is refused as invalid_token', async () => {
    const verdict = (await auth.authenticate(request('Bearer not-a-token-the-server-issued'))) as AuthRefusal;
    expect(verdict.status).toBe(401);
    expect(verdict.challenge).toContain('error="invalid_token"');
  });

  it('an active token for another resource is refused', async () => {
    const token = await as.tokenByClientCredentials('http://127.0.0.1:9/elsewhere', 'weather:read');
    expect(((await auth.authenticate(request(`Bearer ${token}`))) as AuthRefusal).status).toBe(401);
  });

  it('a missing client secret stops the server at start, naming the variable', () => {
    expect(() => createResourceServerAuth(base({ introspection: { endpoint: as.introspectionEndpoint, clientId: 'x', clientSecretEnv: 'NOPE_SECRET' } }), { env: {} })).toThrow(/NOPE_SECRET/);
  });
});

describe('the hook verifier', () => {
  it('accepts what verifyToken accepts and refuses what it refuses, with the resource passed in', async () => {
    const resources: string[] = [];
    const auth = createResourceServerAuth(base({ hook: true }), {
      verifyToken: async (token, resource) => {
        resources.push(resource);
        return token === 'good' ? info('hooked', Math.floor(Date.now() / 1000) + 60) : undefined;
      },
    });
    expect((await accepted(auth, 'good')).subject).toBe('hooked');
    expect(((await auth.authenticate(request('Bearer bad'))) as AuthRefusal).status).toBe(401);
    expect(resources).toEqual([RESOURCE, RESOURCE]);
  });

  it('a hook that throws is 503 (cannot tell), logged without the token', async () => {
    const logs: string[] = [];
    const auth = createResourceServerAuth(base({ hook: true }), {
      log: (line) => logs.push(line),
      verifyToken: async () => {
        throw new Error('backend down');
      },
    });
    expect(((await auth.authenticate(request('Bearer secret-token-123'))) as AuthRefusal).status).toBe(503);
    expect(logs.join('\n')).toContain('backend down');
    expect(logs.join('\n')).not.toContain('secret-token-123');
  });
});

describe('the verified-token cache', () => {
  it('a reused token is verified once until it expires', async () => {
    let verified = 0;
    let expiresAt = Math.floor(Date.now() / 1000) + 60;
    const auth = createResourceServerAuth(base({ hook: true }), {
      verifyToken: async () => {
        verified++;
        return info('cached', expiresAt);
      },
    });
    for (let i = 0; i < 5; i++) await accepted(auth, 'reused');
    expect(verified).toBe(1);
    await accepted(auth, 'another');
    expect(verified).toBe(2);
    // An answer that has already expired is not kept: the next use verifies again.
    expiresAt = Math.floor(Date.now() / 1000) - 1;
    await accepted(auth, 'stale');
    await accepted(auth, 'stale');
    expect(verified).toBe(4);
  });

  it('is bounded: past its size the least recently used entry goes', () => {
    const cache = new TokenCache<AuthInfo>(2);
    const later = Math.floor(Date.now() / 1000) + 60;
    cache.set('a', info('a'), later);
    cache.set('b', info('b'), later);
    expect(cache.get('b')?.subject).toBe('b'); // already the most recently used: stays last
    expect(cache.get('a')?.subject).toBe('a'); // a is now the most recently used
    cache.set('c', info('c'), later);
    expect(cache.size).toBe(2);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')?.subject).toBe('a');
    expect(cache.get('c')?.subject).toBe('c');
  });

  it('is bounded by the characters of its keys too: long tokens push the oldest out', () => {
    const cache = new TokenCache<AuthInfo>(100, 60_000, 10);
    const later = Math.floor(Date.now() / 1000) + 60;
    cache.set('aaaa', info('a'), later);
    cache.set('bbbb', info('b'), later);
    cache.set('cccc', info('c'), later); // 12 characters: a goes
    expect(cache.size).toBe(2);
    expect(cache.get('aaaa')).toBeUndefined();
    expect(cache.get('bbbb')?.subject).toBe('b');
    cache.set('x'.repeat(11), info('x'), later); // larger than the whole cache: never kept
    expect(cache.size).toBe(2);
    expect(cache.get('cccc')?.subject).toBe('c');
  });

  it('an entry past its expiry is never answered, and leaves the cache', () => {
    const cache = new TokenCache<AuthInfo>();
    const now = Date.now();
    cache.set('Bearer t', info('t'), Math.floor(now / 1000) + 10, now);
    expect(cache.get('Bearer t', now + 9_000)?.subject).toBe('t');
    expect(cache.get('Bearer t', now + 11_000)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('a connection reuses its last answer with a string compare, only for the very same header, only until expiry', () => {
    const cache = new TokenCache<AuthInfo>(1);
    const now = Date.now();
    const later = Math.floor(now / 1000) + 10;
    const mine = {};
    const other = {};
    cache.set('Bearer mine', info('mine'), later, now);
    expect(cache.get('Bearer mine', now, mine)?.subject).toBe('mine'); // through the map; remembered for this connection
    cache.set('Bearer theirs', info('theirs'), later, now); // max 1: mine leaves the map
    expect(cache.size).toBe(1);
    expect(cache.get('Bearer mine', now, other)).toBeUndefined(); // another connection must go through the map
    expect(cache.get('Bearer mine', now)).toBeUndefined();
    expect(cache.get('Bearer mine', now, mine)?.subject).toBe('mine'); // still a verified answer for this connection
    expect(cache.get('Bearer mind', now, mine)).toBeUndefined(); // one character off: not this connection's header
    expect(cache.get('Bearer theirs', now, mine)?.subject).toBe('theirs'); // a new token on the connection, found in the map
    expect(cache.get('Bearer mine', now, mine)).toBeUndefined(); // the connection now remembers that one instead
    expect(cache.get('Bearer theirs', now + 10_001, mine)).toBeUndefined(); // expired: not answered, even through the connection
    expect(cache.size).toBe(0);
  });

  it('a request whose socket is already gone (null) is looked up in the map, not refused with a TypeError', () => {
    const cache = new TokenCache<AuthInfo>();
    cache.set('Bearer t', info('t'), Math.floor(Date.now() / 1000) + 10);
    expect(cache.get('Bearer t', Date.now(), null)?.subject).toBe('t');
  });

  it('requests on one keep-alive connection are answered from the connection once the token is known', async () => {
    let verified = 0;
    const auth = createResourceServerAuth(base({ hook: true }), {
      verifyToken: async (token) => {
        verified++;
        return token.startsWith('ok') ? info(token, Math.floor(Date.now() / 1000) + 60) : undefined;
      },
    });
    const socket = {};
    const on = (authorization: string): IncomingMessage => ({ url: '/mcp', headers: { authorization }, rawHeaders: ['authorization', authorization], socket }) as unknown as IncomingMessage;
    expect(((await auth.authenticate(on('Bearer ok-1'))) as AuthInfo).subject).toBe('ok-1');
    for (let i = 0; i < 3; i++) expect((auth.authenticate(on('Bearer ok-1')) as AuthInfo).subject).toBe('ok-1');
    expect(((await auth.authenticate(on('Bearer ok-2'))) as AuthInfo).subject).toBe('ok-2'); // a refreshed token
    expect(((await auth.authenticate(on('Bearer no-1'))) as AuthRefusal).status).toBe(401);
    expect((auth.authenticate(on('Bearer ok-1')) as AuthInfo).subject).toBe('ok-1'); // still in the map
    expect(verified).toBe(3);
  });

  it('a token differing in one character is not a hit: it is verified on its own', async () => {
    const seen: string[] = [];
    const auth = createResourceServerAuth(base({ hook: true }), {
      verifyToken: async (token) => {
        seen.push(token);
        return token === 'token-AAAA' ? info('owner', Math.floor(Date.now() / 1000) + 60) : undefined;
      },
    });
    expect((await accepted(auth, 'token-AAAA')).subject).toBe('owner');
    for (const near of ['token-AAAB', 'token-AAA', 'token-AAAAA', 'Token-AAAA']) {
      expect(((await auth.authenticate(request(`Bearer ${near}`))) as AuthRefusal).status).toBe(401);
    }
    expect(seen).toEqual(['token-AAAA', 'token-AAAB', 'token-AAA', 'token-AAAAA', 'Token-AAAA']);
  });

  it('a reused token is answered at once: no promise, no verifier call', async () => {
    let verified = 0;
    const auth = createResourceServerAuth(base({ hook: true }), {
      verifyToken: async () => {
        verified++;
        return info('fast', Math.floor(Date.now() / 1000) + 60);
      },
    });
    const first = auth.authenticate(request('Bearer reused'));
    expect(first).toBeInstanceOf(Promise); // first sight: verified
    expect(((await first) as AuthInfo).subject).toBe('fast');
    const again = auth.authenticate(request('Bearer reused'));
    expect(again).not.toBeInstanceOf(Promise);
    expect((again as AuthInfo).subject).toBe('fast');
    expect(verified).toBe(1);
  });

  it('once the cached token has expired, it is checked again and refused', async () => {
    const now = Date.now();
    vi.useFakeTimers({ toFake: ['Date'], now });
    try {
      let valid = true;
      const auth = createResourceServerAuth(base({ hook: true }), {
        verifyToken: async () => (valid ? info('brief', Math.floor(now / 1000) + 30) : undefined),
      });
      expect((await accepted(auth, 'brief-token')).subject).toBe('brief');
      valid = false; // the authorization server would no longer accept it either
      expect((await auth.authenticate(request('Bearer brief-token')) as AuthInfo).subject).toBe('brief'); // cached
      vi.setSystemTime(now + 31_000);
      const late = (await auth.authenticate(request('Bearer brief-token'))) as AuthRefusal;
      expect(late.status).toBe(401);
      expect(late.challenge).toContain('error="invalid_token"');
    } finally {
      vi.useRealTimers();
    }
  });

  it('a valid token lacking the global scopes gets the same 403 each time, verified once', async () => {
    let verified = 0;
    const auth = createResourceServerAuth({ ...base({ hook: true }), scopes: ['a', 'b'] }, {
      verifyToken: async () => {
        verified++;
        return info('narrow', Math.floor(Date.now() / 1000) + 60); // scopes: ['a']
      },
    });
    for (let i = 0; i < 3; i++) {
      const refusal = (await auth.authenticate(request('Bearer narrow'))) as AuthRefusal;
      expect(refusal.status).toBe(403);
      expect(refusal.challenge).toContain('scope="a b"');
    }
    expect(verified).toBe(1);
  });
});
