/// <reference types="node" />
/**
 * What `connect({ url, auth })` accepts, and the one hook the HTTP transport calls: headers before
 * each request to the MCP endpoint, and a chance to sign in again when the endpoint refuses one
 * (401, or 403 `insufficient_scope`). A static token and a token function live here; the OAuth
 * flow lives in `./auth/` (it needs oauth4webapi), loaded only when an OAuth configuration is given,
 * so a client generated without `--auth` has neither the folder nor the package.
 */
import { assignOwn } from '../protocol/jsonrpc.js';
import type { Exchange, WireResponse } from './http-wire.js';
import { loadOAuth } from './oauth-module.js';

/** What the transport asks of an authorization: headers for a request, and whether to send it again. */
export interface HttpAuth {
  /** Headers for one request to the MCP endpoint (`Authorization`, and `DPoP` when tokens are bound). */
  headers(request: { method: string; url: URL }): Promise<Record<string, string>>;
  /**
   * The endpoint refused a request: 401, or 403 with `error="insufficient_scope"`. Resolves true when
   * new credentials are in place and the request is worth sending again; rejects when signing in failed.
   */
  /** The sign-in in progress, if any. */
  pending?(): Promise<unknown> | undefined;
  refused(refusal: {
    status: number;
    challenge: string | undefined;
    method: string;
    url: URL;
    dpopNonce?: string | undefined;
  }): Promise<boolean>;
}

/** Signing in failed, or the server refused the credentials: negotiation must not read it as "no such revision". */
export function isSignInFailure(error: unknown): boolean {
  const e = error as { name?: unknown; status?: unknown } | null;
  return (
    e !== null &&
    typeof e === 'object' &&
    (e.name === 'AuthorizationError' ||
      (e.name === 'HttpStatusError' && (e.status === 401 || e.status === 403)))
  );
}

/** A function giving the current access token (called before every request; `undefined` sends none). */
export type TokenProvider = (context: {
  refused: boolean;
}) => string | undefined | Promise<string | undefined>;

/** Tokens as the store keeps them; `expiresAt` (ms since the epoch) is when to refresh, a little before the server's expiry. */
export interface StoredTokens {
  accessToken: string;
  tokenType?: string;
  refreshToken?: string;
  expiresAt?: number;
  scope?: string;
}

/** A client identity at one authorization server (registered, pre-registered or a metadata document URL). */
export interface StoredClient {
  clientId: string;
  clientSecret?: string;
  tokenEndpointAuthMethod?: string;
  redirectUris?: string[];
}

/** Where tokens and client identities are kept: tokens by issuer and resource, clients by issuer. */
export interface TokenStore {
  getTokens(
    issuer: string,
    resource: string,
  ): StoredTokens | undefined | Promise<StoredTokens | undefined>;
  setTokens(
    issuer: string,
    resource: string,
    tokens: StoredTokens | undefined,
  ): void | Promise<void>;
  getClient(issuer: string): StoredClient | undefined | Promise<StoredClient | undefined>;
  setClient(issuer: string, client: StoredClient | undefined): void | Promise<void>;
}

/** The OAuth flow's settings (see src/runtime/client/auth/). */
export interface OAuthOptions {
  /**
   * Shows the authorization URL to the user (a browser) and resolves with the URL the authorization
   * server redirected back to (`redirectUrl` with `code`, `state`, maybe `iss`). See `loopbackRedirect`.
   */
  openAuthorizationUrl?: (url: URL) => Promise<string | URL>;
  /** The redirect URI registered for this client (required for the authorization code flow). */
  redirectUrl?: string | URL;
  /** A client ID metadata document URL (https, with a path), used when the server advertises support. */
  clientMetadataUrl?: string;
  /** Credentials registered with the authorization server beforehand. */
  clientId?: string;
  clientSecret?: string;
  /** The `client_credentials` grant instead of a user's sign-in (machine to machine). */
  clientCredentials?: boolean;
  /**
   * Workload identity: a JWT the platform issued this workload, exchanged with the RFC 7523
   * JWT-bearer grant (with `clientId`) instead of a sign-in. A function is asked for a fresh one each
   * time, told which authorization server, resource and scope it is for (see `idJagAssertion`).
   */
  assertion?:
    | string
    | ((target: {
        issuer: string;
        resource: string | undefined;
        scope: string | undefined;
      }) => string | Promise<string>);
  /** A PKCS#8 PEM private key for `private_key_jwt` client authentication (with `clientId`). */
  privateKeyPem?: string;
  /** Its JWS algorithm (default ES256). */
  signingAlgorithm?: string;
  /**
   * Bind tokens to a key (DPoP, RFC 9449). Default: when the authorization server lists
   * `dpop_signing_alg_values_supported` and the resource server asks for DPoP (a `DPoP` challenge, or
   * DPoP fields in its resource metadata).
   */
  dpop?: boolean;
  /** `client_name` and friends for dynamic registration. */
  clientName?: string;
  /** Tokens and client identities (default: kept in memory for this connection). */
  store?: TokenStore;
  /** Scopes to ask for when neither the challenge nor the resource metadata names any. */
  scope?: string;
  /** Sign-ins in a row for one request before giving up (default 3). */
  maxAttempts?: number;
}

