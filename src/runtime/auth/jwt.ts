/**
 * JWT access tokens (RFC 9068), verified with `jose`: the algorithm from the allow-list (never
 * `none`, never HS*), the issuer pinned, the audience this resource, `exp` required and `exp`/`nbf`
 * with a small leeway. Keys come from the issuer's JWKS, fetched once and cached; a token signed
 * with a key id the cache lacks makes one refetch, at most every 30 s (jose's cooldown).
 */
import { createRemoteJWKSet, errors, jwtVerify, type JWTVerifyGetKey } from 'jose';
import type { AuthInfo } from '../api.js';
import { authInfoOf } from './claims.js';
import { InvalidToken, type TokenVerifier } from './settings.js';

export interface JwtSettings {
  issuer: string;
  audience: string;
  algorithms: string[];
  jwksUri?: string;
  clockSkewSeconds?: number;
}

const DEFAULT_SKEW_SECONDS = 30;
/** What a refused token's `error_description` says, by jose's error code; anything else is not the token's fault. */
const TOKEN_FAULTS: Record<string, string> = {
  ERR_JWT_EXPIRED: 'the token has expired',
  ERR_JWT_CLAIM_VALIDATION_FAILED: 'the token is not valid for this resource',
  ERR_JWS_SIGNATURE_VERIFICATION_FAILED: 'the token signature is invalid',
  ERR_JWS_INVALID: 'the token is not a signed JWT',
  ERR_JWT_INVALID: 'the token is not a valid JWT',
  ERR_JOSE_ALG_NOT_ALLOWED: 'the token is signed with an algorithm this resource does not accept',
  ERR_JOSE_NOT_SUPPORTED: 'the token is signed with an algorithm this resource does not accept',
  ERR_JWKS_NO_MATCHING_KEY: 'the token is signed with an unknown key',
  ERR_JWKS_MULTIPLE_MATCHING_KEYS: 'the token does not say which key signed it',
};

export class JwtVerifier implements TokenVerifier {
  private readonly settings: JwtSettings;
  private keys: Promise<JWTVerifyGetKey> | undefined;

  constructor(settings: JwtSettings) {
    this.settings = settings;
  }

  async verify(token: string): Promise<AuthInfo> {
    const keys = await this.keySet();
    let payload: { [key: string]: unknown };
    try {
      ({ payload } = await jwtVerify(token, keys, {
        issuer: this.settings.issuer,
        audience: this.settings.audience,
        algorithms: this.settings.algorithms,
        clockTolerance: this.settings.clockSkewSeconds ?? DEFAULT_SKEW_SECONDS,
        requiredClaims: ['exp'],
      }));
    } catch (error) {
      const fault = error instanceof errors.JOSEError ? TOKEN_FAULTS[error.code] : undefined;
      if (fault !== undefined) throw new InvalidToken(fault);
      // A malformed token can also surface as a plain TypeError from decoding.
      if (error instanceof TypeError && !(error.cause instanceof Error))
        throw new InvalidToken('the token is not a valid JWT');
      throw error;
    }
    const info = authInfoOf(payload);
    if (info === undefined)
      throw new InvalidToken('the token names neither a subject nor a client');
    return info;
  }

  /** The issuer's key set, its location discovered from the issuer's metadata unless configured. */
  private keySet(): Promise<JWTVerifyGetKey> {
    this.keys ??= (
      this.settings.jwksUri !== undefined
        ? Promise.resolve(this.settings.jwksUri)
        : discoverJwksUri(this.settings.issuer)
    ).then((uri) =>
      createRemoteJWKSet(new URL(uri), {
        cooldownDuration: 30_000,
        cacheMaxAge: 10 * 60_000,
        timeoutDuration: 5_000,
      }),
    );
    // A failed discovery is tried again on the next request, not remembered.
    this.keys.catch(() => {
      this.keys = undefined;
    });
    return this.keys;
  }
}

/**
 * `jwks_uri` from the issuer's metadata: RFC 8414 first, then OpenID Connect discovery (path
 * inserted, then appended), each checked to be about this very issuer.
 */
export async function discoverJwksUri(issuer: string): Promise<string> {
  const url = new URL(issuer);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
  const candidates = [
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
    `${url.origin}/.well-known/openid-configuration${path}`,
    ...(path === '' ? [] : [`${url.origin}${path}/.well-known/openid-configuration`]),
  ];
  for (const candidate of candidates) {
    const response = await fetch(candidate, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(5_000),
    });
    if (!response.ok) continue;
    const metadata = (await response.json()) as { issuer?: unknown; jwks_uri?: unknown };
    if (metadata.issuer !== issuer)
      throw new Error(
        `the metadata at ${candidate} is about issuer ${JSON.stringify(metadata.issuer)}, not ${issuer}`,
      );
    if (typeof metadata.jwks_uri !== 'string')
      throw new Error(`the metadata at ${candidate} has no jwks_uri`);
    return metadata.jwks_uri;
  }
  throw new Error(`no authorization server metadata found for issuer ${issuer}`);
}
