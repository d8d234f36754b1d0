/**
 * A generated server whose manifest has `auth` (test/fixtures/auth), as an OAuth 2.1 resource
 * server in front of a real authorization server (oidc-provider, support/oidc-provider.ts), over
 * raw HTTP in both eras: every bad token gets its status and `WWW-Authenticate` challenge before
 * any handler runs, the server log never holds a token, and valid tokens reach the handler as
 * `context.auth`. Bad tokens are minted with jose: with the issuer's own key when only one claim
 * is wrong, with a key generated here when the signature is the point.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SignJWT, base64url, exportSPKI, generateKeyPair, importJWK, type CryptoKey } from 'jose';
import { Client as Sdk2Client, StreamableHTTPClientTransport as Sdk2Http } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpListener } from '../../src/runtime/index.js';
import { startAuthorizationServer, type TestAuthorizationServer } from './support/oidc-provider.js';
import { generateProtectedServer, type GeneratedProtectedServer } from './support/protected-server.js';
import { listen } from '../transports/adapters.js';

const STATEFUL = '2025-11-25';
const STATELESS = '2026-07-28';
const ERAS = [STATEFUL, STATELESS] as const;

let as: TestAuthorizationServer;
let generated: GeneratedProtectedServer;
let listener: HttpListener;
let resource: string;
let calls: { tool: string; subject: string | undefined }[];
const logs: string[] = [];
/** Every token a test used: none may appear in the server's log. */
const tokensSeen: string[] = [];
let readToken: string; // client_credentials, scope weather:read

beforeAll(async () => {
  as = await startAuthorizationServer();
  generated = await generateProtectedServer();
  const url = (path: string): string => pathToFileURL(join(generated.dir, path)).href;
  const server = (await import(url('generated/server.ts'))) as typeof import('../fixtures/auth/generated-shape.js');
  const { createResourceServerAuth } = (await import(url('generated/runtime/auth/index.ts'))) as typeof import('../../src/runtime/auth/index.js');
  const { handlers } = (await import(url('handlers/index.ts'))) as { handlers: never };
  calls = ((await import(url('handlers/calls.ts'))) as { calls: typeof calls }).calls;
  // The resource is where the server listens: take a free port first.
  const probe = await listen(server.createServer(handlers, { logger: () => {} }), { port: 0 });
  const port = new URL(probe.url).port;
  await probe.close();
  resource = `http://127.0.0.1:${port}/mcp`;
  const settings = server.authSettings;
  const jwt = 'jwt' in settings.verifier ? settings.verifier.jwt : undefined;
  const auth = createResourceServerAuth(
    // requireTyp: the tokens oidc-provider issues say `typ: at+jwt` (RFC 9068), as every token signed here does.
    { ...settings, authorizationServers: [as.issuer], verifier: { jwt: { ...jwt!, issuer: as.issuer, requireTyp: true } } },
    { resource, log: (line) => logs.push(line) },
  );
  listener = await listen(server.createServer(handlers, { logger: (line) => logs.push(line) }), { port: Number(port), auth });
  readToken = await as.tokenByClientCredentials(resource, 'weather:read');
  tokensSeen.push(readToken);
}, 60_000);

afterAll(async () => {
  await listener?.close();
  await as?.close();
  generated?.remove();
});

const now = (): number => Math.floor(Date.now() / 1000);
const claims = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  iss: as.issuer,
  aud: resource,
  sub: 'test-service',
  client_id: 'test-service',
  scope: 'weather:read',
  iat: now(),
  exp: now() + 600,
  ...extra,
});

function headersFor(era: string, token: string | undefined, extra: Record<string, string> = {}): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': era, ...extra };
  if (token !== undefined) headers['authorization'] = `Bearer ${token}`;
  return headers;
}

const STATELESS_META = {
  'io.modelcontextprotocol/protocolVersion': STATELESS,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'auth-test', version: '1' },
};

