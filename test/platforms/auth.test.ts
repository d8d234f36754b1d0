/**
 * The weather example as it is, an OAuth 2.1 resource server (its manifest's `auth` section), built
 * with `--target web` and served on Bun and Deno: the web entry verifies JWT access tokens with
 * `jose` on the runtime's own Web Crypto, fetching the issuer's metadata and JWKS from an issuer
 * this file runs on 127.0.0.1 (the manifest's issuer URL is pointed at it). Deno needs
 * `--allow-net` for that issuer, nothing more.
 */
import { createServer, type Server } from 'node:http';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Client as Sdk2Client, StreamableHTTPClientTransport as Sdk2Http } from '@modelcontextprotocol/client';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWebServer, deployBun, deployDeno, ensurePlatforms, WORK_DIR, type Deployment } from '../../scripts/platforms.mjs';
import { repoRoot } from '../client/support.js';

const WEATHER = join(repoRoot, 'examples', 'weather');
/** The manifest's resource: tokens are issued for it. */
const RESOURCE = 'http://127.0.0.1:3000/mcp';

let issuer: string;
let issuerServer: Server;
let signingKey: CryptoKey;
let handlerModule: string;

/** An access token for the weather resource, signed by `key` (the issuer's unless told). */
function token(scope: string, key: CryptoKey = signingKey): Promise<string> {
  return new SignJWT({ scope, client_id: 'platforms' })
    .setProtectedHeader({ alg: 'RS256', kid: 'platforms-key' })
    .setIssuer(issuer)
    .setAudience(RESOURCE)
    .setSubject('ada')
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(key);
}

beforeAll(async () => {
  ensurePlatforms({ quiet: true });
  const keys = await generateKeyPair('RS256');
  signingKey = keys.privateKey;
  const jwk = { ...(await exportJWK(keys.publicKey)), kid: 'platforms-key', alg: 'RS256', use: 'sig' };
  // The issuer: RFC 8414 metadata naming its JWKS, and the JWKS.
  issuerServer = createServer((req, res) => {
    const body =
      req.url === '/.well-known/oauth-authorization-server'
        ? { issuer, jwks_uri: `${issuer}/jwks`, token_endpoint: `${issuer}/token`, response_types_supported: ['code'] }
        : req.url === '/jwks'
          ? { keys: [jwk] }
          : undefined;
    res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'application/json' }).end(JSON.stringify(body ?? {}));
  });
  await new Promise<void>((resolve) => issuerServer.listen(0, '127.0.0.1', resolve));
  const address = issuerServer.address();
  issuer = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
  // The example's manifest, its issuer URL pointed at this file's issuer.
  mkdirSync(WORK_DIR, { recursive: true });
  const manifest = join(WORK_DIR, 'weather-auth.yaml');
  writeFileSync(manifest, readFileSync(join(WEATHER, 'manifest.yaml'), 'utf8').replaceAll('http://127.0.0.1:9400', issuer));
  handlerModule = buildWebServer(manifest, join(WEATHER, 'server', 'handlers'), join(WORK_DIR, 'weather-auth'));
}, 600_000);

afterAll(() => {
  issuerServer?.close();
});

const DEPLOY = {
  bun: (dir: string) => deployBun(handlerModule, dir),
  deno: (dir: string) => deployDeno(handlerModule, dir, [`--allow-net=${new URL(issuer).host}`]),
};

describe.each(Object.keys(DEPLOY) as (keyof typeof DEPLOY)[])('%s', (platform) => {
  let deployment: Deployment;
  beforeAll(async () => {
    deployment = await DEPLOY[platform](join(WORK_DIR, `deploy-auth-${platform}`));
  }, 120_000);
  afterAll(async () => {
    await deployment?.stop();
  });

  const post = (authorization: string | undefined) =>
    fetch(deployment.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...(authorization === undefined ? {} : { authorization }),
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }),
    });

  it('refuses a request without a token, or with one signed by another key, with 401 and WWW-Authenticate', async () => {
    const missing = await post(undefined);
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toMatch(/^Bearer .*resource_metadata="/);
    const forged = await post(`Bearer ${await token('weather:read', (await generateKeyPair('RS256')).privateKey)}`);
    expect(forged.status).toBe(401);
    expect(forged.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
  });

  it('the SDK 2.x client with a valid token calls get_weather; climate_report needs a scope the token lacks', async () => {
    const client = new Sdk2Client({ name: 'platforms-auth', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    const bearer = `Bearer ${await token('weather:read')}`;
    await client.connect(new Sdk2Http(new URL(deployment.url), { requestInit: { headers: { authorization: bearer } } }));
    const weather = await client.callTool({ name: 'get_weather', arguments: { location: 'Lisbon' } });
    expect(weather.structuredContent).toMatchObject({ location: 'Lisbon' });
    await expect(client.callTool({ name: 'climate_report', arguments: { location: 'Lisbon' } })).rejects.toThrow(/Insufficient scope/);
    await client.close();
  });
});
