/**
 * The OAuth side of `connect({ url, auth: { … } })`: signs in when the MCP endpoint refuses a
 * request, and keeps the tokens fresh. One sign-in at a time however many requests were refused.
 *
 * On a refusal: discovery (./discovery.ts), the client's identity (./client-identity.ts), then a
 * grant (./grants.ts): the authorization code flow with PKCE S256, `state`, `resource` and the
 * redirect's `iss` checked, `client_credentials`, or a workload's JWT-bearer assertion. A 401 with a refresh token tries the refresh
 * first. Scopes: the challenge's `scope`, else the resource metadata's `scopes_supported`, else
 * none; a 403 `insufficient_scope` asks again for the union of what was asked before and the
 * challenge's. The same scope set is asked for at most `maxAttempts` times per connection.
 */
import type { HttpAuth, OAuthOptions, StoredTokens, TokenStore } from '../http-auth.js';
import { bearerParams } from './challenge.js';
import { clientIdentity } from './client-identity.js';
import {
  defaultAuthorizationServer,
  discoverAuthorizationServer,
  discoverResource,
} from './discovery.js';
import { DpopBinding } from './dpop.js';
import { AuthorizationError } from './errors.js';
import {
  authorizationCodeGrant,
  clientCredentialsGrant,
  jwtBearerGrant,
  refreshGrant,
  type Grant,
} from './grants.js';
import { MemoryTokenStore } from './memory-store.js';

/** Where the current tokens came from: enough to refresh them, and to key them in the store. */
interface Signed {
  grant: Grant;
  tokens: StoredTokens;
  /** The refresh was tried for these tokens already (a second 401 means signing in again). */
  refreshTried: boolean;
}

export function oauthAuth(options: OAuthOptions, serverUrl: URL): HttpAuth {
  return new OAuthAuthorization(options, serverUrl);
}

class OAuthAuthorization implements HttpAuth {
  private readonly store: TokenStore;
  private signed: Signed | undefined;
  /** Every scope asked for on this connection (step-up asks for the union). */
  private readonly scopes = new Set<string>();
  private readonly attempts = new Map<string, number>();
  private running: Promise<boolean> | undefined;
  /** Created once an authorization server that supports DPoP is met (unless `dpop: false`). */
  private dpop: DpopBinding | undefined;

  private readonly options: OAuthOptions;
  private readonly serverUrl: URL;

  constructor(options: OAuthOptions, serverUrl: URL) {
    this.options = options;
    this.serverUrl = serverUrl;
    this.store = options.store ?? new MemoryTokenStore();
  }

  async headers(request: { method: string; url: URL }): Promise<Record<string, string>> {
    if (this.running !== undefined) await this.running.catch(() => false);
    const signed = this.signed;
    if (signed === undefined) return {};
    if (
      signed.tokens.expiresAt !== undefined &&
      signed.tokens.expiresAt < Date.now() &&
      signed.tokens.refreshToken !== undefined
    ) {
      await this.once(() => this.refresh(signed)).catch(() => false);
    }
    const current = this.signed ?? signed;
    const dpopBound = current.tokens.tokenType?.toLowerCase() === 'dpop' && this.dpop !== undefined;
    if (!dpopBound) return { authorization: `Bearer ${current.tokens.accessToken}` };
    return {
      authorization: `DPoP ${current.tokens.accessToken}`,
      ...(await (this.dpop as DpopBinding).resourceProof(
        request.method,
        request.url,
        current.tokens.accessToken,
      )),
    };
  }

  pending(): Promise<boolean> | undefined {
    return this.running;
  }

  async refused(refusal: {
    status: number;
    challenge: string | undefined;
    url: URL;
    dpopNonce?: string | undefined;
  }): Promise<boolean> {
    if (this.running !== undefined) return this.running.then(() => true);
    if (
      this.dpop !== undefined &&
      refusal.dpopNonce !== undefined &&
      bearerParams(refusal.challenge)['error'] === 'use_dpop_nonce'
    ) {
      await this.dpop.rememberNonce(refusal.url, refusal.dpopNonce);
      return true;
    }
    return this.once(() => this.signIn(refusal.status, refusal.challenge));
  }

  /** Runs one sign-in (or refresh); requests arriving meanwhile wait for it. */
  private once(work: () => Promise<boolean>): Promise<boolean> {
    const running = work().finally(() => {
      if (this.running === running) this.running = undefined;
    });
    this.running = running;
    return running;
  }