/** A 2025-11-25 session opened with `token`; its id. */
async function openSession(token: string): Promise<string> {
  const response = await fetch(listener.url, {
    method: 'POST',
    headers: headersFor(STATEFUL, token),
    body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: STATEFUL, capabilities: {}, clientInfo: { name: 'auth-test', version: '1' } } }),
  });
  expect(response.status).toBe(200);
  const id = response.headers.get('mcp-session-id')!;
  await fetch(listener.url, { method: 'POST', headers: headersFor(STATEFUL, token, { 'mcp-session-id': id }), body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
  return id;
}

/**
 * tools/call in `era` with `authorization` as the whole header value (undefined: none). In
 * 2025-11-25 the session is opened first with a valid token (`opener`), so only the call's token differs.
 */
async function callTool(era: string, authorization: string | undefined, tool: string, args: Record<string, unknown> = {}, path = '', opener = readToken): Promise<Response> {
  const body = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: tool, arguments: args, ...(era === STATELESS ? { _meta: STATELESS_META } : {}) } };
  const headers = headersFor(era, undefined, era === STATELESS ? { 'mcp-method': 'tools/call', 'mcp-name': tool } : { 'mcp-session-id': await openSession(opener) });
  if (authorization !== undefined) headers['authorization'] = authorization;
  return fetch(listener.url + path, { method: 'POST', headers, body: JSON.stringify(body) });
}

/** The JSON-RPC result of a response, JSON or SSE. */
async function resultOf(response: Response): Promise<{ structuredContent?: Record<string, unknown>; isError?: boolean }> {
  const text = await response.text();
  const json = response.headers.get('content-type')?.startsWith('text/event-stream')
    ? text.split('\n').filter((l) => l.startsWith('data: ') && l.length > 6).map((l) => JSON.parse(l.slice(6)) as { result?: unknown }).find((m) => m.result !== undefined)
    : (JSON.parse(text) as { result?: unknown });
  return json!.result as { structuredContent?: Record<string, unknown> };
}

const metadataUrl = (): string => `${new URL(resource).origin}/.well-known/oauth-protected-resource/mcp`;

