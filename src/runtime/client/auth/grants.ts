/**
 * The token requests, through oauth4webapi: the authorization code flow (PKCE S256, `state`,
 * RFC 8707 `resource`, the redirect checked per RFC 9207 before the code goes anywhere), the
 * `client_credentials` grant, and refresh. Each resolves with the tokens as the store keeps them.
 */
import * as oauth from 'oauth4webapi';
import type { OAuthOptions, StoredTokens } from '../http-auth.js';
import type { ClientIdentity } from './client-identity.js';
import type { DpopBinding } from './dpop.js';
import { AuthorizationError } from './errors.js';
import { httpOptions } from './insecure.js';

/** One authorization server, the client's identity there, and the resource the tokens are for. */
export interface Grant {
  as: oauth.AuthorizationServer;
  identity: ClientIdentity;
  /** RFC 8707 `resource` (the protected resource metadata's), when the server published one. */
  resource: string | undefined;
  /** The store's resource key. */
  store: string;
  dpop?: DpopBinding;
}

/** Refuses an authorization server that does not offer PKCE with S256. */
export function requireS256(as: oauth.AuthorizationServer): void {
  if (!as.code_challenge_methods_supported?.includes('S256')) {
    throw new AuthorizationError(
      `authorization server ${as.issuer} does not list S256 in code_challenge_methods_supported (${JSON.stringify(as.code_challenge_methods_supported ?? null)}): refusing to sign in without PKCE`,
    );
  }
}

export async function authorizationCodeGrant(
  grant: Grant,
  scope: string | undefined,
  options: OAuthOptions,
): Promise<StoredTokens> {
  const { as, identity } = grant;
  requireS256(as);
  if (options.openAuthorizationUrl === undefined || options.redirectUrl === undefined) {
    throw new AuthorizationError(
      'signing in needs openAuthorizationUrl and redirectUrl (or clientCredentials)',
    );
  }
  if (as.authorization_endpoint === undefined)
    throw new AuthorizationError(`authorization server ${as.issuer} has no authorization_endpoint`);
  const redirectUri = new URL(options.redirectUrl).href;
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint);
  httpOptions(url);
  const query = url.searchParams;
  query.set('response_type', 'code');
  query.set('client_id', identity.client.client_id);
  query.set('redirect_uri', redirectUri);
  query.set('code_challenge', await oauth.calculatePKCECodeChallenge(verifier));
  query.set('code_challenge_method', 'S256');
  query.set('state', state);
  if (scope !== undefined) query.set('scope', scope);
  if (grant.resource !== undefined) query.set('resource', grant.resource);

  const redirected = new URL(await options.openAuthorizationUrl(url));
  let callback: URLSearchParams;
  try {
    // Checks `state`, an `error` answer, and `iss` (required when the server advertises it, compared when present).
    callback = oauth.validateAuthResponse(as, identity.client, redirected, state);
  } catch (error) {
    throw new AuthorizationError(`the authorization response was refused: ${describe(error)}`, {
      cause: error,
    });
  }
  return tokenResponse(
    'authorization code',
    () =>
      oauth.authorizationCodeGrantRequest(
        as,
        identity.client,
        identity.auth,
        callback,
        redirectUri,
        verifier,
        requestOptions(grant, scope),
      ),
    (response) => oauth.processAuthorizationCodeResponse(as, identity.client, response),
    grant,
  );
}

export async function clientCredentialsGrant(
  grant: Grant,
  scope: string | undefined,
): Promise<StoredTokens> {
  const { as, identity } = grant;
  const parameters: Record<string, string> = {};
  if (scope !== undefined) parameters['scope'] = scope;
  if (grant.resource !== undefined) parameters['resource'] = grant.resource;
  return tokenResponse(
    'client credentials',
    () =>
      oauth.clientCredentialsGrantRequest(as, identity.client, identity.auth, parameters, {
        ...httpOptions(as.token_endpoint),
        ...(grant.dpop ? { DPoP: grant.dpop.handle(identity.client) } : {}),
      }),
    (response) => oauth.processClientCredentialsResponse(as, identity.client, response),
    grant,
  );
}

