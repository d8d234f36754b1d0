/**
 * JWT access tokens (RFC 9068), verified with `jose`: the algorithm from the allow-list (never
 * `none`, never HS*), the issuer pinned, the audience this resource (audience.ts), `exp` required
 * and `exp`/`nbf`/`iat` with a small leeway, never a DPoP proof (`typ: dpop+jwt`), and with
 * `requireTyp` only `typ: at+jwt`. Keys come from the issuer's JWKS, fetched once and cached; a
 * token signed with a key id the cache lacks makes one refetch, no more often than jose's
 * cooldown allows. When a refetched set has dropped a key, `onKeysChanged` listeners hear which remain.
 */
import {
  createRemoteJWKSet,
  decodeProtectedHeader,
  errors,
  jwksCache,
  jwtVerify,
  type ExportedJWKSCache,
  type JWTVerifyGetKey,
} from 'jose';
import type { AuthInfo } from '../api.js';
import { audienceCheck, type AudienceCheck } from './audience.js';
import { authInfoOf } from './claims.js';
import { InvalidToken, type TokenVerifier } from './settings.js';

export interface JwtSettings {
  issuer: string;
  audience: string;
  algorithms: string[];
  jwksUri?: string;
  clockSkewSeconds?: number;
  requireTyp?: boolean;
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
  private readonly audience: AudienceCheck;
  private keys: Promise<JWTVerifyGetKey> | undefined;
  /** Where jose keeps the set it last fetched (`uat` changes with each fetch). */
  private readonly fetched: ExportedJWKSCache | Record<string, never> = {};
  private seenAt: number | undefined;
  private held: ReadonlySet<string> = new Set();
  private readonly listeners: ((held: ReadonlySet<string>) => void)[] = [];

  constructor(settings: JwtSettings) {
    this.settings = settings;
    this.audience = audienceCheck(settings.audience);
  }

  async verify(token: string): Promise<AuthInfo> {
    const keys = await this.keySet();
    const skew = this.settings.clockSkewSeconds ?? DEFAULT_SKEW_SECONDS;
    let payload: { [key: string]: unknown };
    let typ: unknown;
    try {
      ({
        payload,
        protectedHeader: { typ },
      } = await jwtVerify(token, keys, {
        issuer: this.settings.issuer,
        algorithms: this.settings.algorithms,
        clockTolerance: skew,
        requiredClaims: ['exp', 'aud'],
        // jose compares case-insensitively, with or without `application/`.
        ...(this.settings.requireTyp === true ? { typ: 'at+jwt' } : {}),
      }));
    } catch (error) {
      const fault = error instanceof errors.JOSEError ? TOKEN_FAULTS[error.code] : undefined;
      if (fault !== undefined) throw new InvalidToken(fault);
      // A malformed token can also surface as a plain TypeError from decoding.
      if (error instanceof TypeError && !(error.cause instanceof Error))
        throw new InvalidToken('the token is not a valid JWT');
      throw error;
    } finally {
      this.noticeRefetch();
    }
    // Verified while another request's refetch dropped its key: refused like the next one will be.
    const kid = this.keyIdOf(token);
    if (kid !== undefined && !this.held.has(kid))
      throw new InvalidToken('the token is signed with an unknown key');
    if (typeof typ === 'string' && /^(application\/)?dpop\+jwt$/i.test(typ))
      throw new InvalidToken('a DPoP proof is not an access token');
    if (!this.audience(payload['aud']))
      throw new InvalidToken('the token is not valid for this resource');
    if (typeof payload['iat'] === 'number' && payload['iat'] > Date.now() / 1000 + skew)
      throw new InvalidToken('the token was issued in the future');
    const info = authInfoOf(payload, token);
    if (info === undefined)
      throw new InvalidToken('the token names neither a subject nor a client');
    return info;
  }

  /** The `kid` a verified token names: what its cached verdict depends on. */
  keyIdOf(token: string): string | undefined {
    try {
      const { kid } = decodeProtectedHeader(token);
      return typeof kid === 'string' ? kid : undefined;
    } catch {
      return undefined;
    }
  }

  /** `listener` hears the key ids still held each time a refetched key set has dropped one. */
  onKeysChanged(listener: (held: ReadonlySet<string>) => void): void {
    this.listeners.push(listener);
  }

  /** After each verification: a plain compare, unless jose has just fetched the set again. */
  private noticeRefetch(): void {
    const { uat, jwks } = this.fetched;
    if (uat === this.seenAt || jwks === undefined) return;
    const first = this.seenAt === undefined;
    this.seenAt = uat;
    const before = this.held;
    this.held = new Set(jwks.keys.flatMap((key) => (typeof key.kid === 'string' ? [key.kid] : [])));
    if (first || [...before].every((kid) => this.held.has(kid))) return;
    for (const listener of this.listeners) listener(this.held);
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
        [jwksCache]: this.fetched,
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