  private async signIn(status: number, challenge: string | undefined): Promise<boolean> {
    const params = bearerParams(challenge);
    const stepUp = status === 403 || params['error'] === 'insufficient_scope';
    const signed = this.signed;
    if (
      !stepUp &&
      signed !== undefined &&
      signed.tokens.refreshToken !== undefined &&
      !signed.refreshTried
    ) {
      signed.refreshTried = true;
      if (await this.refresh(signed).catch(() => false)) return true;
    }
    const resource = await discoverResource(this.serverUrl, params['resource_metadata']);
    // Without resource metadata (a 2025-03-26 server) the server's origin is its authorization server.
    const issuer = resource?.authorization_servers?.[0] ?? this.serverUrl.origin;
    const as =
      (await discoverAuthorizationServer(new URL(issuer), resource === undefined)) ??
      (resource === undefined ? defaultAuthorizationServer(new URL(issuer)) : undefined);
    if (as === undefined)
      throw new AuthorizationError(`no authorization server metadata found for ${issuer}`);
    const resourceId = resource?.resource;
    const storeKey = resourceId ?? this.serverUrl.href;

    // Tokens kept from an earlier connection to the same resource at the same issuer.
    if (signed === undefined) {
      const kept = await this.store.getTokens(as.issuer, storeKey);
      if (kept !== undefined && !stepUp) {
        this.signed = {
          grant: {
            as,
            identity: await clientIdentity(as, this.options, this.store),
            resource: resourceId,
            store: storeKey,
          },
          tokens: kept,
          refreshTried: false,
        };
        return true;
      }
    }

    const scope = this.chooseScope(
      params['scope'],
      resource?.scopes_supported,
      as.scopes_supported,
      stepUp,
    );
    const key = scope ?? '';
    const attempts = (this.attempts.get(key) ?? 0) + 1;
    if (attempts > (this.options.maxAttempts ?? 3)) return false;
    this.attempts.set(key, attempts);

    const identity = await clientIdentity(as, this.options, this.store);
    const dpopAlgorithms = as.dpop_signing_alg_values_supported;
    // Bound tokens only when both ends take them: a resource server that challenges with Bearer alone
    // would refuse a DPoP-scheme token (RFC 9449 section 7.1).
    if (
      this.dpop === undefined &&
      (this.options.dpop ??
        (dpopAlgorithms !== undefined && resourceTakesDpop(challenge, resource)))
    ) {
      this.dpop = new DpopBinding(
        dpopAlgorithms === undefined || dpopAlgorithms.includes('ES256')
          ? 'ES256'
          : dpopAlgorithms[0],
      );
    }
    await this.dpop?.ready;
    const grant: Grant = {
      as,
      identity,
      resource: resourceId,
      store: storeKey,
      ...(this.dpop ? { dpop: this.dpop } : {}),
    };
    const assertion = this.options.assertion;
    const tokens =
      assertion !== undefined
        ? await jwtBearerGrant(
            grant,
            scope,
            typeof assertion === 'string'
              ? assertion
              : await assertion({ issuer: as.issuer, resource: resourceId, scope }),
          )
        : this.options.clientCredentials
          ? await clientCredentialsGrant(grant, scope)
          : await authorizationCodeGrant(grant, scope, this.options);
    await this.store.setTokens(as.issuer, storeKey, tokens);
    this.signed = { grant, tokens, refreshTried: false };
    return true;
  }

  /**
   * The scope to ask for: the challenge's, else the resource's `scopes_supported`, else the app's,
   * else none. A step-up adds the challenge's to everything asked before. `offline_access` is added
   * for a user's sign-in when the authorization server lists it (2026-07-28).
   */
  private chooseScope(
    challenged: string | undefined,
    resourceScopes: string[] | undefined,
    serverScopes: string[] | undefined,
    stepUp: boolean,
  ): string | undefined {
    const chosen = challenged?.split(' ') ?? resourceScopes ?? this.options.scope?.split(' ') ?? [];
    if (!stepUp) this.scopes.clear();
    for (const s of chosen) if (s !== '') this.scopes.add(s);
    if (
      !this.options.clientCredentials &&
      serverScopes?.includes('offline_access') &&
      this.scopes.size > 0
    )
      this.scopes.add('offline_access');
    return this.scopes.size === 0 ? undefined : [...this.scopes].join(' ');
  }

  private async refresh(signed: Signed): Promise<boolean> {
    if (signed.tokens.refreshToken === undefined) return false;
    const tokens = await refreshGrant(signed.grant, signed.tokens.refreshToken);
    await this.store.setTokens(signed.grant.as.issuer, signed.grant.store, tokens);
    this.signed = { grant: signed.grant, tokens, refreshTried: false };
    return true;
  }
}

/** Whether the protected resource asks for DPoP: its challenge uses the DPoP scheme, or its metadata says so (RFC 9728). */
function resourceTakesDpop(
  challenge: string | undefined,
  resource: { [key: string]: unknown } | undefined,
): boolean {
  if (challenge !== undefined && /(^|,)\s*dpop(\s|,|$)/i.test(challenge)) return true;
  return (
    resource?.['dpop_bound_access_tokens_required'] === true ||
    Array.isArray(resource?.['dpop_signing_alg_values_supported'])
  );
}
