/**
 * `connect({ url, auth })` against a protected endpoint and its authorization server (a real
 * node:http server, ./fixture.ts): discovery order, PKCE refusal, the redirect's `iss`, step-up and
 * its limit, refresh, and tokens kept by issuer.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openSession, type ConnectOptions } from '../../../src/runtime/client/index.js';
import { MemoryTokenStore } from '../../../src/runtime/client/auth/index.js';
import type { OAuthOptions } from '../../../src/runtime/client/http-auth.js';
import { AuthFixture, type Knobs } from './fixture.js';

const REDIRECT = 'http://127.0.0.1:9/callback';
let fixtures: AuthFixture[] = [];

afterEach(async () => {
  await Promise.all(fixtures.map((f) => f.stop()));
  fixtures = [];
});

async function fixture(knobs: Partial<Knobs> = {}): Promise<AuthFixture> {
  const started = await new AuthFixture(knobs).start();
  fixtures.push(started);
  return started;
}

function connect(f: AuthFixture, auth: Partial<OAuthOptions> = {}): ReturnType<typeof openSession> {
  const options: ConnectOptions = {
    url: f.url,
    protocolVersions: ['2026-07-28'],
    auth: { redirectUrl: REDIRECT, openAuthorizationUrl: f.browser, ...auth },
  };
  return openSession(options);
}

describe('discovery', () => {
  it('without resource_metadata in the challenge, tries the path-suffixed then the root protected resource metadata', async () => {
    const f = await fixture({ challengeResourceMetadata: false, prmPaths: ['/.well-known/oauth-protected-resource'] });
    const session = await connect(f);
    await session.close();
    const gets = f.requests.filter((r) => r.method === 'GET' && r.path.includes('oauth-protected-resource')).map((r) => r.path);
    expect(gets).toEqual(['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']);
  });

  it('an issuer with a path: RFC 8414 path insertion, OIDC path insertion, then OIDC path appending', async () => {
    const f = await fixture({ issuerPath: '/tenant1', asMetadataPaths: ['/tenant1/.well-known/openid-configuration'] });
    const session = await connect(f);
    await session.close();
    const gets = f.requests.filter((r) => r.method === 'GET' && (r.path.includes('authorization-server') || r.path.includes('openid'))).map((r) => r.path);
    expect(gets).toEqual([
      '/.well-known/oauth-authorization-server/tenant1',
      '/.well-known/openid-configuration/tenant1',
      '/tenant1/.well-known/openid-configuration',
    ]);
    expect(f.to('/tenant1/token')).toHaveLength(1);
  });

  it('refuses authorization server metadata whose issuer is not the one asked for', async () => {
    const f = await fixture({ asMetadata: { issuer: 'https://honest.example' } });
    await expect(connect(f)).rejects.toThrow(/issuer/);
    expect(f.to('/authorize')).toHaveLength(0);
  });

  it('refuses protected resource metadata naming another resource', async () => {
    const f = await fixture({ prm: { resource: 'https://other.example/mcp' } });
    await expect(connect(f)).rejects.toThrow(/names resource https:\/\/other\.example\/mcp/);
    expect(f.to('/authorize')).toHaveLength(0);
  });

  it('sends PKCE S256, state and the resource on the authorization and token requests', async () => {
    const f = await fixture({ challengeScope: 'files:read' });
    const session = await connect(f);
    await session.close();
    const [authorize] = f.to('/authorize');
    expect(authorize?.query.get('code_challenge_method')).toBe('S256');
    expect(authorize?.query.get('state')).toMatch(/.{16,}/);
    expect(authorize?.query.get('resource')).toBe(f.url);
    expect(authorize?.query.get('scope')).toBe('files:read');
    const [token] = f.to('/token');
    expect(token?.form.get('resource')).toBe(f.url);
    expect(token?.form.get('code_verifier')).toMatch(/.{43,}/);
  });
});

describe('PKCE', () => {
  it('refuses an authorization server that does not list S256', async () => {
    const f = await fixture({ asMetadata: { code_challenge_methods_supported: ['plain'] } });
    await expect(connect(f)).rejects.toThrow(/S256/);
    expect(f.to('/authorize')).toHaveLength(0);
  });

  it('refuses one that lists no methods at all', async () => {
    const f = await fixture({ asMetadata: { code_challenge_methods_supported: undefined } });
    await expect(connect(f)).rejects.toThrow(/S256/);
  });
});

describe('the redirect\'s iss (RFC 9207)', () => {
  it('advertised and present and right: signs in', async () => {
    const f = await fixture({ asMetadata: { authorization_response_iss_parameter_supported: true }, iss: 'correct' });
    const session = await connect(f);
    await session.close();
    expect(f.to('/token')).toHaveLength(1);
  });

  it('advertised but missing: refused before the code is sent anywhere', async () => {
    const f = await fixture({ asMetadata: { authorization_response_iss_parameter_supported: true }, iss: 'omit' });
    await expect(connect(f)).rejects.toThrow(/authorization response was refused/);
    expect(f.to('/token')).toHaveLength(0);
  });

  it('not advertised but present and wrong: refused', async () => {
    const f = await fixture({ iss: 'wrong' });
    await expect(connect(f)).rejects.toThrow(/authorization response was refused/);
    expect(f.to('/token')).toHaveLength(0);
  });
});

describe('scopes', () => {
  it('steps up on 403 insufficient_scope with the union of the scopes asked before and the challenge\'s', async () => {
    // The 403 names only what tools/list needs; what was asked before must be kept.
    const f = await fixture({ challengeScope: 'files:read', toolsScope: 'files:write' });
    const session = await connect(f);
    await session.request('tools/list', {});
    await session.close();
    expect(f.to('/authorize').map((r) => r.query.get('scope'))).toEqual(['files:read', 'files:read files:write']);
  });

  it('gives up after three sign-ins for the same scopes, and the refusal is the answer', async () => {
    // The endpoint wants `b`, which its authorization server never grants.
    const f = await fixture({ challengeScope: 'a', toolsScope: 'a b', withheldScope: 'b' });
    const session = await connect(f);
    await expect(session.request('tools/list', {})).rejects.toThrow(/HTTP 403/);
    // The limit is the connection's: a later request does not start over.
    await expect(session.request('tools/list', {})).rejects.toThrow(/HTTP 403/);
    await session.close();
    expect(f.to('/authorize').map((r) => r.query.get('scope'))).toEqual(['a', 'a b', 'a b', 'a b']);
  });

  it('adds offline_access when the authorization server lists it', async () => {
    const f = await fixture({ challengeScope: 'files:read', asMetadata: { scopes_supported: ['files:read', 'offline_access'] } });
    const session = await connect(f);
    await session.close();
    expect(f.to('/authorize')[0]?.query.get('scope')).toBe('files:read offline_access');
  });

  it('omits scope when neither the challenge nor the resource metadata names any', async () => {
    const f = await fixture();
    const session = await connect(f);
    await session.close();
    expect(f.to('/authorize')[0]?.query.has('scope')).toBe(false);
  });
});

describe('refresh and the token store', () => {
  it('a 401 with a refresh token refreshes (with the resource) instead of signing in again', async () => {
    const f = await fixture({ refreshTokens: true });
    const session = await connect(f);
    f.revokeAccessTokens();
    await session.request('tools/list', {});
    await session.close();
    expect(f.to('/authorize')).toHaveLength(1);
    const grants = f.to('/token').map((r) => r.form.get('grant_type'));
    expect(grants).toEqual(['authorization_code', 'refresh_token']);
    expect(f.to('/token')[1]?.form.get('resource')).toBe(f.url);
  });

  it('refreshes before sending when the access token is about to expire', async () => {
    const f = await fixture({ refreshTokens: true, expiresIn: 1 });
    const session = await connect(f);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await session.request('tools/list', {});
    await session.close();
    expect(f.to('/token').map((r) => r.form.get('grant_type'))).toEqual(['authorization_code', 'refresh_token']);
    // The refresh came before the request: the endpoint never refused one.
    expect(f.requests.filter((r) => r.path === '/mcp' && r.headers.authorization !== undefined)).toHaveLength(2);
  });

  it('a second connection sharing the store reuses the tokens kept for that issuer and resource', async () => {
    const f = await fixture();
    const store = new MemoryTokenStore();
    await (await connect(f, { store })).close();
    await (await connect(f, { store })).close();
    expect(f.to('/authorize')).toHaveLength(1);
    expect(f.to('/register')).toHaveLength(1);
  });

  it('tokens kept for one issuer are not sent to a server of another', async () => {
    const first = await fixture();
    const second = await fixture();
    const store = new MemoryTokenStore();
    await (await connect(first, { store })).close();
    await (await connect(second, { store })).close();
    expect(second.to('/authorize')).toHaveLength(1);
    const sent = second.requests.filter((r) => r.path === '/mcp').map((r) => r.headers.authorization).filter(Boolean);
    const firstTokens = new Set(first.requests.filter((r) => r.path === '/mcp').map((r) => r.headers.authorization).filter(Boolean));
    expect(sent.some((h) => firstTokens.has(h))).toBe(false);
  });
});
