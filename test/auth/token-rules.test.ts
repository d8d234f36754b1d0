/**
 * Issue 27's token rules below the HTTP layer (resource-server.test.ts has them over HTTP in both
 * eras): which `aud` values name the resource (RFC 3986 normalization), who a token's sessions and
 * tasks belong to, `typ` with `requireTyp` off (the default) and on, and a future `iat` against the
 * configured clock skew. JWTs are signed here and checked against a key set served here.
 */
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audienceCheck } from '../../src/runtime/auth/audience.js';
import { authInfoOf } from '../../src/runtime/auth/claims.js';
import { InvalidToken } from '../../src/runtime/auth/index.js';
import { JwtVerifier, type JwtSettings } from '../../src/runtime/auth/jwt.js';

describe('aud against the resource (RFC 3986 6.2.2 and 6.2.3)', () => {
  const check = audienceCheck('https://mcp.example.com/mcp');
  it.each([
    'https://mcp.example.com/mcp',
    'HTTPS://MCP.EXAMPLE.COM/mcp',
    'https://Mcp.Example.com:443/mcp',
    'https://mcp.example.com/a/../mcp',
    'https://mcp.example.com/./mcp',
    'https://mcp.example.com/%6Dcp',
    'https://mcp.example.com/%6dcp',
  ])('%s names it', (aud) => {
    expect(check(aud)).toBe(true);
    expect(check(['urn:other', aud])).toBe(true);
  });

  it.each([
    'https://mcp.example.com/mcp/',
    'https://mcp.example.com/MCP',
    'http://mcp.example.com/mcp',
    'https://mcp.example.com:8443/mcp',
    'https://mcp.example.com/mcp#x',
    'https://mcp.example.com/mcp?',
    'https://mcp.example.com/mcp?a=1',
    'https://user@mcp.example.com/mcp',
    'https://mcp.example.com\\mcp',
    ' https://mcp.example.com/mcp',
    'https://mcp.example.com/m\ncp',
    'https://mcp.example.com.evil/mcp',
    'mcp.example.com/mcp',
  ])('%j does not', (aud) => {
    expect(check(aud)).toBe(false);
  });

  it('an empty path is "/", the default port optional, percent-encoding hex in either case', () => {
    const root = audienceCheck('https://mcp.example.com');
    for (const aud of ['https://mcp.example.com', 'https://mcp.example.com/', 'https://MCP.example.com:443', 'https://mcp.example.com:443/']) expect(root(aud), aud).toBe(true);
    const http = audienceCheck('http://127.0.0.1:80/');
    expect(http('http://127.0.0.1')).toBe(true);
    const encoded = audienceCheck('https://m.example/a%2fb');
    expect(encoded('https://m.example/a%2Fb')).toBe(true);
    expect(encoded('https://m.example/a/b')).toBe(false); // `/` is reserved: %2F is not a slash
  });

  it('an audience that is not an http(s) URL must be exactly the string', () => {
    const urn = audienceCheck('urn:mcp:Weather');
    expect(urn('urn:mcp:Weather')).toBe(true);
    expect(urn('URN:mcp:Weather')).toBe(false);
    expect(urn('urn:mcp:weather')).toBe(false);
    expect(urn(undefined)).toBe(false);
    expect(urn([1, 2])).toBe(false);
  });
});

describe('who a token’s sessions and tasks belong to', () => {
  it('the issuer and sub; never the client id', () => {
    const user = authInfoOf({ iss: 'https://as.example', sub: 'user-1', client_id: 'app' }, 't1')!;
    const namesake = authInfoOf({ iss: 'https://as.example', client_id: 'user-1' }, 't2')!;
    expect(namesake.subject).toBe('user-1'); // what handlers see: the client acting for itself
    expect(namesake.owner).not.toBe(user.owner);
    expect(authInfoOf({ iss: 'https://as.example', sub: 'user-1' }, 'another token')!.owner).toBe(user.owner);
    expect(authInfoOf({ iss: 'https://other.example', sub: 'user-1' }, 't1')!.owner).not.toBe(user.owner);
  });

  it('without sub, the token alone (and never the token itself)', () => {
    const a = authInfoOf({ client_id: 'app' }, 'token-a')!;
    expect(authInfoOf({ client_id: 'app' }, 'token-a')!.owner).toBe(a.owner);
    expect(authInfoOf({ client_id: 'app' }, 'token-b')!.owner).not.toBe(a.owner);
    expect(a.owner).not.toContain('token-a');
  });
});

describe('JwtVerifier: typ and iat', () => {
  const ISSUER = 'https://issuer.example';
  const AUDIENCE = 'https://mcp.example.com/mcp';
  let server: Server;
  let key: CryptoKey;
  let jwksUri: string;

  beforeAll(async () => {
    const pair = await generateKeyPair('ES256', { extractable: true });
    key = pair.privateKey;
    const jwks = JSON.stringify({ keys: [{ ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' }] });
    server = createHttpServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(jwks));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    jwksUri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks`;
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  const verifier = (extra: Partial<JwtSettings> = {}): JwtVerifier => new JwtVerifier({ issuer: ISSUER, audience: AUDIENCE, algorithms: ['ES256'], jwksUri, ...extra });
  const now = (): number => Math.floor(Date.now() / 1000);
  const token = (typ: string | undefined, claims: Record<string, unknown> = {}): Promise<string> =>
    new SignJWT({ iss: ISSUER, aud: AUDIENCE, sub: 's', iat: now(), exp: now() + 600, ...claims })
      .setProtectedHeader({ alg: 'ES256', kid: 'k1', ...(typ === undefined ? {} : { typ }) })
      .sign(key);
  const refusal = async (v: JwtVerifier, jwt: string): Promise<string | undefined> => {
    try {
      await v.verify(jwt);
      return undefined;
    } catch (error) {
      if (error instanceof InvalidToken) return error.message;
      throw error;
    }
  };

  it('by default any typ but dpop+jwt is accepted', async () => {
    const v = verifier();
    for (const typ of [undefined, 'JWT', 'at+jwt', 'application/at+jwt']) expect(await refusal(v, await token(typ)), String(typ)).toBeUndefined();
    for (const typ of ['dpop+jwt', 'DPoP+JWT', 'application/dpop+jwt']) expect(await refusal(v, await token(typ)), typ).toBe('a DPoP proof is not an access token');
  });

  it('requireTyp accepts only at+jwt, in any case, with or without application/', async () => {
    const v = verifier({ requireTyp: true });
    for (const typ of ['at+jwt', 'AT+JWT', 'application/at+jwt', 'Application/At+Jwt']) expect(await refusal(v, await token(typ)), typ).toBeUndefined();
    for (const typ of [undefined, 'JWT', 'jwt', 'dpop+jwt', 'at+jwt+x', 'application/jwt']) expect(await refusal(v, await token(typ)), String(typ)).toBeDefined();
  });

  it('an iat in the future is refused past the clock skew, accepted within it', async () => {
    expect(await refusal(verifier(), await token('at+jwt', { iat: now() + 25 }))).toBeUndefined();
    expect(await refusal(verifier(), await token('at+jwt', { iat: now() + 60 }))).toBe('the token was issued in the future');
    expect(await refusal(verifier({ clockSkewSeconds: 0 }), await token('at+jwt', { iat: now() + 5 }))).toBe('the token was issued in the future');
    expect(await refusal(verifier({ clockSkewSeconds: 120 }), await token('at+jwt', { iat: now() + 60 }))).toBeUndefined();
  });
});
