/**
 * The other ways in: a static token, a token function, pre-registered credentials (basic or post as
 * the server lists), client ID metadata documents, dynamic registration's `application_type`,
 * `client_credentials`, the loopback redirect helper, and the challenge parser. Against the same
 * real node:http endpoint and authorization server (./fixture.ts).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openSession } from '../../../src/runtime/client/index.js';
import { bearerParams, idJagAssertion, loopbackRedirect, parseChallenges } from '../../../src/runtime/client/auth/index.js';
import type { OAuthOptions } from '../../../src/runtime/client/http-auth.js';
import { AuthFixture, type Knobs } from './fixture.js';

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

function oauth(f: AuthFixture, options: Partial<OAuthOptions> = {}): Promise<Awaited<ReturnType<typeof openSession>>> {
  return openSession({ url: f.url, protocolVersions: ['2026-07-28'], auth: { redirectUrl: 'http://127.0.0.1:9/cb', openAuthorizationUrl: f.browser, ...options } });
}

describe('tokens the app gives', () => {
  it('a static token is sent as Bearer on every request', async () => {
    const f = await fixture();
    f.acceptToken('app-token');
    const session = await openSession({ url: f.url, protocolVersions: ['2026-07-28'], auth: 'app-token' });
    await session.request('tools/list', {});
    await session.close();
    const sent = f.requests.filter((r) => r.path === '/mcp').map((r) => r.headers.authorization);
    expect(sent).toEqual(['Bearer app-token', 'Bearer app-token']);
    expect(f.to('/authorize')).toHaveLength(0);
  });

  it('a token function is asked again after a 401, and its new token is sent', async () => {
    const f = await fixture();
    f.acceptToken('fresh');
    const asked: boolean[] = [];
    const session = await openSession({
      url: f.url,
      protocolVersions: ['2026-07-28'],
      auth: ({ refused }) => {
        asked.push(refused);
        return refused ? 'fresh' : 'stale';
      },
    });
    await session.close();
    expect(f.requests.filter((r) => r.path === '/mcp').map((r) => r.headers.authorization)).toEqual(['Bearer stale', 'Bearer fresh']);
    expect(asked[0]).toBe(false);
    expect(asked.at(-1)).toBe(true);
  });
});

describe('client identity', () => {
  it('pre-registered with a secret: client_secret_basic when the server lists it', async () => {
    const f = await fixture({ asMetadata: { token_endpoint_auth_methods_supported: ['client_secret_basic'] } });
    await (await oauth(f, { clientId: 'my-client', clientSecret: 's3cret' })).close();
    const [token] = f.to('/token');
    expect(token?.headers.authorization).toBe(`Basic ${Buffer.from('my-client:s3cret').toString('base64')}`);
    expect(token?.form.has('client_secret')).toBe(false);
    expect(f.to('/register')).toHaveLength(0);
  });

  it('pre-registered with a secret: client_secret_post when the server lists only that', async () => {
    const f = await fixture({ asMetadata: { token_endpoint_auth_methods_supported: ['client_secret_post'] } });
    await (await oauth(f, { clientId: 'my-client', clientSecret: 's3cret' })).close();
    const [token] = f.to('/token');
    expect(token?.headers.authorization).toBeUndefined();
    expect(token?.form.get('client_secret')).toBe('s3cret');
  });

  it('a client ID metadata document URL when the server advertises support, and no registration', async () => {
    const f = await fixture({ asMetadata: { client_id_metadata_document_supported: true } });
    await (await oauth(f, { clientMetadataUrl: 'https://app.example/client.json' })).close();
    expect(f.to('/authorize')[0]?.query.get('client_id')).toBe('https://app.example/client.json');
    expect(f.to('/register')).toHaveLength(0);
  });

  it('dynamic registration otherwise, as a native app for a loopback redirect, then that client id', async () => {
    const f = await fixture();
    await (await oauth(f, { clientMetadataUrl: 'https://app.example/client.json' })).close();
    expect(f.to('/register')).toHaveLength(1);
    expect(f.to('/authorize')[0]?.query.get('client_id')).toMatch(/^client-/);
  });

  it('no registration endpoint, no metadata document support, no credentials: a clear refusal', async () => {
    const f = await fixture({ asMetadata: { registration_endpoint: undefined } });
    await expect(oauth(f)).rejects.toThrow(/no client identity/);
  });

  it('client_credentials: no browser, the scope and resource on the token request', async () => {
    const f = await fixture({ challengeScope: 'jobs', asMetadata: { token_endpoint_auth_methods_supported: ['client_secret_basic'] } });
    const session = await openSession({ url: f.url, protocolVersions: ['2026-07-28'], auth: { clientCredentials: true, clientId: 'svc', clientSecret: 'pw' } });
    await session.close();
    const [token] = f.to('/token');
    expect(token?.form.get('grant_type')).toBe('client_credentials');
    expect(token?.form.get('scope')).toBe('jobs');
    expect(token?.form.get('resource')).toBe(f.url);
    expect(f.to('/authorize')).toHaveLength(0);
  });
});

describe('workload identity (RFC 7523 JWT-bearer)', () => {
  it('exchanges the assertion, with client_id, scope and resource; no browser, no registration', async () => {
    const f = await fixture({ challengeScope: 'jobs' });
    const session = await openSession({ url: f.url, protocolVersions: ['2026-07-28'], auth: { clientId: 'workload', assertion: () => 'workload-jwt' } });
    await session.close();
    const [token] = f.to('/token');
    expect(token?.form.get('grant_type')).toBe('urn:ietf:params:oauth:grant-type:jwt-bearer');
    expect(token?.form.get('assertion')).toBe('workload-jwt');
    expect(token?.form.get('client_id')).toBe('workload');
    expect(token?.form.get('scope')).toBe('jobs');
    expect(token?.form.get('resource')).toBe(f.url);
    expect(f.to('/authorize')).toHaveLength(0);
  });

  it('enterprise-managed: the ID token is exchanged at the identity provider for an ID-JAG naming the authorization server and resource', async () => {
    const f = await fixture();
    const assertion = idJagAssertion({ idpTokenEndpoint: `${f.origin}/idp/token`, idpClientId: 'app-at-idp', idToken: 'user-id-token' });
    const session = await openSession({ url: f.url, protocolVersions: ['2026-07-28'], auth: { clientId: 'app', clientSecret: 'pw', assertion } });
    await session.close();
    const [exchange] = f.to('/idp/token');
    expect(exchange?.form.get('requested_token_type')).toBe('urn:ietf:params:oauth:token-type:id-jag');
    expect(exchange?.form.get('subject_token_type')).toBe('urn:ietf:params:oauth:token-type:id_token');
    expect(exchange?.form.get('audience')).toBe(f.issuer);
    expect(exchange?.form.get('resource')).toBe(f.url);
    expect(exchange?.form.get('client_id')).toBe('app-at-idp');
    expect(f.to('/token')[0]?.form.get('assertion')).toBe('workload-jwt');
  });

  it('a refused assertion is final: one token request, and the error says why', async () => {
    const f = await fixture();
    await expect(openSession({ url: f.url, protocolVersions: ['2026-07-28'], auth: { clientId: 'workload', assertion: 'forged' } })).rejects.toThrow(/invalid_grant/);
    expect(f.to('/token')).toHaveLength(1);
  });
});

describe('loopbackRedirect', () => {
  it('receives the redirect on 127.0.0.1 and hands it back; the opener is given the authorization URL', async () => {
    const f = await fixture();
    const opened: string[] = [];
    const loopback = await loopbackRedirect({
      open: async (url) => {
        opened.push(url.href);
        await fetch(url); // the "browser" follows the redirect to the loopback server
      },
    });
    expect(loopback.redirectUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const session = await openSession({
      url: f.url,
      protocolVersions: ['2026-07-28'],
      auth: { redirectUrl: loopback.redirectUrl, openAuthorizationUrl: loopback.openAuthorizationUrl },
    });
    await session.close();
    await loopback.close();
    expect(opened).toHaveLength(1);
    expect(new URL(opened[0] as string).searchParams.get('redirect_uri')).toBe(loopback.redirectUrl);
    expect(f.to('/register')[0]).toBeDefined();
    expect(f.to('/token')).toHaveLength(1);
  });
});

describe('WWW-Authenticate', () => {
  it('reads each challenge, quoted and bare values, escapes, in any case', () => {
    const header = 'Bearer resource_metadata="https://x.example/.well-known/oauth-protected-resource", Scope="a b", error=insufficient_scope, DPoP algs="ES256 \\"x\\""';
    expect(parseChallenges(header)).toEqual([
      { scheme: 'Bearer', params: { resource_metadata: 'https://x.example/.well-known/oauth-protected-resource', scope: 'a b', error: 'insufficient_scope' } },
      { scheme: 'DPoP', params: { algs: 'ES256 "x"' } },
    ]);
    expect(bearerParams('Basic realm="x", Bearer scope="s"')).toEqual({ scope: 's' });
    expect(bearerParams(undefined)).toEqual({});
  });
});

describe('MemoryTokenStore', () => {
  it('keeps tokens by issuer and resource, clients by issuer', async () => {
    const { MemoryTokenStore } = await import('../../../src/runtime/client/auth/index.js');
    const store = new MemoryTokenStore();
    store.setTokens('https://as-one.example', 'https://mcp.example/mcp', { accessToken: 'one' });
    expect(store.getTokens('https://as-one.example', 'https://mcp.example/mcp')?.accessToken).toBe('one');
    expect(store.getTokens('https://as-two.example', 'https://mcp.example/mcp')).toBeUndefined();
    expect(store.getTokens('https://as-one.example', 'https://other.example/mcp')).toBeUndefined();
    store.setClient('https://as-one.example', { clientId: 'c1' });
    expect(store.getClient('https://as-two.example')).toBeUndefined();
    store.setTokens('https://as-one.example', 'https://mcp.example/mcp', undefined);
    expect(store.getTokens('https://as-one.example', 'https://mcp.example/mcp')).toBeUndefined();
  });
});