/** RFC 7523 JWT-bearer: the workload's assertion for a token; a refusal is final (no retry, no other grant). */
export async function jwtBearerGrant(
  grant: Grant,
  scope: string | undefined,
  assertion: string,
): Promise<StoredTokens> {
  const { as, identity } = grant;
  const parameters: Record<string, string> = { assertion };
  if (scope !== undefined) parameters['scope'] = scope;
  if (grant.resource !== undefined) parameters['resource'] = grant.resource;
  return tokenResponse(
    'JWT-bearer',
    () =>
      oauth.genericTokenEndpointRequest(
        as,
        identity.client,
        identity.auth,
        JWT_BEARER,
        parameters,
        {
          ...httpOptions(as.token_endpoint),
          ...(grant.dpop ? { DPoP: grant.dpop.handle(identity.client) } : {}),
        },
      ),
    (response) => oauth.processGenericTokenEndpointResponse(as, identity.client, response),
    grant,
  );
}

const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

export async function refreshGrant(grant: Grant, refreshToken: string): Promise<StoredTokens> {
  const { as, identity } = grant;
  const tokens = await tokenResponse(
    'refresh',
    () =>
      oauth.refreshTokenGrantRequest(
        as,
        identity.client,
        identity.auth,
        refreshToken,
        requestOptions(grant, undefined),
      ),
    (response) => oauth.processRefreshTokenResponse(as, identity.client, response),
    grant,
  );
  // A server that does not rotate refresh tokens keeps the one it gave.
  return tokens.refreshToken === undefined ? { ...tokens, refreshToken } : tokens;
}

function requestOptions(
  grant: Grant,
  scope: string | undefined,
): oauth.TokenEndpointRequestOptions {
  const additionalParameters: Record<string, string> = {};
  if (grant.resource !== undefined) additionalParameters['resource'] = grant.resource;
  if (scope?.split(' ').includes('offline_access')) additionalParameters['scope'] = scope;
  return {
    additionalParameters,
    ...httpOptions(grant.as.token_endpoint),
    ...(grant.dpop ? { DPoP: grant.dpop.handle(grant.identity.client) } : {}),
  };
}

/** Sends a token request (once more when a DPoP server asks for a nonce) and keeps what it gives. */
async function tokenResponse(
  what: string,
  send: () => Promise<Response>,
  process: (response: Response) => Promise<oauth.TokenEndpointResponse>,
  grant: Grant,
): Promise<StoredTokens> {
  if (grant.as.token_endpoint === undefined)
    throw new AuthorizationError(`authorization server ${grant.as.issuer} has no token_endpoint`);
  let result: oauth.TokenEndpointResponse;
  try {
    result = await process(await send()).catch(async (error: unknown) => {
      if (grant.dpop !== undefined && oauth.isDPoPNonceError(error)) return process(await send());
      throw error;
    });
  } catch (error) {
    throw new AuthorizationError(
      `the ${what} token request to ${grant.as.token_endpoint} failed: ${describe(error)}`,
      { cause: error },
    );
  }
  const tokens: StoredTokens = { accessToken: result.access_token, tokenType: result.token_type };
  if (result.refresh_token !== undefined) tokens.refreshToken = result.refresh_token;
  // Used until a little before the server's expiry: a tenth of the lifetime, at most 30 s.
  if (result.expires_in !== undefined)
    tokens.expiresAt =
      Date.now() + result.expires_in * 1000 - Math.min(30_000, result.expires_in * 100);
  if (result.scope !== undefined) tokens.scope = result.scope;
  return tokens;
}

function describe(error: unknown): string {
  if (error instanceof oauth.AuthorizationResponseError)
    return `${error.error}${error.error_description ? `: ${error.error_description}` : ''}`;
  if (error instanceof oauth.ResponseBodyError)
    return `${error.error}${error.error_description ? `: ${error.error_description}` : ''} (HTTP ${error.status})`;
  return error instanceof Error ? error.message : String(error);
}