describe.each(ERAS)('a protected generated server at %s', (era) => {
  /** Each refused case: the header value, status, and the challenge's error (undefined: none). */
  const refusals: [string, () => Promise<string | undefined>, number, string | undefined][] = [
    ['no token', async () => undefined, 401, undefined],
    ['another scheme', async () => 'Basic dGVzdDp0ZXN0', 401, undefined],
    ['a malformed Bearer header', async () => 'Bearer not a token!', 400, 'invalid_request'],
    ['a token that is not a JWT', async () => 'Bearer abc.def', 401, 'invalid_token'],
    ['an expired token', async () => `Bearer ${await as.sign(claims({ iat: now() - 7200, exp: now() - 3600 }))}`, 401, 'invalid_token'],
    ['a token not yet valid', async () => `Bearer ${await as.sign(claims({ nbf: now() + 3600 }))}`, 401, 'invalid_token'],
    ['a token for another audience', async () => `Bearer ${await as.sign(claims({ aud: 'http://127.0.0.1:9/other' }))}`, 401, 'invalid_token'],
    ['a token from another issuer', async () => `Bearer ${await as.sign(claims({ iss: 'http://127.0.0.1:9' }))}`, 401, 'invalid_token'],
    ['a token without exp', async () => `Bearer ${await as.sign(claims({ exp: undefined }))}`, 401, 'invalid_token'],
    ['a token issued in the future, past the clock skew', async () => `Bearer ${await as.sign(claims({ iat: now() + 120 }))}`, 401, 'invalid_token'],
    ['a DPoP proof (typ dpop+jwt) as an access token', async () => `Bearer ${await as.sign(claims(), { typ: 'dpop+jwt' })}`, 401, 'invalid_token'],
    ['typ application/dpop+jwt', async () => `Bearer ${await as.sign(claims(), { typ: 'application/dpop+jwt' })}`, 401, 'invalid_token'],
    ['typ JWT under requireTyp', async () => `Bearer ${await as.sign(claims(), { typ: 'JWT' })}`, 401, 'invalid_token'],
    ['no typ under requireTyp', async () => `Bearer ${await as.sign(claims(), { typ: null })}`, 401, 'invalid_token'],
    ['an aud with a trailing slash after the path (another resource)', async () => `Bearer ${await as.sign(claims({ aud: `${resource}/` }))}`, 401, 'invalid_token'],
    ['an aud whose path differs in case', async () => `Bearer ${await as.sign(claims({ aud: resource.replace('/mcp', '/MCP') }))}`, 401, 'invalid_token'],
    ['an aud with a fragment', async () => `Bearer ${await as.sign(claims({ aud: `${resource}#x` }))}`, 401, 'invalid_token'],
    ['an aud on another port', async () => `Bearer ${await as.sign(claims({ aud: resource.replace(/:\d+\//, ':1/') }))}`, 401, 'invalid_token'],
    ['two Bearer credentials joined in one header', async () => `Bearer ${readToken}, Bearer ${readToken}`, 400, 'invalid_request'],
    [
      'a bad signature (another key, the issuer kid)',
      async () => {
        const { privateKey } = await generateKeyPair('RS256');
        return `Bearer ${await new SignJWT(claims()).setProtectedHeader({ alg: 'RS256', kid: as.kid }).sign(privateKey)}`;
      },
      401,
      'invalid_token',
    ],
    [
      'alg none',
      async () => `Bearer ${base64url.encode(JSON.stringify({ alg: 'none', kid: as.kid }))}.${base64url.encode(JSON.stringify(claims()))}.`,
      401,
      'invalid_token',
    ],
    [
      'HS256 keyed with the public key',
      async () => {
        const pem = await exportSPKI((await importJWK(as.publicJwk, 'RS256')) as CryptoKey);
        return `Bearer ${await new SignJWT(claims()).setProtectedHeader({ alg: 'HS256', kid: as.kid }).sign(new TextEncoder().encode(pem))}`;
      },
      401,
      'invalid_token',
    ],
    [
      'an unknown kid',
      async () => {
        const { privateKey } = await generateKeyPair('RS256');
        return `Bearer ${await new SignJWT(claims()).setProtectedHeader({ alg: 'RS256', kid: 'unknown-kid' }).sign(privateKey)}`;
      },
      401,
      'invalid_token',
    ],
  ];

  it.each(refusals)('%s: refused before any handler runs', async (_name, header, status, error) => {
    const authorization = await header();
    if (authorization !== undefined) tokensSeen.push(authorization.replace(/^\S+ /, ''));
    const before = calls.length;
    const response = await callTool(era, authorization, 'get_forecast', { city: 'Lisbon' });
    expect(response.status).toBe(status);
    const challenge = response.headers.get('www-authenticate')!;
    expect(challenge).toMatch(/^Bearer /);
    expect(challenge).toContain(`resource_metadata="${metadataUrl()}"`);
    if (error === undefined) {
      expect(challenge).not.toContain('error=');
      expect(challenge).toContain('scope="weather:read"');
    } else expect(challenge).toContain(`error="${error}"`);
    const body = (await response.json()) as { error: { message: string } };
    if (authorization !== undefined && authorization.length > 20) expect(body.error.message).not.toContain(authorization.slice(7));
    expect(calls.length).toBe(before);
  });

  it('a token lacking the tool scope: 403 insufficient_scope naming every scope the call needs', async () => {
    const before = calls.length;
    const response = await callTool(era, `Bearer ${readToken}`, 'set_alert', { city: 'Lisbon' });
    expect(response.status).toBe(403);
    const challenge = response.headers.get('www-authenticate')!;
    expect(challenge).toContain('error="insufficient_scope"');
    expect(challenge).toContain('scope="weather:read weather:write"');
    expect(challenge).toContain(`resource_metadata="${metadataUrl()}"`);
    expect(((await response.json()) as { id: unknown }).id).toBe(7);
    expect(calls.length).toBe(before);
  });

  it('an access_token in the query is refused (400), even beside a valid header', async () => {
    const before = calls.length;
    const response = await callTool(era, `Bearer ${readToken}`, 'get_forecast', { city: 'Lisbon' }, `?access_token=${readToken}`);
    expect(response.status).toBe(400);
    expect(response.headers.get('www-authenticate')).toContain('error="invalid_request"');
    expect(calls.length).toBe(before);
  });

  it('a valid token reaches the handler, which sees context.auth', async () => {
    const forecast = await callTool(era, `Bearer ${readToken}`, 'get_forecast', { city: 'Lisbon' });
    expect(forecast.status).toBe(200);
    expect((await resultOf(forecast)).structuredContent).toEqual({ city: 'Lisbon', sky: 'clear' });
    const whoami = await resultOf(await callTool(era, `Bearer ${readToken}`, 'whoami'));
    expect(whoami.structuredContent).toEqual({ subject: 'test-service', clientId: 'test-service', scopes: ['weather:read'] });
  });

  it('a token from the authorization-code flow (PKCE) with both scopes calls set_alert as its user', async () => {
    const token = await as.tokenByAuthorizationCode(resource, 'weather:read weather:write');
    tokensSeen.push(token);
    const response = await callTool(era, `Bearer ${token}`, 'set_alert', { city: 'Porto' }, '', token);
    expect(response.status).toBe(200);
    expect(calls.at(-1)).toEqual({ tool: 'set_alert', subject: 'user-1' });
  });
});

describe.each(ERAS)('tokens at %s (issue 27)', (era) => {
  it.each([
    ['typ at+jwt', 'at+jwt'],
    ['typ application/at+jwt', 'application/at+jwt'],
    ['typ AT+JWT', 'AT+JWT'],
  ])('%s is accepted under requireTyp', async (_name, typ) => {
    const token = await as.sign(claims(), { typ });
    tokensSeen.push(token);
    expect((await callTool(era, `Bearer ${token}`, 'whoami')).status).toBe(200);
  });

  it('a token issued within the clock skew is accepted', async () => {
    const token = await as.sign(claims({ iat: now() + 10 }));
    tokensSeen.push(token);
    expect((await callTool(era, `Bearer ${token}`, 'whoami')).status).toBe(200);
  });

  it.each([
    ['scheme and host in upper case', (r: string) => r.replace('http://127.0.0.1', 'HTTP://127.0.0.1')],
    ['a dot segment', (r: string) => r.replace('/mcp', '/./x/../mcp')],
    ['a percent-encoded unreserved character', (r: string) => r.replace('/mcp', '/%6Dcp')],
    ['in a list beside another audience', (r: string) => ['http://127.0.0.1:9/other', r.toUpperCase().replace('/MCP', '/mcp')]],
  ])('an aud naming the resource with %s is accepted (RFC 3986 normalization)', async (_name, aud) => {
    const token = await as.sign(claims({ aud: aud(resource) }));
    tokensSeen.push(token);
    const response = await callTool(era, `Bearer ${token}`, 'whoami');
    expect(response.status).toBe(200);
    expect((await resultOf(response)).structuredContent).toMatchObject({ subject: 'test-service' });
  });

  it('two Authorization headers are 400 invalid_request, whichever comes first', async () => {
    const bad = await as.sign(claims({ exp: now() - 3600, iat: now() - 7200 }));
    tokensSeen.push(bad);
    for (const pair of [[readToken, bad], [bad, readToken], [readToken, readToken]]) {
      const before = calls.length;
      const { status, challenge } = await postWithHeaders(era, pair.map((token) => `Bearer ${token}`));
      expect(status).toBe(400);
      expect(challenge).toContain('error="invalid_request"');
      expect(calls.length).toBe(before);
    }
    // One header with the same token: served, so the refusal is about the repetition.
    expect((await postWithHeaders(era, [`Bearer ${readToken}`])).status).toBe(200);
  });
});

/** tools/call whoami with each of `authorizations` as its own Authorization header line (fetch would join them). */
async function postWithHeaders(era: string, authorizations: string[]): Promise<{ status: number; challenge: string | undefined }> {
  const { request } = await import('node:http');
  const extra = era === STATELESS ? { 'mcp-method': 'tools/call', 'mcp-name': 'whoami' } : { 'mcp-session-id': await openSession(readToken) };
  const body = JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'whoami', arguments: {}, ...(era === STATELESS ? { _meta: STATELESS_META } : {}) } });
  return new Promise((resolve, reject) => {
    // Raw [name, value…] pairs (node then adds no Host of its own): each Authorization its own header line.
    const headers = ['host', new URL(listener.url).host, ...Object.entries(headersFor(era, undefined, extra)).flat(), ...authorizations.flatMap((value) => ['authorization', value])];
    const req = request(listener.url, { method: 'POST', headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, challenge: res.headers['www-authenticate'] }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('the Protected Resource Metadata', () => {
  it.each(['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource'])('is served at %s without a token', async (path) => {
    const response = await fetch(new URL(path, resource));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ resource, authorization_servers: [as.issuer], scopes_supported: ['weather:read'], bearer_methods_supported: ['header'] });
  });

  it('other well-known paths are 404', async () => {
    expect((await fetch(new URL('/.well-known/oauth-protected-resource/other', resource))).status).toBe(404);
  });
});

describe('2025-11-25 sessions belong to the subject that opened them', () => {
  it("another subject's token gets 404 for POST, GET and DELETE, as for an unknown session; the owner's still works", async () => {
    const userToken = await as.tokenByAuthorizationCode(resource, 'weather:read');
    tokensSeen.push(userToken);
    const session = await openSession(userToken);
    const before = calls.length;
    const call = (token: string): Promise<Response> =>
      fetch(listener.url, {
        method: 'POST',
        headers: headersFor(STATEFUL, token, { 'mcp-session-id': session }),
        body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'whoami', arguments: {} } }),
      });
    expect((await call(readToken)).status).toBe(404);
    expect((await fetch(listener.url, { headers: { ...headersFor(STATEFUL, readToken, { 'mcp-session-id': session }), accept: 'text/event-stream' } })).status).toBe(404);
    expect((await fetch(listener.url, { method: 'DELETE', headers: headersFor(STATEFUL, readToken, { 'mcp-session-id': session }) })).status).toBe(404);
    expect(calls.length).toBe(before);
    const own = await call(userToken);
    expect(own.status).toBe(200);
    expect((await resultOf(own)).structuredContent).toMatchObject({ subject: 'user-1' });
  });
});

