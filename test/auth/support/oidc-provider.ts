/**
 * A real OAuth 2.1 authorization server for tests: `oidc-provider` on 127.0.0.1 (a free port),
 * issuing RS256 JWT access tokens whose audience is the resource asked for (RFC 8707 resource
 * indicators). Two clients: a confidential `client_credentials` client and a public
 * authorization-code client with PKCE whose login and consent are approved without a person
 * (the interaction endpoint answers them itself). The signing key is generated here and handed to
 * the provider, so tests can also sign tokens with the issuer's own key (expired, wrong audience…).
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey, type JWTPayload } from 'jose';
import Provider from 'oidc-provider';

export interface TestAuthorizationServer {
  /** The issuer URL, e.g. `http://127.0.0.1:41234`. */
  issuer: string;
  /** The key id of the issuer's signing key (in its JWKS). */
  kid: string;
  /** Signs any claims with the issuer's own key (RS256, its kid, `typ: at+jwt` unless `typ` says otherwise; null: none). */
  sign(claims: JWTPayload, header?: { kid?: string; typ?: string | null }): Promise<string>;
  /** The issuer's public key as a JWK (what a forger knows). */
  publicJwk: Record<string, unknown>;
  clientCredentials: { clientId: string; clientSecret: string };
  /** A confidential client for resource servers to introspect tokens with, at `introspectionEndpoint`. */
  resourceServerClient: { clientId: string; clientSecret: string };
  introspectionEndpoint: string;
  publicClient: { clientId: string; redirectUri: string };
  /** An access token for `resource` by client_credentials (RFC 6749 4.4), with `scope` if given. */
  tokenByClientCredentials(resource: string, scope?: string): Promise<string>;
  /** An access token for `resource` by the authorization-code flow with PKCE, following every redirect. */
  tokenByAuthorizationCode(resource: string, scope: string): Promise<string>;
  close(): Promise<void>;
}

export interface AuthorizationServerOptions {
  /** Every scope the resource servers offer; tokens get what was asked for among them. Default: `mcp:tools weather:read weather:write`. */
  scopes?: string[];
  /** Access token lifetime in seconds. Default 3600. */
  accessTokenTtl?: number;
  /** The subject the auto-approved login signs in as. Default `user-1`. */
  accountId?: string;
  /** `opaque` access tokens are checked by introspection (RFC 7662) only. Default `jwt`. */
  tokenFormat?: 'jwt' | 'opaque';
}

const CC_CLIENT = { clientId: 'test-service', clientSecret: 'test-service-secret-0123456789abcdef' };
const REDIRECT = 'http://127.0.0.1:1/callback';
const PUBLIC_CLIENT = { clientId: 'test-app', redirectUri: REDIRECT };
const RS_CLIENT = { clientId: 'test-resource-server', clientSecret: 'test-resource-server-secret-0123456789' };