/** `connect({ url, auth })`: a bearer token, a function giving one, or the OAuth flow's settings. */
export type AuthOption = string | TokenProvider | OAuthOptions;

/** Requests sent again after a refusal, at most, before the refusal is the answer. */
const MAX_AUTH_RETRIES = 3;

/** The transport-side hook for an `auth` option. */
export async function httpAuthFor(option: AuthOption, serverUrl: URL): Promise<HttpAuth> {
  if (typeof option === 'string') return tokenAuth(() => option);
  if (typeof option === 'function') return tokenAuth(option);
  // oauth-module.ts loads auth/; a client generated without `--auth` has neither the folder nor
  // oauth4webapi, and its oauth-module.ts (oauth-module-absent.ts) says so instead.
  return (await loadOAuth()).oauthAuth(option, serverUrl);
}

/**
 * A token given by the app: sent as `Bearer`. After a 401 the function is asked with
 * `refused: true`; a different token is sent with the retry, the same one (or none) ends it.
 */
function tokenAuth(provider: TokenProvider): HttpAuth {
  let lastSent: string | undefined;
  let replacement: string | undefined;
  return {
    async headers(): Promise<Record<string, string>> {
      const token = replacement ?? (await provider({ refused: false }));
      replacement = undefined;
      lastSent = token;
      return token === undefined ? {} : { authorization: `Bearer ${token}` };
    },
    async refused(refusal) {
      if (refusal.status !== 401) return false;
      const next = await provider({ refused: true });
      if (next === undefined || next === lastSent) return false;
      replacement = next;
      return true;
    },
  };
}

/**
 * Sends one request with the authorization's headers; on a refusal it may sign in and send it again
 * (at most MAX_AUTH_RETRIES times). A refusal that is not retried is returned unread.
 */
export async function sendAuthorized(
  auth: HttpAuth | undefined,
  method: string,
  url: URL,
  send: (headers: Record<string, string>) => Promise<WireResponse>,
): Promise<WireResponse> {
  if (auth === undefined) return send({});
  for (let retries = 0; ; retries++) {
    const response = await send(await auth.headers({ method, url }));
    const status = response.status;
    const challenge = response.header('www-authenticate');
    const nonce = response.header('dpop-nonce');
    const stepUp =
      status === 403 &&
      challenge !== undefined &&
      /error\s*=\s*"?insufficient_scope/i.test(challenge);
    if ((status !== 401 && !stepUp) || retries >= MAX_AUTH_RETRIES) return response;
    let again: boolean;
    try {
      again = await auth.refused({
        status,
        challenge,
        method,
        url,
        dpopNonce: nonce,
      });
    } catch (error) {
      void response.drain();
      throw error;
    }
    if (!again) return response;
    void response.drain();
  }
}

/** The wire's `exchange` with the connection's authorization, if any: its headers, and a new sign-in on a refusal. */
export function authorizedExchange(
  { auth, exchange }: { readonly auth?: HttpAuth | undefined; readonly exchange: Exchange },
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
  timeoutMs?: number,
  signal?: AbortSignal,
): Promise<WireResponse> {
  if (auth === undefined) return exchange(url, method, headers, body, timeoutMs, signal);
  return sendAuthorized(auth, method, url, (extra) =>
    exchange(url, method, assignOwn(assignOwn({}, headers), extra), body, timeoutMs, signal),
  );
}