describe('2025-11-25 sessions are bound to the issuer and sub, never to client_id (issue 27)', () => {
  const call = (token: string, session: string): Promise<Response> =>
    fetch(listener.url, {
      method: 'POST',
      headers: headersFor(STATEFUL, token, { 'mcp-session-id': session }),
      body: JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'whoami', arguments: {} } }),
    });

  it("a token without sub whose client_id is a user's subject is not served that user's session", async () => {
    const userToken = await as.tokenByAuthorizationCode(resource, 'weather:read');
    const namesake = await as.sign(claims({ sub: undefined, client_id: 'user-1' }));
    tokensSeen.push(userToken, namesake);
    const session = await openSession(userToken);
    const before = calls.length;
    expect((await call(namesake, session)).status).toBe(404);
    expect(calls.length).toBe(before);
    expect((await call(userToken, session)).status).toBe(200);
  });

  it('a token without sub has a session bound to that token alone: another such token of the same client gets 404', async () => {
    const first = await as.sign(claims({ sub: undefined, jti: 'first' }));
    const second = await as.sign(claims({ sub: undefined, jti: 'second' }));
    tokensSeen.push(first, second);
    const session = await openSession(first);
    const own = await call(first, session);
    expect(own.status).toBe(200);
    // Handlers still see the client acting for itself.
    expect((await resultOf(own)).structuredContent).toMatchObject({ subject: 'test-service', clientId: 'test-service' });
    expect((await call(second, session)).status).toBe(404);
  });

  it('another token with the same issuer and sub is served (a refreshed token keeps its session)', async () => {
    const session = await openSession(readToken);
    const refreshed = await as.sign(claims({ jti: 'refreshed' }));
    tokensSeen.push(refreshed);
    expect((await call(refreshed, session)).status).toBe(200);
  });
});