export async function startAuthorizationServer(options: AuthorizationServerOptions = {}): Promise<TestAuthorizationServer> {
  const scopes = options.scopes ?? ['mcp:tools', 'weather:read', 'weather:write'];
  const accountId = options.accountId ?? 'user-1';
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const kid = `k-${randomBytes(4).toString('hex')}`;
  const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' };
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };

  // The provider needs its issuer before it listens: take a free port first.
  const http = createServer();
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;

  const provider = new Provider(issuer, {
    clients: [
      { client_id: CC_CLIENT.clientId, client_secret: CC_CLIENT.clientSecret, grant_types: ['client_credentials'], redirect_uris: [], response_types: [] },
      { client_id: RS_CLIENT.clientId, client_secret: RS_CLIENT.clientSecret, grant_types: ['client_credentials'], redirect_uris: [], response_types: [] },
      { client_id: PUBLIC_CLIENT.clientId, token_endpoint_auth_method: 'none', grant_types: ['authorization_code'], redirect_uris: [REDIRECT], response_types: ['code'] },
    ],
    jwks: { keys: [privateJwk] },
    scopes: ['openid', ...scopes],
    findAccount: (_ctx: unknown, id: string) => ({ accountId: id, claims: () => ({ sub: id }) }),
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      introspection: { enabled: true },
      resourceIndicators: {
        enabled: true,
        // One resource per request: the one the client names.
        defaultResource: (_ctx: unknown, _client: unknown, oneOf?: string) => oneOf,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, resource: string) => ({
          scope: scopes.join(' '),
          audience: resource,
          accessTokenTTL: options.accessTokenTtl ?? 3600,
          accessTokenFormat: options.tokenFormat ?? 'jwt',
          jwt: { sign: { alg: 'RS256' } },
        }),
      },
    },
    // Explicit lifetimes (the defaults print a notice each).
    ttl: { ClientCredentials: options.accessTokenTtl ?? 3600, AccessToken: options.accessTokenTtl ?? 3600, Interaction: 600, Session: 3600, Grant: 3600, AuthorizationCode: 60 },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
  } as never);
  const callback = provider.callback();

  /** Login and consent, answered at once: the user is `accountId` and grants what was asked. */
  async function interact(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const details = await provider.interactionDetails(req, res);
    const params = details.params as { client_id: string };
    let result: Record<string, unknown>;
    if (details.prompt.name === 'login') result = { login: { accountId } };
    else {
      // Grant exactly what the provider says is missing, as a user clicking "allow" would.
      const missing = details.prompt.details as { missingOIDCScope?: string[]; missingResourceScopes?: Record<string, string[]> };
      const grant =
        (details.grantId === undefined ? undefined : await provider.Grant.find(details.grantId)) ??
        new provider.Grant({ accountId: details.session!.accountId, clientId: params.client_id });
      if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
      for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) grant.addResourceScope(indicator, scopes.join(' '));
      result = { consent: { grantId: await grant.save() } };
    }
    await provider.interactionFinished(req, res, result, { mergeWithLastSubmission: true });
  }

  http.on('request', (req, res) => {
    if (req.url?.startsWith('/interaction/')) {
      interact(req, res).catch((error: unknown) => {
        res.writeHead(500).end(String(error));
      });
    } else void callback(req, res);
  });

  async function tokenRequest(body: Record<string, string>, basic?: { clientId: string; clientSecret: string }): Promise<string> {
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
    if (basic) headers['authorization'] = `Basic ${Buffer.from(`${basic.clientId}:${basic.clientSecret}`).toString('base64')}`;
    const response = await fetch(`${issuer}/token`, { method: 'POST', headers, body: new URLSearchParams(body).toString() });
    const json = (await response.json()) as { access_token?: string; error?: string; error_description?: string };
    if (!response.ok || json.access_token === undefined) throw new Error(`token request failed: ${response.status} ${json.error} ${json.error_description}`);
    return json.access_token;
  }

  return {
    issuer,
    kid,
    publicJwk,
    clientCredentials: CC_CLIENT,
    resourceServerClient: RS_CLIENT,
    introspectionEndpoint: `${issuer}/token/introspection`,
    publicClient: PUBLIC_CLIENT,
    sign: (claims, header = {}) => signWith(privateKey, header.kid ?? kid, claims, header.typ),
    tokenByClientCredentials: (resource, scope) =>
      tokenRequest({ grant_type: 'client_credentials', resource, ...(scope === undefined ? {} : { scope }) }, CC_CLIENT),
    async tokenByAuthorizationCode(resource, scope) {
      const verifier = randomBytes(32).toString('base64url');
      const challenge = createHash('sha256').update(verifier).digest('base64url');
      const state = randomBytes(8).toString('hex');
      const start = new URL(`${issuer}/auth`);
      for (const [k, v] of Object.entries({ client_id: PUBLIC_CLIENT.clientId, response_type: 'code', redirect_uri: REDIRECT, scope, resource, state, code_challenge: challenge, code_challenge_method: 'S256' })) {
        start.searchParams.set(k, v);
      }
      const code = await followToCallback(start.toString());
      if (code.get('state') !== state) throw new Error('the authorization response lost its state');
      const authorizationCode = code.get('code');
      if (authorizationCode === null) throw new Error(`no code in the authorization response: ${code.toString()}`);
      return tokenRequest({ grant_type: 'authorization_code', code: authorizationCode, redirect_uri: REDIRECT, code_verifier: verifier, client_id: PUBLIC_CLIENT.clientId, resource });
    },
    close: () =>
      new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  };
}

/** Signs `claims` as RS256 with `key`, under `kid`, typed `at+jwt` unless `typ` says otherwise (null: no `typ`). */
export function signWith(key: CryptoKey, kid: string, claims: JWTPayload, typ: string | null = 'at+jwt'): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid, ...(typ === null ? {} : { typ }) }).sign(key);
}

/**
 * Follows redirects the way a browser would (cookies kept per request chain) until one points at
 * the client's redirect URI; returns that URI's query (code, state, iss).
 */
export async function followToCallback(url: string, maxHops = 10): Promise<URLSearchParams> {
  const cookies = new Map<string, string>();
  let next = url;
  for (let hop = 0; hop < maxHops; hop++) {
    if (next.startsWith(REDIRECT)) return new URL(next).searchParams;
    const cookie = [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const response = await fetch(next, { redirect: 'manual', headers: cookie === '' ? {} : { cookie } });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      if (eq > 0) cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1));
    }
    const location = response.headers.get("location");
    if (location === null) throw new Error(`the authorization flow stopped at ${response.status} ${next}: ${(await response.text()).slice(0, 200)}`);
    next = new URL(location, next).toString();
  }
  throw new Error('too many redirects in the authorization flow');
}