describe('the official SDK 1.x client with a bearer token', () => {
  it('connects and calls a protected tool; without the token it cannot connect', async () => {
    const client = new Client({ name: 'sdk1', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(listener.url), { requestInit: { headers: { authorization: `Bearer ${readToken}` } } }));
    const result = await client.callTool({ name: 'whoami', arguments: {} });
    expect(result.structuredContent).toEqual({ subject: 'test-service', clientId: 'test-service', scopes: ['weather:read'] });
    await client.close();
    const refused = new Client({ name: 'sdk1', version: '1' });
    await expect(refused.connect(new StreamableHTTPClientTransport(new URL(listener.url)))).rejects.toThrow();
  });
});

describe.each(ERAS)('the official SDK 2.x client at %s with a bearer token', (era) => {
  it('calls a protected tool and sees the scope refusal as an error; without the token it cannot connect', async () => {
    const options = era === STATELESS ? { versionNegotiation: { mode: { pin: STATELESS } } } : {};
    const client = new Sdk2Client({ name: 'sdk2', version: '2' }, options as never);
    await client.connect(new Sdk2Http(new URL(listener.url), { requestInit: { headers: { authorization: `Bearer ${readToken}` } } }));
    expect(client.getNegotiatedProtocolVersion()).toBe(era);
    const result = await client.callTool({ name: 'whoami', arguments: {} });
    expect(result.structuredContent).toEqual({ subject: 'test-service', clientId: 'test-service', scopes: ['weather:read'] });
    const before = calls.length;
    await expect(client.callTool({ name: 'set_alert', arguments: { city: 'Faro' } })).rejects.toThrow();
    expect(calls.length).toBe(before);
    await client.close();
    const refused = new Sdk2Client({ name: 'sdk2', version: '2' }, options as never);
    await expect(refused.connect(new Sdk2Http(new URL(listener.url)))).rejects.toThrow();
  });
});

describe('the server log', () => {
  it('never holds a token', () => {
    expect(tokensSeen.length).toBeGreaterThan(5);
    const log = logs.join('\n');
    for (const token of tokensSeen) expect(log.includes(token), 'a token in the log').toBe(false);
  });
});

describe('the generated project', () => {
  it('type-checks under its own strict tsconfig, jose included', () => {
    const tsc = spawnSync(process.execPath, [join(process.cwd(), 'node_modules/typescript/bin/tsc'), '-p', generated.dir, '--noEmit'], { encoding: 'utf8' });
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
  }, 120_000);
});

